/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals of the checks: what the names' and the boot devices' checks share. */
#ifndef DRVFILTER_CHECK_PRIVATE_H
#define DRVFILTER_CHECK_PRIVATE_H

#include "bootopts/bootopts-private.h"
#include "check/check.h"

/* ---- boot-root.c ---- */

/* The root mount as mountinfo's last line for "/" gives it. */
struct df_root_mount {
	unsigned maj, min;
	char source[256];
	char type[64];
	bool found;
};

/*
 * The root file system's device, as a path under the sysroot: 1 when known,
 * 0 when not (@m says whether mountinfo had a root mount at all).
 */
int df_root_device(const struct df_ctx *ctx, const struct df_cmdline_opts *o,
		   struct df_root_mount *m, char *rel, size_t size, char *label, size_t lsize);

#endif
