/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The value fields of minex_options, once: minex_options_init's defaults,
 * core_check_options's ranges, minex_options_set/get's names, the
 * formatted list of core_options_format and the MPI layer's agreement hash
 * are generated from this list, so a new option is one line here (and its
 * field in minex.h). Not listed: the callbacks, their contexts, the
 * throttle_candidates array and the workspace (pointers, checked or hashed
 * by hand where they matter).
 *
 * X(name, kind, default, lo, hi, checked, note): kind is REAL (double),
 * I32 (int32_t), FLAG (int, 0 or 1), MODE (int, OFF/ON/AUTO), ENUM
 * (an enum in [lo, hi]) or U64 (uint64_t, any value); the range [lo, hi]
 * is checked when `checked` (an expression of o) holds; note ends the
 * error message (for MODE the constants' prefix). */
#ifndef MINEX_CORE_OPTIONS_LIST_H
#define MINEX_CORE_OPTIONS_LIST_H

#include "minex.h"

#include <math.h>

#define MINEX_OPTIONS_LIST(X)                                                  \
  X(throttle, REAL, INFINITY, 0, INFINITY, !o->throttle_auto,                  \
    "must be >= 0 or INFINITY")                                                \
  X(alpha, REAL, 0.0, 0, 1, 1, "")                                             \
  X(remap_mode, ENUM, MINEX_REMAP_RECEIVER, MINEX_REMAP_RECEIVER,              \
    MINEX_REMAP_BOTH, 1, "a minex_remap_mode")                                 \
  X(nthreads, I32, 1, 0, MINEX_NTHREADS_MAX, 1,                                \
    "0 uses every processor of the node")                                      \
  X(coarse_target, I32, 0, 0, MINEX_COARSE_TARGET_MAX, 1,                      \
    "0 uses coarse_per_proc")                                                  \
  X(coarse_per_proc, I32, 64, 1, MINEX_COARSE_PER_PROC_MAX,                    \
    o->coarse_target == 0, "")                                                 \
  X(sample_size, I32, 4, 1, MINEX_SAMPLE_SIZE_MAX, 1, "")                      \
  X(seed, U64, 1, 0, 0, 0, "")                                                 \
  X(global_candidates, FLAG, 1, 0, 1, 1, "")                                   \
  X(throttle_auto, FLAG, 0, 0, 1, 1, "")                                       \
  X(nthrottle_candidates, I32, 0, 1, MINEX_THROTTLE_CANDIDATES_MAX,            \
    o->throttle_auto && o->throttle_candidates != NULL,                        \
    "with throttle_candidates")                                                \
  X(refine, MODE, MINEX_REFINE_AUTO, 0, 2, 1, "REFINE")                        \
  X(scratch, MODE, MINEX_SCRATCH_AUTO, 0, 2, 1, "SCRATCH")                     \
  X(ladder, MODE, MINEX_LADDER_AUTO, 0, 2, 1, "LADDER")                        \
  X(balance, MODE, MINEX_BALANCE_AUTO, 0, 2, 1, "BALANCE")                     \
  X(rounds, MODE, MINEX_ROUNDS_AUTO, 0, 2, 1, "ROUNDS")                        \
  X(cluster_levels, MODE, MINEX_CLUSTER_LEVELS_AUTO, 0, 2, 1,                  \
    "CLUSTER_LEVELS")                                                          \
  X(global_spread, I32, MINEX_GLOBAL_SPREAD_MAX, 1, MINEX_GLOBAL_SPREAD_MAX,   \
    1, "")                                                                     \
  X(paper_exact, FLAG, 0, 0, 1, 1, "")                                         \
  X(refine_passes, I32, 4, 0, MINEX_MAX_PASSES_MAX, 1, "0 means 1")            \
  X(iterations, I32, 1, 0, MINEX_ITERATIONS_MAX, 1, "0 means 1")               \
  X(max_passes, I32, 8, 0, MINEX_MAX_PASSES_MAX, 1, "0 means 1")               \
  X(max_imbalance, REAL, 0.0, 1, INFINITY, o->max_imbalance != 0,              \
    "0 (no bound) or >= 1")

#endif
