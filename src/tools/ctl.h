/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What drvfilterctl's verbs share. Each verb's file describes it in a
 * struct ctl_verb (name, arguments, summary, its own options and how it
 * parses them, its help, what it runs) and keeps its options in static
 * arg_* variables; drvfilterctl.c lists the verbs and dispatches, and
 * ctl-options.c parses the options, the common ones (--policy, --sysroot,
 * --json, --format, -h, -V) once for every verb.
 *
 * One exit-code convention end to end: whatever ends the program returns
 * an exit code (EXIT_*), never a negated one and never an errno; library
 * errors (negative errnos) are logged and turned into EXIT_ERROR where they
 * are handled.
 */
#ifndef DRVFILTER_CTL_H
#define DRVFILTER_CTL_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "drvfilter.h"
#include "json.h"

enum {
	EXIT_FINE = 0,
	EXIT_ERROR = 1,
	EXIT_USAGE = 2,
	EXIT_VIOLATION = 3, /* status: violations or drift */
};

enum json_format {
	JSON_OFF,
	JSON_PRETTY,
	JSON_SHORT,
};

/* The common options a verb takes (struct ctl_verb's common): -h and -V always. */
enum {
	CTL_POLICY = 1u << 0, /* -p, --policy FILE */
	CTL_SYSROOT = 1u << 1, /* --sysroot DIR */
	CTL_JSON = 1u << 2, /* -J, --json[=FORMAT], --format=text|json and the verb's formats */
};

/* The getopt values of the common long options; a verb's own start at CTL_ARG_VERB. */
enum {
	CTL_ARG_SYSROOT = 0x1000,
	CTL_ARG_JSON,
	CTL_ARG_FORMAT,
	CTL_ARG_VERB = 0x100,
};

struct ctl_verb {
	const char *name;
	const char *args; /* its arguments, for the usage line: "BUS:DRIVER..."; NULL: none */
	int min_args;
	int max_args; /* -1: any number */
	const char *summary; /* one line, for drvfilterctl --help */
	unsigned common; /* CTL_* */
	/* --format's values after text and json (NULL-terminated), or NULL. */
	const char *const *formats;
	const struct option *options; /* its own long options, {} at the end; or NULL */
	const char *shortopts; /* its own short ones, as getopt writes them */
	/*
	 * One of its own options (not a flag getopt sets itself): EXIT_FINE, or
	 * the exit code to stop with, the error printed.
	 */
	int (*parse)(int opt, const char *arg);
	/* Its own options' lines for VERB --help ("  -o, --output COLUMNS  ..."), or NULL. */
	const char *help;
	/* The verb itself, on its arguments (argv[0] is its name): the exit code. */
	int (*run)(int argc, char **argv);
};

extern const struct ctl_verb ctl_verb_status, ctl_verb_check, ctl_verb_explain, ctl_verb_generate,
	ctl_verb_cmdline, ctl_verb_record, ctl_verb_blacklist, ctl_verb_apply, ctl_verb_edit,
	ctl_verb_watch, ctl_verb_allow, ctl_verb_deny, ctl_verb_list_changes, ctl_verb_verify;
/* The verb table, in the order drvfilterctl --help lists them (drvfilterctl.c). */
extern const struct ctl_verb *const ctl_verbs[];
extern const size_t ctl_nverbs;

/* The common options' values (ctl-options.c). */
extern const char *arg_policy;
extern const char *arg_sysroot;
extern enum json_format arg_json;
/* --format's value when it is one of the verb's own formats (grub, prometheus...), else NULL. */
extern const char *arg_format;
extern struct df_ctx *ctl_ctx;

/*
 * Parse @v's options and count its arguments; @argv[0] is the verb's name.
 * True to go on (optind then indexes the first argument), false to stop with
 * *@ret: after --help, --version or --format=help (EXIT_FINE), or after a
 * usage error, printed (EXIT_USAGE).
 */
bool ctl_parse_options(const struct ctl_verb *v, int argc, char **argv, int *ret);
/*
 * The verb's arguments for its parser: options may stand before the verb
 * or after it, so the verb's name comes first, then what stood before it,
 * then the rest (@argc - 1 of them: the program's name is not). The verb is the first argument that is
 * neither an option nor an option's value; *@verb is its index in @argv, 0
 * when there is none. NULL when out of memory.
 */
char **ctl_verb_argv(int argc, char **argv, int *verb);
/* No verb: --help or --version, else a usage error. The exit code. */
int ctl_no_verb(int argc, char **argv, void (*help)(void));
/* "Usage: drvfilterctl VERB ARGS", the verb's summary, its options and the common ones. */
void ctl_verb_help(const struct ctl_verb *v);
/* The common options' lines of the help: those @v takes; all of them for NULL. */
void ctl_common_help(const struct ctl_verb *v);
/*
 * Print a usage error and "Try 'drvfilterctl VERB --help'" (the verb being
 * parsed or run, else drvfilterctl --help); returns EXIT_USAGE.
 */
_printf_(1, 2) int ctl_usage_error(const char *fmt, ...);
/*
 * Log an error that ends the verb, "drvfilterctl: MESSAGE", %m being
 * strerror(-@r) (or strerror(@r)), once, where it is handled; returns
 * EXIT_ERROR, for 'return ctl_error_errno(r, "cannot read '%s': %m", path);'.
 */
_printf_(2, 3) int ctl_error_errno(int r, const char *fmt, ...);
/* "out of memory"; returns EXIT_ERROR. */
int ctl_oom(void);
/* The verb being parsed or run, for ctl_usage_error(); NULL before there is one. */
void ctl_set_verb(const struct ctl_verb *v);
/* Whether --format named @format (one of the verb's formats). */
bool ctl_format_is(const char *format);

void ctl_json_init(struct json *j);
/* "FILE:LINE: error: MESSAGE" lines to @f. */
void ctl_print_diags(const struct df_diags *d, FILE *f, bool errors_only);
/*
 * Load the policy (--policy, else /etc/drvfilter.conf under --sysroot). On
 * failure the errors are printed and EXIT_ERROR returned; else EXIT_FINE.
 */
int ctl_load_policy(struct df_policy **ret);
/*
 * The same without the runtime drop-ins: the policy the next boot starts
 * from, what its boot options are computed from.
 */
int ctl_load_boot_policy(struct df_policy **ret);
/*
 * Install @buf (@len bytes) as @path: a temporary file in its directory,
 * root-owned when run by root, @mode, fsync, rename, fsync of the directory.
 */
int ctl_install_file(const char *path, const char *buf, size_t len, mode_t mode);
/*
 * Split "bus:driver" in place (the colon becomes NUL): EXIT_FINE, or a usage
 * error for an invalid name (for a driver named without its bus, the buses
 * that have a driver of that name).
 */
int ctl_parse_subject(char *arg, const char **bus, const char **driver);
/* The policy path the verbs use, as a new string. */
char *ctl_policy_path(void);
unsigned ctl_load_flags(void);
/* @s escaped (\xNN for what is not printable ASCII) into @sb, which it returns the string of. */
struct strbuf;
const char *ctl_esc(struct strbuf *sb, const char *s);

#endif
