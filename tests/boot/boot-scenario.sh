#!/bin/sh
# One boot scenario: install the build into a staging tree, build an initramfs
# with the real dracut and boot it (boot-guest.sh), then check the console
# with the scenario's expect.sh.
#   run-scenario.sh BUILD-DIR SCENARIO-DIR [SERIES]
# SERIES (6.1, 6.12) picks the stock kernel of a scenario without a kernel
# file (stock-kernel.sh SERIES; default: Debian's default kernel, 6.1); the
# expect.sh sees it as $series (empty: the default) for the few checks whose
# answer differs between the series. A scenario's stock-series file names
# the series it also runs on besides the default (ctest boot/SCENARIO@SERIES).
# BOOT_KEEP=DIR keeps what the boot left (console, dracut.log, initrd.img).
# shellcheck disable=SC2317 # the checks are called through expect()
set -eu
build=$1
scenario=$2
series=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
for tool in qemu-system-x86_64 dracut; do
	command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-deps boot" >&2; exit 77; }
done
tmp=$(mktemp -d)
# BOOT_KEEP=DIR keeps the guest's console, dracut log and image there.
trap '[ -z "${BOOT_KEEP:-}" ] || { rm -rf "$BOOT_KEEP" && cp -a "$tmp/out" "$BOOT_KEEP"; }; rm -rf "$tmp"' EXIT
DESTDIR=$tmp/stage cmake --install "$build" --prefix /usr >/dev/null
# A scenario names the patched kernel it boots in its kernel file; else Debian's stock one.
if [ -e "$scenario/kernel" ]; then
	[ -z "$series" ] || { echo "run-scenario: $scenario boots a patched kernel, not a stock $series" >&2; exit 2; }
	kdir=$(sh "$here/../../kernel-patch/build-kernel" "$(cat "$scenario/kernel")")
else
	kdir=$(sh "$here/stock-kernel.sh" "$series")
fi
# The policy (a scenario may link to the shipped one).
policy=$(readlink -f "$scenario/policy.conf")
# A scenario's extra kernel arguments, if any, are in its append file; with a
# cmdline file, the boot options `drvfilterctl cmdline` computes for its policy
# and its kernel too: the patched kernel's tree, or a recording of the stock
# kernel (record-kernel.sh, cached).
GUEST_APPEND=$(cat "$scenario/append" 2>/dev/null || true)
if [ -e "$scenario/cmdline" ]; then
	if [ -e "$scenario/kernel" ]; then
		target=$kdir
	else
		target=$(sh "$here/record-kernel.sh" "$tmp/stage" "$kdir")
	fi
	"$tmp/stage/usr/sbin/drvfilterctl" --sysroot "$target" --policy "$policy" --json cmdline >"$tmp/cmdline.json"
	GUEST_APPEND="$GUEST_APPEND $("$tmp/stage/usr/sbin/drvfilterctl" --sysroot "$target" --policy "$policy" cmdline)"
fi
export GUEST_APPEND
echo "run-scenario: $(basename "$scenario") on $(basename "$kdir")"
# ... a module file for insmod to try inside the guest, named in its insmod file
# (6.12's modules are .ko.xz: insmod knows the format by its magic) ...
DRVFILTER_TEST_INSMOD=
if [ -e "$scenario/insmod" ]; then
	m=$(cat "$scenario/insmod")
	DRVFILTER_TEST_INSMOD=$(find "$kdir/lib/modules" \( -name "$m.ko" -o -name "$m.ko.*" \) | head -n 1)
fi
export DRVFILTER_TEST_INSMOD
# ... whether the test module spoils the policy inside the image (break-policy) ...
DRVFILTER_TEST_BREAK_POLICY=
[ -e "$scenario/break-policy" ] && DRVFILTER_TEST_BREAK_POLICY=1
export DRVFILTER_TEST_BREAK_POLICY
# ... whether the guest has a TPM (swtpm: Debian's swtpm as its TPM 2.0) ...
GUEST_SWTPM=
if [ -e "$scenario/swtpm" ]; then
	command -v swtpm >/dev/null || { echo "swtpm is missing: scripts/install-deps attest" >&2; exit 77; }
	GUEST_SWTPM=1
fi
export GUEST_SWTPM
# ... more QEMU arguments, if any, in its qemu file ...
GUEST_QEMU=$(cat "$scenario/qemu" 2>/dev/null || true)
export GUEST_QEMU
# ... and its dracut modules (the initrd's flavour) in its dracut-modules file,
# extra kernel modules for the image in its drivers file, the longest the boot
# may take in its timeout file.
DRACUT_MODULES=$(cat "$scenario/dracut-modules" 2>/dev/null || echo base)
DRACUT_DRIVERS=$(cat "$scenario/drivers" 2>/dev/null || true)
GUEST_TIMEOUT=$(cat "$scenario/timeout" 2>/dev/null || echo 300)
export DRACUT_MODULES DRACUT_DRIVERS GUEST_TIMEOUT
# A scenario with a real-root file boots on into a real root (real-root.sh,
# cached) that carries the build and its policy (root.conf if the scenario
# has one, else the scenario's policy) and reports from there.
GUEST_ROOT='' DRVFILTER_TEST_REAL_ROOT=''
# (real-root.sh's root carries the default stock kernel's modules: that kernel only.)
if [ -e "$scenario/real-root" ]; then
	[ -z "$series" ] || { echo "run-scenario: $scenario's real root is for the default stock kernel, not $series" >&2; exit 2; }
	base=$(sh "$here/real-root.sh") || exit $?
	root_policy=$policy
	[ ! -e "$scenario/root.conf" ] || root_policy=$scenario/root.conf
	sh "$here/inject-root.sh" "$base" "$tmp/root.img" "$tmp/stage" "$root_policy"
	GUEST_ROOT=$tmp/root.img DRVFILTER_TEST_REAL_ROOT=1
fi
export GUEST_ROOT DRVFILTER_TEST_REAL_ROOT
sh "$here/boot-guest.sh" "$tmp/stage" "$kdir" "$policy" "$tmp/out"
console=$tmp/out/console
# The sections the report hook prints, without the kernel's interleaved lines.
section() { sed -n "/^$1-BEGIN/,/^$1-END/p" "$console" | grep -v '^\[ *[0-9.]*\]'; }
not_in_modules() { ! grep -q "^DRVFILTER-MODULES:.* $1 " "$console" && ! grep -q "^DRVFILTER-MODULES: $1 " "$console"; }
in_modules() { grep -q "^DRVFILTER-MODULES:.* $1 " "$console" || grep -q "^DRVFILTER-MODULES: $1 " "$console"; }
pci_driver() { grep -q "^DRVFILTER-PCI: [^ ]* 0x${1%%:*}:0x${1#*:} $2\$" "$console"; }
not_state_has() { ! state_has "$1"; }
filter_is() { grep -qx "DRVFILTER-FILTER: $1" "$console"; }
console_has() { grep -q "$1" "$console"; }
not_console_has() { ! console_has "$1"; }
json_has() { section DRVFILTER-JSON | grep -q "$1"; }
# status's text with its wrapped lines joined (unwrap-status.awk).
status_text_has() { section DRVFILTER-STATUS | awk -f "$here/unwrap-status.awk" | grep -q "$1"; }
state_has() { section DRVFILTER-STATE | grep -q "$1"; }
initrd_state_has() { section DRVFILTER-INITRD-STATE | grep -q "$1"; }
not_in_initrd_modules() { ! grep -q "^DRVFILTER-INITRD-MODULES:.* $1 " "$console"; }
# dmesg lines carry timestamps like the kernel's own: the raw range here.
kmsg_has() { sed -n '/^DRVFILTER-KMSG-BEGIN/,/^DRVFILTER-KMSG-END/p' "$console" | grep -q "$1"; }
# Drivers registered in the guest (BUS:DRIVER, blanks and all).
registered() { grep -qxF "DRVFILTER-DRIVER: $1" "$console"; }
not_registered() { ! registered "$1"; }
# Every driver the boot options keep from running (cmdline --json) is absent.
none_registered_of_options() {
	jq -r '.initcall_blacklist[] | select(.fits) | .drivers[]' "$tmp/cmdline.json" >"$tmp/kept"
	[ -s "$tmp/kept" ] || return 1
	while IFS= read -r d; do
		registered "$d" && echo "  $d registered" && return 1
	done <"$tmp/kept"
	return 0
}
not_kmsg_has() { ! kmsg_has "$1"; }
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
# With DRVFILTER_TEST_STRACE=1: where that time went (strace -c -w of its run).
grep '^DRVFILTER-STRACE: ' "$console" | sed 's/^DRVFILTER-STRACE: /  /' || true
# shellcheck disable=SC1091 # the scenario's checks
. "$scenario/expect.sh"
exit $fail
