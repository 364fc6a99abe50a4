#!/usr/bin/env bash
# boot-hand-run, first half (end of the install boot, the package installed): a person
# stops the packaged service and runs `alarmclock run` by hand as root on the default
# paths. The hand run reads the packaged service's state (the service user's, not set
# aside as planted), says that it runs as root and where it writes; a one-off rings and
# is stopped, a daily alarm's next occurrence is skipped. Its files are the service
# user's (the state directory's owner); they are then given to root, mode 0640, as an
# older version left them (issue 27), for the next boot (boot-hand-run) to find. The
# config the main boot needs (boot-install's alarms.toml.next) waits aside till then.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
state=/var/lib/alarmclock/state.json
hand_log=/vm/out/boot-hand-run.hand.log
[ -f "$CONFIG.next" ] && mv "$CONFIG.next" "$CONFIG.main"
check "the packaged service stops" systemctl stop alarmclock
check "it left its state" test -s "$state"
once=$(($(date +%s) + 30))
{
  printf '[settings]\ntimezone = "UTC"\n[audio]\ndevice = "hw:Loopback,0,0"\n'
  alarm_block once "$once" 10m one-off
  alarm_block daily $((once + 7200)) 10m
} | put_config
echo "$once" >/vm/out/hand-run-once
/usr/bin/alarmclock run --no-terminal >"$hand_log" 2>&1 &
hand=$!
at_exit "kill $hand 2>/dev/null; wait $hand 2>/dev/null"
check "the hand run answers status" wait_for 60 svc_status_ok
check "it says it runs as root and where it writes" \
  grep -q "running as root: writing $state and last-good.toml (owned by uid $(id -u alarmclock)" "$hand_log"
check "skip the daily alarm's next occurrence" svc_cmd skip daily
check "the one-off rings" wait_for $((once - $(date +%s) + 60)) state_is ringing
check "stop" svc_cmd stop
check "stopped" wait_state none 15
check "the hand run ends on SIGTERM" kill -TERM "$hand"
wait "$hand"
log "hand run exited $?; its log:"
cat "$hand_log"
log "$(ls -ln /var/lib/alarmclock)"
check "the hand run read the packaged service's state, not set it aside as planted" \
  not compgen -G "$state.bad-*"
for f in "$state" /var/lib/alarmclock/last-good.toml; do
  check "$f is the service user's, not root's" test "$(stat -c %U "$f")" = alarmclock
done
check "the one-off's ring is in the state" grep -q '"once"' "$state"
# What an older version's hand run left: root's files, unreadable to the service.
chown root:root "$state" /var/lib/alarmclock/last-good.toml
chmod 0640 "$state" /var/lib/alarmclock/last-good.toml
cp "$state" /vm/out/hand-run-state.json
finish
