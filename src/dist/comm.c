/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The failure agreement and the checked collectives over a dist_comm. */
#include "dist/comm.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void dist_ctx_init(dist_ctx *c, const dist_comm *cm) {
  memset(c, 0, sizeof *c);
  c->cm = cm;
  c->rank = cm->rank;
  c->size = cm->size;
}

int dist_fail(dist_ctx *c, int rc, const char *fmt, ...) {
  if (c->rc != MINEX_OK)
    return rc; /* the first failure is the one reported */
  c->rc = rc;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg, sizeof c->msg, fmt, ap);
  va_end(ap);
  return rc;
}

int dist_agree(dist_ctx *c) {
  if (c->rc != MINEX_OK)
    core_error(c->rc, "%s", c->msg);
  int rc = c->cm->agree(c->cm->ctx, c->rc);
  if (rc != MINEX_OK) {
    /* the agreed failure stays this rank's: later steps return it */
    c->rc = rc;
    snprintf(c->msg, sizeof c->msg, "%s", minex_last_error());
  }
  return rc;
}

int dist_agree_rc(dist_ctx *c, int rc) {
  if (rc != MINEX_OK)
    dist_fail(c, rc, "%s", minex_last_error());
  return dist_agree(c);
}

/* An operation's own failure (rc, its message the last error) agreed. */
static int op_done(dist_ctx *c, int rc) {
  if (rc != MINEX_OK && c->rc == MINEX_OK) {
    c->rc = rc;
    snprintf(c->msg, sizeof c->msg, "%s", minex_last_error());
  }
  return rc;
}

int dist_allreduce(dist_ctx *c, const void *in, void *out, int count,
                   dist_type t, dist_op op) {
  return op_done(c, c->cm->allreduce(c->cm->ctx, in, out, count, t, op));
}

int dist_allgather(dist_ctx *c, const void *in, int64_t bytes, void **out,
                   int64_t *count) {
  if (c->rc != MINEX_OK)
    core_error(c->rc, "%s", c->msg);
  return op_done(
      c, c->cm->allgather(c->cm->ctx, c->rc, in, bytes, -1, out, count));
}

int dist_bcast(dist_ctx *c, void *buf, int64_t bytes, int root) {
  return op_done(c, c->cm->bcast(c->cm->ctx, buf, bytes, root));
}

int dist_exchange(dist_ctx *c, const void *sbuf, const int64_t *scount,
                  char **rbuf, int64_t *rcount, int64_t *roff) {
  void *r = NULL;
  *rbuf = NULL;
  if (c->rc != MINEX_OK)
    core_error(c->rc, "%s", c->msg);
  int rc = c->cm->exchange(c->cm->ctx, c->rc, sbuf, scount, &r, rcount);
  if (rc == MINEX_OK) {
    roff[0] = 0;
    for (int s = 0; s < c->size; s++)
      roff[s + 1] = roff[s] + rcount[s];
    *rbuf = r;
  }
  return op_done(c, rc);
}

int dist_idle_barrier(dist_ctx *c) {
  return op_done(c, c->cm->idle_barrier(c->cm->ctx));
}

void dist_sent(const dist_ctx *c, int64_t *bytes, int64_t *messages) {
  c->cm->sent(c->cm->ctx, bytes, messages);
}

int dist_rank_of(const int64_t *vtxdist, int size, int64_t g) {
  int lo = 0, hi = size; /* vtxdist[lo] <= g < vtxdist[hi] */
  while (hi - lo > 1) {
    int mid = lo + (hi - lo) / 2;
    if (vtxdist[mid] <= g)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static int end_cmp(const void *x, const void *y) {
  const dist_end *a = x, *b = y;
  return (a->id > b->id) - (a->id < b->id);
}

void dist_end_sort(dist_end *e, int64_t len) {
  if (len > 32) {
    qsort(e, (size_t)len, sizeof *e, end_cmp);
    return;
  }
  for (int64_t i = 1; i < len; i++) {
    dist_end k = e[i];
    int64_t j = i;
    for (; j > 0 && e[j - 1].id > k.id; j--)
      e[j] = e[j - 1];
    e[j] = k;
  }
}
