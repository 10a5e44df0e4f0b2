#!/bin/sh
# The package as an admin installs it, in a scratch root and never on this
# host: a fresh copy of the Debian 12 root scratch-root.sh caches (the
# package's dependencies, dracut, the stock kernel), where apt installs the
# .deb build-deb.sh built into OUT-DIR, autopkgtest runs its tests
# (debian/tests, from the source package build-deb.sh built) with the chroot
# runner, and apt purges it. dracut serves the update-initramfs trigger there,
# so the install's rebuilt initramfs must carry the policy and the helper, and
# the purge's no longer carry drvfilter (a minute or so each). Then
# initramfs-tools replaces dracut and serves the trigger: the install's
# rebuilt image carries drvfilter, the purge's does not. Last, initramfs-tools
# is removed too (dracut-core stays, which serves no trigger), and the
# package installed and purged again: both must tell the admin to rebuild
# the initramfs. Each install and removal says which builder rebuilds the
# images, if any. The host's /etc, /usr and dpkg database are neither read
# for the checks nor written: chroot, mounts and apt all run in a mount and PID
# namespace of their own (unshare), in a temporary directory that goes at the
# end. Root only (chroot, mount); skipped (77) otherwise, or when a tool is
# missing (scripts/install-deps deb).
# Usage: autopkgtest.sh OUT-DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)

if [ "${1-}" != --inside ]; then
	out=$(cd "$1" && pwd)
	[ "$(id -u)" = 0 ] || { echo "skipped: chroot and mounts in the scratch root need root"; exit 77; }
	for tool in autopkgtest unshare; do
		command -v "$tool" >/dev/null || { echo "skipped: $tool is missing (scripts/install-deps deb)"; exit 77; }
	done
	deb=$(ls "$out"/drvfilter_*_*.deb) || exit 1
	tarball=$(sh "$here/scratch-root.sh" "$deb")
	status=$?
	[ "$status" = 77 ] && echo "skipped: no scratch root (scripts/install-deps deb)"
	[ "$status" = 0 ] || exit "$status"
	tmp=$(mktemp -d) || exit 1
	# Every mount is in the namespace, which ended with its last process;
	# --one-file-system all the same.
	trap 'rm -rf --one-file-system "$tmp"' EXIT
	unshare --mount --pid --fork --kill-child sh "$0" --inside "$out" "$tarball" "$tmp"
	exit $?
fi

# In the namespace: OUT-DIR TARBALL TMP.
out=$2
tmp=$4
root=$tmp/root
mkdir "$root" || exit 1
tar --zstd --numeric-owner -xpf "$3" -C "$root" || exit 1
# shellcheck source=tests/package/scratch-mounts.sh disable=SC1091 # followed with -x
. "$here/scratch-mounts.sh"
scratch_mounts "$root" || exit 1
# The root's dracut leaves out the modules that copy the kernel's drivers
# wholesale: a generic image of the whole module tree cost 70 s of each of the
# trigger's rebuilds (four in a run). What is checked is drvfilter's part of
# the images, which still runs every kernel step (99drvfilter-blacklist
# computes the image's blacklist from the kernel's module tree there).
mkdir -p "$root/etc/dracut.conf.d" &&
	echo 'omit_dracutmodules+=" kernel-modules kernel-modules-extra kernel-network-modules qemu qemu-net "' \
		>"$root/etc/dracut.conf.d/00-test-small.conf" || exit 1
in_root() {
	chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
deb=$(ls "$out"/drvfilter_*_*.deb) || exit 1
dsc=$(ls "$out"/drvfilter_*.dsc) || exit 1
cp "$deb" "$root/tmp/" || exit 1
deb_in_root=/tmp/$(basename "$deb")
fail=0
no() { echo "FAIL: $*" && fail=1; }
# shellcheck disable=SC2016 # a dpkg-query format, not a shell expansion
installed() { in_root dpkg-query -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }

# Kernels whose initramfs dracut's trigger handler rebuilds: the root has
# both, so the check always runs.
kernels=
installed dracut || no "the scratch root lacks dracut, which serves the trigger"
for k in "$root"/boot/vmlinu[zx]-*; do
	k=${k#"$root"/boot/vmlinu?-}
	[ -d "$root/lib/modules/$k" ] && kernels="$kernels $k"
done
[ -n "$kernels" ] || no "the scratch root has no kernel whose initramfs the trigger rebuilds"
touch "$tmp/start"
sleep 1

in_root apt-get install -y -q "$deb_in_root" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" && no "apt install $(basename "$deb") failed"; }
installed drvfilter || no "drvfilter is not installed after apt install"
grep -q 'drvfilter: dracut rebuilds every initramfs with drvfilter' "$tmp/install.log" ||
	no "the install did not say that dracut rebuilds the initramfs"
[ -L "$root/lib/systemd/system/sysinit.target.wants/drvfilter-apply.service" ] ||
	no "drvfilter-apply.service is not pulled in by sysinit.target"
for kver in $kernels; do
	img=/boot/initrd.img-$kver
	if [ -z "$(find "$root$img" -newer "$tmp/start" 2>/dev/null)" ]; then
		no "the trigger did not rebuild $img"
		continue
	fi
	in_root lsinitrd -f etc/drvfilter.conf "$img" | cmp -s - "$root/etc/drvfilter.conf" ||
		no "$img does not carry /etc/drvfilter.conf"
	in_root lsinitrd "$img" >"$tmp/list" 2>&1
	grep -q ' usr/sbin/drvfilter-apply$' "$tmp/list" || no "$img does not carry drvfilter-apply"
	grep -q ' etc/modprobe.d/drvfilter-initramfs.conf$' "$tmp/list" ||
		no "$img does not carry its own blacklist (99drvfilter-blacklist)"
done
echo "the trigger rebuilt the initramfs of:$kernels"

# The chroot runner runs the tests in this root, on the package apt
# installed above (-B: no binaries of its own; the installed drvfilter
# satisfies each test's Depends). Given the .changes, it reinstalled the
# .deb before each test, and each reinstall fired dracut's trigger: 25 s
# apiece for nothing.
if ! autopkgtest --no-built-binaries "$dsc" -- chroot "$root" >"$tmp/autopkgtest.log" 2>&1; then
	cat "$tmp/autopkgtest.log"
	no "autopkgtest failed"
fi
sed -n '/@@@@ summary/,$p' "$tmp/autopkgtest.log" | grep -E ' (PASS|FAIL|SKIP)' || true

purged() {
	in_root apt-get purge -y -q drvfilter >"$tmp/purge.log" 2>&1 ||
		{ cat "$tmp/purge.log" && no "apt-get purge drvfilter failed"; }
	for f in /usr/sbin/drvfilter-apply /etc/drvfilter.conf /usr/lib/dracut/modules.d/90drvfilter; do
		[ ! -e "$root$f" ] || no "$f is still there after the purge"
	done
}
purged
grep -q 'drvfilter: dracut rebuilds every initramfs without drvfilter' "$tmp/purge.log" ||
	no "the removal did not say that dracut rebuilds the initramfs"
# The removal's trigger rebuilt them again, without drvfilter.
for kver in $kernels; do
	in_root lsinitrd "/boot/initrd.img-$kver" | grep -q 'drvfilter-apply\|etc/drvfilter\.conf$\|90drvfilter' &&
		no "/boot/initrd.img-$kver still carries drvfilter after the purge"
done

# initramfs-tools serves the trigger in dracut's place (Debian's and
# Ubuntu's default builder): apt replaces dracut with it (they conflict) and
# keeps the kernel, which needs one of them; MODULES=list keeps its images
# small.
echo MODULES=list >"$root/etc/initramfs-tools/conf.d/zz-test-small" || exit 1
in_root sh -c 'apt-get install -y -q /root/initramfs-tools_*.deb' >"$tmp/itools.log" 2>&1 ||
	{ cat "$tmp/itools.log" && no "apt install initramfs-tools failed"; }
installed dracut && no "installing initramfs-tools left dracut installed"
touch "$tmp/start"
sleep 1
in_root apt-get install -y -q "$deb_in_root" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" && no "apt install $(basename "$deb") with initramfs-tools failed"; }
grep -q "drvfilter: initramfs-tools rebuilds the newest kernel's initramfs with drvfilter" "$tmp/install.log" ||
	no "the install did not say that initramfs-tools rebuilds the initramfs"
for kver in $kernels; do
	img=/boot/initrd.img-$kver
	[ -n "$(find "$root$img" -newer "$tmp/start" 2>/dev/null)" ] ||
		no "initramfs-tools' trigger did not rebuild $img"
	in_root lsinitramfs "$img" >"$tmp/list" 2>&1
	for f in usr/sbin/drvfilter-apply etc/drvfilter.conf scripts/init-top/drvfilter; do
		grep -qx "$f" "$tmp/list" || no "initramfs-tools' $img does not carry /$f"
	done
done
purged
grep -q "drvfilter: initramfs-tools rebuilds the newest kernel's initramfs without drvfilter" "$tmp/purge.log" ||
	no "the removal did not say that initramfs-tools rebuilds the initramfs"
for kver in $kernels; do
	in_root lsinitramfs "/boot/initrd.img-$kver" | grep -q 'drvfilter' &&
		no "initramfs-tools' /boot/initrd.img-$kver still carries drvfilter after the purge"
done

# With dracut-core alone nothing rebuilds the initramfs: the admin is told.
# (The kernel goes with initramfs-tools: it needs a builder.)
in_root apt-get remove -y -q initramfs-tools >"$tmp/remove.log" 2>&1 ||
	{ cat "$tmp/remove.log" && no "apt-get remove initramfs-tools failed"; }
installed dracut-core || no "removing initramfs-tools took dracut-core with it"
in_root apt-get install -y -q "$deb_in_root" >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" && no "apt install $(basename "$deb") with dracut-core alone failed"; }
grep -q 'no initramfs carries drvfilter yet' "$tmp/install.log" ||
	no "the install without dracut did not say the initramfs must be built"
purged
grep -q 'the initramfs still carries drvfilter' "$tmp/purge.log" ||
	no "the removal without dracut did not say the initramfs must be rebuilt"

[ "$fail" = 0 ] && echo "ok: apt install, autopkgtest (chroot runner) and purge of $(basename "$deb") in a scratch root"
exit $fail
