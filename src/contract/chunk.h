/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Contraction of one chunk of a level (private to src/contract): a worker's
 * scratch, and what a chunk's sweep leaves for the assembly of the level.
 * Inside a chunk, local ids are 0..m-1 for its base vertices (level ids
 * cs..ce-1) and m+j for its merge j; an edge end outside the chunk is kept
 * as -1 - (its level id), never resolved: a chunk reads nothing another
 * chunk writes, so chunks run concurrently and give the same merges
 * whatever the number of threads. */
#ifndef MINEX_CONTRACT_CHUNK_H
#define MINEX_CONTRACT_CHUNK_H

#include "core/rename.h"

#include "contract/contract.h"

#include <gsl/gsl_rng.h>
#include <string.h>

/* A chunk: its place in the level, its target and the sweep's result.
 * The per-merge and per-vertex arrays are slices of level-sized arrays
 * (contract_run's, reused level after level); the merged lists and the
 * next level's rows are in the buffers of the worker that ran the chunk,
 * from mbase and rbase on. */
typedef struct contract_chunk {
  int32_t cs, ce;  /* base vertices cs..ce-1 of the level             */
  int32_t part;    /* their old owner                                 */
  int32_t index;   /* the chunk's index within its part on this level */
  int32_t nelig;   /* base vertices with a neighbour in the chunk     */
  int32_t target;  /* active vertices to stop at                      */
  double wgt;      /* Pwgt of its base vertices (for the targets)     */
  int32_t nmerge;  /* merges made                                     */
  int32_t nactive; /* m - nmerge                                      */
  int32_t *child;  /* 2 per merge, local ids                          */
  int64_t *mstart; /* per merge: its list, from mbase                 */
  int32_t *mlen;
  contract_attr *at; /* per merge                                     */
  int32_t *lnew;     /* m + nmerge: the index among the chunk's active
                        vertices (next level order) of each local id's
                        representative                                */
  int32_t *order;    /* nactive: local ids of the active vertices in
                        the next level's order                         */
  int64_t *rlen;     /* nactive: the next level's row lengths         */
  int32_t worker;    /* the worker whose buffers hold the lists       */
  int64_t mbase;     /* merged lists: local ids or -1 - level id      */
  int64_t msize;     /* their entries                                 */
  int32_t rworker;   /* the worker whose buffers hold the rows        */
  int64_t rbase;     /* next-level rows (next-level ids)              */
  int64_t rsize;
  int32_t relig; /* vertices with a same-owner neighbour            */
  double secs;   /* time of its unit in the current parallel loop   */
  int rc;        /* MINEX_OK, or the chunk's failure                */
  char msg[256]; /* its message (the worker's thread holds it)      */
} contract_chunk;

/* A worker's scratch, reused chunk after chunk (grown as needed). */
typedef struct contract_worker {
  int32_t cap;      /* local ids the arrays hold                     */
  int32_t *par;     /* cap: union/find parent (path-halved), itself
                       if active; apart from rwgt, so that Find walks
                       4-byte entries                                */
  double *rwgt;     /* cap: Rwgt                                     */
  int32_t *mark;    /* cap: gather stamp of a local id in the list  */
  int32_t *mpos;    /* cap: its position in the gather's list        */
  int32_t mstamp;   /* current gather                                */
  int32_t *elig;    /* eligible ids in level order, -1 for a hole    */
  int32_t *eslot;   /* base vertex whose slot each elig entry is     */
  int32_t *epos;    /* cap: position in elig, -1 if absent           */
  int32_t *bpart;   /* cap: cached best partner, -1 none             */
  double *bratio;   /* cap: its Cwgt/(Rwgt_v+Rwgt_w)                 */
  contract_acc acc; /* gathers                                       */
  gsl_rng *rng;     /* reseeded for every chunk                      */
  int32_t *madj;    /* merged lists of this level's chunks           */
  double *mcwgt;
  int64_t msize, mcap;
  int32_t *radj; /* next-level rows of this level's chunks        */
  double *rcwgt;
  int64_t rsize, rcap;
} contract_worker;

/* Room for local ids 0..cap-1 in the worker's per-id arrays (and its
 * random stream); MINEX_ENOMEM with a message. */
int contract_worker_ids(contract_worker *wk, int32_t cap);

/* Room for `more` entries in a worker's list buffers (lists: 0, rows:
 * 1); MINEX_ENOMEM with a message. */
int contract_worker_reserve(contract_worker *wk, int rows, int64_t more);

void contract_worker_free(contract_worker *wk);

/* A new gather: local ids are summed by a stamp per id (O(1), in the
 * worker's arrays), ends outside the chunk by the accumulator. Both append
 * to the accumulator's list in first-seen order. */
static inline void contract_gather_begin(contract_worker *wk, int64_t ends) {
  if (++wk->mstamp == INT32_MAX) {
    memset(wk->mark, 0, sizeof(int32_t) * (size_t)wk->cap);
    wk->mstamp = 1;
  }
  contract_acc_begin(&wk->acc, ends);
}

static inline void contract_gather_local(contract_worker *wk, int32_t r,
                                         double c, int32_t *cnt) {
  contract_acc *acc = &wk->acc;
  if (wk->mark[r] == wk->mstamp) {
    acc->lacc[wk->mpos[r]] += c;
    return;
  }
  wk->mark[r] = wk->mstamp;
  wk->mpos[r] = *cnt;
  acc->list[*cnt] = r;
  acc->lacc[(*cnt)++] = c;
}

/* Contracts chunk c of level L (no merges yet) to c->target active
 * vertices or until its sweep ends (see contract_run), with the random
 * stream seeded by `seed`; fills c's merges (its slices), lnew and order,
 * its merged lists at the end of wk's buffer. */
int contract_chunk_sweep(contract_worker *wk, const contract_level *L,
                         contract_chunk *c, int32_t sample_size,
                         unsigned long seed);

/* A cluster level of chunk c (cluster.c, docs/design/algorithm.md "Cluster
 * levels") instead of contract_chunk_sweep, with the same results
 * (merges, lnew, order, the roots' merged lists); lists = 1 also gives
 * every other merge its list (the paper's expansion reads them). */
int contract_chunk_cluster(contract_worker *wk, const contract_level *L,
                           contract_chunk *c, unsigned long seed, int lists);

/* The number of base vertices of c with a neighbour in c (c->nelig). */
int32_t contract_chunk_eligible(const contract_level *L,
                                const contract_chunk *c);

/* Local id of level id g for the chunk [cs, cs + m): g - cs inside, else
 * -1 - g. */
static inline int32_t contract_chunk_local(int32_t g, int32_t cs, int32_t m) {
  return (uint32_t)(g - cs) < (uint32_t)m ? g - cs : -1 - g;
}

/* Shares target among the chunks ch[0..nch-1] (contract.c): each chunk's
 * share of the merges to make. */
int contract_chunk_targets(contract_chunk *ch, int32_t nch, int64_t target);

#endif
