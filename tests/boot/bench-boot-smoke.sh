#!/bin/sh
# shellcheck disable=SC2317 # the checks are called through check()
# bench/boot as CI runs it (issue 32): one boot of each configuration, no
# initcall_debug boot, as a smoke test of the benchmark, not a measurement.
# Each boot must reach its end marker (bench/boot fails otherwise); (a) runs
# no helper, (b) and (c) (and (d), when the patched kernel is cached) each
# log the helper's done line; (a)-(c) boot on into the real root and end
# there; the summary and the timeline are written.
#   bench-boot-smoke.sh OUT
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
for tool in qemu-system-x86_64 dracut; do
	command -v "$tool" >/dev/null || { echo "$tool is missing: scripts/install-deps boot" >&2; exit 77; }
done
rm -rf "$out"
sh "$here/../../bench/boot" --smoke --no-initcall-debug --out "$out"
fail=0
check() { # WHAT COMMAND...
	what=$1
	shift
	if "$@"; then echo "PASS: $what"; else echo "FAIL: $what"; fail=1; fi
}
# boots.csv: config,run,init_s,apply_s,...,helper_usec,...; apply_s is
# empty without the helper.
no_helper() { awk -F, -v c="$1" '$1 == c && $4 == "" { f = 1 } END { exit !f }' "$out/boots.csv"; }
helper_ran() { awk -F, -v c="$1" '$1 == c && $4 != "" && $13 > 0 { f = 1 } END { exit !f }' "$out/boots.csv"; }
in_summary() { grep -q "^($1) " "$out/summary.txt"; }
# root_s and end_s (the real root's systemd started; its end unit ran).
real_root() { awk -F, -v c="$1" '$1 == c && $8 != "" && $10 != "" { f = 1 } END { exit !f }' "$out/boots.csv"; }
check "(a) booted, with no helper" no_helper a
check "(a) is in the summary" in_summary a
check "(a) switched to the real root and reached its end" real_root a
for c in b c; do
	check "($c) booted, and the helper ran" helper_ran "$c"
	check "($c) is in the summary" in_summary "$c"
	check "($c) switched to the real root and reached its end" real_root "$c"
done
if grep -q '^d,' "$out/boots.csv"; then
	check "(d) booted, and the helper ran" helper_ran d
fi
check "the timeline was drawn" grep -q '<svg' "$out/timeline.svg"
exit $fail
