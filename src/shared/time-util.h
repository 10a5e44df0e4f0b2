/* SPDX-License-Identifier: GPL-2.0-only */
/* The clock, read one way everywhere (kmod's shared/util.c now_usec()). */
#ifndef DRVFILTER_TIME_UTIL_H
#define DRVFILTER_TIME_UTIL_H

#include <time.h>

/* @clock's time in microseconds. */
long long now_usec(clockid_t clock);

#endif
