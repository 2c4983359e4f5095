/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MinEX paper's experiment (§4): an adaptive mesh processed through a
 * sequence of adaptations, repartitioned by MinEX between them (or not),
 * on a machine of C clusters with interconnect slowdown I. One
 * configuration is one `sim_run`; `minex sim` prints it and `minex sweep`
 * runs grids of them (sweep.h). */
#ifndef MINEX_SIM_H
#define MINEX_SIM_H

#include "adapt.h"
#include "minex.h"

#include <stdint.h>

/* The machine of the paper's study: P processors divided as evenly as
 * possible among C clusters (the first P mod C clusters get one more),
 * intra-cluster Conn = 1, inter-cluster Conn = I, processing slowdowns
 * proc[c] (NULL: all 1, homogeneous as in the paper). */
int sim_config_make(int32_t P, int32_t C, double I, const double *proc,
                    minex_config **out);

/* One configuration. */
typedef struct sim_params {
  int partition;     /* 1: MinEX between adaptations; 0: the paper's
                        "no partitioning" baseline (Table 4)         */
  minex_options opt; /* ThroTTle (or throttle_auto), alpha, seed, ... */
} sim_params;

/* What one adaptation step measured (of the partition used for it). */
typedef struct sim_step {
  int64_t leaves;  /* leaf elements of the mesh at this step        */
  double max_qwgt; /* MaxQwgt: the step's time (SPEC §2)           */
  double min_qwgt;
  double qwgt_tot;    /* QwgtTot                                      */
  double load_imb;    /* LoadImb                                      */
  double lower_bound; /* LB                                           */
  int64_t cut_edges;
  double cut_weight;
  int64_t moved;        /* root elements that moved                    */
  double total_v;       /* TotalV                                       */
  double max_v;         /* MaxV                                         */
  double steady_max;    /* SteadyMax (SPEC §2 horizon)                  */
  double max_remap;     /* MaxRemap                                     */
  double horizon_time;  /* T_k = MaxRemap + k * SteadyMax, k = the
                           workload's iterations                        */
  double throttle_used; /* ThroTTle of the call (chosen one under auto)  */
  double seconds;       /* wall time of the repartition call (0 without) */
  int returned_old;     /* 1: the call kept the old partition (no
                           candidate lowered T_k), 0 otherwise or without
                           partitioning                                 */
} sim_step;

typedef struct sim_result {
  int32_t nsteps;
  sim_step *steps;      /* nsteps entries                              */
  double total;         /* sum over steps of MaxQwgt: the paper's
                           "total time required to process the
                           application" (its tables' scale)            */
  double total_horizon; /* sum over steps of T_k: the run's time under
                           the horizon (SPEC §2)                       */
  double load_imb;      /* sum MaxQwgt / sum (QwgtTot / P_avail): the
                           run's imbalance, weighted by step time       */
  double seconds;       /* sum of the repartition times                 */
  double *qwgt;         /* nsteps * P per-processor Qwgt of each step   */
  int32_t nprocs;
} sim_result;

/* Called after each step with the partition used for it (old is the
 * previous step's); return non-zero to stop with MINEX_EINVAL. */
typedef int (*sim_step_fn)(int32_t step, const minex_graph *graph,
                           const int32_t *old, const int32_t *part,
                           const sim_step *s, void *ctx);

/* Runs the workload on cfg. Step k (1..nsteps) repartitions graph k with
 * the partition of step k-1 as the old one (step 0: initial, e.g. the
 * RCB of the initial mesh into P parts); its MaxQwgt includes the
 * remapping from k-1 to k. Without partitioning every step keeps initial.
 * Every call runs under the workload's horizon w->params.iterations
 * (it replaces p->opt.iterations). Deterministic: the same inputs give the same
 * result. */
int sim_run(const sim_workload *w, const minex_config *cfg,
            const int32_t *initial, const sim_params *p, sim_step_fn fn,
            void *fn_ctx, sim_result *out);
void sim_result_free(sim_result *r);

/* Sets the message that sim_last_error() returns (printf format) and
 * returns rc: every sim_ and sweep_ function reports through it. */
int sim_fail(int rc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
