// SPDX-License-Identifier: GPL-2.0-only
/* Helpers for the fuzz targets; see fuzz.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

_Noreturn void fuzz_fail(const char *target, const char *what)
{
	fprintf(stderr, "%s: invariant broken: %s\n", target, what);
	abort();
}

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		fuzz_fail("fuzz", "out of memory");
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static char sysroot[64];

static void remove_sysroot(void)
{
	char cmd[128];

	/* Only ever our own mkdtemp() directory. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", sysroot);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: cannot remove %s\n", sysroot);
}

const char *fuzz_sysroot_file(const char *rel, const uint8_t *data, size_t size)
{
	char path[256], *slash;
	FILE *f;

	if (!sysroot[0]) {
		snprintf(sysroot, sizeof(sysroot), "/tmp/drvfilter-fuzz-XXXXXX");
		if (!mkdtemp(sysroot))
			fuzz_fail("fuzz", "cannot create a temporary directory");
		atexit(remove_sysroot);
	}
	snprintf(path, sizeof(path), "%s/%s", sysroot, rel);
	for (slash = strchr(path + strlen(sysroot) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		fuzz_fail("fuzz", "cannot write an input file");
	return sysroot;
}
