#!/usr/bin/env bash
# Kernel facts, GPIO: a gpio-sim chip made through configfs has a labelled chip and a
# named line; flipping the simulated pull gives uAPI v2 edge events, and flips shorter
# than the kernel debounce period give none.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
pull=$(gpiosim_create vmfacts vm-facts GPIO17) || { fail "gpio-sim chip via configfs"; finish; }
at_exit "gpiosim_remove vmfacts"
log "simulator line: $pull"
read -r chip offset _ < <("$VM_BIN/gpiotool" find vm-facts GPIO17)
check "line GPIO17 found on the chip labelled vm-facts" test -c "${chip:-/nonexistent}"
check "GPIO17 is offset 1" test "${offset:-}" = 1
ls -l /dev/gpiochip*

# The watchers run until stopped, after the events they must see (a fixed window lost
# the last edge when the VM was slow on a busy machine).
bg_start watch "$VM_BIN/gpiotool" watch "$chip" "$offset" 60000
bg_wait_line watch 5 ready || fail "gpiotool watch ready"
for p in pull-up pull-down pull-up; do echo $p >"$pull/pull"; sleep 0.2; done
bg_wait_count watch 20 '^(rising|falling) ' 3
bg_stop watch
cat /tmp/watch.out
check "edges rising, falling, rising" test "$(awk '$1 != "ready" { printf "%s ", $1 }' /tmp/watch.out)" = "rising falling rising "

# 50 ms debounce: a 0-ms glitch to low and back is filtered, a 300 ms low is seen.
bg_start deb "$VM_BIN/gpiotool" watch "$chip" "$offset" 60000 50000
bg_wait_line deb 5 ready || fail "gpiotool watch with debounce ready"
echo pull-down >"$pull/pull"; echo pull-up >"$pull/pull"
sleep 0.3
echo pull-down >"$pull/pull"; sleep 0.3; echo pull-up >"$pull/pull"
bg_wait_line deb 20 '^rising ' || true
sleep 0.2  # a stray edge after the press would show here
bg_stop deb
cat /tmp/deb.out
check "debounced: the glitch is ignored, the real press seen" \
  test "$(awk '$1 != "ready" { printf "%s ", $1 }' /tmp/deb.out)" = "falling rising "
finish
