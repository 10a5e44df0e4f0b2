#!/bin/sh
# Render a man page as man(1) would, failing on any groff warning or error.
set -eu
page=$1
out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -l "$page" 2>&1 >/dev/null)
if [ -n "$out" ]; then
	printf '%s: groff says:\n%s\n' "$page" "$out" >&2
	exit 1
fi
# The page must say something: its NAME section at least.
LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q '^NAME'
