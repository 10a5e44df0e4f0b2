# shellcheck shell=sh
# The kernel rate-limits /dev/kmsg per open file (10 records in 5 s) and
# drops the rest; the helper opens it anew before each tenth record, so that
# the audit trail in the kernel log is whole.
expect "no line of the helper's was dropped by the kernel's rate limit" not_console_has 'drvfilter-apply: [0-9]* output lines suppressed'
