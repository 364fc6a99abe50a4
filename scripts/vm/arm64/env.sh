# Shared settings of the arm64 boot tier's host-side scripts (scripts/test-boot-arm64,
# scripts/vm/arm64/*; sourced, not run). Everything comes from Debian trixie's arm64
# archive through an apt configuration of its own (its own lists, cache and an empty
# status file: nothing is installed on the host), and lives under $VM_CACHE, so a second
# run downloads and builds nothing.
# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the sourcing scripts
set -euo pipefail

VM_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
VM_CACHE=${VM_ARM64_CACHE:-$VM_REPO/.build/vm-cache-arm64}
VM_DEBS=$VM_CACHE/debs
VM_BOOT=$VM_CACHE/boot
VM_SUITE=trixie
VM_MIRROR=${VM_MIRROR:-http://deb.debian.org/debian}
mkdir -p "$VM_CACHE" "$VM_DEBS"

# Modules the VM loads from its initramfs, by name; their dependencies are added from
# modinfo, built-in ones skipped. The root is an ext4 disk on virtio-blk; 9p brings the
# host's checkout and cache; configfs for gpio-sim; evdev and uinput for the keyboard;
# virtio_net for the stream boot's user-mode network (the station on the host side).
VM_MODULES=(virtio_blk crc32c_generic ext4 9pnet_virtio 9p configfs evdev uinput snd-aloop
  virtio_net)

vm_log() { printf 'vm-arm64: %s\n' "$*" >&2; }
vm_die() { printf 'vm-arm64: error: %s\n' "$*" >&2; exit 1; }

# The arm64 apt configuration (amd64 too, for the one amd64 tool the module build runs).
VM_APT=$VM_CACHE/apt
vm_apt_setup() {
  mkdir -p "$VM_APT/lists/partial" "$VM_APT/archives/partial" "$VM_APT/etc/apt.conf.d" \
    "$VM_APT/etc/preferences.d"
  [ -f "$VM_APT/status" ] || : >"$VM_APT/status"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $VM_MIRROR $VM_SUITE main" \
    >"$VM_APT/etc/sources.list"
  cat >"$VM_APT/apt.conf" <<CONF
APT::Architecture "arm64";
APT::Architectures { "arm64"; "amd64"; };
Dir::State "$VM_APT";
Dir::State::Lists "$VM_APT/lists";
Dir::State::status "$VM_APT/status";
Dir::Cache "$VM_APT";
Dir::Cache::archives "$VM_APT/archives";
Dir::Etc::SourceList "$VM_APT/etc/sources.list";
Dir::Etc::SourceParts "-";
Dir::Etc::Parts "$VM_APT/etc/apt.conf.d";
Dir::Etc::Preferences "$VM_APT/etc/preferences";
Dir::Etc::PreferencesParts "$VM_APT/etc/preferences.d";
Acquire::Languages "none";
CONF
}
vm_apt() { APT_CONFIG=$VM_APT/apt.conf "$@"; }

# The versioned kernel package linux-image-arm64 depends on (e.g.
# linux-image-6.12.117+deb13-arm64), from the lists (refreshed once a day); falls back to
# the newest kernel in the cache when the archive cannot be reached.
vm_kernel_package() {
  local pkg cached
  vm_apt_setup
  if [ -z "$(find "$VM_APT/lists" -name '*Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
    vm_log "refreshing the trixie arm64 lists"
    vm_apt apt-get update -qq >&2 || vm_log "cannot reach $VM_MIRROR"
  fi
  pkg=$(vm_apt apt-cache depends linux-image-arm64 2>/dev/null |
    sed -n 's/^ *Depends: \(linux-image-[0-9].*-arm64\)$/\1/p' | head -1)
  if [ -z "$pkg" ]; then
    cached=$(ls "$VM_CACHE"/kernel 2>/dev/null | sort -V | tail -1)
    [ -n "$cached" ] || vm_die "cannot resolve linux-image-arm64 from $VM_MIRROR $VM_SUITE (archive unreachable?)"
    pkg=linux-image-$cached
  fi
  printf '%s\n' "$pkg"
}
VM_KPKG=$(vm_kernel_package)
VM_KREL=${VM_KPKG#linux-image-}
VM_KDIR=$VM_CACHE/kernel/$VM_KREL
# linux-kbuild-6.12.117+deb13 and linux-headers-6.12.117+deb13-common
VM_KBASE=${VM_KREL%-arm64}

# vm_download PACKAGE[:ARCH]...: into $VM_DEBS unless there already.
vm_download() {
  local p name
  chmod 0777 "$VM_DEBS" # _apt cannot write into the cache folder otherwise
  for p in "$@"; do
    name=${p%%:*}
    ls "$VM_DEBS/${name}_"*"_${p#*:}.deb" >/dev/null 2>&1 && continue
    ls "$VM_DEBS/${name}_"*.deb >/dev/null 2>&1 && [ "$p" = "$name" ] && continue
    (cd "$VM_DEBS" && vm_apt apt-get download -qq "$p" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2 || true)
    ls "$VM_DEBS/${name}_"*.deb >/dev/null 2>&1 || vm_die "apt-get download $p failed"
  done
}
# vm_deb PACKAGE [ARCH]: the cached .deb's path.
vm_deb() { ls "$VM_DEBS/${1}_"*"_${2:-}"*.deb | sort -V | tail -1; }

# The machine: qemu's virt board under TCG (no KVM on CI machines), the kernel, the
# initramfs, the console on the PL011 (ttyAMA0): the command's start, for `timeout`.
VM_QEMU=(qemu-system-aarch64 -nodefaults -no-user-config -no-reboot -display none -serial stdio
  -monitor none -M virt -accel tcg,thread=multi -cpu "${VM_ARM64_CPU:-cortex-a72}"
  -smp "${VM_CPUS:-2}" -m "${VM_MEM:-1536}"
  -kernel "$VM_KDIR/vmlinuz" -initrd "$VM_KDIR/initramfs.cpio.gz")
