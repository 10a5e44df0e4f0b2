// SPDX-License-Identifier: GPL-2.0-only
/*
 * drvfilterctl edit [FILE], as visudo does it: edit a copy, check the copy's
 * bytes as part of the whole policy, and install exactly those bytes
 * (temporary file, fsync, rename), root-owned, mode 0644 or stricter. The
 * copy lives next to the file, in a directory only root can write, created
 * O_EXCL and locked: a second edit of the same file is refused, an edit left
 * behind by a crash is taken up again. An invalid edit never replaces the
 * file; the copy is kept and named. The copy is installed under the lock
 * every writer of the policy takes (allow and deny too), and only if the file
 * is still as it was read; else the copy is kept and named, as for an invalid
 * edit. FILE is the policy or one of its drop-ins.
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

/* Whether @base is a drop-in's name: NAME.conf, not hidden. */
static bool dropin_name(const char *base)
{
	size_t n = strlen(base);

	return n > strlen(".conf") && base[0] != '.' && streq(base + n - strlen(".conf"), ".conf");
}

/*
 * A drop-in named bare: the one of that name in the policy's drop-in
 * directory, else the runtime one, else a new one in the policy's directory
 * (a change that lasts: the loader reads both, /etc's first).
 */
static char *bare_target(const char *dropins, const char *runtime, const char *name)
{
	char *path = NULL;

	for (int k = 0; k < 2; k++) {
		free(path);
		if (asprintf(&path, "%s/%s", k ? runtime : dropins, name) < 0)
			return NULL;
		if (access(path, F_OK) == 0)
			return path;
	}
	free(path);
	return asprintf(&path, "%s/%s", dropins, name) < 0 ? NULL : path;
}

/*
 * The file to edit, named as the loader names the files of the policy's set:
 * the policy, or NAME.conf in its drop-in directory or the runtime one (by
 * its path, or by its bare name).
 */
static char *edit_target(const char *policy, const char *arg)
{
	_cleanup_free_ char *dircopy = NULL, *dir = NULL, *dropins = NULL, *runtime = NULL;
	const char *base;
	char *real;

	if (!arg || streq(arg, policy))
		return strdup(policy);
	dircopy = strdup(arg);
	runtime = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR);
	if (!dircopy || !runtime || asprintf(&dropins, "%s.d", policy) < 0)
		return NULL;
	base = strrchr(arg, '/') ? strrchr(arg, '/') + 1 : arg;
	if (!dropin_name(base))
		return NULL;
	if (base == arg)
		return bare_target(dropins, runtime, arg);
	dir = realpath(dirname(dircopy), NULL);
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

/* One edit: the file, its working copy, the bytes before and after. */
struct edit {
	char *policy, *target, *copy, *orig, *edited;
	size_t orig_len, edited_len;
	bool exists;
	mode_t mode;
	int lockfd;
};

static void edit_release(struct edit *e)
{
	free(e->policy);
	free(e->target);
	free(e->copy);
	free(e->orig);
	free(e->edited);
	if (e->lockfd >= 0)
		close(e->lockfd);
}

/* The file to edit and its copy's name, its directory made; the file as it is. */
static int find_target(struct edit *e, const char *arg)
{
	_cleanup_free_ char *dircopy = NULL;
	struct stat st = { 0 };
	int r;

	e->target = edit_target(e->policy, arg);
	if (!e->target) {
		_cleanup_free_ char *runtime = df_ctx_path(ctl_ctx, DF_RUNTIME_DROPIN_DIR);

		return ctl_usage_error(
			"edit takes the policy ('%s') or one of its drop-ins: NAME.conf "
			"in '%s.d' or in '%s', by its path or by its name",
			e->policy, e->policy, runtime ? runtime : DF_RUNTIME_DROPIN_DIR);
	}
	dircopy = strdup(e->target);
	if (!dircopy ||
	    asprintf(&e->copy, "%s/.%s.edit", dirname(dircopy), strrchr(e->target, '/') + 1) < 0)
		return ctl_oom();
	/* A first drop-in: its directory, only root's to write. */
	if (mkdir(dircopy, 0755) < 0 && errno != EEXIST)
		return ctl_error_errno(-errno, "cannot make '%s': %m", dircopy);
	r = slurp(e->target, &e->orig, &e->orig_len, &st);
	e->exists = r == 0;
	if (r < 0 && r != -ENOENT)
		return ctl_error_errno(r, "cannot read '%s': %m", e->target);
	/* 0644 or stricter, whatever the old file had. */
	e->mode = e->exists ? st.st_mode & 0644 : 0644;
	return EXIT_FINE;
}

/* The working copy, new (the file's bytes) or left by an edit before. */
static int start_copy(struct edit *e)
{
	bool resumed;
	int r;

	e->lockfd = open_copy(e->copy, &resumed);
	if (e->lockfd == -EBUSY)
		return ctl_error_errno(
			-EBUSY,
			"'%s' is being edited (its copy '%s' is locked): finish that edit "
			"first",
			e->target, e->copy);
	if (e->lockfd < 0)
		return ctl_error_errno(e->lockfd, "cannot make the working copy '%s': %m", e->copy);
	if (resumed) {
		log_info("taking up the edit left in '%s', made from '%s' as it was then: bring "
			 "in any change made to it since",
			 e->copy, e->target);
		return EXIT_FINE;
	}
	if (!e->exists)
		log_info("'%s' does not exist yet: starting from an empty file", e->target);
	r = df_write_full_fd(e->lockfd, e->exists ? e->orig : "", e->orig_len);
	if (r < 0) {
		unlink(e->copy);
		return ctl_error_errno(r, "cannot write the working copy '%s': %m", e->copy);
	}
	return EXIT_FINE;
}

/* The copy's bytes, checked as part of the whole policy: 0 valid, 1 not. */
static int check_copy(const struct edit *e, bool errors_only)
{
	struct df_policy_source src = { e->target, e->edited, e->edited_len };
	struct df_policy *p = NULL;
	struct df_diags d;
	int r;

	df_diags_init(&d);
	r = df_policy_load_edited(ctl_ctx, e->policy, ctl_load_flags(), &src, &d, &p);
	/* The edited file's driver names against this system, as check looks them up. */
	if (r >= 0)
		r = df_policy_check_names(ctl_ctx, p, e->target, NULL, 0, 0, &d);
	/* ... and the whole set against what this system boots from. */
	if (r >= 0)
		r = df_policy_check_boot(ctl_ctx, p, &d);
	if (r == -ENOMEM)
		log_oom();
	ctl_print_diags(&d, stderr, errors_only);
	r = r < 0 || d.errors > 0;
	df_diags_release(&d);
	df_policy_free(p);
	return r;
}

/* Edit until the copy is valid: EXIT_FINE to install it, else the exit code (nothing to do: *@done). */
static int edit_loop(struct edit *e, bool *done)
{
	for (;;) {
		struct stat cst;
		int r = run_editor(e->copy);

		if (r < 0) {
			/* An editor that exits with an error (vim's :cq) discards the edit. */
			log_error("the editor failed; '%s' is unchanged", e->target);
			unlink(e->copy);
			return EXIT_ERROR;
		}
		/* The copy by its name again: an editor may save by rename. */
		free(e->edited);
		e->edited = NULL;
		r = slurp(e->copy, &e->edited, &e->edited_len, &cst);
		if (r < 0)
			return log_error_errno(r,
					       "cannot read the edited copy '%s': %m; '%s' is "
					       "unchanged",
					       e->copy, e->target),
			       EXIT_ERROR;
		if (e->edited_len == e->orig_len &&
		    (!e->exists || memcmp(e->edited, e->orig, e->orig_len) == 0)) {
			log_info("no changes; '%s' is unchanged", e->target);
			unlink(e->copy);
			*done = true;
			return EXIT_FINE;
		}
		if (check_copy(e, false) == 0)
			return EXIT_FINE;
		if (!ask_again()) {
			log_error(
				"the edit is not valid; '%s' is unchanged and the edit is kept in "
				"'%s'",
				e->target, e->copy);
			return EXIT_ERROR;
		}
	}
}

/*
 * Install the copy under the lock every writer of the policy takes, if the
 * file is still as it was read: a change made meanwhile (allow, deny, a
 * writer that does not lock) is never lost; the copy is kept for the next try.
 */
static int install(struct edit *e)
{
	_cleanup_free_ char *lock = df_ctx_path(ctl_ctx, DF_LOCK_PATH), *now = NULL;
	_cleanup_close_ int lockfd = -1;
	size_t now_len = 0;
	struct stat st;
	int r;

	if (!lock)
		return ctl_oom();
	lockfd = df_lock_take(ctl_ctx);
	if (lockfd < 0)
		return ctl_error_errno(lockfd,
				       "cannot take the policy's lock '%s': %m; '%s' is unchanged "
				       "and the edit is kept in '%s'",
				       lock, e->target, e->copy);
	r = slurp(e->target, &now, &now_len, &st);
	if (r < 0 && r != -ENOENT)
		return ctl_error_errno(r,
				       "cannot read '%s' again: %m; it is unchanged and the edit "
				       "is kept in '%s'",
				       e->target, e->copy);
	if ((r == 0) != e->exists ||
	    (r == 0 && (now_len != e->orig_len || memcmp(now, e->orig, now_len) != 0))) {
		log_error("'%s' changed while it was edited (drvfilterctl allow or deny, or "
			  "another writer): it is left as it is now, and the edit, made from the "
			  "older version, is kept in '%s'; edit again to take it up, and bring "
			  "the other change into it",
			  e->target, e->copy);
		return EXIT_ERROR;
	}
	/* The rest of the set may have changed meanwhile too. */
	if (check_copy(e, true) != 0) {
		log_error("the edit is not valid with the policy as it is now; '%s' is unchanged "
			  "and the edit is kept in '%s'",
			  e->target, e->copy);
		return EXIT_ERROR;
	}
	r = ctl_install_file(e->target, e->edited, e->edited_len, e->mode);
	if (r < 0)
		return ctl_error_errno(r, "cannot replace '%s': %m; the edit is kept in '%s'",
				       e->target, e->copy);
	unlink(e->copy);
	if (strncmp(e->target, e->policy, strlen(e->policy)) == 0)
		log_info("'%s' replaced; the initramfs still carries the old policy: rebuild it "
			 "(dracut -f) for the next boot",
			 e->target);
	else
		log_info("'%s' replaced; 'drvfilterctl apply' enforces it now, until reboot",
			 e->target);
	return EXIT_FINE;
}

static int run(int argc, char **argv)
{
	struct edit e = { .policy = ctl_policy_path(), .lockfd = -1 };
	bool done = false;
	int r = e.policy ? find_target(&e, argc > 1 ? argv[1] : NULL) : EXIT_ERROR;

	if (r == EXIT_FINE)
		r = start_copy(&e);
	if (r == EXIT_FINE)
		r = edit_loop(&e, &done);
	if (r == EXIT_FINE && !done)
		r = install(&e);
	edit_release(&e);
	return r;
}

const struct ctl_verb ctl_verb_edit = {
	.name = "edit",
	.args = "[FILE]",
	.max_args = 1,
	.summary = "edit the policy safely: check it, then replace it",
	.common = CTL_POLICY | CTL_SYSROOT,
	.run = run,
};
