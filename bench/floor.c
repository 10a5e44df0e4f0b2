// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscall floor: what any correct helper must do to enforce a policy in
 * kernel mode, with the decisions already made. Read the decisions (one
 * file), list /sys/bus and each bus's drivers/, and open, write and close each
 * driver's allowed file. Nothing else: no policy, no log, no state.
 *
 * With --audit, the floor of the audit trail too: what drvfilter-apply must
 * do on top of that and no more. Each denied driver that drives something
 * gets one kernel-log line naming its devices (one write(2) to dev/kmsg,
 * opened once), so the bound devices of the denied drivers must be found:
 * per bus with a denied driver, its devices/ is listed and, if it holds at
 * most 3 devices per denied driver, each device's driver link is read
 * (readlink); else each denied driver's own directory is listed and each
 * link in it read (a device's points into /devices/ and ends in its name).
 * That is the choice drvfilter-apply makes (SCAN_DEVICES_PER_DENIED in
 * src/libdrvfilter/enforce/enforce.c). No policy, no state file, no check
 * for an unbind file, no reopening of the log.
 * Usage: bench-floor [--audit] SYSROOT DECISIONS
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An open-addressing set of "bus/driver" keys whose value is 1; the rest get 0. */
static char **slots;
static size_t nslots;

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

static int allowed(const char *key)
{
	for (size_t i = hash(key) & (nslots - 1); slots[i]; i = (i + 1) & (nslots - 1))
		if (strcmp(slots[i], key) == 0)
			return 1;
	return 0;
}

static void load_decisions(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf, *line, *save = NULL;
	size_t lines = 0;

	if (fd < 0 || fstat(fd, &st) < 0 || !(buf = malloc((size_t)st.st_size + 1)) ||
	    read(fd, buf, (size_t)st.st_size) != st.st_size) {
		perror(path);
		exit(1);
	}
	close(fd);
	buf[st.st_size] = '\0';
	for (char *c = buf; *c; c++)
		lines += *c == '\n';
	for (nslots = 16; nslots < 2 * lines; nslots *= 2)
		;
	slots = calloc(nslots, sizeof(*slots));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' '), *val = strrchr(line, ' ');

		if (!sp || val == sp || val[1] != '1')
			continue;
		*sp = '/';
		*val = '\0';
		size_t i = hash(line) & (nslots - 1);
		while (slots[i])
			i = (i + 1) & (nslots - 1);
		slots[i] = line;
	}
}

/* A bus's drivers/ directory, listed and kept open for the writes below it. */
static DIR *open_drivers(int busesfd, const char *bus)
{
	char path[4096];
	DIR *drivers;
	int fd;

	snprintf(path, sizeof(path), "%s/drivers", bus);
	fd = openat(busesfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	drivers = fdopendir(fd);
	if (!drivers)
		close(fd);
	return drivers;
}

/* The plain floor: one bus, each driver's bit written as it is listed. */
static int plain_bus(int busesfd, const char *bus)
{
	char path[4096], key[1024];
	DIR *drivers = open_drivers(busesfd, bus);
	struct dirent *d;
	int fd;

	if (!drivers)
		return 0;
	fd = dirfd(drivers);
	while ((d = readdir(drivers))) {
		int afd;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/allowed", d->d_name);
		afd = openat(fd, path, O_WRONLY | O_CLOEXEC | O_TRUNC);
		if (afd < 0)
			continue;
		snprintf(key, sizeof(key), "%s/%s", bus, d->d_name);
		if (write(afd, allowed(key) ? "1" : "0", 1) != 1)
			return -1;
		close(afd);
	}
	closedir(drivers);
	return 0;
}

/* The audit floor's drivers of one bus: each with its decision and, denied, its devices. */
#define LIST_MAX 128 /* as the log line's devices= field: cut after this, "..." */
struct driver {
	char name[256];
	bool allowed;
	size_t ndevices;
	size_t len;
	char list[LIST_MAX + 4];
};

/*
 * A directory's entries straight from getdents64, as drvfilter-apply reads
 * a driver's (no DIR: no fcntl, no fstat). @fn on each entry but . and ...
 */
static void each_entry(int fd, void *data, void (*fn)(void *data, const char *name, unsigned type))
{
	char buf[32768];
	ssize_t n;

	while ((n = getdents64(fd, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);

			off += e->d_reclen;
			if (e->d_name[0] != '.')
				fn(data, e->d_name, e->d_type);
		}
}

static struct driver *drv;
static size_t ndrv, capdrv;
static size_t *index_slots; /* per bus: driver name -> index + 1 */
static size_t nindex;
static int kmsg = -1;

static void add_device(struct driver *d, const char *dev)
{
	size_t n = strlen(dev);

	d->ndevices++;
	if (d->len > LIST_MAX)
		return;
	if (d->len + n + 1 > LIST_MAX) {
		memcpy(d->list + d->len, "...", 4);
		d->len = LIST_MAX + 1;
		return;
	}
	if (d->len)
		d->list[d->len++] = ',';
	memcpy(d->list + d->len, dev, n + 1);
	d->len += n;
}

static struct driver *find_driver(const char *name)
{
	for (size_t i = hash(name) & (nindex - 1); index_slots[i]; i = (i + 1) & (nindex - 1))
		if (strcmp(drv[index_slots[i] - 1].name, name) == 0)
			return &drv[index_slots[i] - 1];
	return NULL;
}

/* A readlink's target: the name after its last '/'. */
static const char *base_of(char *target, ssize_t n)
{
	char *slash;

	target[n] = '\0';
	slash = strrchr(target, '/');
	return slash ? slash + 1 : target;
}

struct names {
	char **v;
	size_t n, cap;
};

static void add_name(void *data, const char *name, unsigned type)
{
	struct names *l = data;

	if (type != DT_LNK)
		return;
	if (l->n == l->cap && !(l->v = realloc(l->v, (l->cap = 2 * l->cap + 64) * sizeof(*l->v))))
		exit(1);
	l->v[l->n++] = strdup(name);
}

/* The denied drivers' bound devices from the bus's devices/: 1, or 0 when too many to read. */
static int devices_from_bus(int busesfd, const char *bus, size_t denied)
{
	char path[4096], target[4096];
	struct names l = { 0 };
	char **names;
	size_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/devices", bus);
	fd = openat(busesfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 1; /* no devices/: nothing bound */
	each_entry(fd, &l, add_name);
	names = l.v;
	n = l.n;
	if (n <= 3 * denied) {
		for (size_t i = 0; i < n; i++) {
			struct driver *d;
			ssize_t len;

			snprintf(path, sizeof(path), "%s/driver", names[i]);
			len = readlinkat(fd, path, target, sizeof(target) - 1);
			if (len <= 0)
				continue; /* not bound */
			d = find_driver(base_of(target, len));
			if (d && !d->allowed)
				add_device(d, names[i]);
		}
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	close(fd);
	return n <= 3 * denied;
}

struct driver_dir {
	int fd;
	struct driver *d;
};

/* A link in a driver's directory: a device's points into /devices/ and ends in its name. */
static void add_if_device(void *data, const char *name, unsigned type)
{
	struct driver_dir *dd = data;
	char target[4096];
	ssize_t len;

	if (type != DT_LNK)
		return;
	len = readlinkat(dd->fd, name, target, sizeof(target) - 1);
	if (len > 0 && strcmp(base_of(target, len), name) == 0 && strstr(target, "/devices/"))
		add_device(dd->d, name);
}

/* A denied driver's bound devices from its own directory. */
static void devices_from_driver(int driversfd, struct driver *d)
{
	struct driver_dir dd = { openat(driversfd, d->name, O_RDONLY | O_DIRECTORY | O_CLOEXEC),
				 d };

	if (dd.fd < 0)
		return;
	each_entry(dd.fd, &dd, add_if_device);
	close(dd.fd);
}

/* The audit floor: one bus, its drivers listed and decided, then acted on and logged. */
static int audit_bus(int busesfd, const char *bus)
{
	char path[4096], key[1024], line[1024];
	size_t denied = 0;
	DIR *drivers = open_drivers(busesfd, bus);
	struct dirent *d;
	int fd;

	if (!drivers)
		return 0;
	fd = dirfd(drivers);
	ndrv = 0;
	while ((d = readdir(drivers))) {
		if (d->d_name[0] == '.')
			continue;
		if (ndrv == capdrv &&
		    !(drv = realloc(drv, (capdrv = 2 * capdrv + 64) * sizeof(*drv))))
			exit(1);
		struct driver *r = &drv[ndrv++];

		snprintf(r->name, sizeof(r->name), "%s", d->d_name);
		snprintf(key, sizeof(key), "%s/%s", bus, d->d_name);
		r->allowed = allowed(key);
		r->ndevices = r->len = 0;
		r->list[0] = '\0';
		denied += !r->allowed;
	}
	if (denied) {
		for (nindex = 16; nindex < 2 * ndrv; nindex *= 2)
			;
		index_slots = realloc(index_slots, nindex * sizeof(*index_slots));
		if (!index_slots)
			exit(1);
		memset(index_slots, 0, nindex * sizeof(*index_slots));
		for (size_t j = 0; j < ndrv; j++) {
			size_t i = hash(drv[j].name) & (nindex - 1);

			while (index_slots[i])
				i = (i + 1) & (nindex - 1);
			index_slots[i] = j + 1;
		}
		if (!devices_from_bus(busesfd, bus, denied))
			for (size_t j = 0; j < ndrv; j++)
				if (!drv[j].allowed)
					devices_from_driver(fd, &drv[j]);
	}
	for (size_t j = 0; j < ndrv; j++) {
		struct driver *r = &drv[j];
		int afd, n;

		snprintf(path, sizeof(path), "%s/allowed", r->name);
		afd = openat(fd, path, O_WRONLY | O_CLOEXEC | O_TRUNC);
		if (afd < 0)
			continue;
		if (write(afd, r->allowed ? "1" : "0", 1) != 1)
			return -1;
		close(afd);
		if (r->allowed || !r->ndevices)
			continue;
		/* One record, one write, as drvfilter-apply logs a detach. */
		n = snprintf(line, sizeof(line),
			     "<29>drvfilter: action=allowed bus=%s driver=%s value=0 detached=%zu "
			     "devices=%s result=ok\n",
			     bus, r->name, r->ndevices, r->list);
		if (n > 0 && write(kmsg, line, (size_t)n) != n)
			return -1;
	}
	closedir(drivers);
	return 0;
}

int main(int argc, char **argv)
{
	char path[4096];
	DIR *buses;
	struct dirent *b;
	bool audit = argc == 4 && strcmp(argv[1], "--audit") == 0;

	if (argc != 3 && !audit) {
		fprintf(stderr, "usage: bench-floor [--audit] SYSROOT DECISIONS\n");
		return 2;
	}
	argv += audit;
	load_decisions(argv[2]);
	if (audit) {
		snprintf(path, sizeof(path), "%s/dev/kmsg", argv[1]);
		kmsg = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
		if (kmsg < 0) {
			perror(path);
			return 1;
		}
	}
	snprintf(path, sizeof(path), "%s/sys/bus", argv[1]);
	buses = opendir(path);
	if (!buses)
		return 1;
	while ((b = readdir(buses))) {
		if (b->d_name[0] == '.')
			continue;
		if ((audit ? audit_bus : plain_bus)(dirfd(buses), b->d_name) < 0)
			return 1;
	}
	closedir(buses);
	return 0;
}
