#!/bin/sh
# An invalid policy must stop the dracut run with drvfilterctl check's message,
# before any image is written.
#   dracut-invalid-policy.sh BUILD-DIR
set -eu
command -v dracut >/dev/null || { echo "dracut is missing: scripts/install-deps boot" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DESTDIR=$tmp/stage cmake --install "$1" --prefix /usr >/dev/null
printf '[allow]\npci = virtio-pci\npci = e1000\n' >"$tmp/bad.conf"
sh "$(dirname "$0")/scratch-dracut.sh" "$tmp/stage" "$tmp/dracut"
mkdir -p "$tmp/confd"
kver=$(uname -r)
if drvfilter_prefix=$tmp/stage drvfilter_policy=$tmp/bad.conf drvfilter_other_machine=yes dracutbasedir=$tmp/dracut \
	dracut --force --conf /dev/null --confdir "$tmp/confd" --no-hostonly --no-kernel --modules "base drvfilter" --kver "$kver" \
	"$tmp/initrd.img" >"$tmp/log" 2>&1; then
	echo "FAIL: dracut succeeded with an invalid policy"
	exit 1
fi
status=0
grep -q "bad.conf:3: error: key 'pci' in \[allow\] given twice" "$tmp/log" ||
	{ echo "FAIL: check's message is missing"; status=1; }
grep -q "is not a valid policy for kernel $kver; not building the initramfs" "$tmp/log" ||
	{ echo "FAIL: the module's refusal is missing"; status=1; }
[ ! -e "$tmp/initrd.img" ] || { echo "FAIL: an image was written"; status=1; }
[ $status = 0 ] && echo "PASS: dracut stopped with check's message, and wrote no image"
[ $status = 0 ] || cat "$tmp/log"
exit $status
