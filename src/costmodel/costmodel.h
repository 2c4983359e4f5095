/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cost model (SPEC §2, paper §2.3): per-processor loads of a partition and
 * the exact Gain and dMinVar of a single move (SPEC §3), used by the
 * partition and expansion phases and by the evaluator. */
#ifndef MINEX_COSTMODEL_H
#define MINEX_COSTMODEL_H

#include "core/rename.h"

#include "core/core.h"

/* Weight that a moving vertex has towards the vertices owned by one
 * processor: the caller aggregates the vertex's edges by neighbour owner. */
typedef struct costmodel_nbr {
  int32_t owner; /* processor owning some neighbours                   */
  double cwgt;   /* sum of Cwgt over the edges to those neighbours      */
} costmodel_nbr;

/* A vertex of the (possibly contracted) graph about to move. All fine
 * vertices inside a coarse vertex share one old owner (contraction only
 * merges same-owner pairs), so one old owner describes its remapping. */
typedef struct costmodel_vertex {
  double pwgt;              /* Pwgt of the vertex                        */
  double rwgt;              /* Rwgt of the vertex                        */
  int32_t old;              /* owner in the old partition                */
  int32_t cur;              /* current owner                             */
  const costmodel_nbr *nbr; /* neighbour weight per owner, distinct owners */
  int32_t nnbr;             /* entries in nbr                            */
} costmodel_vertex;

/* How many of the least-loaded processors are kept sorted. */
#define COSTMODEL_NLOW 8

/* The scratch of one move evaluation (P-sized; one per worker, so moves
 * are evaluated on several threads against the same loads). */
typedef struct costmodel_scratch {
  int32_t *stamp;    /* stamp[p] == cur_stamp: p is touched        */
  int32_t cur_stamp; /* current stamp value                        */
  int32_t *touched;  /* touched processors, ntouched of them       */
  int32_t ntouched;
  double *dwgt, *dcomm, *dremap; /* deltas, indexed by processor      */
  double *qnew;                  /* Qwgt after the move, by touched index */
} costmodel_scratch;

/* Scratch for nprocs processors; MINEX_ENOMEM with a message. */
int costmodel_scratch_create(costmodel_scratch *s, int32_t nprocs);
void costmodel_scratch_destroy(costmodel_scratch *s);

/* Per-processor totals with the running sums needed for O(deg) Gain and
 * dMinVar. Processors 0..nprocs-1; unavailable ones keep loads but are left
 * out of QwgtTot, MinQwgt and MinVar. */
typedef struct costmodel_loads {
  const minex_config *cfg;     /* clusters, slowdowns, availability         */
  double alpha;                /* latency tolerance                          */
  double iters;                /* horizon k >= 1 (SPEC §2): Wgt and Comm
                                  count k times in Qwgt, Remap once        */
  minex_remap_mode mode;       /* who pays remapping                         */
  double unit;                 /* loads are in units of 1/unit of the
                                  caller's: every Pwgt, Rwgt and Cwgt is
                                  multiplied by unit, a power of two (so
                                  exactly), before it enters a load, and
                                  the loads stay near 1 whatever the scale
                                  of the weights (1 in the
                                  evaluator)                               */
  double inv_unit;             /* 1 / unit, exact                            */
  minex_qwgt_fn fn;            /* user Qwgt function or NULL                 */
  void *fn_ctx;                /* its context                                */
  int32_t nprocs;              /* P                                          */
  int32_t navail;              /* available processors                       */
  double *wgt;                 /* Wgt^p = sum Pwgt * Proc_c(p)               */
  double *comm;                /* Comm^p                                     */
  double *remap;               /* Remap^p as charged under mode              */
  double *qwgt;                /* Qwgt^p                                     */
  double qwgt_tot;             /* sum of qwgt over available processors      */
  double qwgt_tot_mag;         /* magnitudes summed into qwgt_tot so far (the
                                  partial sums and the deltas added): its
                                  rounding error is at most
                                  DBL_EPSILON / 2 * qwgt_tot_mag           */
  int32_t tsize;               /* leaves of the min tree (power of two)      */
  double *tree;                /* min segment tree of qwgt; +inf for
                                  unavailable processors and padding        */
  int32_t low[COSTMODEL_NLOW]; /* the nlow least-loaded available
                              processors by (Qwgt, id), ascending: the
                              minimum untouched by a move is nearly
                              always among them                         */
  int32_t nlow;                /* min(COSTMODEL_NLOW, available processors) */
  costmodel_scratch mv;        /* the serial evaluation's scratch, which
                                  costmodel_apply executes                 */
} costmodel_loads;

/* Result of evaluating one move. */
typedef struct costmodel_move {
  int32_t to;       /* destination processor                           */
  double gain;      /* QwgtTot after - before                          */
  double dmin_var;  /* MinVar after - before                           */
  double max_to;    /* Qwgt of the destination after the move          */
  double max_after; /* largest Qwgt after the move over the available
                       processors it touches                          */
} costmodel_move;

/* Allocates loads for cfg and fills them from scratch for the partition
 * part (O(V + E)); old gives the remapping. */
int costmodel_loads_create(costmodel_loads *ld, const minex_graph *g,
                           const minex_config *cfg, const int32_t *old,
                           const int32_t *part, const minex_options *opt);
/* What the loads of a partition depend on besides the partition: the
 * graph, the machine, the old partition (where remapping is paid), the
 * options (alpha, remap_mode, qwgt_fn) and the unit (a power of two from
 * costmodel_unit; 1 keeps the caller's units). */
typedef struct costmodel_problem {
  const minex_graph *g;
  const minex_config *cfg;
  const int32_t *old;
  const minex_options *opt;
  double unit;
} costmodel_problem;

/* The same for pb under horizon k > 0 in place of options.iterations (the
 * ladder's shorter horizons, fractions of an iteration included), with
 * the loads in units of 1/pb->unit of the caller's. */
int costmodel_loads_create_k(costmodel_loads *ld, const costmodel_problem *pb,
                             const int32_t *part, double k);

/* The unit in which minex_repartition keeps its loads:
 * the power of two that brings the mean load of the old partition under
 * the horizon of opt (over every processor: vertices on unavailable ones
 * will move) into [1, 2), lowered if needed so that no single weight
 * times the largest slowdown and the horizon passes 2^600. So MinVar, its
 * tolerance and the ThroTTle gate neither underflow for weights of 1e-200
 * nor overflow for weights of 1e150, and, the scaling being exact, every
 * decision is the one taken in the caller's units when those are in
 * range: the same graph scaled by a power of two gets the same partition.
 * Builds the old loads in the caller's units on the way, and so fails as
 * the evaluator does when they overflow. */
int costmodel_unit(const minex_graph *g, const minex_config *cfg,
                   const int32_t *old, const minex_options *opt, double *unit);

/* costmodel_unit in two steps, for processes that each hold whole old
 * parts (the MPI layer): the per-part sums of Pwgt, Rwgt and the rows'
 * Cwgt of g's vertices, added into sums[3 part[v] + 0, 1, 2] (each part's
 * vertices in g's order); then the unit from the old loads (built with
 * unit 1 and part = old) and the sums of every part. */
void costmodel_unit_sums(const minex_graph *g, const int32_t *part,
                         double *sums);
void costmodel_unit_from(const costmodel_loads *ld, const double *sums,
                         double *unit);

/* The metrics that come from the loads alone (minex_evaluate's: MaxQwgt,
 * MinQwgt, QwgtTot, MinVar, LoadImb, the maxima of Wgt, Comm, Remap,
 * SteadyMax, T_k; lower_bound holds sum 1/Proc, to be divided into the sum
 * of Pwgt), in the loads' units; m's other fields are left as they are. */
void costmodel_metrics_from_loads(const costmodel_loads *ld, minex_metrics *m);

/* The figures a partition is scored by, from its loads (SPEC §2), over the
 * available processors: the largest running Qwgt (under the loads' own
 * horizon); SteadyMax (Remap 0, k = 1); MaxRemap; MaxQwgt under horizon
 * k and T_k = MaxRemap + k SteadyMax, whatever k the loads were built
 * for. Every path (serial, ranks, candidates, the guarantee) uses these. */
double costmodel_loads_max(const costmodel_loads *ld);
double costmodel_steady_max(const costmodel_loads *ld);
double costmodel_remap_max(const costmodel_loads *ld);
double costmodel_max_qwgt_k(const costmodel_loads *ld, double k);
double costmodel_horizon_time(const costmodel_loads *ld, double k);

/* The name of the first of m's evaluated figures (the loads' and the sums
 * over vertices) that is not finite, its value in *value; NULL when all
 * are: minex_evaluate and the MPI layer refuse such a result rather than
 * return it. */
const char *costmodel_metrics_nonfinite(const minex_metrics *m, double *value);

/* A processor's Wgt, Comm and Remap (SPEC §2): its loads, a share of
 * them, or a move's deltas to them. */
typedef struct costmodel_wcr {
  double wgt, comm, remap;
} costmodel_wcr;

/* A processor's share of the loads from one run of vertices. */
typedef struct costmodel_partial {
  int32_t proc, pad;
  costmodel_wcr sum;
} costmodel_partial;

/* The loads of partition part split by runs of vertices with the same old
 * owner in vertex order (the parts of the per-part layout): per run, the
 * processors it touches in increasing order with the run's Wgt, Comm and
 * Remap sums for them (vertex order inside the run), the runs one after
 * the other, into *out (malloc'd, *nout entries). Added up in that order
 * (costmodel_loads_from_partials) they give the loads summed run by run,
 * which a contraction spread over ranks (each rank holding whole parts)
 * reproduces exactly: costmodel_loads_create_runs. MINEX_ENOMEM. */
int costmodel_run_partials(const costmodel_problem *pb, const int32_t *part,
                           costmodel_partial **out, int64_t *nout);
/* Loads (as costmodel_loads_create_k) whose Wgt, Comm and Remap are the
 * n partial sums of pt added in order. MINEX_EINTERNAL for a processor
 * out of range; the errors of costmodel_loads_refresh. */
int costmodel_loads_from_partials(costmodel_loads *ld, const minex_config *cfg,
                                  const minex_options *opt, double k,
                                  double unit, const costmodel_partial *pt,
                                  int64_t n);
/* costmodel_loads_create_k with the sums taken run by run (above): the
 * same loads up to rounding; for part = old the very same (each
 * processor's sums come from its own run). */
int costmodel_loads_create_runs(costmodel_loads *ld,
                                const costmodel_problem *pb,
                                const int32_t *part, double k);

/* Recomputes what the loads derive from their per-processor Wgt, Comm and
 * Remap (Qwgt, QwgtTot, the minimum structures), after the caller set
 * those (the MPI layer: every process's share added up). Errors as
 * costmodel_loads_create_k, which then destroys ld. */
int costmodel_loads_refresh(costmodel_loads *ld);
void costmodel_loads_destroy(costmodel_loads *ld);

/* The user's Qwgt function in the caller's units, run without the call's
 * workspace (what it allocates through the library is its own). */
static inline double costmodel_user_qwgt(const costmodel_loads *ld, double wgt,
                                         double comm, double remap) {
  minex_workspace *pool = core_pool_swap(NULL);
  double q = ld->unit == 1 ? ld->fn(wgt, comm, remap, ld->fn_ctx)
                           : ld->fn(wgt * ld->inv_unit, comm * ld->inv_unit,
                                    remap * ld->inv_unit, ld->fn_ctx) *
                                 ld->unit;
  core_pool_swap(pool);
  return q;
}

/* Qwgt under horizon k from its three per-iteration parts: the alpha
 * formula or the user function on (k * Wgt, k * Comm, Remap). */
static inline double costmodel_qwgt_k(const costmodel_loads *ld, double k,
                                      double wgt, double comm, double remap) {
  wgt *= k; /* exact for k = 1: the paper's formula */
  comm *= k;
  if (ld->fn)
    return costmodel_user_qwgt(ld, wgt, comm, remap);
  double x = comm + remap;
  return wgt + x - ld->alpha * (wgt < x ? wgt : x);
}

/* The same under the loads' own horizon (ld->iters). */
static inline double costmodel_qwgt(const costmodel_loads *ld, double wgt,
                                    double comm, double remap) {
  return costmodel_qwgt_k(ld, ld->iters, wgt, comm, remap);
}

/* Steady Qwgt of one solver iteration once the data have moved (SPEC §2
 * SteadyMax): the formula with Remap = 0 and k = 1. */
static inline double costmodel_qwgt_steady(const costmodel_loads *ld,
                                           double wgt, double comm) {
  if (ld->fn)
    return costmodel_user_qwgt(ld, wgt, comm, 0.0);
  return wgt + comm - ld->alpha * (wgt < comm ? wgt : comm);
}

/* Smallest Qwgt over available processors and its processor (lowest id on
 * ties); -1 when none is available. */
int32_t costmodel_argmin(const costmodel_loads *ld, double *min_out);

/* Recomputes the least-loaded list from scratch, O(P). */
void costmodel_low_rebuild(costmodel_loads *ld);

/* QwgtTot (summed over the available processors in index order), the
 * min tree and the least-loaded list made again from Qwgt, O(P): the
 * rounds end with it (rounds = ON), so the loads after a round are a
 * function of each processor's Wgt, Comm, Remap and Qwgt alone, which
 * the MPI layer's ranks find at the processors' home ranks without
 * replaying the round's moves one after another
 * (src/dist/rounds.c). */
void costmodel_resync(costmodel_loads *ld);

/* Sets Qwgt of available processor p in the min tree. */
void costmodel_tree_set(costmodel_loads *ld, int32_t p, double q);

/* Qwgt of q after moving v from v->cur to q (q != v->cur): the very value
 * costmodel_eval_move_in computes for q (the same sums in the same
 * order), in O(nnbr) without scratch; the balance passes reject with it
 * the moves whose receiver would end at or above the sender. */
double costmodel_receiver_qwgt(const costmodel_loads *ld,
                               const costmodel_vertex *v, int32_t q);

/* Exact Gain and dMinVar of moving v from v->cur to q (SPEC §3), in
 * O(nnbr + log P), with the deltas left in scratch s; reads ld only, so
 * workers evaluate moves concurrently, each with its own scratch. */
void costmodel_eval_move_in(const costmodel_loads *ld, costmodel_scratch *s,
                            const costmodel_vertex *v, int32_t q,
                            costmodel_move *out);

/* The same, but dMinVar measured about a fixed reference ref instead of
 * the minimum: sum over the touched available processors x of
 * (Qwgt_x after - ref)^2 - (Qwgt_x before - ref)^2. It reads the loads of
 * the touched processors only (never the min tree, QwgtTot or the
 * least-loaded list), so it is a function of those loads alone: the
 * synchronous rounds decide with it against per-processor running sums
 * (src/partition/rounds.c). Gain, max_to and max_after as above. */
void costmodel_eval_move_ref(const costmodel_loads *ld, costmodel_scratch *s,
                             const costmodel_vertex *v, int32_t q, double ref,
                             costmodel_move *out);

/* The deltas alone of costmodel_eval_move_in (s's touched, ntouched,
 * dwgt, dcomm and dremap, the same doubles in the same order), without
 * Gain or dMinVar: the scans of the rounds keep a proposal's deltas so
 * that its decision need not evaluate the move again. */
void costmodel_move_deltas(const costmodel_loads *ld, costmodel_scratch *s,
                           const costmodel_vertex *v, int32_t q);

/* costmodel_eval_move_ref's result from deltas already in s (touched,
 * ntouched, and dwgt, dcomm, dremap of the touched processors, as
 * costmodel_eval_move_ref leaves them, in the same order): the same
 * doubles, without the vertex's neighbourhood (the MPI layer's ranks
 * decide from deltas made once, src/dist/rounds.c). */
void costmodel_finish_move_ref(const costmodel_loads *ld, costmodel_scratch *s,
                               int32_t q, double ref, costmodel_move *out);

/* The same in the loads' own scratch (ld->mv), for costmodel_apply. */
static inline void costmodel_eval_move(costmodel_loads *ld,
                                       const costmodel_vertex *v, int32_t q,
                                       costmodel_move *out) {
  costmodel_eval_move_in(ld, &ld->mv, v, q, out);
}

/* Executes the move last evaluated by costmodel_eval_move. */
void costmodel_apply(costmodel_loads *ld);

/* Adds the deltas of the move last evaluated in ld->mv to Wgt, Comm,
 * Remap and Qwgt of the processors it touches, and nothing else: QwgtTot,
 * the min tree and the least-loaded list are left as they were, so the
 * loads are inconsistent until a snapshot is restored. What the rounds'
 * decisions need (src/partition/rounds.c: they read only the touched
 * processors' sums, dMinVar about a fixed reference), at a fraction of
 * costmodel_apply's cost. */
void costmodel_apply_sums(costmodel_loads *ld);

/* The loads' state as bytes: everything a move changes (Wgt, Comm, Remap,
 * Qwgt, the min tree, the totals, the least-loaded list). get after put
 * gives the loads back bit for bit: a trial's rollback (the snapshot
 * below), and the loads every rank of a distributed round takes from rank
 * 0 (partition_rounds_dist). */
size_t costmodel_state_size(const costmodel_loads *ld);
void costmodel_state_put(const costmodel_loads *ld, void *buf);
void costmodel_state_get(costmodel_loads *ld, const void *buf);

/* A copy of the loads' state, so a trial partition can be rolled back
 * exactly (throttle_auto). */
typedef struct costmodel_snapshot {
  void *buf; /* costmodel_state_put's bytes */
} costmodel_snapshot;
int costmodel_snapshot_take(const costmodel_loads *ld, costmodel_snapshot *s);
void costmodel_snapshot_restore(costmodel_loads *ld,
                                const costmodel_snapshot *s);
void costmodel_snapshot_free(costmodel_snapshot *s);

/* MinVar of the current loads, from scratch (tests and checks). */
double costmodel_min_var(const costmodel_loads *ld);

/* Verifies the running sums and the min tree against the per-processor
 * arrays; MINEX_EINTERNAL with a message on mismatch. Tolerances are
 * relative to the magnitudes summed (qwgt_tot_mag), never absolute: a sum
 * that once held loads of 1e8 keeps their rounding after they left. */
int costmodel_loads_check(const costmodel_loads *ld);

/* Validates graph, config, old partition and options for the public entry
 * point fn; MINEX_EINVAL / MINEX_EPART with a message. */
int costmodel_check_args(const char *fn, const minex_graph *g,
                         const minex_config *cfg, const int32_t *old,
                         const minex_options *opt);

#endif
