#!/bin/sh
# What drvfilter adds to an initramfs: two images of Debian's stock kernel
# built with the real dracut, without and with 90drvfilter and
# 99drvfilter-blacklist (helper, policy, udev rule, hooks, the image's own
# blacklist), uncompressed and gzip'ed, and the files they add; then the
# same with the real initramfs-tools (mkinitramfs), without and with the
# hook zz-drvfilter and its init-top and init-bottom scripts.
# Target (DESIGN.md): at most 150 KiB, for each builder.
# Usage: bench/initramfs-size.sh BUILD-DIR
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" && pwd)
"$top/scripts/install-deps" boot >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Stripped, as the Debian package ships the binaries (dh_strip): initramfs-tools
# copies them as they are, dracut strips them itself.
DESTDIR=$tmp/stage cmake --install "$build" --prefix /usr --strip >/dev/null
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
status=0
# compare LABEL WITHOUT WITH: the two images' sizes and what drvfilter adds.
compare() {
	a=$(size "$2") b=$(size "$3")
	printf '%-13s without %9d B   with %9d B   added %7d B (%d KiB)\n' "$1" "$a" "$b" \
		$((b - a)) $(((b - a + 1023) / 1024))
}
# target BUILDER WITHOUT WITH: the uncompressed images against the 150 KiB target.
target() {
	added=$(($(size "$3") - $(size "$2")))
	if [ "$added" -le $((150 * 1024)) ]; then
		echo "$1: target met: $((added / 1024)) KiB <= 150 KiB uncompressed"
	else
		echo "$1: target MISSED: $((added / 1024)) KiB > 150 KiB uncompressed"
		status=1
	fi
}
compare uncompressed "$tmp/without.cat" "$tmp/with.cat"
compare gzip "$tmp/without.gzip" "$tmp/with.gzip"
echo "files the module adds:"
comm -13 "$tmp/without.files" "$tmp/with.files" | sed 's/^/  /'
target dracut "$tmp/without.cat" "$tmp/with.cat"

# initramfs-tools: Debian's defaults but MODULES=list (the guest's drivers),
# gzip'ed; uncompressed is the archive gzip gives back.
command -v mkinitramfs >/dev/null || { echo "initramfs-tools: mkinitramfs is missing" >&2; exit 1; }
for variant in without with; do
	conf=$tmp/itools-$variant
	mkdir -p "$conf/conf.d" "$conf/hooks" "$conf/scripts"
	printf 'MODULES=list\nBUSYBOX=y\nCOMPRESS=gzip\nRUNSIZE=10%%\n' >"$conf/initramfs.conf"
	printf 'virtio_pci\nvirtio_blk\n' >"$conf/modules"
	if [ "$variant" = with ]; then
		cp "$tmp/stage/usr/share/initramfs-tools/hooks/zz-drvfilter" "$conf/hooks/"
		cp -R "$tmp/stage/usr/share/initramfs-tools/scripts/." "$conf/scripts/"
	fi
	# Debian's kernel tree and config where mkinitramfs looks, in a mount
	# namespace of its own (as tests/boot/initramfs-tools-image.sh does).
	# shellcheck disable=SC2016 # expanded by the inner shell
	drvfilter_prefix=$tmp/stage drvfilter_policy=$top/conf/drvfilter.conf drvfilter_other_machine=yes \
		unshare --mount --propagation private sh -eu -c '
		kdir=$1 kver=$2 conf=$3 img=$4 tmp=$5
		lib=$(readlink -f /lib)
		mkdir -p "$tmp/lib-upper" "$tmp/lib-work"
		mount -t overlay drvfilter-lib -o "lowerdir=$lib,upperdir=$tmp/lib-upper,workdir=$tmp/lib-work" "$lib"
		mkdir -p "$lib/modules"
		mount -t tmpfs drvfilter-modules "$lib/modules"
		mkdir "$lib/modules/$kver"
		mount --bind "$kdir/lib/modules/$kver" "$lib/modules/$kver"
		mount -t tmpfs drvfilter-boot /boot
		cp "$kdir/boot/config-$kver" /boot/
		TMPDIR=$tmp mkinitramfs -d "$conf" -o "$img" "$kver"' \
		sh "$kdir" "$kver" "$conf" "$tmp/itools-$variant.img" "$tmp/itools-$variant.tmp" \
		>"$tmp/itools-$variant.log" 2>&1 || { tail -n 20 "$tmp/itools-$variant.log" >&2 && exit 1; }
	gzip -dc <"$tmp/itools-$variant.img" >"$tmp/itools-$variant.cpio"
	cpio --quiet -itv <"$tmp/itools-$variant.cpio" | awk '{ print $9, $5 }' | sort >"$tmp/itools-$variant.sizes"
done
compare uncompressed "$tmp/itools-without.cpio" "$tmp/itools-with.cpio"
compare gzip "$tmp/itools-without.img" "$tmp/itools-with.img"
echo "files the hook adds, or that differ (bytes without, with):"
join -a 2 -e - -o 0,1.2,2.2 "$tmp/itools-without.sizes" "$tmp/itools-with.sizes" |
	awk '$2 != $3 { printf "  %s %s %s\n", $1, $2, $3 }'
target initramfs-tools "$tmp/itools-without.cpio" "$tmp/itools-with.cpio"
exit $status
