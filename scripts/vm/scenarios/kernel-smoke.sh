#!/usr/bin/env bash
# Kernel facts: the VM booted with everything the other scenarios rely on, host
# binaries run in the chroot, and the host's product paths are masked empty.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
check "the Loopback card is there" grep -q Loopback /proc/asound/cards
check "/dev/uinput exists" test -c /dev/uinput
check "configfs has gpio-sim" test -d /sys/kernel/config/gpio-sim
check "the tools were built" test -x "$VM_BIN/gpiotool" -a -x "$VM_BIN/evtool"
# Nothing of the host's product paths shows through (scripts/vm/init masks them): a
# leftover of the CI machine's would change what the scenarios find.
# shows_through PATH: a directory with entries, or a file with content.
shows_through() { if [ -d "$1" ]; then [ -n "$(ls -A "$1")" ]; else [ -s "$1" ]; fi; }
for p in $(grep '^/' "$VM_REPO/scripts/vm/product-paths"); do
  check "nothing of the host's at $p" not shows_through "$p"
done
if [ -x "$ALARMCLOCK" ]; then
  # The Swift runtime comes from the host's /opt/swift through the chroot.
  check "the built alarmclock runs in the VM" "$ALARMCLOCK" --help
else
  log "no $ALARMCLOCK yet (scripts/test builds it before this tier)"
fi
finish
