// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for CoCo's AAEL as verify --aael reads it (from the guest): a
 * refused log says why; an accepted one begins with its INIT line, and each
 * drvfilter event it hands over is text without a quote or a backslash, on
 * a line after the first.
 */
#include <errno.h>
#include <string.h>

#include "drvfilter.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct df_aael a;
	char why[256] = "";
	int r = df_aael_parse((const char *)data, size, &a, why, sizeof(why));

	if (r == -EBADMSG && !why[0])
		fuzz_fail("fuzz-aael", "a log refused without a reason");
	if (r < 0 && r != -EBADMSG && r != -ENOMEM)
		fuzz_fail("fuzz-aael", "an unexpected error");
	if (r < 0)
		return 0;
	if (a.nlines == 0 || size < 109 || memcmp(data, "INIT sha384/", 12) != 0)
		fuzz_fail("fuzz-aael", "a log accepted without its INIT line");
	for (size_t i = 0; i < a.n; i++) {
		struct df_event ev;

		if (a.lines[i] < 2 || a.lines[i] > a.nlines || strpbrk(a.events[i], "\"\\\n"))
			fuzz_fail("fuzz-aael",
				  "an event out of place or with a quote or backslash");
		(void)df_event_parse(a.events[i], &ev);
	}
	df_aael_release(&a);
	return 0;
}
