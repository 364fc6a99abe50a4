# Sourced by deploy/install.sh and deploy/uninstall.sh: where the files go for a prefix,
# and which paths the installer owns. A manifest is a file on disk that anyone with
# write access to PREFIX/share may edit, so a path in it is removed only when it is one
# the installer itself writes (`file /../../x` must not delete outside DESTDIR).

# layout PREFIX: sets bindir datadir mandir compdir libdir unitdir sysusersdir
# tmpfilesdir manifest.
layout() {
  local prefix=$1
  bindir=$prefix/bin
  datadir=$prefix/share/alarmclock
  mandir=$prefix/share/man
  compdir=$prefix/share/bash-completion/completions
  # systemd only looks for vendor units under /usr/lib and /usr/local/lib; any other
  # prefix gets the admin directories under /etc.
  case "$prefix" in
    /usr | /usr/local) libdir=$prefix/lib ;;
    *) libdir=/etc ;;
  esac
  if [ "$libdir" = /etc ]; then unitdir=/etc/systemd/system; else unitdir=$libdir/systemd/system; fi
  sysusersdir=$libdir/sysusers.d
  tmpfilesdir=$libdir/tmpfiles.d
  manifest=$datadir/install-manifest
}

# owned PATH: succeeds when PATH (a manifest entry, without DESTDIR) is one the installer
# writes: absolute, canonical (no empty, `.` or `..` component, no control character),
# one of its files or under its own directories, and, resolved through any symlinks,
# still inside DESTDIR. Needs `layout` and `destdir` set.
owned() {
  local path=$1
  case "$path" in /*) ;; *) return 1 ;; esac
  case "$path/" in *//* | */./* | */../*) return 1 ;; esac
  [[ $path != *[[:cntrl:]]* ]] || return 1
  case "$path" in
    "$bindir/alarmclock" | "$mandir/man1/alarmclock.1" | "$mandir/man5/alarms.toml.5") ;;
    "$bindir/alarmclock-stream" | "$unitdir/alarmclock-stream.socket") ;;
    "$mandir/man8/alarmclock-stream.8") ;;
    "$unitdir/alarmclock-stream@.service") ;;
    "$compdir/alarmclock" | "$unitdir/alarmclock.service" | "$sysusersdir/alarmclock.conf") ;;
    "$tmpfilesdir/alarmclock.conf" | "$datadir" | "$datadir"/*) ;;
    "$unitdir/alarmclock-web.service" | "$unitdir/alarmclock-web.socket") ;;
    "$unitdir/alarmclock.service.d" | "$unitdir/alarmclock.service.d"/*) ;;
    *) return 1 ;;
  esac
  [ -n "$destdir" ] || return 0
  local root real
  root=$(realpath -m -- "$destdir") && real=$(realpath -m -- "$destdir$path") || return 1
  case "$real" in "$root"/*) return 0 ;; *) return 1 ;; esac
}
