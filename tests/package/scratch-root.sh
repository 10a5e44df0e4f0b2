#!/bin/sh
# The scratch root the package is installed into (autopkgtest.sh), never the
# host: Debian 12 minbase with what DEB depends on, systemd as init (dracut's
# base module takes poweroff and reboot from it), udev, kmod, dracut (which
# serves the update-initramfs trigger, and dracut-core with it),
# initramfs-tools-core (mkinitramfs, beside dracut), what autopkgtest needs
# in a testbed (dpkg-dev unpacks the source, apt-utils publishes the
# binaries), Debian's stock kernel installed with apt, so the trigger has an
# initramfs to rebuild, and initramfs-tools' own .deb in /root (it conflicts
# with dracut: the test installs it once dracut is gone, to serve the
# trigger in its place). Its sources.list is emptied: a test run needs
# nothing from the network and apt cannot reach it.
# Built once with debootstrap and cached as a tarball in the cache's
# package-root/KEY/, KEY a hash of this script and the package list (a new
# dependency of the package builds a new root); built in a temporary
# directory and renamed into place under a lock, so parallel runs build it
# once. Prints the tarball's path; each run unpacks its own copy.
#   scratch-root.sh DEB
set -eu
here=$(cd "$(dirname "$0")" && pwd)
deb=$1
cache=${DRVFILTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/drvfilter}
mirror=${DRVFILTER_DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=bookworm
# The package's own dependencies, first of each alternative, no versions.
depends=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/:.*//; s/[[:space:]]//g' |
	grep . | LC_ALL=C sort -u | paste -sd, -)
include=systemd-sysv,udev,kmod,dracut,dracut-core,initramfs-tools-core,dpkg-dev,apt-utils,$depends
key=$( (cat "$0" "$here/scratch-mounts.sh" && echo "$suite $mirror $include") | sha256sum | cut -c1-16)
dir=$cache/package-root/$key

build() {
	for tool in debootstrap unshare zstd; do
		command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-deps deb" >&2; exit 77; }
	done
	tmp=$(mktemp -d "$cache/package-root/build.XXXXXX")
	# --one-file-system: never into a mount left in the root.
	trap 'rm -rf --one-file-system "$tmp"' EXIT
	start=$(date +%s)
	# In a mount namespace of its own: debootstrap's and the kernel
	# install's mounts of /proc, /sys and /dev go with it, even if killed.
	# shellcheck disable=SC2016 # the inner shell expands them
	if ! unshare --mount --pid --fork --kill-child sh -euc '
		. "$1"
		root=$2
		debootstrap --variant=minbase --include="$3" "$4" "$root" "$5"
		scratch_mounts "$root"
		in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 \
			PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
		# No daemon starts in a root that is not running.
		printf "#!/bin/sh\nexit 101\n" >"$root/usr/sbin/policy-rc.d"
		chmod 755 "$root/usr/sbin/policy-rc.d"
		in_root apt-get update -q
		# The kernel, as an admin has it: its postinst has dracut build
		# its initramfs (without drvfilter).
		in_root apt-get install -y -q --no-install-recommends linux-image-amd64
		ls "$root"/boot/initrd.img-* >/dev/null
		in_root sh -c "cd /root && apt-get download initramfs-tools"
		ls "$root"/root/initramfs-tools_*.deb >/dev/null
		in_root apt-get clean
		rm -rf "$root/var/lib/apt/lists"/*
		: >"$root/etc/apt/sources.list"
		rm -f "$root/etc/resolv.conf"
	' sh "$here/scratch-mounts.sh" "$tmp/root" "$include" "$suite" "$mirror" >"$tmp/build.log" 2>&1; then
		tail -n 30 "$tmp/build.log" >&2
		echo "scratch-root: building the root failed (debootstrap of $suite from $mirror)" >&2
		exit 1
	fi
	kver=$(basename "$(ls -d "$tmp"/root/lib/modules/*)")
	tar --zstd --numeric-owner -cf "$tmp/root.tar.zst" -C "$tmp/root" .
	echo "scratch-root: built in $(($(date +%s) - start)) s ($(du -m "$tmp/root.tar.zst" | cut -f1) MiB)" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	mv "$tmp/root.tar.zst" "$dir/"
	echo "$suite $kver $include" >"$dir/done"
}

if [ ! -e "$dir/done" ]; then
	mkdir -p "$cache/package-root"
	# One builder at a time; who waited finds it built.
	exec 9>"$cache/package-root/lock"
	flock 9
	if [ ! -e "$dir/done" ]; then
		(build) || exit $?
	fi
	exec 9>&-
fi
[ -e "$dir/done" ] || exit 1
echo "$dir/root.tar.zst"
