/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drvfilterctl generate: a policy written from the drivers bound now
 * (ctl-generate.c), or a profile with the drivers bound now that it denies
 * (ctl-generate-profile.c).
 */
#ifndef DRVFILTER_CTL_GENERATE_H
#define DRVFILTER_CTL_GENERATE_H

#include <stdbool.h>
#include <stddef.h>

#include "drvfilter.h"
#include "strbuf.h"

/* What generate knows of the target: the drivers its boot devices need. */
struct gen {
	char **boot; /* "BUS:DRIVER" */
	size_t nboot;
	bool root_unknown; /* the root is on no block device: what it needs is not known */
	size_t nrisky; /* risky drivers bound now, left out */
	struct strbuf risky; /* ", BUS:DRIVER" each */
};

/* Whether a boot device (the root file system's, a console's) needs @bus's @driver. */
bool gen_boot_needs(const struct gen *gen, const char *bus, const char *driver);
/* A name in a comment: printable ASCII only, and no '\\' that would join lines. */
int gen_append_note_name(struct strbuf *sb, const char *name);
/* @drv's devices, @first before the first and ", " between, cut short with a count. */
int gen_append_devices(struct strbuf *sb, const struct df_driver *drv, const char *first);

/* generate --profile @profile on the drivers of @inv: the exit code. */
int gen_run_profile(const char *profile, const struct gen *gen, const struct df_inventory *inv);

#endif
