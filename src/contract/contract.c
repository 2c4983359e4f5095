/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Contraction by chunks (SPEC §3 "Contraction" and "Parallel execution"):
 * the workspace, the cut of a level into chunks, their targets, their
 * sweeps on OpenMP threads (sweep.c), and the assembly of their merges
 * into the level and of their active vertices into the next level. */
#include "dist/contract.h"
#include "contract/chunk.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Level 0 of ws from g: its rows used in place, every vertex's record,
 * each vertex active on its old owner, the count of vertices with a
 * same-owner neighbour (an end >= n is a ghost on another rank: another
 * part). */
void contract_level0_init(contract_ws *ws, const minex_graph *g,
                          const int32_t *old) {
  contract_level *L = &ws->lv[0];
  int32_t n = g->nvtxs;
  L->xadj = g->xadj;
  L->adj = g->adjncy;
  L->cwgt = g->cwgt;
  for (int32_t v = 0; v < n; v++) {
    double c = 0;
    int eligible = 0;
    for (int64_t j = g->xadj[v]; j < g->xadj[v + 1]; j++) {
      int32_t u = g->adjncy[j];
      c += g->cwgt[j];
      eligible |= u < n && old[u] == old[v];
    }
    L->at[v] = (contract_attr){g->pwgt[v], g->rwgt[v], c, old[v], 0};
    ws->parent[v] = v;
    ws->owner[v] = old[v];
    ws->nvalid += eligible;
  }
}

int contract_ws_create(contract_ws *ws, const minex_graph *g,
                       const int32_t *old) {
  memset(ws, 0, sizeof *ws);
  int32_t n = g->nvtxs;
  size_t n2 = 2 * (size_t)n + 1;
  ws->g = g;
  ws->n = n;
  ws->vtot = n;
  ws->nactive = n;
  ws->lvcap = 16;
  ws->layout = &contract_layout_local;
  ws->lv = core_calloc((size_t)ws->lvcap, sizeof(contract_level));
  ws->parent = core_malloc(sizeof(int32_t) * n2);
  ws->owner = core_malloc(sizeof(int32_t) * n2);
  ws->interior = core_calloc(n2, 1);
  ws->map = core_malloc(sizeof(int32_t) * n2);
  int rc =
      ws->lv && ws->parent && ws->owner && ws->interior && ws->map
          ? contract_acc_reserve(&ws->acc, (int64_t)n2)
          : core_error(MINEX_ENOMEM,
                       "contraction: out of memory for %d vertices", (int)n);
  if (rc == MINEX_OK)
    rc = contract_level_alloc(&ws->lv[0], n);
  if (rc != MINEX_OK) {
    contract_ws_destroy(ws);
    return rc;
  }
  ws->nlevels = ws->nlevels_kept = 1;
  ws->lv[0].gnbase = n;
  contract_level0_init(ws, g, old);
  return MINEX_OK;
}

int contract_ws_create_coarse(contract_ws *ws, const minex_graph *g,
                              const contract_attr *at) {
  int32_t *old = core_malloc(sizeof(int32_t) * ((size_t)g->nvtxs + 1));
  if (old == NULL)
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  for (int32_t v = 0; v < g->nvtxs; v++)
    old[v] = at[v].old;
  int rc = contract_ws_create(ws, g, old);
  core_free(old);
  if (rc == MINEX_OK) {
    memcpy(ws->lv[0].at, at, sizeof *at * (size_t)g->nvtxs);
    rc = contract_freeze(ws);
  }
  return rc;
}

int contract_view_create(contract_ws *view, const contract_ws *ws) {
  *view = *ws;
  view->is_view = 1;
  size_t n2 = 2 * (size_t)ws->n + 1;
  view->lv = core_malloc(sizeof(contract_level) * (size_t)ws->lvcap);
  view->parent = core_malloc(sizeof(int32_t) * n2);
  view->owner = core_malloc(sizeof(int32_t) * n2);
  view->interior = core_calloc(n2, 1);
  view->map = core_malloc(sizeof(int32_t) * n2);
  memset(&view->acc, 0, sizeof view->acc);
  int rc =
      view->lv && view->parent && view->owner && view->interior && view->map
          ? contract_acc_reserve(&view->acc, (int64_t)n2)
          : core_error(MINEX_ENOMEM,
                       "contraction: out of memory for a view of %d "
                       "vertices",
                       (int)ws->n);
  if (rc != MINEX_OK) {
    contract_ws_destroy(view);
    return rc;
  }
  memcpy(view->lv, ws->lv, sizeof(contract_level) * (size_t)ws->lvcap);
  contract_rewind(view);
  return MINEX_OK;
}

void contract_ws_destroy(contract_ws *ws) {
  int32_t nl = ws->nlevels > ws->nlevels_kept ? ws->nlevels : ws->nlevels_kept;
  for (int32_t s = 0; ws->lv && !ws->is_view && s < nl; s++)
    contract_level_free(&ws->lv[s]);
  core_free(ws->lv);
  core_free(ws->parent);
  core_free(ws->owner);
  core_free(ws->interior);
  core_free(ws->map);
  contract_acc_free(&ws->acc);
  memset(ws, 0, sizeof *ws);
}

/* The chunks of level L: runs of one old owner, each cut into
 * ceil(len / CONTRACT_CHUNK) chunks of equal size. */
static int make_chunks(const contract_level *L, contract_chunk **out,
                       int32_t *nout) {
  int32_t nb = L->nbase, count = 0;
  for (int32_t k = 0; k < nb;) {
    int32_t e = k + 1;
    while (e < nb && L->at[e].old == L->at[k].old)
      e++;
    count += (e - k + CONTRACT_CHUNK - 1) / CONTRACT_CHUNK;
    k = e;
  }
  contract_chunk *ch = core_calloc((size_t)count + 1, sizeof *ch);
  if (ch == NULL)
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  int32_t c = 0;
  for (int32_t k = 0; k < nb;) {
    int32_t e = k + 1;
    while (e < nb && L->at[e].old == L->at[k].old)
      e++;
    int32_t pieces = (e - k + CONTRACT_CHUNK - 1) / CONTRACT_CHUNK;
    for (int32_t i = 0; i < pieces; i++) {
      ch[c].cs = k + (int32_t)((int64_t)(e - k) * i / pieces);
      ch[c].ce = k + (int32_t)((int64_t)(e - k) * (i + 1) / pieces);
      ch[c].part = L->at[k].old;
      ch[c].index = i;
      c++;
    }
    k = e;
  }
  *out = ch;
  *nout = count;
  return MINEX_OK;
}

/* A chunk and a key: sorted by key, largest first, ties in chunk order
 * (the quotas' fractional parts; the chunks' sizes). */
typedef struct share {
  double frac; /* the key                      */
  int32_t c;   /* chunk                        */
} share;

static int share_cmp(const void *a, const void *b) {
  const share *x = a, *y = b;
  if (x->frac != y->frac)
    return x->frac > y->frac ? -1 : 1;
  return (x->c > y->c) - (x->c < y->c);
}

/* The chunks' targets: a chunk without a pair keeps its vertices; the rest
 * of the target is shared among the others in proportion to their Pwgt (to
 * their sizes when they have none), so that a coarse vertex carries about
 * the same processing weight wherever it is: a heavy (refined) region
 * keeps more, lighter coarse vertices, as the sampling rule does within a
 * chunk (pairs of heavy remapping weight merge last). A quota above a
 * chunk's size is capped there and the excess shared again among the
 * others; the quotas are rounded by largest remainder (ties to the lower
 * chunk), at least 1 each. */
int contract_chunk_targets(contract_chunk *ch, int32_t nch, int64_t target) {
  int64_t rest = target;
  int32_t nlive = 0;
  for (int32_t c = 0; c < nch; c++) {
    int32_t m = ch[c].ce - ch[c].cs;
    ch[c].target = -1; /* not set yet */
    if (ch[c].nelig == 0) {
      ch[c].target = m;
      rest -= m;
    } else {
      nlive++;
    }
  }
  if (nlive == 0)
    return MINEX_OK;
  if (rest < 0)
    rest = 0;
  double wsum = 0;
  for (int32_t c = 0; c < nch; c++)
    if (ch[c].target < 0)
      wsum += ch[c].wgt;
  int by_size = !(wsum > 0) || !isfinite(wsum);
  /* water-filling: cap the chunks whose quota exceeds their size */
  for (;;) {
    double w = 0;
    for (int32_t c = 0; c < nch; c++)
      if (ch[c].target < 0)
        w += by_size ? (double)(ch[c].ce - ch[c].cs) : ch[c].wgt;
    int capped = 0;
    for (int32_t c = 0; c < nch && w > 0; c++) {
      int32_t m = ch[c].ce - ch[c].cs;
      double wc = by_size ? (double)m : ch[c].wgt;
      if (ch[c].target < 0 && (double)rest * (wc / w) >= m) {
        ch[c].target = m;
        rest -= m;
        capped = 1;
      }
    }
    if (rest < 0)
      rest = 0;
    if (!capped)
      break;
  }
  share *sh = core_malloc(sizeof(share) * (size_t)nlive);
  if (sh == NULL)
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  double w = 0;
  for (int32_t c = 0; c < nch; c++)
    if (ch[c].target < 0)
      w += by_size ? (double)(ch[c].ce - ch[c].cs) : ch[c].wgt;
  int64_t given = 0;
  int32_t k = 0;
  for (int32_t c = 0; c < nch; c++) {
    if (ch[c].target >= 0)
      continue;
    double wc = by_size ? (double)(ch[c].ce - ch[c].cs) : ch[c].wgt;
    double q = w > 0 ? (double)rest * (wc / w) : 0;
    double f = floor(q);
    ch[c].target = (int32_t)f;
    given += (int64_t)f;
    sh[k++] = (share){q - f, c};
  }
  qsort(sh, (size_t)k, sizeof *sh, share_cmp);
  for (int32_t i = 0; i < k && given < rest; i++, given++)
    ch[sh[i].c].target++;
  for (int32_t c = 0; c < nch; c++) {
    int32_t m = ch[c].ce - ch[c].cs;
    if (ch[c].target < 1)
      ch[c].target = 1;
    if (ch[c].target > m)
      ch[c].target = m;
  }
  core_free(sh);
  return MINEX_OK;
}

/* splitmix64's finaliser: the seed of a chunk's stream from the call's
 * seed, the level, the part and the chunk's index in the part. */
static uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static unsigned long chunk_seed(unsigned long seed, int32_t level,
                                const contract_chunk *c) {
  uint64_t z = mix64((uint64_t)seed);
  z = mix64(z ^ (uint64_t)(uint32_t)level);
  z = mix64(z ^ (uint64_t)(uint32_t)c->part);
  z = mix64(z ^ (uint64_t)(uint32_t)c->index);
  return (unsigned long)(z & 0xFFFFFFFFu);
}

/* Records a failure of chunk c (run on a worker thread, whose thread-local
 * message the caller cannot read). */
static void chunk_fail(contract_chunk *c, int rc) {
  c->rc = rc;
  snprintf(c->msg, sizeof c->msg, "%s", minex_last_error());
}

/* The first failure in chunk order, raised on the calling thread. */
static int chunks_status(const contract_chunk *ch, int32_t nch) {
  for (int32_t c = 0; c < nch; c++)
    if (ch[c].rc != MINEX_OK)
      return core_error(ch[c].rc, "%s", ch[c].msg);
  return MINEX_OK;
}

/* The next-level rows of chunk c's active vertices (level L's merges and
 * ws->map are complete), at the end of wk's row buffer. */
static int chunk_rows(contract_worker *all, const contract_level *L,
                      contract_chunk *c, const int32_t *map, int32_t aoff,
                      int t) {
  int32_t m = c->ce - c->cs;
  contract_worker *wk = &all[t];
  /* (a worker that kept no lists has none: no offset from NULL) */
  const contract_worker *src = &all[c->worker];
  const int32_t *madj = src->madj ? src->madj + c->mbase : NULL;
  const double *mcwgt = src->mcwgt ? src->mcwgt + c->mbase : NULL;
  int64_t cap = 0;
  for (int32_t i = 0; i < c->nactive; i++) {
    int32_t x = c->order[i];
    cap += x < m ? L->xadj[c->cs + x + 1] - L->xadj[c->cs + x] : c->mlen[x - m];
  }
  int rc = contract_worker_reserve(wk, 1, cap);
  if (rc != MINEX_OK)
    return rc;
  c->rbase = wk->rsize;
  c->rworker = t;
  c->relig = 0;
  for (int32_t i = 0; i < c->nactive; i++) {
    int32_t x = c->order[i], self = aoff + i, cnt = 0, eligible = 0;
    const int32_t *adj;
    const double *cw;
    int64_t len;
    int global = x < m;
    if (global) {
      int64_t b = L->xadj[c->cs + x];
      adj = L->adj + b;
      cw = L->cwgt + b;
      len = L->xadj[c->cs + x + 1] - b;
    } else {
      adj = madj + c->mstart[x - m];
      cw = mcwgt + c->mstart[x - m];
      len = c->mlen[x - m];
    }
    if ((rc = contract_acc_reserve(&wk->acc, len)) != MINEX_OK)
      return rc;
    contract_acc_begin(&wk->acc, len);
    for (int64_t j = 0; j < len; j++) {
      int32_t l = global ? contract_chunk_local(adj[j], c->cs, m) : adj[j];
      int32_t y = l >= 0 ? aoff + c->lnew[l] : map[-1 - l];
      if (y == self) /* an end merged into the vertex itself */
        continue;
      /* a ghost (id >= 2 nbase) is on another rank: another part */
      eligible |= l >= 0 || ((int64_t)(-1 - l) < 2 * (int64_t)L->nbase &&
                             L->at[-1 - l].old == c->part);
      contract_acc_add(&wk->acc, y, cw[j], &cnt);
    }
    if (cnt > 0) {
      memcpy(wk->radj + wk->rsize, wk->acc.list, sizeof(int32_t) * (size_t)cnt);
      memcpy(wk->rcwgt + wk->rsize, wk->acc.lacc, sizeof(double) * (size_t)cnt);
    }
    wk->rsize += cnt;
    c->rlen[i] = cnt;
    c->relig += eligible;
  }
  c->rsize = wk->rsize - c->rbase;
  return MINEX_OK;
}

/* The level ids of chunk c's local id x, once the offsets are known. */
static inline int32_t level_id(const contract_chunk *c, int32_t nb,
                               int32_t moff, int32_t x) {
  int32_t m = c->ce - c->cs;
  return x < 0 ? -1 - x : (x < m ? c->cs + x : nb + moff + (x - m));
}

/* Adds a parallel loop over the chunks (its wall time since t0, the
 * chunks' own times) to ws->par, and clears the chunks' times. */
static void par_region(contract_ws *ws, contract_chunk *ch, int32_t nch,
                       double t0) {
  double work = 0, span = 0;
  for (int32_t c = 0; c < nch; c++) {
    work += ch[c].secs;
    span = ch[c].secs > span ? ch[c].secs : span;
    ch[c].secs = 0;
  }
  ws->par.wall += core_wtime() - t0;
  ws->par.work += work;
  ws->par.span += span;
}

/* One level's chunks as contract_run swept them: the chunks, the order
 * the threads take them in, the workers' buffers. */
typedef struct level_job {
  contract_chunk *ch;
  int32_t nch;
  const int32_t *work;
  contract_worker *wk;
  int nt;
} level_job;

/* Where each chunk's share starts in the level's arrays: merges, active
 * vertices, merged lists, new rows (nch + 1 entries each). */
typedef struct level_offsets {
  int32_t *moff, *aoff;
  int64_t *soff, *roff;
} level_offsets;

static void level_offsets_free(level_offsets *o) {
  core_free(o->moff), core_free(o->aoff), core_free(o->soff),
      core_free(o->roff);
}

/* The arrays of L's K merges (S list entries) and of the next level N of
 * A vertices; a level slot more when the workspace is full. */
static int level_alloc(contract_ws *ws, int32_t K, int32_t A, int64_t S) {
  if (ws->nlevels == ws->lvcap) {
    contract_level *a =
        core_realloc(ws->lv, sizeof(contract_level) * 2 * (size_t)ws->lvcap);
    if (a == NULL)
      return core_error(MINEX_ENOMEM, "contraction: out of memory");
    memset(a + ws->lvcap, 0, sizeof(contract_level) * (size_t)ws->lvcap);
    ws->lv = a;
    ws->lvcap *= 2;
  }
  contract_level *L = contract_cur(ws), *N = &ws->lv[ws->nlevels];
  int32_t nb = L->nbase;
  int rc = MINEX_OK;
  contract_attr *at =
      core_realloc(L->at, sizeof(contract_attr) * ((size_t)nb + (size_t)K + 1));
  if (at != NULL)
    L->at = at;
  L->child = core_malloc(sizeof(int32_t) * (2 * (size_t)K + 1));
  L->mstart = core_malloc(sizeof(int64_t) * ((size_t)K + 1));
  L->mlen = core_malloc(sizeof(int32_t) * ((size_t)K + 1));
  if (!ws->drop_lists) {
    L->madj = core_malloc(sizeof(int32_t) * ((size_t)S + 1));
    L->mcwgt = core_malloc(sizeof(double) * ((size_t)S + 1));
  }
  if (!at || !L->child || !L->mstart || !L->mlen ||
      (!ws->drop_lists && (!L->madj || !L->mcwgt)) ||
      (rc = contract_level_alloc(N, A)) != MINEX_OK)
    return core_error(MINEX_ENOMEM,
                      "contraction: out of memory for a level of %d merges",
                      (int)K);
  N->lower = core_malloc(sizeof(int32_t) * ((size_t)A + 1));
  N->own_xadj = core_malloc(sizeof(int64_t) * ((size_t)A + 1));
  if (!N->lower || !N->own_xadj)
    return core_error(MINEX_ENOMEM,
                      "contraction: out of memory for a level of %d vertices",
                      (int)A);
  L->mcap = S;
  L->cap = nb + K;
  return MINEX_OK;
}

/* The merges into L, the new vertices' records, and the new id of every
 * base vertex of L (ws->map, for the ends that other chunks hold). */
static void level_merges(contract_ws *ws, const level_job *j,
                         const level_offsets *o) {
  contract_level *L = contract_cur(ws), *N = &ws->lv[ws->nlevels];
  int32_t nb = L->nbase, *map = ws->map;
  const contract_worker *wk = j->wk;
  double tr = core_wtime();
#pragma omp parallel for schedule(dynamic, 1) num_threads(j->nt) if (j->nt > 1)
  for (int32_t i = 0; i < j->nch; i++) {
    double tu = core_wtime();
    contract_chunk *c = &j->ch[j->work[i]];
    int32_t ci = j->work[i], m = c->ce - c->cs, mo = o->moff[ci],
            ao = o->aoff[ci];
    for (int32_t k = 0; k < c->nmerge; k++) {
      L->child[2 * (mo + k)] = level_id(c, nb, mo, c->child[2 * k]);
      L->child[2 * (mo + k) + 1] = level_id(c, nb, mo, c->child[2 * k + 1]);
      L->mstart[mo + k] = o->soff[ci] + c->mstart[k];
      L->mlen[mo + k] = c->mlen[k];
      L->at[nb + mo + k] = c->at[k];
    }
    const int32_t *madj = c->msize > 0 ? wk[c->worker].madj + c->mbase : NULL;
    if (c->msize > 0 && L->mcwgt != NULL)
      memcpy(L->mcwgt + o->soff[ci], wk[c->worker].mcwgt + c->mbase,
             sizeof(double) * (size_t)c->msize);
    for (int64_t e = 0; L->madj != NULL && e < c->msize; e++)
      L->madj[o->soff[ci] + e] = level_id(c, nb, mo, madj[e]);
    for (int32_t k = 0; k < c->nactive; k++) {
      int32_t x = c->order[k];
      N->lower[ao + k] = level_id(c, nb, mo, x);
      N->at[ao + k] = x < m ? L->at[c->cs + x] : c->at[x - m];
    }
    for (int32_t x = 0; x < m; x++)
      map[c->cs + x] = ao + c->lnew[x];
    c->secs = core_wtime() - tu;
  }
  par_region(ws, j->ch, j->nch, tr);
}

/* The next level's rows, once every map entry is in: each chunk's in its
 * worker's buffer, then copied in chunk order. */
static int level_rows(contract_ws *ws, const level_job *j, level_offsets *o,
                      int32_t A) {
  contract_level *L = contract_cur(ws), *N = &ws->lv[ws->nlevels];
  contract_chunk *ch = j->ch;
  contract_worker *wk = j->wk;
  double tr = core_wtime();
  minex_workspace *pool = core_pool_current();
#pragma omp parallel for schedule(dynamic, 1) num_threads(j->nt) if (j->nt > 1)
  for (int32_t i = 0; i < j->nch; i++) {
    double tu = core_wtime();
    minex_workspace *prev = core_pool_swap(pool); /* the call's buffers */
    contract_chunk *c = &ch[j->work[i]];
    int t = core_thread_num();
    int r = chunk_rows(wk, L, c, ws->map, o->aoff[j->work[i]], t);
    if (r != MINEX_OK)
      chunk_fail(c, r);
    core_pool_swap(prev);
    c->secs = core_wtime() - tu;
  }
  par_region(ws, ch, j->nch, tr);
  int rc = chunks_status(ch, j->nch);
  if (rc != MINEX_OK)
    return rc;
  int64_t *roff = o->roff;
  roff[0] = 0;
  for (int32_t c = 0; c < j->nch; c++)
    roff[c + 1] = roff[c] + ch[c].rsize;
  N->own_adj = core_malloc(sizeof(int32_t) * ((size_t)roff[j->nch] + 1));
  N->own_cwgt = core_malloc(sizeof(double) * ((size_t)roff[j->nch] + 1));
  if (!N->own_adj || !N->own_cwgt)
    return core_error(MINEX_ENOMEM,
                      "contraction: out of memory for a level of %d vertices",
                      (int)A);
  tr = core_wtime();
#pragma omp parallel for schedule(dynamic, 1) num_threads(j->nt) if (j->nt > 1)
  for (int32_t i = 0; i < j->nch; i++) {
    double tu = core_wtime();
    contract_chunk *c = &ch[j->work[i]];
    int32_t ao = o->aoff[j->work[i]];
    int64_t e = roff[j->work[i]];
    if (c->rsize > 0) {
      memcpy(N->own_adj + e, wk[c->rworker].radj + c->rbase,
             sizeof(int32_t) * (size_t)c->rsize);
      memcpy(N->own_cwgt + e, wk[c->rworker].rcwgt + c->rbase,
             sizeof(double) * (size_t)c->rsize);
    }
    for (int32_t k = 0; k < c->nactive; k++) {
      N->own_xadj[ao + k] = e;
      e += c->rlen[k];
    }
    c->secs = core_wtime() - tu;
  }
  par_region(ws, ch, j->nch, tr);
  N->own_xadj[A] = roff[j->nch];
  return MINEX_OK;
}

/* The new level N of A vertices becomes current, over L's K merges (S
 * list entries). */
static void level_push(contract_ws *ws, const level_job *j, int32_t K,
                       int32_t A, int64_t S) {
  contract_level *L = contract_cur(ws), *N = &ws->lv[ws->nlevels];
  N->xadj = N->own_xadj;
  N->adj = N->own_adj;
  N->cwgt = N->own_cwgt;
  L->nmerge = K;
  L->msize = S;
  ws->nvalid = 0;
  for (int32_t c = 0; c < j->nch; c++)
    ws->nvalid += j->ch[c].relig;
  ws->vtot += K;
  ws->nactive = A;
  ws->nlevels++;
  ws->nlevels_kept = ws->nlevels;
  for (int32_t k = 0; k < A; k++) {
    ws->parent[k] = k;
    ws->owner[k] = N->at[k].old;
  }
}

/* Writes the merges of the chunks into the current level L (in chunk
 * order) and builds the next level from their active vertices. */
static int assemble(contract_ws *ws, const level_job *j) {
  for (int t = 0; t < j->nt; t++)
    j->wk[t].rsize = 0;
  int32_t nch = j->nch;
  const contract_chunk *ch = j->ch;
  level_offsets o;
  o.moff = core_malloc(sizeof(int32_t) * ((size_t)nch + 1));
  o.aoff = core_malloc(sizeof(int32_t) * ((size_t)nch + 1));
  o.soff = core_malloc(sizeof(int64_t) * ((size_t)nch + 1));
  o.roff = core_malloc(sizeof(int64_t) * ((size_t)nch + 1));
  int rc = o.moff && o.aoff && o.soff && o.roff
               ? MINEX_OK
               : core_error(MINEX_ENOMEM, "contraction: out of memory");
  int32_t K = 0, A = 0;
  int64_t S = 0;
  if (rc == MINEX_OK) {
    o.moff[0] = o.aoff[0] = 0;
    o.soff[0] = 0;
    for (int32_t c = 0; c < nch; c++) {
      o.moff[c + 1] = o.moff[c] + ch[c].nmerge;
      o.aoff[c + 1] = o.aoff[c] + ch[c].nactive;
      o.soff[c + 1] = o.soff[c] + ch[c].msize;
    }
    K = o.moff[nch], A = o.aoff[nch];
    S = o.soff[nch];
    rc = level_alloc(ws, K, A, S);
  }
  if (rc == MINEX_OK)
    level_merges(ws, j, &o);
  /* the new rows, once every map entry is in (spread over ranks: the
     ghosts' too; a failure above rides in the renumbering's first
     collective, so that every rank makes the same ones) */
  contract_level *L = contract_cur(ws);
  rc = dist_ghost_renumber(ws, L, &ws->lv[ws->nlevels], K, A, rc);
  if (rc == MINEX_OK)
    rc = level_rows(ws, j, &o, A);
  if (rc == MINEX_OK)
    level_push(ws, j, K, A, S);
  /* a level left unfinished is not in the workspace: free it here */
  if (rc != MINEX_OK && ws->nlevels < ws->lvcap)
    contract_level_free(&ws->lv[ws->nlevels]);
  level_offsets_free(&o);
  return rc;
}

/* Chunks by size, largest first (ties in chunk order): the order in which
 * the threads take them, so that a large part does not come last. */
static int32_t *work_order(const contract_chunk *ch, int32_t nch) {
  share *k = core_malloc(sizeof(share) * ((size_t)nch + 1));
  int32_t *work = core_malloc(sizeof(int32_t) * ((size_t)nch + 1));
  if (k && work) {
    for (int32_t c = 0; c < nch; c++)
      k[c] = (share){(double)(ch[c].ce - ch[c].cs), c};
    qsort(k, (size_t)nch, sizeof *k, share_cmp);
    for (int32_t c = 0; c < nch; c++)
      work[c] = k[c].c;
  } else {
    core_free(work);
    work = NULL;
  }
  core_free(k);
  return work;
}

/* The level-sized arrays whose slices the chunks use (contract_chunk),
 * for levels of up to cap base vertices. */
typedef struct slices {
  int32_t *child, *mlen, *lnew, *order;
  int64_t *mstart, *rlen;
  contract_attr *at;
} slices;

static void slices_free(slices *sl) {
  core_free(sl->child), core_free(sl->mlen), core_free(sl->lnew),
      core_free(sl->order);
  core_free(sl->mstart), core_free(sl->rlen), core_free(sl->at);
}

static int slices_alloc(slices *sl, int32_t cap) {
  size_t k = (size_t)cap + 1;
  sl->child = core_malloc(sizeof(int32_t) * 2 * k);
  sl->mlen = core_malloc(sizeof(int32_t) * k);
  sl->lnew = core_malloc(sizeof(int32_t) * 2 * k);
  sl->order = core_malloc(sizeof(int32_t) * k);
  sl->mstart = core_malloc(sizeof(int64_t) * k);
  sl->rlen = core_malloc(sizeof(int64_t) * k);
  sl->at = core_malloc(sizeof(contract_attr) * k);
  if (!sl->child || !sl->mlen || !sl->lnew || !sl->order || !sl->mstart ||
      !sl->rlen || !sl->at)
    return core_error(MINEX_ENOMEM,
                      "contraction: out of memory for %d vertices", (int)cap);
  return MINEX_OK;
}

/* Chunk c's slices: at most m - 1 merges and m active vertices. */
static void slices_give(const slices *sl, contract_chunk *c) {
  size_t cs = (size_t)c->cs;
  c->child = sl->child + 2 * cs;
  c->mlen = sl->mlen + cs;
  c->lnew = sl->lnew + 2 * cs;
  c->order = sl->order + cs;
  c->mstart = sl->mstart + cs;
  c->rlen = sl->rlen + cs;
  c->at = sl->at + cs;
}

/* Each chunk's eligible vertices and weight (in the chunk's order: the
 * same sum on any thread). */
static void chunks_weigh(contract_ws *ws, const level_job *j) {
  const contract_level *L = contract_cur(ws);
  double tr = core_wtime();
#pragma omp parallel for schedule(dynamic, 1) num_threads(j->nt) if (j->nt > 1)
  for (int32_t i = 0; i < j->nch; i++) {
    double tu = core_wtime();
    contract_chunk *c = &j->ch[j->work[i]];
    c->nelig = contract_chunk_eligible(L, c);
    double w = 0;
    for (int32_t x = c->cs; x < c->ce; x++)
      w += L->at[x].pwgt;
    c->wgt = w;
    c->secs = core_wtime() - tu;
  }
  par_region(ws, j->ch, j->nch, tr);
}

/* How a level's chunks merge: clusters (cluster.c) or the sampled sweep
 * with sample_size, each chunk's seed drawn from seed and the level. */
typedef struct sweep_rule {
  int clusters;
  int32_t sample_size, level;
  unsigned long seed;
} sweep_rule;

/* The merges of every chunk of the current level, each in its slices of
 * sl. */
static int chunks_sweep(contract_ws *ws, const level_job *j, const slices *sl,
                        const sweep_rule *sr) {
  const contract_level *L = contract_cur(ws);
  double tr = core_wtime();
  minex_workspace *pool = core_pool_current();
#pragma omp parallel for schedule(dynamic, 1) num_threads(j->nt) if (j->nt > 1)
  for (int32_t i = 0; i < j->nch; i++) {
    double tu = core_wtime();
    minex_workspace *prev = core_pool_swap(pool); /* the call's buffers */
    contract_chunk *c = &j->ch[j->work[i]];
    int t = core_thread_num();
    slices_give(sl, c);
    c->worker = t;
    unsigned long cs = chunk_seed(sr->seed, sr->level, c);
    int r = sr->clusters
                ? contract_chunk_cluster(&j->wk[t], L, c, cs, !ws->drop_lists)
                : contract_chunk_sweep(&j->wk[t], L, c, sr->sample_size, cs);
    if (r != MINEX_OK)
      chunk_fail(c, r);
    core_pool_swap(prev);
    c->secs = core_wtime() - tu;
  }
  par_region(ws, j->ch, j->nch, tr);
  return chunks_status(j->ch, j->nch);
}

int contract_run(contract_ws *ws, int32_t target, int32_t sample_size,
                 unsigned long seed, int nthreads) {
  if (sample_size < 1 || sample_size > MINEX_SAMPLE_SIZE_MAX)
    return core_error(MINEX_EINVAL,
                      "contraction: sample size %ld outside "
                      "[1, %d]",
                      (long)sample_size, MINEX_SAMPLE_SIZE_MAX);
  const dist_comm *cm = ws->comm;
  /* active and eligible vertices, of every rank when spread */
  int64_t tot[2] = {ws->nactive, ws->nvalid};
  int rc = dist_sum_or(cm, tot, 2);
  if (rc != MINEX_OK || tot[0] <= target || tot[1] == 0)
    return rc;
  int nt = nthreads > 1 ? nthreads : 1;
  contract_worker *wk = core_calloc((size_t)nt, sizeof *wk);
  slices sl;
  memset(&sl, 0, sizeof sl);
  rc = wk ? slices_alloc(&sl, contract_cur(ws)->nbase)
          : core_error(MINEX_ENOMEM, "contraction: out of memory");
  rc = dist_agree_or(cm, rc);
  int cluster_ok = 1; /* cluster levels still allowed (below) */
  for (int32_t round = 0; rc == MINEX_OK && round < CONTRACT_MAX_LEVELS &&
                          tot[0] > target && tot[1] > 0;
       round++) {
    contract_level *L = contract_cur(ws);
    contract_chunk *ch = NULL;
    int32_t nch = 0, *work = NULL;
    if ((rc = make_chunks(L, &ch, &nch)) == MINEX_OK &&
        (work = work_order(ch, nch)) == NULL)
      rc = core_error(MINEX_ENOMEM, "contraction: out of memory");
    level_job job = {ch, nch, work, wk, nt};
    if (rc == MINEX_OK) {
      for (int t = 0; t < nt; t++)
        wk[t].msize = 0;
      chunks_weigh(ws, &job);
    }
    rc = dist_agree_or(cm, rc);
    if (rc != MINEX_OK) {
      core_free(ch);
      core_free(work);
      break;
    }
    int32_t level = ws->nlevels - 1;
    /* tot[0] is every rank's: the same choice on all of them */
    int clusters = cluster_ok && ws->cluster_factor > 0 &&
                   tot[0] > (int64_t)ws->cluster_factor * target;
    double t0 = core_wtime();
    rc = dist_chunk_targets(cm, ch, nch, target);
    if (rc == MINEX_OK)
      rc = chunks_sweep(ws, &job, &sl,
                        &(sweep_rule){clusters, sample_size, level, seed});
    double t1 = core_wtime();
    int64_t merges = 0;
    for (int32_t c = 0; c < nch && rc == MINEX_OK; c++)
      merges += ch[c].nmerge;
    rc = dist_agree_or(cm, rc);
    if (rc == MINEX_OK)
      rc = dist_sum_or(cm, &merges, 1);
    if (rc == MINEX_OK && merges > 0)
      rc = assemble(ws, &job);
    /* a rank's rows may have failed after the exchange */
    rc = dist_agree_or(cm, rc);
    ws->seconds_sweep += t1 - t0;
    ws->seconds_levels += core_wtime() - t1;
    core_free(ch);
    core_free(work);
    /* a cluster level that merged less than the sweep's fraction (a
       vertex joins only clusters of fewer than CONTRACT_CLUSTER_SIZE: hubs
       whose neighbours are leaves merge two of them a level) ends the
       cluster levels of the call; merges is every rank's */
    if (clusters && (int64_t)CONTRACT_LEVEL_FRACTION * merges < tot[0])
      cluster_ok = 0;
    if (rc != MINEX_OK || (merges == 0 && !clusters))
      break;
    tot[0] = ws->nactive;
    tot[1] = ws->nvalid;
    rc = dist_sum_or(cm, tot, 2);
  }
  for (int t = 0; wk && t < nt; t++)
    contract_worker_free(&wk[t]);
  core_free(wk);
  slices_free(&sl);
  return rc;
}
