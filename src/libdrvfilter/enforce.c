// SPDX-License-Identifier: GPL-2.0-only
/*
 * Enforcement, in the two modes of the design. Kernel mode: the lists into
 * /sys/kernel/driver_filter, every driver's allowed bit, the lock. Fallback:
 * a modprobe.d blacklist, then unbinding what denied drivers hold. One walk
 * over /sys/bus/B/drivers, without a full inventory: a driver's devices are
 * listed only when it is denied.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "drvfilter-private.h"
#include "strbuf.h"

static const char *const mode_names[] = {
	[DF_MODE_AUTO] = "auto",
	[DF_MODE_KERNEL] = "kernel",
	[DF_MODE_FALLBACK] = "fallback",
};

const char *df_mode_name(enum df_mode mode)
{
	return mode_names[mode];
}

static const char *const action_names[] = {
	[DF_ACT_KERNEL_LIST] = "kernel-list",
	[DF_ACT_ALLOWED] = "allowed",
	[DF_ACT_UNBIND] = "unbind",
	[DF_ACT_KEEP] = "keep",
	[DF_ACT_BLACKLIST] = "blacklist",
	[DF_ACT_LOCK] = "lock",
	[DF_ACT_CHECK] = "check",
};

const char *df_action_name(enum df_action_kind kind)
{
	return action_names[kind];
}

const char *df_action_result(enum df_action_kind kind, int error, bool dry_run)
{
	/* A check fails when the locked kernel disagrees with the policy. */
	if (error)
		return kind == DF_ACT_CHECK ? "mismatch" : "error";
	return dry_run ? "dry-run" : "ok";
}

static long long now_usec(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct run {
	struct df_ctx *ctx;
	const struct df_policy *p;
	struct df_report *rep;
	bool dry_run;
};

/* " key=value", the value quoted when it holds a blank or a quote, escaped always. */
static int append_field(struct strbuf *sb, const char *key, const char *value)
{
	bool quote = strpbrk(value, " \"") || !*value;
	int r = strbuf_appendf(sb, " %s=%s", key, quote ? "\"" : "");

	for (const char *s = value; r >= 0 && *s; s++) {
		if (*s == '"' || *s == '\\')
			r = strbuf_appendc(sb, '\\');
		if (r >= 0)
			r = (*s == '\\' || *s == '"')
				    ? strbuf_appendc(sb, *s)
				    : strbuf_append_escaped_max(sb, (char[]){ *s, 0 }, 1);
	}
	if (r >= 0 && quote)
		r = strbuf_appendc(sb, '"');
	return r;
}

/*
 * Record an action and log it as one key=value line. Only what changes the
 * system or fails is recorded; allowed=1 writes that succeed are counted only,
 * so that the state file stays small on a kernel with thousands of drivers.
 */
static int record(struct run *run, enum df_action_kind kind, const char *bus, const char *driver,
		  const char *device, const char *value, int error)
{
	struct df_report *rep = run->rep;
	struct df_action *a;
	struct strbuf sb = STRBUF_INIT;
	/*
	 * Writing allowed=1 confirms what the kernel does anyway: counted, and
	 * logged at LOG_INFO (drvfilter-apply -v), not kept in the state file.
	 */
	bool confirm = kind == DF_ACT_ALLOWED && value && streq(value, "1") && !error;
	int prio = error ? LOG_ERR : confirm ? LOG_INFO : LOG_NOTICE;
	int r = 0;

	if (error)
		rep->counts.errors++;
	if (!df_log_enabled(run->ctx, prio))
		goto store;
	r = strbuf_appendf(&sb, "action=%s", df_action_name(kind));
	if (r >= 0 && bus)
		r = append_field(&sb, "bus", bus);
	if (r >= 0 && driver)
		r = append_field(&sb,
				 kind == DF_ACT_BLACKLIST     ? "module"
				 : kind == DF_ACT_KERNEL_LIST ? "list"
							      : "driver",
				 driver);
	if (r >= 0 && device)
		r = append_field(&sb, "device", device);
	if (r >= 0 && value)
		r = append_field(&sb, "value", value);
	if (r >= 0)
		r = append_field(&sb, "result", df_action_result(kind, error, run->dry_run));
	if (r >= 0 && error && kind != DF_ACT_CHECK)
		r = append_field(&sb, "error", strerror(-error));
	if (r >= 0)
		df_log_cond(run->ctx, prio, "%s", sb.s);
	strbuf_release(&sb);
store:
	if (confirm)
		return 0;
	if (rep->nactions == rep->capactions) {
		size_t c = rep->capactions ? 2 * rep->capactions : 32;
		struct df_action *na = reallocarray(rep->actions, c, sizeof(*na));

		if (!na)
			return -ENOMEM;
		rep->actions = na;
		rep->capactions = c;
	}
	a = &rep->actions[rep->nactions];
	*a = (struct df_action){ .kind = kind, .error = error };
	if ((bus && !(a->bus = strdup(bus))) || (driver && !(a->driver = strdup(driver))) ||
	    (device && !(a->device = strdup(device))) || (value && !(a->value = strdup(value)))) {
		free(a->bus);
		free(a->driver);
		free(a->device);
		return -ENOMEM;
	}
	rep->nactions++;
	return 0;
}

static int write_attr(struct run *run, int dirfd, const char *rel, const char *value)
{
	return run->dry_run ? 0 : df_write_at(dirfd, rel, value);
}

/* Record a problem that is not an action (a directory that cannot be read). */
_printf_(2, 3) static void problem(struct run *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	run->rep->counts.errors++;
	df_log_cond(run->ctx, LOG_ERR, "%s", msg);
}

static int kernel_lists(struct run *run, int kfd)
{
	_cleanup_free_ char *allow = NULL, *deny = NULL;
	int r;

	r = df_policy_kernel_lists(run->p, &allow, &deny);
	if (r < 0)
		return r;
	/* An empty list is written as a lone newline, which the kernel takes as "none". */
	r = record(run, DF_ACT_KERNEL_LIST, NULL, "allow", NULL, *allow ? allow : "",
		   write_attr(run, kfd, "allow", *allow ? allow : "\n"));
	if (r >= 0)
		r = record(run, DF_ACT_KERNEL_LIST, NULL, "deny", NULL, *deny ? deny : "",
			   write_attr(run, kfd, "deny", *deny ? deny : "\n"));
	return r;
}

/* What to do with one registered driver. */
static int enforce_driver(struct run *run, const char *bus, int driversfd, const char *name,
			  bool locked)
{
	struct df_report *rep = run->rep;
	bool kernel = rep->mode == DF_MODE_KERNEL;
	_cleanup_close_ int own = -1;
	char rel[DF_NAME_MAX + sizeof("/allowed")];
	const char *attr = "allowed";
	int fd; /* the driver's directory, or its bus's drivers/ with attr "NAME/allowed" */
	struct df_verdict v;
	char **devices = NULL;
	size_t ndevices = 0, skipped = 0;
	bool keep = false;
	char cur[8];
	int r = 0;

	rep->counts.drivers++;
	df_policy_decide(run->p, bus, name, &v);
	if (v.allowed)
		rep->counts.allowed++;
	else
		rep->counts.denied++;
	if (v.allowed && !kernel)
		return 0;
	if (v.allowed) {
		/*
		 * Nothing to list: the allowed file is all, reached from the bus's
		 * directory in one openat (the name is checked: it holds no '/').
		 */
		snprintf(rel, sizeof(rel), "%s/allowed", name);
		fd = driversfd;
		attr = rel;
	} else {
		fd = own = df_open_dir_at(driversfd, name);
		if (fd < 0) {
			/* The driver went away between readdir and now: nothing left to enforce. */
			if (fd != -ENOENT)
				problem(run, "cannot open driver %s/%s: %s", bus, name,
					strerror(-fd));
			return 0;
		}
		r = df_driver_list_devices(run->ctx, fd, &devices, &ndevices, &skipped);
		if (r == -ENOMEM)
			return r;
		if (r < 0)
			problem(run, "cannot list the devices of driver %s/%s: %s", bus, name,
				strerror(-r));
		if (skipped)
			problem(run,
				"driver %s/%s: bound devices skipped, unreadable or their names "
				"not safe to use: %zu",
				bus, name, skipped);
		keep = ndevices > 0 && df_policy_bound(run->p) == DF_BOUND_KEEP;
		r = 0;
	}

	if (kernel && locked) {
		/* Cannot write any more: say whether the kernel agrees with the policy. */
		bool want = v.allowed || keep;
		int err = 0;

		if (df_read_at(fd, attr, cur, sizeof(cur)) < 0 || cur[1] || cur[0] != '0' + want)
			err = -EPERM;
		if (err || !v.allowed)
			r = record(run, DF_ACT_CHECK, bus, name, NULL, want ? "1" : "0", err);
		/* Still bound to a denied driver under a locked policy: nothing more to do. */
		keep = true;
	} else if (kernel) {
		const char *value = v.allowed || keep ? "1" : "0";
		int err = write_attr(run, fd, attr, value);

		/* As for a directory that cannot be opened: a driver gone meanwhile is no failure. */
		if (err == -ENOENT && fd == driversfd &&
		    faccessat(driversfd, name, F_OK, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
			return 0;
		r = record(run, DF_ACT_ALLOWED, bus, name, NULL, value, err);
		/* Writing 0 detached the devices; if it failed, unbind them one by one. */
		kernel = !err;
	}
	for (size_t i = 0; i < ndevices && r >= 0; i++) {
		if (keep) {
			rep->counts.kept++;
			r = record(run, DF_ACT_KEEP, bus, name, devices[i], NULL, 0);
		} else if (kernel) {
			rep->counts.unbound++;
			r = record(run, DF_ACT_UNBIND, bus, name, devices[i], NULL, 0);
		} else {
			int err = write_attr(run, fd, "unbind", devices[i]);

			/* ENODEV: it went away or was unbound meanwhile; the goal holds. */
			if (err == -ENODEV)
				err = 0;
			if (!err)
				rep->counts.unbound++;
			r = record(run, DF_ACT_UNBIND, bus, name, devices[i], NULL, err);
			if (err == -ENOENT &&
			    faccessat(fd, "unbind", F_OK, AT_SYMLINK_NOFOLLOW) < 0)
				df_log_cond(run->ctx, LOG_WARNING,
					    "driver %s/%s has no unbind file (it suppresses bind "
					    "attributes): only the kernel's filter can stop it",
					    bus, name);
		}
	}
	for (size_t i = 0; i < ndevices; i++)
		free(devices[i]);
	free(devices);
	return r;
}

static int walk_drivers(struct run *run, bool locked)
{
	_cleanup_close_ int busesfd = df_open_dir(run->ctx, "/sys/bus");
	struct df_names buses;
	int r;

	if (busesfd < 0)
		return busesfd;
	r = df_dir_list_dirs(busesfd, ".", &buses);
	if (r < 0)
		return r;
	if (buses.unsafe)
		problem(run, "buses skipped, their names not safe to use: %zu", buses.unsafe);
	for (size_t i = 0; i < buses.n && r >= 0; i++) {
		const char *bus = buses.v[i];
		_cleanup_close_ int driversfd = -1;
		struct df_names drivers;
		_cleanup_free_ char *rel = NULL;

		if (asprintf(&rel, "%s/drivers", bus) < 0) {
			r = -ENOMEM;
			break;
		}
		driversfd = df_open_dir_at(busesfd, rel);
		if (driversfd < 0) {
			if (driversfd != -ENOENT)
				problem(run, "cannot read the drivers of bus %s: %s", bus,
					strerror(-driversfd));
			continue;
		}
		r = df_dir_list_dirs(driversfd, ".", &drivers);
		if (r == -ENOMEM)
			break;
		if (r < 0) {
			problem(run, "cannot read the drivers of bus %s: %s", bus, strerror(-r));
			r = 0;
			continue;
		}
		if (drivers.unsafe)
			problem(run, "bus %s: drivers skipped, their names not safe to use: %zu",
				bus, drivers.unsafe);
		for (size_t j = 0; j < drivers.n && r >= 0; j++)
			r = enforce_driver(run, bus, driversfd, drivers.v[j], locked);
		df_names_release(&drivers);
	}
	df_names_release(&buses);
	return r;
}

/* A stdio stream onto a descriptor whose writes go through write(2) and keep the first error. */
struct sink {
	int fd;
	int err;
};

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	struct sink *s = cookie;
	size_t done = 0;

	while (done < size && !s->err) {
		ssize_t n = write(s->fd, buf + done, size - done);

		if (n < 0 && errno != EINTR)
			s->err = -errno;
		else if (n == 0)
			s->err = -EIO; /* no progress: do not spin */
		else if (n > 0)
			done += (size_t)n;
	}
	return s->err ? 0 : (ssize_t)size;
}

int df_write_file_atomic_with(const struct df_ctx *ctx, const char *dir, const char *name,
			      mode_t mode, int (*fill)(FILE *f, void *data), void *data)
{
	_cleanup_free_ char *d = df_ctx_path(ctx, dir);
	_cleanup_free_ char *tmp = NULL, *dst = NULL;
	struct sink sink = { -1, 0 };
	FILE *f;
	int r;

	if (!d)
		return -ENOMEM;
	if (mkdir(d, 0755) < 0 && errno != EEXIST)
		return -errno;
	if (asprintf(&tmp, "%s/.%s.XXXXXX", d, name) < 0 || asprintf(&dst, "%s/%s", d, name) < 0)
		return -ENOMEM;
	sink.fd = mkostemp(tmp, O_CLOEXEC);
	if (sink.fd < 0)
		return -errno;
	/* Streamed, not built in memory: a state file of 20,000 actions is megabytes. */
	f = fopencookie(&sink, "w", (cookie_io_functions_t){ .write = sink_write });
	r = f ? fill(f, data) : -ENOMEM;
	if (f && fclose(f) != 0 && r == 0)
		r = -EIO;
	if (sink.err)
		r = sink.err;
	if (r == 0 && fchmod(sink.fd, mode) < 0)
		r = -errno;
	if (r == 0 && fsync(sink.fd) < 0)
		r = -errno;
	if (close(sink.fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, dst) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

struct bytes {
	const char *data;
	size_t len;
};

static int fill_bytes(FILE *f, void *data)
{
	const struct bytes *b = data;

	return fwrite(b->data, 1, b->len, f) == b->len ? 0 : -EIO;
}

int df_write_file_atomic(const struct df_ctx *ctx, const char *dir, const char *name,
			 const char *data, size_t len, mode_t mode)
{
	struct bytes b = { data, len };

	return df_write_file_atomic_with(ctx, dir, name, mode, fill_bytes, &b);
}

static int fallback_blacklist(struct run *run)
{
	struct df_modules *m = NULL;
	struct strbuf sb = STRBUF_INIT;
	char **mods = NULL;
	size_t n = 0;
	int r, err = 0;

	r = df_modules_open(run->ctx, &m);
	if (r == -ENOENT) {
		df_log_cond(run->ctx, LOG_NOTICE,
			    "no modules for this kernel: there is nothing to blacklist");
		return 0;
	}
	if (r >= 0)
		r = df_modules_blacklist(m, run->p, &mods, &n);
	df_modules_free(m);
	if (r < 0) {
		if (r == -ENOMEM)
			return r;
		problem(run, "cannot read the module aliases: %s; no module is blacklisted",
			strerror(-r));
		return 0;
	}
	r = strbuf_appendf(&sb,
			   "# Written by drvfilter-apply from %s (sha256 %s).\n"
			   "# Modules that provide only denied drivers. Do not edit: it is "
			   "rewritten at every boot.\n",
			   run->p->path, run->p->sha256[0] ? run->p->sha256 : "none: fail closed");
	for (size_t i = 0; i < n && r >= 0; i++)
		r = strbuf_appendf(&sb, "blacklist %s\ninstall %s /bin/false\n", mods[i], mods[i]);
	if (r >= 0 && !run->dry_run)
		err = df_write_file_atomic(run->ctx, "/run/modprobe.d", "drvfilter.conf", sb.s,
					   sb.len, 0644);
	strbuf_release(&sb);
	for (size_t i = 0; i < n; i++) {
		if (r >= 0) {
			if (!err)
				run->rep->counts.blacklisted++;
			r = record(run, DF_ACT_BLACKLIST, NULL, mods[i], NULL, NULL, err);
		}
		free(mods[i]);
	}
	free(mods);
	if (r >= 0 && err && n == 0)
		problem(run, "cannot write /run/modprobe.d/drvfilter.conf: %s", strerror(-err));
	return r;
}

static int report_new(const struct df_policy *p, bool dry_run, struct df_report **ret)
{
	struct df_report *rep = calloc(1, sizeof(*rep));

	if (!rep)
		return -ENOMEM;
	rep->policy_path = strdup(p->path);
	rep->policy_sha256 = strdup(p->sha256);
	if (!rep->policy_path || !rep->policy_sha256) {
		df_report_free(rep);
		return -ENOMEM;
	}
	rep->fail_closed = p->fail_closed;
	rep->dry_run = dry_run;
	rep->started_usec = now_usec(CLOCK_REALTIME);
	*ret = rep;
	return 0;
}

int df_apply(struct df_ctx *ctx, const struct df_policy *p, unsigned flags, struct df_report **ret)
{
	_cleanup_close_ int kfd = -1;
	long long t0 = now_usec(CLOCK_MONOTONIC);
	struct run run = { ctx, p, NULL, flags & DF_APPLY_DRY_RUN };
	bool locked = false;
	char buf[8];
	int r;

	r = report_new(p, run.dry_run, &run.rep);
	if (r < 0)
		return r;
	kfd = df_open_dir(ctx, "/sys/kernel/driver_filter");
	run.rep->mode = kfd >= 0 ? DF_MODE_KERNEL : DF_MODE_FALLBACK;

	if ((flags & DF_APPLY_OVERRIDE_OK) && df_cmdline_override(ctx) > 0) {
		run.rep->override = true;
		df_log_cond(
			ctx, LOG_WARNING,
			"action=override drvfilter=off is on the kernel command line: nothing is "
			"enforced, every driver may bind");
		goto done;
	}
	if (p->mode == DF_MODE_KERNEL && kfd < 0) {
		/* The policy insists on the kernel's filter and it is not there: deny in fallback. */
		problem(&run, "mode = kernel, but this kernel has no /sys/kernel/driver_filter: "
			      "enforcing in fallback mode");
	} else if (p->mode == DF_MODE_FALLBACK && kfd >= 0) {
		run.rep->mode = DF_MODE_FALLBACK;
	}

	if (run.rep->mode == DF_MODE_KERNEL) {
		r = df_read_at(kfd, "locked", buf, sizeof(buf));
		locked = r >= 0 && streq(buf, "1");
		/* Unknown: write anyway; if it is locked, each write fails and says so. */
		if (r < 0)
			problem(&run, "cannot read /sys/kernel/driver_filter/locked: %s",
				strerror(-r));
		r = 0;
		if (locked)
			df_log_cond(ctx, LOG_NOTICE,
				    "the kernel policy is locked already: checking "
				    "it against the policy instead of writing it");
		else
			r = kernel_lists(&run, kfd);
		if (r >= 0)
			r = walk_drivers(&run, locked);
		if (r >= 0 && !locked && p->lock) {
			int err = write_attr(&run, kfd, "locked", "1");

			r = record(&run, DF_ACT_LOCK, NULL, NULL, NULL, "1", err);
			locked = !err && !run.dry_run;
		}
		run.rep->locked = locked;
	} else {
		r = fallback_blacklist(&run);
		if (r >= 0)
			r = walk_drivers(&run, false);
	}
done:
	run.rep->duration_usec = now_usec(CLOCK_MONOTONIC) - t0;
	if (r < 0) {
		df_report_free(run.rep);
		return r;
	}
	*ret = run.rep;
	return run.rep->counts.errors ? -EIO : 0;
}

/* "/bus/B/drivers/D" into B and D, both checked. */
static int split_driver_devpath(const char *devpath, char *bus, char *drv)
{
	const char *b, *d;
	size_t nb;

	if (strncmp(devpath, "/bus/", 5) != 0)
		return -EINVAL;
	b = devpath + 5;
	d = strstr(b, "/drivers/");
	if (!d)
		return -EINVAL;
	nb = (size_t)(d - b);
	d += strlen("/drivers/");
	if (nb == 0 || nb > DF_NAME_MAX || strlen(d) > DF_NAME_MAX)
		return -EINVAL;
	memcpy(bus, b, nb);
	bus[nb] = '\0';
	strcpy(drv, d);
	return df_sysfs_name_check(bus) < 0 || df_sysfs_name_check(drv) < 0 ? -EINVAL : 0;
}

static int udev_driver_added(struct run *run, const char *devpath)
{
	char bus[DF_NAME_MAX + 1], drv[DF_NAME_MAX + 1], buf[8];
	_cleanup_close_ int kfd = -1, driversfd = -1;
	_cleanup_free_ char *path = NULL;
	bool locked = false;

	if (split_driver_devpath(devpath, bus, drv) < 0) {
		problem(run,
			"udev: a driver event with a DEVPATH that is not /bus/BUS/drivers/NAME");
		return 0;
	}
	if (run->rep->mode == DF_MODE_KERNEL) {
		kfd = df_open_dir(run->ctx, "/sys/kernel/driver_filter");
		locked = kfd >= 0 && df_read_at(kfd, "locked", buf, sizeof(buf)) >= 0 &&
			 streq(buf, "1");
	}
	if (asprintf(&path, "/sys/bus/%s/drivers", bus) < 0)
		return -ENOMEM;
	driversfd = df_open_dir(run->ctx, path);
	if (driversfd < 0) {
		problem(run, "udev: cannot open %s: %s", path, strerror(-driversfd));
		return 0;
	}
	return enforce_driver(run, bus, driversfd, drv, locked);
}

static int udev_bound(struct run *run, const char *bus, const char *drv, const char *devpath)
{
	const char *dev = strrchr(devpath, '/');
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int fd = -1;
	struct df_verdict v;
	int err;

	dev = dev ? dev + 1 : devpath;
	if (df_sysfs_name_check(bus) < 0 || df_sysfs_name_check(drv) < 0 ||
	    df_sysfs_name_check(dev) < 0) {
		problem(run, "udev: a bind event with a name that is not safe to use");
		return 0;
	}
	df_policy_decide(run->p, bus, drv, &v);
	if (v.allowed)
		return 0;
	if (asprintf(&path, "/sys/bus/%s/drivers/%s", bus, drv) < 0)
		return -ENOMEM;
	fd = df_open_dir(run->ctx, path);
	err = fd < 0 ? fd : write_attr(run, fd, "unbind", dev);
	if (err == -ENODEV || err == -ENOENT)
		err = 0; /* gone already */
	if (!err)
		run->rep->counts.unbound++;
	return record(run, DF_ACT_UNBIND, bus, drv, dev, NULL, err);
}

int df_apply_udev(struct df_ctx *ctx, const struct df_policy *p, unsigned flags,
		  struct df_report **ret)
{
	const char *action = getenv("ACTION"), *subsystem = getenv("SUBSYSTEM");
	const char *devpath = getenv("DEVPATH"), *driver = getenv("DRIVER");
	_cleanup_close_ int kfd = -1;
	long long t0 = now_usec(CLOCK_MONOTONIC);
	struct run run = { ctx, p, NULL, flags & DF_APPLY_DRY_RUN };
	int r;

	if (!action || !subsystem || !devpath) {
		df_log_cond(ctx, LOG_ERR,
			    "--udev: ACTION, SUBSYSTEM or DEVPATH is not set: not "
			    "run by udev?");
		return -EINVAL;
	}
	r = report_new(p, run.dry_run, &run.rep);
	if (r < 0)
		return r;
	kfd = df_open_dir(ctx, "/sys/kernel/driver_filter");
	run.rep->mode = kfd >= 0 && p->mode != DF_MODE_FALLBACK ? DF_MODE_KERNEL : DF_MODE_FALLBACK;
	if (df_cmdline_override(ctx) > 0)
		run.rep->override = true;
	else if (streq(action, "add") && streq(subsystem, "drivers"))
		r = udev_driver_added(&run, devpath);
	else if (streq(action, "bind") && driver)
		r = udev_bound(&run, subsystem, driver, devpath);
	run.rep->duration_usec = now_usec(CLOCK_MONOTONIC) - t0;
	if (r < 0) {
		df_report_free(run.rep);
		return r;
	}
	*ret = run.rep;
	return run.rep->counts.errors ? -EIO : 0;
}

struct df_report *df_report_free(struct df_report *rep)
{
	if (!rep)
		return NULL;
	for (size_t i = 0; i < rep->nactions; i++) {
		free(rep->actions[i].bus);
		free(rep->actions[i].driver);
		free(rep->actions[i].device);
		free(rep->actions[i].value);
	}
	free(rep->actions);
	free(rep->policy_path);
	free(rep->policy_sha256);
	free(rep);
	return NULL;
}

int df_lock_take(struct df_ctx *ctx)
{
	_cleanup_free_ char *dir = df_ctx_path(ctx, "/run/drvfilter");
	_cleanup_free_ char *path = df_ctx_path(ctx, "/run/drvfilter/lock");
	int fd;

	if (!dir || !path)
		return -ENOMEM;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			int r = -errno;

			close(fd);
			return r;
		}
	return fd;
}
