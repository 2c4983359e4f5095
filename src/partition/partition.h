/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Partitioning the contracted graph (SPEC §3 "Partition", paper §3.3, §3.6):
 * the Gain / MinVar / ThroTTle rule, the move heap, and the single-vertex
 * test that expansion reuses. */
#ifndef MINEX_PARTITION_H
#define MINEX_PARTITION_H

#include "core/rename.h"

#include "contract/contract.h"
#include "costmodel/costmodel.h"

#include <string.h>

/* Min-heap of vertices keyed by their best move's Gain (paper §3.4 "Heap"),
 * with a handle per vertex id so entries are updated or removed without
 * search. Forced moves (off unavailable processors) come first. */
typedef struct partition_heap {
  int32_t *id;    /* heap slots: vertex id                            */
  double *key;    /* heap slots: Gain of the vertex's best move       */
  char *forced;   /* heap slots: 1 for a forced move                  */
  int32_t *pos;   /* per vertex id: slot, or -1 when absent           */
  int32_t size;   /* entries in the heap                              */
  int32_t cap;    /* ids covered by pos                               */
  int32_t nslots; /* slots allocated                                  */
} partition_heap;

/* A heap for vertex ids below nids holding at most nslots entries. */
int partition_heap_create(partition_heap *h, int32_t nids, int32_t nslots);
void partition_heap_destroy(partition_heap *h);
/* Inserts id or updates its key (decrease or increase). */
void partition_heap_set(partition_heap *h, int32_t id, double key, int forced);
void partition_heap_remove(partition_heap *h, int32_t id);
/* Removes and returns the smallest entry's id; -1 when empty. */
int32_t partition_heap_pop(partition_heap *h);
/* 1 when entry (key, forced) would come before the top (or heap empty). */
int partition_heap_precedes_top(const partition_heap *h, double key,
                                int forced);
/* Verifies heap order and handles; MINEX_EINTERNAL on a violation. */
int partition_heap_check(const partition_heap *h);

/* Called by partition_execute with every move it makes (tests: each
 * move's Gain against a from-scratch difference). */
typedef void (*partition_trace_fn)(void *ctx, int32_t x, int32_t from,
                                   int32_t to, double gain);

/* What one worker needs to test moves (P-sized): the neighbour weight per
 * owner of the vertex at hand, its candidates and the cost model's move
 * scratch. Workers test moves concurrently against the same frozen
 * owners and loads, each in its own scratch (SPEC §3 "Parallel
 * execution"). */
/* One touched processor's deltas of a proposal's move, as
 * costmodel_move_deltas leaves them (partition_scan keeps them when
 * partition_ctx.keep_deltas is set). */
typedef struct partition_delta {
  costmodel_wcr d; /* Wgt, Comm and Remap deltas                  */
  int32_t proc;    /* the processor                                */
  int32_t pad;
} partition_delta;

/* A worker's memo of the global move of an interior vertex (its one
 * neighbour owner is its own) within one partition_scan: against the
 * scan's frozen loads that move's test is a function of the key alone,
 * and most interior vertices of a processor share their weights. */
typedef struct partition_memo {
  double pwgt, rwgt, cwgt; /* the vertex: weights, its edges' total   */
  int32_t p, q, old;       /* owner, candidate, old owner             */
  uint32_t gen;            /* the scan that filled it; 0: empty       */
  costmodel_move m;        /* the move's test: destination, Gain, ... */
  int32_t ok;              /* 1: admissible                           */
} partition_memo;

/* Entries of a worker's memo (a power of two; direct-mapped). */
#define PARTITION_MEMO_SIZE 1024

typedef struct partition_scratch {
  costmodel_nbr *nbr; /* neighbour weight per owner                 */
  int32_t *nbr_at;    /* index of an owner in nbr                   */
  int32_t *nbr_stamp; /* stamp per owner                            */
  int32_t stamp;
  int32_t *cand;         /* P+1: candidate processors               */
  costmodel_scratch mv;  /* deltas of the move evaluated last       */
  double work, span;     /* partition_scan: its blocks' times, the
                            largest                                  */
  partition_delta *dbuf; /* partition_scan with keep_deltas: the
                            deltas of the blocks this worker tested */
  int64_t dlen, dcap;
  int64_t spread_id;    /* the rounds' scans (keep_deltas): the tested id's
                           level-wide id, which picks its global candidate
                           (partition_spread); -1 elsewhere              */
  partition_memo *memo; /* PARTITION_MEMO_SIZE entries                */
  uint32_t memo_gen;    /* inside partition_scan: its generation (the
                           memo's entries of other scans are stale);
                           0 elsewhere: no memo                       */
  int64_t memo_hits;    /* tests the memo answered (a count)       */
  int32_t nomem;        /* 1: its kept deltas could not grow        */
  int32_t memo_bad;     /* MINEX_CHECKS builds: the owner of a vertex
                           whose memo differed from its test; -1     */
} partition_scratch;

_Static_assert(MINEX_GLOBAL_SPREAD_MAX <= COSTMODEL_NLOW,
               "the spread's processors come from the least-loaded list");

/* Where partition_scan put the deltas of a block of ids. */
typedef struct partition_dblock {
  int64_t off; /* first delta in the worker's dbuf                 */
  int32_t sc;  /* the worker                                        */
  int32_t pad;
} partition_dblock;

/* Rounds per pass of partition_passes_rounds (neighbours of moved ids). */
#define PARTITION_ROUNDS_BUDGET 16

/* Balance passes in rounds per heap pass asked for, under a horizon
 * above 1: a pass in rounds moves each vertex at most once against its
 * round's frozen state, where a heap pass moves the best vertex of the
 * moment, so it takes two of them to do a heap pass's work. Peer
 * benchmark, 96 rows, two seeds (docs/design/algorithm.md): with 1, T_k 0.6%
 * above the heap passes' (geometric mean; 29 rows worse by more than 1%,
 * one by 9.8%); with 2 under k > 1, 0.14% (median equal, 16 worse, 8
 * better, the worst 3.6%), no row worse than with 1. At k = 1 rounds
 * already match the heap passes (0.16% better) and the extra passes would
 * cost 0.2 s per 10^6 vertices for 0.16%; the refinement's passes gained
 * nothing from it, nor did 64 rounds a pass instead of 16. */
#define PARTITION_ROUNDS_PASS_FACTOR 2

/* Ids per unit of work of partition_scan. */
#define PARTITION_SCAN_BLOCK 1024

/* A move rule (SPEC §3, and the passes beyond the paper): which moves are
 * admissible and what the passes do with them. A new rule is an entry
 * here and in move_rule.c, and the driver's call of the passes under it
 * (docs/design/architecture.md "Adding a rule"). */
struct partition_ctx;
typedef struct partition_rule {
  const char *name;
  /* Whether a move, its deltas in mv, may be made from a processor of
     load q_from. */
  int (*admissible)(const struct partition_ctx *pc, const costmodel_scratch *mv,
                    const costmodel_move *m, double q_from);
  int global;       /* overloaded vertices may also go to the least-loaded */
  int recheck;      /* a round's move is tested again when it is made      */
  int bounds;       /* the pass's MaxQwgt, SteadyMax and MaxRemap bound every
                       move of the pass (partition_ctx.max_bound ...)      */
  int below_sender; /* the receiver must end below the sender's load:
                       candidates past it are skipped untested          */
  int longer;       /* PARTITION_ROUNDS_PASS_FACTOR times the passes under
                       a horizon above 1                                   */
} partition_rule;

/* The paper's rule: dMinVar < 0 and -Gain/dMinVar < ThroTTle (SPEC §3). */
extern const partition_rule partition_rule_paper;
/* The balance moves: every processor a move touches ends below the
 * sender's load before it. */
extern const partition_rule partition_rule_balance;
/* The refinement: Gain < 0 without raising MaxQwgt, SteadyMax or MaxRemap
 * (their values at the pass's start); the neighbours' owners only. */
extern const partition_rule partition_rule_refine;

/* The state shared by the partition and expansion phases. */
typedef struct partition_ctx {
  contract_ws *ws;     /* the multilevel graph                       */
  costmodel_loads *ld; /* per-processor loads                        */
  const minex_config *cfg;
  double throttle; /* ThroTTle, normalised units                 */
  double qbar;     /* mean load at the start of the call         */
  double dmv_tol;  /* dMinVar must be below -dmv_tol             */
  const struct partition_rule *rule; /* the rule a move must pass:
                            partition_rule_paper (the default), _balance or
                            _refine (partition_balance, partition_refine) */
  double gain_tol;       /* refine: smallest Gain that counts           */
  double max_bound;      /* refine: MaxQwgt at the start of the pass    */
  double steady_bound;   /* refine: SteadyMax at the start of the pass  */
  double remap_bound;    /* refine: MaxRemap at the start of the pass   */
  int global;            /* least-loaded processor as a candidate      */
  int rounds;            /* balance and refinement passes in rounds
                            (partition_passes_rounds; options.rounds ON),
                            else heap passes                          */
  partition_scratch *sc; /* nsc workers' scratch; sc[0] serves the
                            serial code                              */
  int32_t nsc;
  int32_t spread;         /* options.global_spread (rounds = ON)      */
  int keep_deltas;        /* partition_scan keeps each proposal's deltas
                             (rounds = ON: the decisions read them)   */
  int32_t speculate_max;  /* partition_rounds_dist: tries of a
                             round's speculation (a refinement round,
                             a budget's last) before rank 0 takes the
                             round (0: 8; tests set 1 to take the
                             fallback)                                 */
  int dkept;              /* the last scan kept deltas               */
  partition_dblock *dblk; /* the last scan's blocks (dkept)          */
  int32_t dblk_cap;
  uint32_t memo_gen;        /* the last scan's memo generation          */
  core_par par;             /* partition_scan's parallel regions */
  int32_t *nb_ids;          /* scratch of partition_run: neighbour ids   */
  unsigned char *interior;  /* ws->interior: 1 = every neighbour of the id
                               has its owner (set from a fresh gather)   */
  partition_heap heap;      /* used by partition_run                    */
  int64_t moves;            /* moves executed                             */
  partition_trace_fn trace; /* NULL, or told of every executed move      */
  void *trace_ctx;          /* passed to trace                           */
  int64_t forced_moves;     /* of which forced                            */
  /* partition_rounds_dist: rounds with moves, executed by the ranks
     (their speculation's tries summed) or by rank 0 */
  int64_t dist_rounds, dist_tries, dist_rank0;
  /* partition_scan's view of its frozen loads (read by the move rule
     while a worker's memo_gen is set): per processor whether its
     vertices get the global candidate, and the spread's number of
     least-loaded processors below the mean */
  int32_t scan_nspread;
  unsigned char *scan_global; /* P entries */
} partition_ctx;

/* A vertex's chosen move. */
typedef struct partition_choice {
  costmodel_move move; /* destination, Gain, dMinVar                 */
  int forced;          /* 1: the vertex sits on an unavailable proc  */
  int fresh;           /* partition_move_rule: the move's deltas are the
                          last the worker's scratch evaluated          */
} partition_choice;

/* The global candidate of the vertex with level-wide id `id` in the
 * rounds' scans (rounds = ON): one of the m least-loaded available
 * processors whose Qwgt is below `mean` (m <= spread, the
 * least-loaded list's order), picked by a hash of the id, so that the
 * proposals of a round are shared among the lightest processors instead
 * of all offering the lightest one; with fewer than two such processors,
 * the least-loaded processor. A function of the loads and the id only:
 * the same on every rank of the MPI layer. */
int32_t partition_spread(const costmodel_loads *ld, int64_t id, double mean,
                         int32_t spread);
/* The same, given m: how many of the least-loaded list's first `spread`
 * processors are below the mean (partition_spread counts them). */
int32_t partition_spread_m(const costmodel_loads *ld, int64_t id, int32_t m);
/* That m (at most spread). */
int32_t partition_spread_count(const costmodel_loads *ld, double mean,
                               int32_t spread);

/* After contract_freeze (the interior flags are the workspace's). The
 * scans of the passes and the expansion's rounds test moves on up to
 * options.nthreads threads (resolved by the caller: 0 is taken as 1);
 * the result does not depend on it. */
int partition_ctx_create(partition_ctx *pc, contract_ws *ws,
                         costmodel_loads *ld, const minex_options *opt);
void partition_ctx_destroy(partition_ctx *pc);

/* A gather of neighbour owners into sc->nbr (first seen first, Cwgt
 * summed in row order): partition_nbr_begin starts it (a new stamp over
 * the nprocs owners), partition_nbr_add adds an edge to owner o of weight
 * cw to the nn owners so far and returns their number. */
static inline void partition_nbr_begin(partition_scratch *sc, int32_t nprocs) {
  if (++sc->stamp == INT32_MAX) {
    memset(sc->nbr_stamp, 0, sizeof(int32_t) * (size_t)nprocs);
    sc->stamp = 1;
  }
}

static inline int32_t partition_nbr_add(partition_scratch *sc, int32_t nn,
                                        int32_t o, double cw) {
  if (sc->nbr_stamp[o] != sc->stamp) {
    sc->nbr_stamp[o] = sc->stamp;
    sc->nbr_at[o] = nn;
    sc->nbr[nn].owner = o;
    sc->nbr[nn++].cwgt = 0;
  }
  sc->nbr[sc->nbr_at[o]].cwgt += cw;
  return nn;
}

/* Aggregates x's edges by neighbour owner into pc->nbr in one pass over
 * its edge list; returns the number of distinct owners. With clear set,
 * the neighbours lose their interior flag (x is about to move). */
int32_t partition_gather_owners(partition_ctx *pc, int32_t x, int clear);
/* The same into worker scratch sc, without the clear (reads only). */
int32_t partition_gather_owners_in(const partition_ctx *pc,
                                   partition_scratch *sc, int32_t x);

/* Best admissible move of active id x (SPEC §3): among the candidates
 * (neighbours' owners, plus the least-loaded processor when x's owner is
 * above the mean load) the smallest Gain with dMinVar < 0 and
 * Gain * qbar < ThroTTle * |dMinVar|. A vertex on an unavailable processor
 * always gets a move (forced). Returns 1 when there is one. */
int partition_best_move(partition_ctx *pc, int32_t x, partition_choice *ch);
/* The same in worker scratch sc: reads the owners and loads, writes only
 * sc and x's interior flag, so workers test distinct ids concurrently. */
int partition_best_move_in(partition_ctx *pc, partition_scratch *sc, int32_t x,
                           partition_choice *ch);
/* The same, with the number of neighbour owners gathered into sc->nbr
 * (-1: none gathered, x was interior). */
int partition_best_move_nn(partition_ctx *pc, partition_scratch *sc, int32_t x,
                           partition_choice *ch, int32_t *nn_out);

/* A tested id's move, in 16 bytes (scans of the fine graph keep one per
 * vertex): to = -1 when it has none; nd deltas kept (keep_deltas), 0
 * when none were. */
typedef struct partition_prop {
  double gain;
  int32_t to;
  uint16_t forced;
  uint16_t nd;
} partition_prop;

/* Tests the n ids of ids against the current (frozen) owners and loads on
 * the context's threads into out[0..n-1]: the same as n calls of
 * partition_best_move in a row, whatever the number of threads. With
 * pc->keep_deltas, also keeps each proposal's deltas (its move's, with the
 * neighbour list its decision uses: (owner, Ctot) for an interior id),
 * found by partition_scan_deltas. An interior id's test may come from
 * the worker's memo (partition_memo), equal bit for bit; MINEX_CHECKS
 * builds test it again and return MINEX_EINTERNAL when they differ.
 * MINEX_ENOMEM when the kept deltas could not grow; else MINEX_OK. */
int partition_scan(partition_ctx *pc, const int32_t *ids, int32_t n,
                   partition_prop *out);

/* partition_scan's per-scan values against the current loads: which
 * processors' vertices get the global candidate (pc->scan_global) and the
 * spread's count (pc->scan_nspread). */
void partition_scan_globals(partition_ctx *pc);

/* The ids of ids[0..n) that a scan against the current loads could give
 * a move, compacted in place in their order; returns their count. An
 * interior id whose owner offers no global candidate has none (SPEC §3
 * "Work that follows the change": only what can move is tested), so
 * scanning the rest finds the same proposals. */
int32_t partition_movable(partition_ctx *pc, int32_t *ids, int32_t n);

/* The deltas the last partition_scan kept for the ids of block b (ids b *
 * PARTITION_SCAN_BLOCK onwards, each proposal's out[i].nd in turn), or
 * NULL when it kept none. */
static inline const partition_delta *
partition_scan_deltas(const partition_ctx *pc, int32_t b) {
  if (!pc->dkept)
    return NULL;
  const partition_delta *d = pc->sc[pc->dblk[b].sc].dbuf;
  return d != NULL ? d + pc->dblk[b].off : NULL; /* NULL: none kept yet */
}

/* The deltas of x's move to q into s as the rounds' decisions make them
 * (sc's neighbour lists as scratch): an interior vertex's one neighbour
 * weight is its Ctot (no gather), as the scan's; a gather that finds only
 * its owner, or no neighbour, says the same, so that a decision does not
 * depend on the flag. At coarse levels Ctot may differ from the edges' sum
 * in the last bits (another order of the sums). */
void partition_decision_deltas(partition_ctx *pc, partition_scratch *sc,
                               costmodel_scratch *s, int32_t x, int32_t q);

/* Puts nd deltas d in scratch s as costmodel_move_deltas left them. */
void partition_load_deltas(costmodel_scratch *s, const partition_delta *d,
                           int32_t nd);

/* Moves active id x to processor q and updates the loads. */
void partition_execute(partition_ctx *pc, int32_t x, int32_t q);

/* Heap-driven partitioning of the current (contracted) level: up to
 * max_passes passes, each inserting every admissible move and executing
 * them in heap order with neighbour updates. */
int partition_run(partition_ctx *pc, int32_t max_passes);

/* Refinement (beyond the paper, SPEC §3; options.refine): up to max_passes
 * heap passes over the current level that execute, smallest Gain first,
 * the moves of boundary vertices that lower QwgtTot without taking any
 * processor above the MaxQwgt, the SteadyMax or the MaxRemap of the pass's
 * start. None of the three rises, so neither does T_k for any k; QwgtTot
 * falls with every move. */
int partition_refine(partition_ctx *pc, int32_t max_passes);
int partition_balance(partition_ctx *pc, int32_t max_passes);
/* Up to max_passes passes (in rounds under pc->rounds, else heap passes)
 * under rule; pc's rule is the paper's again afterwards. */
int partition_passes_under(partition_ctx *pc, const partition_rule *rule,
                           int32_t max_passes);

/* What partition_rounds works on: ids[0..n-1] first (the array is
 * rewritten: each round's queue for the next), at most budget + 1
 * rounds, lock and lockstamp (NULL: none; a vertex with lock[v] ==
 * lockstamp is neither queued nor moved again), defer. */
typedef struct partition_round_set {
  int32_t *ids;
  int32_t n, budget;
  int32_t *lock;
  int32_t lockstamp;
  int defer;
} partition_round_set;

/* Synchronous rounds (SPEC §3 "Parallel execution"). */
typedef struct partition_round_move {
  double gain;
  int32_t id;
  int16_t forced;
  int32_t to;    /* the proposed destination                        */
  int16_t state; /* rounds = ON: what the round decided (rounds.c)  */
  uint16_t nd;   /* its deltas kept by the scan (d), or 0            */
  const partition_delta *d;
} partition_round_move;

/* Scratch of partition_rounds for ids below nids. */
typedef struct partition_rounds_ws {
  int32_t cap;
  partition_prop *prop;     /* the tests of a round                 */
  partition_round_move *mv; /* its moves, in the order applied      */
  int32_t *mark;            /* per id: queued (stamp) or moved (-stamp) */
  int32_t *pos;             /* rounds = ON, per id: 1 + its place in the
                               round's order among the accepted
                               proposals, else 0 (zero between rounds)  */
  double ref;               /* rounds = ON: the round's minimum Qwgt    */
  int32_t stamp;
  partition_round_move *tmp; /* the order's radix sort: grown on demand */
  size_t tmpcap;
  /* partition_rounds_dist: the local vertices next to each ghost of the
     level glevel (made at the start of a call, kept while the level
     stays: a pass's rounds and the next passes) */
  const contract_level *glevel;
  const int64_t *gxadj;
  int64_t *gstart;
  int32_t *gnbr;
} partition_rounds_ws;
int partition_rounds_ws_create(partition_rounds_ws *rw, int32_t nids);
void partition_rounds_ws_destroy(partition_rounds_ws *rw);
/* Clears the marks of ids below nids (the ids were renumbered). */
void partition_rounds_reset(partition_rounds_ws *rw, int32_t nids);

/* Rounds from the n ids in ids (overwritten; room for every active id):
 * round 0 tests them against the frozen owners and loads on the threads
 * (partition_scan), and applies the moves found in (forced, Gain, id)
 * order, each re-tested first against the loads the moves before it left;
 * round r > 0 does the same for the neighbours of round r - 1's moves, up
 * to round budget. With lock, a moved id gets lock[x] = lockstamp, and ids
 * so locked are neither queued nor moved again. With defer, a move whose
 * re-test comes out worse than the next proposal's Gain waits for the
 * next round instead (as a heap pass files it again). *nmoves gets the
 * moves made; MINEX_ENOMEM with a message (the moves made so far stand).
 * Under rounds = ON (pc->rounds) the re-test is the replay-free one of
 * docs/design/algorithm.md (partition_round_plan below): every proposal tested
 * for its own destination against the round's loads plus the deltas of
 * every earlier proposal, accepted or not -- per processor a running sum,
 * so that the decisions need no running state of the whole machine --
 * an accepted one with an earlier accepted neighbour waiting, and the
 * moves accepted then executed in the order (a refinement move, or in
 * the last round a move next to one already made, checked again against
 * the loads it is made on), the round ended by costmodel_resync.
 * The result does not depend on the threads. On a contraction spread over
 * ranks (pc->ws->comm) it is partition_rounds_dist, collective. */
int partition_rounds(partition_ctx *pc, partition_rounds_ws *rw,
                     const partition_round_set *set, int64_t *nmoves);

/* Puts rw->mv[0..k) in the round's order: forced moves first, then the
 * smallest Gain, then the smallest id (-0 and +0 equal). When the ids
 * come in increasing order (as every caller builds them) and k is at
 * least PARTITION_RADIX_MIN, by a stable radix sort on the Gain's bits
 * (11-bit digits; measured: a tenth of the comparison sort's time on the
 * 10^5-10^6 proposals of a round of the 10^6 cases), else by qsort: the
 * same order either way. */
#define PARTITION_RADIX_MIN 4096
void partition_round_sort(partition_rounds_ws *rw, int32_t k);
/* partition_round_sort on mv[0..n) (rounds.c; the radix's scratch *tmp,
 * *cap entries, grown there, left as it was when it cannot grow: then by
 * qsort). */
void partition_sort_moves(partition_round_move *mv, size_t n,
                          partition_round_move **tmp, size_t *cap);
/* The next round's queue of partition_rounds (and its distributed form):
 * ids[0..next) marked stamp in rw->mark (-stamp: moved in this round);
 * an id locked (lock[id] == lockstamp) stays out; more = 0 in a budget's
 * last round, which queues nothing. */
typedef struct partition_queue {
  int32_t *ids, next, stamp;
  int32_t *lock, lockstamp;
  int more;
} partition_queue;

/* Queues y for the next round unless it is queued, moved or locked. */
static inline void partition_queue_add(partition_queue *qu, int32_t *mark,
                                       int32_t y) {
  if (qu->more && mark[y] != qu->stamp && mark[y] != -qu->stamp &&
      (qu->lock == NULL || qu->lock[y] != qu->lockstamp)) {
    mark[y] = qu->stamp;
    qu->ids[qu->next++] = y;
  }
}

/* The next round's ids (rounds.c): those queued (mark = stamp) in
 * ids[0..next), one that moved after it was queued left out, in id
 * order; returns their number. */
int32_t partition_next_round(int32_t *ids, int32_t next, const int32_t *mark,
                             int32_t stamp);

/* A round's proposals and, under rounds = ON, its decisions, without
 * executing anything: the n ids tested against the frozen state
 * (partition_scan), their moves in rw->mv[0..*nm) in the round's order
 * (forced first, then the smallest Gain, then the smallest id), and under
 * rounds = ON each one's state: RS_MOVE or RS_DEFER when its own move
 * passes the gate (partition_test_move, dMinVar about the minimum of the
 * round's loads, kept in rw->ref) against the round's loads plus the
 * deltas of every earlier proposal, accepted or not, else RS_NONE; then
 * RS_WAIT for an RS_MOVE with an earlier RS_MOVE neighbour (never in the
 * last round). The loads are unchanged on return. MINEX_ENOMEM with a
 * message. */
enum {
  RS_NONE = 0,  /* not admissible against the running loads               */
  RS_WAIT = 1,  /* accepted, an earlier neighbour too: the next round     */
  RS_DEFER = 2, /* worse than the next proposal: next round               */
  RS_MOVE = 3   /* accepted: executed once the round's decisions are made */
};
int partition_round_plan(partition_ctx *pc, partition_rounds_ws *rw,
                         const int32_t *ids, int32_t n, int last, int defer,
                         int32_t *nm);

/* The move rule of a vertex whose neighbourhood is known (what
 * partition_best_move_in does after gathering): its record a, owner p, and
 * either nn = -1 when it was interior before the test (its one neighbour
 * weight is (p, a->ctot)) or its nn neighbour owners with their Cwgt in
 * sc->nbr and interior = whether they are all p. */
int partition_move_rule(const partition_ctx *pc, partition_scratch *sc,
                        const contract_attr *a, int32_t p, int interior,
                        int32_t nn, partition_choice *ch);

/* Whether the move of vertex v (its weights, owner and neighbour owners)
 * to q alone passes the move rule's gate against the loads, dMinVar
 * measured about ref (costmodel_eval_move_ref, its deltas left in mv); a
 * forced move (owner unavailable) always does. Fills ch like
 * partition_move_rule. q must be available and differ from the owner. */
int partition_test_move(const partition_ctx *pc, costmodel_scratch *mv,
                        const costmodel_vertex *v, int32_t q, double ref,
                        partition_choice *ch);
/* The same from the move's deltas already in mv (as
 * costmodel_eval_move_ref leaves them: costmodel_finish_move_ref), the
 * vertex owned by p: the same decision. */
int partition_test_deltas(const partition_ctx *pc, costmodel_scratch *mv,
                          int32_t p, int32_t q, double ref,
                          partition_choice *ch);

/* partition_rounds (options.rounds ON) on a contraction spread over ranks
 * (pc->ws->comm; src/dist/rounds.c), lock and deferral as there: each rank
 * tests its own ids and decides its own proposals against running sums
 * of the earlier proposals' deltas made at the processors' home ranks
 * (the deferral's next proposal by a sample sort of the keys, the waits
 * by an exchange with the ghosts' ranks). Every round but a budget's last
 * is executed by the ranks of its moves: the moves' deltas summed at the
 * processors' home ranks in the serial order (the refinement passes'
 * checks by speculation), every home's loads to every rank, the moves to
 * the ghosts' ranks. In the last (or when the speculation does not
 * settle) the accepted
 * moves, with each vertex's edges (neighbour's global id, owner, Cwgt),
 * go to rank 0, which executes them in the serial order (forced, Gain,
 * global id) and sends each rank what concerns it (its vertices' and
 * its ghosts' moves) with the loads after the round. Every rank keeps
 * the same loads and the owners of its vertices and ghosts; the result
 * is the serial one, bit for bit. Collective; MINEX_ENOMEM (agreed) on failure.
 * *moves gets the moves (every rank's). */
int partition_rounds_dist(partition_ctx *pc, partition_rounds_ws *rw,
                          const partition_round_set *set, int64_t *moves);

/* The passes of partition_balance / partition_refine (the gate set by the
 * caller in pc->refine) in rounds instead of a heap: each pass tests every
 * active id, then the neighbours of the moved ones, up to budget rounds;
 * a vertex moves at most once per pass. The balance passes (refine = 2)
 * under a horizon above 1 run PARTITION_ROUNDS_PASS_FACTOR times
 * max_passes. */
int partition_passes_rounds(partition_ctx *pc, int32_t max_passes,
                            int32_t budget);

/* SPEC §3: a vertex on an unavailable processor must move. After the
 * expansion and the passes (which move such vertices first, but may be cut
 * short by their budgets), every fine vertex still on one moves by the
 * forced rule: in id order, each tested against the loads the moves before
 * it left; with options.rounds ON (pc->rounds) in one round instead
 * (partition_rounds with budget 0: (Gain, id) order, each re-tested), which
 * is what a contraction spread over ranks does too (partition_rounds_dist;
 * collective then). Returns MINEX_OK, or MINEX_ENOMEM (agreed). */
int partition_force_off(partition_ctx *pc);

/* A state of the partition phase to come back to (throttle_auto's
 * trials): the owners of the active ids (and of the ghosts of a level
 * spread over ranks), the loads, and on restore the interior flags
 * cleared and the move counts reset. */
typedef struct partition_checkpoint {
  int32_t na;
  int32_t *act, *own; /* the active ids and their owners */
  int32_t ng;
  int32_t *gown; /* spread over ranks: the level's ghosts' owners */
  costmodel_snapshot snap;
} partition_checkpoint;
/* MINEX_ENOMEM with a message. */
int partition_checkpoint_take(partition_ctx *pc, partition_checkpoint *cp);
void partition_checkpoint_restore(partition_ctx *pc,
                                  const partition_checkpoint *cp);
void partition_checkpoint_free(partition_checkpoint *cp);

/* Verifies the context: scratch buffers, stamps, move counters, owners
 * in range, interior flags against the actual neighbour owners, and the
 * heap when it is in use; MINEX_EINTERNAL with a message. */
int partition_ctx_check(const partition_ctx *pc);

/* The checks of a phase boundary (MINEX_CHECKS builds): contract_check,
 * costmodel_loads_check and, when pc is not NULL, partition_ctx_check.
 * MINEX_EINTERNAL "minex_repartition: <check> failed <phase>: <why>". */
int partition_check_phase(contract_ws *ws, const costmodel_loads *ld,
                          const partition_ctx *pc, const char *phase);

/* The phases' checks: partition_check_phase through ws's layout (none on
 * a rank's share of a spread contraction) in MINEX_CHECKS builds, MINEX_OK
 * in others. */
static inline int partition_checks(contract_ws *ws, const costmodel_loads *ld,
                                   const partition_ctx *pc, const char *phase) {
#ifdef MINEX_CHECKS
  return ws->layout->check_phase(ws, ld, pc, phase);
#else
  (void)ws, (void)ld, (void)pc, (void)phase;
  return MINEX_OK;
#endif
}

#endif
