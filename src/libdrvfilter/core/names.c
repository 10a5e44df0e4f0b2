// SPDX-License-Identifier: GPL-2.0-only
/* What a bus or driver name may be, and glob matching. */
#include <errno.h>
#include <string.h>

#include "core/core-private.h"

/* What bus and driver names share: a length, and never a path component. */
static int name_shape_check(const char *name, const char **why)
{
	size_t n = strlen(name);

	if (n == 0)
		*why = "is empty";
	else if (n > DF_NAME_MAX)
		*why = "is longer than 255 bytes";
	else if (streq(name, ".") || streq(name, ".."))
		*why = "is a path component";
	else
		return 0;
	return -EINVAL;
}

int df_bus_name_check(const char *name, const char **why)
{
	if (name_shape_check(name, why) < 0)
		return -EINVAL;
	for (const char *s = name; *s; s++) {
		char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-' || c == '.' || c == '+')) {
			*why = "may hold only letters, digits, '_', '-', '.' and '+'";
			return -EINVAL;
		}
	}
	return 0;
}

/* Why a byte cannot stand in a driver name, or NULL when it can. */
static const char *driver_byte_why(unsigned char c)
{
	if (c < 0x20 || c == 0x7f)
		return "contains a control character";
	if (c >= 0x80)
		return "contains a byte that is not ASCII";
	switch (c) {
	case '/':
		return "contains '/', which no sysfs name can hold";
	case ':':
	case ';':
	case ',':
		return "contains ':', ';' or ',', which separate names in the kernel's syntax";
	case '"':
	case '\'':
		return "contains a quote";
	case '=':
	case '#':
		return "contains '=' or '#', which the policy file's syntax reserves";
	case '@':
		return "contains '@', which starts a device rule (DRIVER@ID)";
	case '$':
		return "contains '$', which GRUB would expand in the boot options";
	case '\\':
	case '[':
	case ']':
		return "contains '\\', '[' or ']', which the kernel's glob_match() would read as "
		       "pattern syntax";
	default:
		return NULL;
	}
}

int df_driver_name_check(const char *name, const char **why)
{
	if (name_shape_check(name, why) < 0)
		return -EINVAL;
	if (name[0] == ' ' || name[strlen(name) - 1] == ' ') {
		*why = "begins or ends with a blank";
		return -EINVAL;
	}
	for (const char *s = name; *s; s++) {
		const char *w = driver_byte_why((unsigned char)*s);

		if (w) {
			*why = w;
			return -EINVAL;
		}
	}
	return 0;
}

bool df_name_is_glob(const char *name)
{
	return strpbrk(name, "*?") != NULL;
}

bool df_glob_match(const char *pattern, const char *s)
{
	const char *star = NULL, *resume = NULL;

	/*
	 * Greedy with one backtrack point: on a mismatch, let the last '*' eat one
	 * more byte. Linear in practice, O(len(p) * len(s)) at worst; never recursive.
	 */
	while (*s) {
		if (*pattern == '*') {
			star = ++pattern;
			resume = s;
		} else if (*pattern == '?' || *pattern == *s) {
			pattern++;
			s++;
		} else if (star) {
			pattern = star;
			s = ++resume;
		} else {
			return false;
		}
	}
	while (*pattern == '*')
		pattern++;
	return *pattern == '\0';
}

static int respell(const char *name, char from, char to, char *buf)
{
	size_t n = strlen(name);

	if (n > DF_NAME_MAX)
		return -ENAMETOOLONG;
	for (size_t i = 0; i <= n; i++)
		buf[i] = name[i] == from ? to : name[i];
	return 0;
}

int df_modname_normalize(const char *name, char buf[DF_NAME_MAX + 1])
{
	return respell(name, '-', '_', buf);
}

int df_modname_dashed(const char *name, char buf[DF_NAME_MAX + 1])
{
	return respell(name, '_', '-', buf);
}

const char *df_esc(const char *s, char buf[DF_ESC_SIZE])
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	for (size_t i = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (i == DF_NAME_MAX) {
			memcpy(buf + o, "...", 3);
			o += 3;
			break;
		}
		if (c == '\\') {
			buf[o++] = '\\';
			buf[o++] = '\\';
		} else if (c >= 0x20 && c < 0x7f) {
			buf[o++] = (char)c;
		} else {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 15];
		}
	}
	buf[o] = '\0';
	return buf;
}

int df_modname_check(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > DF_MODNAME_MAX)
		return -EINVAL;
	for (const char *s = name; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return -EINVAL;
	return 0;
}
