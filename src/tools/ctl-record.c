// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl record DIR: what drvfilter reads of this system (or of the
 * --sysroot tree), as a tree that --sysroot DIR reads back, so that an image
 * builder boots the image once, records it, and computes the policy and the
 * boot options on the build host.
 */
#include <errno.h>
#include <stdio.h>

#include "ctl.h"
#include "log.h"
#include "strbuf.h"

static int run(int argc, char **argv)
{
	struct strbuf sb = STRBUF_INIT;
	struct df_record_counts c;
	int r;

	r = df_record_system(ctl_ctx, argv[1], DRVFILTER_POLICY_PATH, &c);
	(void)strbuf_append_escaped(&sb, argv[1]);
	if (r == -EEXIST) {
		log_error("'%s' exists: record into a new directory", strbuf_str(&sb));
		strbuf_release(&sb);
		return EXIT_ERROR;
	}
	if (r < 0) {
		log_error_errno(r, "cannot record into '%s': %m; nothing was written",
				strbuf_str(&sb));
		strbuf_release(&sb);
		return EXIT_ERROR;
	}
	log_info("recorded into '%s': %zu buses, %zu drivers, %zu devices, %zu modules in "
		 "/sys/module, %zu init calls, %zu kernel log records, %zu files",
		 strbuf_str(&sb), c.buses, c.drivers, c.devices, c.modules, c.initcalls,
		 c.kmsg_records, c.files);
	if (c.skipped)
		log_info("skipped %zu entries that could not be read or had unsafe names: the "
			 "recording lacks them (see the warnings above)",
			 c.skipped);
	if (c.modules_unread)
		log_info("%zu module files could not be read for their init function's name "
			 "(compressed?): cmdline names no init call on their account",
			 c.modules_unread);
	if (c.initramfs)
		log_info("recorded inside an initramfs, whose module tree is dracut's subset: "
			 "for module_blacklist= from the whole tree, replace lib/modules/RELEASE "
			 "in the recording with the kernel's");
	strbuf_release(&sb);
	return c.skipped ? EXIT_ERROR : EXIT_FINE;
}

const struct ctl_verb ctl_verb_record = {
	.name = "record",
	.args = "DIR",
	.min_args = 1,
	.max_args = 1,
	.summary = "record this system for --sysroot (an offline image build)",
	.common = CTL_SYSROOT,
	.run = run,
};
