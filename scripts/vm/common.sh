# Shared settings of the VM tier's host-side scripts (sourced, not run).
# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the sourcing scripts
# Everything downloaded or built lives under $VM_CACHE so a second run skips it.
set -euo pipefail

VM_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VM_CACHE=${VM_CACHE:-$VM_REPO/.build/vm-cache}
VM_DEBS=$VM_CACHE/debs
mkdir -p "$VM_CACHE" "$VM_DEBS"

# Kernel modules the VM loads at boot, by name; their dependencies are added from modinfo.
# The boot tier (scripts/test-boot) also needs overlay (its root is the host's, read-only,
# under a writable layer), virtio_blk, ext4 and crc32c for the disk that layer lives on,
# and virtio_net for the stream boot's user-mode network (the station on the host side).
VM_MODULES=(virtio_pci 9pnet_virtio 9p configfs evdev uinput snd-aloop)
VM_BOOT_MODULES=(virtio_blk crc32c_generic ext4 overlay virtio_net)

vm_log() { printf 'vm: %s\n' "$*" >&2; }
vm_die() { printf 'vm: error: %s\n' "$*" >&2; exit 1; }

# The versioned kernel image package that linux-image-amd64 depends on, e.g.
# linux-image-6.1.0-57-amd64. Read from the local apt lists; those are refreshed once if
# they do not know the metapackage. Falls back to the newest kernel already in the cache
# so a warm run works without apt lists.
vm_kernel_package() {
  local pkg
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
    sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
  if [ -z "$pkg" ] && [ -z "$(ls "$VM_CACHE"/kernel 2>/dev/null)" ]; then
    vm_log "refreshing apt lists to find Debian's kernel package"
    apt-get update -qq >&2 || true
    pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
      sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -1)
  fi
  if [ -z "$pkg" ]; then
    local cached
    cached=$(ls "$VM_CACHE"/kernel 2>/dev/null | sort -V | tail -1)
    [ -n "$cached" ] || vm_die "cannot resolve linux-image-amd64 (apt lists missing?)"
    pkg=linux-image-$cached
  fi
  printf '%s\n' "$pkg"
}

# KREL (e.g. 6.1.0-57-amd64) and the folder holding everything built for it.
VM_KPKG=$(vm_kernel_package)
VM_KREL=${VM_KPKG#linux-image-}
VM_KDIR=$VM_CACHE/kernel/$VM_KREL
VM_KSERIES=$(printf '%s' "$VM_KREL" | cut -d. -f1,2)
VM_BOOT=$VM_CACHE/boot

# vm_plant: what a hand run of `sudo alarmclock run` leaves on the host (issue 27): a
# root-owned state.json and last-good.toml (mode 0640) in /var/lib/alarmclock (made 0750
# when missing) and a marker in /etc/alarmclock, where this user may write; only names
# that are not there already, removed again by vm_unplant with any directory made for
# them. The tiers must not see them: the boot tier's boot-install and the VM tier's
# kernel-smoke check that nothing of the host's product paths (scripts/vm/product-paths)
# shows through. VM_PLANT=0 skips it.
VM_PLANTED=() VM_PLANT_DIRS=()
vm_plant_file() { # PATH CONTENT
  [ ! -e "$1" ] && [ ! -L "$1" ] || return 0
  (umask 027 && printf '%s\n' "$2" >"$1") 2>/dev/null && VM_PLANTED+=("$1")
}
vm_plant() {
  [ "${VM_PLANT:-1}" = 1 ] || return 0
  local dir
  for dir in /etc/alarmclock /var/lib/alarmclock; do
    if [ ! -d "$dir" ]; then
      mkdir -m 0750 "$dir" 2>/dev/null && VM_PLANT_DIRS+=("$dir") || continue
    fi
  done
  vm_plant_file "/etc/alarmclock/.vm-host-leftover-$$" ""
  vm_plant_file /var/lib/alarmclock/state.json '{"version":1,"planted-by":"vm_plant"}'
  vm_plant_file /var/lib/alarmclock/last-good.toml '# planted by vm_plant'
  [ ${#VM_PLANTED[@]} -eq 0 ] || vm_log "planted host leftovers: ${VM_PLANTED[*]}"
}
vm_unplant() {
  [ ${#VM_PLANTED[@]} -eq 0 ] || rm -f "${VM_PLANTED[@]}"
  local dir
  for dir in "${VM_PLANT_DIRS[@]}"; do rmdir "$dir" 2>/dev/null || true; done
  VM_PLANTED=() VM_PLANT_DIRS=()
}
