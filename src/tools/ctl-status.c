// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl status: the truth about a running system. The mode and what it
 * guarantees, the lock, the policy and whether it is the one applied at boot,
 * every driver with its decision, devices bound to denied drivers, and unbound
 * devices with the modules that would drive them. The model is status-model.c;
 * the views are status-text.c, status-json.c and status-prom.c.
 */
#include <errno.h>
#include <stdio.h>

#include "ctl.h"
#include "log.h"
#include "status.h"

int verb_status(int argc, char **argv)
{
	struct status s;
	int r, ret = EXIT_FINE;

	r = status_load(&s);
	if (r < 0) {
		if (r == -ENOMEM)
			log_oom();
		status_release(&s);
		return EXIT_ERROR;
	}
	if (arg_prometheus)
		status_print_prometheus(&s);
	else if (arg_json != JSON_OFF)
		status_print_json(&s);
	else
		status_print_text(&s);
	/* The metrics carry the violations; a textfile job needs "written" = 0. */
	if ((s.drift || s.violations || s.mismatches) && !arg_prometheus)
		ret = EXIT_VIOLATION;
	status_release(&s);
	return ret;
}
