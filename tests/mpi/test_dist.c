/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stage 2 of the MPI layer (docs/design/distributed.md) under mpiexec -n 1, 2,
 * 3, 4 (ctest test_dist_nN), against the serial kernel that every rank
 * also runs on the whole graph:
 * - dist_part_create: each rank holds its home parts (p * size / nparts) in
 *   the serial per-part layout (layout_create): the same layout ids,
 *   weights, old parts and rows (order and Cwgt), ghosts named by layout
 *   id and home rank;
 * - contract_run on contract_ws_create_dist: level by level the merges of
 *   the serial contract_run on the whole graph (children, records, merged
 *   lists), this rank's share of them, and the next levels' rows, ghosts
 *   and lower ids; for several part counts (a rank without parts),
 *   distributions (a rank without input rows, ids above 2^31), seeds and
 *   thread counts.
 * Links the library's internals (a static build). Prints each failure with
 * its rank and line and exits non-zero on every rank when any failed. */
#include "contract/contract.h"
#include "dist/dist.h"
#include "driver/layout.h"
#include "expand/expand.h"
#include "mpi/mpi_comm.h"
#include "partition/partition.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"
#include "mpi_fixture.h"

/* Level s's local id y as the serial level id. */
static int64_t gid(const contract_level *L, int32_t y) {
  if (y < L->nbase)
    return L->goff + y;
  if (y < L->nbase + L->nmerge)
    return L->gnbase + L->gmoff + (y - L->nbase);
  return L->ghost_gid[y - 2 * L->nbase];
}

static int attr_eq(const contract_attr *a, const contract_attr *b) {
  return a->pwgt == b->pwgt && a->rwgt == b->rwgt && a->ctot == b->ctot &&
         a->old == b->old;
}

/* The distributed hierarchy d (this rank's share) against the serial one
 * s; returns the failures found (each printed). */
static int compare(const contract_ws *s, const contract_ws *d,
                   const char *what) {
  int f0 = fails;
  CHECK(s->nlevels == d->nlevels, "%s: %d levels, serial %d", what,
        (int)d->nlevels, (int)s->nlevels);
  for (int32_t l = 0; l < s->nlevels && l < d->nlevels && fails == f0; l++) {
    const contract_level *S = &s->lv[l], *D = &d->lv[l];
    CHECK(D->gnbase == S->nbase, "%s: level %d: %lld base vertices, serial %d",
          what, (int)l, (long long)D->gnbase, (int)S->nbase);
    CHECK(D->goff >= 0 && D->goff + D->nbase <= S->nbase &&
              D->gmoff + D->nmerge <= S->nmerge,
          "%s: level %d: share [%lld, +%d), merges [%lld, +%d) outside", what,
          (int)l, (long long)D->goff, (int)D->nbase, (long long)D->gmoff,
          (int)D->nmerge);
    if (fails != f0)
      break;
    /* the ghosts: ascending, elsewhere */
    for (int32_t g = 0; g < D->nghost; g++) {
      CHECK(g == 0 || D->ghost_gid[g] > D->ghost_gid[g - 1],
            "%s: level %d: ghosts not ascending at %d", what, (int)l, (int)g);
      CHECK(D->ghost_gid[g] < D->goff || D->ghost_gid[g] >= D->goff + D->nbase,
            "%s: level %d: ghost %lld is held here", what, (int)l,
            (long long)D->ghost_gid[g]);
    }
    /* records and rows of the base vertices */
    for (int32_t x = 0; x < D->nbase && fails == f0; x++) {
      int64_t X = D->goff + x;
      CHECK(attr_eq(&D->at[x], &S->at[X]), "%s: level %d: vertex %lld's record",
            what, (int)l, (long long)X);
      int64_t dl = D->xadj[x + 1] - D->xadj[x],
              sl = S->xadj[X + 1] - S->xadj[X];
      CHECK(dl == sl, "%s: level %d: vertex %lld: degree %lld, serial %lld",
            what, (int)l, (long long)X, (long long)dl, (long long)sl);
      for (int64_t j = 0; j < dl && j < sl && fails == f0; j++) {
        int32_t y = D->adj[D->xadj[x] + j];
        CHECK(gid(D, y) == S->adj[S->xadj[X] + j] &&
                  D->cwgt[D->xadj[x] + j] == S->cwgt[S->xadj[X] + j],
              "%s: level %d: vertex %lld: end %lld is %lld (%g), serial %d "
              "(%g)",
              what, (int)l, (long long)X, (long long)j, (long long)gid(D, y),
              D->cwgt[D->xadj[x] + j], S->adj[S->xadj[X] + j],
              S->cwgt[S->xadj[X] + j]);
      }
      if (l > 0)
        CHECK(gid(&d->lv[l - 1], D->lower[x]) == S->lower[X],
              "%s: level %d: vertex %lld's lower id %lld, serial %d", what,
              (int)l, (long long)X, (long long)gid(&d->lv[l - 1], D->lower[x]),
              S->lower[X]);
    }
    /* the merges */
    for (int32_t j = 0; j < D->nmerge && fails == f0; j++) {
      int64_t J = D->gmoff + j;
      for (int k = 0; k < 2; k++)
        CHECK(gid(D, D->child[2 * j + k]) == S->child[2 * J + k],
              "%s: level %d: merge %lld: child %lld, serial %d", what, (int)l,
              (long long)J, (long long)gid(D, D->child[2 * j + k]),
              S->child[2 * J + k]);
      CHECK(attr_eq(&D->at[D->nbase + j], &S->at[S->nbase + J]),
            "%s: level %d: merge %lld's record", what, (int)l, (long long)J);
      CHECK(D->mlen[j] == S->mlen[J],
            "%s: level %d: merge %lld: list of %d, "
            "serial %d",
            what, (int)l, (long long)J, (int)D->mlen[j], (int)S->mlen[J]);
      for (int32_t e = 0; e < D->mlen[j] && e < S->mlen[J] && fails == f0; e++)
        CHECK(gid(D, D->madj[D->mstart[j] + e]) == S->madj[S->mstart[J] + e] &&
                  D->mcwgt[D->mstart[j] + e] == S->mcwgt[S->mstart[J] + e],
              "%s: level %d: merge %lld: list entry %d", what, (int)l,
              (long long)J, (int)e);
    }
  }
  return fails - f0;
}

static int loads_eq(const costmodel_loads *a, const costmodel_loads *b) {
  size_t P = (size_t)a->nprocs;
  return a->nprocs == b->nprocs && a->qwgt_tot == b->qwgt_tot &&
         !memcmp(a->wgt, b->wgt, P * 8) && !memcmp(a->comm, b->comm, P * 8) &&
         !memcmp(a->remap, b->remap, P * 8) && !memcmp(a->qwgt, b->qwgt, P * 8);
}

/* Steps 3 and 4 against the serial kernel: the unit, the contracted graph
 * on every rank (s frozen here), the old loads, the partition of the
 * contracted graph run on every rank, and the expansion in rounds spread
 * over the ranks (options.rounds ON): the same owners of every vertex and
 * the same loads, bit for bit. */
/* Rounds of the spec 1 runs that went to rank 0 (check_coarse): the
   fallback must be exercised. */
static int64_t fallback_rounds;

static void check_coarse(dist_ctx *c, const layout *lay, const dist_part *d,
                         contract_ws *s, contract_ws *w,
                         const minex_config *cfg, const minex_options *opt,
                         int32_t spec, const char *what) {
  double us = 0, ud = -1, k = opt->iterations;
  int rc = costmodel_unit(&lay->g, cfg, lay->old, opt, &us);
  int rd = dist_unit(c, d, cfg, opt, &ud);
  CHECK(rc == MINEX_OK && rd == MINEX_OK && us == ud,
        "%s: unit %g, serial %g (%s)", what, ud, us, minex_last_error());
  dist_coarse co;
  if (contract_freeze(s) != MINEX_OK ||
      dist_gather_coarse(c, w, &co) != MINEX_OK) {
    CHECK(0, "%s: coarse graph: %s", what, minex_last_error());
    return;
  }
  const contract_level *S = contract_cur(s);
  CHECK(co.g.nvtxs == S->nbase, "%s: %d coarse vertices, serial %d", what,
        (int)co.g.nvtxs, (int)S->nbase);
  for (int32_t x = 0; x < co.g.nvtxs && x < S->nbase; x++) {
    CHECK(attr_eq(&co.at[x], &S->at[x]), "%s: coarse vertex %d's record", what,
          (int)x);
    int64_t len = co.g.xadj[x + 1] - co.g.xadj[x];
    CHECK(len == S->xadj[x + 1] - S->xadj[x] &&
              !memcmp(co.g.adjncy + co.g.xadj[x], S->adj + S->xadj[x],
                      4 * (size_t)len) &&
              !memcmp(co.g.cwgt + co.g.xadj[x], S->cwgt + S->xadj[x],
                      8 * (size_t)len),
          "%s: coarse vertex %d's row", what, (int)x);
  }
  costmodel_loads ls, ldd;
  partition_ctx ps, pd;
  memset(&ps, 0, sizeof ps);
  memset(&pd, 0, sizeof pd);
  costmodel_problem pb = {&lay->g, cfg, lay->old, opt, us};
  rc = costmodel_loads_create_k(&ls, &pb, lay->old, k);
  rd = dist_loads_old(c, d, &(dist_model){cfg, opt, ud}, k, &ldd);
  CHECK(rc == MINEX_OK && rd == MINEX_OK, "%s: loads: %s", what,
        minex_last_error());
  if (rc == MINEX_OK && rd == MINEX_OK) {
    CHECK(loads_eq(&ls, &ldd), "%s: old loads differ", what);
    if (partition_ctx_create(&ps, s, &ls, opt) == MINEX_OK &&
        partition_ctx_create(&pd, &co.ws, &ldd, opt) == MINEX_OK &&
        partition_run(&ps, 4) == MINEX_OK &&
        partition_run(&pd, 4) == MINEX_OK) {
      CHECK(ps.moves == pd.moves && (ps.moves > 0 || ls.nprocs == 1),
            "%s: %lld coarse moves, serial %lld", what, (long long)pd.moves,
            (long long)ps.moves);
      CHECK(!memcmp(s->owner, co.ws.owner, 4 * (size_t)S->nbase),
            "%s: coarse owners differ", what);
      CHECK(loads_eq(&ls, &ldd), "%s: loads after the coarse partition", what);
      /* the expansion: serial on s, spread on w from the coarse owners */
      partition_ctx pw;
      memset(&pw, 0, sizeof pw);
      int es = expand_rounds(&ps, 16);
      int ew = contract_freeze(w);
      if (ew == MINEX_OK)
        ew = partition_ctx_create(&pw, w, &ldd, opt);
      /* spec 1: a refinement round whose first guesses do not all hold
         goes to rank 0 (the fallback of the speculation) */
      pw.speculate_max = spec;
      if (ew == MINEX_OK) {
        dist_from_coarse(w, &co);
        ew = expand_rounds(&pw, 16);
      }
      CHECK(es == MINEX_OK && ew == MINEX_OK, "%s: expansion: %s", what,
            minex_last_error());
      if (es == MINEX_OK && ew == MINEX_OK) {
        const contract_level *W = contract_cur(w);
        CHECK(s->nlevels == 1 && w->nlevels == 1,
              "%s: expansion ended on "
              "levels %d and %d",
              what, (int)s->nlevels, (int)w->nlevels);
        CHECK(ps.moves == pd.moves + pw.moves &&
                  (pw.moves > 0 || ls.nprocs == 1),
              "%s: %lld moves in all, serial %lld", what,
              (long long)(pd.moves + pw.moves), (long long)ps.moves);
        int32_t bad = -1;
        for (int32_t x = 0; x < W->nbase && bad < 0; x++)
          if (w->owner[x] != s->owner[W->goff + x])
            bad = x;
        CHECK(bad < 0, "%s: vertex %lld on %d, serial %d", what,
              (long long)(W->goff + bad), bad < 0 ? 0 : w->owner[bad],
              bad < 0 ? 0 : s->owner[W->goff + bad]);
        for (int32_t g = 0; g < W->nghost && bad < 0; g++)
          if (w->owner[2 * W->nbase + g] != s->owner[W->ghost_gid[g]])
            bad = g;
        CHECK(bad < 0, "%s: a ghost's owner differs", what);
        CHECK(loads_eq(&ls, &ldd), "%s: loads after the expansion", what);
        /* the balance and refinement passes in rounds */
        int64_t before = ps.moves;
        es = partition_balance(&ps, MINEX_BALANCE_PASSES);
        if (es == MINEX_OK)
          es = partition_refine(&ps, 4);
        ew = partition_balance(&pw, MINEX_BALANCE_PASSES);
        if (ew == MINEX_OK)
          ew = partition_refine(&pw, 4);
        CHECK(es == MINEX_OK && ew == MINEX_OK, "%s: passes: %s", what,
              minex_last_error());
        CHECK(ps.moves == pd.moves + pw.moves &&
                  (ps.moves > before || ls.nprocs == 1),
              "%s: %lld moves in all after the passes, serial %lld (%lld "
              "before them)",
              what, (long long)(pd.moves + pw.moves), (long long)ps.moves,
              (long long)before);
        for (int32_t x = 0; x < W->nbase && bad < 0; x++)
          if (w->owner[x] != s->owner[W->goff + x])
            bad = x;
        CHECK(bad < 0, "%s: after the passes, a vertex's owner differs", what);
        /* every round executed by the ranks, the budgets' last ones
           included, unless the speculation is cut to one try */
        CHECK(spec != 0 || (pw.dist_rank0 == 0 &&
                            (pw.dist_rounds > 0 || ls.nprocs == 1)),
              "%s: %lld of %lld rounds executed by rank 0", what,
              (long long)pw.dist_rank0, (long long)pw.dist_rounds);
        if (spec == 1)
          fallback_rounds += pw.dist_rank0;
        CHECK(loads_eq(&ls, &ldd), "%s: loads after the passes", what);
        /* the final forced sweep (partition_force_off in one round):
           processor 0 made unavailable now, so that its vertices must
           all move at once; the same moves spread over ranks */
        if (ls.nprocs > 1) {
          minex_config *mc = (minex_config *)(uintptr_t)cfg;
          minex_config_set_available(mc, 0, 0);
          before = ps.moves;
          es = partition_force_off(&ps);
          ew = partition_force_off(&pw);
          minex_config_set_available(mc, 0, 1);
          CHECK(es == MINEX_OK && ew == MINEX_OK, "%s: forced sweep: %s", what,
                minex_last_error());
          CHECK(ps.moves == pd.moves + pw.moves && ps.moves > before,
                "%s: %lld moves after the forced sweep, serial %lld (%lld "
                "before it)",
                what, (long long)(pd.moves + pw.moves), (long long)ps.moves,
                (long long)before);
          for (int32_t x = 0; x < W->nbase && bad < 0; x++)
            if (w->owner[x] != s->owner[W->goff + x] || w->owner[x] == 0)
              bad = x;
          CHECK(bad < 0, "%s: after the forced sweep, vertex %lld on %d", what,
                (long long)(W->goff + bad), bad < 0 ? 0 : w->owner[bad]);
          CHECK(loads_eq(&ls, &ldd), "%s: loads after the forced sweep", what);
        }
      }
      partition_ctx_destroy(&pw);
    } else {
      CHECK(0, "%s: coarse partition: %s", what, minex_last_error());
    }
    partition_ctx_destroy(&ps);
    partition_ctx_destroy(&pd);
  }
  if (rc == MINEX_OK)
    costmodel_loads_destroy(&ls);
  if (rd == MINEX_OK)
    costmodel_loads_destroy(&ldd);
  dist_coarse_destroy(&co);
}

/* One case: the graph of f spread by vtxdist (empty1, base), old = RCB
 * into nparts; layout and contraction checked for each seed and thread
 * count. */
static void run_case(const fixture *f, int32_t nparts, int empty1,
                     int64_t base) {
  char what[160];
  int64_t *vd = malloc(sizeof *vd * ((size_t)size + 1));
  int32_t *old = malloc(sizeof *old * (size_t)f->n);
  make_vtxdist(vd, f->n, empty1, base);
  if (minex_mesh_partition_rcb(f->mesh, nparts, old) != MINEX_OK) {
    CHECK(0, "rcb: %s", minex_last_error());
    free(vd), free(old);
    return;
  }
  /* this rank's input rows, global ids */
  int64_t lo = vd[rank] - base, nl = vd[rank + 1] - vd[rank];
  const int64_t *X = minex_graph_xadj(f->g);
  const int32_t *adj = minex_graph_adjncy(f->g);
  int64_t nnz = X[lo + nl] - X[lo];
  int64_t *xadj = malloc(sizeof *xadj * ((size_t)nl + 1));
  int64_t *adjncy = malloc(sizeof *adjncy * ((size_t)nnz + 1));
  for (int64_t v = 0; v <= nl; v++)
    xadj[v] = X[lo + v] - X[lo];
  for (int64_t j = 0; j < nnz; j++)
    adjncy[j] = base + adj[X[lo] + j];
  const double *pw = minex_graph_pwgt(f->g) + lo,
               *rw = minex_graph_rwgt(f->g) + lo,
               *cw = minex_graph_cwgt(f->g) + X[lo];

  /* two clusters, the second at half speed and far (one when nparts = 1) */
  int32_t csize[2] = {(nparts + 1) / 2, nparts / 2};
  double proc[2] = {1, 2}, conn[4] = {1, 4, 4, 1};
  minex_config *cfg = NULL;
  minex_options opt;
  minex_options_init(&opt);
  opt.iterations = 10;
  opt.rounds = MINEX_ROUNDS_ON;
  if (minex_config_create(nparts > 1 ? 2 : 1, csize, proc, conn, &cfg) !=
      MINEX_OK) {
    CHECK(0, "config: %s", minex_last_error());
    goto out;
  }
  layout lay;
  if (layout_create(&lay, f->g, old, nparts, 1) != MINEX_OK) {
    CHECK(0, "layout_create: %s", minex_last_error());
    goto out;
  }
  mx_comm mc;
  dist_part d;
  mx_open(&mc, "test_dist");
  dist_comm cc;
  dist_ctx c;
  if (mx_start(&mc, MPI_COMM_WORLD) != MINEX_OK) {
    CHECK(0, "mx_start: %s", minex_last_error());
    layout_destroy(&lay);
    goto out;
  }
  mx_dist_comm(&mc, &cc);
  dist_ctx_init(&c, &cc);
  dist_input in = {vd, xadj, adjncy, pw, rw, cw, old + lo};
  int rc = dist_part_create(&c, &in, nparts, &d);
  snprintf(what, sizeof what, "P %d, empty1 %d, base %lld", (int)nparts, empty1,
           (long long)base);
  CHECK(rc == MINEX_OK, "%s: dist_part_create: %s", what, minex_last_error());
  if (rc == MINEX_OK) {
    /* the layout: this rank's home parts, the serial ids, rows, weights */
    int32_t plo = nparts, phi = 0;
    for (int32_t p = 0; p < nparts; p++)
      if (dist_home_rank(p, nparts, size) == rank)
        plo = p < plo ? p : plo, phi = p + 1;
    int64_t n = d.g.nvtxs;
    CHECK(d.gn == f->n, "%s: %lld vertices, expected %d", what, (long long)d.gn,
          (int)f->n);
    if (phi > plo)
      CHECK(d.goff == lay.first[plo] && d.goff + n == lay.first[phi],
            "%s: ids [%lld, %lld), parts %d..%d are [%d, %d)", what,
            (long long)d.goff, (long long)(d.goff + n), (int)plo, (int)phi - 1,
            lay.first[plo], lay.first[phi]);
    else
      CHECK(n == 0, "%s: %lld vertices on a rank without parts", what,
            (long long)n);
    for (int64_t x = 0; x < n && fails == 0; x++) {
      int64_t L = d.goff + x, in = d.input[x] - base;
      CHECK(in >= 0 && in < f->n && lay.perm[in] == L,
            "%s: layout id %lld holds input %lld (perm %d)", what, (long long)L,
            (long long)d.input[x], in >= 0 && in < f->n ? lay.perm[in] : -1);
      CHECK(d.old[x] == lay.old[L] && d.g.pwgt[x] == lay.g.pwgt[L] &&
                d.g.rwgt[x] == lay.g.rwgt[L],
            "%s: layout id %lld: old or weights", what, (long long)L);
      int64_t dl = d.g.xadj[x + 1] - d.g.xadj[x],
              sl = lay.g.xadj[L + 1] - lay.g.xadj[L];
      CHECK(dl == sl, "%s: layout id %lld: degree %lld, serial %lld", what,
            (long long)L, (long long)dl, (long long)sl);
      for (int64_t j = 0; j < dl && j < sl; j++) {
        int32_t y = d.g.adjncy[d.g.xadj[x] + j];
        int64_t Y = y < n ? d.goff + y : d.ghost_gid[y - 2 * n];
        CHECK(Y == lay.g.adjncy[lay.g.xadj[L] + j] &&
                  d.g.cwgt[d.g.xadj[x] + j] == lay.g.cwgt[lay.g.xadj[L] + j],
              "%s: layout id %lld: end %lld", what, (long long)L, (long long)j);
        if (y >= n) {
          int32_t g = y - 2 * (int32_t)n, p = lay.old[Y];
          CHECK(d.ghost_rank[g] == dist_home_rank(p, nparts, size) &&
                    d.ghost_rank[g] != rank,
                "%s: ghost %lld on rank %d, part %d's home is %d", what,
                (long long)Y, (int)d.ghost_rank[g], (int)p,
                dist_home_rank(p, nparts, size));
        }
      }
    }
    /* the contraction, serial against spread */
    int64_t target = 64 * (int64_t)nparts;
    if (target > f->n / 4)
      target = f->n / 4;
    for (unsigned long seed = 1; seed <= 7; seed += 6)
      for (int nt = 1; nt <= 2; nt++) {
        contract_ws s, w;
        snprintf(what, sizeof what,
                 "P %d, empty1 %d, base %lld, seed %lu, %d threads",
                 (int)nparts, empty1, (long long)base, seed, nt);
        int rs = contract_ws_create(&s, &lay.g, lay.old);
        if (rs == MINEX_OK)
          rs = contract_run(&s, (int32_t)target, 4, seed, 1);
        int rd = contract_ws_create_dist(&w, &d, &cc);
        if (rd == MINEX_OK)
          rd = contract_run(&w, (int32_t)target, 4, seed, nt);
        CHECK(rs == MINEX_OK && rd == MINEX_OK, "%s: contract_run: %s", what,
              minex_last_error());
        if (rs == MINEX_OK && rd == MINEX_OK) {
          CHECK(s.nlevels > 2, "%s: only %d levels", what, (int)s.nlevels);
          /* the phases after the contraction once per seed (they do
             not use threads here) */
          if (compare(&s, &w, what) == 0 && nt == 1)
            check_coarse(&c, &lay, &d, &s, &w, cfg, &opt, seed == 7 ? 1 : 0,
                         what);
        }
        contract_ws_destroy(&s);
        contract_ws_destroy(&w);
      }
    dist_part_destroy(&d);
  }
  mx_close(&mc);
  layout_destroy(&lay);
out:
  minex_config_destroy(cfg);
  free(vd), free(old), free(xadj), free(adjncy);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* quick_mode (mpi_fixture.h): the first case only */
  int quick = quick_mode();
  fixture f;
  fixture_make(&f, 12);
  run_case(&f, 8, 0, 0);
  if (!quick) {
    run_case(&f, 3, 0, 0);
    run_case(&f, 5, 1, 3000000000LL);
    run_case(&f, 1, 0, 0);
  }
  fixture_free(&f);
  CHECK(fallback_rounds > 0,
        "no round went to rank 0 with one try of speculation: the fallback "
        "is not tested");
  int all = 0;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_dist: %s (%d failures over %d ranks)\n",
           all ? "FAILED" : "passed", all, size);
  MPI_Finalize();
  return all ? 1 : 0;
}
