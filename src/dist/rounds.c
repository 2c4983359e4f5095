/* SPDX-License-Identifier: GPL-3.0-or-later */
/* partition_rounds_dist: the rounds of options.rounds = ON on a
 * contraction spread over ranks (docs/design/distributed.md, stage 2 step 4).
 * Each rank tests its own vertices and decides its own proposals by the
 * replay-free rule (docs/design/algorithm.md): a proposal's decision reads, for
 * each processor its move touches, the round's load plus the deltas of every
 * earlier proposal in the round's order (forced, Gain, global id),
 * accepted or not. Those running sums are made at the processors' home
 * ranks (each proposal's deltas sent there, sorted into the order, summed
 * from the round's load in that order and sent back), the deferral's
 * "next proposal" by a sample sort of the keys over the ranks, the waits
 * by one exchange of the accepted proposals with the ranks of their
 * neighbours. Every round is executed by the ranks of its moves
 * (rd_execute; the checks, a chain over the accepted moves -- every move
 * in the refinement passes, in a budget's last round a move next to one
 * made before it, on the owners that move left -- by speculation). A
 * round whose speculation does not settle in RD_SPECULATE_MAX tries goes
 * to rank 0, which executes its accepted moves in the order (a move
 * checked again against the loads and owners it is made on) and sends
 * each rank the executed moves that concern it and every rank the loads
 * after the round. The result
 * is the serial partition_rounds' under rounds = ON, bit for bit: every
 * sum is added in the serial order. */
#include "dist/contract.h"
#include "partition/partition.h"

#include <stdlib.h>
#include <string.h>

/* An accepted move, as rank 0 receives it for the execution: the vertex's
 * global id and record, its owner, the scan's Gain and destination, and
 * its edges. */
typedef struct rec_head {
  int64_t gid;
  double gain, pwgt, rwgt, ctot;
  int32_t old, cur, forced, deg, to; /* to: the destination proposed */
  int32_t pad;
} rec_head;

/* An edge of it: the neighbour's global id, its owner at the scan, Cwgt. */
typedef struct rec_edge {
  int64_t gid;
  double cwgt;
  int32_t owner, pad;
} rec_edge;

static int rec_cmp(const void *a, const void *b) {
  const rec_head *x = *(const rec_head *const *)a;
  const rec_head *y = *(const rec_head *const *)b;
  if (x->forced != y->forced)
    return x->forced ? -1 : 1;
  if (x->gain != y->gain)
    return x->gain < y->gain ? -1 : 1;
  return (x->gid > y->gid) - (x->gid < y->gid);
}

/* Puts the records order[0..nrec) in rec_cmp's order. They arrive in
   rank order, each rank's in its scan's (local id) order, so mostly in
   increasing global id: then by the serial rounds' radix sort on their
   places (the places break ties as the global ids would), else by qsort.
   MINEX_ENOMEM with a message. */
static int order_records(const rec_head **order, int64_t nrec) {
  int sorted = nrec >= PARTITION_RADIX_MIN;
  for (int64_t i = 1; i < nrec && sorted; i++)
    sorted = order[i - 1]->gid < order[i]->gid;
  if (!sorted) {
    qsort(order, (size_t)nrec, sizeof *order, rec_cmp);
    return MINEX_OK;
  }
  size_t n = (size_t)nrec, cap = 0;
  partition_round_move *mv = core_malloc(sizeof *mv * n), *tmp = NULL;
  const rec_head **in = core_malloc(sizeof *in * n);
  if (mv == NULL || in == NULL) {
    core_free(mv);
    core_free(in);
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %lld moves",
                      (long long)nrec);
  }
  for (size_t i = 0; i < n; i++) {
    in[i] = order[i];
    mv[i] = (partition_round_move){.gain = order[i]->gain,
                                   .id = (int32_t)i,
                                   .forced = (int16_t)order[i]->forced};
  }
  partition_sort_moves(mv, n, &tmp, &cap);
  for (size_t i = 0; i < n; i++)
    order[i] = in[mv[i].id];
  core_free(tmp);
  core_free(mv);
  core_free(in);
  return MINEX_OK;
}

/* The owners that changed in a round, by global id (open addressing). */
typedef struct moved_tab {
  int64_t *key;
  int32_t *val;
  int64_t mask;
} moved_tab;

static int64_t tab_slot(const moved_tab *t, int64_t k) {
  uint64_t h = (uint64_t)k * 0x9E3779B97F4A7C15ull;
  int64_t i = (int64_t)(h >> 20) & t->mask;
  while (t->key[i] != -1 && t->key[i] != k)
    i = (i + 1) & t->mask;
  return i;
}

/* The owner of edge e now: its owner at the scan unless it moved since. */
static int32_t edge_owner(const moved_tab *t, const rec_edge *e, int *moved) {
  int64_t i = tab_slot(t, e->gid);
  if (t->key[i] == e->gid) {
    *moved = 1;
    return t->val[i];
  }
  return e->owner;
}

/* x's neighbour owners from its edges (first seen first, Cwgt summed in
 * row order, as partition_gather_owners_in): sc->nbr; returns their
 * number; *changed: whether a neighbour moved in this round (t: the
 * round's moves so far). */
static int32_t rec_gather(partition_scratch *sc, int32_t nprocs,
                          const moved_tab *t, const rec_head *h,
                          const rec_edge *e, int *changed) {
  partition_nbr_begin(sc, nprocs);
  int32_t nn = 0;
  *changed = 0;
  for (int32_t j = 0; j < h->deg; j++)
    nn = partition_nbr_add(sc, nn, edge_owner(t, &e[j], changed), e[j].cwgt);
  return nn;
}

/* The local id of global id g here: own (< nbase), a ghost (2 nbase + k),
 * or -1. */
static int32_t local_of(const contract_level *L, int64_t g) {
  if (g >= L->goff && g < L->goff + L->nbase)
    return (int32_t)(g - L->goff);
  int64_t lo = core_lower_i64(L->ghost_gid, L->nghost, g);
  return lo < L->nghost && L->ghost_gid[lo] == g ? 2 * L->nbase + (int32_t)lo
                                                 : -1;
}

/* An accepted move rank 0 executed, as sent to the ranks it concerns:
 * the home rank of the vertex (id: the local id) and every other rank
 * holding one of its neighbours (id: the global id; the vertex is a ghost
 * there). */
enum {
  EV_EXEC = 8,  /* moved to q                                          */
  EV_GHOST = 16 /* not this rank's vertex: a ghost here, moved to q    */
};
typedef struct rec_event {
  int64_t id;
  int32_t q, flags;
} rec_event;

/* What every rank learns of a round's execution besides its events (rank
 * 0 sends it once, with the loads' state after it): the moves executed,
 * the partition's counters. */
typedef struct rec_state {
  int64_t executed, moves, forced_moves;
} rec_state;

/* The local vertices next to each ghost of level L (the rows' ghost ends
 * reversed): ghost g's in nbr[start[g] .. start[g+1]), in id order. */
static int ghost_nbrs(const contract_level *L, int64_t **start, int32_t **nbr) {
  int32_t nb = L->nbase, ng = L->nghost;
  int64_t *st = core_calloc((size_t)ng + 2, sizeof *st), cnt = 0;
  for (int32_t y = 0; st && y < nb; y++)
    for (int64_t j = L->xadj[y]; j < L->xadj[y + 1]; j++)
      if (L->adj[j] >= 2 * nb) {
        st[L->adj[j] - 2 * nb + 2]++;
        cnt++;
      }
  int32_t *a = core_malloc(sizeof *a * ((size_t)cnt + 1));
  if (st == NULL || a == NULL) {
    core_free(st), core_free(a);
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %lld ghost ends",
                      (long long)cnt);
  }
  for (int32_t g = 0; g < ng; g++)
    st[g + 2] += st[g + 1];
  for (int32_t y = 0; y < nb; y++)
    for (int64_t j = L->xadj[y]; j < L->xadj[y + 1]; j++)
      if (L->adj[j] >= 2 * nb)
        a[st[L->adj[j] - 2 * nb + 1]++] = y;
  *start = st;
  *nbr = a;
  return MINEX_OK;
}

/* The rank whose level ids goff[r] .. goff[r+1]-1 hold global id g. */
static int rank_of(const int64_t *goff, int size, int64_t g) {
  return (int)core_lower_i64(goff + 1, size, g + 1);
}

/* What one call of partition_rounds_dist shares with its steps. */
typedef struct rd_ctx {
  partition_ctx *pc;
  partition_rounds_ws *rw;
  const dist_comm *cm;
  const int64_t *goff;             /* every rank's first level id       */
  int64_t *cnt, *rcnt;             /* per-rank counts (scratch)         */
  const double *w0, *c0, *r0, *q0; /* the loads at the round's start    */
  double ref;                      /* the round's min-tree root         */
  int check;                       /* the rule re-tests every move made */
  /* The messages without a collective (dist_comm.sparse): gcnt[r], the
     vertices of rank r next to this rank's (the ghosts with a neighbour
     here: at most that many keys or moves come from r in a round, and
     a pair of ranks messages each other exactly when both counts are
     non-zero); gbuf, room for them; scap, rcap: the counts and caps. */
  const int64_t *gcnt;
  char *gbuf;
  int64_t *scap, *rcap;
  /* The round's question to the homes (rd_before_all): the bytes sent to
     (qs) and got from (qr) every rank, and the tuples got (qin), kept as
     the room of the moves' deltas, which are among them. */
  int64_t *qs, *qr;
  void *qin;
} rd_ctx;

/* The caps of a sparse call among the ranks that share ghosts, for items
 * of `item` bytes, cnt[r] (unless NULL: this rank failed) of them to rank
 * r. MINEX_EINTERNAL when an item would go to a rank that holds no
 * neighbour (it goes nowhere, and the pattern stays that of gcnt). */
static int ghost_caps(const rd_ctx *X, const int64_t *cnt, size_t item) {
  int rc = MINEX_OK;
  for (int r = 0; r < X->cm->size; r++) {
    int64_t c = cnt != NULL ? cnt[r] * (int64_t)item : 0;
    if (X->gcnt[r] == 0 && c > 0 && rc == MINEX_OK)
      rc = core_error(MINEX_EINTERNAL,
                      "rounds: rank %d: a move next to rank %d, which holds "
                      "none of its neighbours",
                      X->cm->rank, r);
    X->scap[r] = X->gcnt[r] > 0 ? c : -1;
    X->rcap[r] = X->gcnt[r] > 0 ? X->gcnt[r] * (int64_t)item : -1;
  }
  return rc;
}

/* A sparse call's pieces (rcount[s] bytes at the start of rcap[s] bytes
 * each) moved together at the front of buf; returns their bytes. */
static int64_t sparse_compact(char *buf, const int64_t *rcap,
                              const int64_t *rcount, int size) {
  int64_t at = 0, src = 0;
  for (int s = 0; s < size; s++) {
    if (rcount[s] > 0 && at != src)
      memmove(buf + at, buf + src, (size_t)rcount[s]);
    at += rcount[s];
    src += rcap[s] > 0 ? rcap[s] : 0;
  }
  return at;
}

/* What rd_execute did: moves executed, speculation tries, whether rank 0
 * executed the round. */
typedef struct rd_tally {
  int64_t executed;
  int tries, central;
} rd_tally;

/* Rank 0, after executing the round's records (order[0..nrec), ev[i]:
 * what became of record i): each rank's events in the order, into *out
 * (cnt[r] bytes for rank r, in rank order): its own vertices' moves, and
 * the moves next to its vertices (as moves of ghosts). */
static int records_events(const rd_ctx *X, const rec_head *const *order,
                          const rec_event *ev, int64_t nrec, char **out) {
  const int64_t *goff = X->goff;
  int64_t *cnt = X->cnt;
  int size = X->cm->size;
  int64_t *seen = core_malloc(sizeof *seen * ((size_t)size + 1));
  int64_t *nev = core_calloc((size_t)size + 1, sizeof *nev);
  int64_t *pos = core_calloc((size_t)size + 1, sizeof *pos);
  int rc = MINEX_OK;
  if (!seen || !nev || !pos) {
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld moves",
                    (long long)nrec);
    goto out;
  }
  /* counted (pass 0), then written (pass 1) */
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      size_t tot = 0;
      for (int r = 0; r < size; r++) {
        cnt[r] = (int64_t)(sizeof(rec_event) * (size_t)nev[r]);
        pos[r] = (int64_t)tot;
        tot += (size_t)cnt[r];
      }
      if ((*out = core_malloc(tot + 1)) == NULL) {
        rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %zu bytes",
                        tot);
        goto out;
      }
    }
    for (int r = 0; r < size; r++)
      seen[r] = -1;
    for (int64_t i = 0; i < nrec; i++) {
      if (ev[i].flags == 0)
        continue;
      const rec_head *h = order[i];
      const rec_edge *e = (const rec_edge *)(const void *)(h + 1);
      int home = rank_of(goff, size, h->gid);
      rec_event x = {h->gid - goff[home], ev[i].q, ev[i].flags};
      if (pass) {
        memcpy(*out + pos[home], &x, sizeof x);
        pos[home] += (int64_t)sizeof x;
      } else {
        nev[home]++;
      }
      seen[home] = i;
      for (int32_t j = 0; j < h->deg; j++) {
        int r = rank_of(goff, size, e[j].gid);
        if (seen[r] == i)
          continue;
        seen[r] = i;
        rec_event y = {h->gid, ev[i].q, EV_EXEC | EV_GHOST};
        if (pass) {
          memcpy(*out + pos[r], &y, sizeof y);
          pos[r] += (int64_t)sizeof y;
        } else {
          nev[r]++;
        }
      }
    }
  }
out:
  core_free(seen), core_free(nev), core_free(pos);
  return rc;
}

/* Rank 0: the accepted moves of every rank (all, total bytes), executed
 * in the round's order (forced, Gain, global id) as partition_rounds
 * executes them under rounds = ON: in the refinement passes, and in the
 * last round when a neighbour has moved in it, each is checked
 * again against the loads and owners the moves before it left (ref: the
 * round's minimum). Writes each rank's events in the order (*out, cnt[r]
 * bytes for rank r, in rank order) and what every rank learns (*state,
 * *nstate bytes: a rec_state head, the loads' state). */
static int execute_records(const rd_ctx *X, const char *all, int64_t total,
                           int last, char **out, char **state,
                           int64_t *nstate) {
  partition_ctx *pc = X->pc;
  double ref = X->ref;
  int32_t P = pc->ld->nprocs;
  partition_scratch *sc = &pc->sc[0];
  int64_t nrec = 0, executed = 0;
  for (int64_t o = 0; o < total; nrec++) {
    rec_head h;
    memcpy(&h, all + o, sizeof h);
    o += (int64_t)sizeof h + (int64_t)sizeof(rec_edge) * h.deg;
  }
  if (nrec >= INT32_MAX) /* places in the order are kept as int32 */
    return core_error(MINEX_EINVAL,
                      "rounds: %lld moves accepted in one round, at most %d",
                      (long long)nrec, INT32_MAX - 1);
  int64_t tsize = 16;
  while (tsize < 2 * nrec + 2)
    tsize *= 2;
  const rec_head **order = core_malloc(sizeof *order * ((size_t)nrec + 1));
  rec_event *ev = core_malloc(sizeof *ev * ((size_t)nrec + 1));
  moved_tab tab = {core_malloc(sizeof(int64_t) * (size_t)tsize),
                   core_malloc(sizeof(int32_t) * (size_t)tsize), tsize - 1};
  int rc = MINEX_OK;
  if (!order || !ev || !tab.key || !tab.val) {
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld moves",
                    (long long)nrec);
    goto out;
  }
  for (int64_t i = 0; i < tsize; i++)
    tab.key[i] = -1;
  /* the records are 8-byte aligned: the exchange's buffer is malloc'd and
     every record's size is a multiple of 8 */
  nrec = 0;
  for (int64_t o = 0; o < total; nrec++) {
    const rec_head *h = (const rec_head *)(const void *)(all + o);
    order[nrec] = h;
    o += (int64_t)sizeof *h + (int64_t)sizeof(rec_edge) * h->deg;
  }
  if ((rc = order_records(order, nrec)) != MINEX_OK)
    goto out;
  for (int64_t i = 0; i < nrec; i++) {
    const rec_head *h = order[i];
    const rec_edge *e = (const rec_edge *)(const void *)(h + 1);
    ev[i] = (rec_event){h->gid, -1, 0};
    int32_t q = h->to, changed;
    int32_t nn = rec_gather(sc, P, &tab, h, e, &changed);
    costmodel_vertex v = {h->pwgt, h->rwgt, h->old, h->cur, sc->nbr, nn};
    partition_choice ch;
    if ((pc->rule->recheck || (last && changed)) &&
        !partition_test_move(pc, &sc->mv, &v, q, ref, &ch))
      continue; /* not executed */
    costmodel_move m;
    if (!pc->cfg->avail[h->cur])
      pc->forced_moves++;
    costmodel_eval_move(pc->ld, &v, q, &m);
    costmodel_apply(pc->ld);
    pc->moves++;
    executed++;
    int64_t s = tab_slot(&tab, h->gid);
    tab.key[s] = h->gid;
    tab.val[s] = q;
    ev[i].flags = EV_EXEC;
    ev[i].q = q;
  }
  /* the round's loads are their processors' sums alone (as
     partition_rounds ends a round) */
  costmodel_resync(pc->ld);
  /* what every rank learns */
  size_t lsize = costmodel_state_size(pc->ld);
  if ((*state = core_malloc(sizeof(rec_state) + lsize)) == NULL) {
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %zu bytes", lsize);
    goto out;
  }
  rec_state hd = {executed, pc->moves, pc->forced_moves};
  memcpy(*state, &hd, sizeof hd);
  costmodel_state_put(pc->ld, *state + sizeof hd);
  *nstate = (int64_t)(sizeof hd + lsize);
  rc = records_events(X, order, ev, nrec, out);
out:
  core_free(order), core_free(ev);
  core_free(tab.key), core_free(tab.val);
  return rc;
}

/* A proposal's place in the round's order: forced first, then the
 * smallest Gain (-0 as +0), then the smallest global id. The forced flag
 * is bit 62 of gidf (level ids count the graph's vertices: far below). */
typedef struct rd_key {
  double gain;
  int64_t gidf;
} rd_key;
#define RD_FORCED (INT64_C(1) << 62)

static inline int64_t key_gid(const rd_key *k) {
  return k->gidf & ~RD_FORCED;
}
static inline int key_forced(const rd_key *k) {
  return (k->gidf & RD_FORCED) != 0;
}

static int key_cmp(const rd_key *x, const rd_key *y) {
  int fx = key_forced(x), fy = key_forced(y);
  if (fx != fy)
    return fx ? -1 : 1;
  if (x->gain != y->gain)
    return x->gain < y->gain ? -1 : 1;
  int64_t a = key_gid(x), b = key_gid(y);
  return (a > b) - (a < b);
}

static int key_pcmp(const void *a, const void *b) {
  return key_cmp(*(const rd_key *const *)a, *(const rd_key *const *)b);
}

static int gid_qcmp(const void *a, const void *b) {
  int64_t x = key_gid(a), y = key_gid(b);
  return (x > y) - (x < y);
}

/* A processor's deltas of one proposal, to the processor's home rank. */
typedef struct rd_tuple {
  rd_key key;
  costmodel_wcr d; /* the proposal's deltas to proc */
  int32_t proc, pad;
} rd_tuple;

/* The answer: the processor's loads before the proposal in the order (the
 * round's plus the deltas of every earlier proposal). */
typedef struct rd_before {
  double w, c, r, q;
} rd_before;

/* The answer of the sample sort: the key that follows in the order. */
typedef struct rd_succ {
  double gain;
  int32_t forced, has;
} rd_succ;

/* The home rank of processor p: where its running sums are made. Round
   robin: the processors a round's moves favour (the least loaded, a fast
   cluster's) are often neighbours in the numbering; spread, a home gets
   fewer of the tuples (bench_mpi, 4 ranks: the busiest home 600,170 tuples
   in a call against 719,307 with blocks of consecutive processors). */
static int home_of(int32_t p, int size) {
  return p % size;
}

/* A round's proposals on this rank, in the scan's order. */
typedef struct rd_round {
  int32_t np;
  rd_key *key;
  int32_t *x, *to, *state;
  int64_t *tstart; /* np + 1: proposal k's tuples tup[tstart[k] ..)  */
  rd_tuple *tup;
  rd_before *before;
  rd_succ *succ;
  int64_t ntup;
} rd_round;

static void rd_free(rd_round *R) {
  core_free(R->key), core_free(R->x), core_free(R->to), core_free(R->state);
  core_free(R->tstart), core_free(R->tup), core_free(R->before),
      core_free(R->succ);
  memset(R, 0, sizeof *R);
}

/* Appends a proposal's deltas (the processors s touches, in its order)
 * as tuples of key at tup[*t], growing the array (*cap entries). */
static int tuples_add(rd_tuple **tup, int64_t *cap, int64_t *t, rd_key key,
                      const costmodel_scratch *s) {
  if (*t + s->ntouched > *cap) {
    int64_t c = 2 * *cap + s->ntouched;
    rd_tuple *nt = core_realloc(*tup, sizeof *nt * (size_t)c);
    if (nt == NULL)
      return core_error(MINEX_ENOMEM,
                        "rounds: out of memory for %lld touched processors",
                        (long long)c);
    *tup = nt;
    *cap = c;
  }
  for (int32_t j = 0; j < s->ntouched; j++) {
    int32_t y = s->touched[j];
    (*tup)[(*t)++] =
        (rd_tuple){key, {s->dwgt[y], s->dcomm[y], s->dremap[y]}, y, 0};
  }
  return MINEX_OK;
}

/* The round's proposals of this rank (rw->prop of ids[0..n)) with their
 * keys and each one's deltas per touched processor (those the scan kept,
 * else made here). */
static int rd_collect(partition_ctx *pc, partition_rounds_ws *rw,
                      const int32_t *ids, int32_t n, rd_round *R) {
  contract_ws *ws = pc->ws;
  const contract_level *L = contract_cur(ws);
  partition_scratch *sc = &pc->sc[0];
  int32_t np = 0;
  for (int32_t i = 0; i < n; i++)
    np += rw->prop[i].to >= 0;
  size_t m = (size_t)np + 1;
  int64_t cap = 4 * (int64_t)np + 4;
  R->np = np;
  R->key = core_malloc(sizeof *R->key * m);
  R->x = core_malloc(sizeof *R->x * m);
  R->to = core_malloc(sizeof *R->to * m);
  R->state = core_calloc(m, sizeof *R->state);
  R->tstart = core_malloc(sizeof *R->tstart * (m + 1));
  R->succ = core_calloc(m, sizeof *R->succ);
  R->tup = core_malloc(sizeof *R->tup * (size_t)cap);
  if (!R->key || !R->x || !R->to || !R->state || !R->tstart || !R->succ ||
      !R->tup)
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %ld proposals",
                      (long)np);
  int32_t k = 0;
  int64_t t = 0;
  const partition_delta *d = NULL;
  for (int32_t i = 0; i < n; i++) {
    if (i % PARTITION_SCAN_BLOCK == 0)
      d = partition_scan_deltas(pc, i / PARTITION_SCAN_BLOCK);
    if (rw->prop[i].to < 0)
      continue;
    const partition_delta *dk = d;
    if (d != NULL)
      d += rw->prop[i].nd;
    int32_t x = ids[i], q = rw->prop[i].to;
    double g = rw->prop[i].gain;
    R->key[k] = (rd_key){g == 0 ? 0 : g,
                         (L->goff + x) | (rw->prop[i].forced ? RD_FORCED : 0)};
    R->x[k] = x;
    R->to[k] = q;
    R->tstart[k] = t;
    if (rw->prop[i].nd > 0) { /* the scan's deltas: the same doubles */
      partition_load_deltas(&sc->mv, dk, rw->prop[i].nd);
    } else {
      partition_decision_deltas(pc, sc, &sc->mv, x, q);
    }
    const costmodel_scratch *s = &sc->mv;
    int rc = tuples_add(&R->tup, &cap, &t, R->key[k], s);
    if (rc != MINEX_OK)
      return rc;
#ifdef MINEX_CHECKS
    /* the kept deltas are the decision's own, bit for bit, in order */
    if (rw->prop[i].nd > 0) {
      int32_t nt = s->ntouched;
      partition_decision_deltas(pc, sc, &sc->mv, x, q);
      int same = s->ntouched == nt;
      for (int32_t j = 0; j < nt && same; j++) {
        const rd_tuple *u = &R->tup[t - nt + j];
        int32_t y = s->touched[j];
        same = u->proc == y && u->d.wgt == s->dwgt[y] &&
               u->d.comm == s->dcomm[y] && u->d.remap == s->dremap[y];
      }
      if (!same)
        return core_error(MINEX_EINTERNAL,
                          "rounds: the deltas kept by the scan for id %ld "
                          "differ from its decision's",
                          (long)x);
    }
#endif
    k++;
  }
  R->tstart[np] = t;
  R->ntup = t;
  if ((R->before = core_malloc(sizeof *R->before * ((size_t)t + 1))) == NULL)
    return core_error(MINEX_ENOMEM,
                      "rounds: out of memory for %lld touched processors",
                      (long long)t);
  return MINEX_OK;
}

/* At a home rank: the received tuples in[0..nin) (their processors this
 * rank's), each one's processor loads before it in the order written to
 * out[i] (unless out is NULL): per processor the tuples sorted by key, the
 * round's load and the deltas summed in that order, as round_decide's
 * apply_sums adds them, a tuple whose pad is set (a move rd_execute
 * guesses is not made) left out of the sums; fin (unless NULL) gets each
 * processor's loads after its last tuple (the processors without tuples
 * are left alone). The
 * tuples arrive in rank order, each rank's in its scan's, so mostly in
 * increasing global id per processor: then the radix sort of the rounds, else
 * qsort. */
static int rd_sums(const costmodel_loads *ld, const rd_tuple *in, int64_t nin,
                   rd_before *out, rd_before *fin) {
  int32_t P = ld->nprocs;
  int64_t *start = core_calloc((size_t)P + 2, sizeof *start);
  int64_t *idx = core_malloc(sizeof *idx * ((size_t)nin + 1));
  partition_round_move *mv = core_malloc(sizeof *mv * ((size_t)nin + 1));
  const rd_key **ptr = core_malloc(sizeof *ptr * ((size_t)nin + 1));
  partition_round_move *tmp = NULL;
  size_t cap = 0;
  int rc = MINEX_OK;
  if (!start || !idx || !mv || !ptr) {
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld deltas",
                    (long long)nin);
    goto out;
  }
  for (int64_t i = 0; i < nin; i++) {
    if (in[i].proc < 0 || in[i].proc >= P) {
      rc = core_error(MINEX_EINTERNAL, "rounds: delta for processor %ld",
                      (long)in[i].proc);
      goto out;
    }
    start[in[i].proc + 2]++;
  }
  for (int32_t p = 0; p < P; p++)
    start[p + 2] += start[p + 1];
  for (int64_t i = 0; i < nin; i++)
    idx[start[in[i].proc + 1]++] = i;
  for (int32_t p = 0; p < P; p++) {
    int64_t a = start[p], len = start[p + 1] - a;
    if (len == 0)
      continue;
    int inc = len < INT32_MAX;
    for (int64_t j = 1; j < len && inc; j++)
      inc = key_gid(&in[idx[a + j - 1]].key) < key_gid(&in[idx[a + j]].key);
    if (inc) {
      for (int64_t j = 0; j < len; j++) {
        const rd_key *kk = &in[idx[a + j]].key;
        mv[j] = (partition_round_move){.gain = kk->gain,
                                       .id = (int32_t)j,
                                       .forced = (int16_t)key_forced(kk)};
      }
      partition_sort_moves(mv, (size_t)len, &tmp, &cap);
      for (int64_t j = 0; j < len; j++)
        ptr[j] = &in[idx[a + mv[j].id]].key;
    } else {
      for (int64_t j = 0; j < len; j++)
        ptr[j] = &in[idx[a + j]].key;
      qsort(ptr, (size_t)len, sizeof *ptr, key_pcmp);
    }
    double w = ld->wgt[p], c = ld->comm[p], r = ld->remap[p], q = ld->qwgt[p];
    for (int64_t j = 0; j < len; j++) {
      /* the key is the tuple's first member */
      const rd_tuple *tp = (const rd_tuple *)(const void *)ptr[j];
      if (out != NULL)
        out[tp - in] = (rd_before){w, c, r, q};
      if (tp->pad)
        continue; /* a move guessed not made (rd_execute) */
      w += tp->d.wgt;
      c += tp->d.comm;
      r += tp->d.remap;
      q = costmodel_qwgt(ld, w, c, r);
    }
    if (fin != NULL)
      fin[p] = (rd_before){w, c, r, q};
  }
out:
  core_free(start), core_free(idx), core_free(mv), core_free(ptr),
      core_free(tmp);
  return rc;
}

/* The sample sort's part of a round's question (rd_before_all): this
 * rank's keys in the round's order (rw->mv[0..np), to = the proposal) and
 * the splitters every rank picked alike (rd_count; range r: the keys from
 * spl[r - 1] on, below spl[r]). */
typedef struct rd_sort {
  const partition_rounds_ws *rw;
  const rd_key *spl;
  int nspl;
} rd_sort;

/* The next key of each key this range's rank got (keys[0..nk), in rank
 * order), into ans: the next in the sorted range, a range's last the first
 * key of the next range that has keys (one allgather of each range's
 * first key, which agrees rc). Collective. */
static int rd_next_keys(const dist_comm *cm, const rd_key *keys, int64_t nk,
                        rd_succ *ans, int64_t *cnt, int rc) {
  const rd_key **ptr = core_malloc(sizeof *ptr * ((size_t)nk + 1));
  rd_key *first = NULL;
  if (rc == MINEX_OK && ptr == NULL)
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld keys",
                    (long long)nk);
  if (rc == MINEX_OK) {
    for (int64_t i = 0; i < nk; i++)
      ptr[i] = &keys[i];
    qsort(ptr, (size_t)nk, sizeof *ptr, key_pcmp);
  }
  int give = rc == MINEX_OK && nk > 0;
  if ((rc = cm->allgather(cm->ctx, rc, give ? ptr[0] : NULL,
                          give ? (int64_t)sizeof(rd_key) : 0,
                          (int64_t)sizeof(rd_key), (void **)&first, cnt)) ==
      MINEX_OK) {
    rd_succ after = {0, 0, 0};
    int64_t at = 0;
    for (int r = 0; r < cm->size; r++) {
      if (r > cm->rank && cnt[r] > 0) {
        after = (rd_succ){first[at].gain, key_forced(&first[at]), 1};
        break;
      }
      at += cnt[r] / (int64_t)sizeof(rd_key);
    }
    for (int64_t i = 0; i < nk; i++)
      ans[ptr[i] - keys] =
          i + 1 < nk ? (rd_succ){ptr[i + 1]->gain, key_forced(ptr[i + 1]), 1}
                     : after;
  }
  core_free(ptr), core_free(first);
  return rc;
}

/* Every proposal's processors' loads before it in the order (R->before):
 * the tuples to their processors' home ranks, the running sums made
 * there (rd_sums; fin, unless NULL, gets the home's processors' loads
 * after their tuples), the answers back. With so (the deferral's "next
 * proposal", R->succ), the same messages carry the sample sort: each key
 * to the rank of its range, where rd_next_keys finds the key after it,
 * answered with the sums; a message is then its tuples' count (8 bytes),
 * the tuples and the keys. rc: this rank's state before; the result is
 * agreed with so, else this rank's own (the caller's next collective
 * agrees it, as after dist_comm.sparse). X (unless NULL)
 * keeps the messages got (X->qin) and the tuples' bytes sent to and got
 * from every rank (X->qs, X->qr). Collective. */
static int rd_before_all(partition_ctx *pc, const dist_comm *cm, rd_round *R,
                         int64_t *cnt, int64_t *rcnt, rd_before *fin,
                         const rd_sort *so, int rc, rd_ctx *X) {
  const size_t TB = sizeof(rd_tuple), KB = sizeof(rd_key),
               AB = sizeof(rd_before), SB = sizeof(rd_succ);
  const size_t HB = so != NULL ? sizeof(int64_t) : 0;
  int size = cm->size;
  int32_t nk = so != NULL ? R->np : 0;
  /* per rank: the tuples and keys sent to it (their answers' counts), got
     from it, and where its part of a buffer starts */
  int64_t *st = core_calloc(6 * ((size_t)size + 1), sizeof *st);
  int64_t *sk = st ? st + size + 1 : NULL, *gt = sk ? sk + size + 1 : NULL;
  int64_t *gk = gt ? gt + size + 1 : NULL, *off = gk ? gk + size + 1 : NULL;
  int64_t *at = off ? off + size + 1 : NULL;
  int32_t *dest = core_malloc(sizeof *dest * ((size_t)nk + 1));
  char *sbuf = core_malloc(HB * (size_t)size + TB * (size_t)R->ntup +
                           KB * (size_t)nk + 1);
  /* the answers' buffer before the question goes: its failure in its
     counts */
  char *back = core_malloc(AB * (size_t)R->ntup + SB * (size_t)nk + 1);
  char *in = NULL, *ans = NULL;
  rd_tuple *tin = NULL;
  rd_key *kin = NULL;
  rd_before *tans = NULL;
  rd_succ *kans = NULL;
  if (rc == MINEX_OK && (!st || !dest || !sbuf || !back))
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory");
  /* no room for the moves' deltas unless the question went (a failed
     round still takes part in them) */
  for (int r = 0; X != NULL && r < size; r++)
    X->qs[r] = X->qr[r] = 0;
  if (rc == MINEX_OK) {
    for (int64_t t = 0; t < R->ntup; t++)
      st[home_of(R->tup[t].proc, size)]++;
    for (int32_t j = 0, r = 0; j < nk; j++) {
      const rd_key *k = &R->key[so->rw->mv[j].to];
      while (r < so->nspl && key_cmp(k, &so->spl[r]) >= 0)
        r++;
      sk[dest[j] = r]++;
    }
    int64_t o = 0;
    for (int r = 0; r < size; r++) {
      cnt[r] = st[r] + sk[r] > 0
                   ? (int64_t)(HB + TB * (size_t)st[r] + KB * (size_t)sk[r])
                   : 0;
      if (cnt[r] > 0 && HB > 0)
        memcpy(sbuf + o, &st[r], HB);
      at[r] = o + (int64_t)HB;
      o += cnt[r];
    }
    for (int64_t t = 0; t < R->ntup; t++) {
      int r = home_of(R->tup[t].proc, size);
      memcpy(sbuf + at[r], &R->tup[t], TB);
      at[r] += (int64_t)TB;
    }
    for (int32_t j = 0; j < nk; j++) {
      memcpy(sbuf + at[dest[j]], &R->key[so->rw->mv[j].to], KB);
      at[dest[j]] += (int64_t)KB;
    }
  }
  if ((rc = cm->exchange(cm->ctx, rc, sbuf, cnt, (void **)&in, rcnt)) !=
      MINEX_OK)
    goto out;
  if (X != NULL)
    X->qin = in; /* the caller's to free */
  /* the messages got, their tuples and keys apart */
  int64_t nt = 0, nkin = 0, o = 0;
  for (int r = 0; r < size; r++) {
    int64_t b = rcnt[r], h = HB > 0 ? 0 : b / (int64_t)TB;
    if (HB > 0 && b > 0) {
      if (b >= (int64_t)HB)
        memcpy(&h, in + o, HB);
      if (b < (int64_t)HB || h < 0 || h > (b - (int64_t)HB) / (int64_t)TB ||
          (b - (int64_t)HB - h * (int64_t)TB) % (int64_t)KB != 0) {
        if (rc == MINEX_OK)
          rc = core_error(MINEX_EINTERNAL,
                          "rounds: rank %d: a question of %lld bytes from "
                          "rank %d",
                          cm->rank, (long long)b, r);
        h = 0, b = (int64_t)HB;
      }
      gk[r] = (b - (int64_t)HB - h * (int64_t)TB) / (int64_t)KB;
    }
    gt[r] = h, off[r] = o, o += rcnt[r];
    nt += gt[r], nkin += gk[r];
    if (X != NULL)
      X->qs[r] = st[r] * (int64_t)TB, X->qr[r] = gt[r] * (int64_t)TB;
  }
  tin = core_malloc(TB * (size_t)nt + 1);
  kin = core_malloc(KB * (size_t)nkin + 1);
  tans = core_malloc(AB * (size_t)nt + 1);
  kans = core_malloc(SB * (size_t)nkin + 1);
  ans = core_malloc(AB * (size_t)nt + SB * (size_t)nkin + 1);
  if (rc == MINEX_OK && (!tin || !kin || !tans || !kans || !ans))
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld deltas",
                    (long long)nt);
  if (rc == MINEX_OK) {
    int64_t ti = 0, ki = 0;
    for (int r = 0; r < size; r++) {
      const char *p = in + off[r] + (rcnt[r] > 0 ? HB : 0);
      memcpy(tin + ti, p, TB * (size_t)gt[r]);
      memcpy(kin + ki, p + TB * (size_t)gt[r], KB * (size_t)gk[r]);
      ti += gt[r], ki += gk[r];
    }
    rc = rd_sums(pc->ld, tin, nt, tans, fin);
  }
  /* with the sort, its allgather agrees every rank's state, and nothing
     fails between it and the answers */
  if (so != NULL &&
      (rc = rd_next_keys(cm, kin, nkin, kans, cnt, rc)) != MINEX_OK)
    goto out;
  /* each rank knows how many answers it gets: one per tuple and key it
     sent */
  o = 0;
  for (int r = 0; r < size; r++) {
    cnt[r] = gt[r] * (int64_t)AB + gk[r] * (int64_t)SB;
    rcnt[r] = st[r] * (int64_t)AB + sk[r] * (int64_t)SB;
  }
  if (rc == MINEX_OK) {
    int64_t ti = 0, ki = 0;
    for (int r = 0; r < size; r++) {
      memcpy(ans + o, tans + ti, AB * (size_t)gt[r]);
      memcpy(ans + o + AB * (size_t)gt[r], kans + ki, SB * (size_t)gk[r]);
      o += cnt[r], ti += gt[r], ki += gk[r];
    }
  }
  if (so != NULL)
    rc = cm->reply(cm->ctx, rc, 1, ans, cnt, back, rcnt);
  else {
    /* no agreement: a failed rank's answers come empty (zeros here) and
       the caller's next collective agrees its failure */
    memset(back, 0, AB * (size_t)R->ntup);
    for (int r = 0; r < size; r++) {
      cnt[r] = gt[r] > 0 ? cnt[r] : -1;
      rcnt[r] = st[r] > 0 ? rcnt[r] : -1;
    }
    rc = cm->sparse(cm->ctx, rc, ans, cnt, back, rcnt, at);
  }
  if (rc != MINEX_OK)
    goto out;
  /* the answers come in the order the tuples and keys went to each rank */
  o = 0;
  for (int r = 0; r < size; r++) {
    at[r] = o, off[r] = o + st[r] * (int64_t)AB;
    o += rcnt[r] > 0 ? rcnt[r] : 0;
  }
  for (int64_t t = 0; t < R->ntup; t++) {
    int r = home_of(R->tup[t].proc, size);
    memcpy(&R->before[t], back + at[r], AB);
    at[r] += (int64_t)AB;
  }
  for (int32_t j = 0; j < nk; j++) {
    memcpy(&R->succ[so->rw->mv[j].to], back + off[dest[j]], SB);
    off[dest[j]] += (int64_t)SB;
  }
out:
  core_free(st), core_free(dest), core_free(sbuf), core_free(back);
  core_free(ans), core_free(tin), core_free(kin), core_free(tans),
      core_free(kans);
  if (X == NULL || X->qin != in)
    core_free(in);
  return rc;
}

/* For each of R's accepted proposals (RS_MOVE), the ranks of its ghost
 * neighbours, each once: *idx gets the proposals' places in R grouped by
 * rank (rank order, R's order within a rank), cnt[r] how many go to rank
 * r. MINEX_ENOMEM with a message (not agreed). */
static int rd_ghost_ranks(const contract_ws *ws, const dist_comm *cm,
                          const int64_t *goff, const rd_round *R, int32_t **idx,
                          int64_t *cnt) {
  const contract_level *L = contract_cur(ws);
  int size = cm->size;
  int32_t nb = L->nbase;
  int64_t *seen = core_malloc(sizeof *seen * ((size_t)size + 1));
  int64_t *pos = core_calloc((size_t)size + 1, sizeof *pos);
  int64_t n = 0;
  int rc = seen && pos ? MINEX_OK
                       : core_error(MINEX_ENOMEM, "rounds: out of memory");
  *idx = NULL;
  for (int pass = 0; pass < 2 && rc == MINEX_OK; pass++) {
    if (pass == 1) {
      if ((*idx = core_malloc(sizeof **idx * ((size_t)n + 1))) == NULL) {
        rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld moves",
                        (long long)n);
        break;
      }
      for (int r = 1; r < size; r++)
        pos[r] = pos[r - 1] + cnt[r - 1];
    } else {
      for (int r = 0; r < size; r++)
        cnt[r] = 0;
    }
    for (int r = 0; r < size; r++)
      seen[r] = -1;
    for (int32_t k = 0; k < R->np; k++) {
      if (R->state[k] != RS_MOVE)
        continue;
      const int32_t *adj;
      const double *cw;
      int64_t len;
      contract_edges(ws, R->x[k], &adj, &cw, &len);
      for (int64_t j = 0; j < len; j++) {
        if (adj[j] < nb)
          continue;
        int r = rank_of(goff, size, L->ghost_gid[adj[j] - 2 * nb]);
        if (seen[r] == k)
          continue;
        seen[r] = k;
        if (pass)
          (*idx)[pos[r]++] = k;
        else
          cnt[r]++, n++;
      }
    }
  }
  core_free(seen), core_free(pos);
  return rc;
}

/* The waits: an accepted proposal (RS_MOVE) with an accepted neighbour
 * earlier in the order becomes RS_WAIT; the neighbours on other ranks
 * learn of this rank's accepted proposals by sparse messages (each
 * accepted key to the ranks of its ghost neighbours). rc: this rank's
 * state before; the result is this rank's (not agreed). */
static int rd_waits(const rd_ctx *X, rd_round *R, int rc) {
  partition_ctx *pc = X->pc;
  partition_rounds_ws *rw = X->rw;
  const dist_comm *cm = X->cm;
  contract_ws *ws = pc->ws;
  const contract_level *L = contract_cur(ws);
  int size = cm->size;
  int32_t nb = L->nbase, np = R->np;
  int64_t *cnt = X->cnt;
  unsigned char *wait = NULL;
  rd_key *sbuf = NULL;
  int32_t *idx = NULL;
  if (rc == MINEX_OK && (wait = core_calloc((size_t)np + 1, 1)) == NULL)
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory");
  if (rc == MINEX_OK)
    rc = rd_ghost_ranks(ws, cm, X->goff, R, &idx, cnt);
  int64_t ns = 0;
  for (int r = 0; r < size && rc == MINEX_OK; r++)
    ns += cnt[r];
  if (rc == MINEX_OK &&
      (sbuf = core_malloc(sizeof *sbuf * ((size_t)ns + 1))) == NULL)
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld keys",
                    (long long)ns);
  if (rc == MINEX_OK)
    for (int64_t i = 0; i < ns; i++)
      sbuf[i] = R->key[idx[i]];
  int crc = ghost_caps(X, rc == MINEX_OK ? cnt : NULL, sizeof *sbuf);
  if (rc == MINEX_OK)
    rc = crc;
  if ((rc = cm->sparse(cm->ctx, rc, sbuf, X->scap, X->gbuf, X->rcap,
                       X->rcnt)) != MINEX_OK)
    goto out;
  rd_key *in = (rd_key *)(void *)X->gbuf;
  int64_t nin =
      sparse_compact(X->gbuf, X->rcap, X->rcnt, size) / (int64_t)sizeof *in;
  qsort(in, (size_t)nin, sizeof *in, gid_qcmp);
  for (int32_t k = 0; k < np; k++)
    if (R->state[k] == RS_MOVE)
      rw->pos[R->x[k]] = k + 1;
  for (int32_t k = 0; k < np; k++) {
    if (R->state[k] != RS_MOVE)
      continue;
    const int32_t *adj;
    const double *cw;
    int64_t len;
    contract_edges(ws, R->x[k], &adj, &cw, &len);
    for (int64_t j = 0; j < len && !wait[k]; j++) {
      int32_t y = adj[j];
      if (y < nb) {
        int32_t at = rw->pos[y];
        wait[k] = at != 0 && key_cmp(&R->key[at - 1], &R->key[k]) < 0;
        continue;
      }
      int64_t g = L->ghost_gid[y - 2 * nb], lo = 0, hi = nin;
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (key_gid(&in[mid]) < g)
          lo = mid + 1;
        else
          hi = mid;
      }
      wait[k] =
          lo < nin && key_gid(&in[lo]) == g && key_cmp(&in[lo], &R->key[k]) < 0;
    }
  }
  for (int32_t k = 0; k < np; k++) {
    if (R->state[k] == RS_MOVE)
      rw->pos[R->x[k]] = 0;
    if (wait[k])
      R->state[k] = RS_WAIT;
  }
out:
  core_free(wait), core_free(sbuf), core_free(idx);
  return rc;
}

/* The decisions of this rank's proposals by the replay-free rule (as
 * round_decide): each tested for its own destination against its
 * processors' loads before it in the order (R->before; the rest of the
 * loads are the round's and not read), dMinVar about ref; an accepted
 * one waits (RS_DEFER) when its Gain came out worse than the next
 * proposal's (R->succ; defer, not in the last round). The loads are the
 * round's again on return (w0 .. q0: copies of the round's). need (unless
 * NULL): the proposals to test; the others are accepted (RS_MOVE). */
static void rd_decide(const rd_ctx *X, rd_round *R, int last, int defer,
                      const unsigned char *need) {
  partition_ctx *pc = X->pc;
  double ref = X->ref;
  const double *w0 = X->w0, *c0 = X->c0, *r0 = X->r0, *q0 = X->q0;
  contract_ws *ws = pc->ws;
  costmodel_loads *ld = pc->ld;
  partition_scratch *sc = &pc->sc[0];
  for (int32_t k = 0; k < R->np; k++) {
    if (need != NULL && !need[k]) {
      R->state[k] = RS_MOVE; /* made without a check (rd_execute) */
      continue;
    }
    int32_t p = ws->owner[R->x[k]];
    for (int64_t t = R->tstart[k]; t < R->tstart[k + 1]; t++) {
      int32_t y = R->tup[t].proc;
      ld->wgt[y] = R->before[t].w;
      ld->comm[y] = R->before[t].c;
      ld->remap[y] = R->before[t].r;
      ld->qwgt[y] = R->before[t].q;
    }
    /* the deltas as rd_collect found them, in its order */
    costmodel_scratch *mv = &sc->mv;
    mv->ntouched = 0;
    for (int64_t t = R->tstart[k]; t < R->tstart[k + 1]; t++) {
      int32_t y = R->tup[t].proc;
      mv->touched[mv->ntouched++] = y;
      mv->dwgt[y] = R->tup[t].d.wgt;
      mv->dcomm[y] = R->tup[t].d.comm;
      mv->dremap[y] = R->tup[t].d.remap;
    }
    partition_choice ch;
    R->state[k] = RS_NONE;
    if (partition_test_deltas(pc, mv, p, R->to[k], ref, &ch)) {
      const rd_succ *s = &R->succ[k];
      R->state[k] = defer && !last && s->has && !ch.forced &&
                            (s->forced || ch.move.gain > s->gain)
                        ? RS_DEFER
                        : RS_MOVE;
    }
    for (int64_t t = R->tstart[k]; t < R->tstart[k + 1]; t++) {
      int32_t y = R->tup[t].proc;
      ld->wgt[y] = w0[y];
      ld->comm[y] = c0[y];
      ld->remap[y] = r0[y];
      ld->qwgt[y] = q0[y];
    }
  }
}

/* Queues local vertex y for the next round, as partition_rounds does with
 * the neighbours of a moved vertex. */
static void queue_nbr(partition_ctx *pc, partition_rounds_ws *rw, int32_t y,
                      partition_queue *qu) {
  pc->interior[y] = 0;
  partition_queue_add(qu, rw->mark, y);
}

/* Samples per rank for the sample sort's splitters (rd_count). */
#define RD_SAMPLES 64

/* A sample of a rank's keys, with the number of keys it stands for. */
typedef struct rd_sample {
  rd_key key;
  double weight;
} rd_sample;

static int sample_qcmp(const void *a, const void *b) {
  return key_cmp(&((const rd_sample *)a)->key, &((const rd_sample *)b)->key);
}

/* This rank's proposal count to every rank (*total: every rank's) and,
 * when the deferral needs the next proposal (need_succ), the sample sort's
 * splitters: this rank's keys put in the order (rw->mv: to = the
 * proposal) and up to RD_SAMPLES of them, evenly spaced, each standing
 * for np / m keys, to every rank; every rank sorts all the samples and
 * takes as splitter r the first whose keys before it weigh r / size of
 * the total (*spl, *nspl <= size - 1; equal splitters leave a range
 * empty). rc: this rank's state before (the round's scan); the result is
 * agreed (the buffers are made before the one allgather). Collective. */
static int rd_count(const rd_ctx *X, const rd_round *R, int need_succ,
                    int64_t *total, rd_key **spl, int *nspl, int rc) {
  partition_rounds_ws *rw = X->rw;
  const dist_comm *cm = X->cm;
  int64_t *cnt = X->cnt;
  int size = cm->size;
  int32_t np = R->np;
  int64_t ns = need_succ ? (np < RD_SAMPLES ? np : RD_SAMPLES) : 0;
  char *buf = core_malloc(sizeof(int64_t) + sizeof(rd_key) * (size_t)ns);
  char *all = NULL;
  /* every rank sends at most RD_SAMPLES samples */
  size_t maxs = need_succ ? (size_t)size * RD_SAMPLES : 0;
  rd_sample *smp = core_malloc(sizeof *smp * (maxs + 1));
  *spl = core_malloc(sizeof **spl * ((size_t)size + 1));
  if (rc == MINEX_OK && (buf == NULL || smp == NULL || *spl == NULL))
    rc =
        core_error(MINEX_ENOMEM, "rounds: out of memory for %zu samples", maxs);
  *nspl = 0;
  if (rc == MINEX_OK) {
    int64_t head = np;
    memcpy(buf, &head, sizeof head);
    if (need_succ) {
      for (int32_t k = 0; k < np; k++) {
        const rd_key *key = &R->key[k];
        rw->mv[k] = (partition_round_move){.gain = key->gain,
                                           .id = R->x[k],
                                           .forced = (int16_t)key_forced(key),
                                           .to = k};
      }
      partition_sort_moves(rw->mv, (size_t)np, &rw->tmp, &rw->tmpcap);
      for (int64_t j = 0; j < ns; j++)
        memcpy(buf + sizeof head + sizeof(rd_key) * (size_t)j,
               &R->key[rw->mv[j * np / ns].to], sizeof(rd_key));
    }
  }
  if ((rc = cm->allgather(
           cm->ctx, rc, buf, (int64_t)(sizeof(int64_t) + sizeof(rd_key) * ns),
           (int64_t)(sizeof(int64_t) +
                     sizeof(rd_key) * (need_succ ? RD_SAMPLES : 0)),
           (void **)&all, cnt)) != MINEX_OK)
    goto out;
  int64_t o = 0, n = 0;
  *total = 0;
  for (int r = 0; r < size; r++) {
    int64_t h;
    memcpy(&h, all + o, sizeof h);
    *total += h;
    n += (cnt[r] - (int64_t)sizeof h) / (int64_t)sizeof(rd_key);
    o += cnt[r];
  }
  if (n > (int64_t)maxs) /* every rank computes the same n */
    rc = core_error(MINEX_EINTERNAL, "rounds: %lld samples, at most %zu",
                    (long long)n, maxs);
  if (rc != MINEX_OK || n == 0)
    goto out;
  o = 0, n = 0;
  for (int r = 0; r < size; r++) {
    int64_t h, m = (cnt[r] - (int64_t)sizeof h) / (int64_t)sizeof(rd_key);
    memcpy(&h, all + o, sizeof h);
    for (int64_t j = 0; j < m; j++) {
      memcpy(&smp[n].key, all + o + sizeof h + sizeof(rd_key) * (size_t)j,
             sizeof(rd_key));
      smp[n++].weight = (double)h / (double)m;
    }
    o += cnt[r];
  }
  qsort(smp, (size_t)n, sizeof *smp, sample_qcmp);
  double before = 0;
  int64_t i = 0;
  for (int r = 1; r < size; r++) {
    double target = (double)*total * r / size;
    while (i < n && before + smp[i].weight <= target)
      before += smp[i++].weight;
    if (i == n)
      break;
    (*spl)[(*nspl)++] = smp[i].key;
  }
out:
  core_free(buf), core_free(all), core_free(smp);
  return rc;
}

/* What a rank tells every rank after a round it executed itself
 * (rd_execute): its moves, then the loads after the round of the
 * processors whose home it is. */
typedef struct rd_count2 {
  int64_t executed, forced;
} rd_count2;

/* An accepted move of another rank next to this rank's accepted moves, as
 * rd_execute's last round tells it to the ranks of its ghost neighbours:
 * its key (with its global id), destination and guessed state. */
typedef struct rd_gmove {
  rd_key key;
  int32_t to, state;
} rd_gmove;

static int gmove_qcmp(const void *a, const void *b) {
  return gid_qcmp(&((const rd_gmove *)a)->key, &((const rd_gmove *)b)->key);
}

/* Accepted move i's neighbour owners (sc->nbr, first seen first, Cwgt
 * summed in row order as partition_gather_owners_in; returns their
 * number) in the last round: a neighbour whose accepted move comes
 * earlier in the order and is guessed made (E->state: this rank's, at
 * rw->pos; gm[0..ngm), by global id: the ghosts') is on its destination,
 * as execute_records' rec_gather finds it when the guesses hold; *changed:
 * whether one is. */
static int32_t rd_gather(const rd_ctx *X, partition_scratch *sc,
                         const rd_round *E, int32_t i, const rd_gmove *gm,
                         int64_t ngm, int *changed) {
  const partition_ctx *pc = X->pc;
  const partition_rounds_ws *rw = X->rw;
  const contract_ws *ws = pc->ws;
  const contract_level *L = contract_cur(ws);
  int32_t nb = L->nbase;
  const int32_t *adj;
  const double *cw;
  int64_t len;
  contract_edges(ws, E->x[i], &adj, &cw, &len);
  partition_nbr_begin(sc, pc->ld->nprocs);
  int32_t nn = 0;
  *changed = 0;
  for (int64_t j = 0; j < len; j++) {
    int32_t y = adj[j], o = contract_end_owner(ws, y);
    if (y < nb) {
      int32_t at = rw->pos[y] - 1;
      if (at >= 0 && E->state[at] == RS_MOVE &&
          key_cmp(&E->key[at], &E->key[i]) < 0) {
        o = E->to[at];
        *changed = 1;
      }
    } else {
      int64_t g = L->ghost_gid[y - 2 * nb], lo = 0, hi = ngm;
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (key_gid(&gm[mid].key) < g)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < ngm && key_gid(&gm[lo].key) == g && gm[lo].state == RS_MOVE &&
          key_cmp(&gm[lo].key, &E->key[i]) < 0) {
        o = gm[lo].to;
        *changed = 1;
      }
    }
    nn = partition_nbr_add(sc, nn, o, cw[j]);
  }
  return nn;
}

/* The accepted moves' deltas per touched processor (E->tup, E->tstart),
 * as partition_execute makes them: from the scan's neighbourhood (no
 * neighbour of a move that does not wait moves in a round before the
 * last), or in the last round (gm set) from rd_gather's, need[i] then
 * set when move i is to be checked (check, or a neighbour moved before
 * it). MINEX_ENOMEM with a message (not agreed). */
static int rd_deltas(const rd_ctx *X, rd_round *E, int last, const rd_gmove *gm,
                     int64_t ngm, unsigned char *need, int64_t *cap) {
  partition_ctx *pc = X->pc;
  int check = X->check;
  contract_ws *ws = pc->ws;
  const contract_level *L = contract_cur(ws);
  partition_scratch *sc = &pc->sc[0];
  int64_t t = 0;
  for (int32_t i = 0; i < E->np; i++) {
    int32_t x = E->x[i], nn;
    int changed = 0;
    const contract_attr *a = &L->at[x];
    if (last)
      nn = rd_gather(X, sc, E, i, gm, ngm, &changed);
    else
      nn = partition_gather_owners_in(pc, sc, x);
    need[i] = check || changed;
    costmodel_vertex v = {a->pwgt, a->rwgt, a->old, ws->owner[x], sc->nbr, nn};
    costmodel_move_deltas(pc->ld, &sc->mv, &v, E->to[i]);
    E->tstart[i] = t;
    int rc = tuples_add(&E->tup, cap, &t, E->key[i], &sc->mv);
    if (rc != MINEX_OK)
      return rc;
  }
  E->tstart[E->np] = t;
  E->ntup = t;
  return MINEX_OK;
}

/* The guesses of this rank's accepted moves with ghost neighbours (sidx,
 * scnt[r] of them to rank r: rd_ghost_ranks') to those ranks; *gm gets
 * the other ranks' (*ngm), sorted by global id. Collective. */
static int rd_guesses(const rd_ctx *X, const rd_round *E, const int32_t *sidx,
                      const int64_t *scnt, rd_gmove **gm, int64_t *ngm,
                      int rc) {
  const dist_comm *cm = X->cm;
  int64_t *cnt = X->cnt, *rcnt = X->rcnt;
  int size = cm->size;
  int64_t ns = 0;
  rd_gmove *sbuf = NULL;
  core_free(*gm);
  *gm = NULL;
  *ngm = 0;
  for (int r = 0; r < size && rc == MINEX_OK; r++)
    ns += scnt[r];
  if (rc == MINEX_OK &&
      (sbuf = core_malloc(sizeof *sbuf * ((size_t)ns + 1))) == NULL)
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld moves",
                    (long long)ns);
  if (rc == MINEX_OK)
    for (int64_t i = 0; i < ns; i++)
      sbuf[i] = (rd_gmove){E->key[sidx[i]], E->to[sidx[i]], E->state[sidx[i]]};
  for (int r = 0; r < size; r++)
    cnt[r] = rc == MINEX_OK ? scnt[r] * (int64_t)sizeof *sbuf : 0;
  if ((rc = cm->exchange(cm->ctx, rc, sbuf, cnt, (void **)gm, rcnt)) ==
      MINEX_OK) {
    for (int r = 0; r < size; r++)
      *ngm += rcnt[r] / (int64_t)sizeof **gm;
    qsort(*gm, (size_t)*ngm, sizeof **gm, gmove_qcmp);
  }
  core_free(sbuf);
  return rc;
}

/* Tries of rd_execute's speculation before rank 0 takes the round
   (pc->speculate_max, when set, instead). */
#define RD_SPECULATE_MAX 8

/* A round's accepted moves (partition_rounds executes every accepted move
 * that does not wait, in the order; in the refinement passes, check set,
 * each checked first against the loads the moves made before it left; in
 * the last round, last set, where nothing waits, also each one next to a
 * move made before it, with the owners that move left), executed by the
 * ranks of its moves, without rank 0. Each accepted move's deltas, made
 * as partition_execute makes them (rd_deltas), go to the processors'
 * home ranks, which sum them in the round's order from the round's loads
 * (rd_sums). With check or last, by speculation: every move guessed made
 * (in the last round the guesses told to the ranks of the moves' ghost
 * neighbours, rd_guesses, and each move's neighbourhood and deltas made
 * from them), the sums of the guessed moves answered, each move that is
 * to be checked checked against them (rd_decide, dMinVar about ref; w0
 * .. q0 the round's loads), again with the new guesses until none
 * changes, which is the serial chain's outcome (the guesses of the moves
 * before the first wrong one are right, so each try fixes at least that
 * one); after RD_SPECULATE_MAX tries *central is set and nothing changed
 * (rank 0 executes the round). Then every home's processors' loads after
 * the round to every rank, the totals made again (costmodel_resync, as
 * the serial round ends), each move made to the ranks of its ghost
 * neighbours. *ev gets this rank's events (*nev), as rank 0 would send
 * them but not in the round's order: its own moves (local ids) in its
 * scan's order, then its ghosts' (global ids, EV_GHOST) in rank order
 * (applying them does not depend on the order: the marks and locks are
 * sets and the next round's ids are sorted); *executed the moves of
 * every rank; *tries the tries. Collective. */
/* rd_execute's state: the accepted moves (E, in R's order) and the
 * buffers of the speculation and of the exchanges after it. */
typedef struct rd_exec {
  rd_round E;
  rd_before *fin; /* the home processors' loads after the round */
  int64_t *pick, *scnt, *flips, cap, bcap, ngm;
  unsigned char *need;
  int32_t *sidx, *was;
  rd_gmove *gm;
} rd_exec;

static void rd_exec_free(rd_exec *S) {
  rd_free(&S->E);
  core_free(S->fin), core_free(S->pick), core_free(S->was), core_free(S->flips),
      core_free(S->scnt), core_free(S->need), core_free(S->sidx),
      core_free(S->gm);
}

/* S's arrays for R's accepted moves, copied into S->E in R's order (each
 * guessed made). */
static int rd_exec_init(const rd_ctx *X, const rd_round *R, rd_exec *S) {
  memset(S, 0, sizeof *S);
  int32_t np = 0, P = X->pc->ld->nprocs;
  for (int32_t k = 0; k < R->np; k++)
    np += R->state[k] == RS_MOVE;
  size_t m = (size_t)np + 1;
  rd_round *E = &S->E;
  S->cap = 4 * (int64_t)np + 4;
  E->key = core_malloc(sizeof *E->key * m);
  E->x = core_malloc(sizeof *E->x * m);
  E->to = core_malloc(sizeof *E->to * m);
  E->state = core_malloc(sizeof *E->state * m);
  E->tstart = core_malloc(sizeof *E->tstart * (m + 1));
  E->succ = core_calloc(m, sizeof *E->succ);
  E->tup = core_malloc(sizeof *E->tup * (size_t)S->cap);
  S->fin = core_malloc(sizeof *S->fin * ((size_t)P + 1));
  S->pick = core_malloc(sizeof *S->pick * 2);
  S->scnt = core_calloc((size_t)X->cm->size + 1, sizeof *S->scnt);
  S->need = core_malloc(m);
  S->was = core_malloc(sizeof *S->was * m);
  if (!(E->key && E->x && E->to && E->state && E->tstart && E->succ && E->tup &&
        S->fin && S->pick && S->scnt && S->need && S->was))
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %ld moves",
                      (long)np);
  for (int32_t k = 0; k < R->np; k++) {
    if (R->state[k] != RS_MOVE)
      continue;
    int32_t i = E->np++;
    E->key[i] = R->key[k];
    E->x[i] = R->x[k];
    E->to[i] = R->to[k];
    E->state[i] = RS_MOVE; /* the first guess: made */
  }
  return MINEX_OK;
}

/* Without check or last: the moves' deltas E->tup to their processors'
 * homes by sparse messages, into the question's room (X->qin: a move's
 * tuples are its proposal's, so no home gets more from a rank than the
 * question brought), summed there into fin. The result is this rank's
 * (not agreed). */
static int rd_homes_sparse(const rd_ctx *X, const rd_round *E, rd_before *fin,
                           int rc) {
  const dist_comm *cm = X->cm;
  int size = cm->size;
  int64_t *cnt = X->cnt, *pos = NULL;
  rd_tuple *sbuf = NULL;
  if (rc == MINEX_OK &&
      ((pos = core_calloc((size_t)size + 1, sizeof *pos)) == NULL ||
       (sbuf = core_malloc(sizeof *sbuf * ((size_t)E->ntup + 1))) == NULL))
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld deltas",
                    (long long)E->ntup);
  if (rc == MINEX_OK) {
    for (int r = 0; r < size; r++)
      cnt[r] = 0;
    for (int64_t t = 0; t < E->ntup; t++)
      cnt[home_of(E->tup[t].proc, size)]++;
    for (int r = 1; r < size; r++)
      pos[r] = pos[r - 1] + cnt[r - 1];
    for (int64_t t = 0; t < E->ntup; t++)
      sbuf[pos[home_of(E->tup[t].proc, size)]++] = E->tup[t];
    for (int r = 0; r < size && rc == MINEX_OK; r++)
      if ((cnt[r] *= (int64_t)sizeof *sbuf) > X->qs[r])
        rc = core_error(MINEX_EINTERNAL,
                        "rounds: rank %d: %lld bytes of deltas for rank %d, "
                        "its question had %lld",
                        cm->rank, (long long)cnt[r], r, (long long)X->qs[r]);
  }
  for (int r = 0; r < size; r++) {
    X->scap[r] = X->qs[r] > 0 ? (rc == MINEX_OK ? cnt[r] : 0) : -1;
    X->rcap[r] = X->qr[r] > 0 ? X->qr[r] : -1;
  }
  if ((rc = cm->sparse(cm->ctx, rc, sbuf, X->scap, X->qin, X->rcap, X->rcnt)) ==
      MINEX_OK)
    rc = rd_sums(X->pc->ld, X->qin,
                 sparse_compact(X->qin, X->rcap, X->rcnt, size) /
                     (int64_t)sizeof *sbuf,
                 NULL, fin);
  core_free(pos), core_free(sbuf);
  return rc;
}

/* The speculation: the guessed moves' sums at the homes (their loads after
 * the round in S->fin); with check or last, the answers back and every
 * move to be checked checked, again until no guess flips on any rank (or
 * the tries run out: tally->central, the round goes to rank 0).
 * Collective. */
static int rd_speculate(const rd_ctx *X, rd_exec *S, int last, int rc,
                        rd_tally *tally) {
  partition_ctx *pc = X->pc;
  const dist_comm *cm = X->cm;
  const costmodel_loads *ld = pc->ld;
  rd_round *E = &S->E;
  int check = X->check, size = cm->size, rank = cm->rank;
  int32_t P = ld->nprocs;
  for (;;) {
    /* the last round: the guesses to the ghosts' ranks */
    if (last && (rc = rd_guesses(X, E, S->sidx, S->scnt, &S->gm, &S->ngm,
                                 rc)) != MINEX_OK)
      return rc;
    /* the moves' deltas (once before the last round: they do not depend
       on the guesses) */
    if ((last || tally->tries == 0) && rc == MINEX_OK)
      rc = rd_deltas(X, E, last, S->gm, S->ngm, S->need, &S->cap);
    if ((check || last) && rc == MINEX_OK && E->ntup > S->bcap) {
      core_free(E->before);
      S->bcap = E->ntup;
      if ((E->before =
               core_malloc(sizeof *E->before * ((size_t)S->bcap + 1))) == NULL)
        rc = core_error(MINEX_ENOMEM,
                        "rounds: out of memory for %lld touched processors",
                        (long long)S->bcap);
    }
    for (int32_t i = 0; i < E->np && rc == MINEX_OK; i++)
      for (int64_t u = E->tstart[i]; u < E->tstart[i + 1]; u++)
        E->tup[u].pad = E->state[i] != RS_MOVE;
    for (int32_t p = rank; p < P && rc == MINEX_OK; p += size)
      S->fin[p] =
          (rd_before){ld->wgt[p], ld->comm[p], ld->remap[p], ld->qwgt[p]};
    /* without an answer the result is this rank's, agreed by the
       caller's next collective */
    if (!(check || last))
      return rd_homes_sparse(X, E, S->fin, rc);
    /* its result agreed by the flips' allgather */
    rc = rd_before_all(pc, cm, E, X->cnt, X->rcnt, S->fin, NULL, rc, NULL);
    tally->tries++;
    memcpy(S->was, E->state, sizeof *S->was * (size_t)E->np);
    if (rc == MINEX_OK)
      rd_decide(X, E, 1, 0, S->need);
    S->pick[0] = 0;
    for (int32_t i = 0; i < E->np; i++)
      S->pick[0] += E->state[i] != S->was[i];
    core_free(S->flips);
    S->flips = NULL;
    if ((rc = cm->allgather(cm->ctx, rc, S->pick, sizeof *S->pick,
                            sizeof *S->pick, (void **)&S->flips, X->rcnt)) !=
        MINEX_OK)
      return rc;
    int64_t nflip = 0;
    for (int r = 0; r < size; r++)
      nflip += S->flips[r];
    if (nflip == 0)
      return MINEX_OK; /* the guesses are the chain's outcome */
    if (tally->tries ==
        (pc->speculate_max > 0 ? pc->speculate_max : RD_SPECULATE_MAX)) {
      tally->central = 1; /* nothing changed: the round goes to rank 0 */
      return MINEX_OK;
    }
  }
}

/* This rank's counts and its processors' loads after the round to every
 * rank; every home's processors set in rank order, the totals made again.
 * *mine gets this rank's counts. Collective. */
static int rd_share_loads(const rd_ctx *X, rd_exec *S, rd_count2 *mine,
                          rd_tally *tally, int rc) {
  partition_ctx *pc = X->pc;
  const dist_comm *cm = X->cm;
  costmodel_loads *ld = pc->ld;
  const rd_round *E = &S->E;
  const rd_before *fin = S->fin;
  int size = cm->size, rank = cm->rank;
  int32_t P = ld->nprocs;
  int64_t *rcnt = X->rcnt;
  char *msg = NULL, *all = NULL;

  for (int32_t i = 0; i < E->np; i++)
    if (E->state[i] == RS_MOVE) {
      mine->executed++;
      mine->forced += !pc->cfg->avail[pc->ws->owner[E->x[i]]];
    }
  int32_t nhome = rank < P ? (P - rank + size - 1) / size : 0;
  size_t bytes = sizeof *mine + sizeof *fin * (size_t)nhome;
  if (rc == MINEX_OK && (msg = core_malloc(bytes)) == NULL)
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory");
  if (rc == MINEX_OK) {
    memcpy(msg, mine, sizeof *mine);
    for (int32_t i = 0; i < nhome; i++)
      memcpy(msg + sizeof *mine + sizeof *fin * (size_t)i,
             &fin[rank + i * size], sizeof *fin);
  }
  if ((rc = cm->allgather(
           cm->ctx, rc, msg, (int64_t)bytes,
           (int64_t)(sizeof *mine +
                     sizeof *fin * (size_t)((P + size - 1) / size)),
           (void **)&all, rcnt)) != MINEX_OK)
    goto out;
  rd_count2 sum = {0, 0};
  const char *at = all;
  for (int r = 0; r < size; r++) {
    int32_t nh = r < P ? (P - r + size - 1) / size : 0;
    if (rcnt[r] != (int64_t)(sizeof sum + sizeof *fin * (size_t)nh)) {
      rc = core_error(MINEX_EINTERNAL,
                      "rounds: rank %d sent %lld bytes of loads, %lld "
                      "expected",
                      r, (long long)rcnt[r],
                      (long long)(sizeof sum + sizeof *fin * (size_t)nh));
      break;
    }
    rd_count2 c;
    memcpy(&c, at, sizeof c);
    sum.executed += c.executed;
    sum.forced += c.forced;
    for (int32_t i = 0; i < nh; i++) {
      rd_before b;
      memcpy(&b, at + sizeof c + sizeof b * (size_t)i, sizeof b);
      int32_t p = r + i * size;
      ld->wgt[p] = b.w;
      ld->comm[p] = b.c;
      ld->remap[p] = b.r;
      ld->qwgt[p] = b.q;
    }
    at += rcnt[r];
  }
  if (rc == MINEX_OK) {
    costmodel_resync(ld);
    pc->moves += sum.executed;
    pc->forced_moves += sum.forced;
    tally->executed = sum.executed;
  }
out:
  core_free(msg), core_free(all);
  return rc;
}

/* Each move made to the ranks of its ghost neighbours (sparse messages);
 * *ev gets this rank's executed moves, then the ghosts' moves received
 * (*nev events). The result is this rank's (not agreed). */
static int rd_ghost_events(const rd_ctx *X, const rd_exec *S, int64_t executed,
                           char **ev, int64_t *nev, int rc) {
  const contract_ws *ws = X->pc->ws;
  const dist_comm *cm = X->cm;
  const contract_level *L = contract_cur(ws);
  const rd_round *E = &S->E;
  int size = cm->size;
  int64_t *cnt = X->cnt, nghost = 0;
  int32_t *idx = NULL;
  rec_event *gbuf = NULL;
  if (rc == MINEX_OK)
    rc = rd_ghost_ranks(ws, cm, X->goff, E, &idx, cnt);
  for (int r = 0; r < size && rc == MINEX_OK; r++)
    nghost += cnt[r];
  if (rc == MINEX_OK &&
      (gbuf = core_malloc(sizeof *gbuf * ((size_t)nghost + 1))) == NULL)
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld events",
                    (long long)nghost);
  if (rc == MINEX_OK)
    for (int64_t i = 0; i < nghost; i++)
      gbuf[i] = (rec_event){L->goff + E->x[idx[i]], E->to[idx[i]],
                            EV_EXEC | EV_GHOST};
  int crc = ghost_caps(X, rc == MINEX_OK ? cnt : NULL, sizeof *gbuf);
  if (rc == MINEX_OK)
    rc = crc;
  if ((rc = cm->sparse(cm->ctx, rc, gbuf, X->scap, X->gbuf, X->rcap,
                       X->rcnt)) != MINEX_OK)
    goto out;
  const char *gin = X->gbuf;
  int64_t ngin =
      sparse_compact(X->gbuf, X->rcap, X->rcnt, size) / (int64_t)sizeof *gbuf;
  size_t evb = sizeof(rec_event) * (size_t)(executed + ngin);
  if ((*ev = core_malloc(evb + 1)) == NULL) {
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory for %lld events",
                    (long long)(executed + ngin));
    goto out;
  }
  int64_t e = 0;
  for (int32_t i = 0; i < E->np; i++)
    if (E->state[i] == RS_MOVE) {
      rec_event x = {E->x[i], E->to[i], EV_EXEC};
      memcpy(*ev + sizeof x * (size_t)e++, &x, sizeof x);
    }
  if (ngin > 0)
    memcpy(*ev + sizeof(rec_event) * (size_t)e, gin,
           sizeof(rec_event) * (size_t)ngin);
  *nev = e + ngin;
out:
  core_free(idx), core_free(gbuf);
  return rc;
}

static int rd_execute(const rd_ctx *X, const rd_round *R, int last, char **ev,
                      int64_t *nev, rd_tally *tally, int rc) {
  partition_rounds_ws *rw = X->rw;
  const dist_comm *cm = X->cm;
  rd_exec S;
  tally->central = 0;
  tally->tries = 0;
  if (rc == MINEX_OK)
    rc = rd_exec_init(X, R, &S);
  else
    memset(&S, 0, sizeof S); /* takes part with nothing to give */
  rd_round *E = &S.E;
  /* the last round: each move's place here (rw->pos, zeroed again at the
     end), the ranks its guesses go to */
  if (last && rc == MINEX_OK) {
    for (int32_t i = 0; i < E->np; i++)
      rw->pos[E->x[i]] = i + 1;
    if ((rc = rd_ghost_ranks(X->pc->ws, cm, X->goff, E, &S.sidx, S.scnt)) !=
        MINEX_OK)
      for (int r = 0; r < cm->size; r++)
        S.scnt[r] = 0;
  }
  rd_count2 mine = {0, 0};
  /* every rank makes the same collectives whatever its own state: each
     carries rc (tally->central is the same on every rank) */
  rc = rd_speculate(X, &S, last, rc, tally);
  if (!tally->central) {
    rc = rd_share_loads(X, &S, &mine, tally, rc);
    rc = rd_ghost_events(X, &S, mine.executed, ev, nev, rc);
  }
  if (last)
    for (int32_t i = 0; i < E->np; i++)
      rw->pos[E->x[i]] = 0;
  rd_exec_free(&S);
  return rc;
}

/* The buffers of a round's exchanges (freed at the next round). */
typedef struct rd_bufs {
  char *mine, *all, *msg, *in, *st, *stall;
} rd_bufs;

static void rd_bufs_free(rd_bufs *b) {
  core_free(b->mine), core_free(b->all), core_free(b->msg), core_free(b->in),
      core_free(b->st), core_free(b->stall);
  memset(b, 0, sizeof *b);
}

/* Every rank's first id of level L into goff (size + 1 entries): the ranks
 * hold consecutive ids, in rank order. The level keeps them from its
 * making (L->rank_goff), so that no call of the rounds gathers them again;
 * a check here. The result is this rank's. */
static int rd_level_offsets(const rd_ctx *X, const contract_level *L,
                            int64_t *goff, int rc) {
  const dist_comm *cm = X->cm;
  if (rc != MINEX_OK)
    return rc;
  if (L->rank_goff == NULL)
    return core_error(MINEX_EINTERNAL,
                      "rounds: rank %d: level without the "
                      "ranks' first ids",
                      cm->rank);
  memcpy(goff, L->rank_goff, sizeof *goff * ((size_t)cm->size + 1));
  if (goff[cm->rank] != L->goff && L->nbase > 0)
    rc = core_error(MINEX_EINTERNAL,
                    "rounds: rank %d: level ids from %lld, %lld expected",
                    cm->rank, (long long)L->goff, (long long)goff[cm->rank]);
  if (rc == MINEX_OK && goff[cm->size] != L->gnbase)
    rc = core_error(MINEX_EINTERNAL,
                    "rounds: rank %d: %lld level ids, %lld expected", cm->rank,
                    (long long)goff[cm->size], (long long)L->gnbase);
  return rc; /* agreed by the first round's count */
}

/* The accepted moves of this rank, with their edges, as records for rank
 * 0 (b->mine); returns their bytes, or -1 on failure. */
static int64_t rd_pack_records(const rd_ctx *X, const rd_round *R, rd_bufs *b) {
  const contract_ws *ws = X->pc->ws;
  const contract_level *L = contract_cur(ws);
  int32_t nb = L->nbase;
  size_t bytes = 0;
  for (int32_t k = 0; k < R->np; k++)
    if (R->state[k] == RS_MOVE) {
      const int32_t *adj;
      const double *cw;
      int64_t len;
      contract_edges(ws, R->x[k], &adj, &cw, &len);
      bytes += sizeof(rec_head) + sizeof(rec_edge) * (size_t)len;
    }
  core_free(b->mine);
  if ((b->mine = core_malloc(bytes + 1)) == NULL) {
    core_error(MINEX_ENOMEM, "rounds: out of memory for %zu bytes", bytes);
    return -1;
  }
  char *p = b->mine;
  for (int32_t k = 0; k < R->np; k++) {
    if (R->state[k] != RS_MOVE)
      continue;
    int32_t x = R->x[k];
    const int32_t *adj;
    const double *cw;
    int64_t len;
    contract_edges(ws, x, &adj, &cw, &len);
    const contract_attr *a = &L->at[x];
    rec_head h = {L->goff + x,
                  R->key[k].gain,
                  a->pwgt,
                  a->rwgt,
                  a->ctot,
                  a->old,
                  ws->owner[x],
                  key_forced(&R->key[k]),
                  (int32_t)len,
                  R->to[k],
                  0};
    memcpy(p, &h, sizeof h);
    p += sizeof h;
    for (int64_t j = 0; j < len; j++) {
      int32_t y = adj[j];
      rec_edge e = {y < nb ? L->goff + y : L->ghost_gid[y - 2 * nb], cw[j],
                    ws->owner[y], 0};
      memcpy(p, &e, sizeof e);
      p += sizeof e;
    }
  }
  return (int64_t)bytes;
}

/* A round whose speculation did not settle: the accepted moves with their
 * edges to rank 0, which executes them in the order and tells each rank
 * what concerns it (b->in, *nev events); the loads after the round go to
 * every rank once (an allgather to which rank 0 alone gives bytes).
 * Collective. */
static int rd_central(const rd_ctx *X, const rd_round *R, int last, rd_bufs *b,
                      int64_t *nev, int64_t *moves, int rc) {
  partition_ctx *pc = X->pc;
  const dist_comm *cm = X->cm;
  int size = cm->size;
  int64_t *cnt = X->cnt, *rcnt = X->rcnt;
  int64_t bytes = rc == MINEX_OK ? rd_pack_records(X, R, b) : 0;
  if (rc == MINEX_OK && bytes < 0)
    rc = MINEX_ENOMEM;
  for (int r = 0; r < size; r++)
    cnt[r] = r == 0 && bytes > 0 ? bytes : 0;
  if ((rc = cm->exchange(cm->ctx, rc, b->mine, cnt, (void **)&b->all, rcnt)) !=
      MINEX_OK)
    return rc;
  for (int r = 0; r < size; r++)
    cnt[r] = 0;
  int64_t nst = 0;
  if (cm->rank == 0) {
    int64_t tot = 0;
    for (int r = 0; r < size; r++)
      tot += rcnt[r];
    rc = execute_records(X, b->all, tot, last, &b->msg, &b->st, &nst);
  }
  if ((rc = cm->exchange(cm->ctx, rc, b->msg, cnt, (void **)&b->in, rcnt)) !=
          MINEX_OK ||
      (rc = cm->allgather(cm->ctx, rc, b->st, nst, -1, (void **)&b->stall,
                          cnt)) != MINEX_OK)
    return rc;
  *nev = rcnt[0] / (int64_t)sizeof(rec_event);
  rec_state hd;
  memcpy(&hd, b->stall, sizeof hd);
  if (cm->rank != 0)
    costmodel_state_get(pc->ld, b->stall + sizeof hd);
  pc->moves = hd.moves;
  pc->forced_moves = hd.forced_moves;
  *moves += hd.executed;
  return MINEX_OK;
}

/* The round's end here: this rank's proposals that wait, then the
 * executed moves (events evs[0..nev)) in the order, as partition_rounds
 * applies its moves (the queue's contents do not depend on the order of
 * the two): owners and interior flags of this rank's vertices and ghosts
 * set, their neighbours queued for the next round. */
static int rd_apply_events(const rd_ctx *X, const rd_round *R, const char *evs,
                           int64_t nev, partition_queue *qu) {
  partition_ctx *pc = X->pc;
  partition_rounds_ws *rw = X->rw;
  contract_ws *ws = pc->ws;
  const contract_level *L = contract_cur(ws);
  int32_t nb = L->nbase, *mark = rw->mark, stamp = qu->stamp;
  int rc = MINEX_OK;
  for (int32_t k = 0; k < R->np; k++) {
    int32_t xl = R->x[k];
    if ((R->state[k] == RS_WAIT || R->state[k] == RS_DEFER) &&
        mark[xl] != stamp) {
      mark[xl] = stamp;
      qu->ids[qu->next++] = xl;
    }
  }
  for (int64_t k = 0; k < nev; k++) {
    rec_event x;
    memcpy(&x, evs + sizeof x * (size_t)k, sizeof x);
    if (x.flags & EV_GHOST) { /* a neighbour's move: x is a ghost here.
                                 Its neighbours that are ghosts here too
                                 keep their interior flag: a ghost's is
                                 never set (nor read) */
      /* rw's ghost lists are the level's (rd_ghost_room) */
      int32_t xl = local_of(L, x.id), g = xl - 2 * nb;
      if (g < 0) {
        rc = core_error(MINEX_EINTERNAL,
                        "rounds: rank %d: vertex %lld moved next to this "
                        "rank's vertices is no ghost here",
                        X->cm->rank, (long long)x.id);
        break;
      }
      ws->owner[xl] = x.q;
      pc->interior[xl] = 0;
      for (int64_t j = rw->gstart[g]; j < rw->gstart[g + 1]; j++)
        queue_nbr(pc, rw, rw->gnbr[j], qu);
      continue;
    }
    int32_t xl = (int32_t)x.id;
    ws->owner[xl] = x.q;
    pc->interior[xl] = 0;
    mark[xl] = -stamp;
    if (qu->lock)
      qu->lock[xl] = qu->lockstamp;
    /* its neighbours here: no longer interior; queued for the next
       round */
    const int32_t *adj;
    const double *cw;
    int64_t len;
    contract_edges(ws, xl, &adj, &cw, &len);
    for (int64_t j = 0; j < len; j++) {
      if (adj[j] < nb)
        queue_nbr(pc, rw, adj[j], qu);
      else
        pc->interior[adj[j]] = 0;
    }
  }
  return rc;
}

/* The level's ghost lists (rw, made again when the level changed),
 * every rank's vertices next to this rank's into gcnt, and the room for
 * the keys or moves they may send in a round (X->gbuf). MINEX_ENOMEM with
 * a message (agreed by the first round's count). */
static int rd_ghost_room(rd_ctx *X, const contract_level *L, int64_t *gcnt) {
  partition_rounds_ws *rw = X->rw;
  int size = X->cm->size;
  if (rw->glevel != L || rw->gxadj != L->xadj) {
    core_free(rw->gstart), core_free(rw->gnbr);
    rw->gstart = NULL, rw->gnbr = NULL, rw->glevel = NULL;
    int rc = ghost_nbrs(L, &rw->gstart, &rw->gnbr);
    if (rc != MINEX_OK)
      return rc;
    rw->glevel = L, rw->gxadj = L->xadj;
  }
  int64_t n = 0;
  for (int r = 0; r < size; r++)
    gcnt[r] = 0;
  for (int32_t g = 0; g < L->nghost; g++)
    if (rw->gstart[g + 1] > rw->gstart[g]) {
      gcnt[rank_of(X->goff, size, L->ghost_gid[g])]++;
      n++;
    }
  size_t item =
      sizeof(rd_key) > sizeof(rec_event) ? sizeof(rd_key) : sizeof(rec_event);
  if ((X->gbuf = core_malloc(item * (size_t)n + 1)) == NULL)
    return core_error(MINEX_ENOMEM, "rounds: out of memory for %lld ghosts",
                      (long long)n);
  return MINEX_OK;
}

int partition_rounds_dist(partition_ctx *pc, partition_rounds_ws *rw,
                          const partition_round_set *set, int64_t *moves) {
  int32_t *ids = set->ids, n = set->n, budget = set->budget;
  int defer = set->defer;
  contract_ws *ws = pc->ws;
  const dist_comm *cm = ws->comm;
  const contract_level *L = contract_cur(ws);
  int32_t *mark = rw->mark, P = pc->ld->nprocs;
  int size = cm->size;
  int64_t *cnt = core_calloc((size_t)size + 1, sizeof *cnt);
  int64_t *rcnt = core_calloc((size_t)size + 1, sizeof *rcnt);
  int64_t *goff = core_malloc(sizeof *goff * ((size_t)size + 1));
  double *w0 = core_malloc(sizeof *w0 * 4 * ((size_t)P + 1));
  rd_bufs b;
  memset(&b, 0, sizeof b);
  rd_key *spl = NULL;
  int nspl = 0;
  rd_round R;
  memset(&R, 0, sizeof R);
  int rc = cnt && rcnt && goff && w0
               ? MINEX_OK
               : core_error(MINEX_ENOMEM, "rounds: out of memory");
  double *c0 = w0 + P + 1, *r0 = c0 + P, *q0 = r0 + P;
  rd_ctx X = {.pc = pc,
              .rw = rw,
              .cm = cm,
              .goff = goff,
              .cnt = cnt,
              .rcnt = rcnt,
              .w0 = w0,
              .c0 = c0,
              .r0 = r0,
              .q0 = q0,
              .check = pc->rule->recheck};
  int64_t *sp = core_calloc(5 * ((size_t)size + 1), sizeof *sp);
  if (rc == MINEX_OK && sp == NULL)
    rc = core_error(MINEX_ENOMEM, "rounds: out of memory");
  if (sp != NULL) {
    X.gcnt = sp, X.scap = sp + size + 1, X.rcap = X.scap + size + 1;
    X.qs = X.rcap + size + 1, X.qr = X.qs + size + 1;
  }
  *moves = 0;
  /* Every rank makes the same collectives whatever its own state: a local
     failure rides in the next one (each takes rc and returns it agreed),
     and the loop leaves only on an agreed code. */
  int agreed = 0;
  rc = rd_level_offsets(&X, L, goff, rc);
  if (rc == MINEX_OK)
    rc = rd_ghost_room(&X, L, sp);
  for (int32_t round = 0; round <= budget; round++) {
    int last = round >= budget, need_succ = defer && !last;
    /* the scan; this rank's proposals with their deltas; how many every
       rank has */
    pc->keep_deltas = 1; /* the proposals' deltas for rd_collect */
    if (rc == MINEX_OK)  /* else the events' failure, agreed below */
      rc = partition_scan(pc, ids, n, rw->prop);
    pc->keep_deltas = 0;
    double ref = pc->ld->tree[1];
    rd_free(&R);
    core_free(spl);
    spl = NULL;
    if (rc == MINEX_OK)
      rc = rd_collect(pc, rw, ids, n, &R);
    int64_t total = 0;
    agreed = 1; /* rd_count returns an agreed code */
    if ((rc = rd_count(&X, &R, need_succ, &total, &spl, &nspl, rc)) !=
            MINEX_OK ||
        total == 0)
      break;
    /* the running sums at the processors' home ranks, the next proposals
       by the sample sort, the decisions here, the waits */
    core_free(X.qin);
    X.qin = NULL;
    /* agreed with the sort, else this rank's own, agreed by the
       execution's first collective */
    rd_sort so = {rw, spl, nspl};
    rc = rd_before_all(pc, cm, &R, cnt, rcnt, NULL, need_succ ? &so : NULL, rc,
                       &X);
    if (rc != MINEX_OK && need_succ)
      break;
    memcpy(w0, pc->ld->wgt, sizeof *w0 * (size_t)P);
    memcpy(c0, pc->ld->comm, sizeof *c0 * (size_t)P);
    memcpy(r0, pc->ld->remap, sizeof *r0 * (size_t)P);
    memcpy(q0, pc->ld->qwgt, sizeof *q0 * (size_t)P);
    X.ref = ref;
    if (rc == MINEX_OK)
      rd_decide(&X, &R, last, defer, NULL);
    agreed = 0; /* from here on this rank's own codes */
    if (!last)
      rc = rd_waits(&X, &R, rc);
    char *mine = b.mine; /* rd_central's buffer lives across rounds */
    b.mine = NULL;
    rd_bufs_free(&b);
    b.mine = mine;
    int64_t nev = 0;
    /* the ranks execute their own moves (rank 0 only when the
       speculation does not settle) */
    rd_tally tally = {0, 0, 0};
    rc = rd_execute(&X, &R, last, &b.in, &nev, &tally, rc);
    if (!tally.central)
      *moves += tally.executed;
    pc->dist_rounds++;
    pc->dist_tries += tally.tries;
    pc->dist_rank0 += tally.central;
    if (tally.central)
      rc = rd_central(&X, &R, last, &b, &nev, moves, rc);
    partition_queue qu = {
        ids, 0, ++rw->stamp, set->lock, set->lockstamp, round < budget};
    if (rc == MINEX_OK)
      rc = rd_apply_events(&X, &R, b.in, nev, &qu);
    if (rc != MINEX_OK)
      continue; /* agreed by the next round's count, which skips the scan
                   (or at the end) */
    n = partition_next_round(ids, qu.next, mark, qu.stamp);
  }
  if (!agreed)
    rc = cm->agree(cm->ctx, rc);
  rd_free(&R);
  core_free(spl);
  core_free(cnt), core_free(rcnt), core_free(goff), core_free(w0);
  core_free(sp), core_free(X.gbuf), core_free(X.qin);
  rd_bufs_free(&b);
  return rc;
}

/* MINEX_CHECKS' checks read the whole graph: a rank's share has none. */
static int no_checks(contract_ws *ws, const costmodel_loads *ld,
                     const partition_ctx *pc, const char *phase) {
  (void)ws, (void)ld, (void)pc, (void)phase;
  return MINEX_OK;
}

const contract_layout dist_layout = {partition_rounds_dist, no_checks};
