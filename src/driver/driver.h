/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The driver's candidates (private to src/driver): what one candidate
 * reports, the diffusive run of SPEC §3 (candidate.c), the from-scratch
 * candidate (scratch_candidate.c), the horizon ladder (ladder.c), and the
 * figures a candidate is scored by -- MaxQwgt and T_k under a horizon. A
 * candidate is run under its *horizon* (k, the solver iterations its
 * partition must last; the ladder's are k/4, k/16, k/64) and scored under
 * the call's. */
#ifndef MINEX_DRIVER_H
#define MINEX_DRIVER_H

#include "core/rename.h"

#include "contract/contract.h"
#include "costmodel/costmodel.h"
#include "partition/partition.h"

/* What one candidate's run reports besides its partition (loads in the
 * caller's units). */
typedef struct candidate {
  double start_max;         /* MaxQwgt of the start partition (old or the
                               scratch start), under the horizon          */
  double end_max;           /* MaxQwgt of the result under the horizon k of
                               the call (not the candidate's own)         */
  double end_time;          /* its T_k = MaxRemap + k SteadyMax, same k   */
  double horizon;           /* the horizon the candidate was run under    */
  int32_t coarse_nvtxs;     /* vertices left after contraction            */
  int64_t coarse_moves;     /* moves on the contracted graph              */
  int64_t expand_moves;     /* moves during expansion and fine refinement */
  double seconds_partition; /* phase wall times (the contraction is
                               shared by every candidate)              */
  double seconds_expand;    /* expansion and refinement                 */
  double seconds_refine;    /* the refinement alone                     */
  double throttle;          /* ThroTTle used (the chosen one under auto)   */
  core_par par;             /* its parallel regions (the tests' scans)     */
} candidate;

/* Tests per restored pair beyond the pair itself (SPEC §3: "when one
 * moves, its border neighbours are tested too"). */
#define EXPAND_BUDGET 16

/* MaxQwgt of the loads under horizon k (whatever k they were built for). */
double driver_max_qwgt(const costmodel_loads *ld, double k);
/* The levels of the from-scratch candidate (driver_run_scratch) in the
 * frozen contraction ws of a graph of n vertices: s, the level Scotch
 * partitions, and s2 <= s, the level its rule starts from (whole levels'
 * counts when ws is spread over ranks). */
void driver_scratch_levels(const contract_ws *ws, int64_t n, int32_t *s,
                           int32_t *s2);

/* T_k = MaxRemap + k SteadyMax of the loads (SPEC §2), whatever k they
 * were built for. */
double driver_horizon_time(const costmodel_loads *ld, double k);

/* throttle_auto (issue 3): partitions the contracted graph of pc with
 * each candidate ThroTTle from the same start (in heap passes, or with
 * rounds set in synchronous rounds, partition_passes_rounds: the
 * from-scratch candidate's level under rounds = ON, also spread over
 * ranks), rolls every trial back, and returns the one with the lowest
 * MaxQwgt in *best (the first of equals). */
int driver_choose_throttle(partition_ctx *pc, const minex_options *opt,
                           int rounds, double *best);

/* Whether the balance moves run (options.balance; AUTO: processors in more
 * than one cluster). */
int driver_balance_wanted(const minex_options *o, const minex_config *cfg);

/* Whether the refinement passes run (options.refine; AUTO: from
 * MINEX_REFINE_AUTO_ITERATIONS). */
int driver_refine_wanted(const minex_options *o);

/* A progress line to o->log_fn (nothing without one). */
void driver_log(const minex_options *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* One multilevel run of SPEC §3 on the contracted graph of ws (frozen, or
 * rewound to its freeze) from start (NULL: the old partition), under
 * `horizon`, the loads in units of 1/unit of the caller's; the partition
 * into out, the report into cd (scored under options.iterations). */
int driver_run_candidate(const minex_graph *g, const minex_config *cfg,
                         const int32_t *old, const int32_t *start,
                         contract_ws *ws, const minex_options *opt_in,
                         double horizon, double unit, int refine, int32_t *out,
                         candidate *cd);

/* Whether the from-scratch candidate runs, and the candidate itself on
 * ws's levels (scratch_candidate.c); *skipped when its partitioner failed
 * (the call goes on without it). */
int driver_scratch_wanted(const minex_options *o);
int driver_run_scratch(const minex_graph *g, const minex_config *cfg,
                       const int32_t *old, contract_ws *ws,
                       const minex_options *opt, double horizon, double unit,
                       int refine, int32_t *start, int32_t *out, candidate *cd,
                       int *skipped);

/* Whether the expansion runs in synchronous rounds (options.rounds not
 * OFF, not paper_exact), else the paper's one merge at a time, which alone
 * reads the merged lists (contract_ws.drop_lists) (candidate.c). */
int driver_expand_in_rounds(const minex_options *o);

/* Whether the horizon ladder runs, and the horizon of its rung j (0, 1,
 * ...): k / MINEX_LADDER_STEP^(j+1) (ladder.c). */
int driver_ladder_wanted(const minex_options *o);
double driver_ladder_horizon(double k, int j);

#endif
