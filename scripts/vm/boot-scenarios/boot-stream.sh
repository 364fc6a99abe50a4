#!/usr/bin/env bash
# A radio alarm under the shipped units: the service (PrivateNetwork=yes) asks the
# socket-activated helper, alarmclock-stream@.service (DynamicUser, its sandbox as
# shipped), which fetches a live station from the host side of qemu's user-mode network
# (10.0.2.2; scripts/stream-fixture, started by scripts/test-boot, its address in
# /vm/out/stream-url). The helper starts stream_lead (30 s) ahead; once the alarm rings
# the station's 880 Hz is heard on the Loopback card, the journal says the stream plays
# and `status` has no sound_problem. Then the station stops (GET /stop ends the server: its
# connections close, new ones are refused): the fallback takes over for good within 2 s
# (the journal's one "ringing the fallback sound" since the stop, no "is back"), its
# 440 Hz is heard and `status` says why. After the stop no helper instance is left,
# failed ones included, and no log has a sandbox denial.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
url=$(cat /vm/out/stream-url 2>/dev/null) || { fail "no station address in /vm/out/stream-url"; finish; }
station=${url%/*}
hostport=${station#http://}
check "the service is up" wait_up 60
check "the network card is up (user-mode network)" net_up
check "the station answers from the host side ($station)" \
  curl -sf -m 20 -o /dev/null "${url/\/live./\/file.}"
check "alarmclock-stream.socket listens" systemctl is-active -q alarmclock-stream.socket
check "the service's own unit still has no network" \
  test "$(unit PrivateNetwork)/$(unit RestrictAddressFamilies)" = "yes/AF_UNIX"

# A one-off alarm far enough ahead for its prepare point (stream_lead, 30 s) to come after
# the config is in force; its fallback is the 440 Hz tone, the station plays 880 Hz.
at=$(($(date +%s) + 50))
svc_mark
config_with_alarms <<TOML
[[alarm]]
id = "radio"
time = "$(date -u -d "@$at" +%H:%M:%S)"
date = "$(date -u -d "@$at" +%F)"
sound = "$url"
fallback_sound = "$TONE"
ramp = "0s"
ring_for = "10m"
TOML
check "the config is in force" wait_for 30 svc_logged 'config applied'
log "alarm 'radio' at $(date -u -d "@$at" +%T) UTC, stream $url"

# The prepare point: a connection to the socket, one helper instance as a dynamic user.
check "a helper instance starts at the prepare point, before the firing" \
  wait_for $((at - $(date +%s) + 5)) helper_running
instance=$(stream_instances --state=active | head -n 1)
pid=$(systemctl show -P MainPID "$instance" 2>/dev/null)
uid=$(awk '/^Uid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
log "helper: $instance, pid ${pid:-?}, uid ${uid:-?} ($(ps -o user= -p "${pid:-1}" 2>/dev/null))"
log "$(systemctl status "$instance" --no-pager 2>&1 | head -n 8)"
check "the helper runs under DynamicUser=yes" test "$(systemctl show -P DynamicUser "$instance")" = yes
check "the helper's user is a dynamic one (UID 61184-65519), not the service's" \
  test "${uid:-0}" -ge 61184 -a "${uid:-0}" -le 65519 -a "${uid:-0}" != "$(id -u alarmclock)"
netns() { readlink "/proc/$1/ns/net" 2>/dev/null; }
check "the service has a network namespace of its own (PrivateNetwork=yes), the helper the machine's" \
  test "$(netns "$(svc_pid)")" != "$(netns self)" -a "$(netns "${pid:-1}")" = "$(netns self)"

check "'radio' rings" wait_for $((at - $(date +%s) + 60)) state_is ringing
check "the journal says the stream plays" wait_for 15 svc_logged 'audio: playing the stream http://10.0.2.2'
played=$(journal_ms 'audio: playing the stream')
[ -z "$played" ] || log "the stream played from $((played - at * 1000)) ms after the alarm's time (the log line)"
no_sound_problem() { [ "$(session sound_problem)" = None ]; }
check "status: no sound_problem" wait_for 15 no_sound_problem
log "status: sound $(session sound), sound_problem $(session sound_problem)"
check "the station's 880 Hz is heard on hw:Loopback,1,0" wait_for 20 hears 880
log "$(svc_journal -o short-precise | grep -cE 'stopped delivering|ringing the fallback') fallback line(s) while the station played"

# The station stops: the server ends (its connections close, new ones are refused). The
# request goes out through bash's /dev/tcp, timed with $EPOCHREALTIME (no process started
# between the time and the request); the server answers, then exits, so the connection's
# end, when the read below returns, comes after the stop: the stop is between t0 and t1.
svc_mark
ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
t0=${EPOCHREALTIME/./}
exec 3<>"/dev/tcp/${hostport%:*}/${hostport#*:}" && printf 'GET /stop HTTP/1.0\r\n\r\n' >&3
stopped=$(tail -n 1 <&3)
t1=$(ms)
t0=$((t0 / 1000))
exec 3>&-
log "GET /stop at $t0, answered '$stopped', the connection closed $((t1 - t0)) ms later"
check "the station stopped" test "$stopped" = stopping
check "'ringing the fallback sound' is logged" wait_for 20 svc_logged 'ringing the fallback sound'
# Settled: the retries fail (connection refused), so nothing may come back after this.
sleep 4
# Since the stop: the time of the switch (the first "ringing the fallback sound"; a
# retry's new reason is logged as "the fallback sound rings on"), how many switches, and
# how many "is back" lines (none: the server is gone).
switches() {
  svc_journal -o json | python3 -c '
import json, sys
fell, back = [], []
for line in sys.stdin:
    e = json.loads(line)
    m, t = str(e.get("MESSAGE", "")), int(e["__REALTIME_TIMESTAMP"]) // 1000
    if "ringing the fallback sound" in m: fell.append(t)
    if "is back; it rings again" in m: back.append(t)
print(fell[0] if fell else "", len(fell), len(back))'
}
read -r fell nfell backs < <(switches)
log "$(svc_journal -o short-precise | grep -E 'stream|fallback' | tail -n 4)"
if [ -n "$fell" ]; then
  log "the fallback took over $((fell - t0)) ms after the stop was asked for, $((fell - t1)) ms after the server's end was seen ($nfell switch(es), $backs 'is back' since)"
  check "the fallback within 2 s of the stop, for good (one switch, nothing back)" \
    test $((fell - t0)) -le 2000 -a "$nfell" = 1 -a "$backs" = 0
else
  fail "no journal time for the fallback line"
fi
check "the fallback's 440 Hz is heard" wait_for 10 hears 440
problem=$(session sound_problem)
log "status: sound_problem: $problem"
check "status says why (session.sound_problem names the stream)" \
  grep -q '^stream: .*ringing the fallback sound' <<<"$problem"
check "still ringing" state_is ringing

check "stop" svc_cmd stop
check "stopped" wait_state none 10
check "no helper instance left, none kept failed (CollectMode=inactive-or-failed)" wait_for 20 no_helpers
log "helper instances this boot: $(journalctl -b --no-pager -o cat -u 'alarmclock-stream@*' 2>/dev/null | grep -c 'Started') started"
log "$(journalctl -b --no-pager -o short-precise -u 'alarmclock-stream@*' 2>/dev/null | tail -n 12)"
check "no sandbox denial in the helpers' log" not helper_denials
check "no sandbox denials in the service's log" no_denials
security=$(systemd-analyze security alarmclock-stream@vm.service 2>/dev/null | tail -n 1)
log "exposure: $security"
score=$(sed -n 's/.*: \([0-9.]*\) .*/\1/p' <<<"$security")
check "the helper's exposure (as installed) is at most 1.5" \
  awk -v s="${score:-99}" 'BEGIN { exit !(s <= 1.5) }'
finish
