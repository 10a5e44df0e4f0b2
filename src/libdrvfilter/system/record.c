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

#include "system/system-private.h"
#include "strbuf.h"
#include "strv.h"

#define RECORD_FILE_MAX (64u * 1024 * 1024)

struct rec {
	struct df_ctx *ctx;
	char *out; /* the directory being built */
	struct df_record_counts *c;
};

/* An entry left out: said, with its name escaped (it may be anything), and counted. */
static void skip(struct rec *rec, const char *what, const char *name, const char *why)
{
	struct strbuf sb = STRBUF_INIT;

	(void)strbuf_append_escaped_max(&sb, name, 128);
	df_log_cond(rec->ctx, LOG_WARNING, "skipped %s '%s': %s", what, strbuf_str(&sb), why);
	strbuf_release(&sb);
	rec->c->skipped++;
}

static void skip_unsafe(struct rec *rec, const char *what, const char *where, size_t n)
{
	if (!n)
		return;
	df_log_cond(rec->ctx, LOG_WARNING, "skipped %zu %s of %s: names not safe to use", n, what,
		    where);
	rec->c->skipped += n;
}

/* Create the parent directories of @rel under the output. */
static int mkparents(struct rec *rec, const char *rel)
{
	_cleanup_free_ char *path = NULL;

	if (asprintf(&path, "%s/%s", rec->out, rel) < 0)
		return -ENOMEM;
	for (char *s = path + strlen(rec->out) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return 0;
}

static int mkdirs(struct rec *rec, const char *rel)
{
	_cleanup_free_ char *path = NULL;
	int r;

	if (asprintf(&path, "%s/%s/", rec->out, rel) < 0)
		return -ENOMEM;
	r = mkparents(rec, path + strlen(rec->out) + 1);
	return r;
}

static int put_file(struct rec *rec, const char *rel, const char *data, size_t len)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int fd = -1;
	size_t done = 0;
	int r;

	r = mkparents(rec, rel);
	if (r < 0)
		return r;
	if (asprintf(&path, "%s/%s", rec->out, rel) < 0)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		done += (size_t)n;
	}
	rec->c->files++;
	r = close(fd);
	fd = -1;
	return r < 0 ? -errno : 0;
}

static int put_link(struct rec *rec, const char *rel, const char *target)
{
	_cleanup_free_ char *path = NULL;
	int r = mkparents(rec, rel);

	if (r < 0)
		return r;
	if (asprintf(&path, "%s/%s", rec->out, rel) < 0)
		return -ENOMEM;
	if (symlink(target, path) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* Copy the file @path of the system (whole, bounded) to the same path in the recording. */
static int copy_file(struct rec *rec, const char *path, bool count_missing)
{
	_cleanup_free_ char *src = df_ctx_path(rec->ctx, path), *data = NULL;
	_cleanup_close_ int fd = -1;
	size_t len;
	int r;

	if (!src)
		return -ENOMEM;
	fd = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		if (errno != ENOENT || count_missing) {
			df_log_cond(rec->ctx, LOG_WARNING, "cannot read '%s': %m", path);
			rec->c->skipped++;
		}
		return 0;
	}
	r = df_read_full_fd(fd, RECORD_FILE_MAX, &data, &len);
	if (r == -ENOMEM)
		return r;
	if (r < 0) {
		df_log_cond(rec->ctx, LOG_WARNING, "cannot read '%s': %s", path, strerror(-r));
		rec->c->skipped++;
		return 0;
	}
	return put_file(rec, path + 1, data, len);
}

/* ---- /sys ---- */

/*
 * A link's target inside /sys/devices, as a path below it ("pci0000:00/0000:00:01.0"):
 * the leading "../" and "devices/" stripped, every component checked. -EINVAL otherwise.
 */
static int devices_path(int dirfd, const char *rel, char *buf, size_t size)
{
	char target[PATH_MAX];
	const char *s = target;
	ssize_t n = readlinkat(dirfd, rel, target, sizeof(target) - 1);
	size_t len;

	if (n < 0)
		return -errno;
	target[n] = '\0';
	while (startswith(s, "../"))
		s += 3;
	s = startswith(s, "devices/");
	if (!s || !*s)
		return -EINVAL;
	len = strlen(s);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, s, len + 1);
	for (const char *part = buf; *part;) {
		size_t k = strcspn(part, "/");
		char name[DF_NAME_MAX + 2];

		if (k == 0 || k > DF_NAME_MAX)
			return -EINVAL;
		snprintf(name, sizeof(name), "%.*s", (int)k, part);
		if (df_sysfs_name_check(name) < 0)
			return -EINVAL;
		part += k + (part[k] == '/');
	}
	return 0;
}

static size_t depth(const char *path)
{
	size_t d = 1;

	for (const char *s = path; *s; s++)
		d += *s == '/';
	return d;
}

static const char *const driver_files[] = { "bind", "unbind", "uevent", "new_id", "remove_id" };

static int record_driver(struct rec *rec, int driversfd, const char *bus, const char *name)
{
	_cleanup_close_ int fd = df_open_dir_at(driversfd, name);
	_cleanup_free_ char *dir = NULL;
	char buf[DF_NAME_MAX + 1], path[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int r;

	if (fd < 0) {
		skip(rec, "driver", name, strerror(-fd));
		return 0;
	}
	if (asprintf(&dir, "sys/bus/%s/drivers/%s", bus, name) < 0)
		return -ENOMEM;
	r = mkdirs(rec, dir);
	if (r < 0)
		return r;
	rec->c->drivers++;
	for (size_t i = 0; i < ARRAY_SIZE(driver_files); i++)
		if (faccessat(fd, driver_files[i], F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, driver_files[i]);
			r = put_file(rec, path, "", 0);
			if (r < 0)
				return r;
		}
	if (df_read_at(fd, "allowed", buf, sizeof(buf) - 1) >= 0) {
		snprintf(path, sizeof(path), "%s/allowed", dir);
		r = put_file(rec, path, strcat(buf, "\n"), strlen(buf));
		if (r < 0)
			return r;
	}
	r = df_readlink_name_at(fd, "module", buf, sizeof(buf));
	if (r == 0) {
		char target[DF_NAME_MAX + 32];

		snprintf(path, sizeof(path), "%s/module", dir);
		snprintf(target, sizeof(target), "../../../../module/%s", buf);
		r = put_link(rec, path, target);
		if (r < 0)
			return r;
	} else if (r != -ENOENT) {
		skip(rec, "the module link of driver", name, strerror(-r));
	}
	d = df_dir_open_at(fd, ".");
	if (!d)
		return 0;
	r = 0;
	while (r >= 0 && df_dir_next(d, &de) > 0) {
		char devpath[PATH_MAX - 32], target[PATH_MAX];
		struct stat st;

		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISLNK(st.st_mode) || streq(de->d_name, "module"))
			continue;
		if (df_sysfs_name_check(de->d_name) < 0 ||
		    devices_path(dirfd(d), de->d_name, devpath, sizeof(devpath)) < 0) {
			skip(rec, "a device link of driver", name,
			     "its name or target is not safe to use");
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(target, sizeof(target), "../../../../devices/%s", devpath);
		r = put_link(rec, path, target);
	}
	closedir(d);
	return r;
}

static int record_device(struct rec *rec, int devicesfd, const char *bus, const char *name)
{
	_cleanup_close_ int fd = -1;
	char devpath[PATH_MAX], rel[PATH_MAX + 64], target[PATH_MAX + 64], buf[4096];
	ssize_t n;
	int r;

	if (devices_path(devicesfd, name, devpath, sizeof(devpath)) < 0 ||
	    (fd = df_open_dir_at(devicesfd, name)) < 0) {
		skip(rec, "device", name, "its link cannot be read or leads outside /sys/devices");
		return 0;
	}
	snprintf(rel, sizeof(rel), "sys/bus/%s/devices/%s", bus, name);
	snprintf(target, sizeof(target), "../../../devices/%s", devpath);
	r = put_link(rec, rel, target);
	if (r == 0) {
		snprintf(rel, sizeof(rel), "sys/devices/%s", devpath);
		r = mkdirs(rec, rel);
	}
	if (r < 0)
		return r;
	rec->c->devices++;
	n = df_read_at(fd, "modalias", buf, sizeof(buf));
	if (n >= 0) {
		snprintf(rel, sizeof(rel), "sys/devices/%s/modalias", devpath);
		buf[n] = '\n';
		r = put_file(rec, rel, buf, (size_t)n + 1);
	} else if (n != -ENOENT) {
		skip(rec, "the modalias of device", name, strerror((int)-n));
	}
	if (r == 0 && df_readlink_name_at(fd, "driver", buf, DF_NAME_MAX + 1) == 0) {
		snprintf(rel, sizeof(rel), "sys/devices/%s/driver", devpath);
		target[0] = '\0';
		for (size_t i = depth(devpath) + 1; i > 0; i--)
			strcat(target, "../");
		snprintf(target + strlen(target), sizeof(target) - strlen(target),
			 "bus/%s/drivers/%s", bus, buf);
		r = put_link(rec, rel, target);
	}
	if (r == 0 && faccessat(fd, "firmware_node", F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		/* Only that there is one matters: the firmware describes the device. */
		snprintf(rel, sizeof(rel), "sys/devices/%s/firmware_node", devpath);
		r = put_link(rec, rel, "../firmware");
	}
	return r;
}

static int record_bus(struct rec *rec, int busesfd, const char *bus)
{
	_cleanup_close_ int fd = df_open_dir_at(busesfd, bus);
	_cleanup_close_ int sub = -1;
	struct df_names names;
	char rel[DF_NAME_MAX + 32];
	int r;

	if (fd < 0) {
		skip(rec, "bus", bus, strerror(-fd));
		return 0;
	}
	snprintf(rel, sizeof(rel), "sys/bus/%s/drivers", bus);
	r = mkdirs(rec, rel);
	snprintf(rel, sizeof(rel), "sys/bus/%s/devices", bus);
	if (r == 0)
		r = mkdirs(rec, rel);
	if (r < 0)
		return r;
	rec->c->buses++;
	if (df_dir_list_dirs(fd, "drivers", &names) == 0) {
		skip_unsafe(rec, "drivers", bus, names.unsafe);
		sub = df_open_dir_at(fd, "drivers");
		for (size_t i = 0; r >= 0 && sub >= 0 && i < names.n; i++)
			r = record_driver(rec, sub, bus, names.v[i]);
		df_names_release(&names);
	}
	if (r >= 0) {
		DIR *d = df_dir_open_at(fd, "devices");
		struct dirent *de;

		while (d && r >= 0 && df_dir_next(d, &de) > 0) {
			if (df_sysfs_name_check(de->d_name) < 0) {
				skip(rec, "a device of bus", bus, "its name is not safe to use");
				continue;
			}
			r = record_device(rec, dirfd(d), bus, de->d_name);
		}
		if (d)
			closedir(d);
	}
	return r;
}

static int record_modules(struct rec *rec)
{
	_cleanup_close_ int fd = df_open_dir(rec->ctx, "/sys/module");
	struct df_names names;
	int r = 0;

	if (fd < 0)
		return 0;
	if (df_dir_list_dirs(fd, ".", &names) < 0) {
		skip(rec, "directory", "/sys/module", "it cannot be listed");
		return 0;
	}
	skip_unsafe(rec, "modules", "/sys/module", names.unsafe);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_close_ int mfd = df_open_dir_at(fd, names.v[i]);
		char rel[PATH_MAX], buf[64];
		DIR *d;
		struct dirent *de;

		if (mfd < 0) {
			skip(rec, "module", names.v[i], strerror(-mfd));
			continue;
		}
		snprintf(rel, sizeof(rel), "sys/module/%s", names.v[i]);
		r = mkdirs(rec, rel);
		rec->c->modules++;
		if (r == 0 && df_read_at(mfd, "initstate", buf, sizeof(buf) - 1) >= 0) {
			snprintf(rel, sizeof(rel), "sys/module/%s/initstate", names.v[i]);
			r = put_file(rec, rel, strcat(buf, "\n"), strlen(buf));
		}
		d = r == 0 ? df_dir_open_at(mfd, "drivers") : NULL;
		while (d && r >= 0 && df_dir_next(d, &de) > 0) {
			const char *colon = strchr(de->d_name, ':');
			char target[PATH_MAX];

			if (!colon || df_sysfs_name_check(de->d_name) < 0) {
				skip(rec, "a driver link of module", names.v[i],
				     "its name is not BUS:DRIVER or not safe to use");
				continue;
			}
			snprintf(rel, sizeof(rel), "sys/module/%s/drivers/%s", names.v[i],
				 de->d_name);
			snprintf(target, sizeof(target), "../../../bus/%.*s/drivers/%s",
				 (int)(colon - de->d_name), de->d_name, colon + 1);
			r = put_link(rec, rel, target);
		}
		if (d)
			closedir(d);
	}
	df_names_release(&names);
	return r;
}

static int record_sys(struct rec *rec)
{
	_cleanup_close_ int fd = df_open_dir(rec->ctx, "/sys/bus");
	struct df_names names;
	int r = 0;

	if (fd < 0) {
		skip(rec, "directory", "/sys/bus", strerror(-fd));
		return 0;
	}
	if (df_dir_list_dirs(fd, ".", &names) < 0) {
		skip(rec, "directory", "/sys/bus", "it cannot be listed");
		return 0;
	}
	skip_unsafe(rec, "buses", "/sys/bus", names.unsafe);
	for (size_t i = 0; r >= 0 && i < names.n; i++)
		r = record_bus(rec, fd, names.v[i]);
	df_names_release(&names);
	if (r >= 0)
		r = record_modules(rec);
	for (size_t i = 0; r >= 0 && i < 3; i++) {
		static const char *const files[] = { "allow", "deny", "locked" };
		char path[64];

		snprintf(path, sizeof(path), DF_KFILTER_DIR "/%s", files[i]);
		r = copy_file(rec, path, false);
	}
	return r;
}

/* ---- /proc, the kernel log, the module tree ---- */

static int record_kallsyms(struct rec *rec)
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
			skip(rec, "the init call", name,
			     "it does not parse, or its names are not fit for a command line");
			continue;
		}
		free(mod);
		free(fn);
		r = strbuf_appendf(&sb, "0000000000000000 %s %s\n", type, name);
		rec->c->initcalls++;
	}
	if (r >= 0 && ferror(f))
		skip(rec, "the rest of", "/proc/kallsyms", "a read error");
	fclose(f);
	if (r >= 0)
		r = put_file(rec, "proc/kallsyms", strbuf_str(&sb), sb.len);
	strbuf_release(&sb);
	return r;
}

static int record_kmsg(struct rec *rec)
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
	return put_file(rec, "dev/kmsg", buf, len);
}

/* The index files of /lib/modules/RELEASE, and the modules' init functions (modules.initfn). */
static int record_module_tree(struct rec *rec, const char *release)
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
			r = copy_file(rec, path, true);
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
			r = put_file(rec, out, strbuf_str(&sb), sb.len);
	}
	strbuf_release(&sb);
	return r;
}

/* Policy drop-ins: the *.conf files of @dir. */
static int record_dropins(struct rec *rec, const char *dir)
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
			r = copy_file(rec, path, true);
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

static int write_manifest(struct rec *rec, const char *release)
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
	return put_file(rec, "drvfilter-record", text, (size_t)n);
}

int df_record_system(struct df_ctx *ctx, const char *dir, const char *policy,
		     struct df_record_counts *counts)
{
	_cleanup_free_ char *dropins = NULL;
	char release[DF_NAME_MAX + 1] = "";
	struct rec rec = { .ctx = ctx, .c = counts };
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
		r = put_file(&rec, "proc/sys/kernel/osrelease", strcat(release, "\n"),
			     strlen(release));
	else
		counts->skipped++, r = 0;
	release[strcspn(release, "\n")] = '\0';
	if (r == 0)
		r = copy_file(&rec, "/proc/cmdline", true);
	if (r == 0)
		r = record_kallsyms(&rec);
	if (r == 0)
		r = record_kmsg(&rec);
	if (r == 0)
		r = record_sys(&rec);
	if (r == 0 && *release)
		r = record_module_tree(&rec, release);
	if (r == 0)
		r = copy_file(&rec, "/etc/os-release", false);
	if (r == 0)
		r = copy_file(&rec, policy, false);
	if (r == 0 && asprintf(&dropins, "%s.d", policy) < 0)
		r = -ENOMEM;
	if (r == 0)
		r = record_dropins(&rec, dropins);
	if (r == 0)
		r = record_dropins(&rec, "/run/drvfilter.conf.d");
	if (r == 0)
		r = copy_file(&rec, "/run/drvfilter/state.json", false);
	if (r == 0)
		r = write_manifest(&rec, release);
	if (r == 0 && rename(rec.out, dir) < 0)
		r = -errno;
	if (r < 0)
		(void)nftw(rec.out, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	free(rec.out);
	return r;
}
