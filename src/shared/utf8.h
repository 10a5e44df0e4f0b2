/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef DRVFILTER_UTF8_H
#define DRVFILTER_UTF8_H

#include <stddef.h>

/*
 * Length of the well-formed UTF-8 sequence at @s (at most @n bytes available),
 * or 0 when it is not one: overlong forms, surrogates and code points above
 * U+10FFFF are refused, as RFC 3629 says.
 */
size_t utf8_seq_len(const unsigned char *s, size_t n);

#endif
