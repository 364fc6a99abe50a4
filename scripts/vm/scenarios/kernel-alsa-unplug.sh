#!/usr/bin/env bash
# Kernel facts, ALSA card removal: rmmod snd-aloop is refused while a PCM is open; a
# driver unbind disconnects the card under a running aplay (which then fails), after
# which the module unloads; loading it again brings the card back, playable.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
sox -n -r 48000 -c 2 -b 16 /tmp/long.wav synth 20 sine 440 vol 0.5
aplay -q -D hw:Loopback,0,0 /tmp/long.wav 2>/tmp/aplay.err &
player=$!
check "aplay has the PCM open and running" wait_for 20 pcm_running pcm0p
check "rmmod refuses while the PCM is open" bash -c '! rmmod snd_aloop 2>/dev/null'
check "unbind and unload" loopback_unplug
check "the card is gone" bash -c '! grep -q Loopback /proc/asound/cards'
wait "$player"
log "aplay exited with $?: $(cat /tmp/aplay.err)"
check "aplay no longer runs" bash -c "! kill -0 $player 2>/dev/null"
check "the card comes back" loopback_plug
sox -n -r 48000 -c 2 -b 16 /tmp/short.wav synth 0.5 sine 440 vol 0.5
check "and plays" aplay -q -D hw:Loopback,0,0 /tmp/short.wav
finish
