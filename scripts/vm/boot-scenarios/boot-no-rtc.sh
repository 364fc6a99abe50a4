#!/usr/bin/env bash
# A Pi without a real-time clock: this boot starts with the clock weeks behind (qemu's
# RTC set back; timesyncd is masked, the VM has no network), the service starts at boot
# under it, then the clock is set (`date -s`, as NTP would). No stale occurrence rings,
# a one-off whose time passed while the clock was wrong is recorded as missed (outside
# its ring window), and the next alarm rings at its true time.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
# How far behind scripts/test-boot set qemu's RTC (vm.behind=SECONDS).
behind=$(sed -n 's/.*vm\.behind=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$behind" ] || { fail "no vm.behind= on the kernel command line"; finish; }
true_now() { echo $(($(date +%s) + behind)); }
epoch=$(($(true_now) - $(cut -d. -f1 /proc/uptime)))
log "clock at boot: $(date -u +%FT%TZ); true time about $(date -u -d "@$(true_now)" +%FT%TZ)"
# The console log on the host's share has the host's (true) modification time.
check "the clock is weeks behind" \
  test "$(date +%s)" -lt $(($(stat -c %Y "/vm/out/serial-$VM_PHASE.log") - 7 * 86400))
check "the service is up" wait_up 60
check "nothing rings with the clock behind" state_is none
now=$(true_now)
at=$((now + 60))
# The one-off's time: a few seconds into this boot (true time), after anything an
# earlier boot saw, so it was never dealt with; it has passed, beyond its 5 s window,
# by the time the clock is set.
gone=$((epoch + 3))
# And one 20 min in the true past: before the newest instant the earlier boot saw, which
# the service once passed over silently (neither rung nor missed).
early=$((now - 1200))
svc_mark
{
  alarm_block daily "$at" 5m
  alarm_block once "$gone" 5s one-off
  alarm_block early "$early" 5s one-off
} | config_with_alarms
check "the config is in force" wait_for 15 svc_logged 'config applied'
log "next before the clock is set: $(svc_field 'd["next"][:2]')"
svc_mark
date -s "@$(true_now)" >/dev/null
log "clock set to $(date -u +%FT%TZ)"
check "the service notices the clock change" wait_for 5 svc_logged 'the clock was set'
sleep 1
check "no stale occurrence rings" state_is none
check "nor was one logged as ringing" not svc_logged "ringing '"
log "history: $(svc_field 'd["history"]')"
check "the passed one-off is recorded as missed (outside its 5 s window)" \
  test "$(svc_field "len([h for h in d['history'] if h['kind'] == 'missed' and h['id'] == 'once'])")" -ge 1
check "the journal has it as missed" svc_logged "missed 'once'"
check "the one-off from before the earlier boot's last instant is recorded as missed too" \
  test "$(svc_field "len([h for h in d['history'] if h['kind'] == 'missed' and h['id'] == 'early'])")" -ge 1
log "next after the clock was set: $(svc_field 'd["next"][:1]')"
check "'daily' is next, today at its true time" \
  test "$(svc_field 'd["next"][0]["at"]' | cut -c1-19)" = "$(date -u -d "@$at" +%FT%T)"
check "'daily' rings" wait_for 90 state_is ringing
read -r _ rang < <(ring_logged daily)
late=$((${rang:-0} - at * 1000))
log "ring logged ${late} ms after its time $(date -u -d "@$at" +%T)"
check "at its true time (within 2 s)" test "$late" -ge -1000 -a "$late" -le 2000
check "the tone is heard" hears 440
check "stop" svc_cmd stop
check "no sandbox denials in the log" no_denials
finish
