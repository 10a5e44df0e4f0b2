// SPDX-License-Identifier: GPL-2.0-only
/* A list of owned strings (strv.h): devices, modules, directory entries. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "strv.h"

int strv_push(struct strv *l, const char *s)
{
	char **slot = ARRAY_GROW(l->v, l->cap, l->n);

	if (!slot || !(*slot = strdup(s)))
		return -ENOMEM;
	l->n++;
	return 0;
}

bool strv_contains(const struct strv *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return true;
	return false;
}

int strv_push_unique(struct strv *l, const char *s)
{
	return strv_contains(l, s) ? 0 : strv_push(l, s);
}

static int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strv_sort_array(char **v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_strp);
}

void strv_sort(struct strv *l)
{
	strv_sort_array(l->v, l->n);
}

char **strv_steal(struct strv *l, size_t *n)
{
	char **v = l->v;

	*n = l->n;
	*l = (struct strv)STRV_INIT;
	return v;
}

void strv_free_array(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void strv_release(struct strv *l)
{
	strv_free_array(l->v, l->n);
	*l = (struct strv)STRV_INIT;
}
