// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for name validation and escaping. A name sysfs hands us is
 * used as a path component only if it can never leave its directory; a
 * policy name is accepted only if it cannot break the kernel's list syntax;
 * escaped output is printable ASCII and unescapes to the input.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core-private.h"
#include "drvfilter.h"
#include "fuzz.h"
#include "strbuf.h"

_Noreturn static void fail(const char *what)
{
	fuzz_fail("fuzz-names", what);
}

static bool is_ctl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

static void check_sysfs_name(const char *s)
{
	if (df_sysfs_name_check(s) < 0)
		return;
	if (!*s || strlen(s) > DF_NAME_MAX || !strcmp(s, ".") || !strcmp(s, "..") || strchr(s, '/'))
		fail("a sysfs name that can leave its directory was accepted");
	for (const char *c = s; *c; c++)
		if (is_ctl((unsigned char)*c))
			fail("a sysfs name with a control byte was accepted");
}

static void check_policy_names(const char *s)
{
	const char *why = NULL;

	if (df_driver_name_check(s, &why) == 0) {
		if (!*s || strlen(s) > DF_NAME_MAX || !strcmp(s, ".") || !strcmp(s, ".."))
			fail("a driver name of the wrong shape was accepted");
		if (strpbrk(s, "/:;,\"'=#\\[]"))
			fail("a driver name with a separator or quote was accepted");
		for (const char *c = s; *c; c++)
			if (is_ctl((unsigned char)*c) || (unsigned char)*c >= 0x80)
				fail("a driver name with a control or non-ASCII byte was accepted");
	} else if (!why) {
		fail("a driver name refused without a reason");
	}
	why = NULL;
	if (df_bus_name_check(s, &why) == 0) {
		for (const char *c = s; *c; c++)
			if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				    "_-.+",
				    *c))
				fail("a bus name with a byte outside its alphabet was accepted");
	} else if (!why) {
		fail("a bus name refused without a reason");
	}
}

static int hex(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void check_escape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	const char *e;
	size_t i = 0;

	if (strbuf_append_escaped(&sb, s) < 0)
		fail("out of memory");
	e = strbuf_str(&sb);
	for (const char *c = e; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			fail("escaped text that is not printable ASCII");
	/* Unescape and compare. */
	for (const char *c = e; *c; i++) {
		char b;

		if (*c == '\\' && c[1] == '\\') {
			b = '\\';
			c += 2;
		} else if (*c == '\\' && c[1] == 'x' && hex(c[2]) >= 0 && hex(c[3]) >= 0) {
			b = (char)(hex(c[2]) << 4 | hex(c[3]));
			c += 4;
		} else if (*c == '\\') {
			fail("an escape that is neither \\\\ nor \\xNN");
		} else {
			b = *c++;
		}
		if (s[i] != b)
			fail("escaped text does not unescape to the input");
	}
	if (s[i])
		fail("escaped text is shorter than the input");
	strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size);

	check_sysfs_name(s);
	check_policy_names(s);
	check_escape(s);
	free(s);
	return 0;
}
