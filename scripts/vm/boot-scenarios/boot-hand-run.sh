#!/usr/bin/env bash
# boot-hand-run, second half: the boot after a hand run as root (boot-hand-run-1) left
# the state root's. systemd-tmpfiles gives the state directory's files back to the service
# user at boot (the package's tmpfiles.d `Z` line), so the packaged service, under the
# shipped unit, reads the state as it was: nothing set aside, the one-off that rang (its
# ring window still open) does not ring again, the skip holds. Then the main boot's
# config is put back for boot-install's alarm (boot-ring).
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
state=/var/lib/alarmclock/state.json
at_exit "[ -f '$CONFIG.main' ] && mv '$CONFIG.main' '$CONFIG.next'"
[ -s /vm/out/hand-run-state.json ] || { fail "the first half left no state (see boot-hand-run-1.log)"; finish; }
once=$(cat /vm/out/hand-run-once)
log "$(ls -ln /var/lib/alarmclock)"
check "state.json is the service user's again (tmpfiles.d at boot)" \
  test "$(stat -c %U "$state")" = alarmclock
check "last-good.toml too" test "$(stat -c %U /var/lib/alarmclock/last-good.toml)" = alarmclock
check "the service is up" wait_up 60
log "$(alarmclock status 2>&1)"
check "no state file was set aside as broken" not compgen -G "$state.bad-*"
check "the journal does not say it started clean" not svc_logged "started clean|starting clean"
check "the one-off's ring window is still open" test "$(date +%s)" -lt $((once + 600))
check "the one-off that rang does not ring again" state_is none
check "status has the one-off's ring from the hand run" \
  test "$(history_count rung once)" -ge 1
check "the skip holds: unskip finds it" svc_cmd unskip daily
check "no sandbox denials in the log" no_denials
finish
