#!/bin/sh
# status's drift codes, as its Prometheus output lists them all, are the ones
# drvfilterctl(8) explains in DRIFT REASONS, in the same order.
# Usage: drift-codes.sh DRVFILTERCTL MAN-PAGE FIXTURES-DIR
set -u
ctl=$1
page=$2
fixtures=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
sh "$fixtures/mksysroot" "$tmp/root" "$fixtures/guest.spec" >/dev/null || exit 1
"$ctl" --sysroot "$tmp/root" status --format=prometheus 2>/dev/null |
	sed -n 's/^drvfilter_drift{reason="\([a-z_]*\)"} [01]$/\1/p' >"$tmp/codes"
sed -n '/^\.SH DRIFT REASONS/,/^\.SH [^D]/p' "$page" | sed -n '/^\.TP/{n;s/^\.B //p}' >"$tmp/man"
if [ ! -s "$tmp/codes" ]; then
	echo "FAIL: status --format=prometheus lists no drift reason"
	exit 1
fi
if ! diff -u --label "status --format=prometheus" --label "$page DRIFT REASONS" "$tmp/codes" "$tmp/man"; then
	echo "FAIL: the drift codes differ"
	exit 1
fi
echo "ok: $(wc -l <"$tmp/codes") drift codes agree"
