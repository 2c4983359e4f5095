/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_repartition: contract, partition the contracted graph, expand
 * (SPEC §3, paper §3.1), with the guarantees of SPEC §3. */
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
  else if (j->kind == JOB_LADDER)
    driver_log(&run.opt, "ladder: k = %g: T_k %.6g, MaxQwgt %.6g", j->horizon,
               j->cd.end_time, j->cd.end_max);
  j->seconds = core_wtime() - t;
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
  minex_options opt;
  if (options)
    opt = *options;
  else
    minex_options_init(&opt);
  int32_t n = g->nvtxs;
  run_ctx run;
  run_init(&run, &opt, cfg, n, 0);
  int nt = run.opt.nthreads;
  opt.nthreads = nt; /* resolved: the evaluator reads it */
  int all_avail = 1;
  for (int32_t v = 0; v < n && all_avail; v++)
    all_avail = cfg->avail[old[v]];
  size_t bytes = sizeof(int32_t) * ((size_t)n + 1);
  double k = run.k;
  int32_t *scr = NULL;
  contract_ws ws, *views = NULL;
  memset(&ws, 0, sizeof ws);
  layout lay;
  memset(&lay, 0, sizeof lay);
  cand_job *jobs = NULL;
  int njobs = 0, nviews = 0;
  double secs_diff = 0, t_run = 0, unit = 1, secs_candidates = 0;
  /* wall time of each kind of candidate, so the phases add up to the
     call's time */
  double secs_diffusive = 0, secs_ladder = 0, secs_scratch = 0, secs_refine = 0;
  int32_t contract_nvtxs = 0, ncandidates = 1;
  /* every candidate's loads in one unit that keeps them near 1 */
  /* the candidates run on the per-part layout (layout.h): G and O are g
     and old renumbered, every partition below is in its ids until the
     result is mapped back */
  double tl = core_wtime();
  if ((rc = layout_create(&lay, g, old, cfg->nprocs, nt)))
    goto done;
  const minex_graph *G = &lay.g;
  const int32_t *O = lay.old;
  /* on the layout, part by part: what the MPI layer finds on its ranks */
  if ((rc = costmodel_unit(G, cfg, O, &opt, &unit)))
    goto done;
  driver_log(&opt, "layout: %d parts in %.3f s on %d threads", (int)cfg->nprocs,
             core_wtime() - tl, nt);
  if ((rc = contract_start(&run, G, O, &ws, &secs_diff)))
    goto done;
  contract_nvtxs = ws.nactive;
  /* the candidates: the diffusive run under k, the ladder's shorter
     horizons, the from-scratch candidate; concurrently on up to nt
     threads, each on a view of the contraction, compared in this order */
  int with_scratch = run.scratch;
  njobs = 1 + run.nrungs + (with_scratch ? 1 : 0);
  jobs = core_calloc((size_t)njobs, sizeof *jobs);
  if (jobs == NULL) {
    rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
    goto done;
  }
  int rung = 0;
  for (int i = 0; i < njobs; i++) {
    cand_job *j = &jobs[i];
    j->kind = i == 0                           ? JOB_DIFFUSIVE
              : with_scratch && i == njobs - 1 ? JOB_SCRATCH
                                               : JOB_LADDER;
    j->horizon = j->kind == JOB_LADDER ? run_ladder_horizon(k, rung++) : k;
    j->part = core_malloc(bytes);
    j->start = j->kind == JOB_SCRATCH ? core_malloc(bytes) : NULL;
    if (j->part == NULL || (j->kind == JOB_SCRATCH && j->start == NULL)) {
      rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
      goto done;
    }
  }
  nviews = nt < njobs ? nt : njobs;
  views = core_calloc((size_t)nviews, sizeof *views);
  if (views == NULL) {
    rc = core_error(MINEX_ENOMEM, "minex_repartition: out of memory");
    goto done;
  }
  for (int t = 1; t < nviews; t++)
    if ((rc = contract_view_create(&views[t], &ws)) != MINEX_OK)
      goto done;
  t_run = core_wtime();
  minex_workspace *pool = core_pool_current();
#pragma omp parallel for schedule(dynamic, 1)                                  \
    num_threads(nviews) if (nviews > 1)
  for (int i = 0; i < njobs; i++) {
    int t = core_thread_num();
    minex_workspace *prev = core_pool_swap(pool); /* the call's buffers */
    driver_serial sp = {G, cfg, O, &run.opt, unit};
    run_job(&jobs[i], &run, sp, t == 0 ? &ws : &views[t]);
    core_pool_swap(prev);
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
      driver_log(&opt,
                 "scratch: T_k %.6g, MaxQwgt %.6g (start %.6g) against "
                 "the best so far T_k %.6g, MaxQwgt %.6g",
                 j->cd.end_time, j->cd.end_max, j->cd.start_max, best.end_time,
                 best.end_max);
    } else {
      secs_ladder += j->seconds;
    }
    secs_refine += j->cd.seconds_refine;
    ncandidates++;
    if (candidate_better(&best, &j->cd, all_avail, old_max)) {
      best = j->cd;
      win = i;
      scratch_used = j->kind == JOB_SCRATCH;
    }
  }
  /* the parallel regions, for metrics.seconds_parallel*: the contraction's
     chunks; one candidate's scans, or the candidates themselves as the
     units when there are several (their scans then run within them) */
  core_par par = ws.par;
  if (njobs == 1) {
    core_par_add(&par, &jobs[0].cd.par);
  } else {
    core_par cj = {secs_candidates, 0, 0};
    for (int i = 0; i < njobs; i++) {
      cj.work += jobs[i].seconds;
      cj.span = jobs[i].seconds > cj.span ? jobs[i].seconds : cj.span;
    }
    core_par_add(&par, &cj);
  }
  const int32_t *diff = jobs[win].part;
  if (nviews > 1)
    driver_log(&opt, "candidates: %d on %d threads in %.3f s", njobs, nviews,
               secs_candidates);
  /* the winner back in input ids */
  if ((scr = core_malloc(bytes)) == NULL) {
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
  /* judged on the result's loads summed part by part, the sums old_max
     comes from (and the MPI layer's ranks make): minex_evaluate's, in input
     order, could make a tie within rounding look worse than old */
  int worse = 0;
  if (all_avail) {
    costmodel_loads lr;
    if ((rc = costmodel_loads_create_runs(&lr, G, cfg, O, diff, &opt, k, unit)))
      goto done;
    worse = costmodel_max_qwgt_k(&lr, k) * lr.inv_unit > old_max;
    costmodel_loads_destroy(&lr);
  }
  int returned_old = 0;
  if (worse) {
    driver_log(&opt, "result MaxQwgt %.6g > old %.6g: old partition returned",
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
    metrics->seconds_parallel = par.wall;
    metrics->seconds_parallel_work = par.work;
    metrics->seconds_parallel_span = par.span;
  }
done:
  for (int t = 1; t < nviews; t++)
    contract_ws_destroy(&views[t]);
  core_free(views);
  for (int i = 0; jobs != NULL && i < njobs; i++) {
    core_free(jobs[i].part);
    core_free(jobs[i].start);
    core_free(jobs[i].log);
  }
  core_free(jobs);
  contract_ws_destroy(&ws);
  layout_destroy(&lay);
  core_free(scr);
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
  rc = repartition(g, cfg, old, options, new_part, metrics);
  core_pool_swap(prev);
  int end = core_pool_end(ws, fn);
  return rc != MINEX_OK ? rc : end;
}
