#!/bin/sh
# What the dracut modules add to an initramfs: two images of Debian's stock
# kernel built with the real dracut, without and with 90drvfilter and
# 99drvfilter-blacklist (helper, policy, udev rule, hooks, the image's own
# blacklist), uncompressed and gzip'ed, and the files they add.
# Target (DESIGN.md): at most 150 KiB.
# Usage: bench/initramfs-size.sh BUILD-DIR
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
"$top/scripts/install-deps" boot >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
DESTDIR=$tmp/stage cmake --install "$build" --prefix /usr >/dev/null
kdir=$(sh "$top/tests/boot/stock-kernel.sh")
kver=$(basename "$(ls -d "$kdir"/lib/modules/*)")
cp -a /usr/lib/dracut "$tmp/dracut"
cp -a "$tmp/stage/usr/lib/dracut/modules.d/90drvfilter" \
	"$tmp/stage/usr/lib/dracut/modules.d/99drvfilter-blacklist" "$tmp/dracut/modules.d/"
for variant in without with; do
	mods="base rootfs-block"
	[ "$variant" = with ] && mods="$mods drvfilter drvfilter-blacklist"
	for comp in cat gzip; do
		drvfilter_prefix=$tmp/stage drvfilter_policy=$top/conf/drvfilter.conf \
			dracutbasedir=$tmp/dracut dracut --force --no-hostonly --no-hostonly-cmdline \
			--no-early-microcode --modules "$mods" --kver "$kver" \
			--kmoddir "$kdir/lib/modules/$kver" --drivers "virtio_pci virtio_blk" \
			--compress "$comp" "$tmp/$variant.$comp" >"$tmp/$variant.$comp.log" 2>&1 ||
			{ tail -n 20 "$tmp/$variant.$comp.log" >&2 && exit 1; }
	done
	lsinitrd "$tmp/$variant.cat" | awk '$1 ~ /^[-dlcbps][-rwxsStT]+$/ {print $NF}' | sort >"$tmp/$variant.files"
done
size() { stat -c %s "$1"; }
for comp in cat gzip; do
	a=$(size "$tmp/without.$comp") b=$(size "$tmp/with.$comp")
	label=uncompressed
	[ "$comp" = gzip ] && label=gzip
	printf '%-13s without %9d B   with %9d B   added %7d B (%d KiB)\n' "$label" "$a" "$b" \
		$((b - a)) $(((b - a + 1023) / 1024))
done
echo "files the module adds:"
comm -13 "$tmp/without.files" "$tmp/with.files" | sed 's/^/  /'
added=$(($(size "$tmp/with.cat") - $(size "$tmp/without.cat")))
if [ "$added" -le $((150 * 1024)) ]; then
	echo "target met: $((added / 1024)) KiB <= 150 KiB uncompressed"
else
	echo "target MISSED: $((added / 1024)) KiB > 150 KiB uncompressed"
	exit 1
fi
