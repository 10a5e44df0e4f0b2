// SPDX-License-Identifier: GPL-2.0-only
/* The benchmark's synthetic machine; see gen.h. */
#include <errno.h>
#include <fcntl.h>
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

static void bus_name(size_t i, char *buf, size_t size)
{
	if (i < COUNT(bus_names))
		snprintf(buf, size, "%s", bus_names[i]);
	else
		snprintf(buf, size, "bus-%zu", i);
}

/* Driver j: realistic, unique, with '_', '-' and digits; on bus j % B. */
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

static int make_tree(const char *dir, const struct bench_size *sz)
{
	char path[4096], bus[64], drv[128];
	int r;

	for (size_t b = 0; b < sz->buses; b++) {
		bus_name(b, bus, sizeof(bus));
		snprintf(path, sizeof(path), "%s/sys/bus/%s/drivers", dir, bus);
		if ((r = mkdirs(path)) < 0)
			return r;
		snprintf(path, sizeof(path), "%s/sys/bus/%s/devices", dir, bus);
		if ((r = mkdirs(path)) < 0)
			return r;
	}
	snprintf(path, sizeof(path), "%s/sys/devices/bench", dir);
	if ((r = mkdirs(path)) < 0)
		return r;
	for (size_t j = 0; j < sz->drivers; j++) {
		char dev[64], target[256];

		bus_name(j % sz->buses, bus, sizeof(bus));
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
		snprintf(dev, sizeof(dev), "dev%zu", j);
		snprintf(path, sizeof(path), "%s/sys/devices/bench/%s", dir, dev);
		if (mkdir(path, 0755) < 0)
			return -errno;
		snprintf(target, sizeof(target), "../../../devices/bench/%s", dev);
		snprintf(path, sizeof(path), "%s/sys/bus/%s/devices/%s", dir, bus, dev);
		if (symlink(target, path) < 0)
			return -errno;
		if (rnd(100) < sz->bound_percent) {
			snprintf(target, sizeof(target), "../../../../devices/bench/%s", dev);
			snprintf(path, sizeof(path), "%s/sys/bus/%s/drivers/%s/%s", dir, bus, drv,
				 dev);
			if (symlink(target, path) < 0)
				return -errno;
		}
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
 * R rules over BENCH_POLICY_BUSES keys per section. Of every 100: 45 exact
 * names in [allow], 45 in [deny] (drivers of the tree where the bus is in
 * it), 8 prefix globs, one "*_pciN" glob, and one glob under the ALL key of
 * [allow] (the first 40; then one more exact name in [deny]).
 */
static int make_policy(const char *dir, const struct bench_size *sz)
{
	struct strbuf keys[2][BENCH_POLICY_BUSES + 1] = { 0 }; /* the last: ALL */
	size_t nall = 0;
	struct strbuf text = STRBUF_INIT;
	char path[4096], bus[64], name[128];
	int r = 0;

	for (size_t k = 0; k < sz->rules; k++) {
		size_t b = k % BENCH_POLICY_BUSES;
		unsigned kind = (unsigned)(k % 100);
		int deny = kind >= 45 && kind < 90;

		if (kind == 99 && nall++ >= 40) {
			kind = 45;
			deny = 1;
		}

		if (kind < 90 && b < sz->buses && sz->drivers > b) {
			size_t per = (sz->drivers - b + sz->buses - 1) / sz->buses;

			driver_name(b + sz->buses * rnd((unsigned)per), name, sizeof(name));
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
		for (size_t b = 0; b <= BENCH_POLICY_BUSES; b++)
			if (keys[s][b].len) {
				bus_name(b, bus, sizeof(bus));
				strbuf_appendf(&text, "%s = %s\n",
					       b < BENCH_POLICY_BUSES ? bus : "ALL", keys[s][b].s);
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

/* The floor's input, decided by libdrvfilter itself (outside any timing). */
static int make_decisions(const char *dir, const struct bench_size *sz)
{
	char path[4096], bus[64], drv[128];
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
	for (size_t j = 0; j < sz->drivers; j++) {
		struct df_verdict v;

		bus_name(j % sz->buses, bus, sizeof(bus));
		driver_name(j, drv, sizeof(drv));
		df_policy_decide(p, bus, drv, &v);
		fprintf(f, "%s %s %d\n", bus, drv, v.allowed);
	}
	r = fclose(f) == 0 ? 0 : -EIO;
out:
	df_policy_free(p);
	df_diags_release(&d);
	df_ctx_unref(ctx);
	return r;
}

int bench_generate(const char *dir, const struct bench_size *sz)
{
	int r;

	if ((r = mkdirs(dir)) < 0 || (r = make_tree(dir, sz)) < 0 || (r = make_policy(dir, sz)) < 0)
		return r;
	return make_decisions(dir, sz);
}

int bench_reset(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/dev/kmsg", dir);
	return truncate(path, 0) < 0 ? -errno : 0;
}
