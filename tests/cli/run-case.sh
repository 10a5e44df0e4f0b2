#!/bin/sh
# Run one CLI golden case: DIR/cmd is a shell fragment run in DIR with $CTL set to
# drvfilterctl; its standard output, standard error and exit status must equal
# DIR/stdout, DIR/stderr and DIR/status. UPDATE_GOLDEN=1 rewrites them instead.
set -u
CTL=$1
dir=$2
# Owner and mode checks need a root-owned file: skipped (77) for other users.
if [ -e "$dir/requires-root" ] && [ "$(id -u)" != 0 ]; then
	exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
export CTL
(cd "$dir" && sh ./cmd) >"$tmp/stdout" 2>"$tmp/stderr"
status=$?
# A case that cannot run here (no mount namespaces, say) says so with 77.
[ "$status" = 77 ] && exit 77
echo "$status" >"$tmp/status"
if [ "${UPDATE_GOLDEN:-0}" = 1 ]; then
	for f in stdout stderr status; do
		cp "$tmp/$f" "$dir/$f"
	done
	exit 0
fi
fail=0
for f in stdout stderr status; do
	if ! diff -u --label "expected $f" --label "actual $f" "$dir/$f" "$tmp/$f"; then
		fail=1
	fi
done
exit $fail
