#!/usr/bin/env bash
# Scenario 2, GPIO: the service finds the gpio-sim chip by label and the line by name with
# kernel debounce; flips shorter than the debounce do nothing, a short press snoozes a real
# ring, a hold past long_press stops it while the button is still held.
# The button is wired to GND with the internal pull-up (active low): pressed = the
# simulator's pull set to pull-down, released = pull-up.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
need_service "the GPIO button"
pull=$(gpiosim_create svcbutton alarm-button GPIO17) || { fail "gpio-sim chip"; finish; }
at_exit "gpiosim_remove svcbutton"
press() { echo pull-down >"$pull/pull"; }
release() { echo pull-up >"$pull/pull"; }
tone /tmp/tone.wav 30
svc_config <<TOML
[settings]
timezone = "UTC"
[audio]
device = "hw:Loopback,0,0"
[button]
chip = "alarm-button"
line = "GPIO17"
debounce = "50ms"
long_press = "1s"
[[alarm]]
id = "wake"
time = "23:59:59"
enabled = false
sound = "/tmp/tone.wav"
ramp = "0s"
snooze = "5s"
TOML
svc_start || finish
inputs=$(svc_inputs)
log "inputs: ${inputs:-none}"
# The service honours [button]: status must list the input (a skip would hide a regression).
[ -n "$inputs" ] || { fail "status lists no input for [button]"; finish; }
check "the button is available" test "$(svc_field '[i["available"] for i in d["inputs"]
  if i["name"] not in ("audio", "terminal", "state")][0]')" = True
read -r _ _ used consumer < <("$VM_BIN/gpiotool" find alarm-button GPIO17)
log "GPIO17: used=$used consumer=${consumer:-}"
check "the service holds GPIO17" test "${used:-0}" = 1

check "ring wake" svc_cmd ring wake
check "ringing" wait_state ringing 10
log "bounces: three flips of well under 50 ms"
for _ in 1 2 3; do press; release; done
sleep 1.5
check "bounces do nothing" state_is ringing
log "short press (300 ms)"
press; sleep 0.3; release
check "a short press snoozes" wait_state snoozed 5
check "it rings again after the 5 s snooze" wait_state ringing 15
log "long press (held)"
press
sleep 2
check "holding past long_press stops it, before release" state_is none
release
sleep 1
check "the release does not start anything" state_is none
check "the service is alive" svc_alive
finish
