// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for what the boot options are computed from: the input as a
 * kernel log (the init-call trace), as a command line (the options it
 * carries) and, line by line, as kallsyms symbols. Whatever the input, every
 * name that could reach a command line is [A-Za-z0-9_] only, every driver the
 * trace ties to an init call is BUS:DRIVER, and a symbol parses into a level
 * the kernel has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check-private.h"
#include "fuzz.h"

_Noreturn static void fail(const char *what)
{
	fuzz_fail("fuzz-bootopts", what);
}

static void check_trace(const uint8_t *data, size_t size)
{
	char *buf = fuzz_strndup(data, size);
	struct df_trace t;
	int r = df_trace_parse(&t, buf);

	if (r == -ENOMEM)
		goto out;
	if (r < 0)
		fail("the trace did not parse");
	for (size_t i = 0; i < t.n; i++) {
		const struct df_trace_call *c = t.calls[i];

		if (!df_cmdline_name_ok(c->fn))
			fail("an init call's name unfit for a command line");
		if (strmap_get(&t.by_fn, c->fn) != c)
			fail("an init call not indexed by its name");
		for (size_t k = 0; k < c->drivers.n; k++)
			if (!strchr(c->drivers.v[k], ':') || strchr(c->drivers.v[k], '\n'))
				fail("a driver that is not BUS:DRIVER");
	}
	if (t.n > t.ncalls_seen)
		fail("more init calls than calling lines");
	df_trace_release(&t);
out:
	free(buf);
}

static void check_cmdline(const uint8_t *data, size_t size)
{
	char *line = fuzz_strndup(data, size);
	struct df_cmdline_opts o;

	if (df_cmdline_opts_parse(line, &o) < 0)
		goto out;
	for (size_t i = 0; i < o.ninitcalls; i++)
		if (!df_cmdline_name_ok(o.initcalls[i]))
			fail("an initcall_blacklist= entry unfit for a command line");
	for (size_t i = 0; i < o.nmodules; i++)
		if (!df_cmdline_name_ok(o.modules[i]))
			fail("a module_blacklist= entry unfit for a command line");
	if (o.len != strlen(line))
		fail("the length is not the line's");
	df_cmdline_opts_release(&o);
out:
	free(line);
}

static void check_symbols(const uint8_t *data, size_t size)
{
	static const char *const levels[] = { "early", "0", "1",  "1s",	 "2",  "2s",	 "3",
					      "3s",    "4", "4s", "5",	 "5s", "rootfs", "6",
					      "6s",    "7", "7s", "con", "0s" };
	char *text = fuzz_strndup(data, size), *save = NULL;

	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *module, *fn, level[8];
		bool known = false;

		if (df_initcall_parse(l, &module, &fn, level) < 0)
			continue;
		if (!df_cmdline_name_ok(module) || !df_cmdline_name_ok(fn))
			fail("a parsed name unfit for a command line");
		for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
			known |= strcmp(level, levels[i]) == 0;
		if (!known)
			fail("a level the kernel has not");
		free(module);
		free(fn);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_trace(data, size);
	check_cmdline(data, size);
	check_symbols(data, size);
	return 0;
}
