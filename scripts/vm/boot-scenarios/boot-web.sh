#!/usr/bin/env bash
# The web page's units as shipped, under systemd: alarmclock-web.socket is installed
# disabled; once enabled, the first connection starts alarmclock-web.service in its own
# sandbox (no network of its own, User=alarmclock, writes only /etc/alarmclock). The
# token file is made 0600 for the service user, the config directory is the service
# user's and not its group's; without it the API answers 401; an alarm
# added through the API is in the config (comments kept) and in force in the service.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
check "the service is up" wait_up 60
check "the web socket is installed, disabled" \
  test "$(systemctl is-enabled alarmclock-web.socket 2>&1)" = disabled
check "enable --now alarmclock-web.socket" systemctl enable --now alarmclock-web.socket
check "the socket listens" wait_for 10 systemctl is-active -q alarmclock-web.socket
url=http://127.0.0.1:8080
code=$(curl -s -m 30 -o /dev/null -w '%{http_code}' "$url/api/status")
check "without the token the API answers 401" test "$code" = 401
check "the connection started alarmclock-web.service" \
  wait_for 10 systemctl is-active -q alarmclock-web.service
# Group members use status/snooze/stop only: the start gives the config directory to the
# service's user (0755), so they cannot put a config with [hooks] in place (issue 28).
log "config directory: $(stat -c '%a %U:%G' /etc/alarmclock 2>&1)"
check "the config directory is 0755, owned by alarmclock" \
  test "$(stat -c '%a %U' /etc/alarmclock 2>/dev/null)" = "755 alarmclock"
group_id=$(getent group alarmclock | cut -d: -f3)
check "a member of group alarmclock cannot rename a file over the config" \
  not setpriv --reuid=65534 --regid=65534 --groups="$group_id" -- \
  sh -c "printf '[hooks]\n' >/etc/alarmclock/.member && mv /etc/alarmclock/.member '$CONFIG'"
token_file=/etc/alarmclock/web-token
log "token file: $(stat -c '%a %U:%G' "$token_file" 2>&1)"
check "the token file is 0600, owned by alarmclock" \
  test "$(stat -c '%a %U' "$token_file" 2>/dev/null)" = "600 alarmclock"
token=$(cat "$token_file" 2>/dev/null)
api() { curl -s -m 30 -H "Authorization: Bearer $token" "$@"; }
status=$(api "$url/api/status")
check "GET /api/status answers with the service's status" \
  python3 -c 'import json, sys; d = json.loads(sys.argv[1]); sys.exit(0 if "next" in d else 1)' \
  "$status"
printf '# kept by the web edit\n' >>"$CONFIG"
svc_mark
code=$(api -o /tmp/web-add.json -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
  -d '{"time":"12:34","days":"weekdays","label":"From the web"}' "$url/api/alarms")
log "POST /api/alarms: $code $(head -c 300 /tmp/web-add.json)"
check "POST /api/alarms creates the alarm (201)" test "$code" = 201
check "it is in the config file" grep -q 'label = "From the web"' "$CONFIG"
check "the config's comments are kept" grep -q '^# kept by the web edit' "$CONFIG"
check "the service applied it" wait_for 15 svc_logged 'config applied'
id=$(python3 -c 'import json; print(json.load(open("/tmp/web-add.json"))["id"])' 2>/dev/null)
check "DELETE removes it again (204)" \
  test "$(api -o /dev/null -w '%{http_code}' -X DELETE "$url/api/alarms/$id")" = 204
check "the web process logged no denial" \
  not sh -c "journalctl -u alarmclock-web -b --no-pager -o cat | grep -E 'EPERM|EACCES|Operation not permitted|Permission denied'"
log "exposure: $(systemd-analyze security alarmclock-web.service 2>/dev/null | tail -n 1)"
systemctl disable --now alarmclock-web.socket alarmclock-web.service >/dev/null 2>&1
check "no sandbox denials in the alarm service's log" no_denials
finish
