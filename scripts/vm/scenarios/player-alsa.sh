#!/usr/bin/env bash
# The service's player (`alarmclock play`, the same ringer `run` uses) on the real Loopback
# card: what it plays on hw:Loopback,0,0 is captured at the sound's frequency, and a card
# unplugged under it (driver unbind + rmmod) ends the play with exit 1 and a message, no
# crash. Needs only `play`, so it runs before the service lands.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
[ -x "$ALARMCLOCK" ] || skip "alarmclock not built ($ALARMCLOCK)"
"$ALARMCLOCK" --help 2>&1 | grep -qE '^ *play( |$)' || skip "alarmclock not built with play"
tone /tmp/tone.wav 30 660
bg_start play "$ALARMCLOCK" play /tmp/tone.wav --device hw:Loopback,0,0 --volume 100 --seconds 20
check "play has the PCM running" wait_for 20 pcm_running pcm0p
check "the capture side hears 660 Hz" wait_for 10 hears 660
check "card taken away mid-ring" loopback_unplug
bg_wait play
rc=$?
log "play exited $rc: $(tail -3 /tmp/play.out | tr '\n' ' ')"
# The ringer keeps retrying a lost device until its time is up (never silent by
# choice), so play may end 0 or 1, but never by a signal, and it must say why.
check "play ends cleanly (exit 0 or 1), not a crash" test "$rc" -le 1
check "and says why" grep -q "could be opened\|snd_pcm_open failed" /tmp/play.out
check "the card comes back" loopback_plug
check "play works again on the returned card" \
  "$ALARMCLOCK" play /tmp/tone.wav --device hw:Loopback,0,0 --seconds 1
finish
