/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DRVFILTER_SUGGEST_H
#define DRVFILTER_SUGGEST_H

#include <stddef.h>

/* The word of @list closest to @word (edit distance, any case), or NULL if none is close. */
const char *suggest(const char *word, const char *const *list, size_t n);

#endif
