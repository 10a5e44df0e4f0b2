# shellcheck shell=sh
# Checks on a stock-kernel boot whose policy denies a built-in driver.
expect "the built-in i8042 was unbound" kmsg_has 'drvfilter: action=unbind bus=platform driver=i8042 device=i8042 result=ok'
expect "the state file records the unbind" state_has '"device": "i8042"'
expect "status --json: i8042 is built in and denied" json_has '"bus":"platform","name":"i8042","module":"i8042","builtin":true,"decision":"denied"'
expect "status --json: nothing bound to it any more" json_has '"name":"i8042","module":"i8042","builtin":true,"decision":"denied","rule":"\[deny\] platform = i8042","kernel_allowed":null,"devices":\[\]'
expect "status --json: no violation" json_has '"violations":\[\]'
