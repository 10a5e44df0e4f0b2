// SPDX-License-Identifier: GPL-2.0-only
/*
 * The files of a policy's set, read safely: the policy, its drop-ins
 * (drvfilter.conf.d/NAME.conf) and the runtime ones, each from a directory
 * only root may change, whole and at most DF_POLICY_SIZE_MAX bytes, then
 * scanned (policy-lex.c) and read by iniparser (policy-ini.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy/policy-private.h"
#include "strbuf.h"
#include "strv.h"

/*
 * Whether the directory @dir may hold the policy: owned by root and writable
 * by no one else, or the owner of a directory above could swap the file for
 * another one (an empty one allows everything). A sticky directory (/tmp) is
 * accepted, as others cannot replace a file root owns in it.
 */
static int check_dir(const char *dir, struct df_diags *diags)
{
	struct stat st;

	if (stat(dir, &st) < 0) {
		int r = -errno;

		df_diags_add(diags, DF_ERROR, 0, "cannot stat its directory '%s': %s", dir,
			     strerror(-r));
		return r;
	}
	if (st.st_uid != 0) {
		df_diags_add(diags, DF_ERROR, 0,
			     "its directory '%s' is owned by uid %u, not root: its owner can "
			     "replace the policy",
			     dir, (unsigned)st.st_uid);
		return -EPERM;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		df_diags_add(diags, DF_ERROR, 0,
			     "its directory '%s' is writable by group or others (mode %04o): "
			     "they can replace the policy",
			     dir, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* The directories above the file @p names ("/a/b/f": /a/b, /a, /); @p is cut up. */
static int check_chain(char *p, struct df_diags *diags)
{
	char *slash;
	int r = 0;

	while (r >= 0 && (slash = strrchr(p, '/'))) {
		if (slash == p) {
			p[1] = '\0';
			return check_dir(p, diags);
		}
		*slash = '\0';
		r = check_dir(p, diags);
	}
	return r;
}

/* Every directory above @path, as written (made absolute) and as resolved. */
static int check_dirs(const char *path, struct df_diags *diags)
{
	_cleanup_free_ char *abs = NULL, *real = NULL;
	char cwd[PATH_MAX];
	int r;

	if (path[0] == '/')
		abs = strdup(path);
	else if (getcwd(cwd, sizeof(cwd)) && asprintf(&abs, "%s/%s", cwd, path) < 0)
		abs = NULL;
	if (!abs)
		return -ENOMEM;
	r = check_chain(abs, diags);
	real = realpath(path, NULL);
	if (r >= 0 && real)
		r = check_chain(real, diags);
	return r;
}

static int read_file(const char *path, unsigned flags, struct df_diags *diags, char **ret,
		     size_t *retlen)
{
	_cleanup_close_ int fd = -1;
	char *buf = NULL;
	size_t len = 0;
	struct stat st;
	int r;

	/* O_NONBLOCK: a FIFO in its place must not hang the boot. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		r = -errno;
		df_diags_add(diags, DF_ERROR, 0, "cannot open: %s", strerror(-r));
		return r;
	}
	if (fstat(fd, &st) < 0) {
		r = -errno;
		df_diags_add(diags, DF_ERROR, 0, "cannot stat: %s", strerror(-r));
		return r;
	}
	if (S_ISDIR(st.st_mode)) {
		df_diags_add(diags, DF_ERROR, 0, "is a directory, not a policy file");
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode)) {
		df_diags_add(diags, DF_ERROR, 0, "is not a regular file");
		return -EINVAL;
	}
	if (!(flags & DF_LOAD_ANY_OWNER)) {
		if (st.st_uid != 0) {
			df_diags_add(diags, DF_ERROR, 0,
				     "is owned by uid %u, not root: anyone who can write it "
				     "controls which drivers run",
				     (unsigned)st.st_uid);
			return -EPERM;
		}
		if (st.st_mode & (S_IWGRP | S_IWOTH)) {
			df_diags_add(diags, DF_ERROR, 0,
				     "is writable by group or others (mode %04o); make it 0644 "
				     "or stricter",
				     (unsigned)(st.st_mode & 07777));
			return -EPERM;
		}
		r = check_dirs(path, diags);
		if (r < 0)
			return r;
	}
	/* Read to EOF rather than trusting st_size: the file may change under us. */
	r = df_read_full_fd(fd, DF_POLICY_SIZE_MAX, &buf, &len);
	if (r == -EFBIG) {
		df_diags_add(diags, DF_ERROR, 0, "is larger than %d bytes", DF_POLICY_SIZE_MAX);
		return r;
	}
	if (r < 0) {
		df_diags_add(diags, DF_ERROR, 0, "cannot read: %s", strerror(-r));
		return r;
	}
	*ret = buf;
	*retlen = len;
	return 0;
}

/* Whether @edited is a file right in @dir. */
static bool in_dir(const struct df_policy_source *edited, const char *dir)
{
	size_t n = strlen(dir);

	return edited && strncmp(edited->path, dir, n) == 0 && edited->path[n] == '/' &&
	       edited->path[n + 1] && !strchr(edited->path + n + 1, '/');
}

int df_policy_list_dropins(const char *dir, const char *prefix, unsigned flags,
			   const struct df_policy_source *edited, struct df_diags *diags,
			   struct strv *paths, struct strv *labels)
{
	struct strv names = STRV_INIT;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int r = 0;

	if (stat(dir, &st) < 0) {
		/* A first drop-in being written: the directory comes with it. */
		if (errno == ENOENT && in_dir(edited, dir)) {
			_cleanup_free_ char *label = NULL;

			if (asprintf(&label, "%s/%s", prefix, edited->path + strlen(dir) + 1) < 0)
				return -ENOMEM;
			r = strv_push(paths, edited->path);
			return r < 0 ? r : strv_push(labels, label);
		}
		return errno == ENOENT ? 0 : -errno;
	}
	r = df_diags_set_file(diags, dir);
	if (r < 0)
		return r;
	if (!S_ISDIR(st.st_mode))
		return df_diags_add(diags, DF_ERROR, 0, "is not a directory of drop-ins");
	if (!(flags & DF_LOAD_ANY_OWNER) && check_dir(dir, diags) < 0)
		return 0;
	d = opendir(dir);
	if (!d)
		return df_diags_add(diags, DF_ERROR, 0, "cannot read the directory: %s",
				    strerror(errno));
	while ((r = df_dir_next(d, &de)) > 0) {
		size_t n = strlen(de->d_name);
		char esc[DF_ESC_SIZE];

		if (de->d_name[0] == '.')
			continue;
		if (n <= strlen(".conf") || !streq(de->d_name + n - strlen(".conf"), ".conf")) {
			r = df_diags_add(diags, DF_ERROR, 0,
					 "'%s' is not a drop-in (NAME.conf): move it out of the "
					 "directory",
					 df_esc(de->d_name, esc));
			if (r < 0)
				break;
			continue;
		}
		r = strv_push(&names, de->d_name);
		if (r < 0)
			break;
	}
	closedir(d);
	/* A drop-in being written joins the set it will be part of. */
	if (r >= 0 && in_dir(edited, dir))
		r = strv_push_unique(&names, edited->path + strlen(dir) + 1);
	strv_sort(&names);
	for (size_t i = 0; r >= 0 && i < names.n; i++) {
		_cleanup_free_ char *path = NULL, *label = NULL;

		if (asprintf(&path, "%s/%s", dir, names.v[i]) < 0 ||
		    asprintf(&label, "%s/%s", prefix, names.v[i]) < 0)
			r = -ENOMEM;
		if (r >= 0)
			r = strv_push(paths, path);
		if (r >= 0)
			r = strv_push(labels, label);
	}
	strv_release(&names);
	return r < 0 ? r : 0;
}

int df_policy_read_one(struct df_policy_file *f, unsigned flags,
		       const struct df_policy_source *edited, struct df_diags *diags)
{
	size_t errors = diags->errors;
	int r = df_diags_set_file(diags, f->path);

	if (r >= 0 && edited && streq(edited->path, f->path)) {
		/* The text to be installed: its owner and mode are the installer's to set. */
		if (edited->len > DF_POLICY_SIZE_MAX)
			return df_diags_add(diags, DF_ERROR, 0, "is larger than %d bytes",
					    DF_POLICY_SIZE_MAX);
		f->buf = malloc(edited->len + 1);
		if (!f->buf)
			return -ENOMEM;
		memcpy(f->buf, edited->buf, edited->len);
		f->buf[edited->len] = '\0';
		f->len = edited->len;
	} else if (r >= 0) {
		r = read_file(f->path, flags, diags, &f->buf, &f->len);
	}
	if (r < 0)
		return r;
	r = df_lex_scan(&f->lex, f->buf, f->len, diags);
	if (r >= 0 && diags->errors == errors)
		r = df_ini_cross_check(f->buf, f->len, &f->lex, diags);
	return r;
}
