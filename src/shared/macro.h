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

/* The rest of @s after @prefix, or NULL when @s does not start with it. */
static inline const char *startswith(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(s, prefix, n) == 0 ? s + n : NULL;
}

/*
 * A cleanup function for a type whose destructor takes and returns a pointer
 * (df_policy_free() and the like): _cleanup_(NAMEp) on a variable of TYPE *.
 */
#define DEFINE_TRIVIAL_CLEANUP_FUNC(type, func) \
	static inline void func##p(type *p)     \
	{                                       \
		if (*p)                         \
			(void)func(*p);         \
	}

/* Hand a descriptor over: the cleanup attribute then closes nothing. */
#define TAKE_FD(fd)             \
	({                      \
		int _fd = (fd); \
		(fd) = -1;      \
		_fd;            \
	})

/* A hex digit's value, either case; -1 for any other byte. */
static inline int hex_digit(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

/*
 * @a then @b into @buf, cut to @size - 1 bytes and always terminated, as
 * snprintf(buf, size, "%s%s", a, b) writes them: the relative paths of the
 * walk (DRIVER/allowed, DEVICE/driver), built tens of thousands of times a
 * run, without printf's parsing. @size must not be 0. Returns @buf.
 */
static inline char *concat2(char *buf, size_t size, const char *a, const char *b)
{
	size_t na = strnlen(a, size - 1), nb = strnlen(b, size - 1 - na);

	memcpy(buf, a, na);
	memcpy(buf + na, b, nb);
	buf[na + nb] = '\0';
	return buf;
}

/* Hand a pointer over to the caller: the cleanup attribute then frees nothing. */
#define TAKE_PTR(p)                     \
	({                              \
		__typeof__(p) _p = (p); \
		(p) = NULL;             \
		_p;                     \
	})

#endif
