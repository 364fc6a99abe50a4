#!/usr/bin/env bash
# Scenario 4a-c, clock jumps with `date -s` under a running service:
#  forward across an alarm, within its ring window (ring_for): it rings at once;
#  forward past the whole window: recorded as missed, not rung;
#  backward after it rang: the same occurrence does not ring a second time.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
need_service "the event loop"
tone /tmp/tone.wav 30
config() { # TIME RING_FOR
  svc_config <<TOML
[settings]
timezone = "UTC"
[audio]
device = "hw:Loopback,0,0"
[[alarm]]
id = "wake"
time = "$1"
days = "daily"
sound = "/tmp/tone.wav"
ramp = "0s"
ring_for = "$2"
TOML
}

log "4a: forward across the alarm, inside its 2 min window"
config "$(at_time 60)" 2m
svc_start || finish
check "not ringing before" state_is none
jump 90
check "rings at once for what is left of the window" wait_state ringing 5
check "the clock change is logged" svc_logged 'the clock was set'
check "the ring is logged" svc_logged "ringing 'wake' for "
check "stop" svc_cmd stop

log "4b: forward past the whole window"
svc_fresh
svc_mark
config "$(at_time 60)" 1m
svc_start || finish
jump 600
sleep 3
check "not rung stale" state_is none
check "recorded as missed" wait_for 5 test "$(history_count missed wake)" -ge 1
check "the miss is logged" svc_logged "missed 'wake' of "
check "and nothing rang" not svc_logged "ringing 'wake'"
log "history: $(svc_field 'd.get("history")')"

log "4c: backward after it rang"
svc_fresh
svc_mark
config "$(at_time 4)" 2m
svc_start || finish
check "rings at its time" wait_state ringing 15
check "stop" svc_cmd stop
check "one rung entry" test "$(history_count rung wake)" = 1
jump -20
check "the step back is logged" wait_for 5 svc_logged 'clock went back by'
log "waiting past the alarm's time a second time"
sleep 25
check "no second ring of the same occurrence" state_is none
check "still one rung entry" test "$(history_count rung wake)" = 1
check "the service is alive" svc_alive

log "4d: the clock is set while requests are being served"
# A clock change that lands between serving a request and re-arming the timer is
# reported by timerfd_settime itself (ECANCELED); the service must take it as a clock
# change, not die. Requests go as fast as one connection allows while the clock steps
# a second forward and back 40 times.
svc_fresh
svc_mark
config "$(at_time 3600)" 2m
svc_start || finish
python3 - "$SVC_SOCK" >/tmp/hammer.out 2>&1 <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rwb")
n, end = 0, time.monotonic() + 8
while time.monotonic() < end:
    f.write(b'{"cmd":"status"}\n'); f.flush(); f.readline(); n += 1
print(n, "requests")
PY
hammer=$!
for _ in $(seq 20); do jump 1 >/dev/null; sleep 0.05; jump -1 >/dev/null; sleep 0.05; done
wait "$hammer"
log "hammer: $(cat /tmp/hammer.out); ECANCELED on re-arm seen" \
  "$(grep -c 'the clock was set while re-arming' <(tail -n "+$((SVC_MARK + 1))" "$SVC_LOG")) time(s)"
check "the service survives clock changes during requests" svc_alive
check "and never failed to arm its timer" not svc_logged 'cannot arm the alarm timer'
check "it still answers" svc_status_ok
finish
