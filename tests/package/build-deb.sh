#!/bin/sh
# Build the Debian package with dpkg-buildpackage from a copy of SOURCE-DIR
# (its git-tracked and untracked-but-not-ignored files when it is a git
# checkout, else the whole tree but build*/ and .git): dpkg-buildpackage
# writes to the source's parent directory and cleans the tree, so neither
# happens in the checkout. Source and binary packages (a .dsc, a .deb, one
# .changes naming both) land in OUT-DIR, emptied first. The unit, CLI and
# fixture tests the package build would run are skipped (nocheck): the
# developer build runs them already.
# Usage: build-deb.sh SOURCE-DIR OUT-DIR
set -eu
src=$(cd "$1" && pwd)
out=$2
rm -rf "$out"
mkdir -p "$out/build/drvfilter"
out=$(cd "$out" && pwd)
tree=$out/build/drvfilter

if git -C "$src" rev-parse --show-toplevel >/dev/null 2>&1; then
	# A file deleted but not yet committed is not there to copy: skipped.
	# shellcheck disable=SC2016 # the inner shell expands "$f"
	git -C "$src" ls-files -z --cached --others --exclude-standard |
		(cd "$src" && xargs -0 sh -c 'for f; do [ -e "$f" ] || [ -L "$f" ] && printf "%s\n" "$f"; done' sh) |
		(cd "$src" && tar -cf - --no-recursion -T -) | tar -xf - -C "$tree"
else
	(cd "$src" && tar -cf - --exclude='./build*' --exclude=./.git .) | tar -xf - -C "$tree"
fi

# Set (even empty) in the environment, they are kept: DEB_BUILD_OPTIONS=
# DEB_BUILD_PROFILES= runs the tests too (dpkg's nocheck profile implies the option).
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS-nocheck}" DEB_BUILD_PROFILES="${DEB_BUILD_PROFILES-nocheck}"
if ! (cd "$tree" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log"
	echo "build-deb: dpkg-buildpackage failed (the whole log: $out/build.log)" >&2
	exit 1
fi
mv "$out"/build/*.deb "$out"/build/*.dsc "$out"/build/*.tar.* "$out"/build/*.changes \
	"$out"/build/*.buildinfo "$out/"
rm -rf "$out/build"
