#!/bin/bash
# Builds the emulated Raspberry Pi 3B's disk, kernel and initrd from Debian's arm64 packages, and
# fetches QEMU 10 (bookworm-backports) into a folder, both cached under $PI_CACHE by a hash of
# what goes into them: a second run finds them and only boots.
#
# Prints the image folder on its last line. Needs root (mmdebstrap --mode=root, mkfs.ext4 -d).
set -euo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
PI_CACHE="${PI_CACHE:-/var/cache/navakankari-pi}"
SUITE=bookworm
MIRROR="http://deb.debian.org/debian"
QEMU_VERSION="1:10.0.2+ds-2+deb13u1~bpo12+1"
GUEST_PACKAGES="systemd-sysv,udev,kmod,linux-image-arm64,initramfs-tools,gpiod,python3,\
python3-venv,python3-dev,python3-pip,build-essential,swig,git,curl,ca-certificates,\
device-tree-compiler,spi-tools,i2c-tools,openssh-server,sudo"
HOST_PACKAGES="mmdebstrap qemu-user-static binfmt-support device-tree-compiler e2fsprogs \
libcapstone4 libpmem1 librdmacm1 libibverbs1 libslirp0 libvdeplug2 libfuse3-3 libaio1 \
liburing2 libbpf1 libnuma1"

log() { printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }

# What goes into the image: the suite, the packages, how it is built and the device trees (not
# the rest of this file, so that changing how QEMU is fetched keeps the image).
inputs_hash() {
    { echo "$SUITE $MIRROR $GUEST_PACKAGES"; declare -f build_image; cat "$HERE"/*.dts; } |
        sha256sum | cut -c1-16
}

ensure_host_packages() {
    local missing=()
    for p in $HOST_PACKAGES; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
    done
    if ((${#missing[@]})); then
        log "installing host packages: ${missing[*]}"
        apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" >/dev/null
    fi
}

# QEMU 10 from bookworm-backports, unpacked into a folder with dpkg-deb -x (never installed on
# the host): bookworm's own QEMU 7.2 has no SPI or I2C model for raspi3b.
ensure_qemu() {
    local dir="$PI_CACHE/qemu-10"
    if [[ -x "$dir/usr/bin/qemu-system-aarch64" ]]; then return; fi
    log "fetching QEMU $QEMU_VERSION from bookworm-backports"
    local apt="$PI_CACHE/apt-backports"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/debs"
    cat > "$apt/sources.list" <<EOF
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $MIRROR bookworm-backports main
EOF
    local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
                -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
                -o APT::Architectures=amd64)
    apt-get "${opts[@]}" update -q >/dev/null
    (cd "$apt/debs" && apt-get "${opts[@]}" download \
        "qemu-system-arm=$QEMU_VERSION" "qemu-system-common=$QEMU_VERSION" \
        "qemu-system-data=$QEMU_VERSION" >/dev/null)
    rm -rf "$dir.partial" && mkdir -p "$dir.partial"
    for deb in "$apt"/debs/*.deb; do dpkg-deb -x "$deb" "$dir.partial"; done
    mv "$dir.partial" "$dir"
}

# A foreign-architecture chroot needs binfmt_misc with qemu-aarch64 enabled; whatever this
# turns on is turned off again on exit, leaving the host as it was.
BINFMT_MOUNTED=0
BINFMT_ENABLED=0
binfmt_on() {
    if ! mountpoint -q /proc/sys/fs/binfmt_misc; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
        BINFMT_MOUNTED=1
    fi
    if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
        update-binfmts --enable qemu-aarch64
        BINFMT_ENABLED=1
    fi
}
binfmt_off() {
    if ((BINFMT_ENABLED)); then update-binfmts --disable qemu-aarch64 || true; fi
    if ((BINFMT_MOUNTED)); then umount /proc/sys/fs/binfmt_misc || true; fi
}

build_image() {
    local out="$1" work="$1.partial"
    rm -rf "$work" && mkdir -p "$work"
    trap 'binfmt_off; rm -rf "$work/rootfs"' EXIT
    binfmt_on
    ssh-keygen -q -t ed25519 -N '' -C navakankari-pi-emu -f "$work/id_ed25519"
    log "mmdebstrap $SUITE arm64 (about half an hour under qemu-user)"
    # Plain Debian, as a maker's Pi would not be: no Raspberry Pi OS groups or udev rules here;
    # the check adds them itself, after seeing what `service install` says without them.
    # The initramfs holds only what mounts the SD card's root (MODULES=list): mkinitramfs
    # with Debian's MODULES=most runs thousands of programs under qemu-user, which took over
    # an hour on a busy machine.
    nice -n 10 mmdebstrap --mode=root --arch=arm64 --variant=apt \
        --include="$GUEST_PACKAGES" \
        --setup-hook='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d"' \
        --setup-hook='printf "MODULES=list\nCOMPRESS=gzip\n" > "$1/etc/initramfs-tools/conf.d/pi-emu.conf"' \
        --setup-hook='printf "sdhci\nsdhci-pltfm\nsdhci-iproc\nbcm2835\next4\ncrc32c_generic\n" > "$1/usr/share/initramfs-tools/modules.d/pi-emu"' \
        --customize-hook='echo navakankari-pi > "$1/etc/hostname"' \
        --customize-hook='echo "127.0.1.1 navakankari-pi" >> "$1/etc/hosts"' \
        --customize-hook='echo "/dev/mmcblk0 / ext4 rw,errors=remount-ro 0 1" > "$1/etc/fstab"' \
        --customize-hook='printf "[Match]\nType=ether\n[Network]\nDHCP=yes\n" > "$1/etc/systemd/network/20-wired.network"' \
        --customize-hook='chroot "$1" systemctl enable systemd-networkd' \
        --customize-hook='rm -f "$1/etc/resolv.conf"; echo "nameserver 10.0.2.3" > "$1/etc/resolv.conf"' \
        --customize-hook="mkdir -p \"\$1/root/.ssh\"; cp '$work/id_ed25519.pub' \"\$1/root/.ssh/authorized_keys\"" \
        --customize-hook='chroot "$1" useradd -m -s /bin/bash -G sudo pi' \
        --customize-hook='echo "pi ALL=(ALL) NOPASSWD:ALL" > "$1/etc/sudoers.d/pi"' \
        --customize-hook='mkdir -p "$1/home/pi/.ssh"; cp "$1/root/.ssh/authorized_keys" "$1/home/pi/.ssh/"; chroot "$1" chown -R pi:pi /home/pi/.ssh' \
        --customize-hook='printf "spidev\ni2c-dev\n" > "$1/etc/modules-load.d/pi-emu.conf"' \
        "$SUITE" "$work/rootfs" "$MIRROR" >&2
    cp "$work"/rootfs/boot/vmlinuz-* "$work/vmlinuz"
    cp "$work"/rootfs/boot/initrd.img-* "$work/initrd.img"
    log "ext4 image (4 GiB, no partition table: root=/dev/mmcblk0)"
    truncate -s 4G "$work/sd.img"
    mkfs.ext4 -q -L pi-root -d "$work/rootfs" "$work/sd.img"
    for dts in "$HERE"/*.dts; do
        dtc -q -I dts -O dtb -o "$work/$(basename "${dts%.dts}").dtb" "$dts"
    done
    rm -rf "$work/rootfs"
    mv "$work" "$out"
    binfmt_off
    trap - EXIT
}

main() {
    mkdir -p "$PI_CACHE"
    ensure_host_packages
    ensure_qemu
    local out
    out="$PI_CACHE/image-$(inputs_hash)"
    if [[ -f "$out/sd.img" ]]; then
        log "image cached: $out"
    else
        build_image "$out"
        log "image built: $out"
    fi
    echo "$out"
}

main "$@"
