// SPDX-License-Identifier: GPL-2.0-only
/*
 * main() for the fuzz targets outside libFuzzer: replay every file named on
 * the command line, or found in a directory named there, through
 * LLVMFuzzerTestOneInput(). A broken invariant or a sanitizer report aborts.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

#define INPUT_MAX (2 * 1024 * 1024)

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	buf = malloc(INPUT_MAX);
	n = buf ? fread(buf, 1, INPUT_MAX, f) : 0;
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
		if (n < 0) {
			perror(argv[i]);
			failed++;
			continue;
		}
		for (int j = 0; j < n; j++) {
			char path[4096];

			if (list[j]->d_name[0] != '.') {
				snprintf(path, sizeof(path), "%s/%s", argv[i], list[j]->d_name);
				failed += replay_file(path) < 0;
				replayed++;
			}
			free(list[j]);
		}
		free(list);
	}
	printf("%u inputs replayed, %u could not be read\n", replayed, failed);
	return failed || replayed == 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
