// SPDX-License-Identifier: GPL-2.0-only
/*
 * The root file system's block device, for the boot devices' guard: the
 * last mount on "/" in mountinfo by its device number, else by its source
 * (/dev/vda2, /dev/mapper/NAME), else by root= on the command line.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check/check-private.h"

#define MOUNTINFO_LINE_MAX 4096

/* A mount's source for a message: printable ASCII without blanks, else "?". */
static const char *printable(const char *s)
{
	if (!s || !*s)
		return "?";
	for (const char *c = s; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f)
			return "?";
	return s;
}

static void parse_mountinfo_line(char *line, struct df_root_mount *m)
{
	char *save = NULL, *f[5], *sep, *type, *source;
	unsigned maj, min;

	sep = strstr(line, " - ");
	if (!sep)
		return;
	*sep = '\0';
	f[0] = strtok_r(line, " ", &save);
	for (size_t i = 1; i < ARRAY_SIZE(f); i++)
		f[i] = f[i - 1] ? strtok_r(NULL, " ", &save) : NULL;
	if (!f[4] || !streq(f[4], "/") || sscanf(f[2], "%u:%u", &maj, &min) != 2)
		return;
	save = NULL;
	type = strtok_r(sep + 3, " ", &save);
	source = strtok_r(NULL, " \n", &save);
	*m = (struct df_root_mount){ .maj = maj, .min = min, .found = true };
	snprintf(m->source, sizeof(m->source), "%s", printable(source));
	snprintf(m->type, sizeof(m->type), "%s", printable(type));
}

/* A device-mapper device by its name (/dev/mapper/NAME): the dm-N whose dm/name it is. */
static bool dm_by_name(const struct df_ctx *ctx, const char *name, char *rel, size_t size)
{
	_cleanup_close_ int fd = df_open_dir(ctx, "/sys/class/block");
	DIR *d = fd >= 0 ? df_dir_open_at(fd, ".") : NULL;
	struct dirent *de;
	char buf[DF_NAME_MAX + 1], attr[DF_NAME_MAX + 16];
	bool found = false;

	while (d && !found && df_dir_next(d, &de) > 0) {
		if (!startswith(de->d_name, "dm-") || df_sysfs_name_check(de->d_name) < 0)
			continue;
		snprintf(attr, sizeof(attr), "%s/dm/name", de->d_name);
		if (df_read_at(fd, attr, buf, sizeof(buf)) >= 0 && streq(buf, name)) {
			snprintf(rel, size, "/sys/class/block/%s", de->d_name);
			found = true;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* A /dev path of a block device (/dev/vda2, /dev/mapper/NAME), as its sysfs path. */
static bool block_by_dev(const struct df_ctx *ctx, const char *dev, char *rel, size_t size)
{
	const char *name = startswith(dev, "/dev/mapper/");

	if (name)
		return df_sysfs_name_check(name) == 0 && dm_by_name(ctx, name, rel, size);
	name = startswith(dev, "/dev/");
	if (!name || df_sysfs_name_check(name) < 0)
		return false;
	snprintf(rel, size, "/sys/class/block/%s", name);
	return df_ctx_exists(ctx, rel);
}

int df_root_device(const struct df_ctx *ctx, const struct df_cmdline_opts *o,
		   struct df_root_mount *m, char *rel, size_t size, char *label, size_t lsize)
{
	_cleanup_free_ char *path = df_ctx_path(ctx, "/proc/self/mountinfo");
	char line[MOUNTINFO_LINE_MAX];
	FILE *f;

	if (!path)
		return -ENOMEM;
	f = fopen(path, "re");
	/* The last mount on "/" is the one that is seen; an overlong line is no root's. */
	while (f && fgets(line, sizeof(line), f))
		if (strchr(line, '\n'))
			parse_mountinfo_line(line, m);
	if (f)
		fclose(f);
	if (m->found && m->maj != 0) {
		snprintf(rel, size, "/sys/dev/block/%u:%u", m->maj, m->min);
		snprintf(label, lsize, "%s, %u:%u", m->source, m->maj, m->min);
		if (df_ctx_exists(ctx, rel))
			return 1;
	}
	/* Not a block device's number (btrfs): its source, else root= ("/dev/root"). */
	if (m->found && block_by_dev(ctx, m->source, rel, size)) {
		snprintf(label, lsize, "%s", m->source);
		return 1;
	}
	if (o->root && block_by_dev(ctx, o->root, rel, size)) {
		snprintf(label, lsize, "root=%s", printable(o->root));
		return 1;
	}
	return 0;
}
