#!/usr/bin/env bash
# Kernel facts, ALSA: what is played on hw:Loopback,0,0 is captured on hw:Loopback,1,0.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
sox -n -r 48000 -c 2 -b 16 /tmp/tone.wav synth 3 sine 440 vol 0.5
arecord -q -D hw:Loopback,1,0 -f S16_LE -r 48000 -c 2 -d 3 /tmp/rec.wav &
rec=$!
sleep 0.3
check "aplay on hw:Loopback,0,0" aplay -q -D hw:Loopback,0,0 /tmp/tone.wav
wait "$rec"
check "arecord on hw:Loopback,1,0" test -s /tmp/rec.wav
read -r freq rms < <(sox /tmp/rec.wav -n trim 0.8 1.5 remix 1 stat 2>&1 |
  awk '/Rough   frequency/ { f = $3 } /RMS     amplitude/ { r = $3 } END { print f + 0, r + 0 }')
log "recorded: rough frequency $freq Hz, RMS $rms"
check "the recording is the 440 Hz tone" freq_near "$freq" 440
check "the recording is not silence" loud "$rms"
finish
