#!/bin/sh
# The package on this host, as an admin installs it: apt install of the .deb
# build-deb.sh built into OUT-DIR, then its autopkgtest (debian/tests) with
# the null runner, which runs the tests here against the installed package
# (the .changes names the source package, whose debian/tests it unpacks).
# When dracut (the package, which serves the update-initramfs trigger) is
# installed with a kernel in /boot, the trigger's rebuilt initramfs must
# carry the policy, and after the purge no longer carry drvfilter (each
# install and removal rebuilds them: a minute or so per kernel). The package
# is purged at the end, so that the host is as it was; a drvfilter installed
# before is not this test's to remove (skip). Root only (apt); skipped (77)
# otherwise. Other tests read the host's /etc and dracut's modules: CTest
# runs this one alone (RUN_SERIAL).
# Usage: autopkgtest.sh OUT-DIR
set -u
out=$(cd "$1" && pwd)
[ "$(id -u)" = 0 ] || { echo "skipped: apt install and the null runner need root"; exit 77; }
command -v autopkgtest >/dev/null || { echo "skipped: autopkgtest is missing (scripts/install-deps deb)"; exit 77; }
installed() { dpkg-query -W -f '${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }
if installed drvfilter; then
	echo "skipped: drvfilter is installed on this host already; this test would purge it"
	exit 77
fi
deb=$(ls "$out"/drvfilter_*_*.deb) || exit 1
changes=$(ls "$out"/drvfilter_*_*.changes) || exit 1
tmp=$(mktemp -d) || exit 1
export DEBIAN_FRONTEND=noninteractive
purge() { apt-get purge -y -q drvfilter >"$tmp/purge.log" 2>&1; }
trap 'purge; rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" && fail=1; }

# Kernels whose initramfs dracut's trigger handler rebuilds.
kernels=
if installed dracut; then
	for k in /boot/vmlinu[zx]-*; do
		[ -e "$k" ] && [ -d "/lib/modules/${k#/boot/vmlinu?-}" ] && kernels="$kernels ${k#/boot/vmlinu?-}"
	done
fi
touch "$tmp/start"
sleep 1

apt-get install -y -q "$deb" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log" && no "apt install $deb failed"; }
installed drvfilter || no "drvfilter is not installed after apt install"
[ -L /lib/systemd/system/sysinit.target.wants/drvfilter-apply.service ] ||
	no "drvfilter-apply.service is not pulled in by sysinit.target"
for kver in $kernels; do
	img=/boot/initrd.img-$kver
	if [ -z "$(find "$img" -newer "$tmp/start" 2>/dev/null)" ]; then
		no "the trigger did not rebuild $img"
		continue
	fi
	lsinitrd -f etc/drvfilter.conf "$img" | cmp -s - /etc/drvfilter.conf ||
		no "$img does not carry /etc/drvfilter.conf"
	lsinitrd "$img" | grep -q ' usr/sbin/drvfilter-apply$' || no "$img does not carry drvfilter-apply"
done
[ -n "$kernels" ] && echo "the trigger rebuilt the initramfs of:$kernels"
[ -n "$kernels" ] || echo "the trigger's rebuild is not checked: no dracut package, or no kernel in /boot"

if ! autopkgtest "$changes" -- null >"$tmp/autopkgtest.log" 2>&1; then
	cat "$tmp/autopkgtest.log"
	no "autopkgtest failed"
fi
sed -n '/@@@@ summary/,$p' "$tmp/autopkgtest.log" | grep -E ' (PASS|FAIL|SKIP)' || true

purge || { cat "$tmp/purge.log" && no "apt-get purge drvfilter failed"; }
for f in /usr/sbin/drvfilter-apply /etc/drvfilter.conf /usr/lib/dracut/modules.d/90drvfilter; do
	[ ! -e "$f" ] || no "$f is still there after the purge"
done
grep -q 'the initramfs still carries drvfilter' "$tmp/purge.log" || installed dracut ||
	no "the removal did not say the initramfs must be rebuilt"
# The removal's trigger rebuilt them again, without drvfilter.
for kver in $kernels; do
	lsinitrd "/boot/initrd.img-$kver" | grep -q 'drvfilter-apply\|etc/drvfilter\.conf$\|90drvfilter' &&
		no "/boot/initrd.img-$kver still carries drvfilter after the purge"
done
[ "$fail" = 0 ] && echo "ok: apt install, autopkgtest (null runner) and purge of $(basename "$deb")"
exit $fail
