// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for what verify reads from a guest: the event log (JSON-SEQ)
 * and the drvfilter events in it. A refused log says why; an accepted one
 * has records of one register each, in range; an event that parses has a
 * known mode, a policy of 64 hex digits or none, and no negative count.
 */
#include <errno.h>
#include <string.h>

#include "drvfilter.h"
#include "fuzz.h"

_Noreturn static void fail(const char *what)
{
	fuzz_fail("fuzz-evlog", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct df_evlog log;
	char why[256] = "";
	int r = df_evlog_parse((const char *)data, size, &log, why, sizeof(why));

	if (r == -EBADMSG && !why[0])
		fail("a log refused without a reason");
	if (r < 0 && r != -EBADMSG && r != -ENOMEM && r != -E2BIG)
		fail("an unexpected error");
	if (r < 0)
		return 0;
	for (size_t i = 0; i < log.n; i++) {
		const struct df_evlog_record *rec = &log.v[i];
		struct df_event ev;

		if ((rec->pcr < 0) == (rec->rtmr < 0) || rec->pcr > 23 || rec->rtmr > 3)
			fail("a record of no register, or of two, or out of range");
		(void)df_evlog_digest_matches(rec);
		if (!rec->string || df_event_parse(rec->string, &ev) < 0)
			continue;
		if (strcmp(ev.mode, "kernel") && strcmp(ev.mode, "fallback") &&
		    strcmp(ev.mode, "audit"))
			fail("an event of an unknown mode accepted");
		if (*ev.policy && strspn(ev.policy, "0123456789abcdef") != 64)
			fail("an event's policy is not a digest");
		if (ev.drivers < 0 || ev.allowed < 0 || ev.denied < 0 || ev.unbound < 0 ||
		    ev.kept < 0 || ev.blacklisted < 0 || ev.errors < 0)
			fail("a negative count accepted");
	}
	df_evlog_release(&log);
	return 0;
}
