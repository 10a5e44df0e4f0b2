/* SPDX-License-Identifier: GPL-2.0-only */
/* Library internals of the boot options: init calls, their trace, the command line. */
#ifndef DRVFILTER_BOOTOPTS_PRIVATE_H
#define DRVFILTER_BOOTOPTS_PRIVATE_H

#include "bootopts/bootopts.h"
#include "system/system-private.h"

#endif
