#!/bin/sh
# Once drvfilter is installed, initramfs-tools never builds an image without
# it: a policy that is missing, an invalid drop-in, a driver name the
# image's kernel does not know, or a helper that is missing stops mkinitramfs (and so
# update-initramfs) with a message naming the problem, and no image is
# written; a usable policy gives an image with the helper, the policy and its
# drop-ins, the udev rule, both boot scripts and the image's own blacklist.
# The real mkinitramfs on Debian's stock kernel (initramfs-tools-image.sh).
#   initramfs-tools-unusable-policy.sh BUILD-DIR
set -u
command -v mkinitramfs >/dev/null || { echo "mkinitramfs is missing: scripts/install-deps boot" >&2; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage
DESTDIR=$stage cmake --install "$1" --prefix /usr >/dev/null || exit 1
kdir=$(sh "$here/stock-kernel.sh") || exit 1
fail=0
no() { echo "FAIL: $*" && fail=1; }
build() { sh "$here/initramfs-tools-image.sh" "$2" "$kdir" "$3" "$tmp/$1" >/dev/null 2>&1; }

# refused NAME WHAT PREFIX POLICY: mkinitramfs fails, says WHAT, writes nothing.
refused() {
	if build "$1" "$3" "$4"; then
		no "$1: mkinitramfs succeeded"
	elif ! grep -q "E: drvfilter: .*$2.*; not building the initramfs" "$tmp/$1/mkinitramfs.log"; then
		no "$1: no message saying '$2'" && tail -n 15 "$tmp/$1/mkinitramfs.log"
	elif [ -s "$tmp/$1/initrd.img" ]; then
		# (mkinitramfs creates its output file empty first; update-initramfs
		# writes to a .new file and drops it when mkinitramfs fails.)
		no "$1: an image was written"
	else
		echo "PASS: $1: refused, saying '$2'"
	fi
}

policy=$tmp/set/drvfilter.conf
mkdir -p "$tmp/set/drvfilter.conf.d"
cp "$stage/usr/share/drvfilter/drvfilter.conf" "$policy" || exit 1
chmod 0644 "$policy"
printf '[deny]\npci = e1000\n' >"$tmp/set/drvfilter.conf.d/10-nic.conf"
mkdir -p "$tmp/nohelper"
cp -a "$stage/." "$tmp/nohelper/"
rm "$tmp/nohelper/usr/sbin/drvfilter-apply"

refused missing "the policy $tmp/absent.conf is missing" "$stage" "$tmp/absent.conf"
refused no-helper "drvfilter-apply is missing" "$tmp/nohelper" "$policy"
# A driver name the image's kernel does not know: the root disk's driver
# misspelt would leave the guest without its disk (check --strict against
# the kernel's module tree, the kernel not being this machine's).
sed 's/virtio_blk/virtio_blck/' "$policy" >"$tmp/typo.conf"
chmod 0644 "$tmp/typo.conf"
refused typo "is not a valid policy for kernel" "$stage" "$tmp/typo.conf"
grep -q "virtio_blk" "$tmp/typo/mkinitramfs.log" || no "typo: check's did-you-mean is missing"

# A usable set: the image carries all of it, and the init-top script runs
# before udev's.
if build usable "$stage" "$policy"; then
	before=$fail fail=0
	unmkinitramfs "$tmp/usable/initrd.img" "$tmp/usable/x" 2>/dev/null
	root=$tmp/usable/x/main
	[ -d "$root" ] || root=$tmp/usable/x
	for f in usr/sbin/drvfilter-apply etc/drvfilter.conf etc/drvfilter.conf.d/10-nic.conf \
		usr/lib/udev/rules.d/90-drvfilter.rules scripts/init-top/drvfilter scripts/init-bottom/drvfilter \
		etc/modprobe.d/drvfilter-initramfs.conf; do
		[ -e "$root/$f" ] || no "usable: the image lacks $f"
	done
	cmp -s "$policy" "$root/etc/drvfilter.conf" || no "usable: the image's policy is not the one checked"
	grep -qx 'blacklist e1000' "$root/etc/modprobe.d/drvfilter-initramfs.conf" ||
		no "usable: the image's own blacklist does not name e1000"
	grep -q '^blacklist virtio_blk$' "$root/etc/modprobe.d/drvfilter-initramfs.conf" &&
		no "usable: the image's own blacklist names virtio_blk, which the policy allows"
	[ "$fail" = 1 ] || echo "PASS: usable: the image carries drvfilter, its policy set and its blacklist"
	[ "$before" = 0 ] || fail=1
else
	no "usable: mkinitramfs failed with a usable policy" && tail -n 15 "$tmp/usable/mkinitramfs.log"
fi
# An invalid drop-in is an invalid policy.
printf '[deny]\npci = e1000\npci = e1000e\n' >"$tmp/set/drvfilter.conf.d/20-twice.conf"
refused bad-dropin "$policy is not a valid policy" "$stage" "$policy"
exit $fail
