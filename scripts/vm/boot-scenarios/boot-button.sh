#!/usr/bin/env bash
# Buttons under the shipped sandbox, as the service user: the service holds the Pi's
# GPIO17 (found by the chip's label and the line's name); a short press snoozes, a hold
# past long_press stops. A uinput keyboard plugged in while the service runs is opened
# (udev gives it group input) and its key stops a ring.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
check "the service is up" wait_up 60
svc_mark
read -r _ _ used consumer < <("$VM_BIN/gpiotool" find "$PI_CHIP" GPIO17)
log "GPIO17: used=${used:-?} consumer=${consumer:-}"
check "the service holds GPIO17" test "${used:-0}" = 1
log "inputs: $(svc_inputs)"

check "ring wake" svc_cmd ring wake
check "ringing" wait_state ringing 10
log "short press (300 ms)"
press_for 0.3
check "a short press snoozes" wait_state snoozed 5
check "it rings again after the 5 s snooze" wait_state ringing 15
log "long press (held)"
press
check "holding past long_press stops it, before release" wait_for 10 state_is none
release

kbd_start "vm bedside keyboard" || { fail "uinput keyboard"; finish; }
log "keyboard plugged in: $KBD_DEV ($(stat -c '%U:%G %a' "$KBD_DEV"))"
holds_kbd() { ls -l "/proc/$(svc_pid)/fd" 2>/dev/null | grep -q -- "-> $KBD_DEV\$"; }
check "the service opens the new keyboard" wait_for 15 holds_kbd
check "ring wake" svc_cmd ring wake
check "ringing" wait_state ringing 10
kbd_send press KEY_ENTER
check "its Enter key stops the ring" wait_state none 5
check "no restart" test "$(svc_restarts)" = 0
check "no sandbox denials in the log" no_denials
finish
