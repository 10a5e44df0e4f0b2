/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * drvfilterctl allow and deny: the change (ctl-change.c) and the drop-in it
 * is written to (ctl-change-dropin.c).
 */
#ifndef DRVFILTER_CTL_CHANGE_H
#define DRVFILTER_CTL_CHANGE_H

#include <stdbool.h>
#include <stddef.h>

/* Where the drop-in is: the runtime one, or with @permanent the policy's (@policy.d). */
char *dropin_path(const char *policy, bool permanent);
/* The whole file at @path, "" when there is none. */
int dropin_read(const char *path, char **ret, size_t *len);
/* @path holding @text is valid with the rest of the set: allow and deny change only a valid drop-in. */
int dropin_check(const char *path, const char *text, size_t len);
/* The first line of the drop-in when this command makes it (runtime, or @permanent). */
const char *dropin_header(bool permanent);
/* Whether @text holds nothing but the header this command writes, and blank lines. */
bool dropin_only_header(const char *text);
/* Replace @path by @text (@len bytes) atomically, root-owned 0644; remove it when @len is 0. */
int dropin_write(const char *path, const char *text, size_t len);

#endif
