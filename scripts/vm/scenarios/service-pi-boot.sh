#!/usr/bin/env bash
# Scenario 4d, the Pi boot case: no RTC, so the service starts with the clock weeks behind;
# then NTP (here `date -s`) sets the true time. The schedule must be recomputed at once
# (a CLOCK_REALTIME timerfd with TFD_TIMER_CANCEL_ON_SET wakes the loop; no polling), the
# alarm must ring at its true time, and the weeks-old occurrence must not ring.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
need_service "the event loop"
tone /tmp/tone.wav 30
true_now=$(date +%s)
up0=$(cut -d. -f1 /proc/uptime)
alarm_at=$((true_now + 40))
svc_config <<TOML
[settings]
timezone = "UTC"
[audio]
device = "hw:Loopback,0,0"
[[alarm]]
id = "wake"
time = "$(date -u -d "@$alarm_at" +%H:%M:%S)"
days = "daily"
sound = "/tmp/tone.wav"
ramp = "0s"
ring_for = "2m"
TOML
date -s "@$((true_now - 23 * 86400))" >/dev/null
log "booted with the clock at $(date -u +%FT%TZ)"
svc_start || finish
before=$(svc_field 'd["next"][0]["at"]')
log "next before the clock is set: $before"
# Idle means asleep: over 3 s without requests no thread of the service may wake. The
# one-shot release of the pages after start-up and requests (docs/performance.md, "Idle")
# is not idling: a window it fell in is measured again (nothing is pending after it).
idle_window() {
  svc_mark
  w0=$(svc_wakeups)
  sleep 3
  w1=$(svc_wakeups)
}
idle_window
if svc_logged "of the executable's pages"; then
  log "the pages were released in that window: measuring again"
  idle_window
fi
log "context switches of the idle service over 3 s: $((w1 - w0))"
check "idle: no thread wakes (no polling)" test $((w1 - w0)) -le 1
svc_mark
date -s "@$((true_now + $(cut -d. -f1 /proc/uptime) - up0))" >/dev/null
log "clock set to the true time $(date -u +%FT%TZ)"
# No request in between: only the timerfd's ECANCELED (TFD_TIMER_CANCEL_ON_SET) can make
# the service notice (a status request would recompute by itself).
check "the service notices the clock change within a second" \
  wait_for 1 svc_logged 'the clock was set'
after=$(svc_field 'd["next"][0]["at"]')
log "next after the clock was set: $after"
check "next moved to the true day within a second" \
  test "${after:0:19}" = "$(date -u -d "@$alarm_at" +%FT%T)"
check "the weeks-old occurrence does not ring" state_is none
check "nor was it logged as ringing" not svc_logged "ringing 'wake'"
log "waiting for the alarm's true time"
check "it rings" wait_for 45 state_is ringing
rang=$(date +%s)
log "rang at $(date -u -d "@$rang" +%T), due $(date -u -d "@$alarm_at" +%T)"
check "the first frame is logged" wait_for 10 svc_logged 'first frame on '
late=$(first_frame_ms)
log "first frame ${late:-?} ms after the alarm's true time"
check "rings at its true time (first frame within 2 s)" ms_within "$late" 0 2000
finish
