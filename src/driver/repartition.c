/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_repartition: contract, partition the contracted graph, expand
 * (SPEC §3, paper §3.1), with the guarantees of SPEC §3. */
#include "driver/bound.h"
#include "driver/driver.h"
#include "driver/layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Contracts g from the old partition (the diffusive candidates) and
 * freezes the contracted graph into ws; *seconds is the wall time. Every
 * candidate shares it (contract_rewind between them; the from-scratch
 * candidate descends to one of its levels). */
static int contract_start(const run_ctx *run, const minex_graph *g,
                          const int32_t *old, contract_ws *ws,
                          double *seconds) {
  const minex_options *opt = &run->opt;
  int32_t n = g->nvtxs;
  double t1 = core_wtime();
  memset(ws, 0, sizeof *ws);
  int rc = contract_ws_create(ws, g, old);
  if (rc != MINEX_OK)
    return rc;
  /* the merged lists serve only the paper's expansion, one merge at a time */
  ws->drop_lists = run->rounds;
  ws->cluster_factor = run->cluster_factor;
  rc = contract_run(ws, (int32_t)run->coarse_target, opt->sample_size,
                    (unsigned long)opt->seed, opt->nthreads);
  if (rc == MINEX_OK)
    rc = contract_freeze(ws);
  *seconds = core_wtime() - t1;
  driver_log(
      opt,
      "contract: %d -> %d vertices in %d levels in %.3f s (sweeps %.3f s, "
      "%.0f ns per merge; levels built in %.3f s; in the chunks' parallel "
      "loops %.3f s, work %.3f s, span %.3f s)",
      (int)n, (int)ws->nactive, (int)ws->nlevels, *seconds, ws->seconds_sweep,
      1e9 * ws->seconds_sweep / (double)(ws->vtot - n > 0 ? ws->vtot - n : 1),
      ws->seconds_levels, ws->par.wall, ws->par.work, ws->par.span);
  return rc;
}

/* One candidate of the call (the candidates run concurrently,
 * each on a view of the shared contraction, and are compared afterwards in
 * this order, so the result is that of running them one after the other).
 * Its log lines are kept and passed on in candidate order: a user's
 * log_fn is never called from two threads. */
typedef enum { JOB_DIFFUSIVE, JOB_LADDER, JOB_SCRATCH } job_kind;

typedef struct cand_job {
  job_kind kind;
  double horizon; /* the horizon the candidate runs under             */
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
    char *b = core_realloc(j->log, cap);
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
    minex_workspace *pool = core_pool_swap(NULL); /* the user's own memory */
    o->log_fn(line, o->log_ctx);
    core_pool_swap(pool);
    p = e + 1;
  }
}

/* Runs job j on the view ws (rewound first), its log kept in the job. */
static void run_job(cand_job *j, const run_ctx *run_in, driver_serial sp,
                    contract_ws *ws) {
  run_ctx run = *run_in;
  if (run.opt.log_fn != NULL) {
    run.opt.log_fn = job_log;
    run.opt.log_ctx = j;
  }
  sp.opt = &run.opt;
  double t = core_wtime();
  contract_rewind(ws);
  if (j->kind == JOB_SCRATCH) {
    j->rc = driver_run_scratch(&run, &sp, ws, j->start, &j->cd, &j->skipped);
  } else {
    cand_layout lay;
    driver_serial_layout(&sp, &lay);
    cand_args a = {ws, ws, NULL, ws->nactive, j->horizon};
    j->rc = candidate_run(&run, &lay, &a, &j->cd);
  }
  if (j->rc == MINEX_OK && !j->skipped)
    memcpy(j->part, ws->owner, sizeof(int32_t) * (size_t)sp.g->nvtxs);
  if (j->rc != MINEX_OK)
    snprintf(j->msg, sizeof j->msg, "%s", minex_last_error());
  else if (j->kind != JOB_SCRATCH)
    driver_log(&run.opt, "%s: k = %g: T_k %.6g, MaxQwgt %.6g",
               j->kind == JOB_LADDER ? "ladder" : "diffusive", j->horizon,
               j->cd.end_time, j->cd.end_max);
  j->seconds = core_wtime() - t;
}

/* One call of minex_repartition: its inputs, the run context, the
 * layout and the shared contraction, the candidates and the choice. */
typedef struct call {
  const minex_graph *g;
  const minex_config *cfg;
  const int32_t *old;
  minex_options opt; /* the caller's, nthreads resolved (the evaluator's) */
  run_ctx run;
  int all_avail; /* every old owner available (SPEC §3 guarantee)   */
  layout lay;    /* g and old renumbered part by part (layout.h)    */
  double unit;   /* every candidate's loads in this unit            */
  contract_ws ws, *views;
  int nviews;
  cand_job *jobs;
  int njobs;
  double secs_contract, secs_candidates;
  /* the choice */
  candidate best;
  int win, scratch_used, ncandidates;
  double secs_diffusive, secs_ladder, secs_scratch, secs_refine;
  core_par par;
} call;

/* The candidates: the diffusive run under k, the ladder's shorter
 * horizons, the from-scratch candidate, each with its partition, and a
 * view of the contraction per thread that runs one. */
static int jobs_create(call *c) {
  size_t bytes = sizeof(int32_t) * ((size_t)c->g->nvtxs + 1);
  int with_scratch = c->run.scratch, nt = c->run.opt.nthreads;
  c->njobs = 1 + c->run.nrungs + (with_scratch ? 1 : 0);
  c->jobs = core_calloc((size_t)c->njobs, sizeof *c->jobs);
  if (c->jobs == NULL)
    return core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
  int rung = 0;
  for (int i = 0; i < c->njobs; i++) {
    cand_job *j = &c->jobs[i];
    j->kind = i == 0                              ? JOB_DIFFUSIVE
              : with_scratch && i == c->njobs - 1 ? JOB_SCRATCH
                                                  : JOB_LADDER;
    j->horizon =
        j->kind == JOB_LADDER ? run_ladder_horizon(c->run.k, rung++) : c->run.k;
    j->part = core_malloc(bytes);
    j->start = j->kind == JOB_SCRATCH ? core_malloc(bytes) : NULL;
    if (j->part == NULL || (j->kind == JOB_SCRATCH && j->start == NULL))
      return core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
  }
  c->nviews = nt < c->njobs ? nt : c->njobs;
  c->views = core_calloc((size_t)c->nviews, sizeof *c->views);
  if (c->views == NULL)
    return core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
  for (int t = 1; t < c->nviews; t++) {
    int rc = contract_view_create(&c->views[t], &c->ws);
    if (rc != MINEX_OK)
      return rc; /* call_destroy destroys every view */
  }
  return MINEX_OK;
}

/* The candidates concurrently on up to nthreads threads, each on a view of
 * the contraction, their logs passed on in candidate order. */
static int jobs_run(call *c) {
  double t = core_wtime();
  minex_workspace *pool = core_pool_current();
  const minex_graph *G = &c->lay.g;
#pragma omp parallel for schedule(dynamic, 1)                                  \
    num_threads(c->nviews) if (c->nviews > 1)
  for (int i = 0; i < c->njobs; i++) {
    int th = core_thread_num();
    minex_workspace *prev = core_pool_swap(pool); /* the call's buffers */
    driver_serial sp = {G, c->cfg, c->lay.old, &c->run.opt, c->unit};
    run_job(&c->jobs[i], &c->run, sp, th == 0 ? &c->ws : &c->views[th]);
    core_pool_swap(prev);
  }
  c->secs_candidates = core_wtime() - t;
  for (int i = 0; i < c->njobs; i++) {
    job_replay(&c->jobs[i], &c->opt);
    if (c->jobs[i].rc != MINEX_OK)
      return core_error(c->jobs[i].rc, "%s", c->jobs[i].msg);
  }
  return MINEX_OK;
}

/* The lower T_k wins (what the application pays over the horizon),
 * provided the guarantee on MaxQwgt holds; ties keep the earlier. The
 * wall time of each kind of candidate, so the phases add up to the call's
 * time; the parallel regions for metrics.seconds_parallel*: the
 * contraction's chunks, one candidate's scans, or the candidates
 * themselves as the units when there are several. */
static void jobs_choose(call *c) {
  const cand_job *jobs = c->jobs;
  double old_max = jobs[0].cd.start_max;
  c->best = jobs[0].cd;
  c->ncandidates = 1;
  c->secs_diffusive = jobs[0].seconds;
  c->secs_refine += jobs[0].cd.seconds_refine;
  for (int i = 1; i < c->njobs; i++) {
    const cand_job *j = &jobs[i];
    if (j->kind == JOB_SCRATCH) {
      c->secs_scratch += j->seconds;
      if (j->skipped)
        continue;
      driver_log(&c->opt,
                 "scratch: T_k %.6g, MaxQwgt %.6g (start %.6g) against "
                 "the best so far T_k %.6g, MaxQwgt %.6g",
                 j->cd.end_time, j->cd.end_max, j->cd.start_max,
                 c->best.end_time, c->best.end_max);
    } else {
      c->secs_ladder += j->seconds;
    }
    c->secs_refine += j->cd.seconds_refine;
    c->ncandidates++;
    if (candidate_better(&c->best, &j->cd, c->all_avail, old_max)) {
      c->best = j->cd;
      c->win = i;
      c->scratch_used = j->kind == JOB_SCRATCH;
    }
  }
  c->par = c->ws.par;
  if (c->njobs == 1) {
    core_par_add(&c->par, &jobs[0].cd.par);
  } else {
    core_par cj = {c->secs_candidates, 0, 0};
    for (int i = 0; i < c->njobs; i++) {
      cj.work += jobs[i].seconds;
      cj.span = jobs[i].seconds > cj.span ? jobs[i].seconds : cj.span;
    }
    core_par_add(&c->par, &cj);
  }
  if (c->nviews > 1)
    driver_log(&c->opt, "candidates: %d on %d threads in %.3f s", c->njobs,
               c->nviews, c->secs_candidates);
}

/* The winner back in input ids, the SPEC §3 guarantee (never worse than
 * old when old is feasible), scored from scratch by the evaluator, the
 * same rules as any other tool. new_part is written only once nothing can
 * fail any more (a failure leaves it untouched). */
static int result_write(call *c, int32_t *new_part, minex_metrics *metrics,
                        double t0) {
  int32_t n = c->g->nvtxs;
  double k = c->run.k, old_max = c->jobs[0].cd.start_max;
  const int32_t *diff = c->jobs[c->win].part;
  int32_t *scr = core_malloc(sizeof(int32_t) * ((size_t)n + 1));
  if (scr == NULL)
    return core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
  layout_to_input(&c->lay, diff, scr);
  const int32_t *result = scr;
  const candidate *used = &c->best;
  minex_metrics mnew;
  int rc = minex_evaluate(c->g, c->cfg, c->old, result, &c->opt, &mnew);
  /* judged on the result's loads summed part by part, the sums old_max
     comes from (and the MPI layer's ranks make): minex_evaluate's, in input
     order, could make a tie within rounding look worse than old */
  int worse = 0;
  if (rc == MINEX_OK && c->all_avail) {
    costmodel_loads lr;
    costmodel_problem pb = {&c->lay.g, c->cfg, c->lay.old, &c->opt, c->unit};
    rc = costmodel_loads_create_runs(&lr, &pb, diff, k);
    if (rc == MINEX_OK) {
      worse = costmodel_max_qwgt_k(&lr, k) * lr.inv_unit > old_max;
      costmodel_loads_destroy(&lr);
    }
  }
  int returned_old = 0;
  if (rc == MINEX_OK && worse) {
    driver_log(&c->opt,
               "result MaxQwgt %.6g > old %.6g: old partition returned",
               mnew.max_qwgt, old_max);
    result = c->old;
    rc = minex_evaluate(c->g, c->cfg, c->old, result, &c->opt, &mnew);
    returned_old = 1;
    c->scratch_used = 0;
  }
  if (rc != MINEX_OK) {
    core_free(scr);
    return rc;
  }
  memcpy(new_part, result, sizeof(int32_t) * (size_t)n);
  core_free(scr);
  if (metrics) {
    *metrics = mnew;
    metrics->coarse_nvtxs = c->ws.frozen_nactive;
    metrics->start_nvtxs = used->coarse_nvtxs;
    metrics->coarse_moves = used->coarse_moves;
    metrics->expand_moves = used->expand_moves;
    metrics->returned_old = returned_old;
    metrics->scratch_used = c->scratch_used;
    metrics->seconds_contract = c->secs_contract; /* every candidate's */
    metrics->seconds_partition = used->seconds_partition;
    metrics->seconds_expand = used->seconds_expand;
    metrics->seconds = core_wtime() - t0;
    metrics->throttle_used = used->throttle;
    metrics->horizon_used = returned_old ? k : used->horizon;
    metrics->candidates = c->ncandidates;
    metrics->seconds_diffusive = c->secs_diffusive;
    metrics->seconds_ladder = c->secs_ladder;
    metrics->seconds_scratch = c->secs_scratch;
    metrics->seconds_refine = c->secs_refine;
    metrics->seconds_candidates = c->secs_candidates;
    metrics->threads_used = c->run.opt.nthreads;
    metrics->seconds_parallel = c->par.wall;
    metrics->seconds_parallel_work = c->par.work;
    metrics->seconds_parallel_span = c->par.span;
  }
  return MINEX_OK;
}

static void call_destroy(call *c) {
  for (int t = 1; t < c->nviews; t++)
    contract_ws_destroy(&c->views[t]);
  core_free(c->views);
  for (int i = 0; c->jobs != NULL && i < c->njobs; i++) {
    core_free(c->jobs[i].part);
    core_free(c->jobs[i].start);
    core_free(c->jobs[i].log);
  }
  core_free(c->jobs);
  contract_ws_destroy(&c->ws);
  layout_destroy(&c->lay);
}

/* minex_repartition without its workspace's start and end. */
static int repartition(const minex_graph *g, const minex_config *cfg,
                       const int32_t *old, const minex_options *options,
                       int32_t *new_part, minex_metrics *metrics) {
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
  call c;
  memset(&c, 0, sizeof c);
  c.g = g;
  c.cfg = cfg;
  c.old = old;
  if (options)
    c.opt = *options;
  else
    minex_options_init(&c.opt);
  int32_t n = g->nvtxs;
  run_init(&c.run, &c.opt, cfg, n, 0);
  int nt = c.run.opt.nthreads;
  c.opt.nthreads = nt;
  c.all_avail = 1;
  for (int32_t v = 0; v < n && c.all_avail; v++)
    c.all_avail = cfg->avail[old[v]];
  c.unit = 1;
  /* the candidates run on the per-part layout: every partition below is
     in its ids until the result is mapped back; the loads' unit found on
     it part by part, what the MPI layer finds on its ranks */
  double tl = core_wtime();
  if ((rc = layout_create(&c.lay, g, old, cfg->nprocs, nt)) == MINEX_OK &&
      (rc = costmodel_unit(&c.lay.g, cfg, c.lay.old, &c.opt, &c.unit)) ==
          MINEX_OK) {
    driver_log(&c.opt, "layout: %d parts in %.3f s on %d threads",
               (int)cfg->nprocs, core_wtime() - tl, nt);
    rc = contract_start(&c.run, &c.lay.g, c.lay.old, &c.ws, &c.secs_contract);
  }
  if (rc == MINEX_OK && (rc = jobs_create(&c)) == MINEX_OK &&
      (rc = jobs_run(&c)) == MINEX_OK) {
    jobs_choose(&c);
    rc = result_write(&c, new_part, metrics, t0);
  }
  call_destroy(&c);
  return rc;
}

/* With a load bound (docs/SPEC.md §3 "Load bounds"): the repartition
 * without it, then the repair and the choice against old. */
static int repartition_bounded(const minex_graph *g, const minex_config *cfg,
                               const int32_t *old, const minex_options *options,
                               int32_t *new_part, minex_metrics *metrics) {
  if (new_part == NULL)
    return core_error(MINEX_EINVAL, "minex_repartition: new_part is NULL");
  if (g != NULL && cfg != NULL) {
    int rc = bound_check("minex_repartition", cfg, options);
    if (rc != MINEX_OK)
      return rc;
  }
  minex_options o;
  bound_strip(options, &o);
  int32_t n = g != NULL ? g->nvtxs : 0;
  int32_t *tmp = core_malloc(sizeof *tmp * ((size_t)n + 1));
  if (tmp == NULL)
    return core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
  minex_metrics m;
  double t0 = core_wtime();
  int rc = repartition(g, cfg, old, &o, tmp, &m);
  if (rc == MINEX_OK)
    rc = bound_apply(g, cfg, old, options, tmp, &m);
  if (rc == MINEX_OK) {
    memcpy(new_part, tmp, sizeof *tmp * (size_t)n);
    m.seconds = core_wtime() - t0;
    if (metrics != NULL)
      *metrics = m;
  }
  core_free(tmp);
  return rc;
}

int minex_repartition(const minex_graph *g, const minex_config *cfg,
                      const int32_t *old, const minex_options *options,
                      int32_t *new_part, minex_metrics *metrics) {
  static const char fn[] = "minex_repartition";
  core_error_clear();
  minex_workspace *ws = options != NULL ? options->workspace : NULL;
  int rc = core_pool_begin(ws, fn);
  if (rc != MINEX_OK)
    return rc;
  minex_workspace *prev = core_pool_swap(ws);
  if (!bound_active(options))
    rc = repartition(g, cfg, old, options, new_part, metrics);
  else
    rc = repartition_bounded(g, cfg, old, options, new_part, metrics);
  core_pool_swap(prev);
  int end = core_pool_end(ws, fn);
  return rc != MINEX_OK ? rc : end;
}
