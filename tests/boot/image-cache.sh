#!/bin/sh
# The boot tests' initramfs images, cached by their inputs: a guest whose
# image would be built from the same inputs as one built before (in this run
# or an earlier one) boots that image. The images are the builders' (dracut,
# mkinitramfs) run as boot-guest.sh runs them; only the run is saved.
#   image-cache.sh key STAGE KERNEL-DIR POLICY   print the key of an image
#   image-cache.sh dir                           print the cache's directory
#   image-cache.sh prune                         keep the newest $KEEP entries
# The key covers everything an image is made of: the staged build (every
# file, its mode and contents), the policy and its drop-ins, the kernel (its
# directory and its module index), the builder's knobs in the environment
# (DRACUT_*, GUEST_BUILDER, GUEST_SWTPM, GUEST_UEFI and a UKI's command line,
# DRVFILTER_TEST_*), the test's own
# dracut and initramfs-tools parts and the scripts that run the builders, the
# host's packages (the dpkg database: dracut, udev, busybox, the libraries)
# and the host files the builders read besides them (/etc/modprobe.d,
# /etc/udev, /etc/dracut.conf*, /etc/initramfs-tools). The objects of a build
# carry no checkout path (CMakeLists.txt), so a fresh clone's stage of the
# same sources has the same key. DRVFILTER_IMAGE_CACHE=0 (boot-guest.sh)
# builds every image.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=${XDG_CACHE_HOME:-$HOME/.cache}/drvfilter/images

# tree DIR...: every file of each DIR, its type, mode, link target and
# contents; file FILE...: each one's contents. Not where they are: a checkout
# elsewhere has the same key.
tree() {
	for t; do
		[ -e "$t" ] || { echo "absent"; continue; }
		echo "tree"
		(cd "$t" && find . -printf '%p %y %m %l\n' | LC_ALL=C sort &&
			find . -type f -exec sha256sum {} + | LC_ALL=C sort)
	done
}
file() {
	for f; do
		sha256sum <"$f"
	done
}

case ${1-} in
key)
	[ $# = 4 ] || { echo "usage: image-cache.sh key STAGE KERNEL-DIR POLICY" >&2; exit 2; }
	stage=$2 kdir=$3 policy=$4
	{
		echo "image-cache 1"
		readlink -f "$kdir"
		(cd "$kdir" && ls -lR --time-style=+%s boot lib/modules/*/modules.dep)
		env | grep -E '^(DRACUT_[A-Z_]*|GUEST_BUILDER|GUEST_SWTPM|GUEST_UEFI|DRVFILTER_TEST_[A-Z_]*)=' | LC_ALL=C sort
		# A UKI holds its command line.
		[ -z "${GUEST_UEFI:-}" ] || echo "uki-cmdline ${GUEST_APPEND:-}"
		[ -z "${GUEST_UEFI:-}" ] || file /usr/share/ovmf/PkKek-1-snakeoil.pem
		[ -z "${DRVFILTER_TEST_INSMOD:-}" ] || file "$DRVFILTER_TEST_INSMOD"
		tree "$stage"
		file "$policy"
		tree "$policy.d"
		tree "$here/dracut" "$here/initramfs-tools"
		file "$here/boot-guest.sh" "$here/scratch-dracut.sh" "$here/initramfs-tools-image.sh" "$here/image-cache.sh"
		file /var/lib/dpkg/status
		tree /etc/modprobe.d /etc/udev /etc/dracut.conf.d /etc/initramfs-tools
		[ ! -e /etc/dracut.conf ] || file /etc/dracut.conf
	} | sha256sum | cut -c1-32
	;;
dir)
	echo "$dir"
	;;
prune)
	# The newest first: an entry's complete file is touched at each use.
	[ -d "$dir" ] || exit 0
	keep=${KEEP:-48}
	# shellcheck disable=SC2012 # the names are hex keys
	ls -1t "$dir"/*/complete 2>/dev/null | tail -n "+$((keep + 1))" | while read -r marker; do
		# Under the entry's lock, skipped when a run holds it (building or
		# copying it); the lock file stays, or two runs could hold two.
		entry=${marker%/complete}
		(flock -n 9 && rm -rf "$entry") 9>"$entry.lock"
	done
	;;
*)
	echo "usage: image-cache.sh key STAGE KERNEL-DIR POLICY | dir | prune" >&2
	exit 2
	;;
esac
