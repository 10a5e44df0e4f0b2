#!/bin/sh
# The shipped alerting rules: valid for Prometheus (promtool check rules) and
# raising each alert where it should and nowhere else (promtool test rules,
# drvfilter.rules.test.yml).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
promtool=$(sh "$here/promtool.sh")
"$promtool" check rules "$here/../../monitoring/drvfilter.rules.yml"
"$promtool" test rules "$here/drvfilter.rules.test.yml"
