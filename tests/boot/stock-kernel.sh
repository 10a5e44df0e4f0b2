#!/bin/sh
# Debian's stock kernel for the boot tests, downloaded with apt-get download and
# unpacked into the cache (never installed on the host). Prints its directory,
# which holds boot/vmlinuz-KVER and lib/modules/KVER.
set -eu
cache=${DRVFILTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/drvfilter}
pkg=$(apt-cache depends linux-image-amd64 | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
[ -n "$pkg" ] || { echo "stock-kernel: no linux-image-*-amd64 package known to apt" >&2; exit 1; }
dir=$cache/stock/$pkg
if [ ! -e "$dir/done" ]; then
	mkdir -p "$cache/stock"
	tmp=$(mktemp -d "$cache/stock/dl.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -q "$pkg" >&2)
	dpkg-deb -x "$tmp"/*.deb "$tmp/root"
	# The package's postinst would run depmod; dracut needs its indexes.
	depmod -b "$tmp/root" "$(basename "$(ls -d "$tmp"/root/lib/modules/*)")"
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
	echo "$pkg" >"$dir/done"
fi
echo "$dir"
