/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libdrvfilter: the policy engine behind drvfilterctl and drvfilter-apply.
 *
 * Conventions (kmod's): an opaque, reference-counted context; functions return
 * 0 or a negative errno and hand results back through the last parameter; the
 * library never prints, it logs through a function the caller may set.
 */
#ifndef DRVFILTER_H
#define DRVFILTER_H

/* One header per area, each including the areas it builds on (HACKING.md, "Layout"). */
#include "core/core.h"
#include "policy/policy.h"
#include "system/system.h"
#include "bootopts/bootopts.h"
#include "check/check.h"
#include "enforce/enforce.h"
#include "evidence/evidence.h"

#endif
