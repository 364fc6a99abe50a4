#!/usr/bin/env bash
# Never silent, the last resort: the service's only device (hw:Loopback) goes away after it
# started (driver unbind, rmmod snd-aloop) and the VM has no other card, so the check before
# the alarm chooses the buzzer, a gpio-sim line found by label and name: the line's value
# toggles while the alarm rings. With the card back the sound plays and the buzzer stops;
# the card taken away mid-ring starts the buzzer again; stop leaves the line low.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
need_service "the buzzer"
sim=$(gpiosim_create svcbuzzer alarm-buzzer GPIO18) || { fail "gpio-sim chip"; finish; }
at_exit "gpiosim_remove svcbuzzer"
at_exit "grep -q Loopback /proc/asound/cards || loopback_plug"
# toggles: the buzzer line's value (gpio-sim's view of what the service drives) changes at
# least 4 times within 60 samples 50 ms apart (under TCG each read takes longer: the loop
# ends as soon as it has seen them).
toggles() {
  local v prev='' n=0 seen=''
  for _ in $(seq 60); do
    v=$(<"$sim/value")
    [ -n "$prev" ] && [ "$v" != "$prev" ] && n=$((n + 1))
    prev=$v seen="$seen$v"
    [ "$n" -ge 4 ] && break
    sleep 0.05
  done
  log "buzzer line: $n changes in ${#seen} samples ($seen)"
  [ "$n" -ge 4 ]
}
# detail_has NAME PATTERN: the detail of status's NAME entry (audio, buzzer) matches.
detail_has() {
  svc_field "[i['detail'] for i in d['inputs'] if i['name'] == '$1'][0]" | grep -qE -- "$2"
}
line_low() { [ "$(cat "$sim/value")" = 0 ]; }
tone /tmp/tone.wav 30
# cfg WHEN: the config with the alarm at WHEN (UTC). The alarm is set a few seconds ahead
# only once the card is gone: a slow VM must not reach the prepare point first.
cfg() {
  svc_config <<TOML
[settings]
timezone = "UTC"
[audio]
device = "hw:Loopback,0,0"
buzzer = { chip = "alarm-buzzer", line = "GPIO18" }
[[alarm]]
id = "wake"
time = "$1"
days = "daily"
sound = "/tmp/tone.wav"
ramp = "0s"
volume = 100
ring_for = "5m"
TOML
}
cfg "$(at_time 600)"
svc_start || finish
check "the buzzer line is requested" svc_logged "buzzer: .* line 1 ready"
check "status lists the buzzer, silent" detail_has buzzer ", silent$"
check "the line is low while all is well" line_low
log "unplugging the Loopback card before the alarm"
check "card taken away and snd-aloop unloaded" loopback_unplug
cfg "$(at_time 12)"
check "the config edit is applied" wait_for 10 svc_logged "config applied"
check "the alarm is under a minute away: checked at once" \
  wait_for 10 svc_logged "audio: checking the devices for 'wake'"
check "the check before the alarm chooses the buzzer" \
  wait_for 10 svc_logged "audio check: 'hw:Loopback,0,0' cannot be opened; failover: the buzzer"
# (Before the ring it names the failover; once the ring has tried the device, why it beeps.)
check "status says so" detail_has audio "failover: the buzzer|beeping the buzzer"
check "it rings at its time" wait_state ringing 30
check "the buzzer beeps at once" wait_for 10 svc_logged "buzzer: beeping on .*: the audio check found no device"
check "the gpio-sim line toggles during the alarm" toggles
check "status shows it beeping" detail_has buzzer ", beeping$"
check "the card returns" loopback_plug
check "the ring is heard once the card is back" wait_for 30 hears 440
check "the buzzer stops for the sound" svc_logged "buzzer: stopped: playing on"
check "and leaves its line low" wait_for 5 line_low
svc_mark
log "unplugging the card mid-ring"
check "card taken away mid-ring" loopback_unplug
check "no device: the buzzer beeps again" wait_for 30 svc_logged "buzzer: beeping on .*: no audio device opens"
check "the line toggles again" toggles
check "the service survives" svc_alive
check "stop" svc_cmd stop
check "the session is over" wait_state none 10
check "stop silences the buzzer, the line low" wait_for 5 line_low
check "the card returns" loopback_plug
finish
