#!/usr/bin/env python3
"""The real-browser test of `alarmclock web` (run by scripts/test-web).

Starts the real service (`alarmclock run`, on a temporary config, playing into a
PulseAudio null sink) and the real `alarmclock web` on a loopback port, then drives
headless Chromium at a phone's viewport (390x844) through the page as a user would:
log in, add an alarm with the form, switch one off, ring one and snooze and stop it
from the page, delete one. After each step the config file, `alarmclock list --json`
and `status --json` must agree with what the page shows. Screenshots of the main
screens, in English and Traditional Chinese (Accept-Language), go to --screenshots.

Prints one "ok - ..." line per check and "web: N passed, N failed"; exits 1 on failure.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
# Generous: the machine running the tests is busy.
DEADLINE = 30

CONFIG = """\
# alarms for the browser test: this comment must survive the page's edits
[settings]
timezone = "UTC"

[audio]
device = "{device}"

[defaults]
ring_for = "5m"

[[alarm]]
id = "work"
time = "06:45"
days = "weekdays"
label = "Work"

[[alarm]]
id = "gym"    # a trailing comment too
time = "18:30"
days = ["mon", "wed"]
label = "Gym"

[[alarm]]
id = "lie-in"
time = "09:00"
days = "weekends"
label = "Lie in"

[[alarm]]
id = "markup"
time = "12:00"
label = "<img src=x onerror=alert(1)> <b>bold</b>"
"""


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, condition, detail=""):
        if condition:
            print(f"ok   - {name}", flush=True)
            self.passed += 1
        else:
            print(f"FAIL - {name}", flush=True)
            if detail:
                print("       " + str(detail).replace("\n", "\n       "), flush=True)
            self.failed += 1
        return condition


def wait_for(what, predicate, timeout=DEADLINE):
    """Polls `predicate` until it returns something truthy; never a fixed sleep."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.05)


class Rig:
    """The service and the web process on files in a temporary directory."""

    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        self.config = os.path.join(work, "alarms.toml")
        self.state = os.path.join(work, "state")
        self.socket = os.path.join(self.state, "control.sock")
        self.token_file = os.path.join(work, "web-token")
        self.env = dict(os.environ, TZ="UTC", LANG="C.UTF-8")
        self.env.pop("NOTIFY_SOCKET", None)
        self.procs = []
        device = "pulse:" + os.environ.get("ALARMCLOCK_TEST_SINK", "alarmclock_test")
        with open(self.config, "w") as f:
            f.write(CONFIG.format(device=device))

    def spawn(self, name, args):
        log = open(os.path.join(self.work, name + ".log"), "w+")
        p = subprocess.Popen([self.binary] + args, stdout=log, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, env=self.env)
        self.procs.append(p)
        return p, log.name

    def log(self, path):
        with open(path) as f:
            return f.read()

    def start(self):
        self.service, self.service_log = self.spawn("service", [
            "run", "--config", self.config, "--state-dir", self.state, "--socket", self.socket,
            "--no-terminal", "--log-level", "debug"])
        wait_for("the service to be ready",
                 lambda: "ready:" in self.log(self.service_log) or self.service.poll() is not None)
        if self.service.poll() is not None:
            raise RuntimeError("the service exited:\n" + self.log(self.service_log))
        self.web, self.web_log = self.spawn("web", [
            "web", "--listen", "127.0.0.1:0", "--token-file", self.token_file,
            "--config", self.config, "--socket", self.socket, "--state-dir", self.state])
        m = wait_for("the web process to listen", lambda: re.search(
            r"serving on (http://127\.0\.0\.1:\d+)/", self.log(self.web_log))
            or self.web.poll() is not None)
        if self.web.poll() is not None:
            raise RuntimeError("alarmclock web exited:\n" + self.log(self.web_log))
        self.url = m.group(1)
        with open(self.token_file) as f:
            self.token = f.read().strip()

    def cli(self, *args):
        r = subprocess.run([self.binary] + list(args), capture_output=True, text=True,
                           env=self.env, timeout=DEADLINE)
        if r.returncode != 0:
            raise RuntimeError(f"alarmclock {' '.join(args)}: exit {r.returncode}: {r.stderr}")
        return r.stdout

    def alarms(self, lang="C.UTF-8"):
        """`list --json`, its labels and summaries in the locale `lang`."""
        self.env["LANG"] = lang
        try:
            out = self.cli("list", "--json", "--config", self.config, "--state-dir", self.state)
        finally:
            self.env["LANG"] = "C.UTF-8"
        return {a["id"]: a for a in json.loads(out)}

    def status(self):
        return json.loads(self.cli("status", "--json", "--socket", self.socket))

    def config_text(self):
        with open(self.config) as f:
            return f.read()

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()


def browser(accept_language):
    o = webdriver.ChromeOptions()
    o.binary_location = "/usr/bin/chromium"
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=390,844",
              "--hide-scrollbars", "--lang=" + accept_language.split(",")[0]]:
        o.add_argument(a)
    o.add_experimental_option("prefs", {"intl.accept_languages": accept_language})
    d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
    # Chromium's windows are at least 500 px wide: emulate the phone's viewport instead.
    d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    # The phone's locale also formats the time input (上午 06:45 rather than 06:45 AM).
    d.execute_cdp_cmd("Emulation.setLocaleOverride",
                      {"locale": accept_language.split(",")[0]})
    d.implicitly_wait(0)
    return d


class Page:
    """The browser on the page, with the waits a user's eyes do."""

    def __init__(self, driver, rig, shots, lang):
        self.d = driver
        self.rig = rig
        self.shots = shots
        self.lang = lang

    def go(self, path):
        self.d.get(self.rig.url + path)

    def path(self):
        return "/" + self.d.current_url.split("/", 3)[3]

    def wait(self, what, predicate):
        try:
            return WebDriverWait(self.d, DEADLINE, poll_frequency=0.05).until(
                lambda _: predicate())
        except TimeoutException:
            raise TimeoutError(f"timed out waiting for {what} (at {self.d.current_url})")

    def find(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def submit(self, button):
        """Clicks a form's button and waits for the next page to load."""
        old = self.d.find_element(By.TAG_NAME, "html")
        button.click()
        self.wait("the next page", lambda: self._stale(old))

    @staticmethod
    def _stale(element):
        try:
            element.is_enabled()
            return False
        except Exception:
            return True

    def rows(self):
        """(id, time text, sub text, switch on) of each list row, top to bottom."""
        out = []
        for li in self.find("ul.list li"):
            sw = li.find_element(By.CSS_SELECTOR, "button.switch")
            out.append((li.get_attribute("id").removeprefix("alarm-"),
                        li.find_element(By.CSS_SELECTOR, ".time").text.replace("\n", " "),
                        li.find_element(By.CSS_SELECTOR, ".sub").text,
                        sw.get_attribute("aria-checked") == "true"))
        return out

    def ring_panel(self):
        panel = self.d.find_element(By.ID, "ring")
        return panel if panel.is_displayed() else None

    def shot(self, name, at=None):
        """A screenshot of the top of the page, or with element `at` in the middle."""
        path = os.path.join(self.shots, f"{name}-{self.lang}.png")
        if at is None:
            self.d.execute_script("window.scrollTo(0, 0)")
        else:
            self.d.execute_script("arguments[0].scrollIntoView({block: 'center'})", at)
        self.d.save_screenshot(path)
        return path


def agree(c, rig, page, when):
    """The page's rows, the config (list --json) and the service agree."""
    alarms = rig.alarms("zh_TW.UTF-8" if page.lang == "zh_TW" else "C.UTF-8")
    rows = page.rows()
    want = sorted(alarms.values(), key=lambda a: (a["time"], a["id"]))
    c.check(f"{when}: the page lists list --json's alarms in its order",
            [r[0] for r in rows] == [a["id"] for a in want], f"{rows}\n{want}")
    c.check(f"{when}: each switch shows list --json's enabled",
            all(r[3] == (alarms[r[0]]["enabled"] and not alarms[r[0]]["done"]) for r in rows),
            f"{rows}\n{alarms}")
    c.check(f"{when}: each row shows list --json's label and repeat summary",
            all(alarms[r[0]]["label"] in r[2] and alarms[r[0]]["repeat"] in r[2] for r in rows),
            f"{rows}\n{alarms}")
    session = rig.status().get("session")
    panel = page.ring_panel()
    c.check(f"{when}: the ringing panel is shown exactly while status --json has a session",
            (panel is not None) == (session is not None), f"{session}")


def english(c, rig, page):
    page.go("/")
    c.check("an anonymous visit is sent to /login", page.path() == "/login", page.path())
    page.shot("login")
    page.find("input[name=token]")[0].send_keys("not-the-token")
    page.submit(page.find("form[action='/login'] button")[0])
    c.check("a wrong token is refused on the page", "not right" in page.d.page_source)
    page.find("input[name=token]")[0].send_keys(rig.token)
    page.submit(page.find("form[action='/login'] button")[0])
    c.check("the right token logs in to the list", page.path() == "/", page.path())
    c.check("the list is in English", page.d.find_element(By.TAG_NAME, "h1").text == "Alarms")
    size = page.d.execute_script(
        "return performance.getEntriesByType('navigation')[0].decodedBodySize")
    c.check(f"the list page is one document under 50 KB ({size} bytes)", 0 < size < 50_000)
    others = page.d.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => !n.endsWith('/api/status'))")
    c.check("the page loads nothing else (no scripts, styles, fonts or images)", others == [],
            others)
    c.check("the page fits the phone's width (no sideways scrolling)",
            page.d.execute_script("return document.documentElement.scrollWidth") <= 390)
    c.check("a label's markup is shown as text, not run or rendered",
            any("<img src=x onerror=alert(1)> <b>bold</b>" in r[2] for r in page.rows())
            and not page.find("ul.list img, ul.list b"), page.rows())
    agree(c, rig, page, "after login")
    rig.cli("remove", "markup", "--config", rig.config)
    page.go("/")

    # Add an alarm with the form: 07:30 on Tuesdays and Thursdays, a sound, no snooze.
    page.submit(page.find("a.plus")[0])
    c.check("+ opens the add form", page.path() == "/alarms/new", page.path())
    page.d.execute_script("document.getElementById('time').value = '07:30'")
    for day in ("tue", "thu"):
        page.find(f"input[name=days][value={day}] + span")[0].click()
    page.find("input[name=label]")[0].send_keys("Piano")
    sounds = Select(page.find("select[name=sound]")[0])
    choices = [o.get_attribute("value") for o in sounds.options if o.get_attribute("value")]
    c.check("the sound list offers the available sounds", len(choices) > 0, choices)
    if choices:
        sounds.select_by_value(choices[0])
    page.find("input[name=snooze]")[0].click()
    page.shot("add")
    page.submit(page.find("form[action='/alarms'] button.primary")[0])
    c.check("saving returns to the list", page.path() == "/", page.path())
    alarms = rig.alarms()
    piano = next((a for a in alarms.values() if a["label"] == "Piano"), None)
    c.check("list --json has the new alarm at 07:30 on Tue and Thu",
            piano is not None and piano["time"] == "07:30" and piano["days"] == ["tue", "thu"],
            alarms)
    text = rig.config_text()
    c.check("the config file has it, with the chosen sound and snooze off",
            'label = "Piano"' in text and (not choices or choices[0] in text)
            and re.search(r"snooze\s*=\s*(false|\"off\")", text) is not None, text)
    c.check("the user's comments are kept",
            "this comment must survive" in text and "# a trailing comment too" in text)
    agree(c, rig, page, "after adding")

    # A radio alarm: a station's address typed under the sound list, its fallback chosen
    # under More settings.
    page.submit(page.find("a.plus")[0])
    page.d.execute_script("document.getElementById('time').value = '06:10'")
    page.find("input[name=label]")[0].send_keys("Radio")
    station = "https://radio.example.org/live.mp3"
    page.find("input[name=sound_url]")[0].send_keys(station)
    page.d.execute_script("document.querySelector('details.card').open = true")
    if choices:
        Select(page.find("select[name=fallback_sound]")[0]).select_by_value(choices[0])
    page.shot("add-station")
    page.submit(page.find("form[action='/alarms'] button.primary")[0])
    c.check("a station saves from the form", page.path() == "/", page.path())
    radio = next((a for a in rig.alarms().values() if a["label"] == "Radio"), None)
    c.check("list --json has the station as the radio alarm's sound",
            radio is not None and radio["sound"] == station, radio)
    text = rig.config_text()
    c.check("the config file has the station and its fallback",
            f'sound = "{station}"' in text
            and (not choices or f'fallback_sound = "{choices[0]}"' in text), text)
    rig.cli("remove", radio["id"] if radio else "radio", "--config", rig.config)
    page.go("/")

    # Switch gym off.
    page.submit(page.find("#alarm-gym button.switch")[0])
    c.check("the switch turns gym off on the page",
            dict((r[0], r[3]) for r in page.rows()).get("gym") is False, page.rows())
    c.check("list --json has gym disabled", rig.alarms()["gym"]["enabled"] is False)
    c.check("the config file says enabled = false for gym",
            any('id = "gym"' in b and "enabled = false" in b
                for b in rig.config_text().split("[[alarm]]")), rig.config_text())
    agree(c, rig, page, "after switching off")
    page.shot("list")
    # A phone in dark mode gets the dark colours.
    page.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    background = page.d.execute_script(
        "return getComputedStyle(document.body).backgroundColor")
    c.check("dark mode gets a dark background", background == "rgb(0, 0, 0)", background)
    page.shot("list-dark")
    page.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})

    # Skip next: the service's upcoming firings move past work's next occurrence.
    def next_work():
        return next((f["at"] for f in rig.status().get("next", []) if f["id"] == "work"), None)
    before = next_work()
    page.submit(page.find("form[action='/alarms/work/skip'] button")[0])
    after = next_work()
    c.check("Skip next on the page skips work's next occurrence in the service",
            page.path() == "/" and before is not None and after is not None and after > before,
            f"{before} -> {after}")
    c.check("the list shows work's skipped occurrence with an undo button",
            len(page.find("form[action='/alarms/work/unskip'] button")) == 1,
            page.d.page_source[:2000])
    rig.cli("unskip", "work", "--socket", rig.socket)
    page.go("/")

    page.submit(page.find("#alarm-work-t")[0])
    c.check("a row opens its edit form", page.path() == "/alarms/work", page.path())
    c.check("the edit form shows the alarm",
            page.find("#time")[0].get_attribute("value") == "06:45"
            and [e.get_attribute("value") for e in page.find("input[name=days]:checked")]
            == ["mon", "tue", "wed", "thu", "fri"])
    page.shot("edit")
    # More settings: closed while work inherits them, the defaults as placeholders.
    more = page.find("details summary")
    c.check("the edit form has a closed More settings section",
            len(more) == 1 and page.find("details")[0].get_attribute("open") is None)
    if more:
        more[0].click()
        length = page.find("input[name=snooze_length]")[0]
        # (The rig's [defaults] sets ring_for = "5m"; snooze keeps the built-in 9m.)
        c.check("its fields show [defaults] as placeholders",
                length.get_attribute("placeholder") == "9m"
                and page.find("input[name=ring_for]")[0].get_attribute("placeholder") == "5m",
                page.find("input[name=ring_for]")[0].get_attribute("placeholder"))
        length.send_keys("5m")
        page.find("input[name=ring_for]")[0].send_keys("15m")
        page.find("input[name=escalate_after]")[0].send_keys("2m")
        page.shot("edit-more")
        page.submit(page.find("form[action='/alarms/work'] button.primary")[0])
        work = next((b for b in rig.config_text().split("[[alarm]]") if 'id = "work"' in b), "")
        c.check("saving writes work's own snooze length, ring_for and escalate_after, "
                "nothing else of them",
                page.path() == "/" and 'snooze = "5m"' in work and 'ring_for = "15m"' in work
                and 'escalate_after = "2m"' in work and "max_snoozes" not in work
                and "escalate_volume" not in work, work)
        page.go("/alarms/work")
        c.check("the edit form then opens More settings with work's values",
                page.find("details")[0].get_attribute("open") is not None
                and page.find("input[name=snooze_length]")[0].get_attribute("value") == "5m")
        page.go("/")
        agree(c, rig, page, "after More settings")

        # Days off from the phone: work's next day and a vacation, one per line.
        day = (next_work() or "")[:10]
        page.go("/alarms/work")
        box = page.find("textarea[name=skip]")[0]
        box.send_keys(day + "\n2030-07-19..2030-07-30")
        page.shot("edit-days-off", at=box)
        page.submit(page.find("form[action='/alarms/work'] button.primary")[0])
        work = next((b for b in rig.config_text().split("[[alarm]]") if 'id = "work"' in b), "")
        c.check("saving writes work's days off, the vacation as a range",
                f"skip = [{day}, {{ from = 2030-07-19, to = 2030-07-30 }}]" in work, work)
        try:
            moved = wait_for("the service to ring work after its day off",
                             lambda: (next_work() or "")[:10] > day)
        except TimeoutError:
            moved = False
        c.check("the service then rings work after its day off", moved, f"{day} {next_work()}")
        page.go("/alarms/work")
        c.check("the edit form shows the days off one per line",
                page.find("textarea[name=skip]")[0].get_attribute("value")
                == f"{day}\n2030-07-19..2030-07-30")
        page.find("textarea[name=skip]")[0].clear()
        page.submit(page.find("form[action='/alarms/work'] button.primary")[0])
        work = next((b for b in rig.config_text().split("[[alarm]]") if 'id = "work"' in b), "")
        c.check("emptying the list takes skip out of work", "skip" not in work, work)
    page.go("/")

    # Ring work from the CLI: the page's poll shows the panel without a reload.
    rig.cli("ring", "work", "--socket", rig.socket)
    page.wait("the ringing panel", page.ring_panel)
    c.check("the ringing panel appears by itself while work rings",
            "Work" in page.ring_panel().text)
    page.go("/")
    page.shot("ringing")
    page.submit(page.find("#ring form[action='/snooze'] button")[0])
    session = rig.status().get("session") or {}
    c.check("Snooze on the page snoozes the service", session.get("state") == "snoozed", session)
    c.check("the panel then says snoozed, with Stop only",
            page.ring_panel() is not None and "Snoozed until" in page.ring_panel().text
            and not page.find("#ring form[action='/snooze'] button")[0].is_displayed())
    page.submit(page.find("#ring form[action='/stop'] button")[0])
    c.check("Stop on the page ends the session", rig.status().get("session") is None)
    agree(c, rig, page, "after stop")

    # Delete the new alarm from its edit form (the page asks first).
    page.go("/alarms/" + piano["id"] if piano else "/")
    button = page.find("form[action$='/delete'] button")
    if c.check("the edit form has a delete button", len(button) == 1):
        old = page.d.find_element(By.TAG_NAME, "html")
        button[0].click()
        page.wait("the confirmation", lambda: _alert(page.d))
        page.d.switch_to.alert.accept()
        page.wait("the list", lambda: Page._stale(old))
        c.check("delete removes it from list --json", piano["id"] not in rig.alarms())
        agree(c, rig, page, "after delete")
    reminders_walk(c, rig, page)


def reminders_walk(c, rig, page):
    """The reminder screen (the seed's 提醒清單): add two, tick one, move, edit, delete."""
    list_path = os.path.join(rig.work, "reminders.toml")

    def items():
        out = rig.cli("remind", "list", "--all", "--json", "--config", rig.config)
        return [(r["id"], r["title"], r["due"], r["done"]) for r in json.loads(out)]

    def rows():
        return [(li.get_attribute("id").removeprefix("reminder-"),
                 li.find_element(By.CSS_SELECTOR, ".title").text,
                 "done" in (li.get_attribute("class") or ""))
                for li in page.find("ul.reminders li")]

    page.go("/")
    page.find("nav.tabs a[href='/reminders']")[0].click()
    page.wait("the reminder screen", lambda: page.path() == "/reminders")
    c.check("the tab leads to the reminder screen, empty at first",
            page.d.find_element(By.TAG_NAME, "h1").text == "Reminders"
            and "No reminders yet." in page.d.page_source)
    page.find("a[href='/reminders/new']")[0].click()
    page.wait("the reminder form", lambda: page.path() == "/reminders/new")
    tomorrow = time.strftime("%Y-%m-%d", time.gmtime(time.time() + 86400))
    page.find("input[name=title]")[0].send_keys("Take the bins out")
    page.d.execute_script(
        "document.querySelector('input[name=due_date]').value = arguments[0];"
        "document.querySelector('input[name=due_time]').value = '07:30';", tomorrow)
    page.find("textarea[name=notes]")[0].send_keys("Blue bin\nthis week")
    page.shot("reminder-add")
    page.submit(page.find("form[action='/reminders'] button.primary")[0])
    c.check("saving the form goes back to the list", page.path() == "/reminders", page.path())
    c.check("the file has the reminder as the form gave it",
            items() == [("take-the-bins-out", "Take the bins out", tomorrow + "T07:30:00", False)],
            items())
    with open(list_path) as f:
        c.check("its notes kept their line break", 'notes = "Blue bin\\nthis week"' in f.read())
    sub = page.find("#reminder-take-the-bins-out .sub")[0].text
    c.check("the row says when it is due, as `remind list` does",
            sub.startswith("tomorrow 07:30") and "Blue bin" in sub, sub)

    page.find("a[href='/reminders/new']")[0].click()
    page.wait("the reminder form", lambda: page.path() == "/reminders/new")
    page.find("input[name=title]")[0].send_keys("Dentist at 10")
    page.submit(page.find("form[action='/reminders'] button.primary")[0])
    c.check("a second reminder goes to the bottom",
            [r[0] for r in rows()] == ["take-the-bins-out", "dentist-at-10"], rows())

    page.submit(page.find("form[action='/reminders/dentist-at-10/up'] button")[0])
    c.check("▲ moves it up, in the file too",
            [r[0] for r in rows()] == ["dentist-at-10", "take-the-bins-out"]
            and [i[0] for i in items()] == ["dentist-at-10", "take-the-bins-out"], items())
    page.submit(page.find("form[action='/reminders/take-the-bins-out/done'] button")[0])
    c.check("the tick marks it done: struck through, and done in the file",
            rows()[1][2] and items()[1][3], (rows(), items()))
    strike = page.d.execute_script(
        "return getComputedStyle(document.querySelector('.done .title')).textDecorationLine")
    c.check("a done reminder is struck through", strike == "line-through", strike)
    page.shot("reminders")

    page.go("/reminders/dentist-at-10")
    title = page.find("input[name=title]")[0]
    title.clear()
    title.send_keys("Dentist at 11")
    page.submit(page.find("form[action='/reminders/dentist-at-10'] button.primary")[0])
    c.check("the edit form changes the title in place",
            items()[0] == ("dentist-at-10", "Dentist at 11", None, False), items())
    page.go("/reminders/dentist-at-10")
    title = page.find("input[name=title]")[0]
    title.clear()
    title.send_keys(" ")
    page.submit(page.find("form[action='/reminders/dentist-at-10'] button.primary")[0])
    c.check("an empty title is refused with the reason, the file unchanged",
            "title is empty" in page.d.page_source
            and items()[0][1] == "Dentist at 11", items())
    # A photo from the phone: the file input of the edit form, a multipart upload.
    photo = os.path.join(rig.work, "card.png")
    with open(photo, "wb") as f:
        f.write(_png(48, 32))
    page.go("/reminders/dentist-at-10")
    page.find("form[action='/reminders/dentist-at-10/photo'] input[type=file]")[0].send_keys(photo)
    page.submit(page.find("form[action='/reminders/dentist-at-10/photo'] button")[0])
    photos_dir = os.path.join(rig.work, "reminder-photos")
    stored = sorted(os.listdir(photos_dir)) if os.path.isdir(photos_dir) else []
    c.check("the uploaded photo is stored beside the list and named in it",
            len(stored) == 1 and stored[0].endswith(".png")
            and open(os.path.join(photos_dir, stored[0]), "rb").read() == _png(48, 32)
            and f'photo = "{stored[0]}"' in open(list_path).read(), stored)
    shown = page.d.execute_script(
        "const i = document.querySelector('#reminder-dentist-at-10 img.photo');"
        "return i ? i.complete && i.naturalWidth : 0")
    c.check("the list shows the photo on the reminder's row", shown == 48, shown)
    page.shot("reminder-photo")
    page.go("/reminders/dentist-at-10")
    c.check("the edit form shows the photo, with replace and remove",
            page.find("img.photo.big") != [] and page.find(
                "form[action='/reminders/dentist-at-10/photo/delete'] button") != [])
    page.shot("reminder-edit-photo", at=page.find("img.photo.big")[0])
    old = page.d.find_element(By.TAG_NAME, "html")
    page.find("form[action='/reminders/dentist-at-10/delete'] button")[0].click()
    page.wait("the confirmation", lambda: _alert(page.d))
    page.d.switch_to.alert.accept()
    page.wait("the list", lambda: page._stale(old))
    c.check("delete (confirmed) removes it", [i[0] for i in items()] == ["take-the-bins-out"],
            items())
    c.check("and its photo's file", os.listdir(photos_dir) == [], os.listdir(photos_dir))
    rig.cli("remind", "undone", "take-the-bins-out", "--config", rig.config)


def _png(width, height):
    """A real PNG: a blue-to-orange gradient, 8-bit RGB."""
    import struct
    import zlib
    rows = b"".join(b"\0" + bytes(
        v for x in range(width) for v in (40 + 4 * x, 90, 200 - 3 * y)) for y in range(height))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def _alert(d):
    try:
        return d.switch_to.alert
    except Exception:
        return None


def chinese(c, rig, page):
    # The login link `alarmclock web --print-url` prints: the token after "#", posted by
    # the page's script and taken out of the address.
    page.go("/login#" + rig.token)
    page.wait("the login form to post the token", lambda: page.path() == "/")
    c.check("the printed login URL logs in", page.path() == "/", page.path())
    c.check("the token is not in the address",
            rig.token not in page.d.execute_script("return location.href"), page.path())
    # Every entry of the tab's history as the browser keeps it (DevTools' own list, what
    # the back button and the history page offer), not only the current address.
    entries = [e["url"] for e in
               page.d.execute_cdp_cmd("Page.getNavigationHistory", {})["entries"]]
    c.check("no history entry holds the token",
            entries and not any(rig.token in u for u in entries), entries)
    c.check("the list is in Traditional Chinese",
            page.d.find_element(By.TAG_NAME, "h1").text == "鬧鐘"
            and page.d.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-Hant-TW")
    subs = " ".join(r[2] for r in page.rows())
    c.check("the rows show the CLI's Chinese summaries", "平日" in subs and "週末" in subs, subs)
    c.check("times read 上午/下午 as the phone app's", page.rows()[0][1].startswith("上午"),
            page.rows())
    agree(c, rig, page, "in Chinese")
    page.shot("list")
    page.go("/alarms/work")
    page.shot("edit")
    page.go("/alarms/new")
    page.shot("add")
    page.go("/")
    rig.cli("ring", "lie-in", "--socket", rig.socket)
    page.wait("the ringing panel", page.ring_panel)
    page.go("/")
    c.check("the ringing panel is in Chinese", "響鈴至" in page.ring_panel().text,
            page.ring_panel().text)
    page.shot("ringing")
    page.submit(page.find("#ring form[action='/stop'] button")[0])
    c.check("停止 ends the session", rig.status().get("session") is None)
    page.go("/reminders")
    sub = page.find("ul.reminders .sub")[0].text if page.find("ul.reminders .sub") else ""
    c.check("the reminder screen is in Chinese, due dates as `remind list` says them",
            page.d.find_element(By.TAG_NAME, "h1").text == "提醒" and sub.startswith("明天 上午 07:30"),
            sub)
    page.shot("reminders")
    page.go("/reminders/new")
    page.shot("reminder-add")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--screenshots", required=True)
    args = ap.parse_args()
    os.makedirs(args.screenshots, exist_ok=True)
    c = Checks()
    with tempfile.TemporaryDirectory(prefix="alarmclock-web-") as work:
        rig = Rig(args.binary, work)
        drivers = []
        try:
            rig.start()
            print(f"note: service and web process up at {rig.url}", flush=True)
            for lang, scenario in (("en-US,en", english), ("zh-TW,zh;q=0.9", chinese)):
                d = browser(lang)
                drivers.append(d)
                page = Page(d, rig, args.screenshots, "zh_TW" if lang.startswith("zh") else "en")
                try:
                    scenario(c, rig, page)
                except Exception:
                    c.check(f"the {page.lang} walk-through ran to its end", False,
                            traceback.format_exc())
                    page.shot("failure")
        except Exception:
            c.check("the service and the web process started", False, traceback.format_exc())
        finally:
            for d in drivers:
                d.quit()
            rig.stop()
            if c.failed:
                for name in ("service", "web"):
                    path = os.path.join(work, name + ".log")
                    if os.path.exists(path):
                        print(f"--- {name}.log (last 30 lines)")
                        print("".join(open(path).readlines()[-30:]))
    print(f"web: {c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
