#!/bin/sh
# CTest's entry for one kernel: build (or take from the cache) the patched
# kernel of VERSION, then boot it and check it (run-test.sh).
#   run-kernel-test.sh BUILD-KERNEL VERSION [debug]
# The debug variant (lockdep and KASAN: a longer build and a slower boot)
# runs only with DRVFILTER_KERNEL_DEBUG=1 (tests/run-all passes it on).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ "${3:-}" = debug ] && [ "${DRVFILTER_KERNEL_DEBUG:-0}" != 1 ]; then
	echo "skipped: the lockdep+KASAN kernel test runs with DRVFILTER_KERNEL_DEBUG=1" >&2
	exit 77
fi
for tool in qemu-system-x86_64 busybox cpio; do
	if ! command -v "$tool" >/dev/null; then
		echo "$tool is missing: scripts/install-deps kernel qemu" >&2
		exit 77
	fi
done
dir=$(sh "$1" "$2" ${3:+"$3"})
echo "kernel: $dir ($(cat "$dir/done"))"
exec sh "$here/run-test.sh" "$dir"
