/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stage 2 of minex_mpi_repartition (docs/mpi.md "Stage 2"): the diffusive
 * candidate of minex_repartition run on every rank, each holding its home
 * parts: the graph to its home ranks (mx_dist_create), the contraction
 * spread over the ranks, the contracted graph's partition on every rank,
 * the expansion and the balance and refinement passes in synchronous
 * rounds (options.rounds ON), the new owners back to the ranks that gave
 * the rows. No rank holds the whole graph. */
#include "driver/driver.h"
#include "expand/expand.h"
#include "mpi/mpi_dist.h"

#include <stdlib.h>
#include <string.h>

int mx_stage2_applies(const minex_config *cfg, const minex_options *opt) {
  return !opt->paper_exact && opt->rounds == MINEX_ROUNDS_ON &&
         !driver_ladder_wanted(opt) && !driver_scratch_wanted(opt) &&
         cfg->navail == cfg->nprocs;
}

/* Per old part (in part order on the ranks that hold them), what
 * minex_evaluate sums over the vertices besides the loads. */
typedef struct block_sums {
  int64_t moved, stranded, cut_edges, nvol;
  double total_v, cut_weight, sum_pwgt;
} block_sums;

/* The metrics of the result: those of the loads every rank keeps (equal
 * on every rank), the sums over vertices per old part, added in part
 * order: the same figures for any number of ranks (docs/mpi.md: equal to
 * the serial ones up to rounding, which sums in input order). */
static int dist_metrics(mx_comm *c, const mx_dist *d, const contract_ws *w,
                        const costmodel_loads *ld, minex_metrics *m) {
  const minex_config *cfg = ld->cfg;
  int32_t P = cfg->nprocs, n = d->g.nvtxs, nparts = d->phi - d->plo;
  const int64_t *X = d->g.xadj;
  const int32_t *adj = d->g.adjncy;
  /* per part: its sums, then (processor, Rwgt) of its Rwgt moved */
  size_t cap = sizeof(block_sums) * (size_t)nparts + 1;
  for (int32_t x = 0; x < n; x++)
    cap += w->owner[x] != d->old[x] ? 2 * 16 : 0;
  char *mine = malloc(cap), *all = NULL;
  double *vol = calloc((size_t)P + 1, sizeof *vol);
  int64_t *count = calloc((size_t)c->size, sizeof *count);
  if (mine == NULL || vol == NULL || count == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory (metrics)");
  size_t used = 0;
  for (int32_t b = 0; c->rc == MINEX_OK && b < nparts; b++) {
    int64_t lo = d->first[d->plo + b] - d->goff,
            hi = d->first[d->plo + b + 1] - d->goff;
    block_sums s = {0, 0, 0, 0, 0, 0, 0};
    size_t at = used;
    used += sizeof s;
    for (int64_t x = lo; x < hi; x++) {
      int32_t q = w->owner[x], o = d->old[x];
      s.sum_pwgt += d->g.pwgt[x];
      if (q != o) {
        double r = d->g.rwgt[x];
        int64_t e[2][2] = {{q, 0}, {o, 0}};
        memcpy(&e[0][1], &r, 8);
        memcpy(&e[1][1], &r, 8);
        memcpy(mine + used, e, sizeof e);
        used += sizeof e;
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
  int rc = mx_agree(c);
  contract_comm cc;
  mx_contract_comm(c, &cc);
  if (rc == MINEX_OK)
    rc = cc.allgather(cc.ctx, mine, (int64_t)used, (void **)&all, count);
  free(mine);
  if (rc == MINEX_OK) {
    minex_metrics r;
    memset(&r, 0, sizeof r);
    costmodel_metrics_from_loads(ld, &r);
    double u = ld->inv_unit, sum_pwgt = 0;
    r.max_qwgt *= u, r.min_qwgt *= u, r.qwgt_tot *= u;
    r.min_var *= u * u;
    r.max_wgt *= u, r.max_comm *= u, r.max_remap *= u, r.steady_max *= u;
    r.horizon_time *= u;
    int64_t total = 0;
    for (int q = 0; q < c->size; q++)
      total += count[q];
    for (int64_t o = 0; o < total;) {
      block_sums s;
      memcpy(&s, all + o, sizeof s);
      o += (int64_t)sizeof s;
      r.moved += s.moved;
      r.stranded += s.stranded;
      r.cut_edges += s.cut_edges;
      r.total_v += s.total_v;
      r.cut_weight += s.cut_weight;
      sum_pwgt += s.sum_pwgt;
      for (int64_t k = 0; k < s.nvol; k++, o += 16) {
        int64_t p;
        double v;
        memcpy(&p, all + o, 8);
        memcpy(&v, all + o + 8, 8);
        vol[p] += v;
      }
    }
    for (int32_t p = 0; p < P; p++)
      if (cfg->avail[p])
        r.max_v = r.max_v > vol[p] ? r.max_v : vol[p];
    r.lower_bound = r.lower_bound > 0 ? sum_pwgt / r.lower_bound : 0;
    *m = r;
  }
  free(all);
  free(vol);
  free(count);
  return rc;
}

/* The new owners of the layout's vertices back to the ranks that gave
 * them: (input id, owner) pairs. */
static int send_back(mx_comm *c, const int64_t *vtxdist, const mx_dist *d,
                     const contract_ws *w, int32_t *new_part) {
  int size = c->size;
  int32_t n = d->g.nvtxs;
  int64_t *scount = calloc((size_t)size, sizeof *scount);
  int64_t *rcount = calloc((size_t)size, sizeof *rcount);
  int64_t *roff = calloc((size_t)size + 1, sizeof *roff);
  int64_t *pos = calloc((size_t)size + 1, sizeof *pos);
  int64_t *pairs = malloc(16 * (size_t)n + 16);
  char *recv = NULL;
  if (!scount || !rcount || !roff || !pos || !pairs) {
    mx_fail(c, MINEX_ENOMEM, "out of memory returning %d owners", (int)n);
  } else {
    for (int32_t x = 0; x < n; x++)
      scount[mx_rank_of(vtxdist, size, d->input[x])] += 16;
    for (int r = 0; r < size; r++)
      pos[r + 1] = pos[r] + scount[r] / 16;
    for (int32_t x = 0; x < n; x++) {
      int r = mx_rank_of(vtxdist, size, d->input[x]);
      pairs[2 * pos[r]] = d->input[x];
      pairs[2 * pos[r] + 1] = w->owner[x];
      pos[r]++;
    }
  }
  int rc = mx_agree(c);
  if (rc == MINEX_OK)
    rc = mx_exchange(c, (const char *)pairs, scount, &recv, rcount, roff);
  if (rc == MINEX_OK) {
    const int64_t *got = (const int64_t *)(const void *)recv;
    int64_t base = vtxdist[c->rank];
    for (int64_t i = 0; i < roff[size] / 16; i++)
      new_part[got[2 * i] - base] = (int32_t)got[2 * i + 1];
  }
  free(scount), free(rcount), free(roff), free(pos), free(pairs), free(recv);
  return rc;
}

int mx_solve_dist(mx_comm *c, const int64_t *vtxdist, const int64_t *xadj,
                  const int64_t *adjncy, const double *pwgt, const double *rwgt,
                  const double *cwgt, const int32_t *old,
                  const minex_config *cfg, const minex_options *opt_in,
                  int32_t *new_part, minex_metrics *metrics) {
  double t0 = MPI_Wtime();
  minex_options opt = *opt_in;
  int nt = opt.nthreads > 0 ? opt.nthreads : 1;
  opt.nthreads = nt;
  double k = opt.iterations > 1 ? opt.iterations : 1;
  mx_dist d;
  contract_ws w;
  mx_coarse co;
  costmodel_loads ld;
  partition_ctx pcc, pw;
  memset(&w, 0, sizeof w);
  memset(&co, 0, sizeof co);
  memset(&ld, 0, sizeof ld);
  memset(&pcc, 0, sizeof pcc);
  memset(&pw, 0, sizeof pw);
  int have_ld = 0;
  double unit = 1, secs_contract = 0, t1, t2;
  int rc = mx_dist_create(c, vtxdist, xadj, adjncy, pwgt, rwgt, cwgt, old,
                          cfg->nprocs, &d);
  if (rc != MINEX_OK)
    return rc;
  if ((rc = mx_dist_unit(c, &d, cfg, &opt, &unit)) != MINEX_OK)
    goto done;
  /* the contraction's target: contract_start's rule on the whole graph */
  int64_t n = d.gn, target = opt.coarse_target;
  if (target <= 0) {
    target = (int64_t)opt.coarse_per_proc * cfg->navail;
    if (target > n / 4)
      target = n / 4 > 0 ? n / 4 : 1;
  }
  if (target > n)
    target = n;
  contract_comm cc;
  mx_contract_comm(c, &cc);
  t1 = MPI_Wtime();
  rc = contract_ws_create_dist(&w, &d.g, d.old, d.goff, d.gn, d.nghost,
                               d.ghost_gid, d.ghost_rank, &cc);
  if ((rc = cc.agree(cc.ctx, rc)) != MINEX_OK ||
      (rc = contract_run(&w, (int32_t)target, opt.sample_size,
                         (unsigned long)opt.seed, nt)) != MINEX_OK ||
      (rc = mx_dist_coarse(c, &w, &co)) != MINEX_OK)
    goto done;
  secs_contract = MPI_Wtime() - t1;
  /* the diffusive candidate of driver_run_candidate, on every rank */
  rc = contract_freeze(&w);
  if ((rc = cc.agree(cc.ctx, rc)) == MINEX_OK &&
      (rc = mx_dist_loads(c, &d, cfg, &opt, k, unit, &ld)) == MINEX_OK)
    have_ld = 1;
  if (rc != MINEX_OK)
    goto done;
  double old_max = driver_max_qwgt(&ld, k) * ld.inv_unit;
  /* the same state after this point on every rank: a failure below is
     everyone's (memory aside, agreed at the next collective) */
  t2 = MPI_Wtime();
  if ((rc = partition_ctx_create(&pcc, &co.ws, &ld, &opt)) == MINEX_OK)
    rc = partition_ctx_create(&pw, &w, &ld, &opt);
  if ((rc = cc.agree(cc.ctx, rc)) != MINEX_OK)
    goto done;
  /* the coarse phase has no collective: its failures (memory) are agreed
     after it, so that no rank waits in the expansion for one that left */
  if (opt.throttle_auto) {
    double t;
    if ((rc = driver_choose_throttle(&pcc, &opt, &t)) == MINEX_OK)
      pcc.throttle = pw.throttle = opt.throttle = t;
  }
  if (rc == MINEX_OK)
    rc = partition_run(&pcc, opt.max_passes > 0 ? opt.max_passes : 1);
  if ((rc = cc.agree(cc.ctx, rc)) != MINEX_OK)
    goto done;
  int64_t coarse_moves = pcc.moves;
  double secs_partition = MPI_Wtime() - t2;
  mx_dist_from_coarse(&w, &co);
  if ((rc = expand_rounds(&pw, EXPAND_BUDGET)) != MINEX_OK)
    goto done;
  if (driver_balance_wanted(&opt, cfg) &&
      (rc = partition_balance(&pw, MINEX_BALANCE_PASSES)) != MINEX_OK)
    goto done;
  if (driver_refine_wanted(&opt) &&
      (rc = partition_refine(&pw, opt.refine_passes > 0 ? opt.refine_passes
                                                        : 1)) != MINEX_OK)
    goto done;
  /* SPEC §3 guarantee: never worse than old (every processor available
     here), judged on the loads every rank keeps */
  minex_metrics mnew;
  int returned_old = driver_max_qwgt(&ld, k) * ld.inv_unit > old_max;
  if (returned_old)
    for (int32_t x = 0; x < d.g.nvtxs; x++)
      w.owner[x] = d.old[x];
  if (returned_old) { /* the old loads again */
    costmodel_loads_destroy(&ld);
    have_ld = 0;
    if ((rc = mx_dist_loads(c, &d, cfg, &opt, k, unit, &ld)) != MINEX_OK)
      goto done;
    have_ld = 1;
  }
  if ((rc = dist_metrics(c, &d, &w, &ld, &mnew)) != MINEX_OK ||
      (rc = send_back(c, vtxdist, &d, &w, new_part)) != MINEX_OK)
    goto done;
  if (metrics) {
    *metrics = mnew;
    metrics->coarse_nvtxs = co.g.nvtxs;
    metrics->start_nvtxs = co.g.nvtxs;
    metrics->coarse_moves = coarse_moves;
    metrics->expand_moves = pcc.moves + pw.moves - coarse_moves;
    metrics->returned_old = returned_old;
    metrics->seconds_contract = secs_contract;
    metrics->seconds_partition = secs_partition;
    metrics->seconds_expand = MPI_Wtime() - t2 - secs_partition;
    metrics->seconds = MPI_Wtime() - t0;
    metrics->throttle_used = opt.throttle;
    metrics->horizon_used = k;
    metrics->candidates = 1;
    metrics->seconds_diffusive = MPI_Wtime() - t1;
    metrics->threads_used = nt;
  }
done:
  partition_ctx_destroy(&pw);
  partition_ctx_destroy(&pcc);
  if (have_ld)
    costmodel_loads_destroy(&ld);
  mx_coarse_destroy(&co);
  contract_ws_destroy(&w);
  mx_dist_destroy(&d);
  return rc;
}
