#!/usr/bin/env bash
# boot-power-cut, second half: the boot after a hard reset mid-ring (boot-power-cut-1).
# The state file is intact (valid JSON, not empty), and the service follows the
# ring-window rule: the ring that was cut off is still inside its ring_for, so it resumes
# until the same end; status and the journal say so.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
[ -s /vm/out/cut-status.json ] || { fail "the first half left no status (see boot-power-cut-1.log)"; finish; }
before_until=$(python3 -c 'import json; print(json.load(open("/vm/out/cut-status.json"))["session"]["until"])')
state=/var/lib/alarmclock/state.json
log "state.json after the reset: $(stat -c '%s bytes, modified %y' "$state" 2>&1)"
check "the state file is not empty" test -s "$state"
check "the state file is valid JSON" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$state"
check "no state file was set aside as broken" not compgen -G "/var/lib/alarmclock/state.json.bad-*"
check "the service is up after the reset" wait_up 60
log "$(alarmclock status 2>&1)"
check "the cut-off ring resumes" wait_state ringing 15
check "the same ring, ending when it would have (until $before_until)" \
  test "$(session until)" = "$before_until"
check "the journal says it resumed" svc_logged "resuming the ring of 'cut'"
check "the tone is heard" hears 440
check "status names the ringing alarm" grep -q "cut" <(alarmclock status 2>&1)
check "stop" svc_cmd stop
check "stopped" wait_state none 10
check "no sandbox denials in the log" no_denials
finish
