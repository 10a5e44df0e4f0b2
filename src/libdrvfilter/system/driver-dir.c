// SPDX-License-Identifier: GPL-2.0-only
/*
 * A driver's and a bus's directories as the enforcement walk reads them: the
 * devices a driver drives (links into /sys/devices named as themselves), the
 * module it belongs to, and a bus's devices grouped by the driver they are
 * bound to, read once per bus rather than once per driver.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "strv.h"
#include "system/system-private.h"

/*
 * A bound device's link points into /sys/devices and ends in the link's own
 * name: 1 if @name is one, 0 if not, -errno if the link cannot be read.
 */
static int is_device_link(int dfd, const char *name)
{
	char target[PATH_MAX];
	ssize_t n = readlinkat(dfd, name, target, sizeof(target) - 1);
	const char *base;

	if (n < 0)
		return errno == ENOENT || errno == EINVAL ? 0 : -errno; /* gone, or no link */
	if (n == 0)
		return 0;
	target[n] = '\0';
	base = strrchr(target, '/');
	return base && streq(base + 1, name) && strstr(target, "/devices/");
}

struct device_list {
	struct df_ctx *ctx;
	int drvfd;
	struct strv names;
	size_t *skipped;
	bool unbind; /* an entry "unbind" was seen */
};

static int add_device(void *data, const char *name, unsigned char type)
{
	struct device_list *l = data;
	struct stat st;
	int dev;

	if (streq(name, "unbind"))
		l->unbind = true;
	if (type == DT_UNKNOWN)
		type = fstatat(l->drvfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)
			       ? DT_LNK
			       : DT_REG;
	if (type != DT_LNK)
		return 0;
	dev = is_device_link(l->drvfd, name);
	if (dev < 0) {
		/* Maybe a bound device: not knowing is a failure, not a "no". */
		df_log_cond(l->ctx, LOG_WARNING, "cannot read a link of a driver: %s",
			    strerror(-dev));
		(*l->skipped)++;
		return 0;
	}
	if (!dev)
		return 0;
	if (df_sysfs_name_check(name) < 0) {
		df_log_cond(l->ctx, LOG_WARNING, "skipping a bound device whose name is not safe");
		(*l->skipped)++;
		return 0;
	}
	return strv_push(&l->names, name);
}

int df_driver_list_devices(struct df_ctx *ctx, int drvfd, char ***ret, size_t *ret_n,
			   size_t *skipped, int *unbind)
{
	struct device_list l = {
		.ctx = ctx, .drvfd = drvfd, .names = STRV_INIT, .skipped = skipped
	};
	/* Straight from the descriptor: no second open, no DIR (a driver's is on the boot path). */
	int r = df_dir_each(drvfd, add_device, &l);

	if (r < 0) {
		strv_release(&l.names);
		return r;
	}
	if (unbind)
		*unbind = l.unbind;
	strv_sort(&l.names);
	*ret = strv_steal(&l.names, ret_n);
	return 0;
}

int df_driver_module(struct df_ctx *ctx, int drvfd, char *buf, size_t size, bool *builtin)
{
	_cleanup_free_ char *path = NULL, *full = NULL;
	int r;

	r = df_readlink_name_at(drvfd, "module", buf, size);
	if (r == -ENOENT) {
		/* Loadable modules always get the link: without one, it is built in. */
		*builtin = true;
		return 0;
	}
	if (r < 0)
		return r;
	/* /sys/module/M/initstate exists for loadable modules only. */
	if (asprintf(&path, "/sys/module/%s/initstate", buf) < 0)
		return -ENOMEM;
	full = df_ctx_path(ctx, path);
	if (!full)
		return -ENOMEM;
	*builtin = access(full, F_OK) < 0 && errno == ENOENT;
	return 1;
}

/*
 * Each device pushed in the order of @devices, which is sorted: each driver's
 * share comes out sorted too. Drivers are found by name in @index (driver ->
 * entry's index + 1: the entries move as they grow, so the map of their
 * devices is built once they are all there).
 */
int df_busdevs_load(int devicesfd, const struct df_names *devices, struct df_busdevs *b)
{
	struct strmap index = STRMAP_INIT;
	int r = 0;

	for (size_t i = 0; i < devices->n && r >= 0; i++) {
		char rel[DF_NAME_MAX + sizeof("/driver")], name[DF_NAME_MAX + 1];
		struct df_busdevs_entry *e;
		uintptr_t j;
		int k;

		k = df_readlink_name_at(devicesfd,
					concat2(rel, sizeof(rel), devices->v[i], "/driver"), name,
					sizeof(name));
		if (k == -ENOENT)
			continue; /* not bound */
		if (k < 0) {
			b->skipped++;
			continue;
		}
		j = (uintptr_t)strmap_get(&index, name);
		if (!j) {
			e = ARRAY_GROW(b->entries, b->cap, b->n);
			if (!e || !(e->driver = strdup(name))) {
				r = -ENOMEM;
				break;
			}
			e->devices = (struct strv)STRV_INIT;
			j = ++b->n;
			r = strmap_put(&index, e->driver, (void *)j, NULL);
		}
		if (r >= 0)
			r = strv_push(&b->entries[j - 1].devices, devices->v[i]);
	}
	strmap_release(&index);
	for (size_t j = 0; j < b->n && r >= 0; j++)
		r = strmap_put(&b->map, b->entries[j].driver, &b->entries[j].devices, NULL);
	return r;
}

void df_busdevs_release(struct df_busdevs *b)
{
	for (size_t j = 0; j < b->n; j++) {
		free(b->entries[j].driver);
		strv_release(&b->entries[j].devices);
	}
	free(b->entries);
	strmap_release(&b->map);
	*b = (struct df_busdevs)DF_BUSDEVS_INIT;
}
