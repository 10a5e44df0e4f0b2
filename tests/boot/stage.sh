#!/bin/sh
# The build the boot tests put into their guests: the release configuration
# (the optimised binaries a package ships; no sanitizers, whose runtime cost
# under TCG was most of the helper's coldplug time), configured as a fresh
# Debian 12 machine configures it, without the test-only Check visible, and
# installed into a staging tree. CTest's boot/stage, the fixture every boot
# test requires; the main job builds in the same directory.
#   stage.sh SOURCE-DIR WORK-DIR
# WORK-DIR gets build/ (the release build) and stage/ (its DESTDIR install).
set -eu
src=$1
work=$2
command -v pkg-config >/dev/null || { echo "pkg-config is missing: scripts/install-deps build" >&2; exit 77; }
mkdir -p "$work/pkgconfig"
# Every .pc file pkg-config knows, but Check's.
for d in $(pkg-config --variable pc_path pkg-config | tr ':' ' '); do
	for pc in "$d"/*.pc; do
		[ -e "$pc" ] && [ "$(basename "$pc")" != check.pc ] && [ ! -e "$work/pkgconfig/$(basename "$pc")" ] &&
			ln -s "$pc" "$work/pkgconfig/"
	done
done
PKG_CONFIG_LIBDIR=$work/pkgconfig pkg-config --exists check && { echo "FAIL: Check is still visible" >&2; exit 1; }
rm -rf "$work/build" "$work/stage"
(cd "$src" && PKG_CONFIG_LIBDIR=$work/pkgconfig cmake --preset release -B "$work/build") >"$work/configure.log" 2>&1 || {
	cat "$work/configure.log" >&2
	exit 1
}
if grep -q 'Check (libcheck)' "$work/configure.log"; then
	echo "FAIL: the release configuration looked for Check" >&2
	exit 1
fi
echo "PASS: the release configuration needs no Check"
cmake --build "$work/build" -j "$(nproc)" >"$work/build.log" 2>&1 || { tail -n 30 "$work/build.log" >&2; exit 1; }
DESTDIR=$work/stage cmake --install "$work/build" --prefix /usr >/dev/null
echo "staged: $work/stage ($(du -sk "$work/stage" | cut -f1) KiB)"
sh "$(dirname "$0")/image-cache.sh" prune
