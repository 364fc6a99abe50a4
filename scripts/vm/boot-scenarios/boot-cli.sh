#!/usr/bin/env bash
# The arm64 tier's black-box CLI comparison: the installed binary's `check`, `list`,
# `list --json` and `next --json` on the configs of scripts/vm/arm64/cli give, byte for
# byte and with the same exit status, what the amd64 binary gave on the host
# (scripts/vm/arm64/cli-expect wrote those into /vm/cache/boot/cli), and `status --json`
# of a service run from the same config has the same shape (key paths). Run in a copy of
# that folder, with the same relative paths and the same clean environment.
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
ref=/vm/cache/boot/cli
[ -s "$ref/commands" ] || { fail "no reference outputs in $ref"; finish; }
work=/root/cli
rm -rf "$work"
mkdir -p "$work"
cp "$ref"/*.toml "$ref/commands" "$work/"
cd "$work" || exit 1
log "$(uname -m): $("$ALARMCLOCK" --version 2>&1)"
while read -r name args; do
  # shellcheck disable=SC2086  # the arguments are words
  env -i PATH=/usr/bin:/bin TZ=UTC LANG=C.UTF-8 HOME=/nonexistent "$ALARMCLOCK" $args >"$name.out" 2>&1 </dev/null
  rc=$?
  if [ "$rc" = "$(cat "$ref/$name.rc")" ] && cmp -s "$name.out" "$ref/$name.out"; then
    echo "ok: $name ($args): same output, exit $rc"
  else
    fail "$name ($args): exit $rc (amd64: $(cat "$ref/$name.rc"))"
    diff -u "$ref/$name.out" "$name.out" | head -n 20
  fi
done <commands

state=$(mktemp -d)
"$ALARMCLOCK" run --config example.toml --state-dir "$state" --socket "$state/sock" --no-terminal \
  >"$state/log" 2>&1 &
pid=$!
at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
status_ok() { "$ALARMCLOCK" status --json --socket "$state/sock" >status.json 2>/dev/null; }
check "a service run from example.toml answers status" wait_for 60 status_ok
python3 "$VM_REPO/scripts/vm/arm64/json-shape" <status.json >status.shape
if cmp -s status.shape "$ref/status.shape"; then
  echo "ok: status --json has the amd64 service's shape ($(wc -l <status.shape) key paths)"
else
  fail "status --json shape differs from the amd64 service's"
  diff -u "$ref/status.shape" status.shape | head -n 20
fi
finish
