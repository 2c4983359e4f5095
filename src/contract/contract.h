/* Graph contraction (SPEC §3 "Contraction", paper §3.4–3.5): same-owner
 * pairs are merged one at a time into new vertices; union/find with merge
 * and lookup (Fig. 2) resolves stale edge ends, so the edge lists of
 * unmerged vertices stay untouched. The workspace is also the multilevel
 * graph that the partition and expansion phases walk. */
#ifndef MINEX_CONTRACT_H
#define MINEX_CONTRACT_H

#include "core/core.h"

#include <gsl/gsl_rng.h>

/* Vertex ids: 0..n-1 are the graph's vertices; the k-th merge creates id
 * n+k. An id is active when it has not been merged (merge == -1) and is
 * below vtot. */
/* What the inner loops read of an id, in one 32-byte record: a neighbour
 * costs one cache line instead of one per array. */
typedef struct contract_node {
  int32_t merge;   /* id this one was merged into, -1 if none           */
  int32_t lookup;  /* cached representative (Fig. 2), -1 unset; stale
                      when >= vtot                                      */
  int32_t owner;   /* current owner (of active ids)                     */
  int32_t mark;    /* scratch stamp of contract_gather                  */
  double acc;      /* scratch: Cwgt accumulated by contract_gather      */
  double rwgt;     /* Rwgt of the id                                    */
} contract_node;

typedef struct contract_ws {
  const minex_graph *g;  /* the fine graph (ids < n use its CSR)          */
  int32_t n;             /* fine vertex count                             */
  int32_t vtot;          /* ids in use: n + current number of merges      */
  int32_t nactive;       /* active vertices (|V| of the current level)    */
  double *pwgt;          /* 2n: Pwgt of every id                          */
  int32_t *old;          /* 2n: old owner (same for all fine vertices in
                            a merged vertex)                              */
  contract_node *nd;     /* 2n: merge, lookup, owner, scratch, Rwgt       */
  int32_t *child;        /* 2n: children (v, w) of merge k at 2k, 2k+1    */
  int64_t *mstart;       /* n: start of merge k's edge list in madj       */
  int32_t *mlen;         /* n: its length                                 */
  int32_t *madj;         /* edge lists of merged ids (ends may be stale)  */
  double *mcwgt;         /* their Cwgt                                    */
  int64_t msize, mcap;   /* used / allocated entries of madj, mcwgt       */
  int32_t *elig;         /* active ids that may still have a same-owner
                            neighbour, in graph order, -1 for a hole      */
  int32_t *epos;         /* 2n: position in elig, -1 if absent            */
  int32_t nelig;         /* slots used in elig (holes included)         */
  int32_t nvalid;        /* slots holding an id                         */
  int32_t cursor;        /* where the next sampling window starts       */
  double *ctot;          /* 2n: total Cwgt of the id's edges            */
  int32_t *bpart;        /* 2n: cached best same-owner partner, -1 none */
  double *bratio;        /* 2n: its Cwgt/(Rwgt_v+Rwgt_w)                */
  int32_t stamp;         /* current stamp                                 */
  int32_t *list;         /* 2n scratch: ids accumulated under the stamp   */
  /* After contract_freeze (partition and expansion phases). Fine
     vertices are listed in merge-forest DFS order, so every id's fine
     vertices are one range of positions; per-position arrays are then
     rewritten with sequential stores when a merge is undone. */
  int32_t *ord;          /* n: fine vertex at each position               */
  int32_t *pos;          /* n: position of each fine vertex               */
  int32_t *lo;           /* 2n: each id's fine vertices are ord[lo..hi)   */
  int32_t *hi;
  int32_t *rep;          /* n, by position: active id holding it          */
  int32_t *fowner;       /* n, by fine vertex: owner of its active id (one
                            read per edge when gathering owners; written
                            only when a vertex moves, which is rare)     */
} contract_ws;

/* Allocates the workspace for g with every vertex active on old[v]. */
int contract_ws_create(contract_ws *ws, const minex_graph *g,
                       const int32_t *old);
void contract_ws_destroy(contract_ws *ws);

/* Representative (active id) of x: Find of paper Fig. 2, iterative, with
 * path compression through lookup. The inline part answers the common
 * cases (x active, or its lookup current and active) without a call. */
int32_t contract_find_slow(contract_ws *ws, int32_t x);
static inline int32_t contract_find(contract_ws *ws, int32_t x) {
  if (ws->rep)
    return ws->rep[x < ws->n ? ws->pos[x] : ws->lo[x]];
  if (ws->nd[x].merge == -1)
    return x;
  int32_t l = ws->nd[x].lookup;
  if (l != -1 && l < ws->vtot && ws->nd[l].merge == -1)
    return l;
  return contract_find_slow(ws, x);
}

/* Edge list of id x (ends may be stale: resolve with contract_find). */
static inline void contract_edges(const contract_ws *ws, int32_t x,
                                  const int32_t **adj, const double **cwgt,
                                  int64_t *len) {
  if (x < ws->n) {
    int64_t b = ws->g->xadj[x];
    *adj = ws->g->adjncy + b;
    *cwgt = ws->g->cwgt + b;
    *len = ws->g->xadj[x + 1] - b;
  } else {
    int64_t b = ws->mstart[x - ws->n];
    *adj = ws->madj + b;
    *cwgt = ws->mcwgt + b;
    *len = ws->mlen[x - ws->n];
  }
}

/* Merges same-owner pairs until nactive <= target or no pair is left.
 * Each step samples up to sample_size eligible vertices from a window of
 * 2*sample_size at a cursor sweeping the eligible list, takes each one's
 * same-owner neighbour with the largest Cwgt/(Rwgt_v + Rwgt_w), and
 * merges the best of those pairs. */
int contract_run(contract_ws *ws, int32_t target, int32_t sample_size,
                 gsl_rng *rng);

/* Ends contraction: from now on Find reads each fine vertex's
 * representative directly (rep), and undoing a merge rewrites the
 * representatives of its fine vertices, which lie contiguously in ord.
 * During expansion the union/find lookups all go stale at once, so this
 * costs O(size) sequential writes per undo instead of merge-chain walks
 * per neighbour. Frees the sampling state (eligible list, partners). */
int contract_freeze(contract_ws *ws);

/* Sets the owner of active id x to q (after contract_freeze also the
 * owner copy of each of its fine vertices). */
void contract_set_owner(contract_ws *ws, int32_t x, int32_t q);

/* Owner of the representative of edge end x (any id below vtot). */
static inline int32_t contract_end_owner(contract_ws *ws, int32_t x) {
  if (ws->fowner)
    return ws->fowner[x < ws->n ? x : ws->ord[ws->lo[x]]];
  return ws->nd[contract_find(ws, x)].owner;
}

/* Undoes the last merge (expansion, paper §3.7): the children take the
 * merged vertex's owner; *v and *w receive them. */
void contract_undo(contract_ws *ws, int32_t *v, int32_t *w);

/* Aggregates the edges of active id x by representative into ws->nd[].acc
 * and ws->list (distinct representatives, first-seen order); returns the
 * count. */
int32_t contract_gather(contract_ws *ws, int32_t x);

/* Verifies the union/find forest, the merge stack, conservation of Pwgt
 * and Rwgt, and the eligible set; MINEX_EINTERNAL with a message. */
int contract_check(contract_ws *ws);

#endif
