/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The candidate pipeline (private to the library; the MPI layer calls it
 * too): one diffusive run of SPEC §3 on a contraction -- the contracted
 * graph's partition (throttle_auto trials first), the expansion, the
 * moves off unavailable processors, the balance and refinement passes --
 * and the choice between candidates. A candidate is run under its
 * *horizon* (k, the solver iterations its partition must last; the
 * ladder's are k/4, k/16, k/64) and scored under the call's. Where the
 * graph lives is the caller's: a cand_layout says how to sum a
 * partition's loads and how the ranks agree on a failure (candidate.c);
 * the serial driver (repartition.c) and the MPI layer's stage 2 supply
 * one each. */
#ifndef MINEX_DRIVER_H
#define MINEX_DRIVER_H

#include "core/rename.h"

#include "contract/contract.h"
#include "costmodel/costmodel.h"
#include "driver/run.h"
#include "partition/partition.h"

/* What one candidate's run reports besides its partition (loads in the
 * caller's units). */
typedef struct candidate {
  double start_max;             /* MaxQwgt of the start partition (old or the
                                   scratch start), under the call's horizon  */
  double end_max;               /* MaxQwgt of the result under the horizon k of
                                   the call (not the candidate's own)         */
  double end_time;              /* its T_k = MaxRemap + k SteadyMax, same k   */
  double horizon;               /* the horizon the candidate was run under    */
  int64_t coarse_nvtxs;         /* vertices its rule started from             */
  int64_t coarse_moves;         /* moves on the contracted graph              */
  double coarse_time;           /* T_k (the call's k) after them: the fine
                                   phases start from this partition         */
  int64_t expand_moves;         /* moves during expansion and fine refinement */
  int64_t rounds, tries, rank0; /* partition_ctx's dist_ counts          */
  double seconds_partition;     /* phase wall times (the contraction is
                                   shared by every candidate)              */
  double seconds_expand;        /* expansion and refinement                 */
  double seconds_refine;        /* the refinement alone                     */
  double seconds;               /* the whole candidate                      */
  double throttle; /* ThroTTle used (the chosen one under auto)   */
  core_par par;    /* its parallel regions (the tests' scans)     */
} candidate;

/* Where a candidate's graph lives. */
typedef struct cand_layout {
  /* The loads of start (NULL: the old partition) under horizon h, in the
     call's unit; collective on ranks. */
  int (*loads)(void *ctx, const int32_t *start, double h, costmodel_loads *ld);
  /* A local failure rc agreed by every rank (NULL: one process). */
  int (*agree)(void *ctx, int rc);
  /* The contracted graph's owners from coarse to the fine contraction
     (NULL: coarse is the contraction itself). */
  void (*from_coarse)(void *ctx);
  void *ctx;
  int log; /* this process writes the log (rank 0) */
} cand_layout;

/* One candidate's inputs: the contraction ws (frozen, or rewound to its
 * freeze, or descended to a level for a start partition), coarse where the
 * contracted graph's partition runs (ws, or its gathered copy), the start
 * partition (NULL: old) and the vertices its rule starts from. */
typedef struct cand_args {
  contract_ws *ws, *coarse;
  const int32_t *start;
  int64_t start_nvtxs;
  double horizon;
} cand_args;

/* Tests per restored pair beyond the pair itself (SPEC §3: "when one
 * moves, its border neighbours are tested too"). */
#define EXPAND_BUDGET 16

/* Runs one candidate: the owners are left in a->ws, the report in cd
 * (scored under run->k). */
int candidate_run(const run_ctx *run, const cand_layout *lay,
                  const cand_args *a, candidate *cd);

/* Whether candidate c replaces best: its T_k is lower and, with every old
 * owner available, its MaxQwgt under k not above old's (SPEC §3
 * guarantee); ties keep the earlier one. */
int candidate_better(const candidate *best, const candidate *c, int all_avail,
                     double old_max);

/* The levels of the from-scratch candidate in the frozen contraction ws of
 * a graph of n vertices: s, the level Scotch partitions, and s2 <= s, the
 * level its rule starts from (whole levels' counts when ws is spread over
 * ranks). */
void driver_scratch_levels(const contract_ws *ws, int64_t n, int32_t *s,
                           int32_t *s2);

/* throttle_auto: partitions the contracted graph of pc with each
 * candidate ThroTTle from the same start (in heap passes, or with rounds
 * set in synchronous rounds, partition_passes_rounds: the from-scratch
 * candidate's level under rounds = ON, also spread over ranks), rolls
 * every trial back, and returns the one with the lowest MaxQwgt in *best
 * (the first of equals). */
int driver_choose_throttle(partition_ctx *pc, const run_ctx *run, int rounds,
                           int log, double *best);

/* A progress line to o->log_fn (nothing without one). */
void driver_log(const minex_options *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The serial layout: the graph, its old partition and the call's unit in
 * one process (candidate.c). */
typedef costmodel_problem driver_serial;
void driver_serial_layout(driver_serial *s, cand_layout *lay);

/* The serial from-scratch candidate (scratch_candidate.c) on ws's levels:
 * the start partition into start (n entries), the owners left in ws;
 * *skipped when its partitioner failed (the call goes on without it). */
int driver_run_scratch(const run_ctx *run, driver_serial *s, contract_ws *ws,
                       int32_t *start, candidate *cd, int *skipped);

#endif
