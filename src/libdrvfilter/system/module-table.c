// SPDX-License-Identifier: GPL-2.0-only
/*
 * The module tree as a table, from its index files (modules.alias,
 * modules.dep, modules.builtin) and /sys/module: each module's buses, its
 * drivers when it is loaded, its dependents and its file; and the modules
 * that provide a denied driver and no allowed one, for the fallback
 * blacklist (modules.c says how a driver's name is guessed before loading).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "strbuf.h"
#include "strv.h"
#include "system/system-private.h"

/* The bus an alias prefix names, or NULL when the alias is not for a device. */
static const char *alias_bus(const char *prefix)
{
	static const char *const map[][2] = {
		/* Firmware-described devices are platform devices. */
		{ "acpi", "platform" },
		{ "of", "platform" },
		{ "ieee1394", "firewire" },
		/* Prefixes of scripts/mod/file2alias.c unlike their bus's name. */
		{ "mdio", "mdio_bus" },
		{ "sdw", "soundwire" },
		{ "slim", "slimbus" },
		{ "ssam", "surface_aggregator" },
		{ "tbsvc", "thunderbolt" },
		{ "mipscdmm", "cdmm" },
		{ "vchiq", "vchiq-bus" },
		{ "idxd", "dsa" },
		/* CPU features and machine models, not devices; devname is a device node. */
		{ "cpu", NULL },
		{ "x86cpu", NULL },
		{ "dmi", NULL },
		{ "devname", NULL },
	};
	const char *why;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (streq(prefix, map[i][0]))
			return map[i][1];
	return df_bus_name_check(prefix, &why) == 0 ? prefix : NULL;
}

static struct df_modinfo *modtable_get(struct df_modtable *t, const char *name)
{
	struct df_modinfo *mi = strmap_get(&t->map, name);

	if (mi)
		return mi;
	if (!ARRAY_GROW(t->all, t->cap, t->n))
		return NULL;
	mi = calloc(1, sizeof(*mi));
	if (!mi || !(mi->name = strdup(name))) {
		free(mi);
		return NULL;
	}
	if (strmap_put(&t->map, mi->name, mi, NULL) < 0) {
		free(mi->name);
		free(mi);
		return NULL;
	}
	t->all[t->n++] = mi;
	return mi;
}

void df_modtable_release(struct df_modtable *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct df_modinfo *mi = t->all[i];

		strv_release(&mi->buses);
		strv_release(&mi->drivers);
		free(mi->name);
		free(mi->path);
		free(mi);
	}
	free(t->all);
	strmap_release(&t->map);
	*t = (struct df_modtable){ 0 };
}

/*
 * The tree's index @file as a stream, or NULL with errno set. O_NONBLOCK and
 * a regular file only: a FIFO in its place must not hang the boot.
 */
static FILE *open_index(const struct df_modules *m, const char *file)
{
	_cleanup_free_ char *path = NULL;
	struct stat st;
	FILE *f;
	int fd;

	if (asprintf(&path, "%s/%s", m->dirname, file) < 0) {
		errno = ENOMEM;
		return NULL;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		errno = ENOMEM;
	}
	return f;
}

/* depmod's modules.alias: "alias PATTERN MODULE" lines. */
static int read_aliases(struct df_modules *m, struct df_modtable *t)
{
	_cleanup_free_ char *line = NULL;
	size_t size = 0;
	FILE *f = open_index(m, "modules.alias");
	/*
	 * depmod writes a module's aliases together, and most of one prefix:
	 * the last prefix's bus and the last module are asked again first
	 * (a real root's modules.alias has 26,000 lines).
	 */
	char last_prefix[64] = "";
	const char *last_bus = NULL;
	struct df_modinfo *last = NULL;
	int r = 0;

	if (!f)
		return -errno;
	while (getline(&line, &size, f) > 0) {
		char *pattern, *module, *colon, *save = NULL;
		const char *bus;
		struct df_modinfo *mi;
		size_t plen;

		if (!strtok_r(line, " \t\n", &save) || !streq(line, "alias"))
			continue;
		pattern = strtok_r(NULL, " \t\n", &save);
		module = strtok_r(NULL, " \t\n", &save);
		if (!pattern || !module || !(colon = strchr(pattern, ':')))
			continue;
		*colon = '\0';
		if (colon > pattern && colon[-1] == '*')
			colon[-1] = '\0'; /* acpi*:... */
		plen = strlen(pattern);
		if (plen < sizeof(last_prefix) && memcmp(pattern, last_prefix, plen + 1) == 0) {
			bus = last_bus;
		} else {
			bus = alias_bus(pattern);
			if (plen < sizeof(last_prefix)) {
				memcpy(last_prefix, pattern, plen + 1);
				/* A bus named as its prefix points into the line: keep the copy. */
				last_bus = bus == pattern ? last_prefix : bus;
			}
		}
		if (!bus)
			continue;
		if (last && streq(module, last->name)) {
			mi = last;
		} else {
			if (df_sysfs_name_check(module) < 0)
				continue;
			mi = last = modtable_get(t, module);
		}
		if (!mi || strv_push_unique(&mi->buses, bus) < 0) {
			r = -ENOMEM;
			break;
		}
	}
	if (r == 0 && ferror(f))
		r = -EIO;
	fclose(f);
	return r;
}

/* /sys/module/M/drivers/BUS:DRIVER of loaded modules: their exact driver names. */
static int read_loaded(struct df_modules *m, struct df_modtable *t)
{
	_cleanup_close_ int fd = df_open_dir(m->ctx, "/sys/module");
	DIR *d;
	struct dirent *de;
	int r;

	if (fd < 0)
		return fd == -ENOENT ? 0 : fd;
	d = df_dir_open_at(fd, ".");
	if (!d)
		return -errno;
	while ((r = df_dir_next(d, &de)) > 0) {
		_cleanup_close_ int mfd = -1;
		struct df_modinfo *mi = NULL;
		DIR *dd;
		struct dirent *dde;

		if (df_sysfs_name_check(de->d_name) < 0)
			continue;
		mfd = df_open_dir_at(dirfd(d), de->d_name);
		/* Built-in modules have no initstate and cannot be blacklisted. */
		if (mfd < 0 || faccessat(mfd, "initstate", F_OK, 0) < 0)
			continue;
		dd = df_dir_open_at(mfd, "drivers");
		if (!dd)
			continue;
		while (df_dir_next(dd, &dde) > 0) {
			if (df_sysfs_name_check(dde->d_name) < 0 || !strchr(dde->d_name, ':'))
				continue;
			if (!mi)
				mi = modtable_get(t, de->d_name);
			if (mi)
				mi->loaded = true;
			if (!mi || strv_push_unique(&mi->drivers, dde->d_name) < 0) {
				r = -ENOMEM;
				break;
			}
		}
		closedir(dd);
		if (r < 0)
			break;
	}
	closedir(d);
	return r;
}

int df_module_decide(const struct df_policy *p, const char *bus, const char *module,
		     struct df_verdict *v)
{
	char alt[DF_NAME_MAX + 1];
	struct df_verdict v2;

	df_policy_decide(p, bus, module, v);
	/* kmod writes module names with '_'; drivers often spell them with '-'. */
	if (v->allowed || df_modname_dashed(module, alt) < 0 || streq(alt, module))
		return 0;
	df_policy_decide(p, bus, alt, &v2);
	if (v2.allowed)
		*v = v2;
	return 0;
}

bool df_modinfo_denied(const struct df_policy *p, const struct df_modinfo *mi)
{
	bool allowed = false, denied = false;
	struct df_verdict v;

	if (mi->drivers.n > 0) {
		for (size_t i = 0; i < mi->drivers.n; i++) {
			const char *drv = mi->drivers.v[i], *colon = strchr(drv, ':');
			char bus[DF_NAME_MAX + 1];

			snprintf(bus, sizeof(bus), "%.*s", (int)(colon - drv), drv);
			df_policy_decide(p, bus, colon + 1, &v);
			allowed |= v.allowed;
			denied |= !v.allowed;
		}
	} else {
		for (size_t i = 0; i < mi->buses.n; i++) {
			df_module_decide(p, mi->buses.v[i], mi->name, &v);
			allowed |= v.allowed;
			denied |= !v.allowed;
		}
	}
	/* A module that also provides an allowed driver stays loadable: unbinding covers it. */
	return denied && !allowed;
}

/* A module's name from its path in modules.dep: the file name without .ko[.xz|.zst|.gz], '-' as '_'. */
static int modname_from_path(const char *path, char buf[DF_NAME_MAX + 1])
{
	const char *base = strrchr(path, '/');
	char name[DF_NAME_MAX + 1];
	size_t n;

	base = base ? base + 1 : path;
	n = strcspn(base, ".");
	if (n == 0 || n > DF_NAME_MAX || !startswith(base + n, ".ko"))
		return -EINVAL;
	snprintf(name, sizeof(name), "%.*s", (int)n, base);
	return df_modname_normalize(name, buf);
}

/*
 * depmod's modules.dep: "PATH: DEP-PATH...", every dependency listed (the
 * closure). Each module's path, and how many modules need it.
 */
static int read_deps(struct df_modules *m, struct df_modtable *t)
{
	_cleanup_free_ char *path = NULL, *line = NULL;
	size_t size = 0;
	FILE *f;
	int r = 0;

	if (asprintf(&path, "%s/modules.dep", m->dirname) < 0)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (r == 0 && getline(&line, &size, f) > 0) {
		char name[DF_NAME_MAX + 1], *colon = strchr(line, ':'), *save = NULL;
		struct df_modinfo *mi;

		if (!colon)
			continue;
		*colon = '\0';
		/* Every module, aliases or not: the boot options check all their init functions. */
		if (modname_from_path(line, name) == 0) {
			mi = modtable_get(t, name);
			if (!mi)
				r = -ENOMEM;
			else if (!mi->path && asprintf(&mi->path, "%s/%s", m->dirname, line) < 0) {
				mi->path = NULL;
				r = -ENOMEM;
			}
		}
		for (char *dep = strtok_r(colon + 1, " \t\n", &save); r == 0 && dep;
		     dep = strtok_r(NULL, " \t\n", &save))
			if (modname_from_path(dep, name) == 0 && (mi = strmap_get(&t->map, name)))
				mi->dependents++;
	}
	if (r == 0 && ferror(f))
		r = -EIO;
	fclose(f);
	return r;
}

/* The module names of the tree's index @file (lines that start with a module's path) into @names. */
static int read_index_names(struct df_modules *m, const char *file, struct strv *names)
{
	_cleanup_free_ char *line = NULL;
	size_t size = 0;
	FILE *f = open_index(m, file);
	int r = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (r == 0 && getline(&line, &size, f) > 0) {
		char name[DF_NAME_MAX + 1];

		line[strcspn(line, ":\n")] = '\0';
		if (modname_from_path(line, name) == 0)
			r = strv_push(names, name);
	}
	if (r == 0 && ferror(f))
		r = -EIO;
	fclose(f);
	return r;
}

int df_modules_names(struct df_modules *m, struct strv *names)
{
	int r = read_index_names(m, "modules.dep", names);

	return r < 0 ? r : read_index_names(m, "modules.builtin", names);
}

int df_modtable_load(struct df_modules *m, struct df_modtable *t)
{
	int r;

	*t = (struct df_modtable){ 0 };
	r = read_aliases(m, t);
	if (r == 0)
		r = read_loaded(m, t);
	if (r == 0)
		r = read_deps(m, t);
	if (r < 0)
		df_modtable_release(t);
	return r;
}

int df_modules_blacklist(struct df_modules *m, const struct df_policy *p, char ***ret,
			 size_t *ret_n)
{
	struct df_modtable t = { 0 };
	struct strv list = STRV_INIT;
	int r;

	r = read_aliases(m, &t);
	if (r == 0)
		r = read_loaded(m, &t);
	/* The table holds each module once. */
	for (size_t i = 0; r == 0 && i < t.n; i++)
		if (df_modinfo_denied(p, t.all[i]))
			r = strv_push(&list, t.all[i]->name);
	m->known = r == 0 ? t.n : 0;
	df_modtable_release(&t);
	if (r < 0) {
		strv_release(&list);
		return r;
	}
	strv_sort(&list);
	*ret = strv_steal(&list, ret_n);
	return 0;
}
