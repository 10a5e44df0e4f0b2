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
# after the devices. With $GUEST_UEFI set, the guest boots as a cloud CVM
# does: dracut --uefi makes a unified kernel image (systemd-stub, the command
# line in its .cmdline), signed with the key Debian's snakeoil OVMF trusts,
# booted from an ESP under Secure Boot (q35 with SMM), with a disk holding a
# fresh nonce for the guest's quote (OUT/nonce).
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

cmdline="console=ttyS0 panic=1 rd.shell=0 root=/dev/vda rd.timeout=60 ${GUEST_APPEND:-}"
ovmf=/usr/share/OVMF
snakeoil=/usr/share/ovmf/PkKek-1-snakeoil

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
	# A UEFI guest's image is a UKI with the command line in it.
	set -- "$1" "$1/initrd.img"
	[ -z "${GUEST_UEFI:-}" ] || set -- "$1" "$1/uki.efi" --uefi --uefi-stub /usr/lib/systemd/boot/efi/linuxx64.efi.stub \
		--kernel-image "$kdir/boot/vmlinuz-$kver" --kernel-cmdline "$cmdline"
	dir=$1 image=$2
	shift 2
	drvfilter_prefix=$stage drvfilter_policy=$policy drvfilter_other_machine=yes dracutbasedir=$tmp/dracut \
		dracut --force --conf /dev/null --confdir "$tmp/confd" --no-hostonly --no-hostonly-cmdline --no-early-microcode \
		--modules "${DRACUT_MODULES:-base} rootfs-block drvfiltertest $early" --kver "$kver" --kmoddir "$kdir/lib/modules/$kver" \
		--drivers "virtio_pci virtio_blk virtio_net e1000 xhci_pci ata_piix ${DRACUT_DRIVERS:-}" \
		--compress cat "$@" "$image" >"$dir/dracut.log" 2>&1 || {
		tail -n 20 "$dir/dracut.log" >&2
		return 1
	}
	[ -n "${GUEST_UEFI:-}" ] || return 0
	# Signed with the snakeoil key (its password is in OVMF's README.Debian).
	openssl pkey -in "$snakeoil.key" -passin pass:snakeoil -out "$tmp/db.key"
	sbsign --key "$tmp/db.key" --cert "$snakeoil.pem" --output "$image.signed" "$image" >>"$dir/dracut.log" 2>&1
	mv "$image.signed" "$image"
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
machine=pc
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
elif [ -n "${GUEST_UEFI:-}" ]; then
	# The signed UKI as the removable-media boot loader of an ESP; the
	# firmware's variables (Secure Boot on, the snakeoil keys) a copy of the
	# template; the verifier's nonce on a disk of its own.
	truncate -s 96M "$tmp/esp.img"
	mkfs.vfat -F 32 -n ESP "$tmp/esp.img" >/dev/null
	mmd -i "$tmp/esp.img" ::/EFI ::/EFI/BOOT
	mcopy -i "$tmp/esp.img" "$out/uki.efi" ::/EFI/BOOT/BOOTX64.EFI
	cp "$ovmf/OVMF_VARS_4M.snakeoil.fd" "$tmp/vars.fd"
	od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$out/nonce"
	cp "$out/nonce" "$tmp/nonce.img"
	truncate -s 512 "$tmp/nonce.img"
	machine=q35,smm=on
	set -- -global driver=cfi.pflash01,property=secure,value=on \
		-drive "if=pflash,format=raw,unit=0,file=$ovmf/OVMF_CODE_4M.snakeoil.fd,readonly=on" \
		-drive "if=pflash,format=raw,unit=1,file=$tmp/vars.fd" "$@" \
		-drive "file=$tmp/esp.img,if=none,id=esp,format=raw" -device virtio-blk-pci,drive=esp,bootindex=1 \
		-drive "file=$tmp/nonce.img,if=none,id=nonce,format=raw,readonly=on" \
		-device virtio-blk-pci,drive=nonce,serial=drvfilter-nonce
else
	set -- -kernel "$kdir/boot/vmlinuz-$kver" -initrd "$out/initrd.img" -append "$cmdline" "$@"
fi
start=$(date +%s)
timeout "${GUEST_TIMEOUT:-300}" qemu-system-x86_64 -M "$machine" -m 512 -nodefaults -no-reboot -display none -accel tcg \
	-serial "file:$out/console.raw" "$@" || true
[ -e "$tmp/swtpm.pid" ] && { kill "$(cat "$tmp/swtpm.pid")" 2>/dev/null || true; }
sed -e 's/\r$//' "$out/console.raw" >"$out/console"
echo "guest ran $(($(date +%s) - start)) s" >&2
