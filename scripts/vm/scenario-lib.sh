# Helpers for the scenario scripts (sourced inside the VM, in the chroot).
# shellcheck shell=bash
# A scenario exits 0 (pass), 1 (fail) or 77 (skip, after printing "SKIP: reason").
set -uo pipefail
failures=0
cleanups=()

# check DESCRIPTION COMMAND...: runs COMMAND, logs ok/FAIL, remembers a failure.
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
# not COMMAND...: succeeds when COMMAND fails (for check).
not() { ! "$@"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
skip() { echo "SKIP: $*"; run_cleanups; exit 77; }
at_exit() { cleanups+=("$*"); }
run_cleanups() {
  local i
  for ((i = ${#cleanups[@]} - 1; i >= 0; i--)); do eval "${cleanups[$i]}" || true; done
  cleanups=()
}
finish() {
  run_cleanups
  if [ "$failures" -eq 0 ]; then echo "PASS"; exit 0; fi
  echo "$failures check(s) failed"
  exit 1
}
log() { echo "-- $(date +%T.%N | cut -c1-12) $*"; }

# wait_for SECONDS COMMAND...: polls COMMAND every 0.1 s until it succeeds.
wait_for() {
  local deadline=$(($(cut -d. -f1 /proc/uptime) + $1))
  shift
  until "$@"; do
    [ "$(cut -d. -f1 /proc/uptime)" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

# ---- ALSA ----
# measure_wav FILE [SKIP_SECONDS]: prints "FREQ RMS" of the first channel (sox's rough
# frequency, from zero crossings: a stretch of silence in the window lowers it).
measure_wav() {
  sox "$1" -n trim "${2:-0}" remix 1 stat 2>&1 |
    awk '/Rough   frequency/ { f = $3 } /RMS     amplitude/ { r = $3 } END { print f + 0, r + 0 }'
}
# pcm_running PCM: substream 0 of the Loopback card's PCM (pcm0p: playback on device 0,
# pcm1c: capture on device 1) is running: the condition to wait for instead of a sleep
# after starting a player or a recorder (a busy machine may take seconds to get there).
pcm_running() { grep -q "state: RUNNING" "/proc/asound/Loopback/$1/sub0/status" 2>/dev/null; }
# freq_near MEASURED EXPECTED: within 2 %.
freq_near() { awk -v m="$1" -v e="$2" 'BEGIN { exit !(m > e * 0.98 && m < e * 1.02) }'; }
loud() { awk -v r="$1" 'BEGIN { exit !(r > 0.01) }'; }

# ---- GPIO (gpio-sim through configfs) ----
# gpiosim_create NAME LABEL LINE_NAME: a chip with 4 lines, line 1 named LINE_NAME; prints
# the sysfs folder of that line's simulator attributes (its "pull" flips the line).
gpiosim_create() {
  local dir=/sys/kernel/config/gpio-sim/$1
  mkdir "$dir" "$dir/bank0" "$dir/bank0/line1" || return 1
  echo 4 >"$dir/bank0/num_lines"
  echo "$2" >"$dir/bank0/label"
  echo "$3" >"$dir/bank0/line1/name"
  echo 1 >"$dir/live" || return 1
  echo "/sys/devices/platform/$(cat "$dir/dev_name")/$(cat "$dir/bank0/chip_name")/sim_gpio1"
}
gpiosim_remove() {
  local dir=/sys/kernel/config/gpio-sim/$1
  [ -d "$dir" ] || return 0
  echo 0 >"$dir/live"
  rmdir "$dir/bank0/line1" "$dir/bank0" "$dir"
}

# ---- the service ----
ALARMCLOCK=${VM_ALARMCLOCK:-$VM_REPO/.build/debug/alarmclock}
# need_service FEATURE: fails the scenario unless the built binary has `run` (it always
# should now: a skip would hide a broken build).
need_service() {
  [ -x "$ALARMCLOCK" ] || { fail "no alarmclock binary at $ALARMCLOCK for $1"; finish; }
  "$ALARMCLOCK" --help 2>&1 | grep -qE '^ *run( |$)' \
    || { fail "$ALARMCLOCK has no 'run' command, needed for $1"; finish; }
}

# ---- background helpers ----
# bg_start NAME COMMAND...: runs COMMAND with stdout/stderr in /tmp/NAME.out, killed at exit;
# bg_wait NAME waits for it and returns its exit status.
declare -A BG=()
bg_start() {
  local name=$1
  shift
  "$@" >"/tmp/$name.out" 2>&1 &
  BG[$name]=$!
  at_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
}
bg_wait() { wait "${BG[$1]}"; }
# bg_stop NAME: ends a background tool that runs until killed (after waiting for what it
# had to show, with bg_wait_line or bg_wait_count).
bg_stop() { kill "${BG[$1]}" 2>/dev/null; wait "${BG[$1]}" 2>/dev/null || true; }
# bg_wait_count NAME SECONDS PATTERN N: until /tmp/NAME.out has N lines matching PATTERN.
bg_wait_count() { wait_for "$2" test "$(grep -cE -- "$3" "/tmp/$1.out")" -ge "$4"; }
# bg_wait_line NAME SECONDS PATTERN: waits until /tmp/NAME.out has a line matching PATTERN.
bg_wait_line() { wait_for "$2" grep -q -- "$3" "/tmp/$1.out"; }

# ---- uinput keyboard (evtool kbd) ----
# kbd_start NAME: creates the keyboard; sets KBD_DEV (/dev/input/eventN); kbd_send feeds it.
kbd_start() {
  rm -f /tmp/kbd.in
  mkfifo /tmp/kbd.in
  "$VM_BIN/evtool" kbd "$1" </tmp/kbd.in >/tmp/kbd.out 2>&1 &
  KBD_PID=$!
  exec 7>/tmp/kbd.in
  at_exit "kbd_stop"
  wait_for 10 grep -q '^/dev/input/' /tmp/kbd.out || { cat /tmp/kbd.out; return 1; }
  # shellcheck disable=SC2034  # for the scenario
  KBD_DEV=$(head -1 /tmp/kbd.out)
}
kbd_send() { echo "$*" >&7; }
kbd_stop() {
  [ -n "${KBD_PID:-}" ] || return 0
  exec 7>&-
  wait "$KBD_PID" 2>/dev/null
  KBD_PID=
}

# loopback_unplug: takes the Loopback card away the way a USB speaker unplug does
# (driver unbind: snd_card_disconnect, open handles get -ENODEV), then unloads snd-aloop
# once nothing holds it. rmmod alone refuses while a PCM is open ("in use").
# The unbind waits (in the kernel, unkillable) until every handle on the card is closed,
# so it runs in the background: if it has not finished after 15 s, something holds the
# dead card open, and that is reported (with who) instead of hanging the scenario.
loopback_unplug() {
  local dev
  for dev in /sys/bus/platform/drivers/snd_aloop/snd_aloop.*; do
    [ -e "$dev" ] || continue
    (basename "$dev" >/sys/bus/platform/drivers/snd_aloop/unbind) &
    if ! wait_for 15 bash -c "! kill -0 $! 2>/dev/null"; then
      echo "the card's removal hangs: its handles are still open:"
      find /proc/[0-9]*/fd -lname '/dev/snd/*' -printf '%h %l\n' 2>/dev/null || true
      return 1
    fi
  done
  wait_for 10 rmmod snd_aloop 2>/dev/null
}
# loopback_plug: loads snd-aloop again; the Loopback card comes back.
loopback_plug() { insmod "$VM_MODS/snd-aloop.ko" && wait_for 5 grep -q Loopback /proc/asound/cards; }

# ---- driving the service (CLI contract of issues 4 and 9, docs/protocol.md) ----
SVC=/tmp/svc
# Scenarios share one VM: each starts without the state (a ring to resume) of the last.
rm -rf "$SVC"
mkdir -p "$SVC/state"
SVC_SOCK=$SVC/control.sock
# at_time SECONDS: the UTC wall time SECONDS from now, for `time = "..."` with timezone UTC.
at_time() { date -u -d "@$(($(date +%s) + $1))" +%H:%M:%S; }
# tone FILE SECONDS [HZ]: a 48 kHz stereo sine, the sound the scenarios ring with.
tone() { sox -n -r 48000 -c 2 -b 16 "$1" synth "$2" sine "${3:-440}" vol 0.5; }
# The service's log outlives the VM: $VM_OUT/NAME.service.log beside the scenario's log.
SVC_LOG=${VM_OUT:-$SVC}/$(basename "$0" .sh).service.log
: >"$SVC_LOG"
svc_config() { cat >"$SVC/alarms.toml"; }
# svc_logged PATTERN: the service's log has a line matching the extended regex PATTERN.
svc_logged() { tail -n "+$((SVC_MARK + 1))" "$SVC_LOG" | grep -qE -- "$1"; }
# svc_mark: from now on svc_logged looks only at lines logged after this point.
SVC_MARK=0
svc_mark() { SVC_MARK=$(wc -l <"$SVC_LOG"); }
# svc_inputs: the inputs `status` lists besides audio, the terminal and the state file,
# as "name: detail" lines (none when the service has no button or evdev support yet).
svc_inputs() {
  svc_field '"\n".join(i["name"] + ": " + i["detail"] for i in d["inputs"]
    if i["name"] not in ("audio", "terminal", "state"))'
}
svc_start() {
  "$ALARMCLOCK" run --config "$SVC/alarms.toml" --state-dir "$SVC/state" --socket "$SVC_SOCK" \
    --log-level debug --no-terminal >>"$SVC_LOG" 2>&1 &
  SVC_PID=$!
  at_exit svc_stop
  wait_for 30 svc_status_ok || { fail "service answers status"; return 1; }
  log "service up (pid $SVC_PID)"
}
svc_stop() {
  [ -n "${SVC_PID:-}" ] || return 0
  kill -TERM "$SVC_PID" 2>/dev/null
  wait "$SVC_PID" 2>/dev/null
  SVC_PID=
  echo "---- service log (tail)"
  tail -n 40 "$SVC_LOG"
}
# first_frame_ms: how late the last ring's first frame was, in ms, as the service logged it
# ("first frame on DEVICE N ms after the scheduled time"); empty when not logged. A status
# poll can see a ring seconds late on a busy machine; the service's own line cannot.
first_frame_ms() {
  sed -n 's/.*first frame on [^ ]* \(-\{0,1\}[0-9.]*\) ms after the scheduled time.*/\1/p' \
    "$SVC_LOG" | tail -n 1
}
# ms_within MS LO HI: LO <= MS <= HI (MS may have a fraction).
ms_within() { python3 -c 'import sys; a = [float(x) for x in sys.argv[1:]]; sys.exit(0 if a[1] <= a[0] <= a[2] else 1)' "${1:--1e9}" "$2" "$3"; }
svc_status_ok() { "$ALARMCLOCK" status --json --socket "$SVC_SOCK" >/dev/null 2>&1; }
# svc_wakeups: context switches so far, summed over the service's threads.
svc_wakeups() {
  cat /proc/"$SVC_PID"/task/*/status 2>/dev/null |
    awk '/^(non)?voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'
}
svc_alive() { kill -0 "$SVC_PID" 2>/dev/null; }
svc_cmd() { "$ALARMCLOCK" "$@" --socket "$SVC_SOCK"; }
# svc_field PYTHON_EXPR: evaluates EXPR with d = the status JSON object.
svc_field() {
  "$ALARMCLOCK" status --json --socket "$SVC_SOCK" 2>/dev/null |
    python3 -c 'import json, sys; d = json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"
}
svc_state() { svc_field '(d.get("session") or {}).get("state", "none")' 2>/dev/null || echo "?"; }
state_is() { [ "$(svc_state)" = "$1" ]; }
# wait_state STATE SECONDS
wait_state() { wait_for "$2" state_is "$1"; }

# record SECONDS: captures the Loopback's capture side; sets REC_FREQ and REC_RMS.
# plughw lets the capture follow whatever format the service opened the playback with.
record() {
  rm -f /tmp/rec.wav
  arecord -q -D plughw:Loopback,1,0 -f S16_LE -r 48000 -c 2 \
    -s "$(awk -v s="$1" 'BEGIN { printf "%d", s * 48000 }')" /tmp/rec.wav 2>/tmp/rec.err
  read -r REC_FREQ REC_RMS < <(measure_wav /tmp/rec.wav 0.3)
  log "recorded ${1}s: ${REC_FREQ:-?} Hz, RMS ${REC_RMS:-?} $(cat /tmp/rec.err)"
}
# hears HZ: 1.5 s recorded (the first 0.3 s not measured) is the tone at HZ, not silence.
hears() { record 1.5 && freq_near "${REC_FREQ:-0}" "$1" && loud "${REC_RMS:-0}"; }
silent() { record 1 && ! loud "${REC_RMS:-0}"; }
# jump SECONDS: moves the wall clock by SECONDS (negative: back).
jump() { date -s "@$(($(date +%s) + $1))" >/dev/null && log "clock moved by $1 s to $(date -u +%FT%TZ)"; }
# svc_fresh: stops the service and forgets its state, for the next sub-case.
svc_fresh() { svc_stop; rm -rf "$SVC/state"; mkdir -p "$SVC/state"; }
history_count() { svc_field "len([h for h in d.get('history', []) if h['kind'] == '$1' and h['id'] == '$2'])"; }
