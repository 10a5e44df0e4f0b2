// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording of /sys: each bus with its drivers (module link, allowed,
 * which of bind and unbind exist, their devices) and devices (their place
 * in /sys/devices, modalias, firmware node), /sys/module's drivers, and the
 * driver filter's files. Links are kept as links, checked to stay in /sys.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "system/system-private.h"

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

static int record_driver(struct df_rec *rec, int driversfd, const char *bus, const char *name)
{
	_cleanup_close_ int fd = df_open_dir_at(driversfd, name);
	_cleanup_free_ char *dir = NULL;
	char buf[DF_NAME_MAX + 1], path[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int r;

	if (fd < 0) {
		df_rec_skip(rec, "driver", name, strerror(-fd));
		return 0;
	}
	if (asprintf(&dir, "sys/bus/%s/drivers/%s", bus, name) < 0)
		return -ENOMEM;
	r = df_rec_mkdirs(rec, dir);
	if (r < 0)
		return r;
	rec->c->drivers++;
	for (size_t i = 0; i < ARRAY_SIZE(driver_files); i++)
		if (faccessat(fd, driver_files[i], F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, driver_files[i]);
			r = df_rec_put_file(rec, path, "", 0);
			if (r < 0)
				return r;
		}
	if (df_read_at(fd, "allowed", buf, sizeof(buf) - 1) >= 0) {
		snprintf(path, sizeof(path), "%s/allowed", dir);
		r = df_rec_put_file(rec, path, strcat(buf, "\n"), strlen(buf));
		if (r < 0)
			return r;
	}
	r = df_readlink_name_at(fd, "module", buf, sizeof(buf));
	if (r == 0) {
		char target[DF_NAME_MAX + 32];

		snprintf(path, sizeof(path), "%s/module", dir);
		snprintf(target, sizeof(target), "../../../../module/%s", buf);
		r = df_rec_put_link(rec, path, target);
		if (r < 0)
			return r;
	} else if (r != -ENOENT) {
		df_rec_skip(rec, "the module link of driver", name, strerror(-r));
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
			df_rec_skip(rec, "a device link of driver", name,
				    "its name or target is not safe to use");
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		snprintf(target, sizeof(target), "../../../../devices/%s", devpath);
		r = df_rec_put_link(rec, path, target);
	}
	closedir(d);
	return r;
}

static int record_device(struct df_rec *rec, int devicesfd, const char *bus, const char *name)
{
	_cleanup_close_ int fd = -1;
	char devpath[PATH_MAX], rel[PATH_MAX + 64], target[PATH_MAX + 64], buf[4096];
	ssize_t n;
	int r;

	if (devices_path(devicesfd, name, devpath, sizeof(devpath)) < 0 ||
	    (fd = df_open_dir_at(devicesfd, name)) < 0) {
		df_rec_skip(rec, "device", name,
			    "its link cannot be read or leads outside /sys/devices");
		return 0;
	}
	snprintf(rel, sizeof(rel), "sys/bus/%s/devices/%s", bus, name);
	snprintf(target, sizeof(target), "../../../devices/%s", devpath);
	r = df_rec_put_link(rec, rel, target);
	if (r == 0) {
		snprintf(rel, sizeof(rel), "sys/devices/%s", devpath);
		r = df_rec_mkdirs(rec, rel);
	}
	if (r < 0)
		return r;
	rec->c->devices++;
	n = df_read_at(fd, "modalias", buf, sizeof(buf));
	if (n >= 0) {
		snprintf(rel, sizeof(rel), "sys/devices/%s/modalias", devpath);
		buf[n] = '\n';
		r = df_rec_put_file(rec, rel, buf, (size_t)n + 1);
	} else if (n != -ENOENT) {
		df_rec_skip(rec, "the modalias of device", name, strerror((int)-n));
	}
	if (r == 0 && df_readlink_name_at(fd, "driver", buf, DF_NAME_MAX + 1) == 0) {
		snprintf(rel, sizeof(rel), "sys/devices/%s/driver", devpath);
		target[0] = '\0';
		for (size_t i = depth(devpath) + 1; i > 0; i--)
			strcat(target, "../");
		snprintf(target + strlen(target), sizeof(target) - strlen(target),
			 "bus/%s/drivers/%s", bus, buf);
		r = df_rec_put_link(rec, rel, target);
	}
	if (r == 0 && faccessat(fd, "firmware_node", F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		/* Only that there is one matters: the firmware describes the device. */
		snprintf(rel, sizeof(rel), "sys/devices/%s/firmware_node", devpath);
		r = df_rec_put_link(rec, rel, "../firmware");
	}
	return r;
}

static int record_bus(struct df_rec *rec, int busesfd, const char *bus)
{
	_cleanup_close_ int fd = df_open_dir_at(busesfd, bus);
	_cleanup_close_ int sub = -1;
	struct df_names names;
	char rel[DF_NAME_MAX + 32];
	int r;

	if (fd < 0) {
		df_rec_skip(rec, "bus", bus, strerror(-fd));
		return 0;
	}
	snprintf(rel, sizeof(rel), "sys/bus/%s/drivers", bus);
	r = df_rec_mkdirs(rec, rel);
	snprintf(rel, sizeof(rel), "sys/bus/%s/devices", bus);
	if (r == 0)
		r = df_rec_mkdirs(rec, rel);
	if (r < 0)
		return r;
	rec->c->buses++;
	if (df_dir_list_dirs(fd, "drivers", &names) == 0) {
		df_rec_skip_unsafe(rec, "drivers", bus, names.unsafe);
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
				df_rec_skip(rec, "a device of bus", bus,
					    "its name is not safe to use");
				continue;
			}
			r = record_device(rec, dirfd(d), bus, de->d_name);
		}
		if (d)
			closedir(d);
	}
	return r;
}

static int record_modules(struct df_rec *rec)
{
	_cleanup_close_ int fd = df_open_dir(rec->ctx, "/sys/module");
	struct df_names names;
	int r = 0;

	if (fd < 0)
		return 0;
	if (df_dir_list_dirs(fd, ".", &names) < 0) {
		df_rec_skip(rec, "directory", "/sys/module", "it cannot be listed");
		return 0;
	}
	df_rec_skip_unsafe(rec, "modules", "/sys/module", names.unsafe);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_close_ int mfd = df_open_dir_at(fd, names.v[i]);
		char rel[PATH_MAX], buf[64];
		DIR *d;
		struct dirent *de;

		if (mfd < 0) {
			df_rec_skip(rec, "module", names.v[i], strerror(-mfd));
			continue;
		}
		snprintf(rel, sizeof(rel), "sys/module/%s", names.v[i]);
		r = df_rec_mkdirs(rec, rel);
		rec->c->modules++;
		if (r == 0 && df_read_at(mfd, "initstate", buf, sizeof(buf) - 1) >= 0) {
			snprintf(rel, sizeof(rel), "sys/module/%s/initstate", names.v[i]);
			r = df_rec_put_file(rec, rel, strcat(buf, "\n"), strlen(buf));
		}
		d = r == 0 ? df_dir_open_at(mfd, "drivers") : NULL;
		while (d && r >= 0 && df_dir_next(d, &de) > 0) {
			const char *colon = strchr(de->d_name, ':');
			char target[PATH_MAX];

			if (!colon || df_sysfs_name_check(de->d_name) < 0) {
				df_rec_skip(rec, "a driver link of module", names.v[i],
					    "its name is not BUS:DRIVER or not safe to use");
				continue;
			}
			snprintf(rel, sizeof(rel), "sys/module/%s/drivers/%s", names.v[i],
				 de->d_name);
			snprintf(target, sizeof(target), "../../../bus/%.*s/drivers/%s",
				 (int)(colon - de->d_name), de->d_name, colon + 1);
			r = df_rec_put_link(rec, rel, target);
		}
		if (d)
			closedir(d);
	}
	df_names_release(&names);
	return r;
}

int df_rec_sys(struct df_rec *rec)
{
	_cleanup_close_ int fd = df_open_dir(rec->ctx, "/sys/bus");
	struct df_names names;
	int r = 0;

	if (fd < 0) {
		df_rec_skip(rec, "directory", "/sys/bus", strerror(-fd));
		return 0;
	}
	if (df_dir_list_dirs(fd, ".", &names) < 0) {
		df_rec_skip(rec, "directory", "/sys/bus", "it cannot be listed");
		return 0;
	}
	df_rec_skip_unsafe(rec, "buses", "/sys/bus", names.unsafe);
	for (size_t i = 0; r >= 0 && i < names.n; i++)
		r = record_bus(rec, fd, names.v[i]);
	df_names_release(&names);
	if (r >= 0)
		r = record_modules(rec);
	for (size_t i = 0; r >= 0 && i < 3; i++) {
		static const char *const files[] = { "allow", "deny", "locked" };
		char path[64];

		snprintf(path, sizeof(path), DF_KFILTER_DIR "/%s", files[i]);
		r = df_rec_copy_file(rec, path, false);
	}
	return r;
}
