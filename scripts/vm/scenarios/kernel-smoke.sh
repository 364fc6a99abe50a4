#!/usr/bin/env bash
# Kernel facts: the VM booted with everything the other scenarios rely on.
source "$VM_LIB"
check "the Loopback card is there" grep -q Loopback /proc/asound/cards
check "/dev/uinput exists" test -c /dev/uinput
check "configfs has gpio-sim" test -d /sys/kernel/config/gpio-sim
check "the tools were built" test -x "$VM_BIN/gpiotool" -a -x "$VM_BIN/evtool"
finish
