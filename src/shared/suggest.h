/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DRVFILTER_SUGGEST_H
#define DRVFILTER_SUGGEST_H

#include <stddef.h>

/* Levenshtein distance of two short words, any case; (size_t)-1 beyond 64 bytes. */
size_t suggest_distance(const char *a, const char *b);

/* The word of @list closest to @word (edit distance, any case), or NULL if none is close. */
const char *suggest(const char *word, const char *const *list, size_t n);

#endif
