#!/usr/bin/env bash
# First boot: the image as a Pi comes (udev gives /dev/snd to group audio and, with the
# Pi's rule, /dev/gpiochip* to group gpio), then the package is installed the way a
# person installs it, `dpkg -i`, from the .deb the host built. Its maintainer scripts
# must create the user, enable and start the service under the unit as shipped. Leaves
# the config the next boot's alarm comes from (boot-ring). First, the product's paths are
# checked to be empty: nothing of the host's shows through (docs/testing.md).
# shellcheck source=scripts/vm/boot-lib.sh
source "$VM_REPO/scripts/vm/boot-lib.sh"
deb=$(ls /vm/cache/boot/deb/alarmclock_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { fail "no .deb in /vm/cache/boot/deb"; finish; }

# Nothing of the host's product paths shows through (scripts/vm/boot-init hides them):
# a leftover of the CI machine's would change what the install finds.
for p in $(product_paths); do
  check "nothing of the host's at $p before the install" not host_shows_through "$p"
done
# Nor its records in shared files: dpkg's status and the accounts (boot-init strips them).
check "dpkg knows no alarmclock before the install" not dpkg -s alarmclock
check "no user or group alarmclock before the install" \
  not grep -q '^alarmclock:' /etc/passwd /etc/group /etc/shadow /etc/gshadow
check "group gpio exists (sysusers, before udev)" getent group gpio
wait_for 60 test -e /dev/snd/pcmC0D0p
# devtmpfs makes the node (root 0600) before udev gives it its group: under emulation
# the check once came first. Wait for udev's queue, then for the mode itself.
snd_node_is_audios() { [ "$(stat -c '%U:%G %a' /dev/snd/pcmC0D0p)" = "root:audio 660" ]; }
udevadm settle --timeout=120 || true
wait_for 60 snd_node_is_audios || true
log "$(ls -l /dev/snd/ /dev/gpiochip* 2>&1)"
check "/dev/snd nodes are root:audio 0660 (udev)" snd_node_is_audios
chip=/dev/$(cat /sys/kernel/config/gpio-sim/pi/bank0/chip_name)
check "$chip is root:gpio 0660 (the Pi's udev rule)" \
  test "$(stat -c '%U:%G %a' "$chip")" = "root:gpio 660"

log "dpkg -i $(basename "$deb")"
t0=$(cut -d' ' -f1 /proc/uptime)
check "dpkg -i succeeds" dpkg -i "$deb"
log "installed in $(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { print b - a }') s"
check "the service is enabled" test "$(systemctl is-enabled alarmclock)" = enabled
check "postinst started it: active (running)" wait_for 60 svc_active
log "$(systemctl status alarmclock --no-pager 2>&1 | head -n 12)"
log "id alarmclock: $(id alarmclock)"
for g in audio input gpio; do
  check "the service's process has group $g" \
    grep -qw "$(getent group $g | cut -d: -f3)" <(grep '^Groups:' "/proc/$(svc_pid)/status")
done
shipped=$(sed 's|@BINDIR@|/usr/bin|g' "$VM_REPO/deploy/alarmclock.service")
check "the unit is the shipped file" cmp -s <(echo "$shipped") /lib/systemd/system/alarmclock.service
dropins=$(systemctl show -P DropInPaths alarmclock)
log "drop-ins: ${dropins:-none}"
check "the only drop-in is the package's gpio.conf" \
  test "$dropins" = /etc/systemd/system/alarmclock.service.d/gpio.conf
check "status answers as root" svc_status_ok
# Radio alarms: the stream helper's socket, enabled and listening like the service, for
# the service's user only; no helper runs until the service connects.
check "alarmclock-stream.socket is enabled" \
  test "$(systemctl is-enabled alarmclock-stream.socket 2>&1)" = enabled
check "alarmclock-stream.socket listens" systemctl is-active -q alarmclock-stream.socket
log "stream socket: $(stat -c '%a %U:%G' "$STREAM_SOCK" 2>&1)"
check "$STREAM_SOCK is 0600, owned by alarmclock" \
  test "$(stat -c '%a %U' "$STREAM_SOCK" 2>/dev/null)" = "600 alarmclock"
for u in alarmclock-stream.socket alarmclock-stream@.service; do
  shipped=$(sed 's|@BINDIR@|/usr/bin|g' "$VM_REPO/deploy/$u")
  check "$u is the shipped file" cmp -s <(echo "$shipped") "/lib/systemd/system/$u"
done
check "no helper instance runs yet" no_helpers
log "$(alarmclock status 2>&1)"
check "no sandbox denials in the log" no_denials

# For the next boots: the tone, and an alarm shortly after the next boot (boot-init fills
# in @SOON@ before systemd starts), a button on the Pi's GPIO17, any keyboard.
tone "$TONE" 60
cat >/etc/alarmclock/alarms.toml.next <<TOML
[settings]
timezone = "UTC"
[audio]
device = "hw:Loopback,0,0"
[button]
chip = "$PI_CHIP"
line = "GPIO17"
debounce = "30ms"
long_press = "3s"
[[input]]
device = "auto"
stop = ["KEY_ENTER"]
[[alarm]]
id = "soon"
time = "@SOON@"
days = "daily"
sound = "$TONE"
ramp = "0s"
ring_for = "10m"
[[alarm]]
id = "wake"
time = "23:59:59"
enabled = false
sound = "$TONE"
ramp = "0s"
snooze = "5s"
ring_for = "10m"
TOML
finish
