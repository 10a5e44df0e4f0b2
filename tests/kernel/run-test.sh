#!/bin/sh
# Boot a patched kernel under QEMU (TCG) with a busybox initramfs and check
# the driver filter: the KTAP results of the KUnit suites (the filter's
# parser, its driver core paths, and the driver core's own property-entry
# suite), then the checks of ./init.
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
truncate -s 1M "$tmp/disk.img"

mem=256 limit=300
if grep -q '^CONFIG_KASAN=y' "$kdir/config"; then
	mem=1024 limit=1200
fi
log=$tmp/serial.log
start=$(date +%s)
timeout $limit qemu-system-x86_64 -M pc -m $mem -nodefaults -no-reboot -display none \
	-serial "file:$log" -accel tcg \
	-kernel "$kdir/bzImage" -initrd "$tmp/initramfs.gz" \
	-append "console=ttyS0 panic=1 loglevel=7 filter_deny_drivers=ALL:ALL filter_allow_drivers=pci:virtio-pci@1af4:1041,virtio-pci@1af4:1042,xhci_hcd@1033:0194;virtio:virtio_blk;usb:usb,hub;platform:i8042" \
	-drive "file=$tmp/disk.img,if=none,id=d0,format=raw" -device virtio-blk-pci,drive=d0,disable-legacy=on \
	-netdev user,id=n0 -device virtio-net-pci,netdev=n0,disable-legacy=on \
	-netdev user,id=n2 -device virtio-net-pci,netdev=n2,disable-modern=on,disable-legacy=off \
	-netdev user,id=n1 -device e1000,netdev=n1 \
	-device qemu-xhci \
	-device nec-usb-xhci,id=nec -device usb-tablet,bus=nec.0 || true
echo "guest ran $(($(date +%s) - start)) s"

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
kunit_suite driver_filter filter_test_ 31
kunit_suite driver_filter_core filter_test_core_ 15
kunit_suite property-entry pe_test_ 7
grep '^DRVFILTER-TEST: ' "$tmp/console" | grep -v ': done$' || true
grep -q '^DRVFILTER-TEST: .*: FAIL' "$tmp/console" && fail=1
if ! grep -q '^DRVFILTER-TEST: done$' "$tmp/console"; then
	echo "the guest did not finish; the end of its console:"
	tail -n 30 "$tmp/console"
	fail=1
fi
exit $fail
