// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the state file reader (what `status` trusts after boot):
 * the input is /run/drvfilter/state.json in a sysroot. A refused file says
 * why; an accepted one has a known mode, its strings, and no negative count
 * or time.
 */
#include <errno.h>
#include <string.h>

#include "drvfilter.h"
#include "fuzz.h"

_Noreturn static void fail(const char *what)
{
	fuzz_fail("fuzz-state", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *root = fuzz_sysroot_file("run/drvfilter/state.json", data, size);
	struct df_state st;
	struct df_ctx *ctx;
	char why[256] = "";
	int r;

	if (df_ctx_new(root, &ctx) < 0)
		fail("no context");
	r = df_state_read(ctx, &st, why, sizeof(why));
	if (r == -EBADMSG && !why[0])
		fail("a state file refused without a reason");
	if (r == 0) {
		if (!st.mode || (strcmp(st.mode, "kernel") && strcmp(st.mode, "fallback")))
			fail("an unknown mode accepted");
		if (st.mode_kernel != !strcmp(st.mode, "kernel"))
			fail("mode_kernel disagrees with mode");
		if (!st.policy_path || !st.policy_sha256)
			fail("a policy without its strings");
		if (st.applied_usec < 0 || st.duration_usec < 0 || st.errors < 0)
			fail("a negative number accepted");
		df_state_release(&st);
	} else if (r != -EBADMSG && r != -ENOMEM && r != -EFBIG) {
		fail("an unexpected error");
	}
	df_ctx_unref(ctx);
	return 0;
}
