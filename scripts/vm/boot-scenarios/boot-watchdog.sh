#!/usr/bin/env bash
# systemd's watchdog and restarts with the shipped unit (WatchdogSec=30s, Restart=
# on-failure): a stopped (hung) service is killed and restarted and resumes the ring in
# progress; a crash (SIGSEGV) is restarted with nothing lost; a hook that hangs longer
# than WatchdogSec does not trip the watchdog.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
check "the service is up" wait_up 60
wdog=$(watchdog_secs)
log "WatchdogSec=${wdog}s"
# A scheduled ring (a test ring of a disabled alarm ends at a restart: the restarted
# service sees a session of a disabled alarm and stops it).
cp "$CONFIG" /root/alarms.toml.saved
at=$(($(date +%s) + 20))
svc_mark
alarm_block wd "$at" 15m | config_with_alarms
check "the config is in force" wait_for 15 svc_logged 'config applied'
check "'wd' rings" wait_for 60 state_is ringing
since=$(session until)
log "ringing until $since"

# restarted_after PID RESTARTS: a new main process, restarted once more, up and answering.
restarted_after() {
  [ "$(svc_restarts)" -gt "$2" ] && [ "$(svc_pid)" != "$1" ] && [ "$(svc_pid)" != 0 ] &&
    svc_active && svc_status_ok
}
pid=$(svc_pid) n=$(svc_restarts)
svc_mark
t0=$(cut -d' ' -f1 /proc/uptime)
log "kill -STOP $pid"
kill -STOP "$pid"
check "the watchdog restarts it within WatchdogSec + 30 s" wait_for $((wdog + 30)) restarted_after "$pid" "$n"
dt=$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", b - a }')
log "restarted after ${dt}s: $(svc_journal -o cat | grep -iE 'watchdog|restart|signal' | head -n 5 | tr '\n' ';')"
check "systemd logged a watchdog timeout" svc_logged 'Watchdog timeout'
# The timeout counts from the last WATCHDOG=1, sent every WatchdogSec/2: it falls between
# WatchdogSec/2 and WatchdogSec after the stop.
check "not before WatchdogSec/2 (it was the watchdog)" awk -v d="$dt" -v w="$wdog" 'BEGIN { exit !(d >= w / 2 - 1) }'
check "the ring in progress resumes" wait_state ringing 15
check "the same ring (until unchanged)" test "$(session until)" = "$since"
check "the tone is heard again" hears 440

hist=$(svc_field 'len(d.get("history", []))')
pid=$(svc_pid) n=$(svc_restarts)
log "kill -SEGV $pid"
kill -SEGV "$pid"
check "a crash is restarted" wait_for 60 restarted_after "$pid" "$n"
check "the ring resumes after the crash" wait_state ringing 15
check "the same ring (until unchanged)" test "$(session until)" = "$since"
check "history kept ($hist entries)" test "$(svc_field 'len(d.get("history", []))')" -ge "$hist"
check "stop" svc_cmd stop
check "stopped" wait_state none 10

# A ring hook that hangs for longer than WatchdogSec.
svc_mark
{ alarm_block wd "$at" 15m; printf '[hooks]\nring = ["/bin/sleep", "%s"]\ntimeout = "5m"\n' $((wdog + 30)); } |
  config_with_alarms
check "the hook config is in force" wait_for 15 svc_logged 'config applied'
pid=$(svc_pid) n=$(svc_restarts)
check "ring wd" svc_cmd ring wd
check "ringing" wait_state ringing 10
hook_running() { pgrep -f "^/bin/sleep $((wdog + 30))\$" >/dev/null; }
check "the hook runs" wait_for 10 hook_running
log "waiting $((wdog + 8)) s with the hook hanging"
sleep $((wdog + 8))
check "the hook is still running" hook_running
check "no watchdog restart while it hangs" test "$(svc_restarts)" = "$n" -a "$(svc_pid)" = "$pid"
check "still ringing" state_is ringing
check "stop" svc_cmd stop
put_config </root/alarms.toml.saved
check "stopped" wait_state none 10
finish
