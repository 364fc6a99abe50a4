#!/usr/bin/env bash
# Kernel facts, ALSA: what is played on hw:Loopback,0,0 is captured on hw:Loopback,1,0.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
sox -n -r 48000 -c 2 -b 16 /tmp/tone.wav synth 3 sine 440 vol 0.5
# The recorder runs longer than the tone and is running before the player starts, so on
# a busy machine the tone is all in the recording, after some silence of unknown length.
arecord -q -D hw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -d 6 /tmp/rec.wav &
rec=$!
check "arecord is capturing on hw:Loopback,1,0" wait_for 20 pcm_running pcm1c
check "aplay on hw:Loopback,0,0" aplay -q -D hw:Loopback,0,0 /tmp/tone.wav
wait "$rec"
check "arecord on hw:Loopback,1,0" test -s /tmp/rec.wav
# Leading silence dropped, then 1.5 s from inside the tone.
sox /tmp/rec.wav /tmp/rec-tone.wav silence 1 0.01 1%
read -r freq rms < <(sox /tmp/rec-tone.wav -n trim 0.3 1.5 remix 1 stat 2>&1 |
  awk '/Rough   frequency/ { f = $3 } /RMS     amplitude/ { r = $3 } END { print f + 0, r + 0 }')
log "recorded: rough frequency $freq Hz, RMS $rms"
check "the recording is the 440 Hz tone" freq_near "$freq" 440
check "the recording is not silence" loud "$rms"
finish
