/* SPDX-License-Identifier: GPL-2.0-only */
/* A list of owned C strings: what modules, devices and names are handed back as. */
#ifndef DRVFILTER_STRV_H
#define DRVFILTER_STRV_H

#include <stdbool.h>
#include <stddef.h>

struct strv {
	char **v;
	size_t n;
	size_t cap;
};

#define STRV_INIT          \
	{                  \
		NULL, 0, 0 \
	}

/* Append a copy of @s: 0 or -ENOMEM. */
int strv_push(struct strv *l, const char *s);
/* The same, unless @s is in the list already (a linear search: short lists only). */
int strv_push_unique(struct strv *l, const char *s);
bool strv_contains(const struct strv *l, const char *s);
/* strcmp(3) order. */
void strv_sort(struct strv *l);
/* The same for @n strings in @v (strings owned or not). */
void strv_sort_array(char **v, size_t n);
/* Hand the array over (NULL when empty) and its length; @l is empty afterwards. */
char **strv_steal(struct strv *l, size_t *n);
void strv_release(struct strv *l);
/* Free an array of @n strings as strv_steal() hands it over. */
void strv_free_array(char **v, size_t n);

#endif
