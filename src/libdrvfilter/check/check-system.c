// SPDX-License-Identifier: GPL-2.0-only
/*
 * The policy against its target, as `check` runs it: buses the policy names
 * that the target lacks, then its driver names (lint-names.c) and the boot
 * devices' guard (lint-boot.c), and the measurement against the disks'
 * unlocking (lint-measure.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "check/check-private.h"

int df_policy_check_system(struct df_ctx *ctx, const struct df_policy *p, unsigned flags,
			   struct df_diags *diags)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, "/sys/bus");
	_cleanup_close_ int dfd = -1;
	int r;

	if (!path)
		return -ENOMEM;
	dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	/* No sysfs (a chroot building an image): no buses to compare with. */
	if (dfd < 0)
		df_dbg(ctx, "cannot open '%s': %m; bus names not checked", path);
	for (size_t i = 0; dfd >= 0 && i < p->nentries; i++) {
		const struct df_entry *e = &p->entries[i];

		if (e->any_bus || faccessat(dfd, e->key, F_OK, 0) == 0 || errno != ENOENT)
			continue;
		r = df_diags_set_file(diags, e->file);
		if (r >= 0)
			r = df_diags_add(diags, DF_WARNING, e->line,
					 "this machine has no bus '%s' (%s/%s)", e->key, path,
					 e->key);
		if (r < 0)
			return r;
	}
	r = df_diags_set_file(diags, NULL);
	if (r >= 0)
		r = df_policy_check_names(ctx, p, NULL, NULL, 0, flags, diags);
	if (r < 0)
		return r;
	df_diags_sort(diags);
	if (flags & DF_CHECK_OTHER_MACHINE)
		return 0;
	r = df_policy_check_boot(ctx, p, diags);
	if (r >= 0) {
		int k = df_policy_check_measure(ctx, p, diags);

		if (k < 0)
			return k;
	}
	return r;
}
