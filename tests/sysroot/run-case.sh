#!/bin/sh
# Run one sysroot case: build a fresh tree from the specs DIR/specs names (one
# per line, from tests/fixtures), or unpack the recording DIR/recording names
# (tests/fixtures/NAME.tar.xz), install DIR/policy.conf as its
# /etc/drvfilter.conf, run the shell fragment DIR/setup if there is one (its
# output is not compared), then DIR/cmd, both in DIR with $CTL, $APPLY,
# $SYSROOT and $WORK (a scratch directory outside the tree) set. Compare
# standard output, standard error, the exit status and what the run left in
# the tree (dump-sysroot) with DIR/stdout, DIR/stderr, DIR/status and
# DIR/after. With DIR/unchanged, cmd must leave the tree exactly as setup left
# it (every file's type, mode, owner, size, time and contents), and there is
# no DIR/after. The tree's path reads @SYSROOT@ in all of them.
# UPDATE_GOLDEN=1 rewrites the expected files instead.
set -u
CTL=$1
APPLY=$2
dir=$3
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../fixtures
if [ -e "$dir/requires-root" ] && [ "$(id -u)" != 0 ]; then
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
SYSROOT=$tmp/root
if [ -e "$dir/recording" ]; then
	# A tree `drvfilterctl record` made of a real guest (tests/fixtures/make-recording).
	mkdir -p "$SYSROOT"
	tar -xJf "$fixtures/$(cat "$dir/recording").tar.xz" -C "$SYSROOT" || exit 1
else
	specs=
	while read -r s; do
		specs="$specs $fixtures/$s.spec"
	done <"$dir/specs"
	# shellcheck disable=SC2086 # one word per spec file
	sh "$fixtures/mksysroot" "$SYSROOT" $specs || exit 1
fi
if [ -e "$dir/policy.conf" ]; then
	cp "$dir/policy.conf" "$SYSROOT/etc/drvfilter.conf"
	chmod 0644 "$SYSROOT/etc/drvfilter.conf"
fi
WORK=$tmp/work
mkdir -p "$WORK"
export CTL APPLY SYSROOT WORK
if [ -e "$dir/setup" ] && ! (cd "$dir" && sh ./setup) >"$tmp/setup.out" 2>&1; then
	echo "the setup of the case failed:"
	cat "$tmp/setup.out"
	exit 1
fi
# Everything about every file of the tree but its access time.
snapshot() {
	(cd "$SYSROOT" && find . -printf '%p %y %m %U %s %T@ %l\n' | LC_ALL=C sort &&
		find . -type f -exec md5sum {} + | LC_ALL=C sort)
}
unchanged=false
[ -e "$dir/unchanged" ] && unchanged=true
$unchanged && snapshot >"$tmp/before.tree"
(cd "$dir" && sh ./cmd) >"$tmp/stdout.raw" 2>"$tmp/stderr.raw"
status=$?
[ "$status" = 77 ] && exit 77
echo "$status" >"$tmp/status"
files="stdout stderr status after"
if $unchanged; then
	files="stdout stderr status"
	snapshot >"$tmp/after.tree"
	if ! diff -u --label "the tree before" --label "the tree after" "$tmp/before.tree" \
		"$tmp/after.tree"; then
		echo "the command wrote to the tree, which it must leave unchanged"
		changed=1
	fi
fi
sh "$here/dump-sysroot.sh" "$SYSROOT" >"$tmp/after.raw"
for f in stdout stderr after; do
	# The tree's path, times and durations differ from run to run.
	sed -e "s|$SYSROOT|@SYSROOT@|g" \
		-e 's/\("applied_usec": \)[0-9]*/\10/; s/\("duration_usec": \)[0-9]*/\10/' \
		-e 's/usec=[0-9]*/usec=0/g; s/\("usec": \)[0-9]*/\10/' \
		-e 's/"timestamp":[0-9]*/"timestamp":0/g' \
		-e "s/drvfilter\.conf\.[A-Za-z0-9]\{6\}/drvfilter.conf.XXXXXX/g" \
		-e 's/[0-9-]* [0-9:]* UTC in [0-9.]* ms/DATE in N ms/' \
		"$tmp/$f.raw" |
		# valgrind's own notices (the memcheck run): an unhandled syscall
		# (openat2, which the program then does without) is not the program's.
		sed '/^--[0-9][0-9]*-- /d' >"$tmp/$f"
done
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
	for f in $files; do
		cp "$tmp/$f" "$dir/$f"
	done
	exit "${changed:-0}"
fi
fail=${changed:-0}
for f in $files; do
	if ! diff -u --label "expected $f" --label "actual $f" "$dir/$f" "$tmp/$f"; then
		fail=1
	fi
done
exit $fail
