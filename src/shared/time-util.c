// SPDX-License-Identifier: GPL-2.0-only
#include "time-util.h"

long long now_usec(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
