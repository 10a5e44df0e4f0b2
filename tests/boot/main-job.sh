#!/bin/sh
# The main job as a fresh Debian 12 machine runs it: scripts/run-guest with
# no test-only package visible to the build (pkg-config cannot see Check),
# in the release build that boot/stage configured the same way (stage.sh
# checks that it needs no Check). The stock kernel and its recording come
# from the cache the boot tests share, keyed by their inputs: on a machine
# with an empty cache the reference boot records the kernel here or in the
# scenario that needed it first (record-kernel.sh holds a lock). It must exit
# 0 and end with no violation and status exit 0 (on 6.12, with its one
# drift, status exit 3).
#   main-job.sh SOURCE-DIR BUILD-DIR WORK-DIR [SERIES]
# SERIES: the stock kernel's, as run-guest --kernel takes it (default: 6.1).
set -eu
src=$1
build=$2
work=$3
series=${4:-}
for tool in qemu-system-x86_64 dracut pkg-config; do
	command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-deps boot" >&2; exit 77; }
done
rm -rf "$work"
mkdir -p "$work"
# pkg-config without Check: the directory stage.sh made beside the build.
pkgconfig=$(dirname "$build")/pkgconfig
PKG_CONFIG_LIBDIR=$pkgconfig pkg-config --exists check && { echo "Check is still visible" >&2; exit 1; }
status=0
set --
[ -z "$series" ] || set -- --kernel "$series"
PKG_CONFIG_LIBDIR=$pkgconfig \
	sh "$src/scripts/run-guest" "$@" --build-dir "$build" >"$work/out" 2>"$work/err" || status=$?
cat "$work/out"
fail=0
check() {
	if grep -q "$2" "${3:-$work/out}"; then
		echo "PASS: $1"
	else
		echo "FAIL: $1 ($2)"
		fail=1
	fi
}
if [ "$status" = 0 ]; then
	echo "PASS: run-guest exits 0"
else
	echo "FAIL: run-guest exits $status"
	tail -n 30 "$work/err"
	fail=1
fi
if grep -q '^record-kernel: \(a recording boot\|the recording\) of ' "$work/err"; then
	echo "PASS: the boot options come from a reference boot's recording of the kernel"
else
	echo "FAIL: no reference boot recorded the kernel"
	fail=1
fi
if [ -n "$series" ]; then
	if grep -q "^run-guest: booting linux-image-${series}[.]" "$work/err"; then
		echo "PASS: it booted the $series stock kernel"
	else
		echo "FAIL: it did not boot the $series stock kernel"
		fail=1
	fi
fi
check "the guest booted with the boot options" '^=== boot options (drvfilterctl --sysroot RECORDING cmdline'
check "they skip i8042's init call" 'initcall_blacklist=[a-z0-9_,]*i8042_init'
check "status inside the guest: no violation" '^Violations: none$'
# status wraps at the console's 80 columns: its lines with each one joined.
awk -f "$(dirname "$0")/unwrap-status.awk" "$work/out" >"$work/joined"
if [ "$series" = 6.12 ]; then
	# On 6.12 xhci_pci_renesas builds on xhci_pci: the options from the whole
	# module tree leave xhci_pci out, the initramfs (without xhci_pci_renesas)
	# computes it, and status there names that one option as missing
	# (tests/boot/scenarios/stock-cmdline/expect.sh).
	check "status inside the guest: the one drift of 6.12" '^Drift: *the kernel command line lacks boot options computed for this system (module_blacklist: xhci_pci):' "$work/joined"
	check "status exits 3 (6.12: that drift)" 'status exit code: 3 ===$'
else
	check "status inside the guest: no drift" '^Drift: *none'
	check "status exits 0" 'status exit code: 0 ===$'
fi
rm -rf "$work"
exit $fail
