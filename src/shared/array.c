// SPDX-License-Identifier: GPL-2.0-only
/* ARRAY_GROW: one item more, doubling the allocation when full (array.h). */
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
