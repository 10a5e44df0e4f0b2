/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals of the checks: what the names' and the boot devices' checks share. */
#ifndef DRVFILTER_CHECK_PRIVATE_H
#define DRVFILTER_CHECK_PRIVATE_H

#include "bootopts/bootopts-private.h"
#include "check/check.h"

#endif
