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
# When the sound began, from the service's own line (a status poll on a busy machine can
# see the ring seconds late): not before 03:00:05 CEST, and within 3 s of it.
check "the first frame is logged" wait_for 10 svc_logged 'first frame on '
late=$(sed -n 's/.*first frame on [^ ]* \(-\{0,1\}[0-9.]*\) ms after the scheduled time.*/\1/p' "$SVC_LOG" | tail -n 1)
log "first frame ${late:-?} ms after 03:00:05 CEST"
check "at 03:00:05 CEST or a moment later" \
  python3 -c 'import sys; ms = float(sys.argv[1]); sys.exit(0 if 0 <= ms <= 3000 else 1)' "${late:--1}"
check "the ringing alarm is after-change" test "$(svc_field 'd["session"]["id"]')" = after-change
finish
