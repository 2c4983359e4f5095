/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The horizon ladder of minex_repartition (SPEC §3 "Beyond the paper"):
 * diffusive runs of the shared contraction under the shorter horizons
 * k/4, k/16, k/64, each scored under k. */
#include "driver/driver.h"

#include <math.h>

/* Whether the horizon ladder runs (options.ladder). Under AUTO: from
 * k = 2 on, and at k = 1 when alpha > 0, where MaxQwgt hides the remapping
 * behind computation but T_1 charges it in full (at alpha = 0 and k = 1
 * it left the simulation's later steps a worse start: sim32 T_1 ratio
 * 0.503 against 0.467). */
int driver_ladder_wanted(const minex_options *o) {
  if (o->paper_exact || o->ladder == MINEX_LADDER_OFF)
    return 0;
  if (o->ladder == MINEX_LADDER_ON)
    return 1;
  return o->iterations >= MINEX_LADDER_AUTO_ITERATIONS || o->alpha > 0;
}

double driver_ladder_horizon(double k, int j) {
  return k / pow(MINEX_LADDER_STEP, j + 1);
}

int driver_refine_wanted(const minex_options *o) {
  return !o->paper_exact && (o->refine == MINEX_REFINE_ON ||
                             (o->refine == MINEX_REFINE_AUTO &&
                              o->iterations >= MINEX_REFINE_AUTO_ITERATIONS));
}
