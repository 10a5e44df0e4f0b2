/* SPDX-License-Identifier: GPL-2.0-only */
/* What drvfilterctl's verbs share: options, exit codes, loading and printing. */
#ifndef DRVFILTER_CTL_H
#define DRVFILTER_CTL_H

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

/* cmdline --format=grub|dracut: a configuration snippet instead of the bare options. */
enum cmdline_snippet {
	SNIPPET_NONE,
	SNIPPET_GRUB,
	SNIPPET_DRACUT,
};

extern const char *arg_policy;
extern const char *arg_sysroot;
extern enum json_format arg_json;
extern bool arg_prometheus;
extern bool arg_dry_run;
extern bool arg_permanent;
extern bool arg_devices;
extern long arg_events;
extern long arg_max_bytes;
extern enum cmdline_snippet arg_snippet;
extern const char *arg_event_log;
extern const char *arg_pcrs;
extern const char *arg_base_pcrs;
extern const char *arg_rtmr;
extern const char *arg_base_rtmr;
extern const char *arg_expect_policy;
extern const char *arg_expect_mode;
extern bool arg_expect_locked;
/* status's text view: every driver, the table's columns, no header, raw cells. */
extern bool arg_all;
extern const char *arg_output;
extern bool arg_noheadings;
extern bool arg_raw;
extern struct df_ctx *ctl_ctx;

/* Print a usage error and "Try ..."; returns EXIT_USAGE. */
int ctl_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
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
/* Split "bus:driver" in place (the colon becomes NUL); a usage error for an invalid name. */
int ctl_parse_subject(char *arg, const char **bus, const char **driver);
/* The policy path the verbs use, as a new string. */
char *ctl_policy_path(void);
unsigned ctl_load_flags(void);

int verb_check(int argc, char **argv);
int verb_explain(int argc, char **argv);
int verb_cmdline(int argc, char **argv);
int verb_blacklist(int argc, char **argv);
int verb_status(int argc, char **argv);
int verb_generate(int argc, char **argv);
int verb_apply(int argc, char **argv);
int verb_edit(int argc, char **argv);
int verb_watch(int argc, char **argv);
int verb_allow(int argc, char **argv);
int verb_deny(int argc, char **argv);
int verb_list_changes(int argc, char **argv);
int verb_record(int argc, char **argv);
int verb_verify(int argc, char **argv);

#endif
