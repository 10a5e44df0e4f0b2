// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <string.h>

#include "suggest.h"

#define WORD_MAX 64

/*
 * The distance of @a and @b when it is below @bound, else some value not
 * below it: a row whose every cell reaches @bound cannot lead below it, and
 * the search over a long list (every module of a kernel) stops there.
 */
static size_t distance_below(const char *a, const char *b, size_t bound)
{
	size_t la = strlen(a), lb = strlen(b), row[WORD_MAX + 1];

	if (la > WORD_MAX || lb > WORD_MAX)
		return (size_t)-1;
	if ((la > lb ? la - lb : lb - la) >= bound)
		return bound;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0], least;

		row[0] = i;
		least = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
			if (best < least)
				least = best;
		}
		if (least >= bound)
			return bound;
	}
	return row[lb];
}

size_t suggest_distance(const char *a, const char *b)
{
	return distance_below(a, b, (size_t)-1);
}

const char *suggest(const char *word, const char *const *list, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;

	for (size_t i = 0; i < n; i++) {
		size_t d = distance_below(word, list[i], best_d);

		if (d < best_d) {
			best_d = d;
			best = list[i];
		}
	}
	/* A third of the word may be wrong, and at least one letter. */
	if (best && best_d <= (strlen(best) + 2) / 3)
		return best;
	return NULL;
}
