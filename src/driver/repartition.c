/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_repartition: contract, partition the contracted graph, expand
 * (SPEC §3, paper §3.1), with the guarantees of SPEC §3. */
#include "contract/contract.h"
#include "costmodel/costmodel.h"
#include "driver/layout.h"
#include "expand/expand.h"
#include "partition/partition.h"
#include "scratch/scratch.h"

#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Debug builds (MINEX_CHECKS, issue 10): every structure checks itself at
 * each phase boundary; a failure is MINEX_EINTERNAL naming check and
 * phase. */
#ifdef MINEX_CHECKS
#define CHECK_PHASE(ws, ld, pc, phase) partition_check_phase(ws, ld, pc, phase)
#else
#define CHECK_PHASE(ws, ld, pc, phase) MINEX_OK
#endif

/* Tests per restored pair beyond the pair itself (SPEC §3: "when one
 * moves, its border neighbours are tested too"). */
#define EXPAND_BUDGET 16

static void logf_(const minex_options *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void logf_(const minex_options *o, const char *fmt, ...) {
  if (o->log_fn == NULL)
    return;
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  o->log_fn(buf, o->log_ctx);
}

/* Moves any fine vertex still on an unavailable processor (only possible
 * when passes were cut short) with the forced rule. */
static void force_off_unavailable(partition_ctx *pc) {
  contract_ws *ws = pc->ws;
  for (int32_t v = 0; v < ws->n; v++) {
    partition_choice ch;
    if (!pc->cfg->avail[ws->owner[v]] && partition_best_move(pc, v, &ch))
      partition_execute(pc, v, ch.move.to);
  }
}

/* throttle_auto (issue 3): partitions the contracted graph with each
 * candidate from the same start, rolls every trial back (owners, loads,
 * interior flags), and returns the candidate with the lowest MaxQwgt in
 * *best (the first of equals, so the order of the candidates breaks
 * ties). */
static int choose_throttle(partition_ctx *pc, const minex_options *opt,
                           double *best) {
  static const double builtin[MINEX_THROTTLE_AUTO_COUNT] =
      MINEX_THROTTLE_AUTO_SET;
  const double *cand =
      opt->throttle_candidates ? opt->throttle_candidates : builtin;
  int32_t ncand = opt->throttle_candidates ? opt->nthrottle_candidates
                                           : MINEX_THROTTLE_AUTO_COUNT;
  contract_ws *ws = pc->ws;
  int32_t na = 0, nids = contract_nids(ws);
  int32_t *act = malloc(sizeof(int32_t) * ((size_t)ws->nactive + 1));
  int32_t *own = malloc(sizeof(int32_t) * ((size_t)ws->nactive + 1));
  costmodel_snapshot snap = {0};
  int rc = act && own ? costmodel_snapshot_take(pc->ld, &snap)
                      : core_error(MINEX_ENOMEM, "throttle auto: out of "
                                                 "memory");
  if (rc != MINEX_OK)
    goto done;
  for (int32_t x = 0; x < nids; x++)
    if (ws->parent[x] == x) {
      act[na] = x;
      own[na++] = ws->owner[x];
    }
  double best_max = INFINITY;
  *best = cand[0];
  for (int32_t i = 0; i < ncand && rc == MINEX_OK; i++) {
    pc->throttle = cand[i];
    if ((rc = partition_run(pc, opt->max_passes > 0 ? opt->max_passes : 1)))
      break;
    if ((rc = CHECK_PHASE(ws, pc->ld, pc, "after a throttle_auto trial")))
      break;
    double m = partition_loads_max(pc->ld);
    logf_(opt, "throttle auto: ThroTTle %g -> coarse MaxQwgt %.6g", cand[i],
          m * pc->ld->inv_unit);
    if (m < best_max) {
      best_max = m;
      *best = cand[i];
    }
    for (int32_t k = 0; k < na; k++)
      if (ws->owner[act[k]] != own[k])
        contract_set_owner(ws, act[k], own[k]);
    costmodel_snapshot_restore(pc->ld, &snap);
    memset(pc->interior, 0, (size_t)nids);
    pc->moves = pc->forced_moves = 0;
    if ((rc = CHECK_PHASE(ws, pc->ld, pc, "after a throttle_auto rollback")))
      break;
  }
done:
  costmodel_snapshot_free(&snap);
  free(act);
  free(own);
  return rc;
}

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
} candidate;

/* MaxQwgt of the loads under horizon k (whatever k they were built for). */
static double max_under(costmodel_loads *ld, double k) {
  double keep = ld->iters, m = 0;
  ld->iters = k;
  for (int32_t p = 0; p < ld->nprocs; p++)
    if (ld->cfg->avail[p])
      m = fmax(m, costmodel_qwgt(ld, ld->wgt[p], ld->comm[p], ld->remap[p]));
  ld->iters = keep;
  return m;
}

/* Contracts g from the old partition (the diffusive candidates) and
 * freezes the contracted graph into ws; *seconds is the wall time. Every
 * candidate shares it (contract_rewind between them; the from-scratch
 * candidate descends to one of its levels). */
static int contract_start(const minex_graph *g, const minex_config *cfg,
                          const int32_t *old, const minex_options *opt, int nt,
                          contract_ws *ws, double *seconds) {
  int32_t n = g->nvtxs;
  double t1 = core_wtime();
  memset(ws, 0, sizeof *ws);
  int rc = contract_ws_create(ws, g, old);
  if (rc != MINEX_OK)
    return rc;
  int64_t target = opt->coarse_target;
  if (target <= 0) {
    /* coarse_per_proc per processor, but coarse vertices of at least four
       fine ones on average: on a graph with few vertices per processor a
       single fine vertex rarely pays for its cut edges, and moves that
       fill empty (newly joined) processors need bigger pieces */
    target = (int64_t)opt->coarse_per_proc * cfg->navail;
    if (target > n / 4)
      target = n / 4 > 0 ? n / 4 : 1;
  }
  if (target > n)
    target = n;
  rc = contract_run(ws, (int32_t)target, opt->sample_size,
                    (unsigned long)opt->seed, nt);
  if (rc == MINEX_OK)
    rc = contract_freeze(ws);
  *seconds = core_wtime() - t1;
  logf_(opt,
        "contract: %d -> %d vertices in %d levels in %.3f s (sweeps %.3f s, "
        "%.0f ns per merge; levels built in %.3f s)",
        (int)n, (int)ws->nactive, (int)ws->nlevels, *seconds, ws->seconds_sweep,
        1e9 * ws->seconds_sweep / (double)(ws->vtot - n > 0 ? ws->vtot - n : 1),
        ws->seconds_levels);
  return rc;
}

/* Whether the balance moves run (options.balance). Under AUTO: when the
 * processors are in more than one cluster, where the remapping a receiver
 * pays differs most from what the sender saves (issue 18 §2(c): a 2-cluster
 * run of `minex sim` summed 66,882 with the paper's rule alone and 57,137
 * with them, 62,604 without repartitioning); on one cluster they left the
 * simulation's later steps a slightly worse start (739,853 -> 745,117). */
static int balance_wanted(const minex_options *o, const minex_config *cfg) {
  if (o->paper_exact || o->balance == MINEX_BALANCE_OFF)
    return 0;
  if (o->balance == MINEX_BALANCE_ON)
    return 1;
  int used = 0;
  for (int32_t c = 0; c < cfg->nclusters; c++) {
    int has = 0;
    for (int32_t p = 0; p < cfg->nprocs && !has; p++)
      has = cfg->cluster[p] == c && cfg->avail[p];
    used += has;
  }
  return used > 1;
}

/* One multilevel run of SPEC §3 on the contracted graph of ws (frozen, or
 * rewound to its freeze) from start (NULL: the old partition): partition
 * the contracted graph, expand, with the refinement passes when refine is
 * set, all under the horizon `iters`, the loads in units of 1/unit of the
 * caller's (costmodel_unit). Writes the result into out and scores it
 * under the call's own horizon (opt_in->iterations). */
static int run_candidate(const minex_graph *g, const minex_config *cfg,
                         const int32_t *old, const int32_t *start,
                         contract_ws *ws, const minex_options *opt_in,
                         double iters, double unit, int refine, int32_t *out,
                         candidate *cd) {
  minex_options opt = *opt_in;
  double k_call = opt_in->iterations > 1 ? opt_in->iterations : 1;
  int32_t n = g->nvtxs;
  costmodel_loads ld;
  partition_ctx pc;
  memset(&pc, 0, sizeof pc);
  memset(cd, 0, sizeof *cd);
  int rc = costmodel_loads_create_k(&ld, g, cfg, old, start ? start : old, &opt,
                                    iters, unit);
  if (rc != MINEX_OK)
    return rc;
  cd->start_max = max_under(&ld, k_call) * ld.inv_unit;
  cd->horizon = iters;
  double t2 = core_wtime();
  if ((rc = partition_ctx_create(&pc, ws, &ld, &opt)))
    goto done;
  if ((rc = CHECK_PHASE(ws, &ld, &pc, "at the start of a candidate")))
    goto done;
  cd->coarse_nvtxs = ws->nactive;
  if (opt.throttle_auto) {
    double t;
    if ((rc = choose_throttle(&pc, &opt, &t)))
      goto done;
    pc.throttle = opt.throttle = t;
  }
  if ((rc = partition_run(&pc, opt.max_passes > 0 ? opt.max_passes : 1)))
    goto done;
  if ((rc = CHECK_PHASE(ws, &ld, &pc, "after the coarse partition")))
    goto done;
  /* no refinement of the coarse graph: lowering QwgtTot there leaves the
     expansion a start from which it balances worse (measured: MaxQwgt
     3,651 instead of 3,500 on box1e4-hetero4-p16 at k = 1) */
  int32_t rpasses = opt.refine_passes > 0 ? opt.refine_passes : 1;
  cd->coarse_moves = pc.moves;
  double t3 = core_wtime();
  logf_(&opt, "partition (k = %g): %lld moves on %d coarse vertices in %.3f s",
        cd->horizon, (long long)cd->coarse_moves, (int)cd->coarse_nvtxs,
        t3 - t2);
  if ((rc = expand_run(&pc, EXPAND_BUDGET)))
    goto done;
  force_off_unavailable(&pc);
  if (balance_wanted(&opt, cfg)) {
    int64_t before = pc.moves;
    if ((rc = partition_balance(&pc, MINEX_BALANCE_PASSES)))
      goto done;
    logf_(&opt, "balance: %lld moves on the fine graph",
          (long long)(pc.moves - before));
  }
  if (refine) {
    int64_t before = pc.moves;
    double tr = core_wtime();
    if ((rc = partition_refine(&pc, rpasses)))
      goto done;
    cd->seconds_refine = core_wtime() - tr;
    logf_(&opt, "refine: %lld moves on the fine graph",
          (long long)(pc.moves - before));
  }
  if ((rc = CHECK_PHASE(ws, &ld, &pc, "before returning")))
    goto done;
  double t4 = core_wtime();
  logf_(&opt, "expand: %lld moves in %.3f s",
        (long long)(pc.moves - cd->coarse_moves), t4 - t3);
  memcpy(out, ws->owner, sizeof(int32_t) * (size_t)n);
  cd->end_max = max_under(&ld, k_call) * ld.inv_unit;
  cd->end_time =
      (partition_remap_max(&ld) + k_call * partition_steady_max(&ld)) *
      ld.inv_unit;
  cd->expand_moves = pc.moves - cd->coarse_moves;
  cd->seconds_partition = t3 - t2;
  cd->seconds_expand = t4 - t3;
  cd->throttle = opt.throttle;
done:
  partition_ctx_destroy(&pc);
  costmodel_loads_destroy(&ld);
  return rc;
}

/* Whether the from-scratch candidate runs (options.scratch). */
static int scratch_wanted(const minex_options *o) {
  if (o->paper_exact || o->scratch == MINEX_SCRATCH_OFF)
    return 0;
  if (o->scratch == MINEX_SCRATCH_ON)
    return 1;
  return o->iterations >= MINEX_SCRATCH_AUTO_ITERATIONS;
}

/* The from-scratch candidate (src/scratch) on the diffusive contraction
 * ws: Scotch partitions the first level of ws with at most
 * min(n / SCRATCH_PASS_RATIO, SCRATCH_PART_MAX) vertices, but never one
 * coarser than needed for n / SCRATCH_PART_RATIO (the last level when
 * none is that small; the graph itself when the contraction made no
 * level), relabelled against old; ws descends to the first level with at
 * most n / SCRATCH_PASS_RATIO vertices, whose vertices take the Scotch
 * part of their fine vertices, and the candidate runs from there -- the
 * paper's rule on that level's graph, expansion, refinement -- under the
 * horizon k. A level's vertices lie each inside one old part, as the
 * contracted graph's do, so their remapping stays exact. Scotch gets a
 * graph small enough to be cheap (about 3 us per vertex and level of its
 * recursion here) and fine enough for a good cut; the rule gets pieces
 * small enough to balance precisely; and the candidate needs no
 * contraction of its own (algorithm.md §7). The fine start partition goes
 * to start, the result to out. */
#define SCRATCH_PART_MAX 32768
#define SCRATCH_PART_RATIO 32
#define SCRATCH_PASS_RATIO 2
static int run_scratch(const minex_graph *g, const minex_config *cfg,
                       const int32_t *old, contract_ws *ws,
                       const minex_options *opt, double k, double unit,
                       int refine, int32_t *start, int32_t *out, candidate *cd,
                       int *skipped) {
  int32_t n = g->nvtxs, s = 0, s2 = 0;
  double ts = core_wtime();
  contract_rewind(ws);
  int32_t cap = n / SCRATCH_PASS_RATIO;
  cap = cap < SCRATCH_PART_MAX ? cap : SCRATCH_PART_MAX;
  cap = cap > n / SCRATCH_PART_RATIO ? cap : n / SCRATCH_PART_RATIO;
  while (s + 1 < ws->nlevels && ws->lv[s].nbase > cap)
    s++;
  while (s2 < s && ws->lv[s2].nbase > n / SCRATCH_PASS_RATIO)
    s2++;
  minex_graph *gs = NULL;
  int32_t *old_s = NULL, *part_s = NULL, *rep2 = NULL;
  int32_t ns = ws->lv[s].nbase, ns2 = ws->lv[s2].nbase;
  int rc = MINEX_OK;
  if (s > 0)
    rc = contract_level_graph(ws, s, &gs, &old_s, start);
  if (rc == MINEX_OK) {
    part_s = malloc(sizeof(int32_t) * ((size_t)ns + 1));
    rep2 = malloc(sizeof(int32_t) * ((size_t)n + 1));
    rc = part_s == NULL || rep2 == NULL
             ? core_error(MINEX_ENOMEM, "minex_repartition: out of memory")
             : scratch_partition(s > 0 ? gs : g, cfg, s > 0 ? old_s : old,
                                 opt->seed, part_s);
    /* the candidate is optional: when its partitioner fails (Scotch
       refused the input, or memory ran out), the call goes on without it */
    if (rc != MINEX_OK) {
      logf_(opt, "scratch: skipped: %s", minex_last_error());
      *skipped = 1;
      rc = MINEX_OK;
      goto out;
    }
  }
  if (rc == MINEX_OK)
    rc = contract_level_reps(ws, s2, rep2);
  if (rc == MINEX_OK) {
    for (int32_t v = 0; v < n; v++)
      start[v] = part_s[s > 0 ? start[v] : v];
    contract_descend(ws, s2);
    /* a level-s2 vertex lies inside one level-s vertex: its fine vertices
       share their Scotch part */
    for (int32_t v = 0; v < n; v++)
      ws->owner[rep2[v]] = start[v];
    memset(ws->interior, 0, (size_t)ns2);
    logf_(opt,
          "scratch: Scotch on level %d of the contraction (%d vertices) in "
          "%.3f s, the rule from level %d (%d vertices)",
          (int)s, (int)ns, core_wtime() - ts, (int)s2, (int)ns2);
    rc = run_candidate(g, cfg, old, start, ws, opt, k, unit, refine, out, cd);
  }
out:
  free(rep2);
  free(part_s);
  free(old_s);
  minex_graph_destroy(gs);
  return rc;
}

/* Whether the horizon ladder runs (options.ladder). Under AUTO: from
 * k = 2 on, and at k = 1 when alpha > 0, where MaxQwgt hides the remapping
 * behind computation but T_1 charges it in full (at alpha = 0 and k = 1
 * it left the simulation's later steps a worse start: sim32 T_1 ratio
 * 0.503 against 0.467). */
static int ladder_wanted(const minex_options *o) {
  if (o->paper_exact || o->ladder == MINEX_LADDER_OFF)
    return 0;
  if (o->ladder == MINEX_LADDER_ON)
    return 1;
  return o->iterations >= MINEX_LADDER_AUTO_ITERATIONS || o->alpha > 0;
}

/* Whether candidate c replaces the best so far: its T_k is lower and,
 * with every old owner available, its MaxQwgt under k is not above old's
 * (SPEC §3 guarantee); ties keep the earlier one. */
static int is_better(const candidate *best, const candidate *c, int all_avail,
                     double old_max) {
  return c->end_time < best->end_time && !(all_avail && c->end_max > old_max);
}

/* One candidate of the call (issue 19: the candidates run concurrently,
 * each on a view of the shared contraction, and are compared afterwards in
 * this order, so the result is that of running them one after the other).
 * Its log lines are kept and passed on in candidate order: a user's
 * log_fn is never called from two threads. */
typedef enum { JOB_DIFFUSIVE, JOB_LADDER, JOB_SCRATCH } job_kind;

typedef struct cand_job {
  job_kind kind;
  double k;       /* the horizon the candidate runs under             */
  int32_t *part;  /* its partition (layout ids)                       */
  int32_t *start; /* the scratch candidate's start partition          */
  candidate cd;
  int skipped;    /* the scratch candidate's partitioner failed       */
  double seconds; /* its wall time                                    */
  int rc;         /* MINEX_OK, or its failure and message              */
  char msg[1024];
  char *log; /* its log lines, '\n'-separated                    */
  size_t loglen, logcap;
} cand_job;

static void job_log(const char *msg, void *ctx) {
  cand_job *j = ctx;
  size_t m = strlen(msg) + 1;
  if (j->loglen + m + 1 > j->logcap) {
    size_t cap = 2 * (j->loglen + m + 1) + 256;
    char *b = realloc(j->log, cap);
    if (b == NULL)
      return; /* a log line is lost, nothing else */
    j->log = b;
    j->logcap = cap;
  }
  memcpy(j->log + j->loglen, msg, m - 1);
  j->log[j->loglen + m - 1] = '\n';
  j->loglen += m;
  j->log[j->loglen] = '\0';
}

/* Passes a job's kept log lines on to the caller's log_fn. */
static void job_replay(const cand_job *j, const minex_options *o) {
  if (o->log_fn == NULL || j->log == NULL)
    return;
  const char *p = j->log;
  while (*p != '\0') {
    const char *e = strchr(p, '\n');
    char line[512];
    size_t len =
        (size_t)(e - p) < sizeof line - 1 ? (size_t)(e - p) : sizeof line - 1;
    memcpy(line, p, len);
    line[len] = '\0';
    o->log_fn(line, o->log_ctx);
    p = e + 1;
  }
}

/* Runs job j on the view ws (rewound first). */
static void run_job(cand_job *j, const minex_graph *G, const minex_config *cfg,
                    const int32_t *O, contract_ws *ws, const minex_options *opt,
                    double unit, int refine) {
  minex_options o = *opt;
  if (opt->log_fn != NULL) {
    o.log_fn = job_log;
    o.log_ctx = j;
  }
  double t = core_wtime();
  contract_rewind(ws);
  if (j->kind == JOB_SCRATCH)
    j->rc = run_scratch(G, cfg, O, ws, &o, j->k, unit, refine, j->start,
                        j->part, &j->cd, &j->skipped);
  else
    j->rc = run_candidate(G, cfg, O, NULL, ws, &o, j->k, unit, refine, j->part,
                          &j->cd);
  if (j->rc != MINEX_OK)
    snprintf(j->msg, sizeof j->msg, "%s", minex_last_error());
  else if (j->kind == JOB_LADDER)
    logf_(&o, "ladder: k = %g: T_k %.6g, MaxQwgt %.6g", j->k, j->cd.end_time,
          j->cd.end_max);
  j->seconds = core_wtime() - t;
}

int minex_repartition(const minex_graph *g, const minex_config *cfg,
                      const int32_t *old, const minex_options *options,
                      int32_t *new_part, minex_metrics *metrics) {
  core_error_clear();
  double t0 = core_wtime();
  int rc = costmodel_check_args("minex_repartition", g, cfg, old, options);
  if (rc != MINEX_OK)
    return rc;
  if (new_part == NULL)
    return core_error(MINEX_EINVAL, "minex_repartition: new_part is NULL");
  if (cfg->navail == 0)
    return core_error(MINEX_ENOPROC,
                      "minex_repartition: all %d processors "
                      "are unavailable",
                      (int)cfg->nprocs);
  minex_options opt;
  if (options)
    opt = *options;
  else
    minex_options_init(&opt);
  int32_t n = g->nvtxs;
  int nt = opt.nthreads;
#ifdef _OPENMP
  if (nt == 0)
    nt = omp_get_num_procs();
#else
  nt = 1;
#endif
  int all_avail = 1;
  for (int32_t v = 0; v < n && all_avail; v++)
    all_avail = cfg->avail[old[v]];
  int refine =
      !opt.paper_exact && (opt.refine == MINEX_REFINE_ON ||
                           (opt.refine == MINEX_REFINE_AUTO &&
                            opt.iterations >= MINEX_REFINE_AUTO_ITERATIONS));
  size_t bytes = sizeof(int32_t) * ((size_t)n + 1);
  int32_t k = opt.iterations > 1 ? opt.iterations : 1;
  int32_t *scr = NULL;
  contract_ws ws, *views = NULL;
  memset(&ws, 0, sizeof ws);
  layout lay;
  memset(&lay, 0, sizeof lay);
  cand_job *jobs = NULL;
  int njobs = 0, nviews = 0;
  double secs_diff = 0, t_run = 0, unit = 1, secs_candidates = 0;
  /* wall time of each kind of candidate, so the phases add up to the
     call's time (issue 18) */
  double secs_diffusive = 0, secs_ladder = 0, secs_scratch = 0, secs_refine = 0;
  int32_t contract_nvtxs = 0, ncandidates = 1;
  /* every candidate's loads in one unit that keeps them near 1 */
  /* the candidates run on the per-part layout (layout.h): G and O are g
     and old renumbered, every partition below is in its ids until the
     result is mapped back */
  double tl = core_wtime();
  if ((rc = costmodel_unit(g, cfg, old, &opt, &unit)) ||
      (rc = layout_create(&lay, g, old, cfg->nprocs, nt)))
    goto done;
  const minex_graph *G = &lay.g;
  const int32_t *O = lay.old;
  logf_(&opt, "layout: %d parts in %.3f s on %d threads", (int)cfg->nprocs,
        core_wtime() - tl, nt);
  if ((rc = contract_start(G, cfg, O, &opt, nt, &ws, &secs_diff)))
    goto done;
  contract_nvtxs = ws.nactive;
  /* the candidates: the diffusive run under k, the ladder's shorter
     horizons, the from-scratch candidate; concurrently on up to nt
     threads, each on a view of the contraction, compared in this order */
  int with_ladder = ladder_wanted(&opt);
  int with_scratch = scratch_wanted(&opt) && n >= 2 * cfg->navail;
  njobs = 1 + (with_ladder ? MINEX_LADDER_MAX : 0) + (with_scratch ? 1 : 0);
  jobs = calloc((size_t)njobs, sizeof *jobs);
  if (jobs == NULL) {
    rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
    goto done;
  }
  double kj = k;
  for (int i = 0; i < njobs; i++) {
    cand_job *j = &jobs[i];
    j->kind = i == 0                           ? JOB_DIFFUSIVE
              : with_scratch && i == njobs - 1 ? JOB_SCRATCH
                                               : JOB_LADDER;
    if (j->kind == JOB_LADDER)
      kj /= MINEX_LADDER_STEP;
    j->k = j->kind == JOB_LADDER ? kj : k;
    j->part = malloc(bytes);
    j->start = j->kind == JOB_SCRATCH ? malloc(bytes) : NULL;
    if (j->part == NULL || (j->kind == JOB_SCRATCH && j->start == NULL)) {
      rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
      goto done;
    }
  }
  nviews = nt < njobs ? nt : njobs;
  views = calloc((size_t)nviews, sizeof *views);
  if (views == NULL) {
    rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
    goto done;
  }
  for (int t = 1; t < nviews; t++)
    if ((rc = contract_view_create(&views[t], &ws)) != MINEX_OK)
      goto done;
  t_run = core_wtime();
#pragma omp parallel for schedule(dynamic, 1)                                  \
    num_threads(nviews) if (nviews > 1)
  for (int i = 0; i < njobs; i++) {
    int t = 0;
#ifdef _OPENMP
    t = omp_get_thread_num();
#endif
    run_job(&jobs[i], G, cfg, O, t == 0 ? &ws : &views[t], &opt, unit, refine);
  }
  secs_candidates = core_wtime() - t_run;
  for (int i = 0; i < njobs; i++) {
    job_replay(&jobs[i], &opt);
    if (jobs[i].rc != MINEX_OK) {
      rc = core_error(jobs[i].rc, "%s", jobs[i].msg);
      goto done;
    }
  }
  /* the lower T_k wins (what the application pays over the horizon),
     provided the guarantee on MaxQwgt holds; ties keep the earlier */
  double old_max = jobs[0].cd.start_max;
  candidate best = jobs[0].cd;
  int win = 0, scratch_used = 0;
  secs_diffusive = jobs[0].seconds;
  secs_refine += jobs[0].cd.seconds_refine;
  for (int i = 1; i < njobs; i++) {
    cand_job *j = &jobs[i];
    if (j->kind == JOB_SCRATCH) {
      secs_scratch += j->seconds;
      if (j->skipped)
        continue;
      logf_(&opt,
            "scratch: T_k %.6g, MaxQwgt %.6g (start %.6g) against "
            "the best so far T_k %.6g, MaxQwgt %.6g",
            j->cd.end_time, j->cd.end_max, j->cd.start_max, best.end_time,
            best.end_max);
    } else {
      secs_ladder += j->seconds;
    }
    secs_refine += j->cd.seconds_refine;
    ncandidates++;
    if (is_better(&best, &j->cd, all_avail, old_max)) {
      best = j->cd;
      win = i;
      scratch_used = j->kind == JOB_SCRATCH;
    }
  }
  const int32_t *diff = jobs[win].part;
  if (nviews > 1)
    logf_(&opt, "candidates: %d on %d threads in %.3f s", njobs, nviews,
          secs_candidates);
  /* the winner back in input ids */
  if ((scr = malloc(bytes)) == NULL) {
    rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
    goto done;
  }
  layout_to_input(&lay, diff, scr);
  const int32_t *result = scr;
  candidate *used = &best;
  /* SPEC §3 guarantee: never worse than old when old is feasible. Scored
     from scratch by the evaluator, the same rules as any other tool;
     new_part is written only once nothing can fail any more (a failure
     leaves it untouched). */
  minex_metrics mnew;
  if ((rc = minex_evaluate(g, cfg, old, result, &opt, &mnew)))
    goto done;
  int returned_old = 0;
  if (all_avail && mnew.max_qwgt > old_max) {
    logf_(&opt, "result MaxQwgt %.6g > old %.6g: old partition returned",
          mnew.max_qwgt, old_max);
    result = old;
    if ((rc = minex_evaluate(g, cfg, old, result, &opt, &mnew)))
      goto done;
    returned_old = 1;
    scratch_used = 0;
  }
  memcpy(new_part, result, sizeof(int32_t) * (size_t)n);
  if (metrics) {
    *metrics = mnew;
    metrics->coarse_nvtxs = contract_nvtxs;
    metrics->start_nvtxs = used->coarse_nvtxs;
    metrics->coarse_moves = used->coarse_moves;
    metrics->expand_moves = used->expand_moves;
    metrics->returned_old = returned_old;
    metrics->scratch_used = scratch_used;
    metrics->seconds_contract = secs_diff; /* shared by every candidate */
    metrics->seconds_partition = used->seconds_partition;
    metrics->seconds_expand = used->seconds_expand;
    metrics->seconds = core_wtime() - t0;
    metrics->throttle_used = used->throttle;
    metrics->horizon_used = returned_old ? k : used->horizon;
    metrics->candidates = ncandidates;
    metrics->seconds_diffusive = secs_diffusive;
    metrics->seconds_ladder = secs_ladder;
    metrics->seconds_scratch = secs_scratch;
    metrics->seconds_refine = secs_refine;
    metrics->seconds_candidates = secs_candidates;
    metrics->threads_used = nt;
  }
done:
  for (int t = 1; t < nviews; t++)
    contract_ws_destroy(&views[t]);
  free(views);
  for (int i = 0; jobs != NULL && i < njobs; i++) {
    free(jobs[i].part);
    free(jobs[i].start);
    free(jobs[i].log);
  }
  free(jobs);
  contract_ws_destroy(&ws);
  layout_destroy(&lay);
  free(scr);
  return rc;
}
