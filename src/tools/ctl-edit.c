// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl edit, as visudo does it: edit a copy, check the copy, and only
 * then replace the policy (temporary file in the same directory, fsync,
 * rename), keeping its owner and mode. An invalid edit never replaces the
 * file; when it cannot be edited again, the copy is kept and named.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"

#define READ_MAX (1024 * 1024)

/* The whole file, at most READ_MAX bytes; -ENOENT when it does not exist. */
static int slurp(const char *path, char **ret, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	return df_read_full_fd(fd, READ_MAX, ret, len);
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t k = write(fd, buf, len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		buf += k;
		len -= (size_t)k;
	}
	return 0;
}

/* Run the editor on @file; 0 when it exited with status 0. */
static int run_editor(const char *file)
{
	const char *editor = getenv("VISUAL");
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_int, old_quit;
	int status;
	pid_t pid;

	if (!editor || !*editor)
		editor = getenv("EDITOR");
	if (!editor || !*editor)
		editor = "vi";
	/* As visudo: the terminal's ^C belongs to the editor, not to us. */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		/* $EDITOR may carry arguments ("vim -n"); the file name is passed apart. */
		execl("/bin/sh", "sh", "-c", "exec $0 \"$1\"", editor, file, (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (pid < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ECANCELED;
}

/* Replace @path by @buf atomically, with the owner and mode of @st (or root, 0644). */
static int replace(const char *path, const char *buf, size_t len, const struct stat *st)
{
	_cleanup_free_ char *dircopy = strdup(path), *tmp = NULL;
	_cleanup_close_ int dfd = -1;
	const char *dir;
	int fd, r;

	if (!dircopy)
		return -ENOMEM;
	dir = dirname(dircopy);
	if (asprintf(&tmp, "%s/.drvfilter-edit.XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = write_all(fd, buf, len);
	if (r == 0 && st && fchown(fd, st->st_uid, st->st_gid) < 0 && errno != EPERM)
		r = -errno;
	if (r == 0 && fchmod(fd, st ? st->st_mode & 07777 : 0644) < 0)
		r = -errno;
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0) {
		unlink(tmp);
		return r;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0)
		(void)fsync(dfd);
	return 0;
}

/* After a failed check: 1 edit again, 0 give up. Only a terminal can answer. */
static int ask_again(void)
{
	char answer[16];

	if (!isatty(STDIN_FILENO))
		return 0;
	fputs("What now? (e)dit again, e(x)it without saving: ", stderr);
	if (!fgets(answer, sizeof(answer), stdin))
		return 0;
	return answer[0] == 'e' || answer[0] == 'E';
}

int verb_edit(int argc, char **argv)
{
	_cleanup_free_ char *path = ctl_policy_path(), *orig = NULL, *edited = NULL;
	const char *tmpdir = getenv("TMPDIR");
	_cleanup_free_ char *tmp = NULL;
	struct stat st;
	size_t orig_len = 0, edited_len = 0;
	bool exists;
	int fd, r;

	if (!path)
		return EXIT_ERROR;
	r = slurp(path, &orig, &orig_len);
	exists = r == 0;
	if (r == -ENOENT) {
		log_info("'%s' does not exist yet: starting from an empty policy", path);
	} else if (r < 0) {
		log_error_errno(r, "cannot read '%s': %m", path);
		return EXIT_ERROR;
	}
	if (exists && stat(path, &st) < 0)
		return EXIT_ERROR;
	if (asprintf(&tmp, "%s/drvfilter.conf.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp") < 0)
		return EXIT_ERROR;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0 || write_all(fd, exists ? orig : "", orig_len) < 0 || close(fd) < 0) {
		log_error("cannot make a copy to edit: %m");
		if (fd >= 0)
			unlink(tmp);
		return EXIT_ERROR;
	}
	for (;;) {
		struct df_policy *p = NULL;
		struct df_diags d;

		r = run_editor(tmp);
		if (r < 0) {
			log_error("the editor failed; '%s' is unchanged", path);
			unlink(tmp);
			return EXIT_ERROR;
		}
		free(edited);
		edited = NULL;
		r = slurp(tmp, &edited, &edited_len);
		if (r < 0) {
			log_error_errno(r,
					"cannot read the edited copy '%s': %m; '%s' is unchanged",
					tmp, path);
			return EXIT_ERROR;
		}
		if (exists && edited_len == orig_len && memcmp(edited, orig, orig_len) == 0) {
			log_info("no changes; '%s' is unchanged", path);
			unlink(tmp);
			return EXIT_FINE;
		}
		df_diags_init(&d);
		r = df_policy_load(ctl_ctx, tmp, DF_LOAD_ANY_OWNER, &d, &p);
		free(d.file);
		d.file = strdup(path); /* the user edits the policy, not our copy */
		if (d.file)
			ctl_print_diags(&d, stderr, false);
		df_diags_release(&d);
		df_policy_free(p);
		if (r >= 0)
			break;
		if (!ask_again()) {
			log_error("the edit is not valid; '%s' is unchanged and the edit is kept "
				  "in '%s'",
				  path, tmp);
			return EXIT_ERROR;
		}
	}
	r = replace(path, edited, edited_len, exists ? &st : NULL);
	if (r < 0) {
		log_error_errno(r, "cannot replace '%s': %m; the edit is kept in '%s'", path, tmp);
		return EXIT_ERROR;
	}
	unlink(tmp);
	log_info("'%s' replaced; rebuild the initramfs (dracut -f) for the next boot", path);
	return EXIT_FINE;
}
