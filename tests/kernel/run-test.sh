#!/bin/sh
# Boot a patched kernel under QEMU (TCG) with a busybox initramfs and check
# the driver filter: the KTAP results of the KUnit suites (the filter's
# parser, its driver core paths, and the driver core's own property-entry
# suite), then the checks of ./init, one of them a device hot-plugged through
# QMP (QEMU's answers printed). Three short boots more (no KUnit suite,
# ./init-bootopts) check that boot options that cannot be trusted, one given
# twice, a command line cut inside a device rule, or an allow option without
# its deny option, deny every driver.
#   run-test.sh KERNEL_DIR      (bzImage, e1000.ko, test_async_driver_probe.ko
#                                and config, from kernel-patch/build-kernel)
# Prints every check; exit status 0 only when the KUnit suites and every check
# passed and the guest said it was done. A kernel built with KASAN (the debug
# variant) gets more memory and time.
set -eu
kdir=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

busybox=$(command -v busybox || echo /bin/busybox)
mkdir -p "$tmp/root/bin" "$tmp/root/lib/modules" "$tmp/root/proc" "$tmp/root/sys" "$tmp/root/dev"
cp "$busybox" "$tmp/root/bin/busybox"
cp "$here/init" "$tmp/root/init"
chmod 0755 "$tmp/root/init"
cp "$kdir/e1000.ko" "$kdir/test_async_driver_probe.ko" "$tmp/root/lib/modules/"
# The guest's usbfs client: busybox has no usbfs ioctl.
${CC:-cc} -static -Os -Wall -Werror -o "$tmp/root/bin/usbclaim" "$here/usbclaim.c"
(cd "$tmp/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$tmp/initramfs.gz"
mkdir -p "$tmp/opts/bin" "$tmp/opts/proc" "$tmp/opts/sys"
cp "$busybox" "$tmp/opts/bin/busybox"
cp "$here/init-bootopts" "$tmp/opts/init"
chmod 0755 "$tmp/opts/init"
(cd "$tmp/opts" && find . | cpio -o -H newc --quiet | gzip -1) >"$tmp/bootopts.gz"
truncate -s 1M "$tmp/disk.img"

mem=256 limit=300 irq=
if grep -q '^CONFIG_KASAN=y' "$kdir/config"; then
	mem=1024 limit=1200
	# KASAN slows ACPI's interpreter so much that QEMU's _PRT method (a
	# loop over the PCI slots) runs into ACPICA's 30 s loop timeout at each
	# PCI probe, 25 of them in the teardown check: route interrupts without
	# ACPI (the PC's $PIR table).
	irq=" acpi=noirq"
fi
log=$tmp/serial.log
# QMP over two FIFOs (QEMU's pipe backend opens both read-write): the
# hot-plug of ./init's last checks.
mkfifo "$tmp/qmp.in" "$tmp/qmp.out"
start=$(date +%s)
timeout $limit qemu-system-x86_64 -M pc -m $mem -nodefaults -no-reboot -display none \
	-serial "file:$log" -accel tcg -qmp "pipe:$tmp/qmp" \
	-kernel "$kdir/bzImage" -initrd "$tmp/initramfs.gz" \
	-append "console=ttyS0 panic=1 loglevel=7 filter_deny_drivers=ALL:ALL filter_allow_drivers=pci:virtio-pci@1af4:1041,virtio-pci@1af4:1042,xhci_hcd@1033:0194;virtio:virtio_blk;usb:usb,hub;platform:i8042$irq" \
	-drive "file=$tmp/disk.img,if=none,id=d0,format=raw" -device virtio-blk-pci,drive=d0,disable-legacy=on \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0,disable-legacy=on \
	-netdev user,id=n2 -device virtio-net-pci,netdev=n2,disable-modern=on,disable-legacy=off \
	-netdev user,id=n1 -device e1000,netdev=n1 \
	-device qemu-xhci \
	-device nec-usb-xhci,id=nec -device usb-tablet,bus=nec.0 &
qemu=$!
exec 8<>"$tmp/qmp.in" 9<>"$tmp/qmp.out"
cat <&9 >"$tmp/qmp.log" &
reader=$!
# Once the guest is locked and asks for it: a legacy virtio-net device at
# 00:10.0, which virtio-pci's device rules refuse.
while kill -0 $qemu 2>/dev/null && ! grep -q '^DRVFILTER-HOTPLUG-READY' "$log" 2>/dev/null; do
	sleep 0.5
done
printf '%s\n' '{"execute":"qmp_capabilities"}' \
	'{"execute":"device_add","arguments":{"driver":"virtio-net-pci","id":"hp0","addr":"0x10","disable-modern":true,"disable-legacy":false}}' >&8
wait $qemu || true
kill $reader 2>/dev/null || true
exec 8>&- 9<&-
echo "guest ran $(($(date +%s) - start)) s"
echo "QMP: $(grep -v '"QMP"' "$tmp/qmp.log" | tr -d '\r' | tr '\n' ' ')"

# Console lines may carry a timestamp; the KTAP lines of a suite follow "# Subtest: NAME".
sed -e 's/\r$//' -e 's/^\[ *[0-9.]*\] //' "$log" >"$tmp/console"
# KEEP_CONSOLE=FILE keeps the guest's console for a look afterwards.
[ -n "${KEEP_CONSOLE:-}" ] && cp "$tmp/console" "$KEEP_CONSOLE"
fail=0
kunit_suite() { # NAME CASE-PREFIX MIN-CASES: the suite passed, with at least that many cases
	suite=$(grep -E "^ *(not )?ok [0-9]+ (- )?$1\$" "$tmp/console" || true)
	cases_ok=$(grep -cE "^ +ok [0-9]+ (- )?$2" "$tmp/console" || true)
	cases_bad=$(grep -E "^ +not ok [0-9]+ (- )?$2" "$tmp/console" || true)
	echo "KUnit $1: ${suite:-no result} ($cases_ok cases ok)"
	case $suite in
	*"not ok"* | "") fail=1 ;;
	esac
	[ -n "$cases_bad" ] && echo "$cases_bad" && fail=1
	[ "$cases_ok" -ge "$3" ] || fail=1
}
kunit_suite driver_filter filter_test_ 35
kunit_suite driver_filter_core filter_test_core_ 20
kunit_suite property-entry pe_test_ 7
grep '^DRVFILTER-TEST: ' "$tmp/console" | grep -v ': done$' || true

# bootopts NAME COMMAND-LINE LOG-TEXT: a boot whose filter options cannot be
# trusted denies every driver (no allow list, ALL:ALL denied) and says why.
bootopts() {
	timeout $limit qemu-system-x86_64 -M pc -m $mem -nodefaults -no-reboot -display none \
		-serial "file:$tmp/$1.log" -accel tcg -kernel "$kdir/bzImage" \
		-initrd "$tmp/bootopts.gz" -append "$2" || true
	sed -n 's/\r$//; s/^.*\(BOOTOPTS: \)/\1/p' "$tmp/$1.log" >"$tmp/$1.out"
	if grep -qx 'BOOTOPTS: allow=' "$tmp/$1.out" && grep -qx 'BOOTOPTS: deny=ALL:ALL' "$tmp/$1.out" &&
		grep -qx 'BOOTOPTS: virtio-pci=0' "$tmp/$1.out" &&
		sed -n 's/^BOOTOPTS: log: //p' "$tmp/$1.out" | grep -qF "$3"; then
		echo "DRVFILTER-TEST: bootopts-$1: PASS"
	else
		echo "DRVFILTER-TEST: bootopts-$1: FAIL (every driver denied, and the log saying '$3')"
		cat "$tmp/$1.out"
		fail=1
	fi
}
base="console=ttyS0 panic=1 kunit.filter_glob=none"
# The last occurrence would win: the deny list would be pci:e1000 alone.
bootopts repeated "$base filter_deny_drivers=ALL:ALL filter_allow_drivers=pci:virtio-pci filter_deny_drivers=pci:e1000" \
	"given more than once, denying every driver"
# A loader that cuts an over-long line at a blank (the EFI stub) drops whole
# options: an allow option without its deny option would allow the rest.
bootopts no-deny "$base filter_allow_drivers=pci:virtio-pci" \
	"filter_allow_drivers= given without filter_deny_drivers=, denying every driver"
# The kernel keeps 2047 bytes of the line: cut right before the '@' of
# virtio-pci@1af4:1041, the allow list would let virtio-pci take any device.
pre="$base filter_deny_drivers=ALL:ALL pad="
post=" filter_allow_drivers=pci:virtio-pci"
pad=$(head -c $((2047 - ${#pre} - ${#post})) /dev/zero | tr '\0' x)
bootopts cut "$pre$pad$post@1af4:1041" "the command line fills COMMAND_LINE_SIZE and may have been cut"
grep -q '^DRVFILTER-TEST: .*: FAIL' "$tmp/console" && fail=1
if ! grep -q '^DRVFILTER-TEST: done$' "$tmp/console"; then
	echo "the guest did not finish; the end of its console:"
	tail -n 30 "$tmp/console"
	fail=1
fi
exit $fail
