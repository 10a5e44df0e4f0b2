#!/bin/sh
# Debian's stock kernel for the boot tests, downloaded with apt-get download and
# unpacked into the cache (never installed on the host). Prints its directory,
# which holds boot/vmlinuz-KVER and lib/modules/KVER.
#   stock-kernel.sh [SERIES]
# Without SERIES, the kernel linux-image-amd64 depends on (Debian 12: 6.1).
# With one (6.1, 6.12), that series' kernel: what linux-image-amd64 depends on
# if it is of the series, else what the series' own meta package depends on
# (Debian 12 has linux-image-6.12-amd64), else the newest signed generic image
# of the series (not -dbg, -unsigned, -rt or -cloud). Each kernel package is
# cached in a directory of its own.
set -eu
series=${1:-}
cache=${DRVFILTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/drvfilter}
# The kernel package a meta package depends on, if apt knows the meta package.
depends() { apt-cache depends "$1" 2>/dev/null | sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1; }
pkg=$(depends linux-image-amd64)
if [ -n "$series" ]; then
	# The series' images: linux-image-6.1.0-57-amd64, linux-image-6.12.118+deb12-amd64;
	# the dot after SERIES keeps 6.1 from matching 6.12.
	re="^linux-image-$(echo "$series" | sed 's/\./\\./g')[.][0-9][^-]*-([0-9]+-)?amd64\$"
	if ! echo "$pkg" | grep -Eq "$re"; then
		pkg=$(depends "linux-image-$series-amd64")
		[ -n "$pkg" ] || pkg=$(apt-cache pkgnames "linux-image-$series." | grep -E "$re" | sort -V | tail -n 1)
	fi
fi
[ -n "$pkg" ] || { echo "stock-kernel: no linux-image-${series:+$series*-}amd64 package known to apt" >&2; exit 1; }
dir=$cache/stock/$pkg
mkdir -p "$cache/stock"
# One download per package, however many tests ask at once.
exec 9>"$dir.lock"
flock 9
if [ ! -e "$dir/done" ]; then
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
