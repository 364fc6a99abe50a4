#!/usr/bin/env bash
# Installs alarmclock: the binary and its stream helper (alarmclock-stream), sounds, man
# pages, bash completion, the systemd unit with its sysusers.d and tmpfiles.d snippets,
# the stream helper's socket and service units, the (disabled) web page units, and an
# example config where none exists. Then (on a live systemd system, unless DESTDIR is
# set) creates the service user, enables and starts the stream socket and the service.
#
# Idempotent: a file is written only when its content differs, so a second run changes
# nothing (no mtime churn). Everything written is listed in
# PREFIX/share/alarmclock/install-manifest, which deploy/uninstall.sh reads.
# An existing /etc/alarmclock/alarms.toml is never touched.
set -euo pipefail

usage() {
  cat <<'EOF'
usage: deploy/install.sh [options]
  --prefix DIR       install under DIR (default /usr/local)
  --binary PATH      install this prebuilt alarmclock binary instead of building one
  --stream-binary PATH
                     the prebuilt stream helper to install with --binary (default:
                     the alarmclock-stream beside that binary)
  --example PATH     example config to install when none exists
                     (default examples/alarms.toml)
  --no-deps          do not install apt packages (scripts/deps run)
  --no-start         do not enable or start the service
  -h, --help         this help
environment:
  DESTDIR            stage the installation under this directory (packaging, tests);
                     nothing outside it is touched and systemd is left alone
EOF
}

repo=$(cd "$(dirname "$0")/.." && pwd)
prefix=/usr/local
binary=
stream=
example="$repo/examples/alarms.toml"
deps=1
start=1
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --binary) binary=${2:?--binary needs a path}; shift 2 ;;
    --binary=*) binary=${1#*=}; shift ;;
    --stream-binary) stream=${2:?--stream-binary needs a path}; shift 2 ;;
    --stream-binary=*) stream=${1#*=}; shift ;;
    --example) example=${2:?--example needs a path}; shift 2 ;;
    --example=*) example=${1#*=}; shift ;;
    --no-deps) deps=0; shift ;;
    --no-start) start=0; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
case "$prefix" in
  /*) prefix=${prefix%/}; [ -n "$prefix" ] || prefix=/ ;;
  *) echo "install.sh: --prefix must be an absolute path, not '$prefix'" >&2; exit 2 ;;
esac
destdir=${DESTDIR:-}
destdir=${destdir%/}

# Live install: no DESTDIR. Only then are the package manager and systemd used.
live=0
[ -n "$destdir" ] || live=1
if [ "$live" = 1 ] && [ "$(id -u)" -ne 0 ]; then
  echo "install.sh: installing into / needs root: run it with sudo (or set DESTDIR)" >&2
  exit 1
fi

# shellcheck source=deploy/layout.sh
. "$repo/deploy/layout.sh"
layout "$prefix"
config=/etc/alarmclock/alarms.toml

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: >"$work/manifest"
changed=0

say() { echo "install.sh: $*" >&2; }

# Creates a directory (and parents) under DESTDIR when missing; existing ones are left
# alone so their mtimes do not change.
ensure_dir() {
  [ -d "$destdir$1" ] || { mkdir -p "$destdir$1"; say "created $1"; }
}

# put MODE SOURCE TARGET: installs SOURCE as TARGET (a path without DESTDIR) when the
# content or mode differs, and records TARGET in the manifest.
put() {
  local mode=$1 src=$2 dst=$3
  ensure_dir "$(dirname "$dst")"
  if ! cmp -s "$src" "$destdir$dst"; then
    install -m "$mode" "$src" "$destdir$dst"
    say "installed $dst"
    changed=1
  elif [ "$(stat -c %a "$destdir$dst")" != "${mode#0}" ]; then
    chmod "$mode" "$destdir$dst"
  fi
  echo "file $dst" >>"$work/manifest"
}

if [ "$deps" = 1 ] && [ "$live" = 1 ]; then
  "$repo/scripts/deps" run
fi

if [ -z "$binary" ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
  command -v swift >/dev/null || {
    say "no Swift toolchain on PATH: install one (see deploy/raspberry-pi.md) or pass --binary"
    exit 1
  }
  say "building the release binaries (swift build -c release) ..."
  # The Swift runtime is linked in, so the service does not depend on where the
  # toolchain lives (a toolchain under /home would be hidden by ProtectHome=).
  for product in alarmclock alarmclock-stream; do
    (cd "$repo" && swift build -c release --product "$product" --static-swift-stdlib) >&2
  done
  binary="$repo/.build/release/alarmclock"
fi
# The stream helper goes beside the service's binary, where `alarmclock run` looks for it.
[ -n "$stream" ] || stream=$(dirname "$binary")/alarmclock-stream
for b in "$binary" "$stream"; do
  if [ ! -f "$b" ] || [ ! -x "$b" ]; then
    say "binary '$b' is not an executable file"
    exit 1
  fi
done

put 0755 "$binary" "$bindir/alarmclock"
put 0755 "$stream" "$bindir/alarmclock-stream"

shopt -s nullglob
for sound in "$repo"/sounds/*.wav "$repo"/sounds/*.mp3; do
  put 0644 "$sound" "$datadir/sounds/$(basename "$sound")"
done
shopt -u nullglob

put 0644 "$repo/deploy/alarmclock.1" "$mandir/man1/alarmclock.1"
put 0644 "$repo/deploy/alarms.toml.5" "$mandir/man5/alarms.toml.5"
put 0644 "$repo/deploy/alarmclock-stream.8" "$mandir/man8/alarmclock-stream.8"
put 0644 "$repo/deploy/alarmclock.bash" "$compdir/alarmclock"

sed "s|@BINDIR@|$bindir|g" "$repo/deploy/alarmclock.service" >"$work/alarmclock.service"
put 0644 "$work/alarmclock.service" "$unitdir/alarmclock.service"
# The web page (`alarmclock web`): installed, never enabled here (the admin turns it on
# with `systemctl enable --now alarmclock-web.socket`, see deploy/raspberry-pi.md).
sed "s|@BINDIR@|$bindir|g" "$repo/deploy/alarmclock-web.service" >"$work/alarmclock-web.service"
put 0644 "$work/alarmclock-web.service" "$unitdir/alarmclock-web.service"
put 0644 "$repo/deploy/alarmclock-web.socket" "$unitdir/alarmclock-web.socket"
# Radio streams: the service has no network; each connection to this socket starts one
# sandboxed alarmclock-stream@.service that fetches and decodes the stream.
sed "s|@BINDIR@|$bindir|g" "$repo/deploy/alarmclock-stream@.service" \
  >"$work/alarmclock-stream@.service"
put 0644 "$work/alarmclock-stream@.service" "$unitdir/alarmclock-stream@.service"
put 0644 "$repo/deploy/alarmclock-stream.socket" "$unitdir/alarmclock-stream.socket"
put 0644 "$repo/deploy/alarmclock.sysusers" "$sysusersdir/alarmclock.conf"
put 0644 "$repo/deploy/alarmclock.tmpfiles" "$tmpfilesdir/alarmclock.conf"

# Group gpio (Raspberry Pi OS) owns /dev/gpiochip*; where it exists the service gets it
# as a supplementary group. Looked up in the target system: the host's for a live
# install, DESTDIR/etc/group when staging.
has_gpio=0
if [ "$live" = 1 ]; then
  getent group gpio >/dev/null 2>&1 && has_gpio=1
elif [ -f "$destdir/etc/group" ] && grep -q '^gpio:' "$destdir/etc/group"; then
  has_gpio=1
fi
if [ "$has_gpio" = 1 ]; then
  cat >"$work/gpio.conf" <<'EOF'
# Written by alarmclock's install.sh because group gpio exists on this system:
# /dev/gpiochip* belong to it, and the button is read from there.
[Service]
SupplementaryGroups=gpio
EOF
  put 0644 "$work/gpio.conf" "$unitdir/alarmclock.service.d/gpio.conf"
fi

# The example config goes in only where no config exists; the user's is never touched.
if [ -e "$destdir$config" ]; then
  :
elif [ -f "$example" ]; then
  ensure_dir /etc/alarmclock
  install -m 0644 "$example" "$destdir$config"
  say "installed the example config as $config: edit it to set your alarms"
  changed=1
else
  say "no example config at $example; write $config yourself (see alarms.toml(5))"
fi
echo "config $config" >>"$work/manifest"

echo "file $manifest" >>"$work/manifest"
# Files a previous install wrote that this one did not (e.g. a sound that was
# removed from the repository) are stale: remove them.
if [ -f "$destdir$manifest" ]; then
  while read -r kind path; do
    [ "$kind" = file ] || continue
    grep -qxF "file $path" "$work/manifest" && continue
    if ! owned "$path"; then
      say "refusing to remove $path (listed in $manifest): not a file this installer owns"
      continue
    fi
    rm -f "$destdir$path" && say "removed stale $path" && changed=1
  done <"$destdir$manifest"
fi
ensure_dir "$datadir"
# Directories this install owns (removed by uninstall.sh when empty).
for dir in "$datadir/sounds" "$datadir" "$unitdir/alarmclock.service.d"; do
  [ -d "$destdir$dir" ] && echo "dir $dir" >>"$work/manifest"
done
cmp -s "$work/manifest" "$destdir$manifest" || install -m 0644 "$work/manifest" "$destdir$manifest"

if [ "$live" = 1 ] && [ -d /run/systemd/system ]; then
  systemd-sysusers "$sysusersdir/alarmclock.conf"
  systemd-tmpfiles --create "$tmpfilesdir/alarmclock.conf"
  systemctl daemon-reload
  if [ "$start" = 1 ]; then
    # The socket before the service that connects to it (the service also wants it).
    systemctl enable --now alarmclock-stream.socket
    [ "$changed" = 0 ] || systemctl restart alarmclock-stream.socket
    systemctl enable --now alarmclock.service
    # A running service keeps the old binary until restarted.
    [ "$changed" = 0 ] || systemctl try-restart alarmclock.service
    # A running web process (enabled by the admin) likewise; systemd starts it again at
    # the next connection.
    [ "$changed" = 0 ] || systemctl try-restart alarmclock-web.service
    say "alarmclock is running: see 'systemctl status alarmclock' and 'alarmclock status'"
  fi
elif [ "$live" = 1 ]; then
  say "systemd is not running: start the service yourself with '$bindir/alarmclock run'"
fi
say "done ($([ "$changed" = 1 ] && echo updated || echo 'nothing changed'))"
