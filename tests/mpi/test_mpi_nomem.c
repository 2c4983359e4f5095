/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Allocation failure inside the distributed call: minex_mpi_repartition
 * with the n-th allocation of one rank failing, for n spread over every
 * allocation that rank makes in the call. Every rank must make the same
 * collectives whatever its own state, so every rank returns, and with the
 * same code: MINEX_ENOMEM (the failing rank's), or MINEX_OK with the
 * partition of the call without failure when the allocation was one the
 * call can do without. A rank that left early would leave the others
 * waiting: ctest's timeout is the hang check. The library's calls to the
 * allocators come here (static library, -Wl,--wrap; MPICH allocates in
 * its own shared library and is not reached). */
#include "minex.h"
#include "minex_mpi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"
#include "mpi_fixture.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t nmemb, size_t size);
void *__real_realloc(void *ptr, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t nmemb, size_t size);
void *__wrap_realloc(void *ptr, size_t size);

static int armed;       /* 1 on the failing rank while the call runs */
static int64_t count;   /* allocations seen while armed             */
static int64_t fail_at; /* the one that fails (0: none)             */

static int fails_now(void) {
  return armed && ++count == fail_at;
}
void *__wrap_malloc(size_t size) {
  return fails_now() ? NULL : __real_malloc(size);
}
void *__wrap_calloc(size_t nmemb, size_t size) {
  return fails_now() ? NULL : __real_calloc(nmemb, size);
}
void *__wrap_realloc(void *ptr, size_t size) {
  return fails_now() ? NULL : __real_realloc(ptr, size);
}

/* This rank's rows of the fixture graph (vtxdist even). */
typedef struct rows {
  int64_t vd[65], *xadj, *adj, nloc;
  double *pw, *rw, *cw;
  int32_t *old;
} rows;

static void rows_make(rows *l, const fixture *f, int32_t P) {
  make_vtxdist(l->vd, f->n, 0, 0);
  int64_t lo = l->vd[rank], hi = l->vd[rank + 1];
  l->nloc = hi - lo;
  const int64_t *xadj = minex_graph_xadj(f->g);
  const int32_t *adj = minex_graph_adjncy(f->g);
  const double *pw = minex_graph_pwgt(f->g), *rw = minex_graph_rwgt(f->g);
  const double *cw = minex_graph_cwgt(f->g);
  int64_t m = xadj[hi] - xadj[lo];
  l->xadj = malloc(sizeof *l->xadj * (size_t)(l->nloc + 1));
  l->adj = malloc(sizeof *l->adj * (size_t)(m + 1));
  l->cw = malloc(sizeof *l->cw * (size_t)(m + 1));
  l->pw = malloc(sizeof *l->pw * (size_t)(l->nloc + 1));
  l->rw = malloc(sizeof *l->rw * (size_t)(l->nloc + 1));
  l->old = malloc(sizeof *l->old * (size_t)(l->nloc + 1));
  for (int64_t v = 0; v <= l->nloc; v++)
    l->xadj[v] = xadj[lo + v] - xadj[lo];
  for (int64_t j = 0; j < m; j++) {
    l->adj[j] = adj[xadj[lo] + j];
    l->cw[j] = cw[xadj[lo] + j];
  }
  for (int64_t v = 0; v < l->nloc; v++) {
    l->pw[v] = pw[lo + v];
    l->rw[v] = rw[lo + v];
    /* blocks of the global id: an old partition out of balance (the
       refined ball weighs more) */
    l->old[v] = (int32_t)((lo + v) * P / f->n);
  }
}

static void rows_free(rows *l) {
  free(l->xadj), free(l->adj), free(l->cw), free(l->pw), free(l->rw);
  free(l->old);
}

/* One call with the victim's n-th allocation failing (0: none); returns
 * the code, newp the owners. */
static int call(const rows *l, const minex_config *cfg, const minex_options *o,
                int victim, int64_t n, int32_t *newp, int64_t *made) {
  minex_metrics m;
  armed = rank == victim;
  count = 0;
  fail_at = n;
  int rc = minex_mpi_repartition(l->vd, l->xadj, l->adj, l->pw, l->rw, l->cw,
                                 l->old, cfg, o, newp, &m, MPI_COMM_WORLD);
  armed = 0;
  if (made != NULL)
    *made = count;
  return rc;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int32_t P = 8;
  fixture f;
  fixture_make(&f, 5);
  rows l;
  rows_make(&l, &f, P);
  int32_t np[2] = {P / 2, P - P / 2};
  double proc[2] = {1, 2}, conn[4] = {1, 10, 10, 1};
  minex_config *cfg = NULL;
  CHECK(minex_config_create(2, np, proc, conn, &cfg) == MINEX_OK, "config: %s",
        minex_last_error());
  minex_options o;
  minex_options_init(&o);
  o.nthreads = 1;
  int32_t *ref = malloc(sizeof *ref * (size_t)(l.nloc + 1));
  int32_t *newp = malloc(sizeof *newp * (size_t)(l.nloc + 1));
  /* the samples of n per victim: MINEX_NOMEM_SAMPLES (default 60, 12 in
     quick mode; every allocation when it is 0) */
  const char *e = getenv("MINEX_NOMEM_SAMPLES");
  int64_t samples = e != NULL ? atoll(e) : quick_mode() ? 12 : 60;
  int64_t calls = 0, nomem = 0;
  for (int victim = 0; victim < size && fails == 0;
       victim += size > 1 ? size - 1 : 1) {
    int64_t made = 0;
    int rc = call(&l, cfg, &o, victim, 0, ref, &made);
    CHECK(rc == MINEX_OK, "without failure: %s", minex_last_error());
    MPI_Bcast(&made, 1, MPI_INT64_T, victim, MPI_COMM_WORLD);
    CHECK(made > 10, "rank %d made %lld allocations", victim, (long long)made);
    int64_t step = samples > 0 && made > samples ? made / samples : 1;
    for (int64_t n = 1; n <= made && fails == 0; n += step) {
      for (int64_t v = 0; v < l.nloc; v++)
        newp[v] = -7;
      if (getenv("MINEX_NOMEM_VERBOSE") != NULL && rank == victim)
        fprintf(stderr, "test_mpi_nomem: rank %d, allocation %lld of %lld\n",
                victim, (long long)n, (long long)made);
      rc = call(&l, cfg, &o, victim, n, newp, NULL);
      calls++;
      int lo = rc, hi = rc;
      MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      CHECK(lo == hi,
            "allocation %lld of rank %d failing: codes %d to %d "
            "over the ranks (this rank %d: %s)",
            (long long)n, victim, lo, hi, rc, minex_last_error());
      CHECK(rc == MINEX_OK || rc == MINEX_ENOMEM,
            "allocation %lld of rank %d failing: code %d (%s)", (long long)n,
            victim, rc, minex_last_error());
      if (rc == MINEX_ENOMEM) {
        nomem++;
        int64_t kept = 0;
        for (int64_t v = 0; v < l.nloc; v++)
          kept += newp[v] == -7;
        CHECK(kept == l.nloc,
              "allocation %lld of rank %d failing: %lld of "
              "%lld owners written on a failed call",
              (long long)n, victim, (long long)(l.nloc - kept),
              (long long)l.nloc);
      } else if (rc == MINEX_OK) {
        int64_t diff = 0;
        for (int64_t v = 0; v < l.nloc; v++)
          diff += newp[v] != ref[v];
        CHECK(diff == 0,
              "allocation %lld of rank %d failing: MINEX_OK with "
              "%lld owners unlike the call without failure",
              (long long)n, victim, (long long)diff);
      }
    }
  }
  CHECK(nomem > 0, "no call failed with MINEX_ENOMEM (%lld calls)",
        (long long)calls);
  free(ref), free(newp);
  rows_free(&l);
  minex_config_destroy(cfg);
  fixture_free(&f);
  int all = 0;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_mpi_nomem: %s: %lld calls, %lld with MINEX_ENOMEM (%d "
           "failures over %d ranks)\n",
           all ? "FAILED" : "passed", (long long)calls, (long long)nomem, all,
           size);
  MPI_Finalize();
  return all ? 1 : 0;
}
