#!/bin/sh
# The boot options of `drvfilterctl cmdline` through real bootloaders: put
# them in /etc/default/grub.d/ as an administrator would, run grub-mkconfig,
# boot the patched kernel from a GRUB rescue ISO (BIOS) under QEMU, and read
# /sys/kernel/driver_filter/{allow,deny} back: they must equal the values the
# options promised. The same options are then given to the kernel verbatim,
# as a UKI's .cmdline (or QEMU's -append) hands them over, and read back too.
#   run-grub-test.sh DRVFILTERCTL BUILD-KERNEL VERSION
# grub-mkconfig reads /etc/default and /boot: it runs in a mount namespace
# of its own, with both replaced by the test's directories. It names the
# kernel by its path on the root file system, that is the test directory's
# path: the ISO stands in for that disk, with the files at the same path.
set -eu
ctl=$1
here=$(cd "$(dirname "$0")" && pwd)
for tool in qemu-system-x86_64 busybox cpio grub-mkconfig grub-mkrescue xorriso unshare; do
	if ! command -v "$tool" >/dev/null; then
		echo "$tool is missing: scripts/install-deps kernel qemu grub" >&2
		exit 77
	fi
done
if [ "$(id -u)" != 0 ]; then
	echo "skipped: grub-mkconfig and the mount namespace want root" >&2
	exit 77
fi
kdir=$(sh "$2" "$3")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The options, and what each list must read in the guest: the value between
# "filter_X_drivers= and the closing quote. They are computed for the
# patched kernel, named by its release and its config (CONFIG_DRIVER_FILTER=y)
# in a target tree, not for the kernel this test runs on.
kver=$(basename "$kdir"/boot/vmlinuz-* | sed 's/^vmlinuz-//')
mkdir -p "$tmp/target/boot" "$tmp/target/proc/sys/kernel"
cp "$kdir/config" "$tmp/target/boot/config-$kver"
echo "$kver" >"$tmp/target/proc/sys/kernel/osrelease"
options=$("$ctl" --sysroot "$tmp/target" --policy "$here/grub/policy.conf" cmdline)
echo "drvfilterctl cmdline: $options"
value() { printf '%s\n' "$options" | sed -n "s/.*\"filter_$1_drivers=\\([^\"]*\\)\".*/\\1/p"; }
want_allow=$(value allow)
want_deny=$(value deny)
if [ -z "$want_allow" ] || [ -z "$want_deny" ]; then
	echo "FAIL: the options do not hold both lists, each quoted whole"
	exit 1
fi

# The guest: the patched kernel and a busybox initramfs that prints the lists.
mkdir -p "$tmp/root/bin" "$tmp/root/proc" "$tmp/root/sys" "$tmp/boot/grub" "$tmp/default/grub.d"
cp "$(command -v busybox)" "$tmp/root/bin/busybox"
cp "$here/grub/init" "$tmp/root/init"
chmod 0755 "$tmp/root/init"
cp "$kdir/boot/vmlinuz-$kver" "$tmp/boot/"
(cd "$tmp/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$tmp/boot/initrd.img-$kver"

# /etc/default: the test's own settings (serial console, no menu, no
# recovery entry), then the drop-in as README.md tells an administrator to
# write it: the options in single quotes, so that the shell grub-mkconfig
# sources keeps them as they are.
cat >"$tmp/default/grub" <<'CFG'
GRUB_DEFAULT=0
GRUB_TIMEOUT=0
GRUB_DISTRIBUTOR=drvfilter-test
GRUB_CMDLINE_LINUX_DEFAULT="console=ttyS0 panic=1"
GRUB_CMDLINE_LINUX=""
GRUB_TERMINAL=serial
GRUB_SERIAL_COMMAND="serial --unit=0 --speed=115200"
GRUB_GFXPAYLOAD_LINUX=text
GRUB_DISABLE_RECOVERY=true
GRUB_DISABLE_SUBMENU=y
GRUB_DISABLE_OS_PROBER=true
CFG
# shellcheck disable=SC2016 # $GRUB_CMDLINE_LINUX is for grub-mkconfig's shell
printf 'GRUB_CMDLINE_LINUX="$GRUB_CMDLINE_LINUX"'"' %s'\n" "$options" >"$tmp/default/grub.d/50-drvfilter.cfg"
echo "grub.d drop-in: $(cat "$tmp/default/grub.d/50-drvfilter.cfg")"
start=$(date +%s)
# shellcheck disable=SC2016 # expanded by the inner shell
unshare -m sh -c '
	set -e
	mount --make-rprivate /
	mount --bind "$1/default" /etc/default
	mount --bind "$1/boot" /boot
	grub-mkconfig -o "$1/grub.cfg"
' sh "$tmp" >"$tmp/mkconfig.log" 2>&1 || {
	cat "$tmp/mkconfig.log"
	echo "FAIL: grub-mkconfig"
	exit 1
}
mkdir -p "$tmp/iso/boot/grub" "$tmp/iso$tmp"
cp "$tmp/grub.cfg" "$tmp/iso/boot/grub/grub.cfg"
cp -r "$tmp/boot" "$tmp/iso$tmp/"
grep -E '^[[:space:]]*linux[[:space:]]' "$tmp/grub.cfg" | head -n 1 | sed 's/^[[:space:]]*/grub.cfg: /'
grub-mkrescue -o "$tmp/boot.iso" "$tmp/iso" >"$tmp/mkrescue.log" 2>&1 || {
	cat "$tmp/mkrescue.log"
	echo "FAIL: grub-mkrescue"
	exit 1
}
echo "grub-mkconfig and grub-mkrescue: $(($(date +%s) - start)) s"

fail=0
boot() { # NAME QEMU-ARGS...: boot, then compare what the guest read with what was promised
	name=$1
	shift
	start=$(date +%s)
	timeout 300 qemu-system-x86_64 -M pc -m 256 -nodefaults -no-reboot -display none \
		-serial "file:$tmp/$name.log" -accel tcg "$@" || true
	sed -e 's/\r$//' "$tmp/$name.log" >"$tmp/$name.console"
	echo "$name: the guest ran $(($(date +%s) - start)) s"
	if ! grep -q '^DRVFILTER-GRUB: done$' "$tmp/$name.console"; then
		echo "FAIL: $name: the guest did not finish; the end of its console:"
		tail -n 30 "$tmp/$name.console"
		fail=1
		return
	fi
	grep '^DRVFILTER-GRUB: cmdline=' "$tmp/$name.console" | sed "s/^DRVFILTER-GRUB: /$name: /"
	for list in allow deny; do
		want=$want_allow
		[ $list = deny ] && want=$want_deny
		got=$(sed -n "s/^DRVFILTER-GRUB: $list=//p" "$tmp/$name.console")
		if [ "$got" = "$want" ]; then
			echo "PASS: $name: $list reads '$got'"
		else
			echo "FAIL: $name: $list reads '$got', the options promised '$want'"
			fail=1
		fi
	done
}
boot grub -cdrom "$tmp/boot.iso" -boot d
# shellcheck disable=SC2086 # the options are one argument, as in a UKI's .cmdline
boot direct -kernel "$kdir/bzImage" -initrd "$tmp/boot/initrd.img-$kver" \
	-append "console=ttyS0 panic=1 $options"
exit $fail
