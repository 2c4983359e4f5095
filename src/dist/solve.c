/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stage 2 of minex_mpi_repartition (docs/design/distributed.md): the diffusive
 * candidate of minex_repartition run on every rank, each holding its home
 * parts: the graph to its home ranks (dist_part_create), the contraction
 * spread over the ranks, the contracted graph's partition on every rank,
 * the expansion and the balance and refinement passes in synchronous
 * rounds (options.rounds ON), the new owners back to the ranks that gave
 * the rows. No rank holds the whole graph. */
#include "dist/dist.h"
#include "driver/driver.h"
#include "expand/expand.h"
#include "scratch/scratch.h"

#include <stdlib.h>
#include <string.h>

/* Per old part (in part order on the ranks that hold them), what
 * minex_evaluate sums over the vertices besides the loads. */
typedef struct block_sums {
  int64_t moved, stranded, cut_edges, nvol;
  double total_v, cut_weight, sum_pwgt;
} block_sums;

/* Old part plo + b's sums into mine + *used, then (processor, Rwgt) of
 * each Rwgt moved. */
static void part_sums(const dist_part *d, const contract_ws *w,
                      const minex_config *cfg, int32_t b, char *mine,
                      size_t *used) {
  int32_t n = d->g.nvtxs;
  const int64_t *X = d->g.xadj;
  const int32_t *adj = d->g.adjncy;
  int64_t lo = d->first[d->plo + b] - d->goff,
          hi = d->first[d->plo + b + 1] - d->goff;
  block_sums s = {0, 0, 0, 0, 0, 0, 0};
  size_t at = *used;
  *used += sizeof s;
  for (int64_t x = lo; x < hi; x++) {
    int32_t q = w->owner[x], o = d->old[x];
    s.sum_pwgt += d->g.pwgt[x];
    if (q != o) {
      double r = d->g.rwgt[x];
      int64_t e[2][2] = {{q, 0}, {o, 0}};
      memcpy(&e[0][1], &r, 8);
      memcpy(&e[1][1], &r, 8);
      memcpy(mine + *used, e, sizeof e);
      *used += sizeof e;
      s.moved++;
      s.nvol += 2;
      s.total_v += r;
    }
    s.stranded += !cfg->avail[q];
    for (int64_t j = X[x]; j < X[x + 1]; j++) {
      int32_t y = adj[j];
      int64_t gy = y < n ? d->goff + y : d->ghost_gid[y - 2 * n];
      if (gy > d->goff + x && w->owner[y] != q) {
        s.cut_edges++;
        s.cut_weight += d->g.cwgt[j];
      }
    }
  }
  memcpy(mine + at, &s, sizeof s);
}

/* Every part's sums (all, total bytes, in part order) into r; each
 * processor's volume into vol. Returns the sum of Pwgt. */
static double sums_add(const char *all, int64_t total, minex_metrics *r,
                       double *vol) {
  double sum_pwgt = 0;
  for (int64_t o = 0; o < total;) {
    block_sums s;
    memcpy(&s, all + o, sizeof s);
    o += (int64_t)sizeof s;
    r->moved += s.moved;
    r->stranded += s.stranded;
    r->cut_edges += s.cut_edges;
    r->total_v += s.total_v;
    r->cut_weight += s.cut_weight;
    sum_pwgt += s.sum_pwgt;
    for (int64_t k = 0; k < s.nvol; k++, o += 16) {
      int64_t p;
      double v;
      memcpy(&p, all + o, 8);
      memcpy(&v, all + o + 8, 8);
      vol[p] += v;
    }
  }
  return sum_pwgt;
}

/* The metrics of the result: those of the loads every rank keeps (equal
 * on every rank), the sums over vertices per old part, added in part
 * order: the same figures for any number of ranks (docs/design/distributed.md:
 * equal to the serial ones up to rounding, which sums in input order). */
static int dist_metrics(dist_ctx *c, const dist_part *d, const contract_ws *w,
                        const costmodel_loads *ld, minex_metrics *m) {
  const minex_config *cfg = ld->cfg;
  int32_t P = cfg->nprocs, n = d->g.nvtxs, nparts = d->phi - d->plo;
  /* per part: its sums, then (processor, Rwgt) of its Rwgt moved */
  size_t cap = sizeof(block_sums) * (size_t)nparts + 1;
  for (int32_t x = 0; x < n; x++)
    cap += w->owner[x] != d->old[x] ? 2 * 16 : 0;
  char *mine = core_malloc(cap), *all = NULL;
  double *vol = core_calloc((size_t)P + 1, sizeof *vol);
  int64_t *count = core_calloc((size_t)c->size, sizeof *count);
  if (mine == NULL || vol == NULL || count == NULL)
    dist_fail(c, MINEX_ENOMEM, "out of memory (metrics)");
  size_t used = 0;
  for (int32_t b = 0; c->rc == MINEX_OK && b < nparts; b++)
    part_sums(d, w, cfg, b, mine, &used);
  int rc = dist_agree(c);
  const dist_comm *cc = c->cm;
  if (rc == MINEX_OK)
    rc = cc->allgather(cc->ctx, rc, mine, (int64_t)used, -1, (void **)&all,
                       count);
  core_free(mine);
  if (rc == MINEX_OK) {
    minex_metrics r;
    memset(&r, 0, sizeof r);
    costmodel_metrics_from_loads(ld, &r);
    double u = ld->inv_unit;
    r.max_qwgt *= u, r.min_qwgt *= u, r.qwgt_tot *= u;
    r.min_var *= u * u;
    r.max_wgt *= u, r.max_comm *= u, r.max_remap *= u, r.steady_max *= u;
    r.horizon_time *= u;
    int64_t total = 0;
    for (int q = 0; q < c->size; q++)
      total += count[q];
    double sum_pwgt = sums_add(all, total, &r, vol);
    for (int32_t p = 0; p < P; p++)
      if (cfg->avail[p])
        r.max_v = r.max_v > vol[p] ? r.max_v : vol[p];
    r.lower_bound = r.lower_bound > 0 ? sum_pwgt / r.lower_bound : 0;
    /* the same figures on every rank, so every rank fails alike */
    double val;
    const char *bad = costmodel_metrics_nonfinite(&r, &val);
    if (bad != NULL)
      dist_fail(c, MINEX_EINVAL,
                "the result's %s is %g, not a finite number: the weights are "
                "too large (their sums overflow)",
                bad, val);
    else
      *m = r;
    rc = dist_agree(c);
  }
  core_free(all);
  core_free(vol);
  core_free(count);
  return rc;
}

/* The new owners of the layout's vertices back to the ranks that gave
 * them: (input id, owner) pairs. */
static int send_back(dist_ctx *c, const int64_t *vtxdist, const dist_part *d,
                     const contract_ws *w, int32_t *new_part) {
  int size = c->size;
  int32_t n = d->g.nvtxs;
  int64_t *scount = core_calloc((size_t)size, sizeof *scount);
  int64_t *rcount = core_calloc((size_t)size, sizeof *rcount);
  int64_t *roff = core_calloc((size_t)size + 1, sizeof *roff);
  int64_t *pos = core_calloc((size_t)size + 1, sizeof *pos);
  int64_t *pairs = core_malloc(16 * (size_t)n + 16);
  char *recv = NULL;
  if (!scount || !rcount || !roff || !pos || !pairs) {
    dist_fail(c, MINEX_ENOMEM, "out of memory returning %d owners", (int)n);
  } else {
    for (int32_t x = 0; x < n; x++)
      scount[dist_rank_of(vtxdist, size, d->input[x])] += 16;
    for (int r = 0; r < size; r++)
      pos[r + 1] = pos[r] + scount[r] / 16;
    for (int32_t x = 0; x < n; x++) {
      int r = dist_rank_of(vtxdist, size, d->input[x]);
      pairs[2 * pos[r]] = d->input[x];
      pairs[2 * pos[r] + 1] = w->owner[x];
      pos[r]++;
    }
  }
  int rc = dist_agree(c);
  if (rc == MINEX_OK)
    rc = dist_exchange(c, (const char *)pairs, scount, &recv, rcount, roff);
  if (rc == MINEX_OK) {
    const int64_t *got = (const int64_t *)(const void *)recv;
    int64_t base = vtxdist[c->rank];
    for (int64_t i = 0; i < roff[size] / 16; i++)
      new_part[got[2 * i] - base] = (int32_t)got[2 * i + 1];
  }
  core_free(scount), core_free(rcount), core_free(roff), core_free(pos),
      core_free(pairs), core_free(recv);
  return rc;
}

/* The layout of stage 2 (cand_layout): the graph on its home ranks, the
 * contracted graph gathered on every rank. */
typedef struct solve_layout {
  dist_ctx *c;
  const dist_part *d;
  dist_model m;
  contract_ws *w;
  dist_coarse *co;
} solve_layout;

static int solve_loads(void *ctx, const int32_t *start, double h,
                       costmodel_loads *ld) {
  solve_layout *l = ctx;
  return start ? dist_loads_part(l->c, l->d, &l->m, h, start, ld)
               : dist_loads_old(l->c, l->d, &l->m, h, ld);
}

static int solve_agree(void *ctx, int rc) {
  return dist_agree_rc(((solve_layout *)ctx)->c, rc);
}

static void solve_from_coarse(void *ctx) {
  solve_layout *l = ctx;
  dist_from_coarse(l->w, l->co);
}

static void solve_layout_init(solve_layout *l, cand_layout *lay) {
  memset(lay, 0, sizeof *lay);
  lay->loads = solve_loads;
  lay->agree = solve_agree;
  lay->from_coarse = solve_from_coarse;
  lay->ctx = l;
  lay->log = l->c->rank == 0;
}

/* The diffusive candidate under horizon h on every rank: the contracted
 * graph's partition on its gathered copy, the fine phases on the ranks. */
static int dist_candidate(const run_ctx *run, solve_layout *l, double h,
                          candidate *cd) {
  contract_rewind(l->w);
  contract_rewind(&l->co->ws);
  cand_layout lay;
  solve_layout_init(l, &lay);
  cand_args a = {l->w, &l->co->ws, NULL, l->co->g.nvtxs, h};
  return candidate_run(run, &lay, &a, cd);
}

/* The from-scratch candidate (driver_run_scratch) spread over the ranks:
 * the level Scotch partitions gathered (at most 32,768 vertices), Scotch
 * on rank 0, its parts to every rank; each rank's vertices of level s2 and
 * their ghosts take the part of their level-s vertex, then the rule runs
 * from level s2 in rounds (the serial library does the same under rounds
 * = ON), the expansion, the forced sweep and the passes as for the other
 * candidates. *skipped: Scotch failed on rank 0 (every rank learns it);
 * the call goes on without the candidate, as minex_repartition does. */
static int dist_scratch(const run_ctx *run, solve_layout *l, candidate *cd,
                        int *skipped) {
  dist_ctx *c = l->c;
  const dist_part *d = l->d;
  contract_ws *w = l->w;
  const minex_options *opt = &run->opt;
  double t0 = core_wtime();
  int32_t n = d->g.nvtxs, s, s2;
  memset(cd, 0, sizeof *cd);
  cd->horizon = run->k;
  *skipped = 0;
  contract_rewind(w);
  driver_scratch_levels(w, d->gn, &s, &s2);
  dist_coarse lv;
  int rc = dist_gather_level(c, w, s, &lv);
  if (rc != MINEX_OK)
    return rc;
  const contract_level *S = &w->lv[s], *S2 = &w->lv[s2];
  int32_t ns = lv.g.nvtxs;
  int32_t *part_s = core_malloc(sizeof *part_s * ((size_t)ns + 1));
  int32_t *rep = core_malloc(sizeof *rep * ((size_t)n + 1));
  int32_t *rep2 = core_malloc(sizeof *rep2 * ((size_t)n + 1));
  int32_t *start = core_malloc(sizeof *start * (2 * (size_t)n + d->nghost + 1));
  int status[2] = {MINEX_OK, 0}; /* Scotch's code on rank 0, skipped */
  if (!part_s || !rep || !rep2 || !start)
    dist_fail(c, MINEX_ENOMEM, "out of memory (from-scratch candidate)");
  if ((rc = dist_agree(c)) != MINEX_OK)
    goto done;
  if (c->rank == 0) { /* Scotch where the serial library runs it */
    minex_graph *gs = NULL;
    int32_t *old_s = NULL;
    int r = contract_csr_graph(ns, lv.g.xadj, lv.g.adjncy, lv.g.cwgt, lv.at,
                               &gs, &old_s);
    if (r == MINEX_OK && (r = scratch_partition(gs, l->m.cfg, old_s, opt->seed,
                                                part_s)) != MINEX_OK) {
      driver_log(opt, "scratch: skipped: %s", minex_last_error());
      status[1] = 1;
      r = MINEX_OK;
    }
    status[0] = r;
    if (r != MINEX_OK)
      dist_fail(c, r, "%s", minex_last_error());
    minex_graph_destroy(gs);
    core_free(old_s);
  }
  /* the others wait without taking rank 0's core */
  if ((rc = dist_idle_barrier(c)) != MINEX_OK ||
      (rc = dist_agree(c)) != MINEX_OK ||
      (rc = dist_bcast(c, status, sizeof status, 0)) != MINEX_OK)
    goto done;
  if (status[1]) {
    *skipped = 1;
    goto done;
  }
  if ((rc = dist_bcast(c, part_s, 4 * (int64_t)ns, 0)) != MINEX_OK)
    goto done;
  /* the start partition: every fine vertex and ghost on the Scotch part of
     its level-s vertex; level s2's vertices and ghosts likewise */
  if ((rc = contract_level_reps(w, s, rep)) == MINEX_OK)
    rc = contract_level_reps(w, s2, rep2);
  if ((rc = dist_agree_rc(c, rc)) != MINEX_OK)
    goto done;
  for (int32_t v = 0; v < n; v++)
    start[v] = start[n + v] = part_s[S->goff + rep[v]];
  for (int32_t g = 0; g < d->nghost; g++)
    start[2 * n + g] = part_s[S->ghost_gid[contract_ghost_up(w, 0, s, g)]];
  contract_descend(w, s2);
  int32_t nb2 = S2->nbase;
  for (int32_t v = 0; v < n; v++)
    w->owner[rep2[v]] = start[v];
  for (int32_t g = 0; g < S2->nghost; g++)
    w->owner[2 * nb2 + g] =
        part_s[S->ghost_gid[contract_ghost_up(w, s2, s, g)]];
  memset(w->interior, 0, (size_t)nb2);
  /* the rule from level s2 in rounds, spread over the ranks (the serial
     library's under rounds = ON), throttle_auto's trials included */
  cand_layout lay;
  solve_layout_init(l, &lay);
  cand_args a = {w, w, start, S2->gnbase, run->k};
  rc = candidate_run(run, &lay, &a, cd);
done:
  dist_coarse_destroy(&lv);
  core_free(part_s), core_free(rep), core_free(rep2), core_free(start);
  cd->seconds = core_wtime() - t0;
  return rc;
}

/* The owners of w's level-0 vertices and ghosts (local ids 0..n-1 and
 * 2n..2n+nghost-1) to or from keep. */
static void owners_copy(contract_ws *w, const dist_part *d, int32_t *keep,
                        int save) {
  int32_t n = d->g.nvtxs;
  int32_t *own = w->owner;
  if (save) {
    memcpy(keep, own, sizeof *keep * (size_t)n);
    memcpy(keep + n, own + 2 * (size_t)n, sizeof *keep * (size_t)d->nghost);
  } else {
    memcpy(own, keep, sizeof *keep * (size_t)n);
    memcpy(own + 2 * (size_t)n, keep + n, sizeof *keep * (size_t)d->nghost);
  }
}

/* minex_repartition's choice (candidate_better): cd, its owners in w,
 * replaces the best so far when it is the first or better; the winner's
 * owners go to keep. Returns whether cd won. */
static int keep_better(candidate *best, int *have_best, const candidate *cd,
                       int all_avail, double old_max, const solve_layout *l,
                       int32_t *keep) {
  int won = !*have_best || candidate_better(best, cd, all_avail, old_max);
  if (won) {
    *have_best = 1;
    *best = *cd;
    owners_copy(l->w, l->d, keep, 1);
  }
  return won;
}

/* The phases of stage 2 for the log: the counters at each phase's end. */
#define NPHASE 4
typedef struct phase_marks {
  int64_t bytes[NPHASE + 1], messages[NPHASE + 1];
  double secs[NPHASE + 1];
  int n;
} phase_marks;

static void phase_mark(const dist_ctx *c, phase_marks *pm, double t0) {
  if (pm->n > NPHASE)
    return;
  dist_sent(c, &pm->bytes[pm->n], &pm->messages[pm->n]);
  pm->secs[pm->n++] = core_wtime() - t0;
}

/* The candidates' figures as minex_repartition reports them. */
typedef struct solve_tally {
  candidate best;
  double old_max; /* MaxQwgt of the old partition under k            */
  double secs_diffusive, secs_ladder, secs_scratch, secs_refine;
  double secs_candidates;
  int ncand, scratch_used;
  core_par par;                    /* the parallel regions           */
  int64_t nrounds, ntries, nrank0; /* the rounds' execution          */
} solve_tally;

/* The candidates of minex_repartition, one after the other on every rank,
 * compared in its order: the diffusive run under k, the ladder's shorter
 * horizons, the from-scratch candidate last (the lower T_k wins, the
 * MaxQwgt guarantee kept); the winner's owners in keep. */
static int solve_candidates(const run_ctx *run, solve_layout *l, int all_avail,
                            int32_t *keep, solve_tally *T) {
  /* the candidates of minex_repartition, one after the other on every
     rank, compared in its order: the diffusive run under k, the ladder's
     shorter horizons (the lower T_k wins, the MaxQwgt guarantee kept) */
  const minex_options *opt = &run->opt;
  double k = run->k;
  memset(T, 0, sizeof *T);
  candidate cd;
  int have_best = 0, rc = MINEX_OK;
  double t_cand = core_wtime();
  int njobs = 0;
  /* the candidates' parallel regions as minex_repartition counts them: one
     candidate's scans, or the candidates themselves as the units */
  core_par par_one = {0, 0, 0}, par_jobs = {0, 0, 0};
  for (int j = 0; j <= run->nrungs; j++) {
    double h = j == 0 ? k : run_ladder_horizon(k, j - 1);
    if ((rc = dist_candidate(run, l, h, &cd)) != MINEX_OK)
      return rc;
    T->ncand++, njobs++;
    T->nrounds += cd.rounds, T->ntries += cd.tries, T->nrank0 += cd.rank0;
    T->secs_refine += cd.seconds_refine;
    par_one = cd.par;
    par_jobs.work += cd.seconds;
    par_jobs.span = cd.seconds > par_jobs.span ? cd.seconds : par_jobs.span;
    if (j == 0) {
      T->old_max = cd.start_max;
      T->secs_diffusive = cd.seconds;
    } else {
      T->secs_ladder += cd.seconds;
      driver_log(opt, "ladder: k = %g: T_k %.6g, MaxQwgt %.6g", h, cd.end_time,
                 cd.end_max);
    }
    keep_better(&T->best, &have_best, &cd, all_avail, T->old_max, l, keep);
  }
  /* the from-scratch candidate last, as in minex_repartition */
  if (run->scratch) {
    int skipped;
    rc = dist_scratch(run, l, &cd, &skipped);
    T->secs_scratch = cd.seconds;
    if (rc != MINEX_OK)
      return rc;
    njobs++;
    T->nrounds += cd.rounds, T->ntries += cd.tries, T->nrank0 += cd.rank0;
    par_jobs.work += cd.seconds;
    par_jobs.span = cd.seconds > par_jobs.span ? cd.seconds : par_jobs.span;
    if (!skipped) {
      T->ncand++;
      T->secs_refine += cd.seconds_refine;
      driver_log(opt,
                 "scratch: T_k %.6g, MaxQwgt %.6g (start %.6g) against "
                 "the best so far T_k %.6g, MaxQwgt %.6g",
                 cd.end_time, cd.end_max, cd.start_max, T->best.end_time,
                 T->best.end_max);
      T->scratch_used = keep_better(&T->best, &have_best, &cd, all_avail,
                                    T->old_max, l, keep);
    }
  }
  T->secs_candidates = core_wtime() - t_cand;
  T->par = l->w->par; /* this rank's chunks of the contraction */
  par_jobs.wall = T->secs_candidates;
  core_par_add(&T->par, njobs == 1 ? &par_one : &par_jobs);
  return MINEX_OK;
}

/* Whether every old owner is available (SPEC §3 guarantee): no part with
 * vertices on an unavailable processor. */
static int old_owners_available(const dist_part *d, const minex_config *cfg) {
  for (int32_t p = 0; p < cfg->nprocs; p++)
    if (d->first[p + 1] > d->first[p] && !cfg->avail[p])
      return 0;
  return 1;
}

/* What dist_solve's report needs besides the candidates' tally. */
typedef struct solve_figs {
  double secs_contract, t0, k;
  int64_t coarse_nvtxs;
  int nthreads, returned_old;
} solve_figs;

/* The rounds' log line and the metrics: mnew's figures of the result, the
 * kept candidate's counts, and the times of the slowest rank, so that the
 * metrics are the same on every rank. Collective. */
static int solve_report(dist_ctx *c, const minex_options *opt,
                        const solve_tally *T, const solve_figs *f,
                        const minex_metrics *mnew, minex_metrics *metrics) {
  if (c->rank == 0)
    driver_log(opt,
               "rounds: %lld with proposals (every candidate), %lld executed "
               "by the ranks (%lld speculation tries), %lld by rank 0",
               (long long)T->nrounds, (long long)(T->nrounds - T->nrank0),
               (long long)T->ntries, (long long)T->nrank0);
  /* the times of the slowest rank, so that the metrics are the same on
     every rank (each rank's own: its share of the contraction and of the
     scans; a rank home to no part has none) */
  enum {
    T_CONTRACT,
    T_PART,
    T_EXPAND,
    T_DIFF,
    T_LADDER,
    T_SCRATCH,
    T_REFINE,
    T_CAND,
    T_PAR,
    T_WORK,
    T_SPAN,
    T_ALL,
    NT
  };
  double tin[NT] = {f->secs_contract,
                    T->best.seconds_partition,
                    T->best.seconds_expand,
                    T->secs_diffusive,
                    T->secs_ladder,
                    T->secs_scratch,
                    T->secs_refine,
                    T->secs_candidates,
                    T->par.wall,
                    T->par.work,
                    T->par.span,
                    core_wtime() - f->t0},
         tmax[NT];
  int rc = dist_allreduce(c, tin, tmax, NT, DIST_F64, DIST_MAX);
  if (rc != MINEX_OK)
    return rc;
  if (metrics) {
    *metrics = *mnew;
    metrics->coarse_nvtxs = f->coarse_nvtxs;
    metrics->start_nvtxs = T->best.coarse_nvtxs; /* the kept candidate's */
    metrics->scratch_used = T->scratch_used && !f->returned_old;
    metrics->seconds_scratch = tmax[T_SCRATCH];
    metrics->coarse_moves = T->best.coarse_moves;
    metrics->expand_moves = T->best.expand_moves;
    metrics->returned_old = f->returned_old;
    metrics->seconds_contract = tmax[T_CONTRACT];
    metrics->seconds_partition = tmax[T_PART];
    metrics->seconds_expand = tmax[T_EXPAND];
    metrics->seconds = tmax[T_ALL];
    metrics->throttle_used = T->best.throttle;
    metrics->horizon_used = f->returned_old ? f->k : T->best.horizon;
    metrics->candidates = T->ncand;
    metrics->seconds_diffusive = tmax[T_DIFF];
    metrics->seconds_ladder = tmax[T_LADDER];
    metrics->seconds_refine = tmax[T_REFINE];
    metrics->seconds_candidates = tmax[T_CAND];
    metrics->threads_used = f->nthreads;
    metrics->seconds_parallel = tmax[T_PAR];
    metrics->seconds_parallel_work = tmax[T_WORK];
    metrics->seconds_parallel_span = tmax[T_SPAN];
  }
  return MINEX_OK;
}

/* Collective: each phase's bytes and messages summed over the ranks, its
 * time on the slowest rank, in one line of rank 0's log. */
static int phase_log(dist_ctx *c, const phase_marks *pm,
                     const minex_options *opt) {
  int64_t in[2 * NPHASE], sum[2 * NPHASE];
  double tin[NPHASE], tmax[NPHASE];
  for (int i = 0; i < NPHASE; i++) {
    in[i] = pm->bytes[i + 1] - pm->bytes[i];
    in[NPHASE + i] = pm->messages[i + 1] - pm->messages[i];
    tin[i] = pm->secs[i + 1] - pm->secs[i];
  }
  int rc = dist_allreduce(c, in, sum, 2 * NPHASE, DIST_I64, DIST_SUM);
  if (rc == MINEX_OK)
    rc = dist_allreduce(c, tin, tmax, NPHASE, DIST_F64, DIST_MAX);
  if (rc == MINEX_OK && c->rank == 0)
    driver_log(opt,
               "stage 2 on %d ranks: graph to home ranks %.3f s (%lld "
               "bytes, %lld messages), contraction %.3f s (%lld, %lld), "
               "candidates %.3f s (%lld, %lld), metrics and owners back "
               "%.3f s (%lld, %lld)",
               c->size, tmax[0], (long long)sum[0], (long long)sum[4], tmax[1],
               (long long)sum[1], (long long)sum[5], tmax[2], (long long)sum[2],
               (long long)sum[6], tmax[3], (long long)sum[3],
               (long long)sum[7]);
  return rc;
}

int dist_solve(dist_ctx *c, const dist_input *in, const minex_config *cfg,
               const minex_options *opt_in, int32_t *new_part,
               minex_metrics *metrics) {
  const int64_t *vtxdist = in->vtxdist;
  double t0 = core_wtime();
  dist_part d;
  contract_ws w;
  dist_coarse co;
  costmodel_loads best_ld;
  memset(&w, 0, sizeof w);
  memset(&co, 0, sizeof co);
  memset(&best_ld, 0, sizeof best_ld);
  int have_ld = 0;
  int32_t *keep = NULL;
  double unit = 1, secs_contract = 0, t1;
  /* per phase (distribute, contract, candidates, results): this rank's
     bytes and messages sent and its seconds, at the phase's end */
  phase_marks pm = {{0}, {0}, {0}, 0};
  phase_mark(c, &pm, t0);
  int rc = dist_part_create(c, in, cfg->nprocs, &d);
  if (rc != MINEX_OK)
    return rc;
  run_ctx run;
  run_init(&run, opt_in, cfg, d.gn, 1);
  const minex_options *opt = &run.opt;
  int nt = opt->nthreads;
  double k = run.k;
  if ((rc = dist_unit(c, &d, cfg, opt, &unit)) != MINEX_OK)
    goto done;
  int all_avail = old_owners_available(&d, cfg);
  const dist_comm *cc = c->cm;
  phase_mark(c, &pm, t0);
  t1 = core_wtime();
  rc = contract_ws_create_dist(&w, &d, cc);
  w.drop_lists = 1; /* the expansion is in rounds */
  w.cluster_factor = run.cluster_factor;
  if ((rc = cc->agree(cc->ctx, rc)) != MINEX_OK ||
      (rc = contract_run(&w, (int32_t)run.coarse_target, opt->sample_size,
                         (unsigned long)opt->seed, nt)) != MINEX_OK ||
      (rc = dist_gather_coarse(c, &w, &co)) != MINEX_OK)
    goto done;
  secs_contract = core_wtime() - t1;
  rc = contract_freeze(&w);
  keep = core_malloc(sizeof *keep * ((size_t)d.g.nvtxs + (size_t)d.nghost + 1));
  if (rc == MINEX_OK && keep == NULL)
    rc = core_error(MINEX_ENOMEM, "out of memory (%d owners)", (int)d.g.nvtxs);
  if ((rc = cc->agree(cc->ctx, rc)) != MINEX_OK)
    goto done;
  phase_mark(c, &pm, t0);
  solve_layout l = {c, &d, {cfg, opt, unit}, &w, &co};
  solve_tally T;
  if ((rc = solve_candidates(&run, &l, all_avail, keep, &T)) != MINEX_OK)
    goto done;
  owners_copy(&w, &d, keep, 0);
  phase_mark(c, &pm, t0);
  /* the kept partition scored from scratch under the call's horizon, as
     minex_repartition scores its result (minex_evaluate): a candidate's
     loads are running sums of its moves' deltas, and their rounding can
     leave a processor that lost every vertex at -1e-14 (a Qwgt below 0,
     which the cost model refuses, a NaN SteadyMax). Summed part by part,
     the figures are the same for any number of ranks. */
  if ((rc = dist_loads_part(c, &d, &l.m, k, w.owner, &best_ld)) != MINEX_OK)
    goto done;
  have_ld = 1;
  /* SPEC §3 guarantee: never worse than old when every old owner is
     available */
  minex_metrics mnew;
  int returned_old =
      all_avail &&
      costmodel_max_qwgt_k(&best_ld, k) * best_ld.inv_unit > T.old_max;
  if (returned_old) { /* the old owners and loads again */
    /* the ghosts' too: the cut and the sums per old part read them */
    dist_old_owners(&d, w.owner);
    costmodel_loads_destroy(&best_ld);
    have_ld = 0;
    if ((rc = dist_loads_old(c, &d, &l.m, k, &best_ld)) != MINEX_OK)
      goto done;
    have_ld = 1;
  }
  if ((rc = dist_metrics(c, &d, &w, &best_ld, &mnew)) != MINEX_OK ||
      (rc = send_back(c, vtxdist, &d, &w, new_part)) != MINEX_OK)
    goto done;
  phase_mark(c, &pm, t0);
  if ((rc = phase_log(c, &pm, opt)) != MINEX_OK)
    goto done;
  solve_figs f = {secs_contract, t0, k, co.g.nvtxs, nt, returned_old};
  rc = solve_report(c, opt, &T, &f, &mnew, metrics);
done:
  if (have_ld)
    costmodel_loads_destroy(&best_ld);
  core_free(keep);
  dist_coarse_destroy(&co);
  contract_ws_destroy(&w);
  dist_part_destroy(&d);
  return rc;
}
