#!/bin/sh
# One guest of the boot tests: build its initramfs with the real dracut from
# the staged release build (stage.sh) and boot it (boot-guest.sh). What the
# guest left (console, cmdline.json, dracut.log, initrd.img) goes to OUT for
# the checks (check-scenario.sh), each a CTest test of its own that requires
# this boot as its fixture: a guest boots once, whatever it is checked for.
#   boot-scenario.sh STAGE SCENARIO-DIR OUT [SERIES]
# SERIES (6.1, 6.12) picks the stock kernel of a scenario without a kernel
# file (stock-kernel.sh SERIES; default: Debian's default kernel, 6.1). A
# scenario's stock-series file names the series it also boots on besides the
# default (ctest boot/SCENARIO@SERIES). Fails unless the guest reported.
set -eu
stage=$(cd "$1" && pwd)
scenario=$(cd "$2" && pwd)
out=$3
series=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
# The image's builder, in the scenario's builder file: dracut (the default) or
# initramfs-tools.
GUEST_BUILDER=$(cat "$scenario/builder" 2>/dev/null || echo dracut)
export GUEST_BUILDER
for tool in qemu-system-x86_64 "$(echo "$GUEST_BUILDER" | sed 's/^initramfs-tools$/mkinitramfs/')"; do
	command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-deps boot" >&2; exit 77; }
done
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A scenario names the patched kernel it boots in its kernel file; else Debian's stock one.
if [ -e "$scenario/kernel" ]; then
	[ -z "$series" ] || { echo "boot-scenario: $scenario boots a patched kernel, not a stock $series" >&2; exit 2; }
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
		target=$(sh "$here/record-kernel.sh" "$stage" "$kdir")
	fi
	"$stage/usr/sbin/drvfilterctl" --sysroot "$target" --policy "$policy" --json cmdline >"$out/cmdline.json"
	GUEST_APPEND="$GUEST_APPEND $("$stage/usr/sbin/drvfilterctl" --sysroot "$target" --policy "$policy" cmdline)"
fi
export GUEST_APPEND
echo "boot-scenario: $(basename "$scenario") on $(basename "$kdir")"
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
# ... whether the helper's runs by udev are written down (udev-runs) ...
DRVFILTER_TEST_UDEV_RUNS=
[ -e "$scenario/udev-runs" ] && DRVFILTER_TEST_UDEV_RUNS=1
export DRVFILTER_TEST_UDEV_RUNS
# ... whether the guest has a TPM (swtpm: Debian's swtpm as its TPM 2.0) ...
GUEST_SWTPM=
if [ -e "$scenario/swtpm" ]; then
	command -v swtpm >/dev/null || { echo "swtpm is missing: scripts/install-deps attest" >&2; exit 77; }
	GUEST_SWTPM=1
fi
export GUEST_SWTPM
# ... whether it boots as a cloud CVM (uefi: a signed UKI under OVMF's Secure
# Boot, boot-guest.sh) ...
GUEST_UEFI=
if [ -e "$scenario/uefi" ]; then
	for f in /usr/share/OVMF/OVMF_CODE_4M.snakeoil.fd /usr/share/ovmf/PkKek-1-snakeoil.key \
		/usr/lib/systemd/boot/efi/linuxx64.efi.stub "$(command -v sbsign)" "$(command -v mkfs.vfat)" \
		"$(command -v mcopy)" "$(command -v tpm2_checkquote)"; do
		[ -e "$f" ] || { echo "a UEFI guest needs ${f:-a tool}: scripts/install-deps attest" >&2; exit 77; }
	done
	GUEST_UEFI=1
fi
export GUEST_UEFI
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
	[ -z "$series" ] || { echo "boot-scenario: $scenario's real root is for the default stock kernel, not $series" >&2; exit 2; }
	base=$(sh "$here/real-root.sh") || exit $?
	root_policy=$policy
	[ ! -e "$scenario/root.conf" ] || root_policy=$scenario/root.conf
	sh "$here/inject-root.sh" "$base" "$tmp/root.img" "$stage" "$root_policy" "$here/real-root/files"
	GUEST_ROOT=$tmp/root.img DRVFILTER_TEST_REAL_ROOT=1
fi
export GUEST_ROOT DRVFILTER_TEST_REAL_ROOT
sh "$here/boot-guest.sh" "$stage" "$kdir" "$policy" "$out"
echo "$series" >"$out/series"
if ! grep -q '^DRVFILTER-DONE' "$out/console"; then
	echo "the guest did not report; the end of its console:"
	tail -n 40 "$out/console"
	exit 1
fi
sed -n '/^DRVFILTER-STATUS-BEGIN/,/^DRVFILTER-STATUS-END/p' "$out/console" | grep -v '^\[ *[0-9.]*\]'
# The helper's own time in the guest (TCG), from its state file: the boot cost.
usec=$(sed -n '/^DRVFILTER-STATE-BEGIN/,/^DRVFILTER-STATE-END/p' "$out/console" |
	sed -n 's/^ *"duration_usec": \([0-9]*\),*$/\1/p')
echo "BOOT-COST: drvfilter-apply took ${usec:-?} us in the guest"
# With DRVFILTER_TEST_STRACE=1: where that time went (strace -c -w of its run).
grep '^DRVFILTER-STRACE: ' "$out/console" | sed 's/^DRVFILTER-STRACE: /  /' || true
