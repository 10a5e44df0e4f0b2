// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "array.h"
#include "core/core-private.h"

void df_diags_init(struct df_diags *d)
{
	memset(d, 0, sizeof(*d));
}

void df_diags_release(struct df_diags *d)
{
	for (size_t i = 0; i < d->count; i++)
		free(d->items[i].message);
	free(d->items);
	free(d->file);
	for (size_t i = 0; i < d->nfiles; i++)
		free(d->files[i]);
	free(d->files);
	df_diags_init(d);
}

int df_diags_set_file(struct df_diags *d, const char *path)
{
	char **slot;

	d->current = 0;
	if (!path || (d->file && streq(path, d->file)))
		return 0;
	for (size_t i = 0; i < d->nfiles; i++)
		if (streq(d->files[i], path)) {
			d->current = i + 1;
			return 0;
		}
	slot = reallocarray(d->files, d->nfiles + 1, sizeof(*d->files));
	if (!slot)
		return -ENOMEM;
	d->files = slot;
	d->files[d->nfiles] = strdup(path);
	if (!d->files[d->nfiles])
		return -ENOMEM;
	d->current = ++d->nfiles;
	return 0;
}

const char *df_diag_file(const struct df_diags *d, const struct df_diag *g)
{
	return g->file ? g->file : d->file;
}

/* Where a file stands in the order of reading: the main file first. */
static size_t file_rank(const struct df_diags *d, const char *file)
{
	for (size_t i = 0; file && i < d->nfiles; i++)
		if (d->files[i] == file)
			return i + 1;
	return 0;
}

const char *df_severity_name(enum df_severity s)
{
	return s == DF_ERROR ? "error" : "warning";
}

int df_diags_add(struct df_diags *d, enum df_severity severity, unsigned line, const char *fmt, ...)
{
	char *msg;
	va_list ap;
	int r;

	if (severity == DF_ERROR)
		d->errors++;
	else
		d->warnings++;
	/* Like a compiler, keep the first ones: a binary file would make thousands. */
	if (d->count >= DF_DIAGS_KEPT)
		return 0;
	if (!ARRAY_GROW_COUNTED(d->items, d->count))
		return -ENOMEM;
	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return -ENOMEM;
	d->items[d->count++] = (struct df_diag){ severity, line, msg,
						 d->current ? d->files[d->current - 1] : NULL };
	return 0;
}

void df_diags_sort(struct df_diags *d)
{
	/* Insertion sort: stable, and the lists are short. */
	for (size_t i = 1; i < d->count; i++) {
		struct df_diag cur = d->items[i];
		size_t j = i;

		while (j > 0 && (file_rank(d, d->items[j - 1].file) > file_rank(d, cur.file) ||
				 (file_rank(d, d->items[j - 1].file) == file_rank(d, cur.file) &&
				  d->items[j - 1].line > cur.line))) {
			d->items[j] = d->items[j - 1];
			j--;
		}
		d->items[j] = cur;
	}
}
