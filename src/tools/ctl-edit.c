// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl edit [FILE], as visudo does it: edit a copy, check the copy's
 * bytes as part of the whole policy, and install exactly those bytes
 * (temporary file, fsync, rename), root-owned, mode 0644 or stricter. The
 * copy lives next to the file, in a directory only root can write, created
 * O_EXCL and locked: a second edit of the same file is refused, an edit left
 * behind by a crash is taken up again. An invalid edit never replaces the
 * file; the copy is kept and named. FILE is the policy or one of its drop-ins.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ctl.h"
#include "log.h"
#include "macro.h"

#define READ_MAX (1024 * 1024)

/* The file at @path, at most READ_MAX bytes, if it is a regular one; -ENOENT when there is none. */
static int slurp(const char *path, char **ret, size_t *len, struct stat *st)
{
	_cleanup_close_ int fd =
		open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW);

	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0)
		return -errno;
	if (!S_ISREG(st->st_mode))
		return -EINVAL;
	return df_read_full_fd(fd, READ_MAX, ret, len);
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

/*
 * The file to edit, named as the loader names the files of the policy's set:
 * the policy, or NAME.conf in its drop-in directory or the runtime one.
 */
static char *edit_target(const char *policy, const char *arg)
{
	_cleanup_free_ char *dircopy = NULL, *dir = NULL, *dropins = NULL, *runtime = NULL;
	const char *base;
	char *real;

	if (!arg || streq(arg, policy))
		return strdup(policy);
	dircopy = strdup(arg);
	if (!dircopy || asprintf(&dropins, "%s.d", policy) < 0)
		return NULL;
	runtime = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR);
	base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	dir = realpath(dirname(dircopy), NULL);
	if (!runtime || strlen(base) <= strlen(".conf") || base[0] == '.' ||
	    !streq(base + strlen(base) - strlen(".conf"), ".conf"))
		return NULL;
	for (int k = 0; k < 2; k++) {
		const char *d = k ? runtime : dropins;
		char *rd = realpath(d, NULL);
		bool same = rd && dir ? streq(rd, dir) : false;

		/* A drop-in directory that does not exist yet is named as written. */
		if (!rd && !dir) {
			_cleanup_free_ char *want = NULL;

			if (asprintf(&want, "%s/%s", d, base) >= 0 && streq(want, arg))
				same = true;
		}
		free(rd);
		if (same && asprintf(&real, "%s/%s", d, base) >= 0)
			return real;
	}
	return NULL;
}

/*
 * The working copy ".NAME.edit" next to @target, created O_EXCL and locked;
 * when one is there and nobody holds its lock, an edit left behind, taken up
 * again (*@resumed). -EBUSY while another edit holds it.
 */
static int open_copy(const char *copy, bool *resumed)
{
	_cleanup_close_ int fd = -1;
	struct stat st;

	*resumed = false;
	fd = open(copy, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST) {
		fd = open(copy, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		if (fstat(fd, &st) < 0)
			return -errno;
		if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
			return -EPERM;
		*resumed = true;
	}
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		return errno == EWOULDBLOCK ? -EBUSY : -errno;
	return TAKE_FD(fd);
}

int verb_edit(int argc, char **argv)
{
	_cleanup_free_ char *policy = ctl_policy_path(), *target = NULL, *copy = NULL;
	_cleanup_free_ char *orig = NULL, *edited = NULL;
	_cleanup_close_ int lockfd = -1;
	size_t orig_len = 0, edited_len = 0;
	struct stat st = { 0 };
	bool exists, resumed;
	mode_t mode = 0644;
	int r;

	if (!policy)
		return EXIT_ERROR;
	target = edit_target(policy, argc > 1 ? argv[1] : NULL);
	if (!target) {
		_cleanup_free_ char *runtime = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR);

		return ctl_usage_error("edit takes the policy ('%s') or one of its drop-ins "
				       "(NAME.conf in '%s.d' or in '%s')",
				       policy, policy, runtime ? runtime : DF_RUNTIME_DROPIN_DIR);
	}
	{
		_cleanup_free_ char *dircopy = strdup(target);
		const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;

		if (!dircopy || asprintf(&copy, "%s/.%s.edit", dirname(dircopy), base) < 0)
			return EXIT_ERROR;
		/* A first drop-in: its directory, only root's to write. */
		if (mkdir(dircopy, 0755) < 0 && errno != EEXIST)
			return log_error_errno(-errno, "cannot make '%s': %m", dircopy), EXIT_ERROR;
	}
	r = slurp(target, &orig, &orig_len, &st);
	exists = r == 0;
	if (r < 0 && r != -ENOENT)
		return log_error_errno(r, "cannot read '%s': %m", target), EXIT_ERROR;
	/* 0644 or stricter, whatever the old file had. */
	if (exists)
		mode = st.st_mode & 0644;
	lockfd = open_copy(copy, &resumed);
	if (lockfd == -EBUSY)
		return log_error("'%s' is being edited (its copy '%s' is locked): finish that edit "
				 "first",
				 target, copy),
		       EXIT_ERROR;
	if (lockfd < 0)
		return log_error_errno(lockfd, "cannot make the working copy '%s': %m", copy),
		       EXIT_ERROR;
	if (resumed) {
		log_info("taking up the edit left in '%s'", copy);
	} else {
		if (!exists)
			log_info("'%s' does not exist yet: starting from an empty file", target);
		r = df_write_full_fd(lockfd, exists ? orig : "", orig_len);
		if (r < 0) {
			unlink(copy);
			return log_error_errno(r, "cannot write the working copy '%s': %m", copy),
			       EXIT_ERROR;
		}
	}
	for (;;) {
		struct df_policy_source src;
		struct df_policy *p = NULL;
		struct stat cst;
		struct df_diags d;

		r = run_editor(copy);
		if (r < 0) {
			/* An editor that exits with an error (vim's :cq) discards the edit. */
			log_error("the editor failed; '%s' is unchanged", target);
			unlink(copy);
			return EXIT_ERROR;
		}
		/* The copy by its name again: an editor may save by rename. */
		free(edited);
		edited = NULL;
		r = slurp(copy, &edited, &edited_len, &cst);
		if (r < 0)
			return log_error_errno(r,
					       "cannot read the edited copy '%s': %m; '%s' is "
					       "unchanged",
					       copy, target),
			       EXIT_ERROR;
		if ((exists && edited_len == orig_len && memcmp(edited, orig, orig_len) == 0) ||
		    (!exists && edited_len == 0)) {
			log_info("no changes; '%s' is unchanged", target);
			unlink(copy);
			return EXIT_FINE;
		}
		/* The very bytes to install, checked as part of the whole policy. */
		src = (struct df_policy_source){ target, edited, edited_len };
		df_diags_init(&d);
		r = df_policy_load_edited(ctl_ctx, policy, ctl_load_flags(), &src, &d, &p);
		ctl_print_diags(&d, stderr, false);
		df_diags_release(&d);
		df_policy_free(p);
		if (r >= 0)
			break;
		if (!ask_again()) {
			log_error(
				"the edit is not valid; '%s' is unchanged and the edit is kept in "
				"'%s'",
				target, copy);
			return EXIT_ERROR;
		}
	}
	r = ctl_install_file(target, edited, edited_len, mode);
	if (r < 0)
		return log_error_errno(r, "cannot replace '%s': %m; the edit is kept in '%s'",
				       target, copy),
		       EXIT_ERROR;
	unlink(copy);
	if (strncmp(target, policy, strlen(policy)) == 0)
		log_info("'%s' replaced; the initramfs still carries the old policy: rebuild it "
			 "(dracut -f) for the next boot",
			 target);
	else
		log_info("'%s' replaced; 'drvfilterctl apply' enforces it now, until reboot",
			 target);
	return EXIT_FINE;
}
