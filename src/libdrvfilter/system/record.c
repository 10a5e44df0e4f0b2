// SPDX-License-Identifier: GPL-2.0-only
/*
 * A recording of what drvfilter reads of a system, as a tree that --sysroot
 * reads back: the sysfs layout of buses, drivers, devices and modules (links
 * and the few attributes read: modalias, initstate, allowed, the driver
 * filter's files, which of bind/unbind exist), the init calls of kallsyms
 * (addresses zeroed), the kernel log (the init-call trace of a recording
 * boot), /proc/cmdline, the kernel release, the module index files with the
 * init functions of the modules, os-release, the policy and the state file.
 *
 * Names read are checked before they become paths; an entry that cannot be
 * read or has an unsafe name is skipped and counted. The tree is built beside
 * the target directory and renamed into place at the end: a recording is
 * whole or absent.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "strbuf.h"
#include "strv.h"
#include "system/system-private.h"

static int record_kallsyms(struct df_rec *rec)
{
	_cleanup_free_ char *path = df_ctx_path(rec->ctx, "/proc/kallsyms"), *line = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t size = 0;
	FILE *f;
	int r = 0;

	if (!path)
		return -ENOMEM;
	f = fopen(path, "re");
	if (!f) {
		df_log_cond(rec->ctx, LOG_WARNING, "cannot read '/proc/kallsyms': %m");
		rec->c->skipped++;
		return 0;
	}
	while (r >= 0 && getline(&line, &size, f) > 0) {
		char *save = NULL, *type, *name, *mod = NULL, *fn = NULL, level[8];

		if (!strtok_r(line, " \t\n", &save) || !(type = strtok_r(NULL, " \t\n", &save)) ||
		    !(name = strtok_r(NULL, " \t\n", &save)) ||
		    !startswith(name, "__initcall__kmod_"))
			continue;
		/* Only what parses with safe names; the address is this boot's, not the kernel's. */
		if (df_initcall_parse(name, &mod, &fn, level) < 0 || strlen(type) != 1) {
			df_rec_skip(
				rec, "the init call", name,
				"it does not parse, or its names are not fit for a command line");
			continue;
		}
		free(mod);
		free(fn);
		r = strbuf_appendf(&sb, "0000000000000000 %s %s\n", type, name);
		rec->c->initcalls++;
	}
	if (r >= 0 && ferror(f))
		df_rec_skip(rec, "the rest of", "/proc/kallsyms", "a read error");
	fclose(f);
	if (r >= 0)
		r = df_rec_put_file(rec, "proc/kallsyms", strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
	return r;
}

static int record_kmsg(struct df_rec *rec)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r = df_kmsg_read(rec->ctx, &buf, &len);

	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		df_log_cond(rec->ctx, LOG_WARNING, "cannot read the kernel log: %s", strerror(-r));
		rec->c->skipped++;
		return 0;
	}
	for (size_t i = 0; i < len; i++)
		rec->c->kmsg_records += buf[i] == '\n' && i + 1 < len && buf[i + 1] != ' ';
	rec->c->kmsg_records += len > 0 && buf[0] != ' ';
	return df_rec_put_file(rec, "dev/kmsg", buf, len);
}

/* The index files of /lib/modules/RELEASE, and the modules' init functions (modules.initfn). */
static int record_module_tree(struct df_rec *rec, const char *release)
{
	_cleanup_(df_modules_freep) struct df_modules *m = NULL;
	_cleanup_free_ char *rel = NULL;
	struct df_modtable mt;
	struct strbuf sb = STRBUF_INIT;
	DIR *d;
	struct dirent *de;
	int r = 0;

	if (asprintf(&rel, "/lib/modules/%s", release) < 0)
		return -ENOMEM;
	{
		_cleanup_close_ int fd = df_open_dir(rec->ctx, rel);

		d = fd >= 0 ? df_dir_open_at(fd, ".") : NULL;
	}
	if (!d) {
		df_log_cond(rec->ctx, LOG_WARNING, "cannot read '%s': %m", rel);
		rec->c->skipped++;
		return 0;
	}
	while (r >= 0 && df_dir_next(d, &de) > 0) {
		_cleanup_free_ char *path = NULL;

		if (!startswith(de->d_name, "modules.") || df_sysfs_name_check(de->d_name) < 0 ||
		    (de->d_type != DT_REG && de->d_type != DT_UNKNOWN))
			continue;
		if (asprintf(&path, "%s/%s", rel, de->d_name) < 0)
			r = -ENOMEM;
		else
			r = df_rec_copy_file(rec, path, true);
	}
	closedir(d);
	if (r < 0 || df_modules_open(rec->ctx, &m) < 0 || df_modtable_load(m, &mt) < 0)
		return r;
	for (size_t i = 0; r >= 0 && i < mt.n; i++) {
		struct strv names = STRV_INIT;

		if (!mt.all[i]->path)
			continue;
		/* "MODULE -": its init function is not known (a compressed file, say). */
		if (df_module_init_names(mt.all[i]->path, &names) < 0) {
			rec->c->modules_unread++;
			r = strbuf_appendf(&sb, "%s -\n", mt.all[i]->name);
		}
		for (size_t k = 0; r >= 0 && k < names.n; k++)
			if (df_cmdline_name_ok(names.v[k]))
				r = strbuf_appendf(&sb, "%s %s\n", mt.all[i]->name, names.v[k]);
		strv_release(&names);
	}
	df_modtable_release(&mt);
	if (r >= 0) {
		_cleanup_free_ char *out = NULL;

		if (asprintf(&out, "lib/modules/%s/modules.initfn", release) < 0)
			r = -ENOMEM;
		else
			r = df_rec_put_file(rec, out, strbuf_str(&sb), sb.len);
	}
	strbuf_release(&sb);
	return r;
}

/* Policy drop-ins: the *.conf files of @dir. */
static int record_dropins(struct df_rec *rec, const char *dir)
{
	_cleanup_close_ int fd = df_open_dir(rec->ctx, dir);
	DIR *d = fd >= 0 ? df_dir_open_at(fd, ".") : NULL;
	struct dirent *de;
	int r = 0;

	while (d && r >= 0 && df_dir_next(d, &de) > 0) {
		_cleanup_free_ char *path = NULL;
		size_t n = strlen(de->d_name);

		if (n < 6 || !streq(de->d_name + n - 5, ".conf") ||
		    df_sysfs_name_check(de->d_name) < 0)
			continue;
		if (asprintf(&path, "%s/%s", dir, de->d_name) < 0)
			r = -ENOMEM;
		else
			r = df_rec_copy_file(rec, path, true);
	}
	if (d)
		closedir(d);
	return r;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)(flag == FTW_DP ? rmdir(path) : unlink(path));
	return 0;
}

static int write_manifest(struct df_rec *rec, const char *release)
{
	_cleanup_free_ char *text = NULL;
	struct timespec ts;
	int n;

	clock_gettime(CLOCK_REALTIME, &ts);
	n = asprintf(&text,
		     "# drvfilterctl record: what drvfilter reads of a system, for --sysroot\n"
		     "version=1\nrelease=%s\nrecorded_usec=%lld\ninitramfs=%s\nskipped=%zu\n",
		     release, (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000,
		     rec->c->initramfs ? "yes" : "no", rec->c->skipped);
	if (n < 0)
		return -ENOMEM;
	return df_rec_put_file(rec, "drvfilter-record", text, (size_t)n);
}

int df_record_system(struct df_ctx *ctx, const char *dir, const char *policy,
		     struct df_record_counts *counts)
{
	_cleanup_free_ char *dropins = NULL;
	char release[DF_NAME_MAX + 1] = "";
	struct df_rec rec = { .ctx = ctx, .c = counts };
	struct stat st;
	int r;

	*counts = (struct df_record_counts){ 0 };
	r = df_in_initramfs(ctx);
	if (r < 0)
		return r;
	counts->initramfs = r;
	if (lstat(dir, &st) == 0)
		return -EEXIST;
	if (asprintf(&rec.out, "%s.XXXXXX", dir) < 0)
		return -ENOMEM;
	if (!mkdtemp(rec.out)) {
		r = -errno;
		free(rec.out);
		return r;
	}
	(void)chmod(rec.out, 0755);
	r = df_osrelease(ctx, release, sizeof(release));
	if (r == 0)
		r = df_rec_put_file(&rec, "proc/sys/kernel/osrelease", strcat(release, "\n"),
				    strlen(release));
	else
		counts->skipped++, r = 0;
	release[strcspn(release, "\n")] = '\0';
	if (r == 0)
		r = df_rec_copy_file(&rec, "/proc/cmdline", true);
	if (r == 0)
		r = record_kallsyms(&rec);
	if (r == 0)
		r = record_kmsg(&rec);
	if (r == 0)
		r = df_rec_sys(&rec);
	if (r == 0 && *release)
		r = record_module_tree(&rec, release);
	if (r == 0)
		r = df_rec_copy_file(&rec, "/etc/os-release", false);
	if (r == 0)
		r = df_rec_copy_file(&rec, policy, false);
	if (r == 0 && asprintf(&dropins, "%s.d", policy) < 0)
		r = -ENOMEM;
	if (r == 0)
		r = record_dropins(&rec, dropins);
	if (r == 0)
		r = record_dropins(&rec, "/run/drvfilter.conf.d");
	if (r == 0)
		r = df_rec_copy_file(&rec, "/run/drvfilter/state.json", false);
	if (r == 0)
		r = write_manifest(&rec, release);
	if (r == 0 && rename(rec.out, dir) < 0)
		r = -errno;
	if (r < 0)
		(void)nftw(rec.out, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(rec.out);
	return r;
}
