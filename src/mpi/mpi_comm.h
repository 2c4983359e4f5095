/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The MPI layer's communication helpers (libminex_mpi only; docs/guide/mpi.md):
 * a communicator with its rank and figures, collective agreement on
 * errors, and a sparse all-to-all with 64-bit byte counts. */
#ifndef MINEX_MPI_COMM_H
#define MINEX_MPI_COMM_H

#include "core/core.h"
#include "dist/comm.h"
#include "dist/dist.h"
#include "minex_mpi.h"

#include <stddef.h>
#include <stdint.h>

/* One call's communicator (a duplicate of the caller's, MPI errors
 * returned, not fatal), who we are, and the first local failure. */
typedef struct mx_comm {
  MPI_Comm comm;
  int rank, size;
  const char *fn; /* the public function, first word of every message */
  int rc;         /* MINEX_OK or the first local failure              */
  char msg[1024]; /* its message, "fn: rank R: ..."                   */
  int64_t bytes, messages, collectives; /* sent by this rank           */
  int64_t bytes_in;  /* received from other ranks by this rank in
                        exchanges, allgathers and broadcasts (not the
                        reductions' few bytes)                        */
  int64_t *scratch;  /* 2 (size + 1) entries (mx_start): the counts of a
                        rank whose own arrays could not be made        */
  char *gbuf;        /* size slots of MX_GATHER_SLOT bytes (mx_start): the
                        receive buffer of the one-collective gathers   */
  MPI_Request *preq; /* 2 size requests (mx_start): a reply's messages */
  int64_t *pinfo;    /* 2 size entries (mx_start): their ranks (-1: send) */
  int shared_cores;  /* 1 when more ranks of comm share this node than
                        this process may run on (mx_start): mx_wait then
                        leaves the core at once instead of spinning     */
} mx_comm;

/* A call's context: mx_open names the public function (first word of
 * every message); mx_start checks that MPI runs and comm is not null
 * (MINEX_EINVAL, local: nothing can be agreed then), duplicates comm
 * with MPI errors returned and makes c->scratch (a failure agreed: the
 * context is closed again on every rank); mx_close frees them. */
void mx_open(mx_comm *c, const char *fn);
int mx_start(mx_comm *c, MPI_Comm comm);
void mx_close(mx_comm *c);

/* Records a local failure (the first one counts) and returns rc. */
int mx_fail(mx_comm *c, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Records the failure of an MPI call as MINEX_EINTERNAL. */
int mx_mpi_fail(mx_comm *c, const char *what, int mpirc);

/* Collective: every rank learns the failure of the lowest failing rank
 * (its code and message, set as every rank's last error) and returns its
 * code; MINEX_OK when no rank failed. */
int mx_agree(mx_comm *c);

/* Collective sparse exchange: rank r sends scount[d] bytes, at sbuf +
 * soff[d] (soff the exclusive prefix sums of scount), to every rank d, and
 * receives rcount[s] bytes from every s into *rbuf (malloc'd, at roff[s]);
 * counts of any size (messages of at most 1 GiB each). A failure recorded
 * in c before the call goes out in the counts (sbuf, scount and roff are
 * then not read), a local failure of the receive buffers is agreed on
 * before anything is sent, so that no rank waits for a message that never
 * comes: two collectives. rcount and roff have size entries; roff gets
 * size+1. */
int mx_exchange(mx_comm *c, const char *sbuf, const int64_t *scount,
                char **rbuf, int64_t *rcount, int64_t *roff);

/* The answers to an exchange (dist_comm.reply): rank r sends scount[d]
 * bytes, at sbuf + soff[d], to every rank d, and receives rcount[s] bytes
 * from every s into rbuf (the caller's, at roff[s]): the counts are known
 * at both ends, so none travel. A rank that failed before the call (c->rc)
 * sends its answers empty and every rank returns the failure; agreed = 1
 * (rc known to be MINEX_OK on every rank) makes no collective, else one
 * agreement goes alongside the messages. Messages of at most 1 GiB each,
 * in waves of one piece per rank (the requests made by mx_start). */
int mx_reply(mx_comm *c, int agreed, const char *sbuf, const int64_t *scount,
             char *rbuf, const int64_t *rcount);

/* Waits for a request. A non-blocking collective advances only while
 * every rank calls into MPI, so a rank that waits must keep testing; how
 * it spends the time between tests depends on c->shared_cores.
 * - Own cores: MX_WAIT_SPIN tests, then MX_WAIT_YIELDS tests each after
 *   sched_yield (alone on its core, the test comes right back), then
 *   sleeps of 2 us doubling up to MX_WAIT_MAX_NS: a short wait costs no
 *   sleep (a sleep lasts at least the timer slack, 50 us).
 * - Shared cores (more processes than cores on the node): a few tests,
 *   MX_WAIT_SHARED_YIELDS yields (when every rank waits, the core's other
 *   rank polls at once), then sleeps of 1 us doubling up to
 *   MX_WAIT_SHARED_MAX_NS with the thread's timer slack lowered to 1 us
 *   for the wait (restored after): the rank that works gets the core, and
 *   the waiting one still answers within microseconds. Endless yields
 *   serve badly here: under other load they hand the core to it, and they
 *   cost system time on cores with nothing else to run.
 * Every wait of the layer goes through here: MPI's blocking calls (and
 * MPI_Comm_dup) spin inside MPI whatever the load.
 * Returns MPI's code. */
#define MX_WAIT_SPIN 64
#define MX_WAIT_YIELDS 2000
#define MX_WAIT_MAX_NS 200000
#define MX_WAIT_SHARED_SPIN 8
#define MX_WAIT_SHARED_YIELDS 300
#define MX_WAIT_SHARED_MAX_NS 20000
int mx_wait(const mx_comm *c, MPI_Request *req);
/* mx_wait with the request's status. */
int mx_wait_status(const mx_comm *c, MPI_Request *req, MPI_Status *st);

/* mx_wait's pause between two tests, for a loop that tests something else
 * (minex_mpi_migrate_overlap's progress): step before each new test, end
 * after the last (restores the timer slack). Starts zeroed. */
typedef struct mx_backoff {
  int tests;   /* tests so far                                  */
  long pause;  /* the last sleep, ns                            */
  int slack;   /* the thread's timer slack before, ns           */
  int lowered; /* 1: slack lowered by us; -1: left as it was   */
} mx_backoff;
void mx_backoff_step(const mx_comm *c, mx_backoff *b);
void mx_backoff_end(mx_backoff *b);

/* Collective: waits for every rank without spinning (MPI_Ibarrier, tested
 * every 200 us, sleeping in between): the ranks that wait for another's
 * long phase leave their core to it when ranks share cores. */
int mx_idle_barrier(mx_comm *c);

/* Collective: vtxdist (size+1 entries, not NULL on any rank) equal on
 * every rank, vtxdist[0] >= 0, non-decreasing, at most INT32_MAX
 * vertices; MINEX_EINVAL / MINEX_EUNSUP naming the entry. */
int mx_check_vtxdist(mx_comm *c, const int64_t *vtxdist);

/* The distributed algorithm's communicator (src/dist/comm.h) over c:
 * cc->ctx = c, its failures recorded in c. */
void mx_dist_comm(mx_comm *c, dist_comm *cc);

/* Allreduce wrappers that count the call and record an MPI failure. */
int mx_allreduce(mx_comm *c, const void *in, void *out, int count,
                 MPI_Datatype type, MPI_Op op);
int mx_bcast(mx_comm *c, void *buf, int64_t bytes, int root);

/* The names a call's messages give its arguments and its function (the
 * first word): minex_mpi_repartition's own (mx_names_mpi), or a
 * wrapper's, whose caller knows other names (the ParMETIS-shaped entry:
 * vwgt for pwgt, ...); id_shift is added to every global id a message
 * prints (the wrapper's numbering, numflag). */
typedef struct mx_names {
  const char *fn, *pwgt, *rwgt, *cwgt, *old, *new_part, *config, *options;
  int64_t id_shift;
} mx_names;
extern const mx_names mx_names_mpi;

/* minex_mpi_repartition, its messages in nm's names. */
int mx_repartition(const mx_names *nm, const dist_input *in,
                   const minex_config *config, const minex_options *options,
                   int32_t *new_part, minex_metrics *metrics, MPI_Comm comm);

#endif
