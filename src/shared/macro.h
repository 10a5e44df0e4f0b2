/* SPDX-License-Identifier: GPL-2.0-only */
/* Small macros shared by the library and the tools. */
#ifndef DRVFILTER_MACRO_H
#define DRVFILTER_MACRO_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define _printf_(fmt, args) __attribute__((format(printf, fmt, args)))
#define _cleanup_(f) __attribute__((cleanup(f)))

static inline void freep(void *p)
{
	free(*(void **)p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline void closep(int *fd)
{
	if (*fd >= 0)
		(void)close(*fd);
}
#define _cleanup_close_ _cleanup_(closep)

static inline bool streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

/* Hand a pointer over to the caller: the cleanup attribute then frees nothing. */
#define TAKE_PTR(p)                     \
	({                              \
		__typeof__(p) _p = (p); \
		(p) = NULL;             \
		_p;                     \
	})

#endif
