#!/bin/sh
# Build an initramfs with the real dracut and drvfilter's module from a staging
# tree, boot it under QEMU (TCG), and keep the guest's console.
#   boot-guest.sh STAGE KERNEL-DIR POLICY OUT [QEMU-ARG...]
# STAGE: a `DESTDIR=STAGE cmake --install --prefix /usr` tree. KERNEL-DIR: holds
# boot/vmlinuz-KVER and lib/modules/KVER (stock-kernel.sh). The guest runs the
# test module's report hook and reboots; OUT gets initrd.img, dracut.log and
# console. The image comes from image-cache.sh's cache when one was built from
# the same inputs before (DRVFILTER_IMAGE_CACHE=0: built every time). Devices default to virtio-blk (a blank disk, or the real root
# file system image $GUEST_ROOT), virtio-net, e1000 and xHCI. Extra kernel
# arguments come from $GUEST_APPEND; $GUEST_TIMEOUT bounds the boot (seconds,
# default 300); $DRACUT_MODULES picks the initrd's flavour (default "base",
# the classic one; "systemd-initrd dracut-systemd" for systemd's), and
# $DRACUT_DRIVERS adds kernel modules to the image; $GUEST_BUILDER=initramfs-tools
# builds the image with initramfs-tools instead (initramfs-tools-image.sh); $GUEST_RECORD_DISK adds a
# disk a recording boot writes to; $GUEST_GRUB_CMDLINE boots through GRUB
# with that text on its linux line.
# With $GUEST_SWTPM set, the guest gets a TPM 2.0: Debian's swtpm behind
# QEMU's tpm-tis, its state in OUT/swtpm. $GUEST_QEMU: more QEMU arguments,
# after the devices.
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

# build_image DIR: the builder's image and log in DIR.
build_image() {
	if [ "${GUEST_BUILDER:-dracut}" = initramfs-tools ]; then
		# initramfs-tools instead (the scenario's builder file), the system's.
		sh "$here/initramfs-tools-image.sh" "$stage" "$kdir" "$policy" "$1"
		return
	fi
	# dracut from the system with the staged drvfilter modules and the test
	# module beside its own (scratch-dracut.sh); no host configuration.
	sh "$here/scratch-dracut.sh" "$stage" "$tmp/dracut"
	cp -a "$here/dracut/95drvfiltertest" "$tmp/dracut/modules.d/"
	mkdir -p "$tmp/confd"
	# The image's own blacklist, where the build has it (90drvfilter requires it).
	early=
	[ ! -d "$stage/usr/lib/dracut/modules.d/99drvfilter-blacklist" ] || early=drvfilter-blacklist
	drvfilter_prefix=$stage drvfilter_policy=$policy drvfilter_other_machine=yes dracutbasedir=$tmp/dracut \
		dracut --force --conf /dev/null --confdir "$tmp/confd" --no-hostonly --no-hostonly-cmdline --no-early-microcode \
		--modules "${DRACUT_MODULES:-base} rootfs-block drvfiltertest $early" --kver "$kver" --kmoddir "$kdir/lib/modules/$kver" \
		--drivers "virtio_pci virtio_blk virtio_net e1000 xhci_pci ata_piix ${DRACUT_DRIVERS:-}" \
		--compress cat "$1/initrd.img" >"$1/dracut.log" 2>&1 || {
		tail -n 20 "$1/dracut.log" >&2
		return 1
	}
	# (Uncompressed: QEMU reads the image once; gzip -9 cost each boot 7 to
	# 15 s of a core for nothing.)
}

# The image: from the cache when one was built from the same inputs
# (image-cache.sh), else built and kept there; one build per key at a time.
if [ "${DRVFILTER_IMAGE_CACHE:-1}" = 0 ]; then
	build_image "$out"
else
	cache=$(sh "$here/image-cache.sh" dir)
	entry=$cache/$(sh "$here/image-cache.sh" key "$stage" "$kdir" "$policy")
	mkdir -p "$cache"
	exec 9>"$entry.lock"
	flock 9
	if [ -e "$entry/complete" ]; then
		echo "image: from the cache ($entry)" >&2
		touch "$entry/complete"
	else
		rm -rf "$entry" "$entry.new"
		mkdir "$entry.new"
		build_image "$entry.new"
		touch "$entry.new/complete"
		mv "$entry.new" "$entry"
	fi
	for f in "$entry"/*; do
		[ "${f##*/}" = complete ] || cp "$f" "$out/"
	done
	exec 9>&-
fi
# The root disk: $GUEST_ROOT, a real root file system, or a blank one the
# boot never mounts (the test module reports and ends it before).
disk=${GUEST_ROOT:-$tmp/disk.img}
[ -n "${GUEST_ROOT:-}" ] || truncate -s 1M "$disk"
[ $# -gt 0 ] || set -- \
	-drive "file=$disk,if=none,id=d0,format=raw" -device virtio-blk-pci,drive=d0 \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0 \
	-netdev user,id=n1 -device e1000,netdev=n1 -device qemu-xhci
# A recording boot's output disk (serial drvfilter-record), besides the devices.
[ -z "${GUEST_RECORD_DISK:-}" ] ||
	set -- "$@" -drive "file=$GUEST_RECORD_DISK,if=none,id=rec,format=raw" \
		-device virtio-blk-pci,drive=rec,serial=drvfilter-record
if [ -n "${GUEST_SWTPM:-}" ]; then
	mkdir -p "$out/swtpm"
	# --terminate: it ends when QEMU closes the connection.
	swtpm socket --tpm2 --tpmstate "dir=$out/swtpm" --ctrl "type=unixio,path=$tmp/swtpm.sock" \
		--terminate --daemon --pid "file=$tmp/swtpm.pid" --log "file=$out/swtpm.log"
	for _ in 1 2 3 4 5 6 7 8 9 10; do [ -S "$tmp/swtpm.sock" ] && break; sleep 0.2; done
	set -- "$@" -chardev "socket,id=chrtpm,path=$tmp/swtpm.sock" \
		-tpmdev emulator,id=tpm0,chardev=chrtpm -device tpm-tis,tpmdev=tpm0
fi
# shellcheck disable=SC2086 # one word per argument is intended
[ -z "${GUEST_QEMU:-}" ] || set -- "$@" $GUEST_QEMU
cmdline="console=ttyS0 panic=1 rd.shell=0 root=/dev/vda rd.timeout=60 ${GUEST_APPEND:-}"
# Through GRUB instead ($GUEST_GRUB_CMDLINE: what grub-mkconfig pastes on the
# linux line from GRUB_CMDLINE_LINUX), from a GRUB rescue CD.
if [ -n "${GUEST_GRUB_CMDLINE:-}" ]; then
	mkdir -p "$tmp/iso/boot/grub"
	cp "$kdir/boot/vmlinuz-$kver" "$tmp/iso/boot/vmlinuz"
	cp "$out/initrd.img" "$tmp/iso/boot/initrd.img"
	printf 'set timeout=0\nmenuentry drvfilter {\n\tlinux /boot/vmlinuz %s %s\n\tinitrd /boot/initrd.img\n}\n' \
		"$cmdline" "$GUEST_GRUB_CMDLINE" >"$tmp/iso/boot/grub/grub.cfg"
	cp "$tmp/iso/boot/grub/grub.cfg" "$out/grub.cfg"
	grub-mkrescue -o "$out/grub.iso" "$tmp/iso" >"$out/grub-mkrescue.log" 2>&1 || {
		tail -n 20 "$out/grub-mkrescue.log" >&2
		exit 1
	}
	set -- -cdrom "$out/grub.iso" -boot d "$@"
else
	set -- -kernel "$kdir/boot/vmlinuz-$kver" -initrd "$out/initrd.img" -append "$cmdline" "$@"
fi
start=$(date +%s)
timeout "${GUEST_TIMEOUT:-300}" qemu-system-x86_64 -M pc -m 512 -nodefaults -no-reboot -display none -accel tcg \
	-serial "file:$out/console.raw" "$@" || true
[ -e "$tmp/swtpm.pid" ] && { kill "$(cat "$tmp/swtpm.pid")" 2>/dev/null || true; }
sed -e 's/\r$//' "$out/console.raw" >"$out/console"
echo "guest ran $(($(date +%s) - start)) s" >&2
