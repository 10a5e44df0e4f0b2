#!/bin/sh
# Build a guest's initramfs with the real initramfs-tools (mkinitramfs, the
# system's) and drvfilter's hook and scripts from a staging tree, for
# boot-guest.sh. mkinitramfs reads the kernel's modules from /lib/modules/KVER
# and its config from /boot/config-KVER; the stock kernel is in the cache, so
# it runs in a mount namespace of its own where both are the cache's (over an
# overlay of the library directory, in that namespace only): the host's
# /lib/modules, /boot and /etc/initramfs-tools are never read or changed (-d
# gives it a configuration of its own).
#   initramfs-tools-image.sh STAGE KERNEL-DIR POLICY OUT
# OUT gets initrd.img, mkinitramfs.log and init-top-order (the image's
# scripts/init-top/ORDER: drvfilter must run before udev's coldplug).
# $DRACUT_DRIVERS: more modules for the image (the scenario's drivers file).
set -eu
stage=$(cd "$1" && pwd)
kdir=$(cd "$2" && pwd)
policy=$3
out=$4
here=$(cd "$(dirname "$0")" && pwd)
command -v mkinitramfs >/dev/null || { echo "mkinitramfs is missing: scripts/install-deps boot" >&2; exit 77; }
kver=$(basename "$(ls -d "$kdir"/lib/modules/*)")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
conf=$tmp/conf
mkdir -p "$conf/conf.d" "$conf/hooks" "$conf/scripts"
# Debian's defaults but for the modules: the ones the guest's devices need,
# as the dracut images have them, not MODULES=most's every storage driver.
cat >"$conf/initramfs.conf" <<CONF
MODULES=list
BUSYBOX=y
COMPRESS=lz4
RUNSIZE=10%
CONF
for m in virtio_pci virtio_blk virtio_net e1000 xhci_pci ata_piix ${DRACUT_DRIVERS:-}; do
	echo "$m"
done >"$conf/modules"
# drvfilter's hook and scripts as the package installs them (the staging
# tree's), and the test's own beside them.
cp "$stage/usr/share/initramfs-tools/hooks/zz-drvfilter" "$here/initramfs-tools/hooks/drvfiltertest" "$conf/hooks/"
cp -R "$stage/usr/share/initramfs-tools/scripts/." "$conf/scripts/"
cp -R "$here/initramfs-tools/scripts/." "$conf/scripts/"
mkdir -p "$out"
# What the hooks read (zz-drvfilter's and the test's).
drvfilter_prefix=$stage drvfilter_policy=$policy drvfilter_other_machine=yes DRVFILTER_TEST_REPORT=$here/dracut/95drvfiltertest/report.sh
DRVFILTER_TEST_INSMOD=${DRVFILTER_TEST_INSMOD:-}
export drvfilter_prefix drvfilter_policy drvfilter_other_machine DRVFILTER_TEST_REPORT DRVFILTER_TEST_INSMOD
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --propagation private sh -eu -c '
	kdir=$1 kver=$2 conf=$3 img=$4 tmp=$5
	# /lib/modules may not exist on the host (a machine without
	# modules): an overlay of the library directory gets it one,
	# in this namespace only.
	lib=$(readlink -f /lib)
	mkdir -p "$tmp/lib-upper" "$tmp/lib-work"
	mount -t overlay drvfilter-lib -o "lowerdir=$lib,upperdir=$tmp/lib-upper,workdir=$tmp/lib-work" "$lib"
	mkdir -p "$lib/modules"
	mount -t tmpfs drvfilter-modules "$lib/modules"
	mkdir "$lib/modules/$kver"
	mount --bind "$kdir/lib/modules/$kver" "$lib/modules/$kver"
	mount -t tmpfs drvfilter-boot /boot
	cp "$kdir/boot/config-$kver" /boot/
	TMPDIR=$tmp mkinitramfs -d "$conf" -o "$img" "$kver"' \
	sh "$kdir" "$kver" "$conf" "$out/initrd.img" "$tmp" >"$out/mkinitramfs.log" 2>&1 || {
	tail -n 20 "$out/mkinitramfs.log" >&2
	exit 1
}
unmkinitramfs "$out/initrd.img" "$tmp/unpacked" 2>/dev/null
# (main/ when the image has an early part, such as microcode.)
root=$tmp/unpacked
[ ! -d "$root/main" ] || root=$root/main
cp "$root/scripts/init-top/ORDER" "$out/init-top-order"
