# Helpers for the scenario scripts (sourced inside the VM, in the chroot).
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
# measure_wav FILE: prints "FREQ RMS" of the first channel (sox's rough frequency).
measure_wav() {
  sox "$1" -n remix 1 stat 2>&1 |
    awk '/Rough   frequency/ { f = $3 } /RMS     amplitude/ { r = $3 } END { print f + 0, r + 0 }'
}
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
ALARMCLOCK=$VM_REPO/.build/debug/alarmclock
# need_service FEATURE: skips the scenario unless the built binary has `run`.
need_service() {
  [ -x "$ALARMCLOCK" ] || skip "service not built with $1 (no $ALARMCLOCK)"
  "$ALARMCLOCK" --help 2>&1 | grep -qE '^ *run( |$)' || skip "service not built with $1"
}

# ---- background helpers ----
# bg_start NAME COMMAND...: runs COMMAND with stdout/stderr in /tmp/NAME.out, killed at exit.
bg_start() {
  local name=$1
  shift
  "$@" >"/tmp/$name.out" 2>&1 &
  eval "bg_$name=$!"
  at_exit "kill $! 2>/dev/null; wait $! 2>/dev/null"
}
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
loopback_unplug() {
  local dev
  for dev in /sys/bus/platform/drivers/snd_aloop/snd_aloop.*; do
    [ -e "$dev" ] && echo "$(basename "$dev")" >/sys/bus/platform/drivers/snd_aloop/unbind
  done
  wait_for 10 rmmod snd_aloop 2>/dev/null
}
# loopback_plug: loads snd-aloop again; the Loopback card comes back.
loopback_plug() { insmod "$VM_MODS/snd-aloop.ko" && wait_for 5 grep -q Loopback /proc/asound/cards; }
