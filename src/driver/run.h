/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The run context of one repartitioning call, serial or spread over
 * ranks: the caller's options resolved once (run_init is the only code
 * that reads options.paper_exact and decides what AUTO means), and what
 * follows from them and the inputs. The phases read its fields. */
#ifndef MINEX_DRIVER_RUN_H
#define MINEX_DRIVER_RUN_H

#include "core/rename.h"

#include "core/core.h"

typedef struct run_ctx {
  minex_options opt;      /* the caller's options, resolved: refine, scratch,
                             ladder, balance and rounds ON or OFF (paper_exact:
                             all OFF), cluster_levels OFF, ON or AUTO (by
                             level), nthreads >= 1, max_passes and
                             refine_passes >= 1, iterations >= 1            */
  double k;               /* the call's horizon (SPEC §2), >= 1            */
  int rounds;             /* the expansion and the passes in synchronous
                             rounds, else the paper's expansion one merge at
                             a time and heap passes                       */
  int refine;             /* the refinement passes run                     */
  int balance;            /* the balance passes run                        */
  int scratch;            /* the from-scratch candidate runs               */
  int nrungs;             /* the horizon ladder's rungs (0: no ladder)     */
  int32_t cluster_factor; /* contract_ws.cluster_factor               */
  int64_t coarse_target;  /* the contraction's target                 */
} run_ctx;

/* Resolves options (NULL: the defaults) for a graph of n vertices on cfg.
 * distributed: the MPI layer's stage 2, where nthreads = 0 means one
 * thread per rank (a node's processors are its ranks'), and rounds AUTO
 * the distributed kernel's rounds. The options are checked before. */
void run_init(run_ctx *run, const minex_options *options,
              const minex_config *cfg, int64_t n, int distributed);

/* Whether the MPI layer runs its distributed kernel (stage 2) for these
 * options: not under paper_exact or rounds OFF. */
int run_distributed_applies(const minex_options *options);

/* The horizon of the ladder's rung j (0, 1, ...): k / MINEX_LADDER_STEP^(j+1).
 */
double run_ladder_horizon(double k, int j);

#endif
