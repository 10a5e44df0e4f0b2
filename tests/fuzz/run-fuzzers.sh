#!/bin/sh
# Fuzz every target with libFuzzer for SECONDS each (default 60), one per
# core at a time, built with clang, ASan and UBSan (leak detection on).
# Fails on any crash, leak, sanitizer report, timeout or broken invariant;
# the input that caused it is kept under $FUZZ_BUILD_DIR/artifacts (add it
# to tests/fuzz/corpus/TARGET).
# New inputs go to a scratch corpus; the seeds in git are only read.
# Usage: tests/fuzz/run-fuzzers.sh [SECONDS [TARGET...]]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
[ $# -gt 0 ] && shift
targets=${*:-policy policy-edit decide cmdline state names bootopts evlog quote aael}
build=${FUZZ_BUILD_DIR:-$top/build/fuzz}
artifacts=$build/artifacts

CC=clang cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Debug -DDRVFILTER_FUZZ=ON \
	-DDRVFILTER_SANITIZE=ON >/dev/null
for t in $targets; do
	cmake --build "$build" -j "$(nproc)" --target "fuzz-$t" >/dev/null
done
mkdir -p "$artifacts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

seeds() { # the seed directories of a target, as tests/CMakeLists.txt lists them
	f=$top/tests/fuzz/corpus p=$top/tests/policies
	case $1 in
	policy | policy-edit) echo "$p/good $p/bad $f/policy" ;;
	cmdline) echo "$f/cmdline $p/good $p/bad" ;;
	*) echo "$f/$1" ;;
	esac
}

# fuzz TARGET: one target's run; its summary line goes to SCRATCH/TARGET.result.
fuzz() {
	t=$1
	mkdir -p "$scratch/$t"
	log=$scratch/$t.log
	# shellcheck disable=SC2046 # one word per seed directory
	if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		"$build/tests/fuzz-$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
		-max_len=8192 -print_final_stats=1 -artifact_prefix="$artifacts/$t-" \
		"$scratch/$t" $(seeds "$t") >"$log" 2>&1; then
		result=ok
	else
		result=FAILED
		grep -E 'ERROR|invariant|SUMMARY|Test unit written' "$log" | head -20 >&2
	fi
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	printf '%s %s %s\n' "${runs:-0}" "$result" "$cov" >"$scratch/$t.result"
}

# One target per core at a time: each still gets SECONDS of its own.
jobs=$(nproc) running=0
for t in $targets; do
	fuzz "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
status=0 total=0
for t in $targets; do
	read -r runs result cov <"$scratch/$t.result" || { runs=0 result=FAILED cov=; }
	[ "$result" = ok ] || status=1
	total=$((total + runs))
	printf 'fuzz-%-8s %4ss %10s executions  %-10s %s\n' "$t" "$seconds" "$runs" "$cov" "$result"
done
printf 'fuzzing: %s executions in total\n' "$total"
exit $status
