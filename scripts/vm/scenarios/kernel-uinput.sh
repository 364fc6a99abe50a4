#!/usr/bin/env bash
# Kernel facts, evdev: a uinput keyboard appears as /dev/input/eventN and delivers EV_KEY;
# while one reader holds EVIOCGRAB, others see the grab as EBUSY.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
kbd_start "vm facts keyboard" || { fail "uinput keyboard created"; finish; }
log "keyboard at $KBD_DEV"
check "event node is a char device" test -c "$KBD_DEV"
check "sysfs names it" grep -qx "vm facts keyboard" "/sys/class/input/$(basename "$KBD_DEV")/device/name"
bg_start read "$VM_BIN/evtool" read "$KBD_DEV" 2000
bg_wait_line read 5 ready || fail "evtool read ready"
kbd_send press KEY_SPACE
bg_wait read
cat /tmp/read.out
check "KEY_SPACE down and up delivered" grep -qx "key 57 1" /tmp/read.out
check "KEY_SPACE release delivered" grep -qx "key 57 0" /tmp/read.out
check "nobody grabs it" bash -c "! '$VM_BIN/evtool' grabbed '$KBD_DEV'"
finish
