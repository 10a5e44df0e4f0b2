// SPDX-License-Identifier: GPL-2.0-only
/*
 * The drop-in drvfilterctl allow and deny change: where it is (under /run
 * until reboot, with --permanent beside the policy), read whole, checked
 * with the rest of the set, the line that says what made it, and replaced
 * atomically or removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl-change.h"
#include "ctl.h"
#include "log.h"
#include "macro.h"

#define CHANGES_NAME "50-drvfilterctl.conf"

char *dropin_path(const char *policy, bool permanent)
{
	_cleanup_free_ char *runtime = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR);
	char *path;

	if (!runtime)
		return NULL;
	if (permanent ? asprintf(&path, "%s.d/" CHANGES_NAME, policy) < 0
		      : asprintf(&path, "%s/" CHANGES_NAME, runtime) < 0)
		return NULL;
	return path;
}

int dropin_read(const char *path, char **ret, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;

	if (fd < 0 && errno == ENOENT) {
		*ret = strdup("");
		*len = 0;
		return *ret ? 0 : -ENOMEM;
	}
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return df_read_full_fd(fd, 1024 * 1024, ret, len);
}

int dropin_check(const char *path, const char *text, size_t len)
{
	struct df_policy_source src = { path, text, len };
	struct df_policy *p = NULL;
	struct df_diags d;
	int r;

	if (len == 0)
		return 0;
	df_diags_init(&d);
	r = df_policy_load_edited(ctl_ctx, path, ctl_load_flags() & DF_LOAD_ANY_OWNER, &src, &d,
				  &p);
	if (r < 0) {
		ctl_print_diags(&d, stderr, true);
		r = log_error_errno(-EINVAL, "'%s' is not valid: fix it or remove it first", path);
	}
	df_diags_release(&d);
	df_policy_free(p);
	return r;
}

/* The first line of the drop-in when this command makes it, for the runtime and --permanent. */
static const char *const headers[] = {
	"# Written by drvfilterctl allow/deny: runtime changes, gone at reboot.",
	"# Written by drvfilterctl allow/deny: permanent changes (rebuild the initramfs for boot).",
};

const char *dropin_header(bool permanent)
{
	return headers[permanent];
}

bool dropin_only_header(const char *text)
{
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n"), ln = n;

		while (ln > 0 && (s[ln - 1] == '\r' || s[ln - 1] == ' ' || s[ln - 1] == '\t'))
			ln--;
		if (ln > 0 && !(ln == strlen(headers[0]) && strncmp(s, headers[0], ln) == 0) &&
		    !(ln == strlen(headers[1]) && strncmp(s, headers[1], ln) == 0))
			return false;
		s += n + (s[n] == '\n');
	}
	return true;
}

int dropin_write(const char *path, const char *text, size_t len)
{
	_cleanup_free_ char *dir = strdup(path);
	char *slash;

	if (!dir)
		return -ENOMEM;
	if (len == 0)
		return unlink(path) < 0 && errno != ENOENT ? -errno : 0;
	slash = strrchr(dir, '/');
	*slash = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		return -errno;
	return ctl_install_file(path, text, len, 0644);
}
