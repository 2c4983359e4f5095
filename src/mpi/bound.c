/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The load bounds of the MPI layer (docs/SPEC.md §3 "Load bounds"): the
 * graph and the unbounded result gathered on rank 0, the serial repair
 * there, the owners scattered back. */
#include "mpi/bound.h"
#include "driver/bound.h"

#include <stdlib.h>
#include <string.h>

/* One rank's rows, packed: n, nnz, then n degrees, nnz neighbours, n Pwgt,
 * n Rwgt, nnz Cwgt, n old owners, n new owners (8 bytes each). */
static int64_t packed_size(int64_t n, int64_t nnz) {
  return 8 * (2 + 6 * n + 2 * nnz);
}

static void put(char **p, const void *x, size_t bytes) {
  memcpy(*p, x, bytes);
  *p += bytes;
}

static void get(const char **p, void *x, size_t bytes) {
  memcpy(x, *p, bytes);
  *p += bytes;
}

/* Rank 0: the whole graph from the packed rows; the repair; each rank's
 * owners packed in sbuf at soff. */
static void solve_on_root(mx_comm *c, const char *rbuf, const int64_t *roff,
                          int64_t nall, int has[3], const minex_config *cfg,
                          const minex_options *o, int64_t first,
                          minex_metrics *m, int32_t *part_all,
                          int64_t *rows_of) {
  int64_t nnz_all = 0;
  for (int r = 0; r < c->size; r++) {
    int64_t hdr[2];
    const char *p = rbuf + roff[r];
    get(&p, hdr, sizeof hdr);
    rows_of[r] = hdr[0];
    nnz_all += hdr[1];
  }
  if (nnz_all > INT64_MAX / 16) {
    mx_fail(c, MINEX_EUNSUP, "the graph is too large to gather");
    return;
  }
  int64_t *xadj = core_malloc(sizeof *xadj * (size_t)(nall + 1));
  int32_t *adj = core_malloc(sizeof *adj * (size_t)(nnz_all + 1));
  double *pw = core_malloc(sizeof *pw * (size_t)(nall + 1));
  double *rw = core_malloc(sizeof *rw * (size_t)(nall + 1));
  double *cw = core_malloc(sizeof *cw * (size_t)(nnz_all + 1));
  int32_t *old = core_malloc(sizeof *old * (size_t)(nall + 1));
  minex_graph *g = NULL;
  if (!xadj || !adj || !pw || !rw || !cw || !old) {
    mx_fail(c, MINEX_ENOMEM, "out of memory gathering %lld vertices",
            (long long)nall);
    goto done;
  }
  int64_t v = 0, e = 0;
  xadj[0] = 0;
  for (int r = 0; r < c->size; r++) {
    const char *p = rbuf + roff[r];
    int64_t hdr[2];
    get(&p, hdr, sizeof hdr);
    int64_t n = hdr[0], nnz = hdr[1];
    for (int64_t i = 0; i < n; i++) {
      int64_t d;
      get(&p, &d, 8);
      xadj[v + i + 1] = xadj[v + i] + d;
    }
    for (int64_t j = 0; j < nnz; j++) {
      int64_t a;
      get(&p, &a, 8);
      adj[e + j] = (int32_t)(a - first);
    }
    get(&p, pw + v, 8 * (size_t)n);
    get(&p, rw + v, 8 * (size_t)n);
    get(&p, cw + e, 8 * (size_t)nnz);
    for (int64_t i = 0; i < n; i++) {
      int64_t a, b;
      memcpy(&a, p + 8 * i, 8);
      memcpy(&b, p + 8 * (n + i), 8);
      old[v + i] = (int32_t)a;
      part_all[v + i] = (int32_t)b;
    }
    v += n;
    e += nnz;
  }
  int rc = minex_graph_create((int32_t)nall, xadj, adj, has[0] ? pw : NULL,
                              has[1] ? rw : NULL, has[2] ? cw : NULL, &g);
  if (rc == MINEX_OK)
    rc = bound_apply(g, cfg, old, o, part_all, m);
  if (rc != MINEX_OK)
    mx_fail(c, rc, "%s", minex_last_error());
done:
  minex_graph_destroy(g);
  core_free(xadj);
  core_free(adj);
  core_free(pw);
  core_free(rw);
  core_free(cw);
  core_free(old);
}

int mx_bound_apply(mx_comm *c, const dist_input *in, const minex_config *cfg,
                   const minex_options *options, int32_t *new_part,
                   minex_metrics *metrics) {
  const int64_t *vd = in->vtxdist;
  int64_t n = vd[c->rank + 1] - vd[c->rank];
  int64_t nnz = n > 0 ? in->xadj[n] : 0;
  int mine[3] = {in->pwgt != NULL, in->rwgt != NULL, in->cwgt != NULL};
  int has[3] = {0, 0, 0};
  if (mx_allreduce(c, mine, has, 3, MPI_INT, MPI_MAX) != MINEX_OK)
    return mx_agree(c);
  int size = c->size;
  int64_t *cnt = core_malloc(sizeof *cnt * 4 * ((size_t)size + 1));
  int64_t bytes = packed_size(n, nnz);
  char *sbuf = core_malloc((size_t)bytes);
  if (cnt == NULL || sbuf == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory packing %lld vertices",
            (long long)n);
  int rc = mx_agree(c);
  char *rbuf = NULL, *back = NULL, *ownbuf = NULL;
  int32_t *part_all = NULL;
  int64_t *rows_of = NULL;
  if (rc != MINEX_OK)
    goto done;
  int64_t *scount = cnt, *rcount = cnt + (size + 1),
          *roff = cnt + 2 * (size + 1);
  int64_t *soff = cnt + 3 * (size + 1);
  char *p = sbuf;
  int64_t hdr[2] = {n, nnz};
  put(&p, hdr, sizeof hdr);
  for (int64_t i = 0; i < n; i++) {
    int64_t d = in->xadj[i + 1] - in->xadj[i];
    put(&p, &d, 8);
  }
  if (nnz > 0)
    put(&p, in->adjncy, 8 * (size_t)nnz);
  for (int k = 0; k < 2; k++) {
    const double *w = k == 0 ? in->pwgt : in->rwgt;
    for (int64_t i = 0; i < n; i++) {
      double x = w != NULL ? w[i] : 1.0;
      put(&p, &x, 8);
    }
  }
  for (int64_t j = 0; j < nnz; j++) {
    double x = in->cwgt != NULL ? in->cwgt[j] : 1.0;
    put(&p, &x, 8);
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t o = in->old != NULL ? in->old[i] : c->rank;
    put(&p, &o, 8);
  }
  for (int64_t i = 0; i < n; i++) {
    int64_t o = new_part[i];
    put(&p, &o, 8);
  }
  for (int r = 0; r < size; r++)
    scount[r] = r == 0 ? bytes : 0;
  if ((rc = mx_exchange(c, sbuf, scount, &rbuf, rcount, roff)) != MINEX_OK)
    goto done;
  int64_t nall = vd[size] - vd[0];
  minex_metrics m = *metrics;
  if (c->rank == 0) {
    part_all = core_malloc(sizeof *part_all * (size_t)(nall + 1));
    rows_of = core_malloc(sizeof *rows_of * (size_t)size);
    ownbuf = core_malloc(4 * (size_t)(nall + 1));
    if (part_all == NULL || rows_of == NULL || ownbuf == NULL)
      mx_fail(c, MINEX_ENOMEM, "out of memory gathering %lld vertices",
              (long long)nall);
    else
      solve_on_root(c, rbuf, roff, nall, has, cfg, options, vd[0], &m, part_all,
                    rows_of);
  }
  if ((rc = mx_agree(c)) != MINEX_OK)
    goto done;
  if (mx_bcast(c, &m, (int64_t)sizeof m, 0) != MINEX_OK ||
      (rc = mx_agree(c)) != MINEX_OK)
    goto done;
  for (int r = 0; r < size; r++)
    scount[r] = c->rank == 0 ? 4 * rows_of[r] : 0;
  if (c->rank == 0)
    memcpy(ownbuf, part_all, 4 * (size_t)nall);
  int64_t *boff = soff;
  if ((rc = mx_exchange(c, c->rank == 0 ? ownbuf : "", scount, &back, rcount,
                        boff)) != MINEX_OK)
    goto done;
  if (boff[size] != 4 * n)
    mx_fail(c, MINEX_EINTERNAL, "received %lld owners for %lld vertices",
            (long long)(boff[size] / 4), (long long)n);
  if ((rc = mx_agree(c)) != MINEX_OK)
    goto done;
  if (n > 0)
    memcpy(new_part, back, 4 * (size_t)n);
  *metrics = m;
done:
  core_free(cnt);
  core_free(sbuf);
  core_free(rbuf);
  core_free(back);
  core_free(ownbuf);
  core_free(part_all);
  core_free(rows_of);
  return rc;
}

int mx_repartition_bounded(const mx_names *nm, const dist_input *in,
                           const minex_config *config,
                           const minex_options *options, int32_t *new_part,
                           minex_metrics *metrics, MPI_Comm comm) {
  if (!bound_active(options) || config == NULL || comm == MPI_COMM_NULL)
    return mx_repartition(nm, in, config, options, new_part, metrics, comm);
  core_error_clear();
  mx_comm c;
  mx_open(&c, nm->fn);
  int rc = mx_start(&c, comm);
  if (rc != MINEX_OK)
    return rc;
  if (bound_check(nm->fn, config, options) != MINEX_OK)
    mx_fail(&c, MINEX_EINVAL, "%s", minex_last_error());
  if ((rc = mx_agree(&c)) == MINEX_OK) {
    minex_options o;
    bound_strip(options, &o);
    minex_metrics m;
    rc = mx_repartition(nm, in, config, &o, new_part, &m, comm);
    if (rc == MINEX_OK) {
      minex_options full = *options;
      if (c.rank != 0)
        full.log_fn = NULL;
      rc = mx_bound_apply(&c, in, config, &full, new_part, &m);
    }
    if (rc == MINEX_OK && metrics != NULL)
      *metrics = m;
  }
  mx_close(&c);
  return rc;
}
