// SPDX-License-Identifier: GPL-2.0-only
/* The benchmark's synthetic machine; see gen.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drvfilter.h"
#include "gen.h"
#include "strbuf.h"

static const char *const bus_names[] = {
	"pci",	"usb",	    "virtio", "platform", "i2c",   "spi",  "serio", "pnp",   "hid", "scsi",
	"acpi", "mdio_bus", "sdio",   "mmc",	  "nvmem", "gpio", "xen",   "vmbus", "cpu", "node",
};
static const char *const prefixes[] = { "snd", "nvme", "e1000", "r8169", "usb", "hid",	 "i2c",
					"ata", "mlx5", "ixgbe", "rtl",	 "bcm", "intel", "virtio" };
static const char *const words[] = { "core", "pci", "net", "blk", "hcd", "audio", "gpio", "spi" };

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static unsigned long long rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* Driver j: realistic, unique, with '_', '-' and digits. */
static void driver_name(size_t j, char *buf, size_t size)
{
	snprintf(buf, size, "%s%c%s%zu", prefixes[j % COUNT(prefixes)], j % 3 ? '_' : '-',
		 words[(j / COUNT(prefixes)) % COUNT(words)], j);
}

static int mkdirs(const char *path)
{
	char *p = strdup(path);

	if (!p)
		return -ENOMEM;
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			goto fail;
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		goto fail;
	free(p);
	return 0;
fail:
	fprintf(stderr, "bench: mkdir %s: %m\n", p);
	free(p);
	return -errno;
}

static int put(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t len = strlen(text);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		fprintf(stderr, "bench: write %s: %m\n", path);
		if (fd >= 0)
			close(fd);
		return -EIO;
	}
	return close(fd);
}

/*
 * The main job's guest as `drvfilterctl record` saw it (Debian 6.1 under
 * QEMU, the shipped policy applied, tests/fixtures/debian-6.1-qemu.tar.xz):
 * per bus, its drivers, its devices and how many of them are bound. Devices
 * pile up where drivers are few (acpi, memory) and drivers where devices are
 * few (platform, pci), which is what decides how a denied driver's devices
 * are best found.
 */
static const struct {
	const char *name;
	unsigned drivers, devices, bound;
} recorded_guest[] = {
	{ "acpi", 6, 54, 0 },	     { "clockevents", 0, 2, 0 },
	{ "clocksource", 0, 1, 0 },  { "container", 0, 3, 0 },
	{ "coreboot", 1, 0, 0 },     { "cpu", 1, 1, 1 },
	{ "cxl", 2, 0, 0 },	     { "edac", 0, 1, 0 },
	{ "event_source", 0, 6, 0 }, { "gpio", 1, 0, 0 },
	{ "i2c", 3, 0, 0 },	     { "machinecheck", 0, 1, 0 },
	{ "memory", 0, 4, 0 },	     { "memory_tiering", 0, 1, 0 },
	{ "node", 0, 1, 0 },	     { "nvmem", 0, 1, 0 },
	{ "pci", 14, 9, 6 },	     { "pci_express", 4, 0, 0 },
	{ "platform", 36, 8, 4 },    { "pnp", 6, 5, 4 },
	{ "scsi", 0, 2, 0 },	     { "serio", 1, 2, 1 },
	{ "spi", 1, 0, 0 },	     { "usb", 3, 4, 4 },
	{ "virtio", 2, 3, 3 },	     { "workqueue", 0, 4, 0 },
};
#define RECORDED_DRIVERS 81

/* Per shape: devices per 100 drivers and the share of them bound (the guest's: recorded). */
static const struct {
	const char *name;
	unsigned devices_percent, bound_percent, allow_rules_percent;
} shapes[] = {
	[BENCH_MIXED] = { "mixed", 100, 50, 0 },
	[BENCH_DENY_HEAVY] = { "deny-heavy", 10, 20, 10 },
	[BENCH_GUEST] = { "guest", 0, 0, 14 },
};

const char *bench_shape_name(enum bench_shape shape)
{
	return shapes[shape].name;
}

/* The machine: which bus each driver is on, each device's bus and driver. */
struct machine {
	size_t nbuses, ndrivers, ndevices;
	char (*bus)[64];
	size_t *drv_bus; /* per driver */
	size_t **bus_drivers, *bus_ndrivers; /* per bus: its drivers */
	size_t *dev_bus; /* per device */
	ssize_t *dev_drv; /* per device: the driver it is bound to, or -1 */
};

static void machine_free(struct machine *m)
{
	for (size_t b = 0; m->bus_drivers && b < m->nbuses; b++)
		free(m->bus_drivers[b]);
	free(m->bus_drivers);
	free(m->bus_ndrivers);
	free(m->bus);
	free(m->drv_bus);
	free(m->dev_bus);
	free(m->dev_drv);
}

static int machine_index(struct machine *m)
{
	m->bus_drivers = calloc(m->nbuses, sizeof(*m->bus_drivers));
	m->bus_ndrivers = calloc(m->nbuses, sizeof(*m->bus_ndrivers));
	if (!m->bus_drivers || !m->bus_ndrivers)
		return -ENOMEM;
	for (size_t j = 0; j < m->ndrivers; j++)
		m->bus_ndrivers[m->drv_bus[j]]++;
	for (size_t b = 0; b < m->nbuses; b++) {
		m->bus_drivers[b] = calloc(m->bus_ndrivers[b] + 1, sizeof(size_t));
		if (!m->bus_drivers[b])
			return -ENOMEM;
		m->bus_ndrivers[b] = 0;
	}
	for (size_t j = 0; j < m->ndrivers; j++) {
		size_t b = m->drv_bus[j];

		m->bus_drivers[b][m->bus_ndrivers[b]++] = j;
	}
	return 0;
}

/*
 * mixed and deny-heavy: driver j on bus j % B; D devices, device k on the
 * bus of driver k * N / D (spread over the drivers) and bound to it by the
 * shape's odds.
 */
static int machine_synthetic(const struct bench_size *sz, struct machine *m)
{
	m->nbuses = sz->buses;
	m->ndrivers = sz->drivers;
	m->ndevices = sz->drivers * shapes[sz->shape].devices_percent / 100;
	m->bus = calloc(m->nbuses, sizeof(*m->bus));
	m->drv_bus = calloc(m->ndrivers, sizeof(size_t));
	m->dev_bus = calloc(m->ndevices + 1, sizeof(size_t));
	m->dev_drv = calloc(m->ndevices + 1, sizeof(ssize_t));
	if (!m->bus || !m->drv_bus || !m->dev_bus || !m->dev_drv)
		return -ENOMEM;
	for (size_t b = 0; b < m->nbuses; b++)
		if (b < COUNT(bus_names))
			snprintf(m->bus[b], sizeof(m->bus[b]), "%s", bus_names[b]);
		else
			snprintf(m->bus[b], sizeof(m->bus[b]), "bus-%zu", b);
	for (size_t j = 0; j < m->ndrivers; j++)
		m->drv_bus[j] = j % m->nbuses;
	for (size_t k = 0; k < m->ndevices; k++) {
		size_t j = k * m->ndrivers / m->ndevices;

		m->dev_bus[k] = m->drv_bus[j];
		m->dev_drv[k] = rnd(100) < shapes[sz->shape].bound_percent ? (ssize_t)j : -1;
	}
	return machine_index(m);
}

/*
 * guest: the recorded table, in as many copies as it takes for no copy to
 * scale past 2,000 drivers (bus names "pci", "pci-1", ...), each bus's counts
 * scaled to N drivers in all. A bound device is bound to a driver of its bus
 * at random (on a stock kernel the denied built-ins bind before user space).
 */
static int machine_guest(const struct bench_size *sz, struct machine *m)
{
	size_t copies = (sz->drivers + 1999) / 2000, cap = 0;
	double scale = (double)sz->drivers / (double)(RECORDED_DRIVERS * copies);

	m->nbuses = copies * COUNT(recorded_guest);
	m->bus = calloc(m->nbuses, sizeof(*m->bus));
	m->drv_bus = calloc(sz->drivers, sizeof(size_t));
	for (size_t i = 0; i < COUNT(recorded_guest); i++)
		cap += (size_t)(recorded_guest[i].devices * scale + 1);
	cap *= copies;
	m->dev_bus = calloc(cap + 1, sizeof(size_t));
	m->dev_drv = calloc(cap + 1, sizeof(ssize_t));
	if (!m->bus || !m->drv_bus || !m->dev_bus || !m->dev_drv)
		return -ENOMEM;
	/* Drivers: each bus its share, rounded; the last bus with drivers takes the rest. */
	for (size_t c = 0, b = 0; c < copies; c++)
		for (size_t i = 0; i < COUNT(recorded_guest); i++, b++) {
			size_t want = (size_t)(recorded_guest[i].drivers * scale + 0.5);

			if (c)
				snprintf(m->bus[b], sizeof(m->bus[b]), "%s-%zu",
					 recorded_guest[i].name, c);
			else
				snprintf(m->bus[b], sizeof(m->bus[b]), "%s",
					 recorded_guest[i].name);
			for (size_t n = 0; n < want && m->ndrivers < sz->drivers; n++)
				m->drv_bus[m->ndrivers++] = b;
		}
	for (; m->ndrivers < sz->drivers; m->ndrivers++)
		m->drv_bus[m->ndrivers] = m->drv_bus[m->ndrivers - 1];
	if (machine_index(m) < 0)
		return -ENOMEM;
	for (size_t c = 0, b = 0; c < copies; c++)
		for (size_t i = 0; i < COUNT(recorded_guest); i++, b++) {
			size_t want = (size_t)(recorded_guest[i].devices * scale + 0.5);
			size_t bound = (size_t)(recorded_guest[i].bound * scale + 0.5);

			for (size_t n = 0; n < want && m->ndevices < cap; n++) {
				size_t k = m->ndevices++;

				m->dev_bus[k] = b;
				m->dev_drv[k] = -1;
				if (n < bound && m->bus_ndrivers[b])
					m->dev_drv[k] = (ssize_t)m->bus_drivers[b][rnd(
						(unsigned)m->bus_ndrivers[b])];
			}
		}
	return 0;
}

static int machine_new(const struct bench_size *sz, struct machine *m)
{
	*m = (struct machine){ 0 };
	return sz->shape == BENCH_GUEST ? machine_guest(sz, m) : machine_synthetic(sz, m);
}

/* Device k is devK in sys/devices/bench, linked from its bus (and, bound, both ways). */
static int make_tree(const char *dir, const struct machine *m, const char *allowed,
		     struct bench_counts *counts)
{
	char path[4096], drv[128];
	int r;

	for (size_t b = 0; b < m->nbuses; b++) {
		snprintf(path, sizeof(path), "%s/sys/bus/%s/drivers", dir, m->bus[b]);
		if ((r = mkdirs(path)) < 0)
			return r;
		snprintf(path, sizeof(path), "%s/sys/bus/%s/devices", dir, m->bus[b]);
		if ((r = mkdirs(path)) < 0)
			return r;
	}
	snprintf(path, sizeof(path), "%s/sys/devices/bench", dir);
	if ((r = mkdirs(path)) < 0)
		return r;
	*counts = (struct bench_counts){ .devices = m->ndevices };
	for (size_t j = 0; j < m->ndrivers; j++) {
		const char *bus = m->bus[m->drv_bus[j]];

		counts->allowed += allowed[j] == '1';
		driver_name(j, drv, sizeof(drv));
		snprintf(path, sizeof(path), "%s/sys/bus/%s/drivers/%s", dir, bus, drv);
		if (mkdir(path, 0755) < 0) {
			fprintf(stderr, "bench: mkdir %s: %m\n", path);
			return -errno;
		}
		strcat(path, "/allowed");
		if ((r = put(path, "1\n")) < 0)
			return r;
		snprintf(path, sizeof(path), "%s/sys/bus/%s/drivers/%s/unbind", dir, bus, drv);
		if ((r = put(path, "")) < 0)
			return r;
	}
	for (size_t k = 0; k < m->ndevices; k++) {
		const char *bus = m->bus[m->dev_bus[k]];
		char dev[64], target[256];

		snprintf(dev, sizeof(dev), "dev%zu", k);
		snprintf(path, sizeof(path), "%s/sys/devices/bench/%s", dir, dev);
		if (mkdir(path, 0755) < 0)
			return -errno;
		snprintf(target, sizeof(target), "../../../devices/bench/%s", dev);
		snprintf(path, sizeof(path), "%s/sys/bus/%s/devices/%s", dir, bus, dev);
		if (symlink(target, path) < 0)
			return -errno;
		if (m->dev_drv[k] < 0)
			continue;
		counts->bound++;
		driver_name((size_t)m->dev_drv[k], drv, sizeof(drv));
		snprintf(target, sizeof(target), "../../../../devices/bench/%s", dev);
		snprintf(path, sizeof(path), "%s/sys/bus/%s/drivers/%s/%s", dir, bus, drv, dev);
		if (symlink(target, path) < 0)
			return -errno;
		snprintf(target, sizeof(target), "../../../bus/%s/drivers/%s", bus, drv);
		snprintf(path, sizeof(path), "%s/sys/devices/bench/%s/driver", dir, dev);
		if (symlink(target, path) < 0)
			return -errno;
	}
	snprintf(path, sizeof(path), "%s/sys/kernel/driver_filter", dir);
	if ((r = mkdirs(path)) < 0)
		return r;
	for (const char *const *f = (const char *const[]){ "allow", "deny", "locked", NULL }; *f;
	     f++) {
		snprintf(path, sizeof(path), "%s/sys/kernel/driver_filter/%s", dir, *f);
		if ((r = put(path, streq(*f, "locked") ? "0\n" : "\n")) < 0)
			return r;
	}
	for (const char *const *d = (const char *const[]){ "proc", "dev", "run", "etc", NULL }; *d;
	     d++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *d);
		if ((r = mkdirs(path)) < 0)
			return r;
	}
	snprintf(path, sizeof(path), "%s/proc/cmdline", dir);
	if ((r = put(path, "console=ttyS0 quiet\n")) < 0)
		return r;
	snprintf(path, sizeof(path), "%s/dev/kmsg", dir);
	return put(path, "");
}

/*
 * R rules over the first BENCH_POLICY_BUSES buses' keys per section. Of
 * every 100 (mixed): 45 exact names in [allow], 45 in [deny] (drivers of the
 * key's bus, a name of no driver where the bus has none), 8 prefix globs,
 * one "*_pciN" glob, and one glob under the ALL key of [allow] (the first
 * 40; then one more exact name in [deny]). The other shapes put only their
 * share of exact names in [allow], and every glob in [deny].
 */
static int make_policy(const char *dir, const struct bench_size *sz, const struct machine *m)
{
	unsigned allow_exact = shapes[sz->shape].allow_rules_percent;
	struct strbuf keys[2][BENCH_POLICY_BUSES + 1] = { 0 }; /* the last: ALL */
	size_t nall = 0;
	struct strbuf text = STRBUF_INIT;
	char path[4096], name[128], bus[64];
	int r = 0;

	for (size_t k = 0; k < sz->rules; k++) {
		size_t b = k % BENCH_POLICY_BUSES;
		unsigned kind = (unsigned)(k % 100);
		int deny = allow_exact ? kind >= allow_exact : kind >= 45 && kind < 90;

		if (kind == 99 && nall++ >= 40) {
			kind = 45;
			deny = 1;
		}

		if (kind < 90 && b < m->nbuses && m->bus_ndrivers[b]) {
			driver_name(m->bus_drivers[b][rnd((unsigned)m->bus_ndrivers[b])], name,
				    sizeof(name));
		} else if (kind < 90) {
			snprintf(name, sizeof(name), "ghost_%zu", k);
		} else if (kind < 98) {
			snprintf(name, sizeof(name), "%s%c%s*", prefixes[rnd(COUNT(prefixes))],
				 rnd(2) ? '_' : '-', words[rnd(COUNT(words))]);
		} else if (kind == 98) {
			snprintf(name, sizeof(name), "*_pci%u", rnd(10));
		} else {
			snprintf(name, sizeof(name), "%s%c*", prefixes[rnd(COUNT(prefixes))],
				 rnd(2) ? '_' : '-');
			b = BENCH_POLICY_BUSES;
		}
		struct strbuf *sb = &keys[deny][b];

		strbuf_appendf(sb, "%s%s", sb->len ? ", " : "", name);
		if (sb->len > 1000) {
			fprintf(stderr, "bench: too many rules for one key (iniparser's limit)\n");
			r = -E2BIG;
			goto out;
		}
	}
	strbuf_append(&text, "# generated by drvfilter-bench\n[filter]\ndefault = deny\n"
			     "lock = false\nbound = unbind\n");
	for (int s = 0; s < 2; s++) {
		strbuf_append(&text, s ? "[deny]\n" : "[allow]\n");
		for (size_t b = 0; b <= BENCH_POLICY_BUSES; b++) {
			if (!keys[s][b].len)
				continue;
			/* Keys past the machine's buses name buses it does not have. */
			if (b == BENCH_POLICY_BUSES)
				snprintf(bus, sizeof(bus), "ALL");
			else if (b < m->nbuses)
				snprintf(bus, sizeof(bus), "%s", m->bus[b]);
			else
				snprintf(bus, sizeof(bus), "bus-%zu", b);
			strbuf_appendf(&text, "%s = %s\n", bus, keys[s][b].s);
		}
	}
	snprintf(path, sizeof(path), "%s/etc/drvfilter.conf", dir);
	r = put(path, strbuf_str(&text));
out:
	for (int s = 0; s < 2; s++)
		for (size_t b = 0; b <= BENCH_POLICY_BUSES; b++)
			strbuf_release(&keys[s][b]);
	strbuf_release(&text);
	return r;
}

/*
 * The floor's input, decided by libdrvfilter itself (outside any timing);
 * @allowed gets '0' or '1' per driver.
 */
static int make_decisions(const char *dir, const struct machine *m, char *allowed)
{
	char path[4096], drv[128];
	struct df_policy *p = NULL;
	struct df_ctx *ctx = NULL;
	struct df_diags d;
	FILE *f;
	int r;

	df_diags_init(&d);
	snprintf(path, sizeof(path), "%s/etc/drvfilter.conf", dir);
	r = df_ctx_new(NULL, &ctx);
	if (r == 0)
		r = df_policy_load(ctx, path, DF_LOAD_ANY_OWNER, &d, &p);
	if (r < 0) {
		for (size_t i = 0; i < d.count; i++)
			fprintf(stderr, "bench: %s:%u: %s\n", path, d.items[i].line,
				d.items[i].message);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/decisions", dir);
	f = fopen(path, "we");
	if (!f) {
		r = -errno;
		goto out;
	}
	for (size_t j = 0; j < m->ndrivers; j++) {
		struct df_verdict v;
		const char *bus = m->bus[m->drv_bus[j]];

		driver_name(j, drv, sizeof(drv));
		df_policy_decide(p, bus, drv, &v);
		fprintf(f, "%s %s %d\n", bus, drv, v.allowed);
		allowed[j] = v.allowed ? '1' : '0';
	}
	r = fclose(f) == 0 ? 0 : -EIO;
out:
	df_policy_free(p);
	df_diags_release(&d);
	df_ctx_unref(ctx);
	return r;
}

int bench_generate(const char *dir, const struct bench_size *sz, struct bench_counts *counts)
{
	char *allowed = malloc(sz->drivers + 1), etc[4096];
	struct machine m;
	int r;

	if (!allowed)
		return -ENOMEM;
	rng = 0x9e3779b97f4a7c15ull; /* the same machine on every run */
	r = machine_new(sz, &m);
	snprintf(etc, sizeof(etc), "%s/etc", dir);
	if (r < 0 || (r = mkdirs(etc)) < 0 || (r = make_policy(dir, sz, &m)) < 0 ||
	    (r = make_decisions(dir, &m, allowed)) < 0)
		goto out;
	r = make_tree(dir, &m, allowed, counts);
out:
	machine_free(&m);
	free(allowed);
	return r;
}

/* Each line of @dir/decisions: @fn on that driver's allowed file and the decision. */
static int each_decision(const char *dir, int (*fn)(const char *path, char decision))
{
	char path[4096], bus[64], drv[128], line[256];
	int decision, r = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/decisions", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (r == 0 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %127s %d", bus, drv, &decision) != 3) {
			r = -EBADMSG;
			break;
		}
		snprintf(path, sizeof(path), "%s/sys/bus/%s/drivers/%s/allowed", dir, bus, drv);
		r = fn(path, decision ? '1' : '0');
	}
	fclose(f);
	return r;
}

static int poison(const char *path, char decision)
{
	(void)decision;
	return put(path, "x");
}

static int check(const char *path, char decision)
{
	char buf[8];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));

	if (fd >= 0)
		close(fd);
	/* "0", "1", with or without a newline: what a write of the bit leaves. */
	if (n >= 1 && buf[0] == decision && (n == 1 || (n == 2 && buf[1] == '\n')))
		return 0;
	fprintf(stderr, "bench: %s: %.*s, not %c as decided\n", path, n > 0 ? (int)n : 0, buf,
		decision);
	return -EBADMSG;
}

int bench_reset(const char *dir)
{
	char path[4096];
	int r = each_decision(dir, poison);

	if (r < 0)
		return r;
	snprintf(path, sizeof(path), "%s/dev/kmsg", dir);
	return truncate(path, 0) < 0 ? -errno : 0;
}

int bench_verify(const char *dir)
{
	return each_decision(dir, check);
}

long bench_detach_lines(const char *dir)
{
	char path[4096], line[2048];
	long n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/dev/kmsg", dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	/* Records fit a line: apply's are at most 976 bytes. */
	while (fgets(line, sizeof(line), f))
		n += strstr(line, " detached=") != NULL;
	fclose(f);
	return n;
}
