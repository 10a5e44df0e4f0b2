# shellcheck shell=sh
# shellcheck disable=SC2154 # here, scenario, shipped: set by check-scenario.sh and measure.sh
# drvfilter=off: nothing is enforced, the measurement says so, verify refuses.
# shellcheck disable=SC1091 # the scenarios' shared checks
. "$here/measure.sh"
expect "the override was applied" kmsg_has 'drvfilter: action=override drvfilter=off'
expect "it was measured" evlog_has 'override=yes'
expect "verify refuses the guest" verify_rejects --expect-policy "$shipped" --expect-mode fallback
expect "because nothing was enforced" verify_says 'drvfilter=off was on the kernel command line: nothing was enforced'
