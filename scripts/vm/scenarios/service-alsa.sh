#!/usr/bin/env bash
# Scenario 1, the real ALSA path: an alarm rings on the Loopback card and the capture side
# records it at the sound's frequency; stop silences it. The card is taken away mid-ring
# (driver unbind, then rmmod snd-aloop): the service survives and logs it, and the ring
# is heard again once the module is loaded back.
# shellcheck source=scripts/vm/scenario-lib.sh
source "$VM_LIB"
need_service "the ALSA ringer"
tone /tmp/tone.wav 30
svc_config <<TOML
[settings]
timezone = "UTC"
[audio]
device = "hw:Loopback,0,0"
[[alarm]]
id = "wake"
time = "$(at_time 3600)"
days = "daily"
sound = "/tmp/tone.wav"
ramp = "0s"
volume = 100
ring_for = "5m"
TOML
svc_start || finish
# The alarm's time is set once the service is up: a start can take seconds under TCG on a
# busy machine, and an alarm passed before it would be a late start, not a firing.
svc_mark
sed -i "s/^time = .*/time = \"$(at_time 8)\"/" "$SVC/alarms.toml"
check "the alarm's time is in force" wait_for 20 svc_logged 'config applied'
check "it rings at its time" wait_state ringing 20
check "the ring is logged" svc_logged "ringing 'wake' for "
check "the Loopback capture hears 440 Hz" wait_for 10 hears 440
check "the first frame went to hw:Loopback,0,0" svc_logged 'first frame on hw:Loopback,0,0'
check "stop" svc_cmd stop
check "the session is over" wait_state none 5
check "its end is logged" svc_logged "session of 'wake' ended: stopped"
check "and the card is silent" silent

check "ring wake (by command)" svc_cmd ring wake
check "ringing again" wait_state ringing 10
check "heard again" wait_for 10 hears 440
log "unplugging the Loopback card"
check "card taken away and snd-aloop unloaded mid-ring" loopback_unplug
check "the card is gone" bash -c '! grep -q Loopback /proc/asound/cards'
check "the loss is logged" \
  wait_for 20 svc_logged "audio device 'hw:Loopback,0,0': snd_pcm_(writei|open) failed"
check "the service survives the removal" svc_alive
check "the session still rings" state_is ringing
check "status reports the audio device unavailable" \
  test "$(svc_field '[i["available"] for i in d["inputs"] if i["name"] == "audio"][0]')" = False
check "the card returns" loopback_plug
check "the ring is heard once the card is back" wait_for 30 hears 440
check "the return is logged" svc_logged "hw:Loopback,0,0 is back; the ring goes on"
check "stop" svc_cmd stop
check "silent after stop" wait_for 5 silent
finish
