# shellcheck shell=sh
# The stock-cmdline boot without the boot options: today's best effort. The
# built-in i8042 binds the PS/2 ports before user space runs and cannot be
# unbound, insmod loads a denied module, and status names the missing options.
expect "no boot options on the command line" not_console_has '^DRVFILTER-CMDLINE: .*initcall_blacklist='
expect "i8042's pnp keyboard driver registered" registered 'pnp:i8042 kbd'
expect "status --json: i8042 kbd is a violation" json_has '"violations":\[[^]]*"driver":"i8042 kbd"'
expect "status --json: and i8042 aux" json_has '"violations":\[[^]]*"driver":"i8042 aux"'
expect "status --json: two violations" json_has '"counts":{[^}]*"violations":2'
# The PS/2 ports' pnp drivers have no unbind file: two failed unbinds, the
# drift named first; the options that would have kept them out are listed.
expect "status --json: the failed unbinds are drift" json_has '"drift":\[{"code":"apply_errors","text":"the last apply failed 2 actions'
expect "status: no boot options on the command line" console_has '^Boot: *no drvfilter boot options on the kernel command line'
expect "status --json: module_blacklist=e1000 is missing" json_has '"missing":\[[^]]*"module_blacklist=e1000"'
expect "status exits 3" console_has '^DRVFILTER-STATUS-END status=3'
expect "insmod loads the denied e1000.ko" console_has '^DRVFILTER-INSMOD: status=0'
