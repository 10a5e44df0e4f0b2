// SPDX-License-Identifier: GPL-2.0-only
/* ARRAY_GROW and ARRAY_GROW_COUNTED: one item more, doubling the allocation when full (array.h). */
#include <stdint.h>
#include <stdlib.h>

#include "array.h"

void *array_grow(void **array, size_t *cap, size_t n, size_t size)
{
	if (n >= *cap) {
		size_t c = *cap ? *cap : 8;
		void *a;

		while (c <= n) {
			if (c > SIZE_MAX / 2 / size)
				return NULL;
			c *= 2;
		}
		a = reallocarray(*array, c, size);
		if (!a)
			return NULL;
		*array = a;
		*cap = c;
	}
	return (char *)*array + n * size;
}

void *array_grow_counted(void **array, size_t n, size_t size)
{
	size_t cap = 0;

	if (n > 0)
		for (cap = 8; cap < n; cap *= 2)
			;
	return array_grow(array, &cap, n, size);
}
