/* Default options (SPEC §3 "Defaults"). */
#include "core.h"

#include <math.h>
#include <string.h>

void minex_options_init(minex_options *o) {
  if (o == NULL)
    return;
  memset(o, 0, sizeof *o);
  o->throttle = INFINITY;
  o->alpha = 0.0;
  o->remap_mode = MINEX_REMAP_RECEIVER;
  o->coarse_per_proc = 64;
  o->coarse_target = 0;
  o->sample_size = 4;
  o->seed = 1;
  o->global_candidates = 1;
  o->max_passes = 8;
}

int core_check_options(const minex_options *o) {
  if (!o->throttle_auto && !(o->throttle >= 0))
    return core_error(MINEX_EINVAL, "options.throttle = %g (must be >= 0 or "
                      "INFINITY)", o->throttle);
  if (!(o->alpha >= 0 && o->alpha <= 1))
    return core_error(MINEX_EINVAL, "options.alpha = %g (must be in [0,1])",
                      o->alpha);
  if (o->remap_mode != MINEX_REMAP_RECEIVER &&
      o->remap_mode != MINEX_REMAP_SENDER && o->remap_mode != MINEX_REMAP_BOTH)
    return core_error(MINEX_EINVAL, "options.remap_mode = %d is not a "
                      "minex_remap_mode", (int)o->remap_mode);
  if (o->coarse_per_proc < 1 && o->coarse_target <= 0)
    return core_error(MINEX_EINVAL, "options.coarse_per_proc = %d (must be "
                      ">= 1)", (int)o->coarse_per_proc);
  if (o->sample_size < 1)
    return core_error(MINEX_EINVAL, "options.sample_size = %d (must be >= 1)",
                      (int)o->sample_size);
  if (o->throttle_auto && o->throttle_candidates != NULL) {
    if (o->nthrottle_candidates < 1)
      return core_error(MINEX_EINVAL, "options.nthrottle_candidates = %d "
                        "(must be >= 1 with throttle_candidates)",
                        (int)o->nthrottle_candidates);
    for (int32_t i = 0; i < o->nthrottle_candidates; i++)
      if (!(o->throttle_candidates[i] >= 0))
        return core_error(MINEX_EINVAL, "options.throttle_candidates[%d] = "
                          "%g (must be >= 0 or INFINITY)", (int)i,
                          o->throttle_candidates[i]);
  }
  if (o->max_passes < 0)
    return core_error(MINEX_EINVAL, "options.max_passes = %d (must be >= 0)",
                      (int)o->max_passes);
  return MINEX_OK;
}
