#!/bin/sh
# How `drvfilterctl check` scales with the policy's size: it must stay linear
# in lines and rules (iniparser's dictionary alone is quadratic in keys; the
# loader hands it the file in slices). For each shape and size it prints the
# median of 9 runs, the cost per line, and that cost relative to the smallest
# size's: a linear loader stays near 1.0x as the file grows 10 times. Then the
# target of issue 32 on each shape: 5 times the lines take at most 6 times the
# time (50,000 lines against 10,000; at ten names a line, 10,000 against
# 2,000: 50,000 such lines do not fit in the 1 MiB a policy may take). Exits 1
# when a target is missed.
#   bench/check-scale.sh DRVFILTERCTL [--quick] [bench/run's other arguments, ignored]
set -eu
ctl=$1
shift
quick=false
for arg; do
	[ "$arg" != --quick ] || quick=true
done
# Line counts per shape, up to what the 1 MiB a policy may take holds; the
# target compares the last size with the second.
runs=9
sizes_short="5000 10000 20000 50000"
sizes_long="1000 2000 5000 10000"
if $quick; then
	runs=3
	sizes_short="5000 10000 50000"
	sizes_long="1000 2000 10000"
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
			else                          # comments between keys (short: 50,000 lines fit)
				{ if (i % 2) printf "# on bus%d\n", i; else printf "bus%d = drv%d\n", i, i }
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
targets=
for shape in keys names comments; do
	first=
	sizes=$sizes_short
	[ "$shape" = names ] && sizes=$sizes_long
	base=$(echo "$sizes" | cut -d' ' -f2)
	tbase=
	for n in $sizes; do
		gen "$shape" "$n" >"$dir/p.conf"
		t=$(ms "$dir/p.conf")
		per=$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.2f", t * 1000 / n }')
		[ -n "$first" ] || first=$per
		[ "$n" != "$base" ] || tbase=$t
		printf '%-8s %8d %10s %12s %9sx\n' "$shape" "$n" "$t" "$per" \
			"$(awk -v a="$per" -v b="$first" 'BEGIN { printf "%.2f", a / b }')"
	done
	targets="$targets$shape $base $tbase $n $t
"
done

echo
echo "target (issue 32): 5 times the lines in at most 6 times the time, every shape:"
fail=0
while read -r shape base tbase n t; do
	ratio=$(awk -v a="$t" -v b="$tbase" 'BEGIN { printf "%.2f", a / b }')
	if awk -v r="$ratio" 'BEGIN { exit !(r <= 6) }'; then
		verdict=met
	else
		verdict=MISS
		fail=1
	fi
	printf '  %-4s %-8s check %d lines / %d lines: %sx <= 6x (%s / %s ms)\n' \
		"$verdict" "$shape" "$n" "$base" "$ratio" "$t" "$tbase"
done <<EOF
$(printf '%s' "$targets")
EOF
exit "$fail"
