#!/bin/sh
# One boot scenario: install the build into a staging tree, build an initramfs
# with the real dracut and boot it (boot-guest.sh), then check the console
# with the scenario's expect.sh.
#   run-scenario.sh BUILD-DIR SCENARIO-DIR
# shellcheck disable=SC2317 # the checks are called through expect()
set -eu
build=$1
scenario=$2
here=$(cd "$(dirname "$0")" && pwd)
for tool in qemu-system-x86_64 dracut; do
	command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-deps boot" >&2; exit 77; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DESTDIR=$tmp/stage cmake --install "$build" --prefix /usr >/dev/null
# A scenario names the patched kernel it boots in its kernel file; else Debian's stock one.
if [ -e "$scenario/kernel" ]; then
	kdir=$(sh "$here/../../kernel-patch/build-kernel" "$(cat "$scenario/kernel")")
else
	kdir=$(sh "$here/stock-kernel.sh")
fi
# A scenario's extra kernel arguments, if any, are in its append file; with a
# cmdline file, the boot options `drvfilterctl cmdline` prints for its policy too.
GUEST_APPEND=$(cat "$scenario/append" 2>/dev/null || true)
if [ -e "$scenario/cmdline" ]; then
	GUEST_APPEND="$GUEST_APPEND $("$tmp/stage/usr/sbin/drvfilterctl" --policy "$scenario/policy.conf" cmdline)"
fi
export GUEST_APPEND
# ... whether the test module spoils the policy inside the image (break-policy) ...
DRVFILTER_TEST_BREAK_POLICY=
[ -e "$scenario/break-policy" ] && DRVFILTER_TEST_BREAK_POLICY=1
export DRVFILTER_TEST_BREAK_POLICY
# ... and its dracut modules (the initrd's flavour) in its dracut-modules file.
DRACUT_MODULES=$(cat "$scenario/dracut-modules" 2>/dev/null || echo base)
export DRACUT_MODULES
# ... and extra QEMU devices in its devices file.
GUEST_DEVICES=$(cat "$scenario/devices" 2>/dev/null || true)
export GUEST_DEVICES
sh "$here/boot-guest.sh" "$tmp/stage" "$kdir" "$scenario/policy.conf" "$tmp/out"
console=$tmp/out/console
# The sections the report hook prints, without the kernel's interleaved lines.
section() { sed -n "/^$1-BEGIN/,/^$1-END/p" "$console" | grep -v '^\[ *[0-9.]*\]'; }
not_in_modules() { ! grep -q "^DRVFILTER-MODULES:.* $1 " "$console" && ! grep -q "^DRVFILTER-MODULES: $1 " "$console"; }
in_modules() { grep -q "^DRVFILTER-MODULES:.* $1 " "$console" || grep -q "^DRVFILTER-MODULES: $1 " "$console"; }
pci_driver() { grep -q "^DRVFILTER-PCI: [^ ]* 0x${1%%:*}:0x${1#*:} $2\$" "$console"; }
not_state_has() { ! state_has "$1"; }
filter_is() { grep -qx "DRVFILTER-FILTER: $1" "$console"; }
console_has() { grep -q "$1" "$console"; }
json_has() { section DRVFILTER-JSON | grep -q "$1"; }
state_has() { section DRVFILTER-STATE | grep -q "$1"; }
# dmesg lines carry timestamps like the kernel's own: the raw range here.
kmsg_has() { sed -n '/^DRVFILTER-KMSG-BEGIN/,/^DRVFILTER-KMSG-END/p' "$console" | grep -q "$1"; }
fail=0
expect() {
	what=$1
	shift
	if "$@"; then
		echo "PASS: $what"
	else
		echo "FAIL: $what ($*)"
		fail=1
	fi
}
if ! grep -q '^DRVFILTER-DONE' "$console"; then
	echo "the guest did not report; the end of its console:"
	tail -n 40 "$console"
	exit 1
fi
section DRVFILTER-STATUS
# The helper's own time in the guest (TCG), from its state file: the boot cost.
usec=$(section DRVFILTER-STATE | sed -n 's/^ *"duration_usec": \([0-9]*\),*$/\1/p')
echo "BOOT-COST: drvfilter-apply took ${usec:-?} us in the guest"
# shellcheck disable=SC1091 # the scenario's checks
. "$scenario/expect.sh"
exit $fail
