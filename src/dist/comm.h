/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The communicator of the distributed algorithm (src/dist): the
 * collective operations a contraction, its rounds and the distributed
 * candidate pipeline need among R ranks, as a table of functions. The MPI
 * layer implements it over an MPI communicator (src/mpi/mpi_comm.c),
 * dist_inproc (inproc.c) over R threads of one process, so that the
 * algorithm runs and is tested without MPI. A NULL communicator is one
 * process: the dist_ helpers below then do nothing. Every operation is
 * collective and returns the same code on every rank. The ranks hold
 * whole old parts, in part order (rank r's parts all come before rank
 * r+1's): a same-owner pair never spans two ranks. */
#ifndef MINEX_DIST_COMM_H
#define MINEX_DIST_COMM_H

#include "core/rename.h"

#include "core/core.h"

#include <stdint.h>

typedef enum { DIST_I64, DIST_F64 } dist_type;
typedef enum { DIST_SUM, DIST_MAX } dist_op;

typedef struct dist_comm {
  void *ctx;
  int rank, size;
  /* The failure of the lowest failing rank (rc is this rank's code, with
     its message as minex_last_error()): its code on every rank, its
     message as every rank's last error; MINEX_OK when none failed. */
  int (*agree)(void *ctx, int rc);
  /* Every rank's `bytes` bytes, concatenated in rank order into *out
     (core_malloc'd, freed by the caller); count[r] = rank r's bytes. rc
     is this rank's state before the call (a failure's message the last
     error): a rank that failed gives nothing (in is not read) and every
     rank returns the agreed failure, so that `agree` is not needed
     before it. cap >= 0: no rank gives more than cap bytes (the same cap
     on every rank), so that the receive buffer is made before the counts
     and no agreement is needed between them and the bytes; -1: no
     bound. */
  int (*allgather)(void *ctx, int rc, const void *in, int64_t bytes,
                   int64_t cap, void **out, int64_t *count);
  /* scount[d] bytes to every rank d (sbuf in rank order); *rbuf gets
     (core_malloc'd, freed by the caller) rcount[s] bytes from every rank
     s, in rank order. rc as allgather's (sbuf and scount not read when
     it is a failure). */
  int (*exchange)(void *ctx, int rc, const void *sbuf, const int64_t *scount,
                  void **rbuf, int64_t *rcount);
  /* The answers to an exchange: scount[d] bytes to every rank d (sbuf in
     rank order), rcount[s] bytes from every rank s into rbuf (made by the
     caller, in rank order), where each rank knows what it gets (the
     answers to what it asked), so that no counts travel. rc as
     allgather's; scount is read whatever rc (a failed rank owes its
     answers still: it sends them empty). agreed = 1: rc is MINEX_OK on
     every rank, agreed by the last operation with nothing that could fail
     since, and no collective is made; 0: one agreement, made alongside
     the messages. */
  int (*reply)(void *ctx, int rc, int agreed, const void *sbuf,
               const int64_t *scount, void *rbuf, const int64_t *rcount);
  /* Messages between the pairs of ranks that expect them, with no
     collective: scount[d] >= 0 bytes to rank d (sbuf in rank order, a
     negative count taking no room; -1: no message to d), and from every
     rank s with rcap[s] >= 0 at most rcap[s] bytes into rbuf (made by the
     caller: rcap[s] bytes per such s, in rank order), rcount[s] the bytes
     got (0 for the others). The two ends of a pair agree on whether a
     message goes (s gives d a count >= 0 exactly when d gives s a cap >=
     0). A rank that failed (rc) sends its messages empty and still
     receives; scount's signs are read whatever rc. Not agreed: the result
     is this rank's own (a message over its cap a failure here), so that a
     collective that takes rc must come before anything that depends on
     every rank's success. No message is over 2^30 bytes. */
  int (*sparse)(void *ctx, int rc, const void *sbuf, const int64_t *scount,
                void *rbuf, const int64_t *rcap, int64_t *rcount);
  /* count values of type t combined by op over the ranks, in rank order
     (so that sums of doubles are the same on every rank). */
  int (*allreduce)(void *ctx, const void *in, void *out, int count, dist_type t,
                   dist_op op);
  /* out = the sum of in over the lower ranks (0 on rank 0), int64. */
  int (*exscan)(void *ctx, const int64_t *in, int64_t *out, int count);
  /* root's bytes to every rank. */
  int (*bcast)(void *ctx, void *buf, int64_t bytes, int root);
  /* A barrier at which the waiting ranks leave the cores to the one
     still working. */
  int (*idle_barrier)(void *ctx);
  /* This rank's bytes and messages sent so far (the phase log). */
  void (*sent)(void *ctx, int64_t *bytes, int64_t *messages);
} dist_comm;

/* A rank's state in a distributed step: its first failure, agreed by the
 * next dist_agree (the lowest failing rank's code and message on every
 * rank). */
typedef struct dist_ctx {
  const dist_comm *cm;
  int rank, size;
  int rc;
  char msg[1024];
} dist_ctx;

void dist_ctx_init(dist_ctx *c, const dist_comm *cm);
/* Records this rank's first failure (later ones are dropped); returns rc. */
int dist_fail(dist_ctx *c, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Collective: the agreed failure (MINEX_OK when none). */
int dist_agree(dist_ctx *c);
/* Collective: a local rc (its message the last error) agreed. */
int dist_agree_rc(dist_ctx *c, int rc);
/* The operations of cm with this rank's failures agreed (MINEX_OK or the
 * agreed failure). */
int dist_allreduce(dist_ctx *c, const void *in, void *out, int count,
                   dist_type t, dist_op op);
int dist_bcast(dist_ctx *c, void *buf, int64_t bytes, int root);
int dist_allgather(dist_ctx *c, const void *in, int64_t bytes, void **out,
                   int64_t *count);
int dist_exchange(dist_ctx *c, const void *sbuf, const int64_t *scount,
                  char **rbuf, int64_t *rcount, int64_t *roff);
int dist_idle_barrier(dist_ctx *c);
void dist_sent(const dist_ctx *c, int64_t *bytes, int64_t *messages);

/* For the kernel's phases, which run in one process or spread over ranks
 * (cm NULL: one process): rc agreed by every rank, or rc itself. */
static inline int dist_agree_or(const dist_comm *cm, int rc) {
  return cm != NULL ? cm->agree(cm->ctx, rc) : rc;
}

/* One end of an edge: the neighbour's global id and the edge's Cwgt. */
typedef struct dist_end {
  int64_t id;
  double w;
} dist_end;

/* A row's ends by id (equal ids in any order): mesh rows are short, and
 * an insertion sort of a few entries costs a fraction of a qsort call
 * (layout.c sorts the serial rows so); qsort above 32 ends. */
void dist_end_sort(dist_end *e, int64_t len);

/* The rank whose rows of a distribution vtxdist hold global id g. */
int dist_rank_of(const int64_t *vtxdist, int size, int64_t g);

#endif
