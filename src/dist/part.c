/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Stage 2 of minex_mpi_repartition (docs/design/distributed.md): the graph on
 * its parts' home ranks in the per-part layout, and the contraction's
 * collective operations. */
#include "dist/dist.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

void dist_part_destroy(dist_part *d) {
  core_free(d->first);
  core_graph_free_arrays(&d->g);
  core_free(d->old);
  core_free(d->input);
  core_free(d->ghost_gid);
  core_free(d->ghost_rank);
  memset(d, 0, sizeof *d);
}

/* An edge end in layout ids (row sorting). */
/* The index of the pair whose key (even entries of p, ascending) is key,
 * or -1. */
static int64_t pair_find(const int64_t *p, int64_t n, int64_t key) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (p[2 * mid] < key)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && p[2 * lo] == key ? lo : -1;
}

/* The old part of layout id x: the first whose end is above x (first
 * ascending, nparts + 1 entries). */
static int32_t part_of(const int64_t *first, int32_t nparts, int64_t x) {
  return (int32_t)core_lower_i64(first + 1, nparts, x + 1);
}

/* A vertex's record on its way home: layout id, input id, Pwgt, Rwgt, old
 * part, degree; then (neighbour layout id, Cwgt) per edge. */
typedef struct dist_vrec {
  int64_t id, input;
  double pwgt, rwgt;
  int32_t old, deg;
} dist_vrec;

/* What dist_part_create builds on the way: each local vertex's layout
 * id, the (input id, layout id) pairs of the neighbours on other ranks,
 * and the exchange's buffers and counts. */
typedef struct part_build {
  int64_t nin, *lid, *far, nfar;
  int64_t *scount, *rcount, *roff, *pos;
  char *sbuf, *recv;
  dist_end *ends;
} part_build;

static void part_build_free(part_build *b) {
  core_free(b->lid), core_free(b->far), core_free(b->scount),
      core_free(b->rcount), core_free(b->roff), core_free(b->pos);
  core_free(b->sbuf), core_free(b->recv), core_free(b->ends);
}

/* The layout id of each local vertex: first[] and the counts of the lower
 * ranks per part. */
static int layout_local(dist_ctx *c, const dist_input *in, dist_part *d,
                        int64_t *lid) {
  int rank = c->rank;
  int32_t P = d->nparts;
  const int32_t *old = in->old;
  int64_t n = in->vtxdist[rank + 1] - in->vtxdist[rank];
  int64_t *cnt = core_calloc((size_t)P + 1, sizeof *cnt);
  int64_t *before = core_calloc((size_t)P + 1, sizeof *before);
  int64_t *tot = core_calloc((size_t)P + 1, sizeof *tot);
  d->first = core_malloc(sizeof *d->first * ((size_t)P + 1));
  if (!cnt || !before || !tot || !d->first)
    dist_fail(c, MINEX_ENOMEM, "out of memory (layout of %d parts)", (int)P);
  for (int64_t v = 0; c->rc == MINEX_OK && v < n; v++)
    cnt[old ? old[v] : rank]++;
  int rc = dist_agree(c);
  if (rc == MINEX_OK) {
    if ((rc = c->cm->exscan(c->cm->ctx, cnt, before, P)) != MINEX_OK)
      dist_fail(c, rc, "%s", minex_last_error());
    else
      dist_allreduce(c, cnt, tot, P, DIST_I64, DIST_SUM);
    rc = dist_agree(c);
  }
  if (rc == MINEX_OK) {
    d->first[0] = 0;
    for (int32_t p = 0; p < P; p++) {
      d->first[p + 1] = d->first[p] + tot[p];
      cnt[p] = d->first[p] + before[p]; /* the next id of part p here */
    }
    for (int64_t v = 0; v < n; v++)
      lid[v] = cnt[old ? old[v] : rank]++;
  }
  core_free(cnt), core_free(before), core_free(tot);
  return rc;
}

/* Step 1: the layout id of each local vertex (layout_local), and of each
 * neighbour on another rank (asked of nobody: every rank sends its
 * boundary vertices' ids to the ranks that hold their neighbours; rows
 * are symmetric) into b->far, ascending by input id. */
static int layout_ids(dist_ctx *c, const dist_input *in, dist_part *d,
                      part_build *b) {
  int size = c->size, rank = c->rank;
  const int64_t *vtxdist = in->vtxdist, *xadj = in->xadj, *adjncy = in->adjncy;
  int64_t base = vtxdist[rank], n = vtxdist[rank + 1] - base;
  int64_t *lid = b->lid;
  int64_t *scount = core_calloc((size_t)size, sizeof *scount);
  int64_t *rcount = core_calloc((size_t)size, sizeof *rcount);
  int64_t *roff = core_calloc((size_t)size + 1, sizeof *roff);
  int64_t *pos = core_calloc((size_t)size + 1, sizeof *pos);
  int64_t *seen = core_malloc(sizeof *seen * ((size_t)size + 1));
  int64_t *pairs = NULL;
  char *recv = NULL;
  if (!scount || !rcount || !roff || !pos || !seen)
    dist_fail(c, MINEX_ENOMEM, "out of memory (layout of %d parts)",
              (int)d->nparts);
  int rc = layout_local(c, in, d, lid);
  if (rc != MINEX_OK)
    goto out;
  /* (input id, layout id) of each boundary vertex, to each rank that
     holds a neighbour, in input id order */
  int64_t npairs = 0;
  for (int pass = 0; pass < 2 && c->rc == MINEX_OK; pass++) {
    for (int r = 0; r < size; r++)
      seen[r] = -1;
    for (int64_t v = 0; v < n; v++)
      for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
        int64_t u = adjncy[j];
        if (u >= base && u < base + n)
          continue;
        int t = dist_rank_of(vtxdist, size, u);
        if (seen[t] == v)
          continue;
        seen[t] = v;
        if (pass == 0) {
          scount[t] += 16;
          npairs++;
        } else {
          pairs[2 * pos[t]] = base + v;
          pairs[2 * pos[t] + 1] = lid[v];
          pos[t]++;
        }
      }
    if (pass == 0) {
      if ((pairs = core_malloc(16 * (size_t)npairs + 16)) == NULL)
        dist_fail(c, MINEX_ENOMEM, "out of memory (%lld boundary ids)",
                  (long long)npairs);
      for (int r = 0; r < size; r++)
        pos[r + 1] = pos[r] + scount[r] / 16;
    }
  }
  if ((rc = dist_agree(c)) != MINEX_OK ||
      (rc = dist_exchange(c, (const char *)pairs, scount, &recv, rcount,
                          roff)) != MINEX_OK)
    goto out;
  /* sources in rank order, each in input id order: ascending */
  b->far = (int64_t *)(void *)recv;
  b->nfar = roff[size] / 16;
  recv = NULL;
out:
  core_free(scount), core_free(rcount), core_free(roff);
  core_free(pos), core_free(seen), core_free(pairs), core_free(recv);
  return rc;
}

/* The old parts whose home is this rank (plo..phi-1) and their layout
 * ids; returns their vertex count. */
static int64_t home_parts(const dist_ctx *c, dist_part *d) {
  int32_t nparts = d->nparts;
  d->plo = nparts;
  d->phi = 0;
  for (int32_t p = 0; p < nparts; p++)
    if (dist_home_rank(p, nparts, c->size) == c->rank) {
      d->plo = p < d->plo ? p : d->plo;
      d->phi = p + 1;
    }
  if (d->phi <= d->plo)
    d->plo = d->phi = 0;
  d->goff = d->first[d->plo];
  d->gn = d->first[nparts];
  return d->first[d->phi] - d->goff;
}

/* Each local vertex's record and edges in layout ids, grouped by home
 * rank, into b->sbuf (b->scount bytes for each rank). */
static void pack_rows(dist_ctx *c, const dist_input *in, const dist_part *d,
                      part_build *b) {
  int size = c->size, rank = c->rank;
  const int64_t *xadj = in->xadj, *adjncy = in->adjncy;
  const int32_t *old = in->old;
  int32_t nparts = d->nparts;
  int64_t base = in->vtxdist[rank], nin = b->nin, *pos = b->pos;
  for (int64_t v = 0; v < nin; v++) {
    int t = dist_home_rank(old ? old[v] : rank, nparts, size);
    b->scount[t] += (int64_t)sizeof(dist_vrec) + 16 * (xadj[v + 1] - xadj[v]);
  }
  for (int r = 0; r < size; r++)
    pos[r + 1] = pos[r] + b->scount[r];
  if ((b->sbuf = core_malloc(pos[size] > 0 ? (size_t)pos[size] : 1)) == NULL)
    dist_fail(c, MINEX_ENOMEM, "out of memory packing %lld bytes of rows",
              (long long)pos[size]);
  for (int64_t v = 0; c->rc == MINEX_OK && v < nin; v++) {
    int32_t p = old ? old[v] : rank;
    int t = dist_home_rank(p, nparts, size);
    dist_vrec h = {b->lid[v],
                   base + v,
                   in->pwgt ? in->pwgt[v] : 1.0,
                   in->rwgt ? in->rwgt[v] : 1.0,
                   p,
                   (int32_t)(xadj[v + 1] - xadj[v])};
    memcpy(b->sbuf + pos[t], &h, sizeof h);
    pos[t] += (int64_t)sizeof h;
    for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
      int64_t u = adjncy[j], ul;
      if (u >= base && u < base + nin) {
        ul = b->lid[u - base];
      } else {
        int64_t k = pair_find(b->far, b->nfar, u);
        if (k < 0) {
          dist_fail(c, MINEX_EINTERNAL,
                    "vertex %lld: neighbour %lld's layout id not received",
                    (long long)(base + v), (long long)u);
          break;
        }
        ul = b->far[2 * k + 1];
      }
      dist_end en = {ul, in->cwgt ? in->cwgt[j] : 1.0};
      memcpy(b->sbuf + pos[t], &en, sizeof en);
      pos[t] += (int64_t)sizeof en;
    }
  }
}

/* The n rows received (b->recv) in place: the records and degrees first,
 * then each row's ends into b->ends at its offset. Returns the edge ends'
 * count, or -1 after dist_fail. */
static int64_t unpack_rows(dist_ctx *c, dist_part *d, int64_t n,
                           part_build *b) {
  int64_t nnz = 0, bytes = b->roff[c->size];
  minex_graph *g = &d->g;
  g->nvtxs = (int32_t)n;
  g->xadj = core_calloc((size_t)n + 1, sizeof *g->xadj);
  g->pwgt = core_malloc(sizeof *g->pwgt * ((size_t)n + 1));
  g->rwgt = core_malloc(sizeof *g->rwgt * ((size_t)n + 1));
  d->old = core_malloc(sizeof *d->old * ((size_t)n + 1));
  d->input = core_malloc(sizeof *d->input * ((size_t)n + 1));
  if (!g->xadj || !g->pwgt || !g->rwgt || !d->old || !d->input) {
    dist_fail(c, MINEX_ENOMEM, "out of memory for %lld rows", (long long)n);
    return -1;
  }
  for (int64_t o = 0; o < bytes;) {
    dist_vrec h;
    memcpy(&h, b->recv + o, sizeof h);
    int64_t x = h.id - d->goff;
    if (x < 0 || x >= n || h.deg < 0) {
      dist_fail(c, MINEX_EINTERNAL, "layout id %lld outside [%lld, %lld)",
                (long long)h.id, (long long)d->goff, (long long)(d->goff + n));
      return -1;
    }
    g->xadj[x + 1] = h.deg;
    g->pwgt[x] = h.pwgt;
    g->rwgt[x] = h.rwgt;
    d->old[x] = h.old;
    d->input[x] = h.input;
    nnz += h.deg;
    o += (int64_t)sizeof h + 16 * (int64_t)h.deg;
  }
  for (int64_t x = 0; x < n; x++)
    g->xadj[x + 1] += g->xadj[x];
  b->ends = core_malloc(sizeof *b->ends * ((size_t)nnz + 1));
  g->adjncy = core_malloc(sizeof *g->adjncy * ((size_t)nnz + 1));
  g->cwgt = core_malloc(sizeof *g->cwgt * ((size_t)nnz + 1));
  d->ghost_gid = core_malloc(sizeof *d->ghost_gid * ((size_t)nnz + 1));
  if (!b->ends || !g->adjncy || !g->cwgt || !d->ghost_gid) {
    dist_fail(c, MINEX_ENOMEM, "out of memory for %lld edge ends",
              (long long)nnz);
    return -1;
  }
  for (int64_t o = 0; o < bytes;) {
    dist_vrec h;
    memcpy(&h, b->recv + o, sizeof h);
    int64_t x = h.id - d->goff;
    memcpy(b->ends + g->xadj[x], b->recv + o + sizeof h, 16 * (size_t)h.deg);
    o += (int64_t)sizeof h + 16 * (int64_t)h.deg;
  }
  return nnz;
}

/* The rows sorted by layout id, the ghosts (ends on other ranks),
 * ascending, numbered 2n + g, and their home ranks. */
static void number_ghosts(dist_ctx *c, dist_part *d, int64_t n, int64_t nnz,
                          const part_build *b) {
  minex_graph *g = &d->g;
  dist_end *ends = b->ends;
  int64_t ng = 0;
  for (int64_t x = 0; x < n; x++) {
    dist_end_sort(ends + g->xadj[x], g->xadj[x + 1] - g->xadj[x]);
    for (int64_t j = g->xadj[x]; j < g->xadj[x + 1]; j++)
      if (ends[j].id < d->goff || ends[j].id >= d->goff + n)
        d->ghost_gid[ng++] = ends[j].id;
  }
  qsort(d->ghost_gid, (size_t)ng, sizeof *d->ghost_gid, core_i64_cmp);
  int64_t nu = 0;
  for (int64_t k = 0; k < ng; k++)
    if (nu == 0 || d->ghost_gid[nu - 1] != d->ghost_gid[k])
      d->ghost_gid[nu++] = d->ghost_gid[k];
  if (2 * n + nu >= INT32_MAX) {
    dist_fail(c, MINEX_EUNSUP,
              "%lld vertices and %lld ghosts on this rank (2n + ghosts must "
              "stay below 2^31)",
              (long long)n, (long long)nu);
    return;
  }
  d->nghost = (int32_t)nu;
  if ((d->ghost_rank = core_malloc(sizeof *d->ghost_rank * ((size_t)nu + 1))) ==
      NULL) {
    dist_fail(c, MINEX_ENOMEM, "out of memory for %lld ghosts", (long long)nu);
    return;
  }
  for (int64_t k = 0; k < nu; k++)
    d->ghost_rank[k] = dist_home_rank(
        part_of(d->first, d->nparts, d->ghost_gid[k]), d->nparts, c->size);
  for (int64_t j = 0; j < nnz; j++) {
    int64_t u = ends[j].id;
    if (u >= d->goff && u < d->goff + n) {
      g->adjncy[j] = (int32_t)(u - d->goff);
    } else {
      g->adjncy[j] = (int32_t)(2 * n + core_lower_i64(d->ghost_gid, nu, u));
    }
    g->cwgt[j] = ends[j].w;
  }
}

int dist_part_create(dist_ctx *c, const dist_input *in, int32_t nparts,
                     dist_part *d) {
  memset(d, 0, sizeof *d);
  d->nparts = nparts;
  int size = c->size, rank = c->rank;
  part_build b;
  memset(&b, 0, sizeof b);
  b.nin = in->vtxdist[rank + 1] - in->vtxdist[rank];
  b.lid = core_malloc(sizeof *b.lid * ((size_t)b.nin + 1));
  b.scount = core_calloc((size_t)size, sizeof *b.scount);
  b.rcount = core_calloc((size_t)size, sizeof *b.rcount);
  b.roff = core_calloc((size_t)size + 1, sizeof *b.roff);
  b.pos = core_calloc((size_t)size + 1, sizeof *b.pos);
  if (!b.lid || !b.scount || !b.rcount || !b.roff || !b.pos)
    dist_fail(c, MINEX_ENOMEM, "out of memory (layout of %lld rows)",
              (long long)b.nin);
  int rc = dist_agree(c);
  if (rc != MINEX_OK || (rc = layout_ids(c, in, d, &b)) != MINEX_OK)
    goto out;
  int64_t n = home_parts(c, d);
  /* the records, to their home ranks */
  pack_rows(c, in, d, &b);
  core_free(b.far);
  b.far = NULL;
  if ((rc = dist_agree(c)) != MINEX_OK ||
      (rc = dist_exchange(c, b.sbuf, b.scount, &b.recv, b.rcount, b.roff)) !=
          MINEX_OK)
    goto out;
  core_free(b.sbuf);
  b.sbuf = NULL;
  int64_t nnz = unpack_rows(c, d, n, &b);
  core_free(b.recv);
  b.recv = NULL;
  if (nnz >= 0)
    number_ghosts(c, d, n, nnz, &b);
  rc = dist_agree(c);
out:
  part_build_free(&b);
  if (rc != MINEX_OK)
    dist_part_destroy(d);
  return rc;
}

void dist_coarse_destroy(dist_coarse *co) {
  contract_ws_destroy(&co->ws);
  core_graph_free_arrays(&co->g);
  core_free(co->at);
  memset(co, 0, sizeof *co);
}

/* Gathers level L of w on every rank into co's graph and records; with
 * make_ws, co's workspace too. */
/* This rank's rows of level L for the gather: their count, records,
 * degrees, then (global id, Cwgt) per end; *bytes its size. NULL when out
 * of memory. */
static char *level_pack(const contract_level *L, size_t *bytes) {
  int32_t nb = L->nbase;
  int64_t nnz = L->xadj[nb] - L->xadj[0];
  *bytes = 8 + (size_t)nb * (sizeof(contract_attr) + 8) + (size_t)nnz * 16;
  char *mine = core_malloc(*bytes);
  if (mine == NULL)
    return NULL;
  char *p = mine;
  int64_t m = nb;
  memcpy(p, &m, 8);
  p += 8;
  if (nb > 0)
    memcpy(p, L->at, sizeof(contract_attr) * (size_t)nb);
  p += sizeof(contract_attr) * (size_t)nb;
  for (int32_t x = 0; x < nb; x++) {
    int64_t deg = L->xadj[x + 1] - L->xadj[x];
    memcpy(p, &deg, 8);
    p += 8;
  }
  for (int32_t x = 0; x < nb; x++)
    for (int64_t j = L->xadj[x]; j < L->xadj[x + 1]; j++) {
      int32_t y = L->adj[j];
      int64_t gid = y < nb ? L->goff + y : L->ghost_gid[y - 2 * nb];
      memcpy(p, &gid, 8);
      memcpy(p + 8, &L->cwgt[j], 8);
      p += 16;
    }
  return mine;
}

/* The gathered level (all: every rank's share in rank order, count[r]
 * bytes, so global id order) into co's graph of N vertices and NNZ ends
 * and its records. */
static void level_unpack(dist_ctx *c, const char *all, const int64_t *count,
                         int64_t N, int64_t NNZ, dist_coarse *co) {
  minex_graph *g = &co->g;
  g->nvtxs = (int32_t)N;
  g->xadj = core_malloc(sizeof *g->xadj * ((size_t)N + 1));
  g->adjncy = core_malloc(sizeof *g->adjncy * ((size_t)NNZ + 1));
  g->cwgt = core_malloc(sizeof *g->cwgt * ((size_t)NNZ + 1));
  g->pwgt = core_malloc(sizeof *g->pwgt * ((size_t)N + 1));
  g->rwgt = core_malloc(sizeof *g->rwgt * ((size_t)N + 1));
  co->at = core_malloc(sizeof *co->at * ((size_t)N + 1));
  if (!g->xadj || !g->adjncy || !g->cwgt || !g->pwgt || !g->rwgt || !co->at) {
    dist_fail(c, MINEX_ENOMEM,
              "out of memory for the contracted graph (%lld vertices)",
              (long long)N);
    return;
  }
  int64_t v = 0, e = 0, o = 0;
  g->xadj[0] = 0;
  for (int r = 0; r < c->size; r++) {
    const char *p = all + o;
    int64_t m;
    memcpy(&m, p, 8);
    p += 8;
    if (m < 0 || v + m > N) {
      dist_fail(c, MINEX_EINTERNAL, "rank %d sent %lld coarse vertices", r,
                (long long)m);
      return;
    }
    if (m > 0)
      memcpy(co->at + v, p, sizeof(contract_attr) * (size_t)m);
    p += sizeof(contract_attr) * (size_t)m;
    const char *ends = p + 8 * (size_t)m;
    for (int64_t i = 0; i < m; i++) {
      int64_t deg;
      memcpy(&deg, p + 8 * (size_t)i, 8);
      if (deg < 0 || e + deg > NNZ) {
        dist_fail(c, MINEX_EINTERNAL, "rank %d sent a row of %lld ends", r,
                  (long long)deg);
        return;
      }
      for (int64_t j = 0; j < deg; j++, ends += 16, e++) {
        int64_t gid;
        memcpy(&gid, ends, 8);
        memcpy(&g->cwgt[e], ends + 8, 8);
        g->adjncy[e] = (int32_t)gid;
      }
      g->pwgt[v + i] = co->at[v + i].pwgt;
      g->rwgt[v + i] = co->at[v + i].rwgt;
      g->xadj[v + i + 1] = e;
    }
    v += m;
    o += count[r];
  }
  if (v != N || e != NNZ)
    dist_fail(c, MINEX_EINTERNAL,
              "contracted graph of %lld vertices and %lld ends, expected %lld "
              "and %lld",
              (long long)v, (long long)e, (long long)N, (long long)NNZ);
}

static int gather_level(dist_ctx *c, const contract_level *L, dist_coarse *co,
                        int make_ws) {
  memset(co, 0, sizeof *co);
  size_t bytes = 0;
  char *mine = level_pack(L, &bytes), *all = NULL;
  int64_t *count = core_calloc((size_t)c->size, sizeof *count);
  if (mine == NULL || count == NULL)
    dist_fail(c, MINEX_ENOMEM, "out of memory packing the contracted graph");
  int rc = dist_agree(c);
  if (rc == MINEX_OK)
    rc = dist_allgather(c, mine, (int64_t)bytes, (void **)&all, count);
  core_free(mine);
  if (rc != MINEX_OK) {
    core_free(count);
    return rc;
  }
  int64_t N = L->gnbase, total = 0;
  for (int r = 0; r < c->size; r++)
    total += count[r];
  int64_t NNZ =
      (total - 8 * c->size - N * (int64_t)(sizeof(contract_attr) + 8)) / 16;
  level_unpack(c, all, count, N, NNZ, co);
  if (c->rc == MINEX_OK && make_ws &&
      (rc = contract_ws_create_coarse(&co->ws, &co->g, co->at)) != MINEX_OK)
    dist_fail(c, rc, "%s", minex_last_error());
  core_free(all);
  core_free(count);
  rc = dist_agree(c);
  if (rc != MINEX_OK)
    dist_coarse_destroy(co);
  return rc;
}

int dist_gather_coarse(dist_ctx *c, const contract_ws *w, dist_coarse *co) {
  return gather_level(c, contract_cur(w), co, 1);
}

int dist_gather_level(dist_ctx *c, const contract_ws *w, int32_t s,
                      dist_coarse *co) {
  return gather_level(c, &w->lv[s], co, 0);
}

void dist_old_owners(const dist_part *d, int32_t *owner) {
  int32_t n = d->g.nvtxs;
  for (int32_t x = 0; x < n; x++)
    owner[x] = d->old[x];
  for (int32_t k = 0; k < d->nghost; k++)
    owner[2 * n + k] = part_of(d->first, d->nparts, d->ghost_gid[k]);
}

/* The old part of every local id of d's level 0: its vertices' and, at
 * 2n + g, its ghosts' (malloc'd). */
static int32_t *parts_with_ghosts(const dist_part *d) {
  int32_t n = d->g.nvtxs;
  int32_t *part =
      core_malloc(sizeof *part * (2 * (size_t)n + (size_t)d->nghost + 1));
  if (part == NULL)
    return NULL;
  dist_old_owners(d, part);
  for (int32_t x = 0; x < n; x++)
    part[n + x] = d->old[x];
  return part;
}

int dist_loads_old(dist_ctx *c, const dist_part *d, const dist_model *m,
                   double k, costmodel_loads *ld) {
  int32_t P = m->cfg->nprocs;
  memset(ld, 0, sizeof *ld);
  int32_t *part = parts_with_ghosts(d);
  double *in = core_malloc(sizeof *in * (3 * (size_t)P + 1));
  double *out = core_malloc(sizeof *out * (3 * (size_t)P + 1));
  int made = 0, r;
  if (part == NULL || in == NULL || out == NULL)
    dist_fail(c, MINEX_ENOMEM, "out of memory (loads of %d processors)",
              (int)P);
  else if ((r = costmodel_loads_create_k(
                ld,
                &(costmodel_problem){&d->g, m->cfg, d->old, m->opt, m->unit},
                part, k)) != MINEX_OK)
    dist_fail(c, r, "%s", minex_last_error());
  else
    made = 1;
  int rc = dist_agree(c);
  if (rc == MINEX_OK) {
    memcpy(in, ld->wgt, sizeof *in * (size_t)P);
    memcpy(in + P, ld->comm, sizeof *in * (size_t)P);
    memcpy(in + 2 * (size_t)P, ld->remap, sizeof *in * (size_t)P);
    /* one rank gives each entry, the others 0: exact in any order */
    rc = dist_allreduce(c, in, out, 3 * P, DIST_F64, DIST_SUM);
  }
  if (rc == MINEX_OK) {
    memcpy(ld->wgt, out, sizeof *in * (size_t)P);
    memcpy(ld->comm, out + P, sizeof *in * (size_t)P);
    memcpy(ld->remap, out + 2 * (size_t)P, sizeof *in * (size_t)P);
    if ((r = costmodel_loads_refresh(ld)) != MINEX_OK) { /* ld destroyed */
      made = 0;
      dist_fail(c, r, "%s", minex_last_error());
    }
    rc = dist_agree(c);
  }
  if (rc != MINEX_OK && made)
    costmodel_loads_destroy(ld);
  core_free(part), core_free(in), core_free(out);
  return rc;
}

int dist_loads_part(dist_ctx *c, const dist_part *d, const dist_model *m,
                    double k, const int32_t *part, costmodel_loads *ld) {
  memset(ld, 0, sizeof *ld);
  costmodel_partial *pt = NULL;
  int64_t npt = 0, *count = core_calloc((size_t)c->size, sizeof *count);
  char *all = NULL;
  int r;
  if (count == NULL)
    dist_fail(c, MINEX_ENOMEM, "out of memory (loads)");
  else if ((r = costmodel_run_partials(
                &(costmodel_problem){&d->g, m->cfg, d->old, m->opt, m->unit},
                part, &pt, &npt)) != MINEX_OK)
    dist_fail(c, r, "%s", minex_last_error());
  int rc = dist_agree(c);
  /* the ranks' runs in rank order: the parts in part order, as
     costmodel_loads_create_runs sums them */
  if (rc == MINEX_OK)
    rc = dist_allgather(c, pt, npt * (int64_t)sizeof *pt, (void **)&all, count);
  if (rc == MINEX_OK) {
    int64_t total = 0;
    for (int q = 0; q < c->size; q++)
      total += count[q];
    if ((r = costmodel_loads_from_partials(
             ld, m->cfg, m->opt, k, m->unit,
             (const costmodel_partial *)(void *)all,
             total / (int64_t)sizeof *pt)) != MINEX_OK)
      dist_fail(c, r, "%s", minex_last_error());
    if ((rc = dist_agree(c)) != MINEX_OK && r == MINEX_OK)
      costmodel_loads_destroy(ld);
  }
  core_free(pt), core_free(count), core_free(all);
  return rc;
}

int dist_unit(dist_ctx *c, const dist_part *d, const minex_config *cfg,
              const minex_options *opt, double *unit) {
  costmodel_loads ld;
  int32_t P = cfg->nprocs;
  int rc =
      dist_loads_old(c, d, &(dist_model){cfg, opt, 1.0},
                     opt->iterations > 1 ? (double)opt->iterations : 1.0, &ld);
  if (rc != MINEX_OK)
    return rc;
  double *in = core_calloc(3 * (size_t)P + 1, sizeof *in);
  double *out = core_calloc(3 * (size_t)P + 1, sizeof *out);
  if (in == NULL || out == NULL)
    dist_fail(c, MINEX_ENOMEM, "out of memory (unit)");
  else
    costmodel_unit_sums(&d->g, d->old, in);
  if ((rc = dist_agree(c)) == MINEX_OK &&
      (rc = dist_allreduce(c, in, out, 3 * P, DIST_F64, DIST_SUM)) == MINEX_OK)
    costmodel_unit_from(&ld, out, unit);
  costmodel_loads_destroy(&ld);
  core_free(in), core_free(out);
  return rc;
}

void dist_from_coarse(contract_ws *w, const dist_coarse *co) {
  const contract_level *L = contract_cur(w);
  int32_t nb = L->nbase;
  for (int32_t x = 0; x < nb; x++) {
    w->parent[x] = x;
    w->owner[x] = co->ws.owner[L->goff + x];
    w->interior[x] = co->ws.interior[L->goff + x];
  }
  for (int32_t g = 0; g < L->nghost; g++) {
    int32_t x = 2 * nb + g;
    w->parent[x] = x;
    w->owner[x] = co->ws.owner[L->ghost_gid[g]];
    w->interior[x] = 0;
  }
}
