/* SPDX-License-Identifier: GPL-2.0-only */
/* Growing an array one item at a time, for every hand-grown list of the code. */
#ifndef DRVFILTER_ARRAY_H
#define DRVFILTER_ARRAY_H

#include <stddef.h>

/*
 * Make room in *@array (of @size-byte items, *@cap allocated) for the item at
 * index @n, doubling the allocation when full: a pointer to that slot, or NULL
 * (the array unchanged) when out of memory.
 */
void *array_grow(void **array, size_t *cap, size_t n, size_t size);

#define ARRAY_GROW(array, cap, n) \
	((__typeof__(*(array)) *)array_grow((void **)&(array), &(cap), (n), sizeof(*(array))))

/*
 * The same for an array whose allocation follows from its count alone (8,
 * then the next power of two), for structs that should not carry a
 * capacity: it must only ever grow through this, from NULL and 0.
 */
void *array_grow_counted(void **array, size_t n, size_t size);

#define ARRAY_GROW_COUNTED(array, n) \
	((__typeof__(*(array)) *)array_grow_counted((void **)&(array), (n), sizeof(*(array))))

#endif
