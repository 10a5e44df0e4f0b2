/* SPDX-License-Identifier: GPL-2.0-only */
/* libdrvfilter: the policy checked against its target: buses, driver names, the boot devices. */
#ifndef DRVFILTER_CHECK_H
#define DRVFILTER_CHECK_H

#include "bootopts/bootopts.h"

/* df_policy_check_system() and df_policy_check_names(): a driver name the target does not know is an error. */
#define DF_CHECK_STRICT (1u << 0)
/* df_policy_check_system(): the policy is for another machine; no boot devices' guard. */
#define DF_CHECK_OTHER_MACHINE (1u << 1)
/*
 * What needs the target (the running system, or the sysroot: a fixture, a
 * recording, a bare module tree): buses the policy names that it lacks, the
 * policy's driver names (df_policy_check_names()) and the boot devices'
 * guard (df_policy_check_boot()).
 */
int df_policy_check_system(struct df_ctx *ctx, const struct df_policy *p, unsigned flags,
			   struct df_diags *diags);
/*
 * The boot devices' guard (lint-boot.c): each driver that the target's root
 * file system, its consoles, or the TPM the policy measures into need, and
 * that the policy denies, is an error (a warning in audit mode or with
 * [filter] protect_boot = no), told at the rule that denies it. A target
 * whose devices are not known (a bare module tree) is not guarded.
 */
int df_policy_check_boot(struct df_ctx *ctx, const struct df_policy *p, struct df_diags *diags);
/*
 * The measurement against the target's disk unlocking (lint-measure.c): a
 * volume of its /etc/crypttab whose LUKS2 header has a systemd-tpm2 token
 * sealed to the PCR the policy measures into (or to systemd-pcrlock's
 * prediction of it), a volume key systemd-cryptsetup measures into that PCR
 * (tpm2-measure-pcr=), and a pcrlock policy: each a warning at the measure
 * setting.
 */
int df_policy_check_measure(struct df_ctx *ctx, const struct df_policy *p, struct df_diags *diags);
/*
 * The driver names of @p's [allow] and [deny] rules (those of @file alone
 * when it is not NULL, and of them the "bus:driver" @subjects alone when
 * they are not NULL) against what the target knows: its registered
 * drivers, its loaded, loadable and built-in modules and which drivers its
 * loaded modules register. A name it does not know is a warning with what
 * it may have meant (an error with DF_CHECK_STRICT); a name made of two
 * known names and a blank is an error: a comma is missing. A target that
 * knows nothing is not checked (said at debug level).
 */
int df_policy_check_names(struct df_ctx *ctx, const struct df_policy *p, const char *file,
			  char *const *subjects, size_t nsubjects, unsigned flags,
			  struct df_diags *diags);
/*
 * The drivers bound to the target's root file system and consoles and to
 * every device above them ("BUS:DRIVER", each once), as the boot devices'
 * guard walks them (lint-boot.c). Free with strv_free_array(). Returns 1
 * when the root file system's device is not known (a recording has no
 * mountinfo) or cannot be followed (NFS, overlay): then what it needs is not.
 */
int df_boot_drivers(struct df_ctx *ctx, char ***ret, size_t *n);

#endif
