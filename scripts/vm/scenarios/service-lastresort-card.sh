#!/usr/bin/env bash
# Never silent, every card: the configured device does not exist ("hw:NoSuchCard"), and
# neither does its fallback, but the Loopback card is there: the check before the alarm
# finds the card by the card scan, status says so, and the ring is recorded on the Loopback
# capture through plughw:CARD=Loopback.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
need_service "the card scan"
grep -q Loopback /proc/asound/cards || loopback_plug || { fail "the Loopback card"; finish; }
tone /tmp/tone.wav 30
svc_config <<TOML
[settings]
timezone = "UTC"
[audio]
device = "hw:NoSuchCard"
fallback_devices = ["plughw:NoSuchCardEither"]
[[alarm]]
id = "wake"
time = "$(at_time 20)"
days = "daily"
sound = "/tmp/tone.wav"
ramp = "0s"
volume = 100
ring_for = "5m"
TOML
svc_start || finish
check "the check chooses the Loopback card" \
  wait_for 20 svc_logged "failover: plughw:CARD=Loopback"
check "status names the failover" bash -c "$ALARMCLOCK status --socket $SVC_SOCK | grep -q 'failover: plughw:CARD=Loopback'"
check "it rings at its time" wait_state ringing 30
check "the first frame went to plughw:CARD=Loopback" \
  wait_for 10 svc_logged "first frame on plughw:CARD=Loopback"
check "the Loopback capture hears 440 Hz" wait_for 10 hears 440
check "stop" svc_cmd stop
check "the session is over" wait_state none 5
check "silent after stop" wait_for 5 silent
finish
