#!/bin/sh
# Build an initramfs with the real dracut and drvfilter's module from a staging
# tree, boot it under QEMU (TCG), and keep the guest's console.
#   boot-guest.sh STAGE KERNEL-DIR POLICY OUT [QEMU-ARG...]
# STAGE: a `DESTDIR=STAGE cmake --install --prefix /usr` tree. KERNEL-DIR: holds
# boot/vmlinuz-KVER and lib/modules/KVER (stock-kernel.sh). The guest runs the
# test module's report hook and reboots; OUT gets initrd.img, dracut.log and
# console. Devices default to virtio-blk, virtio-net, e1000 and xHCI;
# $GUEST_DEVICES adds QEMU arguments to them. Extra
# kernel arguments come from $GUEST_APPEND; $DRACUT_MODULES picks the initrd's
# flavour (default "base", the classic one; "systemd-initrd dracut-systemd" for
# systemd's).
set -eu
stage=$(cd "$1" && pwd)
kdir=$2
policy=$3
out=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
kver=$(basename "$(ls -d "$kdir"/lib/modules/*)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# dracut from the system, with our modules beside its own.
cp -a /usr/lib/dracut "$tmp/dracut"
cp -a "$stage/usr/lib/dracut/modules.d/90drvfilter" "$here/dracut/95drvfiltertest" \
	"$tmp/dracut/modules.d/"
drvfilter_prefix=$stage drvfilter_policy=$policy dracutbasedir=$tmp/dracut \
	dracut --force --no-hostonly --no-hostonly-cmdline --no-early-microcode \
	--modules "${DRACUT_MODULES:-base} rootfs-block drvfiltertest" --kver "$kver" --kmoddir "$kdir/lib/modules/$kver" \
	--drivers "virtio_pci virtio_blk virtio_net e1000 xhci_pci ata_piix" \
	--compress gzip "$out/initrd.img" >"$out/dracut.log" 2>&1 || {
	tail -n 20 "$out/dracut.log" >&2
	exit 1
}
truncate -s 1M "$tmp/disk.img"
[ $# -gt 0 ] || set -- \
	-drive "file=$tmp/disk.img,if=none,id=d0,format=raw" -device virtio-blk-pci,drive=d0 \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0 \
	-netdev user,id=n1 -device e1000,netdev=n1 -device qemu-xhci
start=$(date +%s)
# shellcheck disable=SC2086 # $GUEST_DEVICES is a list of QEMU arguments
timeout 300 qemu-system-x86_64 -M pc -m 512 -nodefaults -no-reboot -display none -accel tcg \
	-serial "file:$out/console.raw" \
	-kernel "$kdir/boot/vmlinuz-$kver" -initrd "$out/initrd.img" \
	-append "console=ttyS0 panic=1 rd.shell=0 root=/dev/vda rd.timeout=60 ${GUEST_APPEND:-}" "$@" \
	${GUEST_DEVICES:-} || true
sed -e 's/\r$//' "$out/console.raw" >"$out/console"
echo "guest ran $(($(date +%s) - start)) s" >&2
