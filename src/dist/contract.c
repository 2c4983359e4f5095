/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The contraction spread over ranks (src/contract's steps that need the
 * other ranks): the workspace of a rank's share, the global numbering of a
 * level's merges and ghosts, the sums and the chunks' targets over every
 * rank. Without a communicator each step is the serial one or nothing. */
#include "dist/contract.h"
#include "dist/dist.h"

#include <stdlib.h>
#include <string.h>

int contract_ws_create_dist(contract_ws *ws, const dist_part *d,
                            const dist_comm *comm) {
  const minex_graph *g = &d->g;
  int32_t nghost = d->nghost;
  memset(ws, 0, sizeof *ws);
  int32_t n = g->nvtxs;
  size_t n2 = 2 * (size_t)n + (size_t)nghost + 1;
  ws->g = g;
  ws->n = n;
  ws->vtot = n;
  ws->nactive = n;
  ws->lvcap = 16;
  ws->comm = comm;
  ws->layout = &dist_layout;
  ws->lv = core_calloc((size_t)ws->lvcap, sizeof(contract_level));
  ws->parent = core_malloc(sizeof(int32_t) * n2);
  ws->owner = core_malloc(sizeof(int32_t) * n2);
  ws->interior = core_calloc(n2, 1);
  ws->map = core_malloc(sizeof(int32_t) * n2);
  int rc = ws->lv && ws->parent && ws->owner && ws->interior && ws->map
               ? contract_acc_reserve(&ws->acc, (int64_t)n2)
               : core_error(MINEX_ENOMEM,
                            "contraction: out of memory for %d vertices and %d "
                            "ghosts",
                            (int)n, (int)nghost);
  if (rc == MINEX_OK)
    rc = contract_level_alloc(&ws->lv[0], n);
  contract_level *L = ws->lv ? &ws->lv[0] : NULL;
  if (rc == MINEX_OK) {
    L->ghost_gid = core_malloc(sizeof(int64_t) * ((size_t)nghost + 1));
    L->ghost_rank = core_malloc(sizeof(int32_t) * ((size_t)nghost + 1));
    L->rank_goff = core_malloc(sizeof(int64_t) * ((size_t)comm->size + 1));
    if (L->ghost_gid == NULL || L->ghost_rank == NULL || L->rank_goff == NULL)
      rc = core_error(MINEX_ENOMEM, "contraction: out of memory for %d ghosts",
                      (int)nghost);
  }
  if (rc != MINEX_OK) {
    ws->nlevels = ws->nlevels_kept = ws->lv ? 1 : 0;
    contract_ws_destroy(ws);
    return rc;
  }
  ws->nlevels = ws->nlevels_kept = 1;
  if (nghost > 0) {
    memcpy(L->ghost_gid, d->ghost_gid, sizeof(int64_t) * (size_t)nghost);
    memcpy(L->ghost_rank, d->ghost_rank, sizeof(int32_t) * (size_t)nghost);
  }
  L->nghost = nghost;
  L->goff = d->goff;
  L->gnbase = d->gn;
  /* every rank's first id: the parts come in part order, their home ranks
     rise with them (dist_home_rank), so rank r's first id is that of the
     first part homed at r or above */
  for (int r = 0, p = 0; r <= comm->size; r++) {
    while (p < d->nparts && dist_home_rank(p, d->nparts, comm->size) < r)
      p++;
    L->rank_goff[r] = d->first[p];
  }
  contract_level0_init(ws, g, d->old);
  return MINEX_OK;
}

/* Spread over ranks, once the merges of level L (K here) and the next
 * level's ids of L's base vertices (map) are known: the global numbering
 * of L's merges and of the next level N (A vertices here), and N's ghosts.
 * Each rank sends, for each base vertex with an end on rank t, (its global
 * id, the global id of its representative in N) to t; rows are symmetric,
 * so a rank receives its ghosts exactly, in id order. map[2 nb + g] then
 * gets the id in N of ghost g's representative. Collective. */
/* For each base vertex of L with an end on rank t, (its global id, the
 * global id of its representative in N) to t, grouped by destination,
 * base vertices in id order: *pairs, cnt[t] bytes for rank t. */
static int renumber_pairs(const contract_ws *ws, const contract_level *L,
                          const contract_level *N, int64_t **pairs,
                          int64_t *cnt) {
  int size = ws->comm->size;
  int32_t nb = L->nbase, *map = ws->map;
  int32_t *seen = core_malloc(sizeof(int32_t) * ((size_t)size + 1));
  int64_t *pos = core_calloc((size_t)size + 1, sizeof *pos);
  int rc = seen && pos ? MINEX_OK
                       : core_error(MINEX_ENOMEM, "contraction: out of memory");
  for (int r = 0; r < size && rc == MINEX_OK; r++)
    seen[r] = -1, cnt[r] = 0;
  int64_t npairs = 0;
  for (int pass = 0; pass < 2 && rc == MINEX_OK; pass++) {
    for (int32_t x = 0; x < nb; x++)
      for (int64_t j = L->xadj[x]; j < L->xadj[x + 1]; j++) {
        int64_t u = (int64_t)L->adj[j] - 2 * (int64_t)nb;
        if (u < 0 || seen[L->ghost_rank[u]] == x)
          continue;
        int t = L->ghost_rank[u];
        seen[t] = x;
        if (pass == 0) {
          cnt[t]++;
          npairs++;
        } else {
          (*pairs)[2 * pos[t]] = L->goff + x;
          (*pairs)[2 * pos[t] + 1] = N->goff + map[x];
          pos[t]++;
        }
      }
    if (pass == 0) {
      *pairs = core_malloc(sizeof(int64_t) * (2 * (size_t)npairs + 1));
      if (*pairs == NULL) {
        rc = core_error(MINEX_ENOMEM,
                        "contraction: out of memory for %lld "
                        "ghost ids",
                        (long long)npairs);
        break;
      }
      pos[0] = 0;
      for (int r = 0; r < size; r++) {
        pos[r + 1] = pos[r] + cnt[r];
        seen[r] = -1;
        cnt[r] *= 16;
      }
    }
  }
  core_free(seen), core_free(pos);
  return rc;
}

/* The representative in N of each ghost of L (newg, by ghost), from the
 * pairs received (recv, rcnt[r] bytes from rank r; each source's block in
 * the ghosts' order), checked to match the ghosts one for one. */
static int renumber_match(const contract_ws *ws, const contract_level *L,
                          const int64_t *recv, const int64_t *rcnt,
                          int64_t *newg) {
  int size = ws->comm->size, rank = ws->comm->rank;
  int32_t ng = L->nghost;
  /* pos[r] where block r is read, end[r] where it ends */
  int64_t *pos = core_calloc((size_t)size + 1, sizeof *pos);
  int64_t *end = core_calloc((size_t)size + 1, sizeof *end);
  if (!pos || !end) {
    core_free(pos), core_free(end);
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  }
  int rc = MINEX_OK;
  for (int r = 0; r < size; r++)
    end[r] = pos[r + 1] = pos[r] + rcnt[r] / 16;
  for (int32_t g = 0; g < ng && rc == MINEX_OK; g++) {
    int t = L->ghost_rank[g];
    if (pos[t] >= end[t] || recv[2 * pos[t]] != L->ghost_gid[g]) {
      rc = core_error(MINEX_EINTERNAL,
                      "contraction: rank %d: ghost %lld of level %d not "
                      "announced by rank %d (rows not symmetric)",
                      rank, (long long)L->ghost_gid[g], (int)(ws->nlevels - 1),
                      t);
      break;
    }
    newg[g] = recv[2 * pos[t] + 1];
    pos[t]++;
  }
  for (int r = 0; r < size && rc == MINEX_OK; r++)
    if (pos[r] != end[r]) /* a pair that matches no ghost */
      rc = core_error(MINEX_EINTERNAL,
                      "contraction: rank %d: rank %d announced vertex %lld "
                      "of level %d, not a ghost here (rows not symmetric)",
                      rank, r, (long long)recv[2 * pos[r]],
                      (int)(ws->nlevels - 1));
  core_free(pos), core_free(end);
  return rc;
}

/* N's ghosts: the distinct representatives of L's ghosts (newg), ascending,
 * with their ranks (off: every rank's first id of N); L's ghost g goes up
 * to N's ghost ghost_up[g], local id 2 A + that in map. */
static int renumber_ghosts(contract_ws *ws, contract_level *L,
                           contract_level *N, int32_t A, const int64_t *newg,
                           const int64_t *off) {
  int size = ws->comm->size;
  int32_t nb = L->nbase, ng = L->nghost;
  int64_t *uniq = core_malloc(sizeof(int64_t) * ((size_t)ng + 1));
  if (uniq == NULL)
    return core_error(MINEX_ENOMEM, "contraction: out of memory");
  if (ng > 0)
    memcpy(uniq, newg, sizeof *uniq * (size_t)ng);
  qsort(uniq, (size_t)ng, sizeof *uniq, core_i64_cmp);
  int32_t nu = 0;
  for (int32_t g = 0; g < ng; g++)
    if (nu == 0 || uniq[nu - 1] != uniq[g])
      uniq[nu++] = uniq[g];
  int rc = MINEX_OK;
  N->ghost_gid = core_malloc(sizeof(int64_t) * ((size_t)nu + 1));
  N->ghost_rank = core_malloc(sizeof(int32_t) * ((size_t)nu + 1));
  if (N->ghost_gid == NULL || N->ghost_rank == NULL) {
    rc = core_error(MINEX_ENOMEM, "contraction: out of memory for %d ghosts",
                    (int)nu);
  } else {
    core_free(L->ghost_up);
    if ((L->ghost_up = core_malloc(sizeof(int32_t) * ((size_t)ng + 1))) == NULL)
      rc = core_error(MINEX_ENOMEM, "contraction: out of memory for %d ghosts",
                      (int)ng);
  }
  if (rc == MINEX_OK) {
    N->nghost = nu;
    for (int32_t g = 0; g < nu; g++) {
      N->ghost_gid[g] = uniq[g];
      N->ghost_rank[g] = (int32_t)(core_lower_i64(off + 1, size, uniq[g] + 1));
    }
    for (int32_t g = 0; g < ng; g++) {
      L->ghost_up[g] = (int32_t)core_lower_i64(uniq, nu, newg[g]);
      ws->map[2 * nb + g] = 2 * A + L->ghost_up[g];
    }
  }
  core_free(uniq);
  return rc;
}

int dist_ghost_renumber(contract_ws *ws, contract_level *L, contract_level *N,
                        int32_t K, int32_t A, int rc0) {
  const dist_comm *cm = ws->comm;
  if (cm == NULL) {
    if (rc0 == MINEX_OK)
      N->gnbase = A;
    return rc0;
  }
  int size = cm->size, rank = cm->rank;
  int64_t mine[2] = {K, A}, *all = NULL, *pairs = NULL, *recv = NULL;
  int64_t *cnt = core_calloc((size_t)size, sizeof *cnt);
  int64_t *rcnt = core_calloc((size_t)size, sizeof *rcnt);
  int64_t *off = core_calloc((size_t)size + 1, sizeof *off);
  int64_t *newg = core_malloc(sizeof(int64_t) * ((size_t)L->nghost + 1));
  int rc = rc0 != MINEX_OK || (cnt && rcnt && off && newg)
               ? rc0
               : core_error(MINEX_ENOMEM, "contraction: out of memory");
  if ((rc = cm->allgather(cm->ctx, rc, mine, sizeof mine, sizeof mine,
                          (void **)&all, cnt)) != MINEX_OK)
    goto out;
  int64_t moff = 0;
  for (int r = 0; r < size; r++) {
    off[r + 1] = off[r] + all[2 * r + 1];
    moff += r < rank ? all[2 * r] : 0;
  }
  L->gmoff = moff;
  N->goff = off[rank];
  N->gnbase = off[size];
  rc = renumber_pairs(ws, L, N, &pairs, cnt);
  if ((rc = cm->exchange(cm->ctx, rc, pairs, cnt, (void **)&recv, rcnt)) !=
      MINEX_OK)
    goto out;
  if ((rc = renumber_match(ws, L, recv, rcnt, newg)) == MINEX_OK)
    rc = renumber_ghosts(ws, L, N, A, newg, off);
  if (rc == MINEX_OK) { /* every rank's first id, for the rounds */
    N->rank_goff = off;
    off = NULL;
  }
out:
  core_free(cnt), core_free(rcnt), core_free(off), core_free(newg);
  core_free(all), core_free(pairs), core_free(recv);
  return rc;
}

/* Spread over ranks: v[0..n-1] summed over the ranks (collective). */
int dist_sum_or(const dist_comm *cm, int64_t *v, int n) {
  if (cm == NULL)
    return MINEX_OK;
  int64_t *all = NULL;
  int64_t *cnt = core_calloc((size_t)cm->size, sizeof *cnt);
  int rc =
      cnt ? MINEX_OK : core_error(MINEX_ENOMEM, "contraction: out of memory");
  if ((rc = cm->allgather(cm->ctx, rc, v, 8 * (int64_t)n, 8 * (int64_t)n,
                          (void **)&all, cnt)) == MINEX_OK)
    for (int i = 0; i < n; i++) {
      v[i] = 0;
      for (int r = 0; r < cm->size; r++)
        v[i] += all[(size_t)r * (size_t)n + (size_t)i];
    }
  core_free(all);
  core_free(cnt);
  return rc;
}

/* A chunk's figures for the targets (chunk_targets), as sent to every
 * rank. */
typedef struct chunk_fig {
  int32_t m, nelig;
  double wgt;
} chunk_fig;

/* Spread over ranks: the targets of this rank's chunks, shared among every
 * rank's chunks in rank order (the whole level's chunk order) as
 * chunk_targets shares them on one process. Collective. */
int dist_chunk_targets(const dist_comm *cm, contract_chunk *ch, int32_t nch,
                       int64_t target) {
  if (cm == NULL)
    return contract_chunk_targets(ch, nch, target);
  chunk_fig *mine = core_malloc(sizeof *mine * ((size_t)nch + 1)), *all = NULL;
  int64_t *cnt = core_calloc((size_t)cm->size, sizeof *cnt);
  contract_chunk *every = NULL;
  int rc = mine && cnt ? MINEX_OK
                       : core_error(MINEX_ENOMEM, "contraction: out of memory");
  for (int32_t c = 0; rc == MINEX_OK && c < nch; c++)
    mine[c] = (chunk_fig){ch[c].ce - ch[c].cs, ch[c].nelig, ch[c].wgt};
  if ((rc = cm->allgather(cm->ctx, rc, mine, (int64_t)sizeof *mine * nch, -1,
                          (void **)&all, cnt)) != MINEX_OK)
    goto out;
  int64_t nall = 0, first = 0;
  for (int r = 0; r < cm->size; r++) {
    first += r < cm->rank ? cnt[r] / (int64_t)sizeof *mine : 0;
    nall += cnt[r] / (int64_t)sizeof *mine;
  }
  if ((every = core_calloc((size_t)nall + 1, sizeof *every)) == NULL) {
    rc = core_error(MINEX_ENOMEM, "contraction: out of memory for %lld chunks",
                    (long long)nall);
    goto out;
  }
  for (int64_t c = 0; c < nall; c++) {
    every[c].ce = all[c].m;
    every[c].nelig = all[c].nelig;
    every[c].wgt = all[c].wgt;
  }
  if ((rc = contract_chunk_targets(every, (int32_t)nall, target)) == MINEX_OK)
    for (int32_t c = 0; c < nch; c++)
      ch[c].target = every[first + c].target;
out:
  core_free(mine), core_free(all), core_free(cnt), core_free(every);
  return rc;
}
