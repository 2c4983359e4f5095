/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_mpi_repartition (SPEC §6, docs/guide/mpi.md): the graph distributed
 * over the ranks of a communicator, validated where it lies (every rank its own
 * rows, the reverse of every edge that crosses ranks checked by the rank
 * that holds it), then repartitioned by the per-part kernel.
 *
 * Stage 1: the kernel runs on one rank (the solver, rank 0) on
 * the whole graph, gathered with 64-bit counts; the new owners go back to
 * the ranks that hold the vertices and the metrics to every rank. The
 * result is the serial library's by construction. The distributed kernel
 * (contraction on every rank, the coarse graph gathered, expansion in
 * synchronous rounds) replaces the solve phase in the next stage; the
 * interface, the validation and the collective errors stay. */
#include "dist/dist.h"
#include "driver/driver.h"
#include "mpi/bound.h"
#include "mpi/mpi_comm.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local minex_mpi_stats last_stats;

void minex_mpi_last_stats(minex_mpi_stats *stats) {
  if (stats != NULL)
    *stats = last_stats;
}

/* FNV-1a over n bytes: equal inputs on every rank give equal hashes. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 1099511628211ULL;
  }
  return h;
}

#define FNV_START 14695981039346656037ULL
#define FNV_VAL(h, x)                                                          \
  do {                                                                         \
    __typeof__(x) v_ = (x);                                                    \
    h = fnv(h, &v_, sizeof v_);                                                \
  } while (0)

static uint64_t config_hash(const minex_config *cfg) {
  uint64_t h = FNV_START;
  FNV_VAL(h, cfg->nclusters);
  FNV_VAL(h, cfg->nprocs);
  h = fnv(h, cfg->csize, sizeof *cfg->csize * (size_t)cfg->nclusters);
  h = fnv(h, cfg->proc, sizeof *cfg->proc * (size_t)cfg->nclusters);
  h = fnv(h, cfg->conn,
          sizeof *cfg->conn * (size_t)cfg->nclusters * (size_t)cfg->nclusters);
  h = fnv(h, cfg->avail, (size_t)cfg->nprocs);
  return h;
}

const mx_names mx_names_mpi = {"minex_mpi_repartition",
                               "pwgt",
                               "rwgt",
                               "cwgt",
                               "old",
                               "new_part",
                               "config",
                               "options",
                               0};

/* The call's arguments, and the local size. */
typedef struct mx_args {
  const mx_names *nm;
  const int64_t *vtxdist, *xadj, *adjncy;
  const double *pwgt, *rwgt, *cwgt;
  const int32_t *old;
  const minex_config *cfg;
  const minex_options *opt;
  int32_t *new_part;
  int64_t nlocal, nnz, base, end; /* rows here; global ids [base, end)  */
  int has[4];                     /* pwgt, rwgt, cwgt, old given        */
} mx_args;

/* vtxdist equal on every rank, non-decreasing, n <= INT32_MAX; config and
 * options equal to rank 0's; the same weights given everywhere. */
static int check_shared(mx_comm *c, mx_args *a) {
  int size = c->size, rank = c->rank;
  if (a->vtxdist == NULL)
    mx_fail(c, MINEX_EINVAL, "vtxdist is NULL");
  else if (a->cfg == NULL)
    mx_fail(c, MINEX_EINVAL, "config is NULL");
  int rc = mx_agree(c);
  if (rc != MINEX_OK)
    return rc;
  if ((rc = mx_check_vtxdist(c, a->vtxdist)))
    return rc;
  const int64_t *vd = a->vtxdist;
  a->base = vd[0];
  a->end = vd[size];
  a->nlocal = vd[rank + 1] - vd[rank];
  /* rank 0's configuration and options, and which arrays are given */
  rc = core_check_options(a->opt);
  if (rc != MINEX_OK)
    mx_fail(c, rc, "%s", minex_last_error());
  uint64_t h[2] = {config_hash(a->cfg), core_options_hash(a->opt)}, h0[2];
  memcpy(h0, h, sizeof h);
  if (mx_bcast(c, h0, sizeof h0, 0) == MINEX_OK) {
    if (h[0] != h0[0])
      mx_fail(c, MINEX_EINVAL,
              "%s differs from rank 0's (processors, clusters, "
              "slowdowns or availability)",
              a->nm->config);
    else if (h[1] != h0[1])
      mx_fail(c, MINEX_EINVAL,
              "%s differ from rank 0's (a field that changes the "
              "result)",
              a->nm->options);
  }
  /* given or NULL: decided by the ranks that have vertices */
  const void *arr[4] = {a->pwgt, a->rwgt, a->cwgt, a->old};
  const char *const name[4] = {a->nm->pwgt, a->nm->rwgt, a->nm->cwgt,
                               a->nm->old};
  int lo[4], hi[4], glo[4], ghi[4];
  for (int i = 0; i < 4; i++) {
    lo[i] = a->nlocal > 0 ? arr[i] != NULL : 1;
    hi[i] = a->nlocal > 0 ? arr[i] != NULL : 0;
  }
  if (mx_allreduce(c, lo, glo, 4, MPI_INT, MPI_MIN) == MINEX_OK &&
      mx_allreduce(c, hi, ghi, 4, MPI_INT, MPI_MAX) == MINEX_OK) {
    for (int i = 0; i < 4; i++) {
      a->has[i] = ghi[i];
      if (glo[i] != ghi[i] && a->nlocal > 0 && arr[i] == NULL)
        mx_fail(c, MINEX_EINVAL,
                "%s is NULL here but given on another rank (NULL on every "
                "rank, or on none)",
                name[i]);
    }
  }
  /* old NULL: every vertex on its rank, so only a rank beyond the
     processors that holds vertices is at fault (an empty graph is fine) */
  if (c->rc == MINEX_OK && !a->has[3] && rank >= a->cfg->nprocs &&
      a->nlocal > 0)
    mx_fail(c, MINEX_EINVAL,
            "%s is NULL (every vertex owned by its rank) but this rank holds "
            "%lld vertices and P = %d (ranks from P on must hold none)",
            a->nm->old, (long long)a->nlocal, (int)a->cfg->nprocs);
  return mx_agree(c);
}

/* This rank's rows: offsets, ids in range and not the vertex itself,
 * weights finite and >= 0, owners in [0, P). */
static int check_rows(mx_comm *c, mx_args *a) {
  int64_t n = a->nlocal, first = a->vtxdist[c->rank];
  a->nnz = 0;
  if (n > 0 && a->xadj == NULL)
    return mx_fail(c, MINEX_EINVAL, "xadj is NULL (%lld local vertices)",
                   (long long)n);
  if (n > 0 && a->new_part == NULL)
    return mx_fail(c, MINEX_EINVAL, "%s is NULL (%lld local vertices)",
                   a->nm->new_part, (long long)n);
  if (a->xadj != NULL && a->xadj[0] != 0)
    return mx_fail(c, MINEX_EINVAL, "xadj[0] = %lld, not 0",
                   (long long)a->xadj[0]);
  for (int64_t v = 0; v < n; v++)
    if (a->xadj[v + 1] < a->xadj[v])
      return mx_fail(c, MINEX_EINVAL, "xadj[%lld] = %lld is below xadj[%lld]",
                     (long long)(v + 1), (long long)a->xadj[v + 1],
                     (long long)v);
  a->nnz = n > 0 ? a->xadj[n] : 0;
  if (a->nnz > 0 && a->adjncy == NULL)
    return mx_fail(c, MINEX_EINVAL, "adjncy is NULL (xadj[%lld] = %lld)",
                   (long long)n, (long long)a->nnz);
  int64_t sh = a->nm->id_shift; /* ids in the caller's numbering */
  for (int64_t v = 0; v < n; v++)
    for (int64_t j = a->xadj[v]; j < a->xadj[v + 1]; j++) {
      int64_t u = a->adjncy[j];
      if (u < a->base || u >= a->end)
        return mx_fail(c, MINEX_EGRAPH,
                       "adjncy[%lld] = %lld is outside [%lld, %lld) "
                       "(vtxdist[0], vtxdist[size])",
                       (long long)j, (long long)(u + sh),
                       (long long)(a->base + sh), (long long)(a->end + sh));
      if (u == first + v)
        return mx_fail(c, MINEX_EGRAPH,
                       "adjncy[%lld]: vertex %lld lists itself (self loop)",
                       (long long)j, (long long)(u + sh));
    }
  const double *w[3] = {a->pwgt, a->rwgt, a->cwgt};
  const char *const name[3] = {a->nm->pwgt, a->nm->rwgt, a->nm->cwgt};
  for (int i = 0; i < 3; i++) {
    int64_t m = i == 2 ? a->nnz : n;
    for (int64_t j = 0; w[i] != NULL && j < m; j++)
      if (!isfinite(w[i][j]) || w[i][j] < 0)
        return mx_fail(c, MINEX_EGRAPH, "%s[%lld] = %g is not finite and >= 0",
                       name[i], (long long)j, w[i][j]);
  }
  for (int64_t v = 0; a->old != NULL && v < n; v++)
    if (a->old[v] < 0 || a->old[v] >= a->cfg->nprocs)
      return mx_fail(c, MINEX_EPART, "%s[%lld] = %d is outside [0, %d)",
                     a->nm->old, (long long)v, (int)a->old[v],
                     (int)a->cfg->nprocs);
  return MINEX_OK;
}

/* An edge sent to the rank of its far end: (v far, u near, Cwgt). */
typedef struct mx_edge {
  int64_t v, u;
  double w;
} mx_edge;

/* Whether row v (local, sorted) lists u; its Cwgt in *w. */
static int row_find(const dist_end *row, int64_t len, int64_t u, double *w) {
  int64_t lo = 0, hi = len;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (row[mid].id < u)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < len && row[lo].id == u) {
    *w = row[lo].w;
    return 1;
  }
  return 0;
}

/* check_reverse's buffers: the rows sorted, the cut edge ends by rank of
 * their far end, and the exchange's counts. */
typedef struct rev_buf {
  dist_end *rows;         /* nnz: this rank's rows, each sorted by id      */
  int64_t *scount;        /* size: cut edge ends to each rank, then bytes  */
  int64_t *rcount, *roff; /* size, size+1: what the exchange received      */
  int64_t *sfill;         /* size+1: the next free slot per rank in send   */
  mx_edge *send;
  char *recv;
} rev_buf;

static void rev_free(rev_buf *b) {
  core_free(b->rows);
  core_free(b->scount);
  core_free(b->rcount);
  core_free(b->roff);
  core_free(b->sfill);
  core_free(b->send);
  core_free(b->recv);
}

/* The rows sorted into b->rows, the cut edge ends counted per rank of
 * their far end; MINEX_EGRAPH (recorded) on a neighbour listed twice. */
static int rev_sort_rows(mx_comm *c, const mx_args *a, rev_buf *b) {
  int64_t n = a->nlocal, first = a->vtxdist[c->rank];
  int64_t sh = a->nm->id_shift; /* ids in the caller's numbering */
  dist_end *rows = b->rows;
  for (int64_t v = 0; v < n; v++) {
    for (int64_t j = a->xadj[v]; j < a->xadj[v + 1]; j++) {
      rows[j].id = a->adjncy[j];
      rows[j].w = a->cwgt ? a->cwgt[j] : 1.0;
      if (rows[j].id < first || rows[j].id >= first + n)
        b->scount[dist_rank_of(a->vtxdist, c->size, rows[j].id)]++;
    }
    int64_t len = a->xadj[v + 1] - a->xadj[v];
    dist_end_sort(rows + a->xadj[v], len);
    for (int64_t j = a->xadj[v] + 1; j < a->xadj[v + 1]; j++)
      if (rows[j].id == rows[j - 1].id)
        return mx_fail(
            c, MINEX_EGRAPH, "vertex %lld lists neighbour %lld twice",
            (long long)(first + v + sh), (long long)(rows[j].id + sh));
  }
  return MINEX_OK;
}

/* The edges inside this rank: the reverse of each, with the same Cwgt;
 * MINEX_EGRAPH (recorded) otherwise. */
static int rev_check_local(mx_comm *c, const mx_args *a, const dist_end *rows) {
  int64_t n = a->nlocal, first = a->vtxdist[c->rank];
  int64_t sh = a->nm->id_shift; /* ids in the caller's numbering */
  for (int64_t v = 0; v < n; v++)
    for (int64_t j = a->xadj[v]; j < a->xadj[v + 1]; j++) {
      int64_t u = rows[j].id;
      if (u < first || u >= first + n)
        continue;
      double w;
      int64_t r = u - first;
      if (!row_find(rows + a->xadj[r], a->xadj[r + 1] - a->xadj[r], first + v,
                    &w))
        return mx_fail(c, MINEX_EGRAPH,
                       "edge %lld-%lld has no reverse edge (vertex %lld does "
                       "not list %lld)",
                       (long long)(first + v + sh), (long long)(u + sh),
                       (long long)(u + sh), (long long)(first + v + sh));
      if (w != rows[j].w)
        return mx_fail(c, MINEX_EGRAPH,
                       "edge %lld-%lld has %s %g one way and %g the other",
                       (long long)(first + v + sh), (long long)(u + sh),
                       a->nm->cwgt, rows[j].w, w);
    }
  return MINEX_OK;
}

/* The edges to other ranks into b->send, by rank of the far end, and
 * b->scount in bytes; MINEX_ENOMEM recorded. */
static void rev_pack(mx_comm *c, const mx_args *a, rev_buf *b) {
  int64_t n = a->nlocal, first = a->vtxdist[c->rank];
  int size = c->size;
  int64_t total = 0;
  for (int r = 0; r < size; r++) {
    b->sfill[r] = total;
    total += b->scount[r];
  }
  b->send = core_malloc(sizeof *b->send * (size_t)(total > 0 ? total : 1));
  if (b->send == NULL) {
    mx_fail(c, MINEX_ENOMEM, "out of memory (edge check, %lld cut edge ends)",
            (long long)total);
    return;
  }
  for (int64_t v = 0; v < n; v++)
    for (int64_t j = a->xadj[v]; j < a->xadj[v + 1]; j++) {
      int64_t u = b->rows[j].id;
      if (u >= first && u < first + n)
        continue;
      mx_edge *e = &b->send[b->sfill[dist_rank_of(a->vtxdist, size, u)]++];
      e->v = u;
      e->u = first + v;
      e->w = b->rows[j].w;
    }
  for (int r = 0; r < size; r++)
    b->scount[r] *= (int64_t)sizeof(mx_edge);
}

/* The edges other ranks sent, each checked against its reverse here; the
 * first failure recorded in c. */
static void rev_check_recv(mx_comm *c, const mx_args *a, const rev_buf *b) {
  int64_t n = a->nlocal, first = a->vtxdist[c->rank];
  int64_t sh = a->nm->id_shift; /* ids in the caller's numbering */
  const dist_end *rows = b->rows;
  for (int s = 0; s < c->size && c->rc == MINEX_OK; s++)
    for (int64_t off = b->roff[s]; off < b->roff[s + 1];
         off += sizeof(mx_edge)) {
      mx_edge e;
      memcpy(&e, b->recv + off, sizeof e);
      int64_t r = e.v - first;
      double w;
      if (r < 0 || r >= n) {
        mx_fail(c, MINEX_EINTERNAL, "edge check: vertex %lld is not here",
                (long long)(e.v + sh));
        break;
      }
      if (!row_find(rows + a->xadj[r], a->xadj[r + 1] - a->xadj[r], e.u, &w)) {
        mx_fail(c, MINEX_EGRAPH,
                "edge %lld-%lld (listed by vertex %lld on rank %d) has no "
                "reverse edge: vertex %lld here does not list %lld",
                (long long)(e.u + sh), (long long)(e.v + sh),
                (long long)(e.u + sh), s, (long long)(e.v + sh),
                (long long)(e.u + sh));
        break;
      }
      if (w != e.w) {
        mx_fail(c, MINEX_EGRAPH,
                "edge %lld-%lld has %s %g on rank %d and %g here",
                (long long)(e.u + sh), (long long)(e.v + sh), a->nm->cwgt, e.w,
                s, w);
        break;
      }
    }
}

/* Every edge appears in both directions with the same Cwgt, no duplicate:
 * rows sorted here, the edges to other ranks checked by the rank of their
 * far end (one exchange of 24 bytes per cut edge end). */
static int check_reverse(mx_comm *c, mx_args *a) {
  int size = c->size;
  rev_buf b;
  memset(&b, 0, sizeof b);
  b.rows = core_malloc(sizeof *b.rows * (size_t)(a->nnz > 0 ? a->nnz : 1));
  b.scount = core_calloc((size_t)size, sizeof *b.scount);
  b.rcount = core_calloc((size_t)size, sizeof *b.rcount);
  b.roff = core_calloc((size_t)size + 1, sizeof *b.roff);
  b.sfill = core_calloc((size_t)size + 1, sizeof *b.sfill);
  if (b.rows == NULL || b.scount == NULL || b.rcount == NULL ||
      b.roff == NULL || b.sfill == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory (edge check)");
  else if (rev_sort_rows(c, a, &b) == MINEX_OK &&
           rev_check_local(c, a, b.rows) == MINEX_OK)
    rev_pack(c, a, &b);
  int rc = mx_agree(c);
  if (rc == MINEX_OK)
    rc = mx_exchange(c, (const char *)b.send, b.scount, &b.recv, b.rcount,
                     b.roff);
  if (rc == MINEX_OK) {
    rev_check_recv(c, a, &b);
    rc = mx_agree(c);
  }
  rev_free(&b);
  return rc;
}

/* Appends n bytes at *p and advances it. */
static void put(char **p, const void *src, size_t n) {
  if (n > 0)
    memcpy(*p, src, n);
  *p += n;
}

/* The rank that runs stage 1's kernel. */
#define SOLVER 0

/* Stage 1's buffers: the exchanges' counts, this rank's rows packed, what
 * arrived, and on the solver the whole graph and its new owners. */
typedef struct gather_buf {
  int64_t *scount, *rcount, *roff; /* size, size, size+1                */
  char *sbuf, *recv;
  int64_t *xadj; /* the whole graph (solver), freed once it is built  */
  int32_t *adj;
  double *pw, *rw, *cw;
  int32_t *old, *newp; /* every vertex's old and new owner (solver)  */
  minex_graph *g;
} gather_buf;

static void gather_free(gather_buf *b) {
  minex_graph_destroy(b->g);
  core_free(b->scount);
  core_free(b->rcount);
  core_free(b->roff);
  core_free(b->sbuf);
  core_free(b->recv);
  core_free(b->xadj);
  core_free(b->adj);
  core_free(b->old);
  core_free(b->newp);
  core_free(b->pw);
  core_free(b->rw);
  core_free(b->cw);
}

/* The bytes of this rank's rows in solve_gathered's layout. */
static size_t rows_bytes(const mx_args *a) {
  size_t n = (size_t)a->nlocal, nnz = (size_t)a->nnz;
  return n * 8 + nnz * 4 + (a->has[0] ? n * 8 : 0) + (a->has[1] ? n * 8 : 0) +
         (a->has[2] ? nnz * 8 : 0) + (a->has[3] ? n * 4 : 0);
}

/* This rank's rows at p, in solve_gathered's layout. */
static void rows_pack(const mx_args *a, char *p) {
  int64_t n = a->nlocal, nnz = a->nnz;
  for (int64_t v = 0; v < n; v++) {
    int64_t d = a->xadj[v + 1] - a->xadj[v];
    put(&p, &d, 8);
  }
  if (a->has[0])
    put(&p, a->pwgt, (size_t)n * 8);
  if (a->has[1])
    put(&p, a->rwgt, (size_t)n * 8);
  if (a->has[2])
    put(&p, a->cwgt, (size_t)nnz * 8);
  for (int64_t j = 0; j < nnz; j++) {
    int32_t u = (int32_t)(a->adjncy[j] - a->base);
    put(&p, &u, 4);
  }
  if (a->has[3])
    put(&p, a->old, (size_t)n * 4);
}

/* Collective: every rank's rows to the solver (b->recv there); agreed. */
static int rows_gather(mx_comm *c, const mx_args *a, gather_buf *b) {
  size_t mine = rows_bytes(a);
  if (b->scount == NULL || b->rcount == NULL || b->roff == NULL ||
      (b->sbuf = core_malloc(mine > 0 ? mine : 1)) == NULL) {
    mx_fail(c, MINEX_ENOMEM, "out of memory packing %zu bytes of rows", mine);
  } else {
    rows_pack(a, b->sbuf);
    b->scount[SOLVER] = (int64_t)mine;
  }
  int rc = mx_agree(c);
  if (rc == MINEX_OK)
    rc = mx_exchange(c, b->sbuf, b->scount, &b->recv, b->rcount, b->roff);
  return rc;
}

/* On the solver: the edge ends of every rank's rows in b->recv. */
static int64_t gathered_nnz(const mx_comm *c, const mx_args *a,
                            const gather_buf *b) {
  int64_t nnz = 0;
  for (int s = 0; s < c->size; s++) {
    int64_t ns = a->vtxdist[s + 1] - a->vtxdist[s];
    const char *p = b->recv + b->roff[s];
    for (int64_t v = 0; v < ns; v++) {
      int64_t d;
      memcpy(&d, p + 8 * v, 8);
      nnz += d;
    }
  }
  return nnz;
}

/* On the solver: the whole graph's arrays from b->recv (allocated). */
static void rows_unpack(const mx_comm *c, const mx_args *a, gather_buf *b) {
  b->xadj[0] = 0;
  int64_t at = 0, et = 0;
  for (int s = 0; s < c->size; s++) {
    int64_t ns = a->vtxdist[s + 1] - a->vtxdist[s], es = 0;
    const char *p = b->recv + b->roff[s];
    for (int64_t v = 0; v < ns; v++) {
      int64_t d;
      memcpy(&d, p, 8);
      p += 8;
      b->xadj[at + v + 1] = b->xadj[at + v] + d;
      es += d;
    }
    if (a->has[0]) {
      memcpy(b->pw + at, p, (size_t)ns * 8);
      p += ns * 8;
    }
    if (a->has[1]) {
      memcpy(b->rw + at, p, (size_t)ns * 8);
      p += ns * 8;
    }
    if (a->has[2]) {
      memcpy(b->cw + et, p, (size_t)es * 8);
      p += es * 8;
    }
    memcpy(b->adj + et, p, (size_t)es * 4);
    p += es * 4;
    if (a->has[3])
      memcpy(b->old + at, p, (size_t)ns * 4);
    else
      for (int64_t v = 0; v < ns; v++)
        b->old[at + v] = s;
    at += ns;
    et += es;
  }
}

/* On the solver: the whole graph from the gathered rows, then
 * minex_repartition on it; a failure recorded in c. */
static void solve_whole(mx_comm *c, const mx_args *a, gather_buf *b,
                        minex_metrics *met) {
  int64_t N = a->end - a->base, NNZ = gathered_nnz(c, a, b);
  b->xadj = core_malloc(sizeof *b->xadj * (size_t)(N + 1));
  b->adj = core_malloc(sizeof *b->adj * (size_t)(NNZ > 0 ? NNZ : 1));
  b->newp = core_malloc(sizeof *b->newp * (size_t)(N > 0 ? N : 1));
  b->old = core_malloc(sizeof *b->old * (size_t)(N > 0 ? N : 1));
  if (a->has[0])
    b->pw = core_malloc(sizeof *b->pw * (size_t)(N > 0 ? N : 1));
  if (a->has[1])
    b->rw = core_malloc(sizeof *b->rw * (size_t)(N > 0 ? N : 1));
  if (a->has[2])
    b->cw = core_malloc(sizeof *b->cw * (size_t)(NNZ > 0 ? NNZ : 1));
  if (b->xadj == NULL || b->adj == NULL || b->newp == NULL || b->old == NULL ||
      (a->has[0] && b->pw == NULL) || (a->has[1] && b->rw == NULL) ||
      (a->has[2] && b->cw == NULL)) {
    mx_fail(c, MINEX_ENOMEM,
            "out of memory assembling the graph (%lld vertices, %lld edge "
            "ends)",
            (long long)N, (long long)NNZ);
    return;
  }
  rows_unpack(c, a, b);
  core_free(b->recv);
  b->recv = NULL;
  int r = minex_graph_create((int32_t)N, b->xadj, b->adj, b->pw, b->rw, b->cw,
                             &b->g);
  core_free(b->xadj);
  core_free(b->adj);
  core_free(b->pw);
  core_free(b->rw);
  core_free(b->cw);
  b->xadj = NULL;
  b->adj = NULL;
  b->pw = b->rw = b->cw = NULL;
  if (r == MINEX_OK)
    r = minex_repartition(b->g, a->cfg, b->old, a->opt, b->newp, met);
  if (r != MINEX_OK)
    mx_fail(c, r, "%s", minex_last_error());
}

/* Collective: the solver's owners to the ranks of their vertices (at
 * b->recv + b->roff[SOLVER]), the metrics from the solver; agreed. */
static int owners_scatter(mx_comm *c, const mx_args *a, gather_buf *b,
                          minex_metrics *met) {
  int64_t n = a->nlocal;
  memset(b->scount, 0, sizeof *b->scount * (size_t)c->size);
  if (c->rank == SOLVER)
    for (int s = 0; s < c->size; s++)
      b->scount[s] = 4 * (a->vtxdist[s + 1] - a->vtxdist[s]);
  int rc = mx_exchange(c, (const char *)b->newp, b->scount, &b->recv, b->rcount,
                       b->roff);
  if (rc != MINEX_OK)
    return rc;
  if (b->rcount[SOLVER] != 4 * n) {
    mx_fail(c, MINEX_EINTERNAL, "received %lld owners for %lld vertices",
            (long long)(b->rcount[SOLVER] / 4), (long long)n);
  }
  if ((rc = mx_agree(c)) == MINEX_OK)
    rc = mx_bcast(c, met, sizeof *met, SOLVER);
  return rc;
}

/* Stage 1 solve: every rank's rows to the solver rank, which runs
 * minex_repartition on the whole graph; the owners back, the metrics to
 * all. The byte layout of a rank's rows: degrees (int64), pwgt, rwgt,
 * cwgt (double, when given), neighbours (int32, global id - vtxdist[0]),
 * old (int32, when given). */
static int solve_gathered(mx_comm *c, mx_args *a, minex_metrics *metrics,
                          minex_mpi_stats *st) {
  int size = c->size;
  gather_buf b;
  memset(&b, 0, sizeof b);
  b.scount = core_calloc((size_t)size, sizeof *b.scount);
  b.rcount = core_calloc((size_t)size, sizeof *b.rcount);
  b.roff = core_calloc((size_t)size + 1, sizeof *b.roff);
  minex_metrics met;
  memset(&met, 0, sizeof met);
  double t = MPI_Wtime();
  int64_t bytes0 = c->bytes, msgs0 = c->messages;
  int rc = rows_gather(c, a, &b);
  if (rc != MINEX_OK)
    goto done;
  core_free(b.sbuf);
  b.sbuf = NULL;
  st->gather_bytes = c->bytes - bytes0;
  st->gather_messages = c->messages - msgs0;
  st->seconds_gather = MPI_Wtime() - t;
  t = MPI_Wtime();
  if (c->rank == SOLVER)
    solve_whole(c, a, &b, &met);
  core_free(b.recv);
  b.recv = NULL;
  /* the other ranks wait for the solver without taking its core */
  mx_idle_barrier(c);
  if ((rc = mx_agree(c)))
    goto done;
  st->seconds_solve = MPI_Wtime() - t;
  /* the owners back to the ranks of their vertices */
  t = MPI_Wtime();
  bytes0 = c->bytes;
  msgs0 = c->messages;
  if ((rc = owners_scatter(c, a, &b, &met)))
    goto done;
  if (a->nlocal > 0)
    memcpy(a->new_part, b.recv + b.roff[SOLVER], (size_t)a->nlocal * 4);
  if (metrics != NULL)
    *metrics = met;
  st->scatter_bytes = c->bytes - bytes0;
  st->scatter_messages = c->messages - msgs0;
  st->seconds_scatter = MPI_Wtime() - t;
  st->solver = SOLVER;
done:
  gather_free(&b);
  return rc;
}

/* Collective: the arguments checked where they lie (shared, rows, the
 * reverse edges), then a machine with an available processor; agreed. */
static int check_args(mx_comm *c, mx_args *a) {
  int rc = check_shared(c, a);
  if (rc == MINEX_OK) {
    check_rows(c, a);
    rc = mx_agree(c);
  }
  if (rc == MINEX_OK)
    rc = check_reverse(c, a);
  /* after the arguments' checks, as minex_repartition's (the config is
     rank 0's on every rank, so every rank fails alike) */
  if (rc == MINEX_OK && a->cfg->navail == 0) {
    mx_fail(c, MINEX_ENOPROC, "all %d processors are unavailable",
            (int)a->cfg->nprocs);
    rc = mx_agree(c);
  }
  return rc;
}

/* Stage 2: every rank works on its home parts (docs/design/distributed.md);
 * agreed. */
static int solve_distributed(mx_comm *c, const dist_input *in, mx_args *a,
                             minex_metrics *metrics, minex_mpi_stats *st) {
  double ts = MPI_Wtime();
  int64_t b0 = c->bytes, m0 = c->messages, i0 = c->bytes_in;
  minex_workspace *ws = a->opt->workspace;
  st->solver = -1;
  /* the workspace serves the kernel on every rank (stage 1: rank 0's
     minex_repartition takes it) */
  int began = core_pool_begin(ws, c->fn);
  if (began != MINEX_OK)
    mx_fail(c, began,
            "options.workspace is in use by another call (a workspace "
            "serves one call at a time)");
  int rc = mx_agree(c);
  if (rc == MINEX_OK) {
    minex_workspace *prev = core_pool_swap(ws);
    dist_comm dc;
    mx_dist_comm(c, &dc);
    dist_ctx dx;
    dist_ctx_init(&dx, &dc);
    rc = dist_solve(&dx, in, a->cfg, a->opt, a->new_part, metrics);
    core_pool_swap(prev);
  }
  if (began == MINEX_OK) {
    int end = core_pool_end(ws, c->fn);
    if (rc == MINEX_OK) {
      if (end != MINEX_OK)
        mx_fail(c, end, "%s", minex_last_error());
      rc = mx_agree(c);
    }
  }
  st->seconds_solve = MPI_Wtime() - ts;
  st->gather_bytes = c->bytes - b0;
  st->gather_messages = c->messages - m0;
  st->recv_bytes_max = c->bytes_in - i0;
  return rc;
}

/* Collective: the figures summed over the ranks (times: the slowest
 * rank) and the busiest receiver, into *st; MPI's failure otherwise. */
static int stats_reduce(mx_comm *c, minex_mpi_stats *st) {
  int64_t in[6] = {st->check_bytes,   st->check_messages,
                   st->gather_bytes,  st->gather_messages,
                   st->scatter_bytes, st->scatter_messages},
          sum[6];
  double tin[4] = {st->seconds_check, st->seconds_gather, st->seconds_solve,
                   st->seconds_scatter},
         tmax[4];
  /* and the busiest receiver: its bytes, then the lowest rank with them */
  int64_t rin = st->recv_bytes_max, rmax = 0;
  int who = c->size, first = 0;
  int rc;
  if ((rc = mx_allreduce(c, in, sum, 6, MPI_INT64_T, MPI_SUM)) == MINEX_OK &&
      (rc = mx_allreduce(c, tin, tmax, 4, MPI_DOUBLE, MPI_MAX)) == MINEX_OK &&
      (rc = mx_allreduce(c, &rin, &rmax, 1, MPI_INT64_T, MPI_MAX)) ==
          MINEX_OK) {
    if (rin == rmax)
      who = c->rank;
    rc = mx_allreduce(c, &who, &first, 1, MPI_INT, MPI_MIN);
  }
  if (rc != MINEX_OK)
    return rc;
  st->recv_bytes_max = rmax;
  st->recv_max_rank = first;
  st->check_bytes = sum[0];
  st->check_messages = sum[1];
  st->gather_bytes = sum[2];
  st->gather_messages = sum[3];
  st->scatter_bytes = sum[4];
  st->scatter_messages = sum[5];
  st->seconds_check = tmax[0];
  st->seconds_gather = tmax[1];
  st->seconds_solve = tmax[2];
  st->seconds_scatter = tmax[3];
  st->collective_calls = c->collectives;
  return MINEX_OK;
}

/* Rank 0's log line of the call's figures (n vertices). */
static void stats_log(const mx_comm *c, const minex_options *opt, int64_t n,
                      const minex_mpi_stats *st) {
  if (c->rank == 0 && st->solver < 0)
    driver_log(opt,
               "mpi: %d ranks, %lld vertices; check %.3f s (%lld bytes "
               "in %lld messages), stage 2 (the kernel on every rank) "
               "%.3f s (%lld bytes, %lld messages; the most to one "
               "rank: %lld bytes to rank %d), %lld collective calls",
               c->size, (long long)n, st->seconds_check,
               (long long)st->check_bytes, (long long)st->check_messages,
               st->seconds_solve, (long long)st->gather_bytes,
               (long long)st->gather_messages, (long long)st->recv_bytes_max,
               (int)st->recv_max_rank, (long long)st->collective_calls);
  else if (c->rank == 0)
    driver_log(
        opt,
        "mpi: %d ranks, %lld vertices; check %.3f s (%lld bytes in %lld "
        "messages), gather to rank %d %.3f s (%lld bytes, %lld "
        "messages), solve %.3f s, scatter %.3f s (%lld bytes, %lld "
        "messages), %lld collective calls",
        c->size, (long long)n, st->seconds_check, (long long)st->check_bytes,
        (long long)st->check_messages, st->solver, st->seconds_gather,
        (long long)st->gather_bytes, (long long)st->gather_messages,
        st->seconds_solve, st->seconds_scatter, (long long)st->scatter_bytes,
        (long long)st->scatter_messages, (long long)st->collective_calls);
}

int mx_repartition(const mx_names *nm, const dist_input *in,
                   const minex_config *config, const minex_options *options,
                   int32_t *new_part, minex_metrics *metrics, MPI_Comm comm) {
  core_error_clear();
  memset(&last_stats, 0, sizeof last_stats);
  mx_comm c;
  mx_open(&c, nm->fn);
  int rc = mx_start(&c, comm);
  if (rc != MINEX_OK)
    return rc;
  double t0 = MPI_Wtime();
  minex_options opt;
  if (options != NULL)
    opt = *options;
  else
    minex_options_init(&opt);
  /* the library's own log on rank 0 only (the solver) */
  minex_options run = opt;
  if (c.rank != 0)
    run.log_fn = NULL;
  mx_args a = {.nm = nm,
               .vtxdist = in->vtxdist,
               .xadj = in->xadj,
               .adjncy = in->adjncy,
               .pwgt = in->pwgt,
               .rwgt = in->rwgt,
               .cwgt = in->cwgt,
               .old = in->old,
               .cfg = config,
               .opt = &run,
               .new_part = new_part};
  minex_mpi_stats st;
  memset(&st, 0, sizeof st);
  st.ranks = c.size;
  rc = check_args(&c, &a);
  st.check_bytes = c.bytes;
  st.check_messages = c.messages;
  st.seconds_check = MPI_Wtime() - t0;
  if (rc == MINEX_OK && run_distributed_applies(&run))
    rc = solve_distributed(&c, in, &a, metrics, &st);
  else if (rc == MINEX_OK)
    rc = solve_gathered(&c, &a, metrics, &st);
  if (rc == MINEX_OK) {
    if (stats_reduce(&c, &st) == MINEX_OK) {
      stats_log(&c, &opt, a.end - a.base, &st);
      last_stats = st;
    } else {
      rc = mx_agree(&c);
    }
  }
  mx_close(&c);
  return rc;
}

int minex_mpi_repartition(const int64_t *vtxdist, const int64_t *xadj,
                          const int64_t *adjncy, const double *pwgt,
                          const double *rwgt, const double *cwgt,
                          const int32_t *old, const minex_config *config,
                          const minex_options *options, int32_t *new_part,
                          minex_metrics *metrics, MPI_Comm comm) {
  dist_input in = {vtxdist, xadj, adjncy, pwgt, rwgt, cwgt, old};
  return mx_repartition_bounded(&mx_names_mpi, &in, config, options, new_part,
                                metrics, comm);
}
