#!/usr/bin/env bash
# Kernel facts: the VM booted with everything the other scenarios rely on, and host
# binaries run in the chroot.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
check "the Loopback card is there" grep -q Loopback /proc/asound/cards
check "/dev/uinput exists" test -c /dev/uinput
check "configfs has gpio-sim" test -d /sys/kernel/config/gpio-sim
check "the tools were built" test -x "$VM_BIN/gpiotool" -a -x "$VM_BIN/evtool"
if [ -x "$ALARMCLOCK" ]; then
  # The Swift runtime comes from the host's /opt/swift through the chroot.
  check "the built alarmclock runs in the VM" "$ALARMCLOCK" --help
else
  log "no $ALARMCLOCK yet (scripts/test builds it before this tier)"
fi
finish
