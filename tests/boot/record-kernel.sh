#!/bin/sh
# A recording of Debian's stock kernel booted under QEMU, for computing its
# boot options offline: `drvfilterctl record` in a recording boot (drvfilter=off,
# so every driver binds as the kernel alone would bind it; initcall_debug and
# the driver core's debug messages, so the kernel log ties each built-in init
# call to what it registers), with the kernel's whole module tree in place of
# the initramfs's subset. Cached, keyed by the kernel package and the code that
# records; prints the directory, for `drvfilterctl --sysroot DIR cmdline`.
#   record-kernel.sh STAGE KERNEL-DIR
set -eu
stage=$1
kdir=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cache=${DRVFILTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/drvfilter}
key=$( (basename "$kdir" && cat "$here/record-kernel.sh" "$here/boot-guest.sh" \
	"$here"/dracut/95drvfiltertest/* "$top"/src/libdrvfilter/system/record.c \
	"$top"/src/libdrvfilter/system/initcalls.c "$top"/src/libdrvfilter/system/kmsg.c \
	"$top"/src/libdrvfilter/system/module-elf.c "$top/src/tools/ctl-record.c") |
	sha256sum | cut -c1-16)
dir=$cache/record/$(basename "$kdir")-$key
mkdir -p "$cache/record"
# One recording boot per kernel and key, however many tests ask at once.
exec 9>"$dir.lock"
flock 9
if [ -e "$dir.done" ]; then
	echo "record-kernel: the recording of $(basename "$kdir") (cached: $dir)" >&2
else
	tmp=$(mktemp -d "$cache/record/tmp.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	truncate -s 256M "$tmp/record.img"
	echo "record-kernel: a recording boot of $(basename "$kdir") (once; cached)" >&2
	GUEST_APPEND='drvfilter=off drvfiltertest.record initcall_debug log_buf_len=16M dyndbg="file drivers/base/bus.c +p; file drivers/base/class.c +p"' \
		GUEST_RECORD_DISK=$tmp/record.img DRACUT_MODULES=base \
		sh "$here/boot-guest.sh" "$stage" "$kdir" "$top/conf/drvfilter.conf" "$tmp/out" >&2
	if ! grep -q '^DRVFILTER-RECORD: status=[01] disk=/dev/' "$tmp/out/console"; then
		echo "record-kernel: the guest did not record; the end of its console:" >&2
		tail -n 30 "$tmp/out/console" >&2
		exit 1
	fi
	grep -e '^DRVFILTER-RECORD' -e 'drvfilterctl: ' "$tmp/out/console" >&2 || true
	(cd "$tmp" && cpio -id --quiet <record.img)
	kver=$(basename "$(ls -d "$kdir"/lib/modules/*)")
	if [ ! -e "$tmp/drvfilter-record/drvfilter-record" ]; then
		echo "record-kernel: the recording disk holds no recording" >&2
		exit 1
	fi
	# The initramfs holds dracut's subset of the modules: the kernel's whole tree instead.
	rm -rf "$tmp/drvfilter-record/lib/modules/$kver"
	ln -s "$kdir/lib/modules/$kver" "$tmp/drvfilter-record/lib/modules/$kver"
	rm -rf "$dir"
	mv "$tmp/drvfilter-record" "$dir"
	: >"$dir.done"
fi
echo "$dir"
