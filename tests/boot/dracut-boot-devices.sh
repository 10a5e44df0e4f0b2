#!/bin/sh
# The gate holds a policy to what this machine boots from: a policy that
# denies every driver (this machine's root disk's and console's included)
# stops the dracut run with check's guard, before any image is written;
# drvfilter_other_machine=yes (an image built here for another machine)
# lets it through. Skipped on a machine whose root file system and console
# have no driver to deny (a container).
#   dracut-boot-devices.sh BUILD-DIR
set -eu
command -v dracut >/dev/null || { echo "dracut is missing: scripts/install-deps boot" >&2; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DESTDIR=$tmp/stage cmake --install "$1" --prefix /usr >/dev/null
sh "$here/../fixtures/mksysroot" "$tmp/root" "$here/../fixtures/guest.spec"
kver=6.1.0-fixture
printf '[filter]\ndefault = deny\nmeasure = no\n' >"$tmp/none.conf"
if "$tmp/stage/usr/sbin/drvfilterctl" check "$tmp/none.conf" >/dev/null 2>&1; then
	echo "SKIP: this machine's root file system and console need no driver the policy could deny"
	exit 77
fi
sh "$here/scratch-dracut.sh" "$tmp/stage" "$tmp/dracut"
mkdir -p "$tmp/confd"
build() {
	drvfilter_prefix=$tmp/stage drvfilter_policy=$tmp/none.conf dracutbasedir=$tmp/dracut \
		dracut --force --conf /dev/null --confdir "$tmp/confd" --no-hostonly --no-kernel \
		--modules "base drvfilter" --kver "$kver" --kmoddir "$tmp/root/lib/modules/$kver" \
		"$1" >"$2" 2>&1
}
status=0
if build "$tmp/guarded.img" "$tmp/guarded.log"; then
	echo "FAIL: dracut built an image that denies this machine's boot devices"
	status=1
fi
grep -q "none.conf:2: error: the policy denies .*, which the \(root file system\|console\) .* needs" "$tmp/guarded.log" ||
	{ echo "FAIL: the guard's message is missing"; status=1; }
[ ! -e "$tmp/guarded.img" ] || { echo "FAIL: an image was written"; status=1; }
[ $status = 0 ] || cat "$tmp/guarded.log"
# Last: dash may keep an assignment made for a function call.
if ! drvfilter_other_machine=yes build "$tmp/other.img" "$tmp/other.log"; then
	echo "FAIL: with drvfilter_other_machine=yes, the image was not built"
	cat "$tmp/other.log"
	status=1
fi
[ $status = 0 ] && echo "PASS: a policy denying this machine's boot devices stopped dracut (not with drvfilter_other_machine=yes)"
exit $status
