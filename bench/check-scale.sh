#!/bin/sh
# How `drvfilterctl check` scales with the policy's size: it must stay linear
# in lines and rules (iniparser's dictionary alone is quadratic in keys; the
# loader hands it the file in slices). For each shape and size it prints the
# median of 5 runs, the cost per line, and that cost relative to the smallest
# size's: a linear loader stays near 1.0x as the file grows 8 times.
#   bench/check-scale.sh DRVFILTERCTL [--quick]
set -eu
ctl=$1
# Line counts per shape, up to what the 1 MiB a policy may take holds.
runs=5
sizes_short="5000 10000 20000 40000"
sizes_long="1000 2000 4000 8000"
if [ "${2:-}" = --quick ]; then
	runs=3
	sizes_short="4000 8000 16000"
	sizes_long="500 1000 2000"
fi
dir=$(mktemp -d /dev/shm/drvfilter-check.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$dir"' EXIT

gen() { # SHAPE LINES > FILE
	awk -v shape="$1" -v n="$2" 'BEGIN {
		print "[filter]\ndefault = deny\nmode = fallback\n[allow]"
		for (i = 0; i < n - 5; i++) {
			if (shape == "keys")          # one bus per line: the most keys
				printf "bus%d = drv%d\n", i, i
			else if (shape == "names")    # ten names per line: ten rules a line
				printf "b%d = n%d_0, n%d_1, n%d_2, n%d_3, n%d_4, n%d_5, n%d_6, n%d_7, n%d_8, n%d_9\n", i, i, i, i, i, i, i, i, i, i, i
			else                          # comments between keys
				{ if (i % 2) printf "# a comment about bus%d\n", i; else printf "bus%d = drv%d\n", i, i }
		}
	}'
}

ms() { # FILE: the median wall time of $runs checks, in ms
	for _ in $(seq "$runs"); do
		s=$(date +%s%N)
		"$ctl" --sysroot "$dir" check "$1" >/dev/null 2>"$dir/err" || { cat "$dir/err" >&2; exit 1; }
		e=$(date +%s%N)
		echo $(((e - s) / 1000))
	done | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] / 1000 }'
}

printf '%-8s %8s %10s %12s %10s\n' SHAPE LINES "ms" "us/line" "vs first"
for shape in keys names comments; do
	first=
	sizes=$sizes_short
	[ "$shape" = names ] && sizes=$sizes_long
	for n in $sizes; do
		gen "$shape" "$n" >"$dir/p.conf"
		t=$(ms "$dir/p.conf")
		per=$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.2f", t * 1000 / n }')
		[ -n "$first" ] || first=$per
		printf '%-8s %8d %10s %12s %9sx\n' "$shape" "$n" "$t" "$per" \
			"$(awk -v a="$per" -v b="$first" 'BEGIN { printf "%.2f", a / b }')"
	done
done
