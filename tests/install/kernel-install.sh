#!/bin/sh
# Debian 12's kernel-install, run into a scratch layout (its BOOT_ROOT, its
# KERNEL_INSTALL_CONF_ROOT, its entry token and machine ID) with the
# installed 15-drvfilter.install before systemd's own 90-loaderentry.install:
# the boot loader entry of the kernel gets drvfilter's options for that
# kernel, computed from its recording (initcall_blacklist= too) or from its
# module tree alone, beside the rest of the line in
# KERNEL_INSTALL_CONF_ROOT/cmdline, which keeps them for the next kernel and
# for UKI builders; a second install replaces them rather than repeating
# them; an image for another machine gets the options of the kernel's
# module tree alone, and no cmdline file is started for it; an invalid
# policy fails the install and writes no entry; layout=other without a
# cmdline file writes nothing. The system is a recorded guest (--sysroot);
# of the host, kernel-install reads only /etc/os-release (the entry's title).
#   kernel-install.sh BUILD-DIR FIXTURES-DIR
set -u
command -v kernel-install >/dev/null || { echo "kernel-install is missing (systemd)" >&2; exit 77; }
loaderentry=/usr/lib/kernel/install.d/90-loaderentry.install
[ -x "$loaderentry" ] || { echo "$loaderentry is missing" >&2; exit 77; }
# The policy must belong to root, as the plugin's check requires.
[ "$(id -u)" = 0 ] || exit 77
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*" && fail=1; }

stage=$tmp/stage
DESTDIR=$stage cmake --install "$1" --prefix /usr >/dev/null || exit 1
plugin=$stage/usr/lib/kernel/install.d/15-drvfilter.install
[ -x "$plugin" ] || { echo "FAIL: no $plugin"; exit 1; }

# The system: a recorded Debian 6.1 guest; a second kernel beside it, with
# its module tree and no recording.
sys=$tmp/system
mkdir -p "$sys" "$tmp/records"
tar -xJf "$2/debian-6.1-qemu.tar.xz" -C "$sys" || exit 1
rel=$(cat "$sys/proc/sys/kernel/osrelease")
other=6.1.0-99-amd64
cp -a "$sys/lib/modules/$rel" "$sys/lib/modules/$other"
ln -s "$sys" "$tmp/records/$rel"
cp "$(dirname "$0")/../../conf/drvfilter.conf" "$tmp/policy.conf"
chmod 0644 "$tmp/policy.conf"
echo "not a kernel" >"$tmp/vmlinuz"

conf=$tmp/conf
boot=$tmp/boot
mkdir -p "$conf" "$boot"
echo layout=bls >"$conf/install.conf"
id=0123456789abcdef0123456789abcdef
echo "$id" >"$conf/entry-token"
printf 'root=/dev/vda ro console=ttyS0 module_blacklist=stale -- single\n' >"$conf/cmdline"

# kinstall KERNEL [OTHER-MACHINE]: kernel-install add with the scratch
# layout (as on a machine, not in a container, whatever runs the test).
kinstall() {
	env -u container drvfilter_other_machine="${2:-no}" KERNEL_INSTALL_PLUGINS="$plugin $loaderentry" \
		KERNEL_INSTALL_CONF_ROOT="$conf" BOOT_ROOT="$boot" MACHINE_ID="$id" \
		drvfilter_prefix="$stage" drvfilter_policy="$tmp/policy.conf" \
		drvfilter_records="$tmp/records" drvfilter_sysroot="$sys" \
		kernel-install add "$1" "$tmp/vmlinuz" >"$tmp/log" 2>&1
}
# options KERNEL: the entry's options line.
options() {
	sed -n 's/^options[[:space:]]*//p' "$boot/loader/entries/$id-$1.conf" 2>/dev/null
}
ctl() {
	"$stage/usr/sbin/drvfilterctl" --policy "$tmp/policy.conf" "$@" 2>/dev/null
}

# The recorded kernel: its options from the recording, init calls included.
cp "$conf/cmdline" "$tmp/want"
if kinstall "$rel"; then
	ctl --sysroot "$sys" cmdline --update "$tmp/want"
	want=$(cat "$tmp/want")
	got=$(options "$rel")
	case $want in
	"root=/dev/vda ro console=ttyS0 initcall_blacklist="*" module_blacklist="*" -- single") ;;
	*) no "cmdline --update gave '$want'" ;;
	esac
	[ "$got" = "$want systemd.machine_id=$id" ] || no "the entry of $rel has '$got'"
	cmp -s "$conf/cmdline" "$tmp/want" || no "$conf/cmdline holds '$(cat "$conf/cmdline")'"
	grep -q "boot options from the recording $tmp/records/$rel" "$tmp/log" ||
		no "the plugin did not say it used the recording"
	echo "ok: $rel: the entry has the recording's options before --, the stale ones gone"
else
	no "kernel-install add $rel failed"
	cat "$tmp/log"
fi

# Another kernel, no recording: its module tree's options, no init calls;
# drvfilter's options in the file are replaced, not repeated.
if kinstall "$other"; then
	got=$(options "$other")
	case $got in
	*initcall_blacklist=*) no "the entry of $other names init calls: '$got'" ;;
	*module_blacklist=*e1000*) echo "ok: $other: module_blacklist= from its tree, no init calls" ;;
	*) no "the entry of $other has '$got'" ;;
	esac
	[ "$(grep -o 'module_blacklist=' "$conf/cmdline" | wc -l)" = 1 ] ||
		no "$conf/cmdline repeats module_blacklist=: $(cat "$conf/cmdline")"
	options "$rel" | grep -q initcall_blacklist= || no "the entry of $rel changed"
else
	no "kernel-install add $other failed"
	cat "$tmp/log"
fi

# An image for another machine: the kernel's module tree alone, even with a
# recording of it (this machine's devices are not the image's).
if kinstall "$rel" yes; then
	got=$(options "$rel")
	case $got in
	*initcall_blacklist=*) no "the image's entry names init calls: '$got'" ;;
	*module_blacklist=*e1000*" -- single systemd.machine_id=$id")
		echo "ok: another machine's image: module_blacklist= from the tree alone" ;;
	*) no "the image's entry has '$got'" ;;
	esac
	grep -q "boot options for an image, from its module tree alone" "$tmp/log" ||
		no "the plugin did not say the options are for an image"
else
	no "kernel-install add $rel for another machine failed"
	cat "$tmp/log"
fi

# An invalid policy: the install fails, says why, and writes no entry.
cp "$conf/cmdline" "$tmp/cmdline.before"
printf '[allow]\npci = virtio-pci\n[bogus]\n' >"$tmp/policy.conf"
if kinstall 6.1.0-98-amd64; then
	no "kernel-install succeeded with an invalid policy"
else
	grep -q "drvfilter: .* is not a valid policy; not installing kernel 6.1.0-98-amd64" "$tmp/log" ||
		no "no message saying the policy is invalid: $(cat "$tmp/log")"
	[ -e "$boot/loader/entries/$id-6.1.0-98-amd64.conf" ] && no "an entry was written"
	cmp -s "$conf/cmdline" "$tmp/cmdline.before" || no "$conf/cmdline changed"
	echo "ok: an invalid policy fails the install, no entry"
fi

# Another machine's image and no cmdline file: no running line to start one from.
cp "$(dirname "$0")/../../conf/drvfilter.conf" "$tmp/policy.conf"
mv "$conf/cmdline" "$tmp/cmdline.saved"
if kinstall "$rel" yes; then
	[ -e "$conf/cmdline" ] && no "a cmdline file was started for another machine's image"
	grep -q "start it with the command line the kernels are to boot with" "$tmp/log" ||
		no "the plugin did not say why it wrote nothing for the image"
	echo "ok: another machine's image without a cmdline file: nothing written"
else
	no "kernel-install add for another machine without a cmdline file failed"
	cat "$tmp/log"
fi
mv "$tmp/cmdline.saved" "$conf/cmdline"

# layout=other and no cmdline file: nothing takes a line from kernel-install.
echo layout=other >"$conf/install.conf"
rm "$conf/cmdline"
if kinstall "$rel"; then
	[ -e "$conf/cmdline" ] && no "a cmdline file was written for layout=other"
	grep -q "no boot options written" "$tmp/log" || no "the plugin did not say it wrote nothing"
	echo "ok: layout=other without a cmdline file: nothing written"
else
	no "kernel-install add with layout=other failed"
	cat "$tmp/log"
fi
exit $fail
