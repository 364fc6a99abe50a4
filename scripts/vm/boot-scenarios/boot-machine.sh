#!/usr/bin/env bash
# The arm64 tier's machine before anything is installed: an aarch64 kernel and userland
# (Debian trixie), systemd as PID 1 that reached multi-user.target with no failed unit,
# the modules loaded from the initramfs (the Loopback card, gpio-sim's Pi-labelled chip,
# uinput), and the scenario tools run.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
log "$(uname -srm); $(. /etc/os-release && echo "$PRETTY_NAME")"
check "the kernel is aarch64" test "$(uname -m)" = aarch64
check "the userland is arm64" test "$(dpkg --print-architecture)" = arm64
check "PID 1 is systemd" test "$(cat /proc/1/comm)" = systemd
check "multi-user.target is active" systemctl is-active -q multi-user.target
failed=$(systemctl list-units --failed --plain --no-legend 2>/dev/null)
log "failed units: ${failed:-none}"
check "no unit failed" test -z "$failed"
check "the Loopback card is there (snd-aloop)" grep -q Loopback /proc/asound/cards
log "$(cat /proc/asound/cards)"
check "gpio-sim's chip is labelled like the Pi's" "$VM_BIN/gpiotool" find "$PI_CHIP" GPIO17
check "uinput is there" test -c /dev/uinput
finish
