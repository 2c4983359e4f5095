/* SPDX-License-Identifier: GPL-3.0-or-later */
/* dist_inproc_run: R ranks as threads sharing one table of slots. Every
 * collective publishes this rank's pointers in its slot, waits at a
 * barrier, reads the others' slots, and waits again before the slots (and
 * the buffers they point to) may change. */
#define _POSIX_C_SOURCE 200809L
#include "dist/inproc.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

typedef struct slot {
  const void *in;        /* this rank's data of the current collective */
  int64_t bytes;         /* its size (allgather)                       */
  const int64_t *counts; /* exchange: bytes to every rank             */
  int rc;                /* agree: this rank's code                    */
  char msg[1024];        /* and its message                            */
} slot;

typedef struct shared {
  int size;
  pthread_barrier_t bar;
  slot *slots;
  pthread_mutex_t gate; /* the ranks start together, or not at all */
  pthread_cond_t open;
  int go; /* 0: wait, 1: run, -1: a rank could not start, return */
} shared;

typedef struct rank_ctx {
  shared *sh;
  int rank;
  int64_t bytes, messages; /* sent (the phase log's figures)          */
  dist_comm cm;
  dist_inproc_fn fn;
  void *arg;
  int rc;
} rank_ctx;

static void sync_all(rank_ctx *r) {
  pthread_barrier_wait(&r->sh->bar);
}

static int ip_agree(void *ctx, int rc) {
  rank_ctx *r = ctx;
  slot *me = &r->sh->slots[r->rank];
  me->rc = rc;
  if (rc != MINEX_OK)
    snprintf(me->msg, sizeof me->msg, "rank %d: %s", r->rank,
             minex_last_error());
  sync_all(r);
  int first = -1;
  for (int q = 0; q < r->sh->size && first < 0; q++)
    if (r->sh->slots[q].rc != MINEX_OK)
      first = q;
  int out = MINEX_OK;
  if (first >= 0)
    out = core_error(r->sh->slots[first].rc, "%s", r->sh->slots[first].msg);
  sync_all(r);
  return out;
}

/* A local failure of a collective's buffers, agreed. */
static int ip_fail(rank_ctx *r, int rc) {
  return ip_agree(r, rc);
}

static int ip_allgather(void *ctx, int rc0, const void *in, int64_t bytes,
                        int64_t cap, void **out, int64_t *count) {
  rank_ctx *r = ctx;
  shared *sh = r->sh;
  *out = NULL;
  /* the MPI layer's bound, checked alike */
  if (rc0 == MINEX_OK && cap >= 0 && bytes > cap)
    rc0 = core_error(MINEX_EINTERNAL, "allgather of %lld bytes, at most %lld",
                     (long long)bytes, (long long)cap);
  if ((rc0 = ip_agree(r, rc0)) != MINEX_OK)
    return rc0;
  sh->slots[r->rank].in = in;
  sh->slots[r->rank].bytes = bytes;
  sync_all(r);
  int64_t total = 0;
  for (int q = 0; q < sh->size; q++) {
    count[q] = sh->slots[q].bytes;
    total += count[q];
  }
  char *buf = core_malloc(total > 0 ? (size_t)total : 1);
  if (buf != NULL) {
    int64_t off = 0;
    for (int q = 0; q < sh->size; q++) {
      if (count[q] > 0)
        memcpy(buf + off, sh->slots[q].in, (size_t)count[q]);
      off += count[q];
    }
    r->bytes += bytes * (sh->size - 1);
    r->messages += sh->size - 1;
  }
  int rc = ip_fail(r, buf ? MINEX_OK
                          : core_error(MINEX_ENOMEM,
                                       "out of memory gathering %lld bytes",
                                       (long long)total));
  if (rc != MINEX_OK) {
    core_free(buf);
    return rc;
  }
  *out = buf;
  return MINEX_OK;
}

/* An exchange's bytes for this rank, rcount[q] from each rank q in rank
 * order into buf, and what this rank sends counted (scount). */
static void take_sent(rank_ctx *r, const int64_t *scount, char *buf,
                      const int64_t *rcount) {
  const shared *sh = r->sh;
  int size = sh->size, me = r->rank;
  int64_t at = 0;
  for (int q = 0; q < size; q++) {
    const int64_t *c = sh->slots[q].counts;
    int64_t off = 0;
    for (int d = 0; d < me; d++)
      off += c[d];
    if (rcount[q] > 0)
      memcpy(buf + at, (const char *)sh->slots[q].in + off, (size_t)rcount[q]);
    at += rcount[q];
  }
  for (int d = 0; d < size; d++)
    if (d != me && scount[d] > 0) {
      r->bytes += scount[d];
      r->messages++;
    }
}

static int ip_exchange(void *ctx, int rc0, const void *sbuf,
                       const int64_t *scount, void **rbuf, int64_t *rcount) {
  rank_ctx *r = ctx;
  shared *sh = r->sh;
  int size = sh->size, me = r->rank;
  *rbuf = NULL;
  if ((rc0 = ip_agree(r, rc0)) != MINEX_OK)
    return rc0;
  sh->slots[me].in = sbuf;
  sh->slots[me].counts = scount;
  sync_all(r);
  int64_t total = 0;
  for (int q = 0; q < size; q++) {
    rcount[q] = sh->slots[q].counts[me];
    total += rcount[q];
  }
  char *buf = core_malloc(total > 0 ? (size_t)total : 1);
  if (buf != NULL)
    take_sent(r, scount, buf, rcount);
  int rc = ip_fail(r, buf ? MINEX_OK
                          : core_error(MINEX_ENOMEM,
                                       "out of memory receiving %lld bytes",
                                       (long long)total));
  if (rc != MINEX_OK) {
    core_free(buf);
    return rc;
  }
  *rbuf = buf;
  return MINEX_OK;
}

static int ip_reply(void *ctx, int rc0, int agreed, const void *sbuf,
                    const int64_t *scount, void *rbuf, const int64_t *rcount) {
  rank_ctx *r = ctx;
  shared *sh = r->sh;
  int size = sh->size, me = r->rank;
  /* the MPI layer's promise, checked: an agreed rc is MINEX_OK */
  if (agreed && rc0 != MINEX_OK)
    rc0 = core_error(MINEX_EINTERNAL, "reply: agreed, but rank %d failed", me);
  if ((rc0 = ip_agree(r, rc0)) != MINEX_OK)
    return rc0;
  sh->slots[me].in = sbuf;
  sh->slots[me].counts = scount;
  sync_all(r);
  int rc = MINEX_OK;
  for (int q = 0; q < size && rc == MINEX_OK; q++)
    if (sh->slots[q].counts[me] != rcount[q])
      rc = core_error(
          MINEX_EINTERNAL, "reply: %lld bytes from rank %d, %lld expected",
          (long long)sh->slots[q].counts[me], q, (long long)rcount[q]);
  if (rc == MINEX_OK)
    take_sent(r, scount, rbuf, rcount);
  return ip_fail(r, rc);
}

static int ip_sparse(void *ctx, int rc0, const void *sbuf,
                     const int64_t *scount, void *rbuf, const int64_t *rcap,
                     int64_t *rcount) {
  rank_ctx *r = ctx;
  shared *sh = r->sh;
  int size = sh->size, me = r->rank;
  /* the MPI layer's bound, checked alike */
  for (int d = 0; d < size && rc0 == MINEX_OK; d++)
    if (scount[d] > ((int64_t)1 << 30))
      rc0 = core_error(MINEX_EINTERNAL, "sparse: %lld bytes to rank %d",
                       (long long)scount[d], d);
  slot *mine = &sh->slots[me];
  mine->in = sbuf;
  mine->counts = scount;
  mine->rc = rc0;
  sync_all(r);
  int rc = rc0;
  int64_t at = 0;
  for (int q = 0; q < size; q++) {
    const slot *s = &sh->slots[q];
    int64_t c = s->counts[me], off = 0;
    rcount[q] = 0;
    if ((c >= 0) != (rcap[q] >= 0)) {
      if (rc == MINEX_OK)
        rc = core_error(MINEX_EINTERNAL,
                        "sparse: rank %d %s a message to rank %d", q,
                        c >= 0 ? "sends" : "does not send", me);
    } else if (c >= 0 && s->rc == MINEX_OK) {
      if (c > rcap[q]) {
        if (rc == MINEX_OK)
          rc = core_error(MINEX_EINTERNAL,
                          "sparse: %lld bytes from rank %d, at most %lld",
                          (long long)c, q, (long long)rcap[q]);
      } else {
        for (int d = 0; d < me; d++)
          off += s->counts[d] > 0 ? s->counts[d] : 0;
        if (c > 0)
          memcpy((char *)rbuf + at, (const char *)s->in + off, (size_t)c);
        rcount[q] = c;
      }
    }
    at += rcap[q] > 0 ? rcap[q] : 0;
  }
  for (int d = 0; d < size; d++)
    if (d != me && scount[d] >= 0) {
      r->bytes += rc0 == MINEX_OK ? scount[d] : 0;
      r->messages++;
    }
  sync_all(r); /* every rank has read every input */
  return rc;
}

static int ip_allreduce(void *ctx, const void *in, void *out, int count,
                        dist_type t, dist_op op) {
  rank_ctx *r = ctx;
  shared *sh = r->sh;
  sh->slots[r->rank].in = in;
  sync_all(r);
  for (int i = 0; i < count; i++) {
    if (t == DIST_I64) {
      int64_t v = ((const int64_t *)sh->slots[0].in)[i];
      for (int q = 1; q < sh->size; q++) {
        int64_t x = ((const int64_t *)sh->slots[q].in)[i];
        v = op == DIST_SUM ? v + x : (x > v ? x : v);
      }
      ((int64_t *)out)[i] = v;
    } else {
      double v = ((const double *)sh->slots[0].in)[i];
      for (int q = 1; q < sh->size; q++) {
        double x = ((const double *)sh->slots[q].in)[i];
        v = op == DIST_SUM ? v + x : (x > v ? x : v);
      }
      ((double *)out)[i] = v;
    }
  }
  sync_all(r); /* every rank has read every input */
  return MINEX_OK;
}

static int ip_exscan(void *ctx, const int64_t *in, int64_t *out, int count) {
  rank_ctx *r = ctx;
  shared *sh = r->sh;
  sh->slots[r->rank].in = in;
  sync_all(r);
  for (int i = 0; i < count; i++) {
    int64_t v = 0;
    for (int q = 0; q < r->rank; q++)
      v += ((const int64_t *)sh->slots[q].in)[i];
    out[i] = v;
  }
  sync_all(r);
  return MINEX_OK;
}

static int ip_bcast(void *ctx, void *buf, int64_t bytes, int root) {
  rank_ctx *r = ctx;
  shared *sh = r->sh;
  if (r->rank == root)
    sh->slots[root].in = buf;
  sync_all(r);
  if (r->rank != root && bytes > 0)
    memcpy(buf, sh->slots[root].in, (size_t)bytes);
  if (r->rank == root) {
    r->bytes += bytes * (sh->size - 1);
    r->messages += sh->size - 1;
  }
  sync_all(r);
  return MINEX_OK;
}

static int ip_idle_barrier(void *ctx) {
  sync_all(ctx);
  return MINEX_OK;
}

static void ip_sent(void *ctx, int64_t *bytes, int64_t *messages) {
  const rank_ctx *r = ctx;
  *bytes = r->bytes;
  *messages = r->messages;
}

static void *rank_main(void *p) {
  rank_ctx *r = p;
  shared *sh = r->sh;
  pthread_mutex_lock(&sh->gate);
  while (sh->go == 0)
    pthread_cond_wait(&sh->open, &sh->gate);
  int go = sh->go;
  pthread_mutex_unlock(&sh->gate);
  if (go > 0)
    r->rc = r->fn(&r->cm, r->arg);
  return NULL;
}

int dist_inproc_run(int nranks, dist_inproc_fn fn, void **args, int *rcs) {
  if (nranks < 1)
    return core_error(MINEX_EINVAL, "dist_inproc_run: %d ranks", nranks);
  shared sh;
  sh.size = nranks;
  sh.slots = core_calloc((size_t)nranks, sizeof *sh.slots);
  rank_ctx *rk = core_calloc((size_t)nranks, sizeof *rk);
  pthread_t *th = core_calloc((size_t)nranks, sizeof *th);
  if (sh.slots == NULL || rk == NULL || th == NULL) {
    core_free(sh.slots), core_free(rk), core_free(th);
    return core_error(MINEX_ENOMEM, "dist_inproc_run: out of memory");
  }
  if (pthread_barrier_init(&sh.bar, NULL, (unsigned)nranks) != 0) {
    core_free(sh.slots), core_free(rk), core_free(th);
    return core_error(MINEX_EINTERNAL, "dist_inproc_run: no barrier");
  }
  for (int q = 0; q < nranks; q++) {
    rank_ctx *r = &rk[q];
    r->sh = &sh;
    r->rank = q;
    r->fn = fn;
    r->arg = args[q];
    r->cm = (dist_comm){r,
                        q,
                        nranks,
                        ip_agree,
                        ip_allgather,
                        ip_exchange,
                        ip_reply,
                        ip_sparse,
                        ip_allreduce,
                        ip_exscan,
                        ip_bcast,
                        ip_idle_barrier,
                        ip_sent};
  }
  /* every thread or none: a rank that never started would leave the
     others waiting at the first barrier */
  sh.go = 0;
  pthread_mutex_init(&sh.gate, NULL);
  pthread_cond_init(&sh.open, NULL);
  int started = 0, rc = MINEX_OK;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)16 << 20);
  for (; started < nranks; started++)
    if (pthread_create(&th[started], &attr, rank_main, &rk[started]) != 0)
      break;
  pthread_attr_destroy(&attr);
  pthread_mutex_lock(&sh.gate);
  sh.go = started == nranks ? 1 : -1;
  pthread_cond_broadcast(&sh.open);
  pthread_mutex_unlock(&sh.gate);
  if (started < nranks)
    rc = core_error(MINEX_EINTERNAL,
                    "dist_inproc_run: rank %d of %d did not start", started,
                    nranks);
  for (int q = 0; q < nranks; q++)
    rcs[q] = rc;
  for (int q = 0; q < started; q++) {
    pthread_join(th[q], NULL);
    rcs[q] = started == nranks ? rk[q].rc : rc;
  }
  pthread_cond_destroy(&sh.open);
  pthread_mutex_destroy(&sh.gate);
  pthread_barrier_destroy(&sh.bar);
  core_free(sh.slots), core_free(rk), core_free(th);
  return rc;
}
