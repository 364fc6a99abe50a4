#!/usr/bin/env bash
# Kernel facts, clock: date -s moves the VM's wall clock forward and back, and a
# CLOCK_REALTIME timerfd with TFD_TIMER_CANCEL_ON_SET is woken by the change.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
now=$(date +%s)
bg_start timer "$VM_BIN/timertool" wait-cancel 10
bg_wait_line timer 5 ready || fail "timertool ready"
# Ten minutes forward: short of the timer's hour, so the wake-up can only be the change.
check "date -s ten minutes forward" date -s "@$((now + 600))"
bg_wait timer
cat /tmp/timer.out
check "the timerfd saw the clock change (ECANCELED)" grep -qx canceled /tmp/timer.out
check "date -s years forward" date -s "2031-03-30 00:59:50 UTC"
check "the clock reads 2031" test "$(date -u +%Y)" = 2031
check "date -s back" date -s "@$now"
check "the clock is back" test $(($(date +%s) - now)) -lt 30
check "TZ=Europe/Berlin is readable" test "$(TZ=Europe/Berlin date -d @1711846800 +%H:%M%Z)" = "03:00CEST"
finish
