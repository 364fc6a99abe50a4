"""Shared by the bench/ and fault scripts: a private PulseAudio with a null sink, a
recorder of its monitor, and a running `alarmclock run` in a temp dir of its own whose
log lines are read from a pipe and time-stamped as they arrive.

Everything here drives the real release binary (.build/release/alarmclock)."""
import datetime
import json
import math
import os
import shlex
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# $ALARMCLOCK_BINARY runs another build (e.g. one linked with -static-stdlib) instead.
BINARY = (os.environ.get("ALARMCLOCK_BINARY")
          or os.path.join(REPO, ".build", "release", "alarmclock"))
# $ALARMCLOCK_LAUNCHER runs the service under a command prefix, e.g. the real-time
# refusal of a system without LimitRTPRIO=: "prlimit --rtprio=0:0 -- setpriv
# --inh-caps=-sys_nice --bounding-set=-sys_nice --" (bench/flood's before figures).
LAUNCHER = shlex.split(os.environ.get("ALARMCLOCK_LAUNCHER", ""))
SINK = "alarmclock_bench"
RATE = 48000


class Pulse:
    """A PulseAudio server of our own (its pid known, so it can be killed and restarted)
    with one null sink, the default sink, so ALSA device `pulse` plays into it."""

    def __init__(self, runtime):
        self.runtime = runtime
        os.makedirs(runtime, exist_ok=True)
        self.server = f"unix:{runtime}/native"
        self.proc = None

    def env(self):
        return {"PULSE_SERVER": self.server, "PULSE_RUNTIME_PATH": self.runtime}

    def start(self):
        env = dict(os.environ, **self.env())
        self.proc = subprocess.Popen(
            ["pulseaudio", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
             "--use-pid-file=no", "-n",
             f"--load=module-native-protocol-unix socket={self.runtime}/native auth-anonymous=1",
             f"--load=module-null-sink sink_name={SINK} rate={RATE} channels=2",
             "--load=module-always-sink"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0:
                subprocess.run(["pactl", "set-default-sink", SINK], env=env, capture_output=True)
                return
            time.sleep(0.05)
        raise RuntimeError("pulseaudio did not start")

    def kill(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Recorder:
    """Records the null sink's monitor (mono s16) while it runs, with `pacat /dev/zero`
    keeping the sink busy (an idle sink sends nothing); returns once data flows."""

    def __init__(self, pulse, path):
        self.path = path
        env = dict(os.environ, **pulse.env())
        self.keep = subprocess.Popen(
            ["pacat", "--raw", "-d", SINK, "--format=s16le", f"--rate={RATE}", "--channels=2",
             "--latency-msec=20", "/dev/zero"], env=env, stderr=subprocess.DEVNULL)
        self.out = open(path, "wb")
        self.proc = subprocess.Popen(
            ["parec", "-d", f"{SINK}.monitor", "--raw", "--format=s16le", f"--rate={RATE}",
             "--channels=1", "--latency-msec=5"], env=env, stdout=self.out,
            stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while os.path.getsize(path) < RATE // 10 * 2 and time.monotonic() < deadline:
            time.sleep(0.005)  # 100 ms recorded: the pipeline is flowing
        self.started = time.monotonic()

    def finish(self):
        for p in (self.proc, self.keep):
            if p.poll() is None:
                p.terminate()
                p.wait()
        self.out.close()
        with open(self.path, "rb") as f:
            data = f.read()
        n = len(data) // 2
        self.samples = struct.unpack(f"<{n}h", data[: n * 2])
        return self

    def rms(self, a=0.0, b=None):
        s = self.samples[int(a * RATE): None if b is None else int(b * RATE)]
        if not s:
            return 0.0
        return math.sqrt(sum(x * x for x in s) / len(s)) / 32768.0

    def audible_seconds(self, window=0.1, threshold=0.01):
        """How many `window`-second slices are above `threshold` RMS, of how many."""
        step = int(window * RATE)
        slices = [self.samples[i: i + step] for i in range(0, len(self.samples) - step + 1, step)]
        loud = sum(1 for s in slices
                   if math.sqrt(sum(x * x for x in s) / len(s)) / 32768 > threshold)
        return loud, len(slices)


def hms(unix):
    return datetime.datetime.fromtimestamp(unix, datetime.timezone.utc).strftime("%H:%M:%S")


def iso(unix):
    return datetime.datetime.fromtimestamp(unix, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def config_text(alarms, device="pulse", defaults="", audio_extra=""):
    """`alarms`: a list of dicts (id, time, and any other keys) made into [[alarm]] tables."""
    out = ['[settings]', 'timezone = "UTC"', '', '[audio]', f'device = "{device}"', audio_extra,
           '', '[defaults]', 'ramp = "0s"', 'volume = 100', defaults, '']
    for a in alarms:
        out.append("[[alarm]]")
        for k, v in a.items():
            out.append(f"{k} = {json.dumps(v) if isinstance(v, str) else v}")
        out.append("")
    return "\n".join(out)


def save(path, data):
    """Replaces `path` the way editors do: a new file renamed over the old one."""
    tmp = path + ".new"
    with open(tmp, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    os.rename(tmp, path)


class Service:
    """`alarmclock run` on files in `dir`; restartable after kill9()."""

    def __init__(self, dir, config, env=None, state_dir=None, log_level="debug"):
        self.dir = dir
        self.config = os.path.join(dir, "alarms.toml")
        self.state_dir = state_dir or os.path.join(dir, "state")
        self.socket = os.path.join(dir, "control.sock")
        self.env = dict(os.environ, TZ="UTC", **(env or {}))
        self.env.pop("NOTIFY_SOCKET", None)
        self.log_level = log_level
        self.lines = []  # (monotonic, text), all runs
        self.lock = threading.Lock()
        self.proc = None
        if config is not None:
            save(self.config, config)

    def start(self, wait=True, extra_env=None):
        env = dict(self.env, **(extra_env or {}))
        self.proc = subprocess.Popen(
            [*LAUNCHER, BINARY, "run", "--config", self.config, "--state-dir", self.state_dir,
             "--socket", self.socket, "--log-level", self.log_level, "--no-terminal"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        proc = self.proc
        readies = self.count("ready:")

        def pump():
            for raw in proc.stdout:
                with self.lock:
                    self.lines.append((time.monotonic(), raw.decode(errors="replace").rstrip()))

        threading.Thread(target=pump, daemon=True).start()
        if wait:
            self.wait_log("ready:", count=readies + 1, timeout=15)
        return self

    def count(self, text):
        with self.lock:
            return sum(1 for _, l in self.lines if text in l)

    def matching(self, text):
        with self.lock:
            return [(t, l) for t, l in self.lines if text in l]

    def wait_log(self, text, count=1, timeout=15):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            m = self.matching(text)
            if len(m) >= count:
                return m[count - 1][0]
            if self.proc and self.proc.poll() is not None:
                raise RuntimeError(f"service exited waiting for {text!r}:\n{self.log()}")
            time.sleep(0.001)
        raise RuntimeError(f"timed out waiting for {text!r} x{count}:\n{self.log()[-3000:]}")

    def log(self):
        with self.lock:
            return "\n".join(l for _, l in self.lines)

    def ctl(self, *args):
        return subprocess.run([BINARY, *args, "--socket", self.socket], env=self.env,
                              capture_output=True, text=True, timeout=20)

    def request(self, obj):
        """One request line straight over the socket (cheaper than a client process)."""
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(10)
        s.connect(self.socket)
        s.sendall((json.dumps(obj) + "\n").encode())
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(1 << 20)
            if not chunk:
                break
            data += chunk
        s.close()
        return json.loads(data)

    def status(self):
        return self.request({"cmd": "status"})

    @property
    def pid(self):
        return self.proc.pid

    def kill9(self):
        self.proc.kill()
        self.proc.wait()

    def terminate(self):
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                return self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                return self.proc.wait()
        return self.proc.returncode if self.proc else None


def status_kib(pid, key):
    """A `KEY: N kB` line of /proc/PID/status (VmRSS, VmHWM, RssAnon...), in KiB; 0 if absent."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def temp_dir(name):
    return tempfile.mkdtemp(prefix=f"alarmclock-{name}-")


def percentile(values, p):
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p / 100
    lo, hi = math.floor(k), math.ceil(k)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)
