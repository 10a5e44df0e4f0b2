#!/bin/sh
# The gate checks the policy's driver names against the kernel the image is
# built for, strictly: for a kernel other than the running one, its module
# tree (here a fixture's, mksysroot guest.spec). A misspelt driver
# (virtio_blck) stops the dracut run with check's did-you-mean, before any
# image is written, unless drvfilter_strict=no makes it a warning; the
# shipped policy passes it.
#   dracut-unknown-name.sh BUILD-DIR
set -eu
command -v dracut >/dev/null || { echo "dracut is missing: scripts/install-deps boot" >&2; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DESTDIR=$tmp/stage cmake --install "$1" --prefix /usr >/dev/null
sh "$here/../fixtures/mksysroot" "$tmp/root" "$here/../fixtures/guest.spec"
kver=6.1.0-fixture
install -m 0644 "$here/../../conf/drvfilter.conf" "$tmp/shipped.conf"
printf '[filter]\ndefault = deny\n[allow]\npci = virtio-pci\nvirtio = virtio_net, virtio_blck\n' >"$tmp/typo.conf"
sh "$here/scratch-dracut.sh" "$tmp/stage" "$tmp/dracut"
mkdir -p "$tmp/confd"
build() {
	drvfilter_prefix=$tmp/stage drvfilter_policy=$1 drvfilter_other_machine=yes dracutbasedir=$tmp/dracut \
		dracut --force --conf /dev/null --confdir "$tmp/confd" --no-hostonly --no-kernel \
		--modules "base drvfilter" --kver "$kver" --kmoddir "$tmp/root/lib/modules/$kver" \
		"$2" >"$3" 2>&1
}
status=0
if build "$tmp/typo.conf" "$tmp/typo.img" "$tmp/typo.log"; then
	echo "FAIL: dracut succeeded with a misspelt driver name"
	status=1
fi
grep -q "typo.conf:5: error: virtio:virtio_blck: this system has no driver or module of that name; did you mean virtio_blk?" "$tmp/typo.log" ||
	{ echo "FAIL: check's message is missing"; status=1; }
grep -q "is not a valid policy for kernel $kver; not building the initramfs" "$tmp/typo.log" ||
	{ echo "FAIL: the module's refusal is missing"; status=1; }
[ ! -e "$tmp/typo.img" ] || { echo "FAIL: an image was written"; status=1; }
[ $status = 0 ] || cat "$tmp/typo.log"
if ! build "$tmp/shipped.conf" "$tmp/shipped.img" "$tmp/shipped.log"; then
	echo "FAIL: the shipped policy did not pass the gate"
	cat "$tmp/shipped.log"
	status=1
fi
# Last: dash may keep an assignment made for a function call.
if ! drvfilter_strict=no build "$tmp/typo.conf" "$tmp/lax.img" "$tmp/lax.log" ||
	! grep -q "typo.conf:5: warning: virtio:virtio_blck" "$tmp/lax.log"; then
	echo "FAIL: with drvfilter_strict=no, the misspelt name is not a warning"
	cat "$tmp/lax.log"
	status=1
fi
[ $status = 0 ] && echo "PASS: a misspelt driver stopped dracut with a did-you-mean (a warning with drvfilter_strict=no); the shipped policy passed"
exit $status
