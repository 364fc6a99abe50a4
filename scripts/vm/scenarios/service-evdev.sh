#!/usr/bin/env bash
# Scenario 3, evdev: a uinput keyboard created after the service started is picked up
# (hot-plug) and grabbed; its snooze key snoozes, its stop key stops; while grabbed, other
# readers see none of its keys. Unplugged and plugged again, it is picked up again.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
need_service "evdev input"
tone /tmp/tone.wav 30
svc_config <<TOML
[settings]
timezone = "UTC"
[audio]
device = "hw:Loopback,0,0"
[[input]]
device = "auto"
snooze = ["KEY_SPACE"]
stop = ["KEY_ENTER"]
grab = true
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
# The service honours [[input]]: status must list the input (a skip would hide a regression).
[ -n "$inputs" ] || { fail "status lists no input for [[input]]"; finish; }
sleep 1
kbd_start "vm bedside keyboard" || { fail "uinput keyboard"; finish; }
log "keyboard plugged in after start: $KBD_DEV"
check "the service grabs the new keyboard" wait_for 10 "$VM_BIN/evtool" grabbed "$KBD_DEV"
log "inputs: $(svc_inputs)"

check "ring wake" svc_cmd ring wake
check "ringing" wait_state ringing 10
bg_start spy "$VM_BIN/evtool" read "$KBD_DEV" 3000
bg_wait_line spy 5 ready
kbd_send press KEY_SPACE
check "KEY_SPACE snoozes" wait_state snoozed 5
bg_wait spy
check "grabbed: another reader saw no keys" bash -c "! grep -q '^key' /tmp/spy.out"
check "rings again after the snooze" wait_state ringing 15
kbd_send press KEY_ENTER
check "KEY_ENTER stops" wait_state none 5

log "unplug and plug again"
kbd_stop
sleep 1
check "the service survives the unplug" svc_alive
kbd_start "vm bedside keyboard" || fail "uinput keyboard again"
check "the re-plugged keyboard is grabbed again" wait_for 10 "$VM_BIN/evtool" grabbed "$KBD_DEV"
check "ring wake" svc_cmd ring wake
check "ringing" wait_state ringing 10
kbd_send press KEY_ENTER
check "its stop key works" wait_state none 5
finish
