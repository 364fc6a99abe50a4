#!/usr/bin/env bash
# Removes what deploy/install.sh installed, as listed in its manifest
# (PREFIX/share/alarmclock/install-manifest). The config (/etc/alarmclock) and the
# state (/var/lib/alarmclock) stay unless --purge. The system user stays either way
# (system users are not reused; `userdel alarmclock` removes it).
set -euo pipefail

usage() {
  cat <<'EOF'
usage: deploy/uninstall.sh [--prefix DIR] [--purge]
  --prefix DIR   the prefix install.sh used (default /usr/local)
  --purge        also remove the config (/etc/alarmclock) and state (/var/lib/alarmclock)
environment:
  DESTDIR        the staging directory install.sh used, if any
EOF
}

prefix=/usr/local
purge=0
while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) prefix=${2:?--prefix needs a directory}; shift 2 ;;
    --prefix=*) prefix=${1#*=}; shift ;;
    --purge) purge=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "uninstall.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
  esac
done
prefix=${prefix%/}
destdir=${DESTDIR:-}
destdir=${destdir%/}
# shellcheck source=deploy/layout.sh
. "$(dirname "$0")/layout.sh"
layout "$prefix"

say() { echo "uninstall.sh: $*" >&2; }

if [ ! -f "$destdir$manifest" ]; then
  say "no installation found: $destdir$manifest does not exist (wrong --prefix or DESTDIR?)"
  exit 1
fi
live=0
[ -n "$destdir" ] || live=1
if [ "$live" = 1 ] && [ "$(id -u)" -ne 0 ]; then
  say "removing files from / needs root: run it with sudo (or set DESTDIR)"
  exit 1
fi

if [ "$live" = 1 ] && [ -d /run/systemd/system ]; then
  systemctl disable --now alarmclock-web.socket alarmclock-web.service 2>/dev/null || true
  systemctl disable --now alarmclock.service 2>/dev/null || true
  # After the service, whose connections end the stream helpers.
  systemctl disable --now alarmclock-stream.socket 2>/dev/null || true
  systemctl stop 'alarmclock-stream@*.service' 2>/dev/null || true
fi

# Read the whole manifest first: it lists itself.
mapfile -t entries <"$destdir$manifest"
dirs=()
for entry in "${entries[@]}"; do
  kind=${entry%% *}
  path=${entry#* }
  case "$kind" in
    file | dir)
      if ! owned "$path"; then
        say "refusing to remove $path (listed in $manifest): not a path the installer owns"
        continue
      fi
      ;;
  esac
  case "$kind" in
    file) if [ -e "$destdir$path" ]; then rm -f "$destdir$path" && say "removed $path"; fi ;;
    dir) dirs+=("$path") ;;
    config) ;;
  esac
done
# Directories go last and only when empty, deepest first.
for dir in "${dirs[@]}"; do
  rmdir --ignore-fail-on-non-empty "$destdir$dir" 2>/dev/null || true
done

if [ "$purge" = 1 ]; then
  for dir in /etc/alarmclock /var/lib/alarmclock; do
    if [ -e "$destdir$dir" ]; then
      rm -rf -- "$destdir$dir"
      say "purged $dir"
    fi
  done
else
  say "kept the config (/etc/alarmclock) and state (/var/lib/alarmclock); --purge removes them"
fi

if [ "$live" = 1 ] && [ -d /run/systemd/system ]; then
  systemctl daemon-reload
fi
say "done"
