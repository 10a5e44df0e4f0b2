// SPDX-License-Identifier: GPL-2.0-only
/*
 * The syscall floor: what any correct helper must do to enforce a policy in
 * kernel mode, with the decisions already made. Read the decisions (one
 * file), list /sys/bus and each bus's drivers/, and open, write and close each
 * driver's allowed file. Nothing else: no policy, no log, no state.
 * Usage: bench-floor SYSROOT DECISIONS
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An open-addressing set of "bus/driver" keys whose value is 1; the rest get 0. */
static char **slots;
static size_t nslots;

static size_t hash(const char *s)
{
	size_t h = 1469598103934665603u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211u;
	return h;
}

static int allowed(const char *key)
{
	for (size_t i = hash(key) & (nslots - 1); slots[i]; i = (i + 1) & (nslots - 1))
		if (strcmp(slots[i], key) == 0)
			return 1;
	return 0;
}

static void load_decisions(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf, *line, *save = NULL;
	size_t lines = 0;

	if (fd < 0 || fstat(fd, &st) < 0 || !(buf = malloc((size_t)st.st_size + 1)) ||
	    read(fd, buf, (size_t)st.st_size) != st.st_size) {
		perror(path);
		exit(1);
	}
	close(fd);
	buf[st.st_size] = '\0';
	for (char *c = buf; *c; c++)
		lines += *c == '\n';
	for (nslots = 16; nslots < 2 * lines; nslots *= 2)
		;
	slots = calloc(nslots, sizeof(*slots));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *sp = strchr(line, ' '), *val = strrchr(line, ' ');

		if (!sp || val == sp || val[1] != '1')
			continue;
		*sp = '/';
		*val = '\0';
		size_t i = hash(line) & (nslots - 1);
		while (slots[i])
			i = (i + 1) & (nslots - 1);
		slots[i] = line;
	}
}

int main(int argc, char **argv)
{
	char path[4096], key[1024];
	DIR *buses;
	struct dirent *b;
	int busesfd;

	if (argc != 3) {
		fprintf(stderr, "usage: bench-floor SYSROOT DECISIONS\n");
		return 2;
	}
	load_decisions(argv[2]);
	snprintf(path, sizeof(path), "%s/sys/bus", argv[1]);
	buses = opendir(path);
	if (!buses)
		return 1;
	busesfd = dirfd(buses);
	while ((b = readdir(buses))) {
		DIR *drivers;
		struct dirent *d;
		int fd;

		if (b->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/drivers", b->d_name);
		fd = openat(busesfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || !(drivers = fdopendir(fd)))
			continue;
		while ((d = readdir(drivers))) {
			int afd;

			if (d->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/allowed", d->d_name);
			afd = openat(fd, path, O_WRONLY | O_CLOEXEC | O_TRUNC);
			if (afd < 0)
				continue;
			snprintf(key, sizeof(key), "%s/%s", b->d_name, d->d_name);
			if (write(afd, allowed(key) ? "1" : "0", 1) != 1)
				return 1;
			close(afd);
		}
		closedir(drivers);
	}
	closedir(buses);
	return 0;
}
