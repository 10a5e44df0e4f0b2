// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target for the policy loader, the decision and the kernel options.
 * Built with -fsanitize=fuzzer it is a libFuzzer target; otherwise main()
 * replays files and directories given as arguments, so the corpus runs as an
 * ordinary test. Besides "no crash, no sanitizer report" it checks that every
 * refused policy says why, and that every verdict names a rule from the list
 * that decided it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drvfilter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
	fprintf(stderr, "fuzz-policy: invariant broken: %s\n", what);
	abort();
}

/* The loader takes a path: one temporary file, rewritten for each input. */
static const char *input_path(void)
{
	static char path[64];

	if (!path[0]) {
		int fd;

		snprintf(path, sizeof(path), "/tmp/drvfilter-fuzz-XXXXXX");
		fd = mkstemp(path);
		if (fd < 0)
			fail("cannot create a temporary file");
		close(fd);
	}
	return path;
}

static void check_verdicts(const struct df_policy *p)
{
	static const char *const subjects[][2] = {
		{ "pci", "e1000" },	{ "PCI", "virtio-pci" }, { "virtio", "virtio_net" },
		{ "pnp", "i8042 kbd" }, { "usb", "usbhid" },	 { "all", "ALL" },
	};

	for (size_t i = 0; i < sizeof(subjects) / sizeof(subjects[0]); i++) {
		struct df_verdict v;

		df_policy_decide(p, subjects[i][0], subjects[i][1], &v);
		if (!v.rule)
			fail("a verdict without a rule");
		if (v.rule->section == DF_SECTION_ALLOW && !v.allowed)
			fail("denied by an [allow] rule");
		if (v.rule->section == DF_SECTION_DENY && v.allowed)
			fail("allowed by a [deny] rule");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = input_path();
	struct df_policy *p = NULL;
	struct df_diags d;
	struct df_ctx *ctx;
	char *options = NULL;
	FILE *f;
	int r;

	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		fail("cannot write the temporary file");
	if (df_ctx_new(NULL, &ctx) < 0)
		fail("no context");
	df_diags_init(&d);
	r = df_policy_load(ctx, path, DF_LOAD_ANY_OWNER, &d, &p);
	if (r < 0 && r != -ENOMEM && d.errors == 0)
		fail("a policy refused without an error message");
	if (r == 0) {
		if (d.errors != 0)
			fail("a policy loaded despite errors");
		check_verdicts(p);
		r = df_policy_kernel_options(p, &options);
		if (r < 0 && r != -E2BIG && r != -ENOMEM)
			fail("kernel options failed");
		free(options);
	}
	df_policy_free(p);
	df_diags_release(&d);
	df_ctx_unref(ctx);
	return 0;
}

#ifndef DRVFILTER_LIBFUZZER
static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	buf = malloc(2 * 1024 * 1024);
	n = buf ? fread(buf, 1, 2 * 1024 * 1024, f) : 0;
	fclose(f);
	if (!buf)
		return -1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned replayed = 0, failed = 0;

	for (int i = 1; i < argc; i++) {
		struct dirent **list;
		struct stat st;
		int n;

		if (stat(argv[i], &st) < 0 || !S_ISDIR(st.st_mode)) {
			failed += replay_file(argv[i]) < 0;
			replayed++;
			continue;
		}
		n = scandir(argv[i], &list, NULL, alphasort);
		for (int j = 0; j < n; j++) {
			char path[4096];

			if (list[j]->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", argv[i], list[j]->d_name);
				failed += replay_file(path) < 0;
				replayed++;
			}
			free(list[j]);
		}
		if (n >= 0)
			free(list);
		else
			failed++;
	}
	unlink(input_path());
	printf("%u passed, %u failed\n", replayed - failed, failed);
	return failed || replayed == 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
#endif
