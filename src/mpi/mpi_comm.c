/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Communication helpers of the MPI layer (mpi_comm.h). */
/* sched_getaffinity, CPU_COUNT */
#define _GNU_SOURCE
#include "mpi/mpi_comm.h"

#include <sched.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Largest single message: MPI counts are int, so a transfer of more is
 * cut into pieces of this many bytes. */
#define MX_PIECE ((int64_t)1 << 30)
/* A gather of at most MX_GATHER_CAP bytes per rank is one MPI_Allgather
   of fixed slots (a count, then the bytes) into c->gbuf, made once per
   call, so that a rank whose own buffers fail still takes part and its
   failure goes out in its count. */
#define MX_GATHER_CAP 4096
#define MX_GATHER_SLOT (MX_GATHER_CAP + 8)

int mx_fail(mx_comm *c, int rc, const char *fmt, ...) {
  if (c->rc != MINEX_OK)
    return rc; /* the first failure is the one reported */
  c->rc = rc;
  int off = snprintf(c->msg, sizeof c->msg, "%s: rank %d: ", c->fn, c->rank);
  if (off < 0 || (size_t)off >= sizeof c->msg)
    off = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg + off, sizeof c->msg - (size_t)off, fmt, ap);
  va_end(ap);
  return rc;
}

int mx_mpi_fail(mx_comm *c, const char *what, int mpirc) {
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(mpirc, s, &len) != MPI_SUCCESS)
    snprintf(s, sizeof s, "MPI error %d", mpirc);
  return mx_fail(c, MINEX_EINTERNAL, "%s failed: %s", what, s);
}

int mx_allreduce(mx_comm *c, const void *in, void *out, int count,
                 MPI_Datatype type, MPI_Op op) {
  c->collectives++;
  MPI_Request req;
  int e = MPI_Iallreduce(in, out, count, type, op, c->comm, &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  return e == MPI_SUCCESS ? MINEX_OK : mx_mpi_fail(c, "MPI_Allreduce", e);
}

int mx_bcast(mx_comm *c, void *buf, int64_t bytes, int root) {
  for (int64_t off = 0; off < bytes; off += MX_PIECE) {
    int64_t m = bytes - off < MX_PIECE ? bytes - off : MX_PIECE;
    c->collectives++;
    MPI_Request req;
    int e =
        MPI_Ibcast((char *)buf + off, (int)m, MPI_BYTE, root, c->comm, &req);
    if (e == MPI_SUCCESS)
      e = mx_wait(c, &req);
    if (e != MPI_SUCCESS)
      return mx_mpi_fail(c, "MPI_Bcast", e);
    if (c->rank != root) {
      c->bytes_in += m;
    } else { /* counted as if sent to each other rank */
      c->bytes += m * (c->size - 1);
      c->messages += c->size - 1;
    }
  }
  return MINEX_OK;
}

void mx_backoff_step(const mx_comm *c, mx_backoff *b) {
  int tests = b->tests++;
  if (!c->shared_cores) {
    if (tests < MX_WAIT_SPIN)
      return;
    if (tests < MX_WAIT_SPIN + MX_WAIT_YIELDS) {
      sched_yield(); /* alone on its core, the test comes right back */
      return;
    }
    b->pause = b->pause == 0 ? 2000 : b->pause * 2;
    b->pause = b->pause > MX_WAIT_MAX_NS ? MX_WAIT_MAX_NS : b->pause;
  } else {
    if (tests < MX_WAIT_SHARED_SPIN)
      return;
    if (tests < MX_WAIT_SHARED_SPIN + MX_WAIT_SHARED_YIELDS) {
      sched_yield(); /* every rank waiting: the core's other rank polls */
      return;
    }
#ifdef __linux__
    if (!b->lowered) {
      b->slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
      b->lowered =
          b->slack > 1000 && prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0) == 0;
      if (!b->lowered)
        b->lowered = -1; /* leave it, do not ask again */
    }
#endif
    b->pause = b->pause == 0 ? 1000 : b->pause * 2;
    b->pause =
        b->pause > MX_WAIT_SHARED_MAX_NS ? MX_WAIT_SHARED_MAX_NS : b->pause;
  }
  struct timespec ts = {0, b->pause};
  nanosleep(&ts, NULL);
}

void mx_backoff_end(mx_backoff *b) {
#ifdef __linux__
  if (b->lowered == 1)
    prctl(PR_SET_TIMERSLACK, (unsigned long)b->slack, 0, 0, 0);
#endif
  *b = (mx_backoff){0, 0, 0, 0};
}

int mx_wait(const mx_comm *c, MPI_Request *req) {
  MPI_Status st;
  return mx_wait_status(c, req, &st);
}

int mx_wait_status(const mx_comm *c, MPI_Request *req, MPI_Status *st) {
  int e = MPI_SUCCESS, done = 0;
  mx_backoff b = {0, 0, 0, 0};
  for (;;) {
    e = MPI_Test(req, &done, st);
    if (done || e != MPI_SUCCESS)
      break;
    mx_backoff_step(c, &b);
  }
  mx_backoff_end(&b);
  return e;
}

int mx_idle_barrier(mx_comm *c) {
  MPI_Request req;
  c->collectives++;
  int e = MPI_Ibarrier(c->comm, &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  return e == MPI_SUCCESS ? MINEX_OK : mx_mpi_fail(c, "MPI_Ibarrier", e);
}

/* mx_agree past its reduction: first is the lowest failing rank (size:
 * none); its code and message are broadcast. Collective when first <
 * size. */
static int agree_first(mx_comm *c, int first) {
  if (first == c->size)
    return MINEX_OK;
  MPI_Request req;
  int e;
  struct {
    int rc;
    char msg[sizeof c->msg];
  } m;
  memset(&m, 0, sizeof m);
  if (c->rank == first) {
    m.rc = c->rc;
    memcpy(m.msg, c->msg, sizeof m.msg);
  }
  c->collectives++;
  e = MPI_Ibcast(&m, (int)sizeof m, MPI_BYTE, first, c->comm, &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  if (e != MPI_SUCCESS) {
    mx_mpi_fail(c, "MPI_Bcast (error agreement)", e);
    return core_error(c->rc, "%s", c->msg);
  }
  m.msg[sizeof m.msg - 1] = '\0';
  c->rc = m.rc;
  memcpy(c->msg, m.msg, sizeof c->msg);
  return core_error(m.rc, "%s", m.msg);
}

int mx_agree(mx_comm *c) {
  /* the lowest failing rank speaks: its code and message go to all */
  int mine = c->rc != MINEX_OK ? c->rank : c->size, first = c->size;
  c->collectives++;
  MPI_Request req;
  int e = MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c->comm, &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  if (e != MPI_SUCCESS) {
    /* nothing can be agreed any more: report locally */
    mx_mpi_fail(c, "MPI_Allreduce (error agreement)", e);
    return core_error(c->rc, "%s", c->msg);
  }
  return agree_first(c, first);
}

int mx_exchange(mx_comm *c, const char *sbuf, const int64_t *scount,
                char **rbuf, int64_t *rcount, int64_t *roff) {
  int size = c->size, rank = c->rank;
  *rbuf = NULL;
  /* a rank that failed before the exchange sends -1 as every count (in
     place, from rcount): every rank learns of the failure from the
     counts, with no agreement of its own */
  const void *send = scount;
  if (c->rc != MINEX_OK) {
    for (int r = 0; r < size; r++)
      rcount[r] = -1;
    send = MPI_IN_PLACE;
  }
  c->collectives++;
  MPI_Request creq;
  int e = MPI_Ialltoall(send, 1, MPI_INT64_T, rcount, 1, MPI_INT64_T, c->comm,
                        &creq);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &creq);
  if (e != MPI_SUCCESS)
    mx_mpi_fail(c, "MPI_Alltoall (exchange counts)", e);
  int failed = c->rc != MINEX_OK;
  for (int r = 0; r < size && !failed; r++)
    failed = rcount[r] < 0;
  if (failed)
    return mx_agree(c);
  int64_t npieces = 0;
  roff[0] = 0;
  for (int r = 0; c->rc == MINEX_OK && r < size; r++) {
    if (roff[r] > INT64_MAX - rcount[r]) {
      mx_fail(c, MINEX_EINTERNAL, "exchange: bad count %lld from rank %d",
              (long long)rcount[r], r);
      break;
    }
    roff[r + 1] = roff[r] + rcount[r];
    if (r != rank)
      npieces += (rcount[r] + MX_PIECE - 1) / MX_PIECE +
                 (scount[r] + MX_PIECE - 1) / MX_PIECE;
  }
  MPI_Request *req = NULL;
  if (c->rc == MINEX_OK) {
    *rbuf = core_malloc(roff[size] > 0 ? (size_t)roff[size] : 1);
    req = core_malloc(sizeof *req * (size_t)(npieces > 0 ? npieces : 1));
    if (*rbuf == NULL || req == NULL)
      mx_fail(c, MINEX_ENOMEM,
              "out of memory receiving %lld bytes in an exchange",
              (long long)roff[size]);
  }
  /* the receive buffers, agreed before anything is sent, so that no rank
     waits for a message that never comes */
  int rc = mx_agree(c);
  if (rc != MINEX_OK) {
    core_free(req);
    core_free(*rbuf);
    *rbuf = NULL;
    return rc;
  }
  int64_t nreq = 0, soff = 0;
  for (int r = 0; r < size && e == MPI_SUCCESS; r++) {
    if (r == rank) {
      soff += scount[r];
      continue;
    }
    for (int64_t off = 0; off < rcount[r] && e == MPI_SUCCESS;
         off += MX_PIECE) {
      int64_t m = rcount[r] - off < MX_PIECE ? rcount[r] - off : MX_PIECE;
      e = MPI_Irecv(*rbuf + roff[r] + off, (int)m, MPI_BYTE, r,
                    (int)(off / MX_PIECE), c->comm, &req[nreq++]);
    }
    for (int64_t off = 0; off < scount[r] && e == MPI_SUCCESS;
         off += MX_PIECE) {
      int64_t m = scount[r] - off < MX_PIECE ? scount[r] - off : MX_PIECE;
      e = MPI_Isend(sbuf + soff + off, (int)m, MPI_BYTE, r,
                    (int)(off / MX_PIECE), c->comm, &req[nreq++]);
      c->bytes += m;
      c->messages++;
    }
    c->bytes_in += rcount[r];
    soff += scount[r];
  }
  int64_t self = 0;
  for (int r = 0; r < rank; r++)
    self += scount[r];
  if (scount[rank] > 0)
    memcpy(*rbuf + roff[rank], sbuf + self, (size_t)scount[rank]);
  /* one at a time with a status of our own (GCC 12's access warnings
     reject MPICH's MPI_STATUSES_IGNORE) */
  for (int64_t i = 0; i < nreq && e == MPI_SUCCESS; i++)
    e = mx_wait(c, &req[i]);
  core_free(req);
  /* nothing of MinEX's own can fail past the agreement above; an MPI
     error here leaves MPI's state undefined (MPI 4.0, 9.3) and is
     returned on the ranks that see it */
  if (e != MPI_SUCCESS) {
    mx_mpi_fail(c, "point-to-point exchange", e);
    core_free(*rbuf);
    *rbuf = NULL;
    return core_error(c->rc, "%s", c->msg);
  }
  return MINEX_OK;
}

int mx_check_vtxdist(mx_comm *c, const int64_t *vd) {
  int size = c->size, rc;
  int64_t *mm = core_malloc(sizeof *mm * 2 * ((size_t)size + 1));
  if (mm == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory (vtxdist check)");
  if ((rc = mx_agree(c))) {
    core_free(mm);
    return rc;
  }
  int64_t *mn = mm, *mx = mm + size + 1;
  if (mx_allreduce(c, vd, mn, size + 1, MPI_INT64_T, MPI_MIN) == MINEX_OK)
    mx_allreduce(c, vd, mx, size + 1, MPI_INT64_T, MPI_MAX);
  for (int i = 0; c->rc == MINEX_OK && i <= size; i++)
    if (mn[i] != mx[i])
      mx_fail(c, MINEX_EINVAL,
              "vtxdist[%d] differs between the ranks (%lld on one, %lld on "
              "another; this rank has %lld)",
              i, (long long)mn[i], (long long)mx[i], (long long)vd[i]);
  core_free(mm);
  if ((rc = mx_agree(c)))
    return rc;
  if (vd[0] < 0)
    mx_fail(c, MINEX_EINVAL, "vtxdist[0] = %lld is negative", (long long)vd[0]);
  for (int i = 0; c->rc == MINEX_OK && i < size; i++)
    if (vd[i + 1] < vd[i])
      mx_fail(c, MINEX_EINVAL, "vtxdist[%d] = %lld is below vtxdist[%d] = %lld",
              i + 1, (long long)vd[i + 1], i, (long long)vd[i]);
  if (c->rc == MINEX_OK && vd[size] - vd[0] > INT32_MAX)
    mx_fail(c, MINEX_EUNSUP,
            "the graph has %lld vertices (vtxdist[%d] - vtxdist[0]); the "
            "library takes at most %d",
            (long long)(vd[size] - vd[0]), size, INT32_MAX);
  return mx_agree(c);
}

void mx_open(mx_comm *c, const char *fn) {
  memset(c, 0, sizeof *c);
  c->fn = fn;
  c->comm = MPI_COMM_NULL;
}

/* A duplicate of comm with MPI errors returned; MINEX_EINVAL when MPI is
 * not running or comm is null (local: nothing can be agreed then). */
/* The number of this job's processes on this node, as the launcher tells
 * it (MPICH's Hydra, Open MPI, Slurm), or 0. */
static long launcher_local_ranks(void) {
  static const char *const vars[] = {
      "MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    char *end = NULL;
    long n = v != NULL ? strtol(v, &end, 10) : 0;
    if (end != v && n > 0) /* Slurm may append "(x2)" */
      return n;
  }
  return 0;
}

/* 1 when more processes run on this node than this process has CPUs to
 * run on: the launcher's count of the job's processes here (they compete
 * for the cores whatever communicator a call uses), else the ranks of
 * comm that share the node. A timing hint only (a failure reads as 0),
 * never a result. */
static int shared_cores(MPI_Comm comm) {
  long local = launcher_local_ranks();
  if (local == 0) {
    MPI_Comm node;
    int n = 1;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                            &node) != MPI_SUCCESS)
      return 0;
    MPI_Comm_size(node, &n);
    MPI_Comm_free(&node);
    local = n;
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
#ifdef __linux__
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    cpus = CPU_COUNT(&set);
#endif
  return cpus > 0 && local > cpus;
}

int mx_start(mx_comm *c, MPI_Comm comm) {
  int inited = 0, finalized = 0;
  MPI_Initialized(&inited);
  MPI_Finalized(&finalized);
  if (!inited || finalized)
    return core_error(MINEX_EINVAL,
                      "%s: MPI is not initialised (or already finalised)",
                      c->fn);
  if (comm == MPI_COMM_NULL)
    return core_error(MINEX_EINVAL, "%s: comm is MPI_COMM_NULL", c->fn);
  c->shared_cores = shared_cores(comm);
  /* non-blocking, so that the wait leaves shared cores as every other */
  MPI_Request req;
  int e = MPI_Comm_idup(comm, &c->comm, &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  if (e != MPI_SUCCESS) {
    c->comm = MPI_COMM_NULL;
    mx_mpi_fail(c, "MPI_Comm_idup", e);
    return core_error(c->rc, "%s", c->msg);
  }
  MPI_Comm_set_errhandler(c->comm, MPI_ERRORS_RETURN);
  MPI_Comm_rank(c->comm, &c->rank);
  MPI_Comm_size(c->comm, &c->size);
  c->scratch = core_malloc(sizeof *c->scratch * 2 * ((size_t)c->size + 1));
  c->gbuf = core_calloc((size_t)c->size, MX_GATHER_SLOT);
  c->preq = core_malloc(sizeof *c->preq * 2 * (size_t)c->size);
  c->pinfo = core_malloc(sizeof *c->pinfo * 2 * (size_t)c->size);
  if (c->scratch == NULL || c->gbuf == NULL || c->preq == NULL ||
      c->pinfo == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory");
  int rc = mx_agree(c); /* every rank starts, or none */
  if (rc != MINEX_OK)
    mx_close(c);
  return rc;
}

void mx_close(mx_comm *c) {
  core_free(c->scratch);
  c->scratch = NULL;
  core_free(c->gbuf);
  c->gbuf = NULL;
  core_free(c->preq);
  c->preq = NULL;
  core_free(c->pinfo);
  c->pinfo = NULL;
  if (c->comm != MPI_COMM_NULL)
    MPI_Comm_free(&c->comm);
}

/* ------------------------------------------- dist_comm over MPI */

static int64_t pieces(int64_t bytes) {
  return (bytes + MX_PIECE - 1) / MX_PIECE;
}

int mx_reply(mx_comm *c, int agreed, const char *sbuf, const int64_t *scount,
             char *rbuf, const int64_t *rcount) {
  int size = c->size, rank = c->rank, failed = c->rc != MINEX_OK;
  int mine = failed ? rank : size, first = size, e = MPI_SUCCESS;
  MPI_Request areq = MPI_REQUEST_NULL;
  if (!agreed) {
    c->collectives++;
    e = MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, c->comm, &areq);
  }
  int64_t waves = 0, short_from = -1;
  for (int r = 0; r < size; r++) {
    if (r == rank)
      continue;
    int64_t w = pieces(rcount[r]) > pieces(scount[r]) ? pieces(rcount[r])
                                                      : pieces(scount[r]);
    waves = w > waves ? w : waves;
  }
  /* wave w: piece w of every rank's message, tagged w; a failed rank's
     pieces are empty */
  for (int64_t w = 0; w < waves && e == MPI_SUCCESS; w++) {
    int nreq = 0;
    int64_t roff = 0, soff = 0, at = w * MX_PIECE, *from = c->pinfo;
    for (int r = 0; r < size && e == MPI_SUCCESS; r++) {
      if (r != rank && at < rcount[r]) {
        int64_t m = rcount[r] - at < MX_PIECE ? rcount[r] - at : MX_PIECE;
        from[nreq] = r;
        e = MPI_Irecv(rbuf + roff + at, (int)m, MPI_BYTE, r, (int)w, c->comm,
                      &c->preq[nreq]);
        nreq++;
        c->bytes_in += m;
      }
      if (r != rank && at < scount[r] && e == MPI_SUCCESS) {
        int64_t m = scount[r] - at < MX_PIECE ? scount[r] - at : MX_PIECE;
        from[nreq] = -1;
        e = MPI_Isend(failed ? sbuf : sbuf + soff + at, failed ? 0 : (int)m,
                      MPI_BYTE, r, (int)w, c->comm, &c->preq[nreq]);
        nreq++;
        c->bytes += failed ? 0 : m;
        c->messages++;
      }
      roff += rcount[r];
      soff += scount[r];
    }
    for (int i = 0; i < nreq && e == MPI_SUCCESS; i++) {
      MPI_Status st;
      if ((e = mx_wait_status(c, &c->preq[i], &st)) != MPI_SUCCESS)
        break;
      int64_t r = from[i];
      if (r < 0 || short_from >= 0) /* a send, or one short answer known */
        continue;
      int got = 0;
      int64_t want = rcount[r] - at < MX_PIECE ? rcount[r] - at : MX_PIECE;
      if (MPI_Get_count(&st, MPI_BYTE, &got) != MPI_SUCCESS || got != want)
        short_from = r;
    }
  }
  if (!failed) {
    int64_t roff = 0, self = 0;
    for (int r = 0; r < rank; r++) {
      self += scount[r];
      roff += rcount[r];
    }
    if (scount[rank] != rcount[rank])
      mx_fail(c, MINEX_EINTERNAL, "reply: %lld bytes to itself, %lld expected",
              (long long)scount[rank], (long long)rcount[rank]);
    else if (scount[rank] > 0)
      memcpy(rbuf + roff, sbuf + self, (size_t)scount[rank]);
  }
  if (e == MPI_SUCCESS && !agreed)
    e = mx_wait(c, &areq);
  if (e != MPI_SUCCESS) {
    /* MPI's state is undefined (MPI 4.0, 9.3): returned where seen */
    mx_mpi_fail(c, "point-to-point reply", e);
    return core_error(c->rc, "%s", c->msg);
  }
  if (!agreed && first < size)
    return agree_first(c, first);
  /* a short answer from a rank that did not fail: a defect, kept as this
     rank's failure, which its next collective carries to every rank */
  if (short_from >= 0)
    mx_fail(c, MINEX_EINTERNAL, "reply: a short answer from rank %lld",
            (long long)short_from);
  return MINEX_OK;
}

/* dist_comm.agree */
static int cc_agree(void *ctx, int rc) {
  mx_comm *c = ctx;
  if (rc != MINEX_OK)
    mx_fail(c, rc, "%s", minex_last_error());
  return mx_agree(c);
}

/* dist_comm.allgather: the counts (-1 from a rank that failed before),
 * then the bytes (MPI_Allgatherv's int counts: at most INT_MAX bytes in
 * all, ample for the per-chunk and per-rank figures the contraction and
 * the rounds gather). The receive buffer: with a cap, made before the
 * counts (its failure goes out in them); without, after them and agreed
 * before the bytes. */
/* cc_allgather of at most MX_GATHER_CAP bytes per rank (cap, the same on
 * every rank): one MPI_Allgather of the ranks' slots in c->gbuf, each its
 * rank's count (-1: a failure) and bytes; the output is made before it,
 * so that nothing can fail past it but what every rank sees alike. */
static int gather_slots(mx_comm *c, const void *in, int64_t bytes, int64_t cap,
                        void **out, int64_t *count) {
  int size = c->size;
  if (c->rc == MINEX_OK && bytes > cap)
    mx_fail(c, MINEX_EINTERNAL, "allgather of %lld bytes, at most %lld",
            (long long)bytes, (long long)cap);
  if (c->rc == MINEX_OK &&
      (*out = core_malloc((size_t)(cap * size) + 1)) == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory gathering %lld bytes",
            (long long)(cap * size));
  char *mine = c->gbuf + (size_t)MX_GATHER_SLOT * (size_t)c->rank;
  int64_t head = c->rc != MINEX_OK ? -1 : bytes;
  memcpy(mine, &head, sizeof head);
  if (head > 0)
    memcpy(mine + 8, in, (size_t)bytes);
  c->collectives++;
  c->bytes += (int64_t)MX_GATHER_SLOT * (size - 1);
  c->messages += size - 1;
  MPI_Request req;
  int e = MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, c->gbuf,
                         MX_GATHER_SLOT, MPI_BYTE, c->comm, &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  if (e != MPI_SUCCESS) {
    /* MPI's state is undefined (MPI 4.0, 9.3): returned where seen */
    mx_mpi_fail(c, "MPI_Allgather", e);
    core_free(*out);
    *out = NULL;
    return core_error(c->rc, "%s", c->msg);
  }
  int failed = c->rc != MINEX_OK;
  for (int r = 0; r < size; r++) {
    memcpy(&count[r], c->gbuf + (size_t)MX_GATHER_SLOT * (size_t)r,
           sizeof count[r]);
    failed |= count[r] < 0;
  }
  if (failed) {
    core_free(*out);
    *out = NULL;
    return mx_agree(c);
  }
  int64_t o = 0;
  for (int r = 0; r < size; r++) {
    if (count[r] > cap) /* every rank reads the same slots */
      mx_fail(c, MINEX_EINTERNAL, "allgather: %lld bytes from rank %d",
              (long long)count[r], r);
    else
      memcpy((char *)*out + o, c->gbuf + (size_t)MX_GATHER_SLOT * (size_t)r + 8,
             (size_t)count[r]);
    o += count[r] <= cap ? count[r] : 0;
  }
  c->bytes_in += o - bytes;
  if (c->rc != MINEX_OK) {
    core_free(*out);
    *out = NULL;
    return core_error(c->rc, "%s", c->msg);
  }
  return MINEX_OK;
}

static int cc_allgather(void *ctx, int rc, const void *in, int64_t bytes,
                        int64_t cap, void **out, int64_t *count) {
  mx_comm *c = ctx;
  int size = c->size;
  *out = NULL;
  if (rc != MINEX_OK)
    mx_fail(c, rc, "%s", minex_last_error());
  if (cap >= 0 && cap <= MX_GATHER_CAP)
    return gather_slots(c, in, bytes, cap, out, count ? count : c->scratch);
  /* the same choice on every rank: cap and size are */
  if (cap >= 0 && cap > INT_MAX / size)
    cap = -1;
  int *cnt = core_malloc(sizeof *cnt * ((size_t)size + 1));
  int *off = core_malloc(sizeof *off * ((size_t)size + 1));
  if (c->rc == MINEX_OK && (cnt == NULL || off == NULL))
    mx_fail(c, MINEX_ENOMEM, "out of memory gathering");
  if (c->rc == MINEX_OK && cap >= 0) {
    if (bytes > cap)
      mx_fail(c, MINEX_EINTERNAL, "allgather of %lld bytes, at most %lld",
              (long long)bytes, (long long)cap);
    else if ((*out = core_malloc((size_t)(cap * size) + 1)) == NULL)
      mx_fail(c, MINEX_ENOMEM, "out of memory gathering %lld bytes",
              (long long)(cap * size));
  }
  int64_t mine = c->rc != MINEX_OK ? -1 : bytes;
  if (count == NULL) /* a failure: its caller had no array */
    count = c->scratch;
  c->collectives++;
  MPI_Request req;
  int e = MPI_Iallgather(&mine, 1, MPI_INT64_T, count, 1, MPI_INT64_T, c->comm,
                         &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  if (e != MPI_SUCCESS)
    mx_mpi_fail(c, "MPI_Allgather (counts)", e);
  int failed = c->rc != MINEX_OK;
  for (int r = 0; r < size && !failed; r++)
    failed = count[r] < 0;
  if (failed) {
    rc = mx_agree(c);
    goto out;
  }
  int64_t total = 0;
  for (int r = 0; r < size; r++)
    total += count[r];
  if (cap < 0) {
    if (total > INT_MAX)
      mx_fail(c, MINEX_EUNSUP, "allgather of %lld bytes (at most %d)",
              (long long)total, INT_MAX);
    else if ((*out = core_malloc(total > 0 ? (size_t)total : 1)) == NULL)
      mx_fail(c, MINEX_ENOMEM, "out of memory gathering %lld bytes",
              (long long)total);
    if ((rc = mx_agree(c)) != MINEX_OK)
      goto out;
  }
  int o = 0;
  for (int r = 0; r < size; r++) {
    cnt[r] = (int)count[r];
    off[r] = o;
    o += cnt[r];
  }
  c->collectives++;
  c->bytes += bytes * (size - 1);
  c->bytes_in += total - bytes;
  c->messages += size - 1;
  e = MPI_Iallgatherv(in, (int)bytes, MPI_BYTE, *out, cnt, off, MPI_BYTE,
                      c->comm, &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  rc = MINEX_OK;
  /* an MPI error past the counts: returned where seen (mx_exchange) */
  if (e != MPI_SUCCESS) {
    mx_mpi_fail(c, "MPI_Allgatherv", e);
    rc = core_error(c->rc, "%s", c->msg);
  }
out:
  core_free(cnt);
  core_free(off);
  if (rc != MINEX_OK) {
    core_free(*out);
    *out = NULL;
  }
  return rc;
}

/* dist_comm.exchange: mx_exchange, this rank's rc carried in its
 * counts. */
static int cc_exchange(void *ctx, int rc, const void *sbuf,
                       const int64_t *scount, void **rbuf, int64_t *rcount) {
  mx_comm *c = ctx;
  if (rc != MINEX_OK)
    mx_fail(c, rc, "%s", minex_last_error());
  char *r = NULL;
  rc = mx_exchange(c, sbuf, scount, &r, rcount ? rcount : c->scratch,
                   c->scratch + c->size + 1);
  *rbuf = r;
  return rc;
}

/* dist_comm.reply */
static int cc_reply(void *ctx, int rc, int agreed, const void *sbuf,
                    const int64_t *scount, void *rbuf, const int64_t *rcount) {
  mx_comm *c = ctx;
  if (rc != MINEX_OK)
    mx_fail(c, rc, "%s", minex_last_error());
  return mx_reply(c, agreed, sbuf, scount, rbuf, rcount);
}

/* dist_comm.sparse: one message per expecting pair, received into its
 * cap (the size from the status), tagged apart from the exchanges'
 * pieces; every request waited for before the return, so that no
 * message outlives the call. */
#define MX_SPARSE_TAG 32000
static int cc_sparse(void *ctx, int rc, const void *sbuf, const int64_t *scount,
                     void *rbuf, const int64_t *rcap, int64_t *rcount) {
  mx_comm *c = ctx;
  int size = c->size, rank = c->rank, e = MPI_SUCCESS, nreq = 0;
  if (rc != MINEX_OK)
    mx_fail(c, rc, "%s", minex_last_error());
  for (int d = 0; d < size && c->rc == MINEX_OK; d++)
    if (scount[d] > MX_PIECE)
      mx_fail(c, MINEX_EINTERNAL, "sparse: %lld bytes to rank %d",
              (long long)scount[d], d);
  int failed = c->rc != MINEX_OK;
  int64_t roff = 0, soff = 0, self_r = -1, self_s = -1, *from = c->pinfo;
  for (int r = 0; r < size && e == MPI_SUCCESS; r++) {
    rcount[r] = 0;
    if (r == rank) {
      self_r = rcap[r] >= 0 ? roff : -1;
      self_s = scount[r] >= 0 ? soff : -1;
    } else {
      if (rcap[r] >= 0) {
        int64_t m = rcap[r] < MX_PIECE ? rcap[r] : MX_PIECE;
        from[nreq] = r;
        e = MPI_Irecv((char *)rbuf + roff, (int)m, MPI_BYTE, r, MX_SPARSE_TAG,
                      c->comm, &c->preq[nreq++]);
      }
      if (scount[r] >= 0 && e == MPI_SUCCESS) {
        int64_t m = failed ? 0 : scount[r];
        from[nreq] = -1;
        e = MPI_Isend(failed ? sbuf : (const char *)sbuf + soff, (int)m,
                      MPI_BYTE, r, MX_SPARSE_TAG, c->comm, &c->preq[nreq++]);
        c->bytes += m;
        c->messages++;
      }
    }
    roff += rcap[r] > 0 ? rcap[r] : 0;
    soff += scount[r] > 0 && !failed ? scount[r] : 0;
  }
  if ((self_r >= 0) != (self_s >= 0))
    mx_fail(c, MINEX_EINTERNAL, "sparse: a message to itself unmatched");
  else if (self_r >= 0 && !failed) {
    if (scount[rank] > rcap[rank])
      mx_fail(c, MINEX_EINTERNAL, "sparse: %lld bytes to itself, at most %lld",
              (long long)scount[rank], (long long)rcap[rank]);
    else if (scount[rank] > 0) {
      memcpy((char *)rbuf + self_r, (const char *)sbuf + self_s,
             (size_t)scount[rank]);
      rcount[rank] = scount[rank];
    }
  }
  for (int i = 0; i < nreq && e == MPI_SUCCESS; i++) {
    MPI_Status st;
    if ((e = mx_wait_status(c, &c->preq[i], &st)) != MPI_SUCCESS)
      break;
    int got = 0;
    if (from[i] >= 0) {
      if ((e = MPI_Get_count(&st, MPI_BYTE, &got)) != MPI_SUCCESS)
        break;
      rcount[from[i]] = got;
      c->bytes_in += got;
    }
  }
  if (e != MPI_SUCCESS) /* MPI's state is undefined (MPI 4.0, 9.3) */
    mx_mpi_fail(c, "sparse messages", e);
  return c->rc == MINEX_OK ? MINEX_OK : core_error(c->rc, "%s", c->msg);
}

/* dist_comm.allreduce */
static int cc_allreduce(void *ctx, const void *in, void *out, int count,
                        dist_type t, dist_op op) {
  mx_comm *c = ctx;
  int rc =
      mx_allreduce(c, in, out, count, t == DIST_I64 ? MPI_INT64_T : MPI_DOUBLE,
                   op == DIST_SUM ? MPI_SUM : MPI_MAX);
  return rc != MINEX_OK ? core_error(rc, "%s", c->msg) : MINEX_OK;
}

/* dist_comm.exscan */
static int cc_exscan(void *ctx, const int64_t *in, int64_t *out, int count) {
  mx_comm *c = ctx;
  c->collectives++;
  MPI_Request req;
  int e = MPI_Iexscan(in, out, count, MPI_INT64_T, MPI_SUM, c->comm, &req);
  if (e == MPI_SUCCESS)
    e = mx_wait(c, &req);
  if (e != MPI_SUCCESS) {
    mx_mpi_fail(c, "MPI_Exscan", e);
    return core_error(c->rc, "%s", c->msg);
  }
  if (c->rank == 0) /* MPI_Exscan leaves rank 0's result undefined */
    memset(out, 0, sizeof *out * (size_t)count);
  return MINEX_OK;
}

static int cc_bcast(void *ctx, void *buf, int64_t bytes, int root) {
  mx_comm *c = ctx;
  int rc = mx_bcast(c, buf, bytes, root);
  return rc != MINEX_OK ? core_error(rc, "%s", c->msg) : MINEX_OK;
}

static int cc_idle_barrier(void *ctx) {
  mx_comm *c = ctx;
  int rc = mx_idle_barrier(c);
  return rc != MINEX_OK ? core_error(rc, "%s", c->msg) : MINEX_OK;
}

static void cc_sent(void *ctx, int64_t *bytes, int64_t *messages) {
  const mx_comm *c = ctx;
  *bytes = c->bytes;
  *messages = c->messages;
}

void mx_dist_comm(mx_comm *c, dist_comm *cc) {
  cc->ctx = c;
  cc->rank = c->rank;
  cc->size = c->size;
  cc->agree = cc_agree;
  cc->allgather = cc_allgather;
  cc->exchange = cc_exchange;
  cc->reply = cc_reply;
  cc->sparse = cc_sparse;
  cc->allreduce = cc_allreduce;
  cc->exscan = cc_exscan;
  cc->bcast = cc_bcast;
  cc->idle_barrier = cc_idle_barrier;
  cc->sent = cc_sent;
}
