#!/usr/bin/env bash
# boot-power-cut, first half (its own boot): an alarm rings, then the machine is reset
# hard mid-ring (sysrq b: no sync, no shutdown), as when the plug is pulled. The state
# directory is on the disk image that outlives the reset; boot-power-cut checks the boot
# after it. Never returns when it works: the result line is the second half's.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
check "the service is up" wait_up 60
at=$(($(date +%s) + 20))
alarm_block cut "$at" 15m | config_with_alarms
check "'cut' rings" wait_for 60 state_is ringing
check "the tone is heard" hears 440
alarmclock status --json >/vm/out/cut-status.json
log "status before the cut: $(cat /vm/out/cut-status.json)"
log "state.json before the cut: $(stat -c '%s bytes' /var/lib/alarmclock/state.json)"
[ "$failures" -eq 0 ] || finish
echo "@@VM CUT $(cut -d' ' -f1 /proc/uptime)s" >/dev/console
echo b >/proc/sysrq-trigger
sleep 30
fail "sysrq b did not reset the machine"
finish
