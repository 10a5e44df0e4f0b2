#!/bin/sh
# The boot tests' image cache (image-cache.sh) hands a guest an image built
# before only when that image's inputs are the same: its key is the same for
# a copy of the stage elsewhere (a fresh clone), and differs when a staged
# file, its mode, the policy, a drop-in, the kernel or a builder knob does.
#   image-cache-key.sh STAGE
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" && fail=1; }

mkdir -p "$tmp/k1/boot" "$tmp/k1/lib/modules/6.1.0-test" "$tmp/a" "$tmp/b/deeper"
echo kernel >"$tmp/k1/boot/vmlinuz-6.1.0-test"
echo "kernel/x.ko:" >"$tmp/k1/lib/modules/6.1.0-test/modules.dep"
cp -a "$tmp/k1" "$tmp/k2"
echo "kernel/y.ko:" >>"$tmp/k2/lib/modules/6.1.0-test/modules.dep"
cp -a "$1" "$tmp/a/stage"
cp -a "$1" "$tmp/b/deeper/stage"
printf '[allow]\npci = virtio-pci\n' >"$tmp/a/policy.conf"
cp "$tmp/a/policy.conf" "$tmp/b/deeper/policy.conf"

# k [NAME=VALUE...] STAGE KERNEL-DIR POLICY: the key, with those knobs alone.
k() {
	knobs=
	while [ $# -gt 3 ]; do
		knobs="$knobs $1"
		shift
	done
	# shellcheck disable=SC2086 # one word per knob
	env -u DRACUT_MODULES -u DRACUT_DRIVERS -u GUEST_BUILDER -u GUEST_SWTPM $knobs \
		sh "$here/image-cache.sh" key "$@"
}
base=$(k "$tmp/a/stage" "$tmp/k1" "$tmp/a/policy.conf")
[ ${#base} = 32 ] || no "the key is not 32 hex digits: '$base'"
[ "$(k "$tmp/b/deeper/stage" "$tmp/k1" "$tmp/b/deeper/policy.conf")" = "$base" ] ||
	no "a copy of the stage and policy elsewhere has another key"
[ "$(k DRVFILTER_TEST_UNRELATED_TO_IMAGES= "$tmp/a/stage" "$tmp/k1" "$tmp/a/policy.conf")" != "$base" ] ||
	no "a DRVFILTER_TEST_ knob in the environment does not change the key"

# differs WHAT: the key now is not the base one.
differs() {
	now=$(k "$tmp/a/stage" "$tmp/k1" "$tmp/a/policy.conf")
	if [ "$now" = "$base" ]; then
		no "$1 does not change the key"
	else
		echo "PASS: $1 changes the key"
	fi
}
[ "$(k "$tmp/a/stage" "$tmp/k2" "$tmp/a/policy.conf")" != "$base" ] ||
	no "another kernel's module index does not change the key"
[ "$(k DRACUT_MODULES=systemd "$tmp/a/stage" "$tmp/k1" "$tmp/a/policy.conf")" != "$base" ] ||
	no "DRACUT_MODULES does not change the key"
[ "$(k GUEST_SWTPM=1 "$tmp/a/stage" "$tmp/k1" "$tmp/a/policy.conf")" != "$base" ] ||
	no "GUEST_SWTPM does not change the key"
printf '[deny]\npci = e1000\n' >>"$tmp/a/policy.conf"
differs "the policy's contents"
printf '[allow]\npci = virtio-pci\n' >"$tmp/a/policy.conf"
mkdir "$tmp/a/policy.conf.d"
printf '[deny]\npci = e1000\n' >"$tmp/a/policy.conf.d/10-nic.conf"
differs "a drop-in"
rm -rf "$tmp/a/policy.conf.d"
helper=$tmp/a/stage/usr/sbin/drvfilter-apply
[ -f "$helper" ] || no "the stage has no $helper"
chmod 0700 "$helper"
differs "a staged file's mode"
chmod --reference="$1/usr/sbin/drvfilter-apply" "$helper"
printf 'x' >>"$helper"
differs "a staged file's contents"
exit $fail
