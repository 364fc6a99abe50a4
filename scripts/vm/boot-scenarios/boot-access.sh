#!/usr/bin/env bash
# Who may drive the service: a member of group alarmclock runs status, snooze and stop
# through /run/alarmclock/control.sock; anyone else gets a clear error that names the
# way in (group membership) and changes nothing. A config edited by root (saved the way
# editors save: a new file renamed over the old) is applied live.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
check "the service is up" wait_up 60
id alice >/dev/null 2>&1 || useradd -M -U -G alarmclock -s /bin/sh alice
id bob >/dev/null 2>&1 || useradd -M -U -s /bin/sh bob
log "$(id alice); $(id bob)"
check "a member runs status" as alice alarmclock status
check "ring wake" svc_cmd ring wake
check "ringing" wait_state ringing 10
check "a member snoozes" as alice alarmclock snooze
check "snoozed" wait_state snoozed 5
check "a member stops" as alice alarmclock stop
check "stopped" wait_state none 5

msg=$(as bob alarmclock status 2>&1)
rc=$?
log "bob: status: exit $rc: $msg"
check "an outsider's status fails with exit 1" test "$rc" = 1
check "the error names the socket and group membership" \
  grep -q "permission denied on /run/alarmclock/control.sock.*member of the socket's group" <<<"$msg"
check "ring wake" svc_cmd ring wake
check "ringing" wait_state ringing 10
check "an outsider's snooze fails" not as bob alarmclock snooze
check "an outsider's stop fails" not as bob alarmclock stop
sum=$(md5sum <"$CONFIG")
check "an outsider's enable (a config edit) fails" not as bob alarmclock enable wake
check "the config is unchanged" test "$(md5sum <"$CONFIG")" = "$sum"
check "still ringing" state_is ringing
check "stop" svc_cmd stop
check "stopped" wait_state none 5

cp "$CONFIG" /root/alarms.toml.saved
pid=$(svc_pid)
{ cat /root/alarms.toml.saved; printf '[[alarm]]\nid = "edited"\ntime = "12:34:56"\ndays = "daily"\n'; } | put_config
has_edited() { alarmclock status --json 2>/dev/null | grep -q '"edited"'; }
check "root's edit (renamed over) is in force without a restart" wait_for 15 has_edited
check "by the same process (no restart)" test "$(svc_pid)" = "$pid"
put_config </root/alarms.toml.saved
check "no sandbox denials in the log" no_denials
finish
