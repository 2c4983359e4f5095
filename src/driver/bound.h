/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Load bounds (options.max_imbalance, target_min, target_max; docs/SPEC.md
 * §3 "Load bounds"): the repair pass after a repartition and the choice
 * against the old partition. */
#ifndef MINEX_DRIVER_BOUND_H
#define MINEX_DRIVER_BOUND_H

#include "core/rename.h"

#include "core/core.h"

/* 1 when options ask for a load bound (NULL options: 0). */
int bound_active(const minex_options *o);

/* The options' copy without any bound (the inner repartition's). */
void bound_strip(const minex_options *in, minex_options *out);

/* Checks target_min and target_max against cfg (P entries, finite, >= 0,
 * min <= max); fn names the caller. MINEX_OK or MINEX_EINVAL. */
int bound_check(const char *fn, const minex_config *cfg,
                const minex_options *o);

/* part (nvtxs owners, the repartition's result) repaired to meet the
 * bounds where the pass finds a way, then compared with old (docs/SPEC.md
 * §3 "Load bounds"); part receives the result. metrics (may be NULL) holds
 * the inner call's figures on entry and the result's on return. The
 * codes of minex_evaluate, MINEX_EINVAL (bound_check) or MINEX_ENOMEM; on
 * error part is unchanged. */
int bound_apply(const minex_graph *g, const minex_config *cfg,
                const int32_t *old, const minex_options *o, int32_t *part,
                minex_metrics *metrics);

#endif
