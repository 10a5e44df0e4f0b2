// SPDX-License-Identifier: GPL-2.0-only
/*
 * The modprobe.d blacklist drvfilter writes, written and read here only:
 * apply's /run/modprobe.d/drvfilter.conf and `drvfilterctl blacklist`'s
 * output (which image builders put into an initramfs) share one format. Its
 * first line names the writer, the policy and the policy's SHA-256, which is
 * what status reads back; then comment lines, then "blacklist M" and
 * "install M /bin/false" for each module, so that neither an alias nor a
 * name loads it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "enforce/enforce-private.h"
#include "strbuf.h"

#define HEAD_START "# Written by "
#define HEAD_SHA " (sha256 "
#define HEAD_END ")."

int df_blacklist_text(const char *writer, const char *policy, const char *sha256, const char *notes,
		      char *const *mods, size_t n, char **ret)
{
	struct strbuf sb = STRBUF_INIT;
	int r = strbuf_appendf(&sb, HEAD_START "%s from %s" HEAD_SHA "%s" HEAD_END "\n%s", writer,
			       policy, sha256, notes);

	/* A name with a blank would be a command in an install line: modules' names only. */
	for (size_t i = 0; i < n && r >= 0; i++)
		if (mods[i] && df_modname_check(mods[i]) == 0) {
			/* Appended, not printed: a real root's tree blacklists 2,000 modules. */
			r = strbuf_append(&sb, "blacklist ");
			if (r >= 0)
				r = strbuf_append(&sb, mods[i]);
			if (r >= 0)
				r = strbuf_append(&sb, "\ninstall ");
			if (r >= 0)
				r = strbuf_append(&sb, mods[i]);
			if (r >= 0)
				r = strbuf_append(&sb, " /bin/false\n");
		}
	if (r < 0) {
		strbuf_release(&sb);
		return -ENOMEM;
	}
	*ret = strbuf_steal(&sb);
	return *ret ? 0 : -ENOMEM;
}

int df_blacklist_policy(const struct df_ctx *ctx, char sha256[DF_BLACKLIST_SHA_SIZE])
{
	_cleanup_free_ char *path = df_ctx_path(ctx, DF_BLACKLIST_PATH);
	char line[PATH_MAX + 256];
	const char *sha, *end;
	struct stat st;
	size_t len;
	FILE *f;
	int fd;

	if (!path)
		return -ENOMEM;
	/* O_NONBLOCK: a FIFO in its place must not hang status; only a regular file is one. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	/* The whole first line, as written: a cut one or another header is not ours. */
	len = strlen(line);
	if (len == 0 || line[len - 1] != '\n' || strncmp(line, HEAD_START, strlen(HEAD_START)))
		return -EBADMSG;
	line[--len] = '\0';
	sha = NULL;
	for (const char *s = line; (s = strstr(s, HEAD_SHA)); s++)
		sha = s + strlen(HEAD_SHA);
	end = line + len - strlen(HEAD_END);
	if (!sha || end < sha || strcmp(end, HEAD_END) ||
	    (size_t)(end - sha) >= DF_BLACKLIST_SHA_SIZE)
		return -EBADMSG;
	memcpy(sha256, sha, (size_t)(end - sha));
	sha256[end - sha] = '\0';
	return 0;
}
