#!/bin/sh
# The real root for the boot scenarios that switch root: Debian 12 minbase
# with systemd as PID 1, udev, kmod and drvfilter's runtime dependencies, and
# the stock kernel's whole /lib/modules/KVER (stock-kernel.sh), as an ext4
# image made with mkfs.ext4 -d (no loop mount). Built once and cached in
# the cache's real-root/KEY/, KEY a hash of this script and the kernel
# package; prints the image's path. A scenario writes its own files into a
# copy of it (inject-root.sh), so the cache is shared.
#   real-root.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${DRVFILTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/drvfilter}
mirror=${DRVFILTER_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
# What the root holds besides minbase: PID 1, udev, kmod, and what the
# package depends on (libiniparser1; libkmod2 and libudev1 come with them).
include=systemd-sysv,udev,kmod,libiniparser1
kdir=$(sh "$here/stock-kernel.sh")
kver=$(basename "$(ls -d "$kdir"/lib/modules/*)")
key=$( (cat "$0" "$kdir/done" && echo "$suite $mirror") | sha256sum | cut -c1-16)
dir=$cache/real-root/$key
mkdir -p "$cache/real-root"
# One build per key, however many tests ask at once.
exec 9>"$dir.lock"
flock 9
if [ ! -e "$dir/done" ]; then
	for tool in debootstrap mkfs.ext4 debugfs; do
		command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-deps rootfs" >&2; exit 77; }
	done
	mkdir -p "$cache/real-root"
	tmp=$(mktemp -d "$cache/real-root/build.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	start=$(date +%s)
	debootstrap --variant=minbase --include="$include" "$suite" "$tmp/root" "$mirror" >"$tmp/debootstrap.log" 2>&1 || {
		tail -n 20 "$tmp/debootstrap.log" >&2
		exit 1
	}
	root=$tmp/root
	mkdir -p "$root/lib/modules"
	cp -a "$kdir/lib/modules/$kver" "$root/lib/modules/"
	# Not a first boot (no systemd-firstboot prompts on the console), a
	# name; the root stays read-only (no fstab).
	echo 6c6ad1e0c5a14f4b9a3b6f1c0d8e2a71 >"$root/etc/machine-id"
	echo real-root >"$root/etc/hostname"
	# No login prompt on the console the test reads.
	for unit in getty@.service serial-getty@.service; do
		ln -sf /dev/null "$root/etc/systemd/system/$unit"
	done
	rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*
	size=$(du -sm "$root" | cut -f1)
	mkfs.ext4 -q -F -L real-root -d "$root" "$tmp/root.img" "$((size + size / 4 + 64))M" >"$tmp/mkfs.log" 2>&1 ||
		{ cat "$tmp/mkfs.log" >&2 && exit 1; }
	# What the image holds, for inject-root.sh to see which libraries it lacks.
	(cd "$root" && find . | sed 's|^\.||' | LC_ALL=C sort) >"$tmp/manifest"
	echo "real-root: built in $(($(date +%s) - start)) s" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	mv "$tmp/root.img" "$tmp/manifest" "$dir/"
	echo "$suite $include $kver" >"$dir/done"
fi
echo "$dir/root.img"
