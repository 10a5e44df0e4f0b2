#!/bin/sh
# Run one sysroot case: build a fresh tree from the specs DIR/specs names (one
# per line, from tests/fixtures), install DIR/policy.conf as its
# /etc/drvfilter.conf, run the shell fragment DIR/cmd in DIR with $CTL, $APPLY
# and $SYSROOT set, then compare standard output, standard error, the exit
# status and what the run left in the tree (dump-sysroot) with DIR/stdout,
# DIR/stderr, DIR/status and DIR/after. The tree's path reads @SYSROOT@ in all
# of them. UPDATE_GOLDEN=1 rewrites the expected files instead.
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
specs=
while read -r s; do
	specs="$specs $fixtures/$s.spec"
done <"$dir/specs"
# shellcheck disable=SC2086 # one word per spec file
sh "$fixtures/mksysroot" "$SYSROOT" $specs || exit 1
if [ -e "$dir/policy.conf" ]; then
	cp "$dir/policy.conf" "$SYSROOT/etc/drvfilter.conf"
	chmod 0644 "$SYSROOT/etc/drvfilter.conf"
fi
export CTL APPLY SYSROOT
(cd "$dir" && sh ./cmd) >"$tmp/stdout.raw" 2>"$tmp/stderr.raw"
status=$?
[ "$status" = 77 ] && exit 77
echo "$status" >"$tmp/status"
sh "$here/dump-sysroot.sh" "$SYSROOT" >"$tmp/after.raw"
for f in stdout stderr after; do
	# The tree's path, times and durations differ from run to run.
	sed -e "s|$SYSROOT|@SYSROOT@|g" \
		-e 's/\("applied_usec": \)[0-9]*/\10/; s/\("duration_usec": \)[0-9]*/\10/' \
		-e 's/usec=[0-9]*/usec=0/g; s/\("usec": \)[0-9]*/\10/' \
		-e "s/drvfilter\.conf\.[A-Za-z0-9]\{6\}/drvfilter.conf.XXXXXX/g" \
		-e 's/[0-9-]* [0-9:]* UTC in [0-9.]* ms/DATE in N ms/' \
		"$tmp/$f.raw" >"$tmp/$f"
done
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
	for f in stdout stderr status after; do
		cp "$tmp/$f" "$dir/$f"
	done
	exit 0
fi
fail=0
for f in stdout stderr status after; do
	if ! diff -u --label "expected $f" --label "actual $f" "$dir/$f" "$tmp/$f"; then
		fail=1
	fi
done
exit $fail
