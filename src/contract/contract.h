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
  int32_t owner;   /* current owner (of active ids)                     */
  double rwgt;     /* Rwgt of the id                                    */
} contract_node;

/* A slot of the edge accumulator (see contract_acc_add). */
typedef struct contract_slot {
  int32_t key;     /* representative                                  */
  int32_t stamp;   /* gather that filled the slot                     */
  int32_t idx;     /* its position in list / lacc                      */
} contract_slot;

typedef struct contract_ws {
  const minex_graph *g;  /* the fine graph (ids < n use its CSR)          */
  int32_t n;             /* fine vertex count                             */
  int32_t vtot;          /* ids in use: n + current number of merges      */
  int32_t nactive;       /* active vertices (|V| of the current level)    */
  double *pwgt;          /* 2n: Pwgt of every id                          */
  int32_t *old;          /* 2n: old owner (same for all fine vertices in
                            a merged vertex)                              */
  contract_node *nd;     /* 2n: merge, owner, scratch, Rwgt               */
  int32_t *look;         /* 2n: lookup of Fig. 2, the cached
                            representative; an active id looks at itself,
                            a value >= vtot is stale. Apart from the
                            records: 4 bytes per id keep the Find of
                            every edge end in cache                       */
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
  int32_t stamp;         /* current gather                                */
  int32_t *list;         /* 2n scratch: ids accumulated under the stamp   */
  double *lacc;          /* 2n scratch: their accumulated Cwgt            */
  contract_slot *slot;   /* 2^slot_max slots (>= 2n+2): open-addressing
                            table of the gather; only the first 2^bits
                            are used by a gather, so small gathers stay
                            in L1 cache                                   */
  int32_t slot_max;      /* log2 of the table's size                      */
  int32_t slot_bits;     /* bits of the current gather's table            */
  int32_t slot_used;     /* largest table used since the stamps were reset */
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
 * path compression through look. The inline part answers the common
 * cases (x active, or its lookup current and active) without a call. */
int32_t contract_find_slow(contract_ws *ws, int32_t x);
static inline int32_t contract_find(contract_ws *ws, int32_t x) {
  if (ws->rep)
    return ws->rep[x < ws->n ? ws->pos[x] : ws->lo[x]];
  int32_t l = ws->look[x];
  if (l < ws->vtot && ws->look[l] == l)
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

/* Edge accumulator: sums the Cwgt of edge ends by representative into
 * ws->list (distinct representatives, first-seen order) and ws->lacc.
 * The keys live in a small open-addressing table sized to the lists at
 * hand (at least twice the number of ends), so summing touches no
 * per-vertex array: on a large graph a per-vertex mark would cost a
 * cache miss per edge end. (uthash would allocate per entry; this is a
 * per-call scratch that is never searched afterwards.)
 * contract_acc_begin prepares for up to `ends` additions. */
void contract_acc_begin(contract_ws *ws, int64_t ends);
static inline void contract_acc_add(contract_ws *ws, int32_t r, double c,
                                    int32_t *cnt) {
  uint32_t mask = (1u << ws->slot_bits) - 1;
  uint32_t h = ((uint32_t)r * 0x9E3779B1u) >> (32 - ws->slot_bits);
  for (;; h = (h + 1) & mask) {
    contract_slot *s = &ws->slot[h];
    if (s->stamp != ws->stamp) {
      s->stamp = ws->stamp;
      s->key = r;
      s->idx = *cnt;
      ws->list[*cnt] = r;
      ws->lacc[(*cnt)++] = c;
      return;
    }
    if (s->key == r) {
      ws->lacc[s->idx] += c;
      return;
    }
  }
}

/* Aggregates the edges of active id x by representative (the
 * accumulator's list and lacc); returns the count. */
int32_t contract_gather(contract_ws *ws, int32_t x);

/* Verifies the union/find forest, the merge stack, conservation of Pwgt
 * and Rwgt, and the eligible set; MINEX_EINTERNAL with a message. */
int contract_check(contract_ws *ws);

#endif
