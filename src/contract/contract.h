/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Graph contraction (SPEC §3 "Contraction", paper §3.4–3.5): same-owner
 * pairs are merged one at a time into new vertices; union/find (Fig. 2)
 * resolves stale edge ends, so the edge lists of unmerged vertices stay
 * untouched. Each sweep of the sampling cursor works on a compact level
 * (its vertices renumbered 0..m-1 with a CSR of their own), so the
 * union/find chains and the working set stay short. The levels, with the
 * merges made on each, are the merge stack that the partition and
 * expansion phases walk. */
#ifndef MINEX_CONTRACT_H
#define MINEX_CONTRACT_H

#include "core/rename.h"

#include "dist/comm.h"

#include "core/core.h"

/* What the cost model needs of a vertex, in one 32-byte record: merging
 * a pair and testing a move each read it whole. */
typedef struct contract_attr {
  double pwgt;    /* Pwgt                                              */
  double rwgt;    /* Rwgt                                              */
  double ctot;    /* total Cwgt of its edges                           */
  int32_t old;    /* old owner (a merged vertex has one: only
                     same-owner pairs merge)                           */
  int32_t unused; /* padding to 32 bytes                               */
} contract_attr;

/* One level: the graph when a sweep began (its base vertices, local ids
 * 0..nbase-1, with their CSR) and the merges made on it (merge j made
 * local id nbase+j from child[2j] and child[2j+1]). The merges of all
 * levels, level 0 first, are the merge stack (paper vTot - n entries);
 * level s+1's base vertices are the vertices left active by level s. */
typedef struct contract_level {
  int32_t nbase;       /* base vertices (level 0: the graph's vertices)  */
  int32_t nmerge;      /* merges in effect on this level                 */
  int32_t cap;         /* local ids allocated (nbase + nbase - 1 at most) */
  const int64_t *xadj; /* nbase+1: base CSR (level 0: the graph's own)   */
  const int32_t *adj;  /* base local ids; no self loops, no duplicates   */
  const double *cwgt;  /* Cwgt per adj entry (summed over fine edges)    */
  int64_t *own_xadj;   /* the CSR's storage for levels >= 1, else NULL   */
  int32_t *own_adj;
  double *own_cwgt;
  int32_t *lower;        /* nbase (NULL at level 0): local id in the level
                            below of each base vertex (its root there)    */
  int32_t *child;        /* 2 per merge: the local ids merged              */
  int64_t *mstart;       /* per merge: its edge list in madj, mcwgt        */
  int32_t *mlen;         /* per merge: length of that list                 */
  int32_t *madj;         /* merged lists: local ids that were active when
                            the merge was made, or base ids of the level
                            (cluster levels); resolve with contract_find */
  double *mcwgt;         /* their Cwgt                                     */
  int64_t msize, mcap;   /* entries used / allocated in madj, mcwgt        */
  int32_t frozen_nmerge; /* nmerge and msize when contract_freeze ended:  */
  int64_t frozen_msize;  /* what contract_rewind restores                 */
  contract_attr *at;     /* cap: weights and old owner of each local id    */
  /* Spread over ranks (dist_comm; on one process goff and gmoff are 0
     and gnbase is nbase): the level's
     base vertices are global ids goff..goff+nbase-1 of gnbase; its merges
     are merges gmoff.. of the level's; an edge end on another rank (a
     ghost) is local id 2*nbase + g, g indexing ghost_gid (ascending
     global ids) and ghost_rank. No merge has a ghost as a child. */
  int64_t goff, gmoff, gnbase;
  int32_t nghost;
  int64_t *ghost_gid;
  int32_t *ghost_rank;
  int32_t *ghost_up;  /* nghost: the next level's ghost each one is in
                         (NULL on the last level)                      */
  int64_t *rank_goff; /* size + 1: every rank's goff (rank r's base
                         vertices are ids rank_goff[r] ..
                         rank_goff[r + 1] - 1); NULL on one process   */
} contract_level;

/* A slot of the edge accumulator (see contract_acc_add). */
typedef struct contract_slot {
  int32_t key;   /* representative                                  */
  int32_t stamp; /* gather that filled the slot                     */
  int32_t idx;   /* its position in list / lacc                      */
} contract_slot;

/* Edge accumulator (see contract_acc_add): one per workspace and one per
 * contraction worker. */
typedef struct contract_acc {
  int32_t *list;       /* keys accumulated under the stamp, first seen
                          first                                         */
  double *lacc;        /* their accumulated Cwgt                        */
  int64_t cap;         /* entries of list and lacc                      */
  contract_slot *slot; /* 2^slot_max slots: open-addressing table of the
                          gather; only the first 2^bits are used by a
                          gather, so small gathers stay in L1 cache     */
  int32_t slot_max;    /* log2 of the table's size                      */
  int32_t slot_bits;   /* bits of the current gather's table; 0 when the
                          gather is short enough for a scan             */
  int32_t slot_used;   /* largest table used since the stamps were reset */
  int32_t stamp;       /* current gather                                */
} contract_acc;

/* Room for gathers of up to `ends` edge ends (list, lacc and a table of
 * at least 2 * ends slots); MINEX_ENOMEM with a message. */
int contract_acc_reserve(contract_acc *acc, int64_t ends);
void contract_acc_free(contract_acc *acc);

struct contract_ws;
struct costmodel_loads;
struct partition_ctx;
struct partition_rounds_ws;
struct partition_round_set;

/* The steps above the contraction that differ when it is spread over
 * ranks, chosen by the workspace's constructor: contract_ws_create's
 * (contract_layout_local, src/partition) or contract_ws_create_dist's
 * (src/dist). The phases call them through the workspace and never ask
 * which it is. */
typedef struct contract_layout {
  /* partition_rounds on this workspace */
  int (*rounds)(struct partition_ctx *pc, struct partition_rounds_ws *rw,
                const struct partition_round_set *set, int64_t *nmoves);
  /* MINEX_CHECKS' checks of a phase boundary (partition_check_phase): on
     one rank's share they would fail that rank alone, so a spread
     workspace checks nothing */
  int (*check_phase)(struct contract_ws *ws, const struct costmodel_loads *ld,
                     const struct partition_ctx *pc, const char *phase);
} contract_layout;

/* The one-process steps (src/partition/rounds.c). */
extern const contract_layout contract_layout_local;

/* Local ids below are those of the current level (the last one). Arrays
 * marked 2n are indexed by local id and sized for level 0, the largest.
 * Contraction (contract_run) always ends on a level without merges, so
 * between calls every id of the current level is active. */
typedef struct contract_ws {
  const minex_graph *g; /* the fine graph                                */
  int32_t n;            /* fine vertex count                             */
  int32_t vtot;         /* n + merges in effect over all levels          */
  int32_t nactive;      /* active vertices (|V| of the current graph)    */
  contract_level *lv;   /* levels 0..nlevels-1; the last one is current  */
  int32_t nlevels, lvcap;
  int32_t nlevels_kept; /* levels allocated: expansion steps down without
                           freeing them, so contract_rewind can go back up */
  int32_t frozen_nlevels, frozen_vtot, frozen_nactive; /* at the freeze     */
  double seconds_sweep; /* contract_run's wall time in the chunks'
                           sweeps, and in building the levels      */
  double seconds_levels;
  core_par par;            /* contract_run's parallel regions (chunks)      */
  int32_t nvalid;          /* vertices of the current level with a
                              same-owner neighbour (until contract_freeze) */
  int32_t *parent;         /* 2n: the id x is merged into, x if active      */
  int32_t *owner;          /* 2n: owner of x's representative (kept for
                              every id, so an edge end costs one read)      */
  unsigned char *interior; /* 2n: 1 = every neighbour of the id has its
                            owner (set by the partition rule, cleared
                            when the id or a neighbour moves, passed to
                            the children of an undone merge and down to
                            the level below)                             */
  /* scratch */
  int32_t *map;          /* 2n: new ids when a level is built; a stack    */
  contract_acc acc;      /* the gathers of the partition and expansion    */
  int is_view;           /* 1: a view (contract_view_create): the levels'
                            arrays belong to the workspace it was made of  */
  const dist_comm *comm; /* NULL, or the ranks this one works with
                                (contract_ws_create_dist)            */
  const contract_layout *layout; /* the steps that differ when spread  */
  int32_t cluster_factor;        /* contract_run builds a cluster level
                                    (cluster.c) instead of a sampled sweep
                                    while the active vertices exceed this
                                    times the target; 0: never (the paper's
                                    sweep on every level), 1: down to the
                                    target (run_init)                        */
  int drop_lists; /* 1: the levels keep no merged lists (madj, mcwgt
                     NULL): set before contract_run when nothing reads
                     a merged id's edges afterwards -- the expansion in
                     rounds undoes a level's merges together and tests
                     base vertices only; the paper's expansion one merge
                     at a time needs them (contract_edges on a merged id
                     is then invalid)                                  */
} contract_ws;

/* A view of a frozen workspace for one more candidate on another thread:
 * the levels' graphs, merges and records are shared, read
 * only; the merge counts in effect, the parents, owners, interior flags
 * and scratch are the view's own. It starts rewound (contract_rewind) and
 * is freed with contract_ws_destroy, before ws. MINEX_ENOMEM with a
 * message. */
int contract_view_create(contract_ws *view, const contract_ws *ws);

/* Allocates the workspace for g with every vertex active on old[v]. */
int contract_ws_create(contract_ws *ws, const minex_graph *g,
                       const int32_t *old);
void contract_ws_destroy(contract_ws *ws);

/* A frozen workspace of one level given whole: the contracted graph g
 * (rows as the level's, g's arrays used in place) with its vertices'
 * records at (copied: weights as the contraction summed them, old owner).
 * The MPI layer's copy of the coarse graph on every rank. MINEX_ENOMEM
 * with a message. */
int contract_ws_create_coarse(contract_ws *ws, const minex_graph *g,
                              const contract_attr *at);

/* Level 0 of a new workspace from g and old (contract.c; the serial and
 * the spread workspaces). */
void contract_level0_init(contract_ws *ws, const minex_graph *g,
                          const int32_t *old);

/* A rank's share of a contraction spread over ranks:
 * contract_ws_create_dist (src/dist/dist.h). */

/* The current level (the graph being contracted, partitioned or
 * expanded). */
static inline contract_level *contract_cur(const contract_ws *ws) {
  return &ws->lv[ws->nlevels - 1];
}

/* Local ids in use on the current level (active or merged away). */
static inline int32_t contract_nids(const contract_ws *ws) {
  const contract_level *L = contract_cur(ws);
  return L->nbase + L->nmerge;
}

/* Representative (active id) of local id x: a walk up the parents (merge
 * chains within a level are short, and undoing merges would invalidate
 * compressed paths). */
static inline int32_t contract_find(const contract_ws *ws, int32_t x) {
  while (ws->parent[x] != x)
    x = ws->parent[x];
  return x;
}

/* Edge list of local id x (ends may be stale: resolve with
 * contract_find). */
static inline void contract_edges(const contract_ws *ws, int32_t x,
                                  const int32_t **adj, const double **cwgt,
                                  int64_t *len) {
  const contract_level *L = contract_cur(ws);
  if (x < L->nbase) {
    int64_t b = L->xadj[x];
    *adj = L->adj + b;
    *cwgt = L->cwgt + b;
    *len = L->xadj[x + 1] - b;
  } else {
    int32_t j = x - L->nbase;
    int64_t b = L->mstart[j];
    *adj = L->madj + b;
    *cwgt = L->mcwgt + b;
    *len = L->mlen[j];
  }
}

/* Allocates a level of nbase base vertices (their records; the merges
 * are added when the level is contracted); frees one. */
int contract_level_alloc(contract_level *L, int32_t nbase);
void contract_level_free(contract_level *L);

/* SPEC §3 merge priority Cwgt_vw / (Rwgt_v + Rwgt_w): heavy
 * communication, light remapping first. Pairs without remapping weight
 * come first; pairs without either come last. */
static inline double contract_pair_ratio(double cwgt, double rwgt) {
  return rwgt > 0 ? cwgt / rwgt : (cwgt > 0 ? 1e300 : 0);
}

/* Contraction chunks (SPEC §3 "Parallel execution"): the base vertices of
 * a level are cut into chunks of consecutive ids with one old owner, at
 * most CONTRACT_CHUNK each (a part of m vertices in ceil(m /
 * CONTRACT_CHUNK) chunks of equal size), so that a chunk's working set
 * stays in a core's cache. The cut depends on the data only. */
#define CONTRACT_CHUNK 16384
/* A chunk's sweep ends once the cursor has wrapped with at least
 * 1/CONTRACT_LEVEL_FRACTION of its vertices merged (then the next level
 * is built). */
#ifndef CONTRACT_LEVEL_FRACTION
#define CONTRACT_LEVEL_FRACTION 8
#endif
/* Cluster levels (contract_ws.cluster_factor; docs/design/algorithm.md "Cluster
 * levels"): a vertex joins a cluster of fewer than CONTRACT_CLUSTER_SIZE
 * members; under options.cluster_levels = AUTO a level is built so while it has
 * more than CONTRACT_CLUSTER_ABOVE times the target's vertices. */
#ifndef CONTRACT_CLUSTER_SIZE
#define CONTRACT_CLUSTER_SIZE 3
#endif
#define CONTRACT_CLUSTER_ABOVE 64
/* Levels contract_run builds at most in one call. */
#define CONTRACT_MAX_LEVELS 200

/* Merges same-owner pairs until nactive <= target or no pair is left, a
 * level at a time: each chunk of the current level is contracted on its
 * own (its vertices' edges to other chunks are left as they are), with its
 * own random stream f(seed, level, part, chunk), down to its share of the
 * target (the shares add up to the target; a chunk without a same-owner
 * pair keeps its vertices). Within a chunk, each step samples up to
 * sample_size eligible vertices from a window of 2*sample_size at a cursor
 * sweeping the chunk's eligible list, takes each one's same-owner
 * neighbour with the largest Cwgt/(Rwgt_v + Rwgt_w), and merges the best of
 * those pairs; the chunk's sweep ends when the cursor wraps after an eighth
 * of its vertices merged. While ws->cluster_factor > 0 and the active
 * vertices exceed cluster_factor * target, a level is a cluster level
 * instead (contract_chunk_cluster: one pass, each vertex alone joining its
 * best neighbouring cluster of fewer than CONTRACT_CLUSTER_SIZE); after a
 * cluster level that merged less than 1/CONTRACT_LEVEL_FRACTION of the
 * level's vertices (hubs among leaves), the sweep for the rest of the
 * call. The merges of the chunks, concatenated in chunk
 * order, are the level's, and the active vertices become the next level
 * (a CSR of their own, ends resolved, parallel edges added up). The chunks
 * run on up to nthreads OpenMP threads, largest first; the result does not
 * depend on nthreads. May be called again with a smaller target. On a
 * workspace of contract_ws_create_dist, a collective call of every rank
 * (target, sample_size and seed equal everywhere): the targets are shared
 * among all ranks' chunks and the ghosts' new ids exchanged level by
 * level, so that the merges are the whole graph's. */
int contract_run(contract_ws *ws, int32_t target, int32_t sample_size,
                 unsigned long seed, int nthreads);

/* Ends contraction: the current level (without merges: the contracted
 * graph, ids 0..nactive-1) is recorded for contract_rewind. */
int contract_freeze(contract_ws *ws);

/* Back to the state contract_freeze left, after a partition and expansion
 * (or part of one): every level and merge in effect again, and the
 * contracted graph's vertices on their owners of the freeze (the start
 * partition's), interior flags clear. The same contracted graph can so be
 * partitioned several times -- under several horizons -- at the cost of
 * one contraction; the results are identical to contracting afresh. */
void contract_rewind(contract_ws *ws);

/* Sets the owner of active id x to q (and of every id merged into it,
 * so that edge ends read their owner directly). After contract_freeze. */
void contract_set_owner(contract_ws *ws, int32_t x, int32_t q);

/* Owner of the representative of edge end x. After contract_freeze. */
static inline int32_t contract_end_owner(const contract_ws *ws, int32_t x) {
  return ws->owner[x];
}

/* Undoes the last merge of the merge stack (expansion, paper §3.7),
 * stepping down a level when the current one has none left (local ids
 * then change to the lower level's). The children take the merged
 * vertex's owner and interior flag; *v and *w receive them. Returns 1, or
 * 0 when the fine graph is restored. After contract_freeze. */
int contract_undo(contract_ws *ws, int32_t *v, int32_t *w);

/* Undoes every merge of the current level at once (stepping down a level
 * first when it has none left), as that many contract_undo calls would:
 * the level's base vertices are then all active. Writes into ids (room
 * for the level's nbase) the base vertices that were merged away, in id
 * order, and returns their count; -1 when the fine graph is restored.
 * The synchronous rounds of the expansion (expand_rounds). */
int32_t contract_undo_level(contract_ws *ws, int32_t *ids);

/* Edge accumulator: sums the Cwgt of edge ends by key into acc->list
 * (distinct keys, first-seen order) and acc->lacc. Short lists (mesh
 * vertices have a handful of neighbours) are summed by a scan of the few
 * keys seen so far, which stays in L1 and predicts well; longer ones use a
 * small open-addressing table sized to the lists at hand (at least twice
 * the number of ends). Neither touches a per-vertex array: on a large
 * graph a per-vertex mark would cost a cache miss per edge end. (uthash
 * would allocate per entry; this is a per-call scratch that is never
 * searched afterwards.) contract_acc_begin prepares for up to `ends`
 * additions (contract_acc_reserve must have made room for them). Keys
 * are any int32_t. */
#define CONTRACT_ACC_SCAN 32
void contract_acc_table(contract_acc *acc, int64_t ends);
static inline void contract_acc_begin(contract_acc *acc, int64_t ends) {
  if (ends <= CONTRACT_ACC_SCAN)
    acc->slot_bits = 0;
  else
    contract_acc_table(acc, ends);
}
static inline void contract_acc_add(contract_acc *acc, int32_t r, double c,
                                    int32_t *cnt) {
  if (acc->slot_bits == 0) {
    int32_t i = 0;
    while (i < *cnt && acc->list[i] != r)
      i++;
    if (i == *cnt) {
      acc->list[i] = r;
      acc->lacc[i] = c;
      (*cnt)++;
    } else {
      acc->lacc[i] += c;
    }
    return;
  }
  uint32_t mask = (1u << acc->slot_bits) - 1;
  uint32_t h = ((uint32_t)r * 0x9E3779B1u) >> (32 - acc->slot_bits);
  for (;; h = (h + 1) & mask) {
    contract_slot *s = &acc->slot[h];
    if (s->stamp != acc->stamp) {
      s->stamp = acc->stamp;
      s->key = r;
      s->idx = *cnt;
      acc->list[*cnt] = r;
      acc->lacc[(*cnt)++] = c;
      return;
    }
    if (s->key == r) {
      acc->lacc[s->idx] += c;
      return;
    }
  }
}

/* Aggregates the edges of active id x by representative (ws->acc's list
 * and lacc); returns the count. */
int32_t contract_gather(contract_ws *ws, int32_t x);

/* The representative on the current level of every fine vertex, into
 * rep (n entries), by walking the levels: O(size of all levels), for
 * tests and checks. MINEX_ENOMEM with a message. */
int contract_fine_reps(contract_ws *ws, int32_t *rep);

/* Undoes merges (as expansion does, without moves) until the active
 * vertices are the base vertices of level s: ids 0 .. lv[s].nbase - 1 of
 * the current level s, each on the owner its merged vertex had. For a
 * start partition given on that level's vertices (the from-scratch
 * candidate). After contract_freeze or contract_rewind. */
void contract_descend(contract_ws *ws, int32_t s);

/* The level-s base vertex of every fine vertex into rep (n entries): the
 * merges of the levels below s must be in effect (after contract_freeze
 * or contract_rewind). MINEX_ENOMEM with a message. */
int contract_level_reps(contract_ws *ws, int32_t s, int32_t *rep);

/* Level s (0 <= s < the levels at the freeze) of a frozen or rewound
 * hierarchy (every merge in effect) as a graph of its base vertices: their
 * summed Pwgt and Rwgt, the level's CSR, each one's old owner into old_s
 * (malloc'd, nbase entries), and the level-s base vertex of every fine
 * vertex into rep (n entries). The from-scratch candidate partitions a
 * level of the diffusive contraction instead of the whole graph.
 * MINEX_ENOMEM or the graph's own error, with a message. */
int contract_level_graph(contract_ws *ws, int32_t s, minex_graph **out,
                         int32_t **old_s, int32_t *rep);

/* The graph of contract_level_graph from a level's CSR (m base vertices,
 * xadj[0] = 0, their records at): Cwgt made exactly symmetric (the larger
 * of the two directions), old owners into old_s (malloc'd). The MPI layer
 * builds a level gathered from its ranks with it. */
int contract_csr_graph(int32_t m, const int64_t *xadj, const int32_t *adj,
                       const double *cwgt, const contract_attr *at,
                       minex_graph **out, int32_t **old_s);

/* Spread over ranks: the level-`to` ghost that level-`from` ghost g is in
 * (ghost_up followed up the levels; from <= to). */
int32_t contract_ghost_up(const contract_ws *ws, int32_t from, int32_t to,
                          int32_t g);

/* Verifies the levels (lower maps, merges of same-owner pairs, weights of
 * merged ids), union/find, conservation of Pwgt and Rwgt, the eligible
 * set or the owners, and that the current graph is the quotient of the
 * fine graph; MINEX_EINTERNAL with a message. */
int contract_check(contract_ws *ws);

#endif
