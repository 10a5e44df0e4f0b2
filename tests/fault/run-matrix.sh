#!/bin/sh
# The fault matrix: drvfilter-apply on fixture trees (kernel and fallback
# mode, the shipped policy) with one file operation made to fail per case by
# the LD_PRELOAD shim fault-inject.so: the boot run, or (MODE/udev-bind,
# MODE/udev-add) the udev handler of a device that bound to the denied e1000
# or of e1000 registering. For every case it checks that
#   - the fault was injected (the shim's log is not empty);
#   - the exit status is the expected one (1 for a failure, 0 for EINTR,
#     which is retried, and for ENODEV on unbind, which means "gone already");
#   - everything outside the faulted driver or file is exactly what a run
#     without faults writes: the rest of the policy is still applied;
#   - every failure is logged at LOG_ERR and counted: the state file's
#     counts.errors equals the kernel log's error lines (state write excepted);
#   - the state file is valid JSON, or, when writing it is what failed, the
#     previous state file is still there byte for byte, with no temporary left;
#   - for udev's events, which write no state file: a failure is logged at
#     LOG_ERR and no action of it reads result=ok, a tolerated fault logs none.
# Usage: run-matrix.sh APPLY SHIM   (prints the matrix; exit 1 if a case fails)
set -u
APPLY=$1
SHIM=$2
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../fixtures
dump=$here/../sysroot/dump-sysroot.sh
policy=$here/../../conf/drvfilter.conf
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
command -v jq >/dev/null || {
	echo "run-matrix: jq is missing" >&2
	exit 1
}
# ASan (the dev build) wants to be first in the library list; the shim is
# preloaded before it on purpose.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
export ASAN_OPTIONS

# A fresh tree for MODE: a copy of the template made once per mode (building
# one with mksysroot takes thirty times as long as copying it).
mktree() { # DIR MODE[/EVENT]
	t=$tmp/template-${2%%/*}
	if [ ! -d "$t" ]; then
		case ${2%%/*} in
		kernel) sh "$fixtures/mksysroot" "$t" "$fixtures/guest.spec" "$fixtures/kernel.spec" ;;
		fallback) sh "$fixtures/mksysroot" "$t" "$fixtures/guest.spec" ;;
		esac || exit 1
		cp "$policy" "$t/etc/drvfilter.conf" && chmod 0644 "$t/etc/drvfilter.conf"
	fi
	cp -a "$t" "$1" || exit 1
}

# What a run wrote, without the state file and the kernel log, a file's name
# before each of its lines, the tree's path as @ROOT@.
written() {
	sh "$dump" "$1" | sed "s|$1|@ROOT@|g" |
		awk '/^--- / { file = $2; skip = file ~ /^(run\/drvfilter\/state.json|dev\/kmsg)$/; next }
		!skip { print (file == "" ? "" : file ": ") $0 }'
}

# The lines of a written tree outside TOUCHED; "-" touches nothing, so every
# line is kept ("grep -v -F -" would drop every line holding a hyphen).
outside() { # TOUCHED < LINES
	if [ "$1" = - ]; then
		cat
	else
		grep -v -F "$1"
	fi
}

# Run apply on the tree DIR as MODE says: the boot run, or one udev event.
run_apply() { # DIR MODE[/EVENT]
	case $2 in
	*/udev-bind)
		ACTION=bind SUBSYSTEM=pci DRIVER=e1000 DEVPATH=/devices/pci0000:00/0000:00:03.0 \
			"$APPLY" --sysroot "$1" --udev
		;;
	*/udev-add)
		ACTION=add SUBSYSTEM=drivers DEVPATH=/bus/pci/drivers/e1000 \
			"$APPLY" --sysroot "$1" --udev
		;;
	*) "$APPLY" --sysroot "$1" ;;
	esac
}

for mode in kernel fallback kernel/udev-bind fallback/udev-bind kernel/udev-add \
	fallback/udev-add; do
	base=$tmp/base-$(echo "$mode" | tr / -)
	mktree "$base" "$mode"
	run_apply "$base" "$mode" >/dev/null 2>&1 ||
		{ echo "run-matrix: the run without faults failed ($mode)" >&2 && exit 1; }
	written "$base" >"$base.txt"
done

failed=0 total=0
printf '%-18s %-8s %-28s %-7s %6s %6s  %s\n' MODE OP TARGET FAULT STATUS ERRORS RESULT
# mode op match fault times expected-status touched(prefix allowed to differ)
while read -r mode op match fault times want touched; do
	case $mode in '' | '#'*) continue ;; esac
	total=$((total + 1))
	root=$tmp/case$total
	mktree "$root" "$mode"
	state_fault=false
	case $match in state.json) [ "$want" != 0 ] && state_fault=true ;; esac
	if $state_fault; then
		# A state file from an earlier run must survive a failed write whole.
		# It comes from a tree of its own: a second run on this one would find
		# the kernel locked, and the fixture's devices still bound.
		rm -rf "$tmp/prev"
		mktree "$tmp/prev" "$mode"
		"$APPLY" --sysroot "$tmp/prev" >/dev/null 2>&1
		mkdir -p "$root/run/drvfilter"
		cp "$tmp/prev/run/drvfilter/state.json" "$root/run/drvfilter/state.json"
		cp "$root/run/drvfilter/state.json" "$tmp/state.before"
	fi
	log=$tmp/fault$total.log
	: >"$log"
	[ "$times" = all ] && times=-1
	LD_PRELOAD=$SHIM DF_FAULT_OP=$op DF_FAULT_MATCH=$match DF_FAULT_ERR=$fault \
		DF_FAULT_TIMES=$times DF_FAULT_LOG=$log \
		run_apply "$root" "$mode" >"$tmp/out" 2>"$tmp/err"
	status=$?
	why=
	[ -s "$log" ] || why="$why; the fault was never injected"
	[ "$status" = "$want" ] || why="$why; exit status $status, expected $want"
	written "$root" | outside "$touched" >"$tmp/got.txt"
	outside "$touched" <"$tmp/base-$(echo "$mode" | tr / -).txt" >"$tmp/want.txt"
	if ! diff -u "$tmp/want.txt" "$tmp/got.txt" >"$tmp/diff"; then
		why="$why; the rest of the policy differs from a run without faults"
		cat "$tmp/diff"
	fi
	# The policy's own errors are not enforcement's: they make it fail closed.
	kmsg_errors=$(grep '^<27>drvfilter: ' "$root/dev/kmsg" |
		grep -c -v -F "action=error $root/etc/drvfilter.conf")
	state=$root/run/drvfilter/state.json
	case $mode in
	*/udev-*)
		# No state file: the kernel log alone says what failed.
		errors=$kmsg_errors
		if [ "$want" != 0 ]; then
			[ "$errors" != 0 ] || why="$why; a failure that was not logged as an error"
			# A bound device's event has one action: the unbind that failed.
			case $mode in */udev-bind)
				grep -q 'result=ok' "$root/dev/kmsg" &&
					why="$why; an action that failed logged result=ok"
				;;
			esac
		elif [ "$errors" != 0 ]; then
			why="$why; a tolerated fault logged as an error"
		fi
		;;
	esac
	if [ -n "${mode##*/udev-*}" ] && $state_fault; then
		cmp -s "$state" "$tmp/state.before" || why="$why; the previous state file changed"
		for t in "$root"/run/drvfilter/.state.json.*; do
			[ -e "$t" ] && why="$why; a temporary state file was left behind"
		done
		grep -q 'action=error cannot write the state file' "$root/dev/kmsg" ||
			why="$why; the failed state write was not logged"
		errors=-
	elif [ -z "${mode##*/udev-*}" ]; then
		: # checked above
	elif ! errors=$(jq -e '.counts.errors' "$state" 2>/dev/null); then
		why="$why; no valid state file"
		errors='?'
	else
		[ "$errors" = "$kmsg_errors" ] ||
			why="$why; state counts $errors errors, the log has $kmsg_errors"
		if [ "$want" != 0 ] && [ "$errors" = 0 ] && [ "$touched" != sys/ ]; then
			why="$why; a failure that was not counted"
		fi
		case $match in
		etc/drvfilter.conf)
			if [ "$want" != 0 ] && [ "$(jq .fail_closed "$state")" != true ]; then
				why="$why; an unreadable policy did not fail closed"
			fi
			;;
		esac
		if [ "$want" = 0 ] && [ "$errors" != 0 ]; then
			why="$why; a tolerated fault counted as an error"
		fi
	fi
	if [ -n "$why" ]; then
		failed=$((failed + 1))
		result="FAIL${why#;}"
		sed 's/^/    stderr: /' "$tmp/err"
	else
		result=ok
	fi
	printf '%-18s %-8s %-28s %-7s %6s %6s  %s\n' "$mode" "$op" "$match" "$fault" "$status" \
		"$errors" "$result"
done <"$here/matrix"
echo "fault matrix: $((total - failed)) of $total cases passed"
[ "$failed" = 0 ] && [ "$total" -gt 0 ]
