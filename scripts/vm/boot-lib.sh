# Helpers for the boot tier's scenarios (scripts/vm/boot-scenarios), sourced inside the
# VM booted with systemd as PID 1. The service is the installed package's, run by
# systemd under the shipped unit: it is driven with the installed CLI over the default
# socket, its log read from the journal, its process from `systemctl show`.
# shellcheck shell=bash
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_REPO/scripts/vm/scenario-lib.sh"
ALARMCLOCK=/usr/bin/alarmclock
SVC_SOCK=/run/alarmclock/control.sock
CONFIG=/etc/alarmclock/alarms.toml
# The tone every boot scenario rings with, readable under the unit's sandbox (the
# service has a private /tmp).
TONE=/etc/alarmclock/tone-440.wav
# The Pi-like GPIO chip scripts/vm/boot-init creates, and its line's simulator attributes.
PI_CHIP=pinctrl-bcm2711
pi_pull() {
  local dev
  dev=$(cat /sys/kernel/config/gpio-sim/pi/dev_name)
  echo "/sys/devices/platform/$dev/$(cat /sys/kernel/config/gpio-sim/pi/bank0/chip_name)/sim_gpio17/pull"
}
# The button is active low with the pull-up: pressed = pull-down.
press() { echo pull-down >"$(pi_pull)"; }
release() { echo pull-up >"$(pi_pull)"; }
# press_for SECONDS: a press of that length, timed in one process (a `sleep` between two
# shell commands can take over a second on a loaded emulated machine).
press_for() {
  python3 -c 'import sys, time
p = sys.argv[1]
open(p, "w").write("pull-down")
time.sleep(float(sys.argv[2]))
open(p, "w").write("pull-up")' "$(pi_pull)" "$1"
}

unit() { systemctl show -P "$1" alarmclock.service; }
# The watchdog interval systemd gave the running service, in seconds.
watchdog_secs() {
  tr '\0' '\n' <"/proc/$(svc_pid)/environ" | sed -n 's/^WATCHDOG_USEC=//p' | awk '{ print int($1 / 1000000) }'
}
svc_pid() { unit MainPID; }
svc_active() { [ "$(unit ActiveState)/$(unit SubState)" = active/running ]; }
svc_alive() { svc_active; }
svc_restarts() { unit NRestarts; }
# wait_up SECONDS: the service is active (READY=1 reached systemd) and answers status.
wait_up() { wait_for "$1" svc_active && wait_for "$1" svc_status_ok; }

# The journal of the unit since svc_mark (this boot's whole log before the first mark).
SVC_CURSOR=
svc_mark() { SVC_CURSOR=$(journalctl -u alarmclock -n 0 --show-cursor -q 2>/dev/null | sed -n 's/^-- cursor: //p'); }
svc_journal() {
  if [ -n "$SVC_CURSOR" ]; then
    journalctl -u alarmclock -b --no-pager "--after-cursor=$SVC_CURSOR" "$@"
  else
    journalctl -u alarmclock -b --no-pager "$@"
  fi
}
svc_logged() { svc_journal -o cat | grep -qE -- "$1"; }
# no_denials: no line of the unit's log this boot says the sandbox refused something.
no_denials() {
  ! journalctl -u alarmclock -b --no-pager -o cat |
    grep -E 'EPERM|EACCES|Operation not permitted|Permission denied|[Aa]ccess denied'
}

# put_config: stdin becomes the config, the way an editor saves (a temporary file in
# the same directory renamed over the old one), as root.
put_config() {
  cat >"$CONFIG.vm-new" && chmod 0644 "$CONFIG.vm-new" && mv "$CONFIG.vm-new" "$CONFIG"
}
# as USER COMMAND...: runs COMMAND as USER with USER's groups from /etc/group, no PAM.
as() {
  local user=$1
  shift
  setpriv --reuid "$user" --regid "$user" --init-groups --reset-env -- "$@"
}
# The session's field, as the status JSON has it.
session() { svc_field "(d.get('session') or {}).get('$1')" 2>/dev/null; }
at_exit "journalctl -u alarmclock -b --no-pager -o short-monotonic >\"$SVC_LOG\" 2>&1"
# alarm_block ID EPOCH RING_FOR [one-off]: an [[alarm]] table ringing the tone at EPOCH's
# UTC time, daily, or on EPOCH's date only with "one-off".
alarm_block() {
  printf '[[alarm]]\nid = "%s"\ntime = "%s"\n' "$1" "$(date -u -d "@$2" +%H:%M:%S)"
  if [ "${4:-}" = one-off ]; then printf 'date = "%s"\n' "$(date -u -d "@$2" +%F)"; else echo 'days = "daily"'; fi
  printf 'sound = "%s"\nramp = "0s"\nring_for = "%s"\n' "$TONE" "$3"
}
# config_with_alarms: the config's settings and inputs (everything before its first
# [[alarm]]) followed by stdin, put in force with put_config.
config_with_alarms() { { sed '/^\[\[alarm\]\]/,$d' "$CONFIG"; cat; } | put_config; }
# The real-time priorities of the service's SCHED_FIFO threads, ascending ("5 10": the
# event loop and the playback thread). Fields 40 and 41 of /proc/PID/task/TID/stat are
# rt_priority and policy; counted after the command's ")", they are the 38th and 39th.
svc_fifo() {
  local stat rest
  for stat in /proc/"$(svc_pid)"/task/*/stat; do
    rest=$(cat "$stat" 2>/dev/null) || continue
    # shellcheck disable=SC2086
    set -- ${rest##*) }
    [ "${39:-}" = 1 ] && echo "${38}"
  done | sort -n | tr '\n' ' ' | sed 's/ $//'
}
svc_fifo_is() { [ "$(svc_fifo)" = "$1" ]; }
# svc_rss: the service's resident memory, as /proc/PID/status has it.
svc_rss() { grep -E '^(VmRSS|RssAnon|RssFile)' "/proc/$(svc_pid)/status" | tr -s ' \t\n' ' '; }
# ring_logged ID: "PRIORITY MILLISECONDS" of the journal's first `ringing 'ID'` line this
# boot (its priority and wall-clock time): when the ring began, not when a poll saw it.
ring_logged() {
  journalctl -u alarmclock -b -o json --no-pager | python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if str(e.get("MESSAGE", "")).startswith("ringing '"'"'" + sys.argv[1] + "'"'"'"):
        print(e.get("PRIORITY"), int(e["__REALTIME_TIMESTAMP"]) // 1000); break' "$1"
}
# product_paths: the product's own paths (scripts/vm/product-paths), one a line.
product_paths() { grep '^/' "$VM_REPO/scripts/vm/product-paths"; }
# host_shows_through PATH: PATH exists here before anything of this run made it (the
# first boot, before the install): the host's copy shows through the overlay.
host_shows_through() { [ -e "$1" ] || [ -L "$1" ]; }

# ---- radio streams: the stream helper's units (alarmclock-stream.socket, one
# alarmclock-stream@N-PID-UID.service per connection) ----
STREAM_SOCK=/run/alarmclock-stream.sock
# stream_instances [systemctl list-units options]: the helper instances, one unit name a line.
stream_instances() {
  systemctl list-units --no-legend --plain "$@" 'alarmclock-stream@*.service' 2>/dev/null |
    awk '{ print $1 }' | grep '^alarmclock-stream@' || true
}
helper_running() { [ -n "$(stream_instances --state=active)" ]; }
no_helpers() { [ -z "$(stream_instances --all)" ]; }
# helper_denials: the helpers' log lines this boot that say the sandbox refused something.
helper_denials() {
  journalctl -u 'alarmclock-stream@*' -b --no-pager -o cat 2>/dev/null |
    grep -E 'EPERM|EACCES|Operation not permitted|Permission denied|[Aa]ccess denied|SIGSYS|core dumped'
}
# net_up: the VM's one network card (qemu's user-mode network, -netdev user) set up as
# qemu's DHCP would: 10.0.2.15/24, the host's side at 10.0.2.2 as the gateway.
net_up() {
  local dev
  dev=$(ls /sys/class/net | grep -v '^lo$' | head -n 1)
  [ -n "$dev" ] || { echo "no network card"; return 1; }
  ip link set "$dev" up && ip addr replace 10.0.2.15/24 dev "$dev" &&
    ip route replace default via 10.0.2.2 && log "network: $dev 10.0.2.15/24 via 10.0.2.2"
}
# journal_ms TEXT: the wall time (ms) of the service's first log line since svc_mark that
# contains TEXT, as journald received it (a poll would see it later).
journal_ms() {
  svc_journal -o json | python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if sys.argv[1] in str(e.get("MESSAGE", "")):
        print(int(e["__REALTIME_TIMESTAMP"]) // 1000); break' "$1"
}
