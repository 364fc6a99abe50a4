#!/usr/bin/env bash
# Scenario 4e, a daylight-saving night in Europe/Berlin: the clock is set to 01:59:50 CET
# on 2027-03-28, ten seconds before clocks jump to 03:00 CEST. An alarm at 03:00:05 rings
# 15 s later (not an hour late), and one at 02:30, inside the gap, is due at 03:30 CEST
# (RFC 5545: the offset before the gap).
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
need_service "the event loop"
tone /tmp/tone.wav 30
svc_config <<TOML
[settings]
timezone = "Europe/Berlin"
[audio]
device = "hw:Loopback,0,0"
[[alarm]]
id = "after-change"
time = "03:00:05"
days = "daily"
sound = "/tmp/tone.wav"
ramp = "0s"
[[alarm]]
id = "in-gap"
time = "02:30"
days = "daily"
sound = "/tmp/tone.wav"
ramp = "0s"
TOML
date -u -s "2027-03-28 00:59:50" >/dev/null
log "clock: $(TZ=Europe/Berlin date '+%F %T %Z')"
svc_start || finish
next=$(svc_field '" ".join(n["id"] + "@" + n["at"] for n in d["next"])')
log "next: $next"
check "after-change is due at 03:00:05 CEST" grep -q "after-change@2027-03-28T03:00:05+02:00" <<<"$next"
check "in-gap is due at 03:30:00 CEST" grep -q "in-gap@2027-03-28T03:30:00+02:00" <<<"$next"
check "not ringing before the change" state_is none
check "after-change rings across the change" wait_state ringing 30
log "rang at $(TZ=Europe/Berlin date '+%T %Z')"
check "at 03:00:05 CEST or a moment later" \
  test "$(date -u +%s)" -ge "$(date -u -d '2027-03-28 01:00:05' +%s)" -a \
  "$(date -u +%s)" -le "$(date -u -d '2027-03-28 01:00:08' +%s)"
check "the ringing alarm is after-change" test "$(svc_field 'd["session"]["id"]')" = after-change
finish
