#!/bin/sh
# Print the path of promtool, from Debian's prometheus package: the host's
# when it is installed, else the package downloaded with apt and unpacked
# into the cache (never installed: its postinst would start a server), keyed
# by its version.
set -eu
if command -v promtool >/dev/null 2>&1; then
	command -v promtool
	exit 0
fi
cache=${DRVFILTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/drvfilter}
version=$(apt-cache policy prometheus | sed -n 's/^  Candidate: //p')
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
	echo "promtool.sh: apt knows no prometheus package (apt-get update?)" >&2
	exit 1
fi
dir=$cache/prometheus/$version
mkdir -p "$cache/prometheus"
# One download, however many tests ask at once.
exec 9>"$cache/prometheus/lock"
flock 9
if [ ! -x "$dir/usr/bin/promtool" ]; then
	tmp=$(mktemp -d "$cache/prometheus/download.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && apt-get download -q "prometheus=$version") >&2
	dpkg-deb -x "$tmp"/prometheus_*.deb "$tmp/root"
	[ -x "$tmp/root/usr/bin/promtool" ]
	rm -rf "$dir"
	mv "$tmp/root" "$dir"
fi
echo "$dir/usr/bin/promtool"
