// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the quote verify --quote reads (a TPMS_ATTEST, from the
 * guest): a refused one says why; an accepted one has at most a nonce's
 * extra data, and its selection within the SHA-256 bank's 24 PCRs.
 */
#include <errno.h>

#include "drvfilter.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct df_quote q;
	char why[256] = "";
	int r = df_quote_parse(data, size, &q, why, sizeof(why));

	if (r == -EBADMSG && !why[0])
		fuzz_fail("fuzz-quote", "a quote refused without a reason");
	if (r < 0 && r != -EBADMSG)
		fuzz_fail("fuzz-quote", "an unexpected error");
	if (r == 0 && q.nextra > sizeof(q.extra))
		fuzz_fail("fuzz-quote", "extra data longer than its buffer");
	return 0;
}
