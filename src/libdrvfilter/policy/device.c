// SPDX-License-Identifier: GPL-2.0-only
/*
 * Device rules: "DRIVER@ID" in [allow] lets DRIVER bind only the devices
 * whose identity matches ID. What an identity is depends on the bus:
 *   pci      VVVV:DDDD or VVVV:DDDD:SSSS:SSSS (vendor, device, subsystem), hex
 *   virtio   the virtio device ID, decimal (1 net, 2 block, ...), optionally
 *            :VVVV, the vendor in hex
 *   pnp, acpi, platform   the ACPI/PNP hardware ID (PNP0501, ACPI0013)
 * A hex digit or an ID character may be '?', a whole field '*'. IDs are read
 * from sysfs (every value checked before it is used) and compared without
 * regard to case.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "policy/policy-private.h"

static const char *const id_buses[] = { "pci", "virtio", "pnp", "acpi", "platform" };

static int id_kind(const char *bus)
{
	for (size_t i = 0; i < ARRAY_SIZE(id_buses); i++)
		if (strcasecmp(bus, id_buses[i]) == 0)
			return (int)i;
	return -1;
}

/* A field of @n characters each of which @ok takes or is '?', or a lone '*'. */
static bool field_ok(const char *s, size_t len, size_t n, int (*ok)(int))
{
	if (len == 1 && s[0] == '*')
		return true;
	if (len != n)
		return false;
	for (size_t i = 0; i < len; i++)
		if (s[i] != '?' && !ok((unsigned char)s[i]))
			return false;
	return true;
}

static int id_char(int c)
{
	return isupper(c) || isdigit(c);
}

/* Split @pattern at ':' into at most @max fields: their count, or -1 when there are more. */
static int split(const char *pattern, const char *fields[], size_t lens[], int max)
{
	int n = 0;

	for (const char *s = pattern;; n++) {
		const char *colon = strchr(s, ':');

		if (n == max)
			return -1;
		fields[n] = s;
		lens[n] = colon ? (size_t)(colon - s) : strlen(s);
		if (!colon)
			return n + 1;
		s = colon + 1;
	}
}

int df_device_pattern_check(const char *bus, const char *pattern, const char **why)
{
	const char *f[4];
	size_t l[4];
	bool any, bad;
	int n;

	switch (id_kind(bus)) {
	case 0: /* pci */
		n = split(pattern, f, l, 4);
		if ((n != 2 && n != 4) || !field_ok(f[0], l[0], 4, isxdigit) ||
		    !field_ok(f[1], l[1], 4, isxdigit) ||
		    (n == 4 &&
		     (!field_ok(f[2], l[2], 4, isxdigit) || !field_ok(f[3], l[3], 4, isxdigit)))) {
			*why = "is not a PCI ID: VVVV:DDDD or VVVV:DDDD:SSSS:SSSS, four hex digits "
			       "each ('?' for a digit, '*' for a field)";
			return -EINVAL;
		}
		return 0;
	case 1: /* virtio */
		n = split(pattern, f, l, 2);
		if (n < 1 || l[0] == 0 || (l[0] > 5 && !(l[0] == 1 && f[0][0] == '*'))) {
			*why = "is not a virtio device ID: a decimal number, optionally :VVVV (the "
			       "vendor in hex)";
			return -EINVAL;
		}
		if (!(l[0] == 1 && f[0][0] == '*'))
			for (size_t i = 0; i < l[0]; i++)
				if (!isdigit((unsigned char)f[0][i])) {
					*why = "is not a virtio device ID: a decimal number, "
					       "optionally :VVVV (the vendor in hex)";
					return -EINVAL;
				}
		if (n == 2 && !field_ok(f[1], l[1], 4, isxdigit)) {
			*why = "has a virtio vendor that is not four hex digits";
			return -EINVAL;
		}
		return 0;
	case 2:
	case 3:
	case 4: /* pnp, acpi, platform */
		n = split(pattern, f, l, 1);
		any = n == 1 && l[0] == 1 && f[0][0] == '*';
		bad = n != 1 || (!any && (l[0] < 7 || l[0] > 8));
		for (size_t i = 0; !bad && !any && i < l[0]; i++)
			bad = f[0][i] != '?' && !id_char((unsigned char)f[0][i]);
		if (bad) {
			*why = "is not an ACPI or PNP hardware ID (PNP0501, ACPI0013: 7 or 8 "
			       "capital "
			       "letters and digits, '?' for one, '*' for any)";
			return -EINVAL;
		}
		return 0;
	default:
		*why = "is on a bus whose devices have no ID drvfilter knows (device rules are "
		       "for pci, virtio, pnp, acpi and platform)";
		return -EINVAL;
	}
}

/* A field of the pattern against a value field, '?' and '*' as above, without case. */
static bool field_match(const char *p, size_t plen, const char *v, size_t vlen)
{
	if (plen == 1 && p[0] == '*')
		return true;
	if (plen != vlen)
		return false;
	for (size_t i = 0; i < plen; i++)
		if (p[i] != '?' && tolower((unsigned char)p[i]) != tolower((unsigned char)v[i]))
			return false;
	return true;
}

bool df_device_match(const char *pattern, const struct df_device_id *id)
{
	const char *pf[4], *vf[4];
	size_t pl[4], vl[4];
	int pn, vn;

	if (!id->n || id_kind(id->bus) < 0)
		return false;
	for (size_t k = 0; k < id->n; k++) {
		bool all = true;

		pn = split(pattern, pf, pl, 4);
		vn = split(id->ids[k], vf, vl, 4);
		if (pn < 1 || vn < 1)
			continue;
		/* VVVV:DDDD matches whatever the subsystem; a virtio ID without vendor any vendor. */
		for (int i = 0; i < pn && all; i++)
			all = i < vn && field_match(pf[i], pl[i], vf[i], vl[i]);
		if (all)
			return true;
	}
	return false;
}

/* A hex attribute ("0x1af4") as four lower-case digits into @out. */
static int read_hex4(int fd, const char *attr, char out[5])
{
	char buf[DF_FLAG_SIZE * 2];
	unsigned long v;
	char *end;

	if (df_read_at(fd, attr, buf, sizeof(buf)) < 0)
		return -EIO;
	errno = 0;
	v = strtoul(buf, &end, 16);
	if (errno || *end || end == buf || v > 0xffff)
		return -EBADMSG;
	snprintf(out, 5, "%04lx", v);
	return 0;
}

static int add_id(struct df_device_id *id, const char *s)
{
	if (id->n == ARRAY_SIZE(id->ids) || strlen(s) >= sizeof(id->ids[0]))
		return -E2BIG;
	strcpy(id->ids[id->n++], s);
	return 0;
}

/* An ACPI/PNP ID as read: 7 or 8 letters and digits, taken in capitals. */
static int add_hid(struct df_device_id *id, const char *s, size_t n)
{
	char hid[9];

	if (n < 7 || n > 8)
		return -EBADMSG;
	for (size_t i = 0; i < n; i++) {
		if (!isalnum((unsigned char)s[i]))
			return -EBADMSG;
		hid[i] = (char)toupper((unsigned char)s[i]);
	}
	hid[n] = '\0';
	return add_id(id, hid);
}

/* The IDs of an "acpi:HID:CID:...:" modalias. */
static int hids_from_modalias(struct df_device_id *id, const char *modalias)
{
	const char *s = startswith(modalias, "acpi:");

	while (s && *s) {
		const char *colon = strchr(s, ':');
		size_t n = colon ? (size_t)(colon - s) : strlen(s);

		if (n && add_hid(id, s, n) == -E2BIG)
			break;
		s = colon ? colon + 1 : NULL;
	}
	return 0;
}

int df_device_id_read(struct df_ctx *ctx, const char *bus, const char *device,
		      struct df_device_id *id)
{
	_cleanup_free_ char *path = NULL;
	_cleanup_close_ int fd = -1;
	char v[5], d[5], sv[5], sd[5], buf[4096];
	int kind = id_kind(bus), r;

	*id = (struct df_device_id){ .bus = bus };
	if (kind < 0)
		return -EOPNOTSUPP;
	if (df_sysfs_name_check(bus) < 0 || df_sysfs_name_check(device) < 0)
		return -EINVAL;
	if (asprintf(&path, "/sys/bus/%s/devices/%s", bus, device) < 0)
		return -ENOMEM;
	fd = df_open_dir(ctx, path);
	if (fd < 0)
		return fd;
	switch (kind) {
	case 0: /* pci: the subsystem IDs too, when the device has them */
		r = read_hex4(fd, "vendor", v);
		if (r >= 0)
			r = read_hex4(fd, "device", d);
		if (r < 0)
			return r;
		if (read_hex4(fd, "subsystem_vendor", sv) >= 0 &&
		    read_hex4(fd, "subsystem_device", sd) >= 0)
			snprintf(buf, sizeof(buf), "%s:%s:%s:%s", v, d, sv, sd);
		else
			snprintf(buf, sizeof(buf), "%s:%s", v, d);
		return add_id(id, buf);
	case 1: { /* virtio: the device ID in decimal, the vendor in hex */
		unsigned long n;
		char *end;

		r = read_hex4(fd, "device", d);
		if (r < 0)
			return r;
		n = strtoul(d, &end, 16);
		if (read_hex4(fd, "vendor", v) >= 0)
			snprintf(buf, sizeof(buf), "%lu:%s", n, v);
		else
			snprintf(buf, sizeof(buf), "%lu", n);
		return add_id(id, buf);
	}
	default: /* pnp: its id lines; acpi, platform: the modalias' IDs */
		if (kind == 2) {
			char *line, *save = NULL;

			if (df_read_at(fd, "id", buf, sizeof(buf)) < 0)
				return -EIO;
			for (line = strtok_r(buf, "\n", &save); line;
			     line = strtok_r(NULL, "\n", &save))
				(void)add_hid(id, line, strlen(line));
			return id->n ? 0 : -EBADMSG;
		}
		if (df_read_at(fd, "modalias", buf, sizeof(buf)) >= 0)
			hids_from_modalias(id, buf);
		return id->n ? 0 : -ENODATA;
	}
}
