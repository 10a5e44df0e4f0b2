#!/bin/sh
# CTest's entry for one kernel: build (or take from the cache) the patched
# kernel of VERSION, then boot it and check it (run-test.sh).
#   run-kernel-test.sh BUILD-KERNEL VERSION
set -eu
here=$(cd "$(dirname "$0")" && pwd)
for tool in qemu-system-x86_64 busybox cpio; do
	if ! command -v "$tool" >/dev/null; then
		echo "$tool is missing: scripts/install-deps kernel qemu" >&2
		exit 77
	fi
done
dir=$(sh "$1" "$2")
echo "kernel: $dir ($(cat "$dir/done"))"
exec sh "$here/run-test.sh" "$dir"
