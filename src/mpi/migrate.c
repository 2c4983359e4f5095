/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Moving the data after a repartition (minex_mpi.h "migration",
 * docs/guide/migration.md): import/export lists, the new parts of neighbours,
 * the pack/unpack migration (one exchange, or pairwise in bounded pieces)
 * and its split-phase, latency-tolerant form. */
#include "mpi/mpi_comm.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The rank that holds part p (minex_mpi.h). */
static int part_home(const int32_t *part_rank, int32_t nparts, int size,
                     int32_t p) {
  return part_rank ? part_rank[p] : (int)((int64_t)p * size / nparts);
}

void minex_mpi_lists_destroy(minex_mpi_lists *l) {
  if (l == NULL)
    return;
  core_free(l->export_gid);
  core_free(l->export_lid);
  core_free(l->export_rank);
  core_free(l->export_part);
  core_free(l->import_gid);
  core_free(l->import_rank);
  core_free(l->import_part);
  core_free(l);
}

/* What travels to the new rank of an exported vertex. */
typedef struct mx_rec {
  int64_t gid;
  int32_t part, pad;
} mx_rec;

/* minex_mpi_lists_create's arguments and this rank's rows. */
typedef struct lists_in {
  const int64_t *vtxdist;
  const int32_t *new_part;
  int32_t nparts;
  const int32_t *part_rank;
  int64_t n, first; /* local vertices, the first one's global id */
} lists_in;

/* This rank's new_part and part_rank in range; the first failure
 * recorded in c. */
static void lists_check_local(mx_comm *c, const lists_in *in) {
  const int32_t *part_rank = in->part_rank, *new_part = in->new_part;
  int32_t nparts = in->nparts;
  if (in->n > 0 && new_part == NULL)
    mx_fail(c, MINEX_EINVAL, "new_part is NULL (%lld local vertices)",
            (long long)in->n);
  for (int32_t p = 0; part_rank != NULL && p < nparts && c->rc == MINEX_OK; p++)
    if (part_rank[p] < 0 || part_rank[p] >= c->size)
      mx_fail(c, MINEX_EINVAL, "part_rank[%d] = %d is outside [0, %d)", (int)p,
              (int)part_rank[p], c->size);
  for (int64_t v = 0; c->rc == MINEX_OK && v < in->n; v++)
    if (new_part[v] < 0 || new_part[v] >= nparts)
      mx_fail(c, MINEX_EPART, "new_part[%lld] = %d is outside [0, %d)",
              (long long)v, (int)new_part[v], (int)nparts);
}

/* Collective: the same parts-to-ranks map everywhere (rank 0's); every
 * rank takes part in the broadcasts, so failures are agreed on first.
 * Agreed. */
static int lists_check_map(mx_comm *c, const lists_in *in) {
  int32_t nparts = in->nparts, np0 = nparts;
  const int32_t *part_rank = in->part_rank;
  int given = part_rank != NULL, given0 = given;
  if (mx_bcast(c, &np0, sizeof np0, 0) == MINEX_OK &&
      mx_bcast(c, &given0, sizeof given0, 0) == MINEX_OK &&
      (np0 != nparts || given0 != given))
    mx_fail(c, MINEX_EINVAL,
            "nparts or part_rank differs from rank 0's (nparts %d there, %d "
            "here)",
            (int)np0, (int)nparts);
  int rc = mx_agree(c);
  if (rc != MINEX_OK || !given)
    return rc;
  int32_t *pr0 = core_malloc(sizeof *pr0 * (size_t)nparts);
  if (pr0 == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory (part_rank)");
  else
    memcpy(pr0, part_rank, sizeof *pr0 * (size_t)nparts);
  if ((rc = mx_agree(c)) == MINEX_OK &&
      mx_bcast(c, pr0, (int64_t)sizeof *pr0 * nparts, 0) == MINEX_OK &&
      memcmp(pr0, part_rank, sizeof *pr0 * (size_t)nparts) != 0)
    mx_fail(c, MINEX_EINVAL, "part_rank differs from rank 0's");
  core_free(pr0);
  if (rc == MINEX_OK)
    rc = mx_agree(c);
  return rc;
}

/* This rank's exports into l and, by destination rank, into *send
 * (scount: records, then bytes, to each rank; fill: size+1 entries for
 * the ranks' next free slots); a failure recorded and returned. */
static int lists_exports(mx_comm *c, const lists_in *in, minex_mpi_lists *l,
                         mx_rec **send, int64_t *scount, int64_t *fill) {
  int size = c->size, rank = c->rank;
  const int32_t *new_part = in->new_part;
  for (int64_t v = 0; v < in->n; v++) {
    int d = part_home(in->part_rank, in->nparts, size, new_part[v]);
    if (d != rank) {
      scount[d]++;
      l->nexport++;
    }
  }
  l->nkeep = in->n - l->nexport;
  size_t ne = (size_t)(l->nexport > 0 ? l->nexport : 1);
  l->export_gid = core_malloc(sizeof *l->export_gid * ne);
  l->export_lid = core_malloc(sizeof *l->export_lid * ne);
  l->export_rank = core_malloc(sizeof *l->export_rank * ne);
  l->export_part = core_malloc(sizeof *l->export_part * ne);
  mx_rec *s = *send = core_malloc(sizeof *s * ne);
  if (!l->export_gid || !l->export_lid || !l->export_rank || !l->export_part ||
      !s)
    return mx_fail(c, MINEX_ENOMEM, "out of memory (%lld exports)",
                   (long long)l->nexport);
  for (int r = 0; r < size; r++)
    fill[r + 1] = fill[r] + scount[r];
  int64_t k = 0;
  for (int64_t v = 0; v < in->n; v++) {
    int d = part_home(in->part_rank, in->nparts, size, new_part[v]);
    if (d == rank)
      continue;
    l->export_gid[k] = in->first + v;
    l->export_lid[k] = v;
    l->export_rank[k] = d;
    l->export_part[k++] = new_part[v];
    s[fill[d]++] = (mx_rec){in->first + v, new_part[v], 0};
  }
  for (int r = 0; r < size; r++)
    scount[r] *= (int64_t)sizeof(mx_rec);
  return MINEX_OK;
}

/* The imports into l from the records that arrived (recv at roff[s] from
 * rank s); MINEX_ENOMEM recorded. */
static void lists_imports(mx_comm *c, minex_mpi_lists *l, const char *recv,
                          const int64_t *roff) {
  int size = c->size;
  l->nimport = roff[size] / (int64_t)sizeof(mx_rec);
  size_t ni = (size_t)(l->nimport > 0 ? l->nimport : 1);
  l->import_gid = core_malloc(sizeof *l->import_gid * ni);
  l->import_rank = core_malloc(sizeof *l->import_rank * ni);
  l->import_part = core_malloc(sizeof *l->import_part * ni);
  if (!l->import_gid || !l->import_rank || !l->import_part)
    mx_fail(c, MINEX_ENOMEM, "out of memory (%lld imports)",
            (long long)l->nimport);
  for (int s = 0, i = 0; c->rc == MINEX_OK && s < size; s++)
    for (int64_t off = roff[s]; off < roff[s + 1]; off += sizeof(mx_rec)) {
      mx_rec r;
      memcpy(&r, recv + off, sizeof r);
      l->import_gid[i] = r.gid;
      l->import_rank[i] = s;
      l->import_part[i++] = r.part;
    }
}

/* Collective: the lists of checked arguments, each export sent to its
 * new rank as an import there; agreed, *out set on success. */
static int lists_build(mx_comm *c, const lists_in *in, minex_mpi_lists **out) {
  int size = c->size;
  minex_mpi_lists *l = core_calloc(1, sizeof *l);
  int64_t *scount = core_calloc((size_t)size, sizeof *scount);
  int64_t *rcount = core_calloc((size_t)size, sizeof *rcount);
  int64_t *roff = core_calloc((size_t)size + 1, sizeof *roff);
  int64_t *fill = core_calloc((size_t)size + 1, sizeof *fill);
  mx_rec *send = NULL;
  char *recv = NULL;
  if (!l || !scount || !rcount || !roff || !fill)
    mx_fail(c, MINEX_ENOMEM, "out of memory (lists)");
  else
    lists_exports(c, in, l, &send, scount, fill);
  int rc = mx_agree(c);
  if (rc == MINEX_OK)
    rc = mx_exchange(c, (const char *)send, scount, &recv, rcount, roff);
  if (rc == MINEX_OK) {
    lists_imports(c, l, recv, roff);
    if ((rc = mx_agree(c)) == MINEX_OK) {
      *out = l;
      l = NULL;
    }
  }
  minex_mpi_lists_destroy(l);
  core_free(scount);
  core_free(rcount);
  core_free(roff);
  core_free(fill);
  core_free(send);
  core_free(recv);
  return rc;
}

int minex_mpi_lists_create(const int64_t *vtxdist, const int32_t *new_part,
                           int32_t nparts, const int32_t *part_rank,
                           minex_mpi_lists **out, MPI_Comm comm) {
  mx_comm c;
  mx_open(&c, "minex_mpi_lists_create");
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "%s: out is NULL", c.fn);
  *out = NULL;
  int rc = mx_start(&c, comm);
  if (rc != MINEX_OK)
    return rc;
  lists_in in = {vtxdist, new_part, nparts, part_rank, 0, 0};
  if (vtxdist == NULL)
    mx_fail(&c, MINEX_EINVAL, "vtxdist is NULL");
  else if (nparts < 1)
    mx_fail(&c, MINEX_EINVAL, "nparts = %d (must be >= 1)", (int)nparts);
  if ((rc = mx_agree(&c)) == MINEX_OK &&
      (rc = mx_check_vtxdist(&c, vtxdist)) == MINEX_OK) {
    in.n = vtxdist[c.rank + 1] - vtxdist[c.rank];
    in.first = vtxdist[c.rank];
    lists_check_local(&c, &in);
    if ((rc = mx_agree(&c)) == MINEX_OK &&
        (rc = lists_check_map(&c, &in)) == MINEX_OK)
      rc = lists_build(&c, &in, out);
  }
  mx_close(&c);
  return rc;
}

/* minex_mpi_neighbour_parts' arguments and this rank's rows. */
typedef struct nbr_in {
  const int64_t *vtxdist, *xadj, *adjncy;
  const int32_t *new_part;
  int32_t *nbr_part;
  int64_t n, first, nnz; /* local vertices, the first one's id, edge ends */
} nbr_in;

/* Its buffers: the ids asked of other ranks (by rank), where each answer
 * goes, the answers, and the two exchanges' counts. */
typedef struct nbr_buf {
  int64_t *scount, *rcount, *roff, *fill; /* size, size, size+1, size+1 */
  int64_t *bcount, *boff;                 /* size, size+1: the answers  */
  int64_t *ask, *where; /* remote neighbour ids by rank; their edge ends */
  char *recv, *back;
  int32_t *answer; /* the parts of the ids other ranks asked for */
} nbr_buf;

static void nbr_free(nbr_buf *b) {
  core_free(b->scount);
  core_free(b->rcount);
  core_free(b->roff);
  core_free(b->fill);
  core_free(b->bcount);
  core_free(b->boff);
  core_free(b->ask);
  core_free(b->where);
  core_free(b->recv);
  core_free(b->back);
  core_free(b->answer);
}

/* This rank's sizes into in, its arrays given and its neighbours' ids in
 * range; the first failure recorded in c. */
static void nbr_check(mx_comm *c, nbr_in *in) {
  const int64_t *vtxdist = in->vtxdist, *adjncy = in->adjncy;
  int64_t n = vtxdist[c->rank + 1] - vtxdist[c->rank];
  int64_t nnz = n > 0 && in->xadj != NULL ? in->xadj[n] : 0;
  in->n = n;
  in->first = vtxdist[c->rank];
  in->nnz = nnz;
  if (n > 0 && (in->xadj == NULL || in->new_part == NULL ||
                (nnz > 0 && (adjncy == NULL || in->nbr_part == NULL))))
    mx_fail(c, MINEX_EINVAL,
            "xadj, adjncy, new_part or nbr_part is NULL (%lld local "
            "vertices)",
            (long long)n);
  for (int64_t j = 0; c->rc == MINEX_OK && j < nnz; j++)
    if (adjncy[j] < vtxdist[0] || adjncy[j] >= vtxdist[c->size])
      mx_fail(c, MINEX_EGRAPH, "adjncy[%lld] = %lld is outside [%lld, %lld)",
              (long long)j, (long long)adjncy[j], (long long)vtxdist[0],
              (long long)vtxdist[c->size]);
}

/* The local neighbours' parts into nbr_part, the remote ones' ids into
 * b->ask by rank (b->scount in bytes) with their edge ends in b->where;
 * MINEX_ENOMEM recorded. */
static void nbr_ask(mx_comm *c, const nbr_in *in, nbr_buf *b) {
  int size = c->size;
  int64_t n = in->n, first = in->first;
  const int64_t *adjncy = in->adjncy;
  b->scount = core_calloc((size_t)size, sizeof *b->scount);
  b->rcount = core_calloc((size_t)size, sizeof *b->rcount);
  b->roff = core_calloc((size_t)size + 1, sizeof *b->roff);
  b->fill = core_calloc((size_t)size + 1, sizeof *b->fill);
  b->bcount = core_calloc((size_t)size, sizeof *b->bcount);
  b->boff = core_calloc((size_t)size + 1, sizeof *b->boff);
  if (!b->scount || !b->rcount || !b->roff || !b->fill || !b->bcount ||
      !b->boff) {
    mx_fail(c, MINEX_ENOMEM, "out of memory (neighbour parts)");
    return;
  }
  int64_t nask = 0;
  for (int64_t j = 0; j < in->nnz; j++)
    if (adjncy[j] < first || adjncy[j] >= first + n) {
      b->scount[dist_rank_of(in->vtxdist, size, adjncy[j])]++;
      nask++;
    }
  b->ask = core_malloc(sizeof *b->ask * (size_t)(nask > 0 ? nask : 1));
  b->where = core_malloc(sizeof *b->where * (size_t)(nask > 0 ? nask : 1));
  if (b->ask == NULL || b->where == NULL) {
    mx_fail(c, MINEX_ENOMEM, "out of memory (%lld remote neighbours)",
            (long long)nask);
    return;
  }
  for (int r = 0; r < size; r++)
    b->fill[r + 1] = b->fill[r] + b->scount[r];
  for (int64_t j = 0; j < in->nnz; j++) {
    int64_t u = adjncy[j];
    if (u >= first && u < first + n) {
      in->nbr_part[j] = in->new_part[u - first];
      continue;
    }
    int64_t at = b->fill[dist_rank_of(in->vtxdist, size, u)]++;
    b->ask[at] = u;
    b->where[at] = j;
  }
  for (int r = 0; r < size; r++)
    b->scount[r] *= 8;
}

/* The parts of the ids other ranks asked for (b->recv) into b->answer,
 * in the same order; the first failure recorded in c. */
static void nbr_answer(mx_comm *c, const nbr_in *in, nbr_buf *b) {
  int64_t nrecv = b->roff[c->size] / 8;
  b->answer = core_malloc(sizeof *b->answer * (size_t)(nrecv + 1));
  if (b->answer == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory (neighbour parts)");
  for (int64_t i = 0; c->rc == MINEX_OK && i < nrecv; i++) {
    int64_t u;
    memcpy(&u, b->recv + 8 * i, 8);
    if (u < in->first || u >= in->first + in->n) {
      mx_fail(c, MINEX_EINTERNAL, "asked for vertex %lld, not here",
              (long long)u);
      break;
    }
    b->answer[i] = in->new_part[u - in->first];
  }
  for (int r = 0; r < c->size; r++)
    b->bcount[r] = b->rcount[r] / 2; /* 4 bytes back per 8 asked */
}

int minex_mpi_neighbour_parts(const int64_t *vtxdist, const int64_t *xadj,
                              const int64_t *adjncy, const int32_t *new_part,
                              int32_t *nbr_part, MPI_Comm comm) {
  mx_comm c;
  mx_open(&c, "minex_mpi_neighbour_parts");
  core_error_clear();
  int rc = mx_start(&c, comm);
  if (rc != MINEX_OK)
    return rc;
  nbr_in in = {vtxdist, xadj, adjncy, new_part, nbr_part, 0, 0, 0};
  nbr_buf b;
  memset(&b, 0, sizeof b);
  if (vtxdist == NULL)
    mx_fail(&c, MINEX_EINVAL, "vtxdist is NULL");
  if ((rc = mx_agree(&c)) || (rc = mx_check_vtxdist(&c, vtxdist)))
    goto done;
  nbr_check(&c, &in);
  if ((rc = mx_agree(&c)))
    goto done;
  nbr_ask(&c, &in, &b);
  /* the ids asked for, then their parts back in the same order */
  if ((rc = mx_agree(&c)) ||
      (rc = mx_exchange(&c, (const char *)b.ask, b.scount, &b.recv, b.rcount,
                        b.roff)))
    goto done;
  nbr_answer(&c, &in, &b);
  if ((rc = mx_agree(&c)) ||
      (rc = mx_exchange(&c, (const char *)b.answer, b.bcount, &b.back, b.rcount,
                        b.boff)))
    goto done;
  for (int64_t i = 0; i < b.boff[c.size] / 4; i++)
    memcpy(&nbr_part[b.where[i]], b.back + 4 * i, 4);
done:
  nbr_free(&b);
  mx_close(&c);
  return rc;
}

/* ------------------------------------------------------------- migrate */

/* The exports of one rank ordered by destination (then global id), with
 * their sizes and offsets in the pack buffer. */
typedef struct mx_plan {
  int64_t n;          /* exports                                        */
  int64_t *gid, *lid; /* by destination, then global id                 */
  int32_t *dest;
  size_t *bytes, *offset;
  int64_t *dstart; /* size+1: exports to rank d at dstart[d].. */
  size_t *dbytes;  /* size: bytes to rank d                    */
  /* imports: their sizes (list order) and offsets per source */
  size_t *ibytes, *ioffset;
  int64_t *sstart; /* size+1: imports from rank s at sstart[s]..      */
  size_t *sbytes;  /* size: bytes from rank s                         */
} mx_plan;

static void plan_free(mx_plan *p) {
  core_free(p->gid);
  core_free(p->lid);
  core_free(p->dest);
  core_free(p->bytes);
  core_free(p->offset);
  core_free(p->dstart);
  core_free(p->dbytes);
  core_free(p->ibytes);
  core_free(p->ioffset);
  core_free(p->sstart);
  core_free(p->sbytes);
  memset(p, 0, sizeof *p);
}

static int fns_check(mx_comm *c, const minex_mpi_lists *l,
                     const minex_mpi_migrate_fns *f) {
  if (l == NULL || f == NULL)
    return mx_fail(c, MINEX_EINVAL, "lists or fns is NULL");
  if ((f->size == NULL && f->size_multi == NULL) ||
      (f->pack == NULL && f->pack_multi == NULL) ||
      (f->unpack == NULL && f->unpack_multi == NULL))
    return mx_fail(c, MINEX_EINVAL,
                   "fns: size, pack and unpack (or their _multi forms) must "
                   "be set");
  return MINEX_OK;
}

/* An order-sensitive fingerprint of n global ids: what a rank sends to
 * another beside the sizes, so that the receiver can tell its import list
 * from the lists of another call with the same counts (the sizes travel,
 * so only the ids need it). */
static uint64_t ids_fingerprint(const int64_t *gid, int64_t n) {
  uint64_t h = (uint64_t)n;
  for (int64_t i = 0; i < n; i++) {
    uint64_t z = h + (uint64_t)gid[i] + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    h = z ^ (z >> 31);
  }
  return h;
}

/* The counts and offsets of one mx_exchange (size, size and size+1
 * entries). */
typedef struct mx_counts {
  int64_t *scount, *rcount, *roff;
} mx_counts;

/* A failure (code and message) kept aside: a rank's own across an
 * agreement that gives every rank the lowest failing rank's, or the agreed
 * one while c records another's. */
typedef struct mx_failure {
  int rc;
  char msg[sizeof((mx_comm *)0)->msg];
} mx_failure;

static void failure_save(const mx_comm *c, mx_failure *f) {
  f->rc = c->rc;
  memcpy(f->msg, c->msg, sizeof f->msg);
}

static void failure_restore(mx_comm *c, const mx_failure *f) {
  c->rc = f->rc;
  memcpy(c->msg, f->msg, sizeof c->msg);
}

/* After a failed check of the lists (agreed, c->rc set on every rank):
 * every export's id goes to its receiver, so that the rank whose
 * fingerprint from rank bad differed names the first vertex that differs;
 * a correct call never pays for this exchange. own: this rank's failure
 * before the agreement; k: counts of the size of c to use. Collective;
 * returns the agreed code. */
static int name_mismatch(mx_comm *c, const minex_mpi_lists *l, const mx_plan *p,
                         int bad, const mx_failure *own, mx_counts *k) {
  mx_failure agreed;
  failure_save(c, &agreed);
  char *ids = NULL;
  for (int d = 0; d < c->size; d++)
    k->scount[d] = 8 * (p->dstart[d + 1] - p->dstart[d]);
  c->rc = MINEX_OK;
  if (mx_exchange(c, (const char *)p->gid, k->scount, &ids, k->rcount,
                  k->roff) != MINEX_OK) {
    /* agreed: every rank keeps the first message */
    failure_restore(c, &agreed);
    return core_error(agreed.rc, "%s", agreed.msg);
  }
  failure_restore(c, own);
  int64_t a = bad >= 0 ? p->sstart[bad] : 0;
  for (int64_t j = 0; bad >= 0 && j < k->rcount[bad] / 8; j++) {
    int64_t g;
    memcpy(&g, ids + k->roff[bad] + 8 * j, 8);
    if (g != l->import_gid[a + j]) {
      c->rc = MINEX_OK;
      mx_fail(c, MINEX_EINVAL,
              "lists: import %lld is vertex %lld from rank %d, but rank %d "
              "sends vertex %lld in its place (lists of another call?)",
              (long long)(a + j), (long long)l->import_gid[a + j], bad, bad,
              (long long)g);
      break;
    }
  }
  core_free(ids);
  return mx_agree(c);
}

/* The plan's arrays for l's exports and imports; 0 when one is missing. */
static int plan_alloc(mx_plan *p, const minex_mpi_lists *l, int size) {
  size_t m = (size_t)(l->nexport > 0 ? l->nexport : 1);
  p->n = l->nexport;
  p->gid = core_malloc(sizeof *p->gid * m);
  p->lid = core_malloc(sizeof *p->lid * m);
  p->dest = core_malloc(sizeof *p->dest * m);
  p->bytes = core_malloc(sizeof *p->bytes * m);
  p->offset = core_malloc(sizeof *p->offset * m);
  p->dstart = core_calloc((size_t)size + 1, sizeof *p->dstart);
  p->dbytes = core_calloc((size_t)size, sizeof *p->dbytes);
  p->sstart = core_calloc((size_t)size + 1, sizeof *p->sstart);
  p->sbytes = core_calloc((size_t)size, sizeof *p->sbytes);
  size_t mi = (size_t)(l->nimport > 0 ? l->nimport : 1);
  p->ibytes = core_malloc(sizeof *p->ibytes * mi);
  p->ioffset = core_malloc(sizeof *p->ioffset * mi);
  return p->gid && p->lid && p->dest && p->bytes && p->offset && p->dstart &&
         p->dbytes && p->sstart && p->sbytes && p->ibytes && p->ioffset;
}

/* The exports by destination rank, stable (the lists' order kept per
 * rank); a failure recorded and returned. */
static int plan_order(mx_comm *c, const minex_mpi_lists *l, mx_plan *p) {
  int size = c->size;
  for (int64_t i = 0; i < p->n; i++) {
    int32_t d = l->export_rank[i];
    if (d < 0 || d >= size || d == c->rank)
      return mx_fail(c, MINEX_EINVAL,
                     "lists: export_rank[%lld] = %d is not another "
                     "rank",
                     (long long)i, (int)d);
    p->dstart[d + 1]++;
  }
  for (int d = 0; d < size; d++)
    p->dstart[d + 1] += p->dstart[d];
  int64_t *at = core_malloc(sizeof *at * ((size_t)size + 1));
  if (at == NULL)
    return mx_fail(c, MINEX_ENOMEM, "out of memory (plan)");
  memcpy(at, p->dstart, sizeof *at * ((size_t)size + 1));
  for (int64_t i = 0; i < p->n; i++) { /* stable: gid order kept per rank */
    int64_t k = at[l->export_rank[i]]++;
    p->gid[k] = l->export_gid[i];
    p->lid[k] = l->export_lid[i];
    p->dest[k] = l->export_rank[i];
  }
  core_free(at);
  return MINEX_OK;
}

/* The exports' sizes (the size callback), their offsets and the bytes to
 * each rank; the first failure recorded in c. */
static void plan_sizes(mx_comm *c, const minex_mpi_migrate_fns *f, mx_plan *p) {
  int64_t n = p->n;
  if (f->size_multi) {
    int e = n > 0 ? f->size_multi(f->ctx, n, p->gid, p->lid, p->bytes) : 0;
    if (e != 0)
      mx_fail(c, MINEX_ECALLBACK, "size_multi returned %d (%lld vertices)", e,
              (long long)n);
  } else {
    for (int64_t i = 0; i < n && c->rc == MINEX_OK; i++) {
      int e = f->size(f->ctx, p->gid[i], p->lid[i], &p->bytes[i]);
      if (e != 0)
        mx_fail(c, MINEX_ECALLBACK, "size returned %d for vertex %lld", e,
                (long long)p->gid[i]);
    }
  }
  for (int64_t i = 0; c->rc == MINEX_OK && i < n; i++) {
    p->offset[i] = p->dbytes[p->dest[i]];
    if (p->bytes[i] > SIZE_MAX / 2 - p->dbytes[p->dest[i]]) {
      mx_fail(c, MINEX_EINVAL, "vertex %lld: %zu bytes: too large",
              (long long)p->gid[i], p->bytes[i]);
      break;
    }
    p->dbytes[p->dest[i]] += p->bytes[i];
  }
}

/* To each rank with exports: their sizes, then the fingerprint of their
 * ids, into sbuf; scount in bytes. */
static void plan_sizes_pack(const mx_comm *c, const mx_plan *p, uint64_t *sbuf,
                            int64_t *scount) {
  int64_t w = 0;
  for (int d = 0; c->rc == MINEX_OK && d < c->size; d++) {
    int64_t a = p->dstart[d], b = p->dstart[d + 1];
    scount[d] = b > a ? 8 * (b - a + 1) : 0;
    for (int64_t i = a; i < b; i++)
      sbuf[w++] = (uint64_t)p->bytes[i];
    if (b > a)
      sbuf[w++] = ids_fingerprint(p->gid + a, b - a);
  }
}

/* The imports' sizes and offsets from what arrived (recv, k), checked
 * against l: their count, their ranks, the fingerprints of their ids.
 * Returns the rank whose fingerprint differed, or -1; the first failure
 * recorded in c. */
static int plan_imports(mx_comm *c, const minex_mpi_lists *l, mx_plan *p,
                        const char *recv, const mx_counts *k) {
  int bad = -1;
  int64_t narrive = 0;
  for (int s = 0; s < c->size; s++)
    narrive += k->rcount[s] > 0 ? k->rcount[s] / 8 - 1 : 0;
  if (narrive != l->nimport)
    mx_fail(c, MINEX_EINVAL,
            "lists: %lld imports listed, %lld arrive (lists of another "
            "call?)",
            (long long)l->nimport, (long long)narrive);
  for (int s = 0; c->rc == MINEX_OK && s < c->size; s++) {
    int64_t m = k->rcount[s] > 0 ? k->rcount[s] / 8 - 1 : 0, a = p->sstart[s];
    const char *at = recv + k->roff[s];
    p->sstart[s + 1] = a + m;
    size_t off = 0;
    for (int64_t j = 0; j < m; j++) {
      uint64_t b;
      memcpy(&b, at + 8 * j, 8);
      if (l->import_rank[a + j] != s) {
        mx_fail(c, MINEX_EINVAL,
                "lists: import %lld is listed from rank %d, "
                "arrives from %d",
                (long long)(a + j), (int)l->import_rank[a + j], s);
        break;
      }
      p->ibytes[a + j] = (size_t)b;
      p->ioffset[a + j] = off;
      off += (size_t)b;
    }
    p->sbytes[s] = off;
    if (m > 0 && c->rc == MINEX_OK) {
      uint64_t fp;
      memcpy(&fp, at + 8 * m, 8);
      if (fp != ids_fingerprint(l->import_gid + a, m)) {
        bad = s;
        mx_fail(c, MINEX_EINVAL,
                "lists: the %lld imports from rank %d are not the vertices "
                "it sends (lists of another call?)",
                (long long)m, s);
      }
    }
  }
  return bad;
}

/* The plan: exports by destination, their sizes (the size callback), the
 * sizes sent to the receivers with the fingerprint of their ids (one
 * exchange: 8 bytes per vertex and 8 per rank pair), the imports' sizes
 * and offsets, the fingerprints checked. Collective; agreed. */
static int plan_make(mx_comm *c, const minex_mpi_lists *l,
                     const minex_mpi_migrate_fns *f, mx_plan *p) {
  int size = c->size;
  memset(p, 0, sizeof *p);
  size_t m = (size_t)(l->nexport > 0 ? l->nexport : 1);
  mx_counts k;
  k.scount = core_calloc((size_t)size, sizeof *k.scount);
  k.rcount = core_calloc((size_t)size, sizeof *k.rcount);
  k.roff = core_calloc((size_t)size + 1, sizeof *k.roff);
  /* to each rank: the sizes, then the fingerprint of the ids */
  uint64_t *sbuf = core_malloc(sizeof *sbuf * (m + (size_t)size));
  char *recv = NULL;
  int ok = plan_alloc(p, l, size);
  if (!k.scount || !k.rcount || !k.roff || !sbuf || !ok)
    mx_fail(c, MINEX_ENOMEM, "out of memory (%lld exports)",
            (long long)l->nexport);
  else if (plan_order(c, l, p) == MINEX_OK) {
    plan_sizes(c, f, p);
    plan_sizes_pack(c, p, sbuf, k.scount);
  }
  int rc = mx_agree(c);
  if (rc == MINEX_OK)
    rc = mx_exchange(c, (const char *)sbuf, k.scount, &recv, k.rcount, k.roff);
  if (rc == MINEX_OK) {
    int bad = plan_imports(c, l, p, recv, &k);
    mx_failure own;
    failure_save(c, &own);
    if ((rc = mx_agree(c)) != MINEX_OK)
      rc = name_mismatch(c, l, p, bad, &own, &k);
  }
  core_free(k.scount);
  core_free(k.rcount);
  core_free(k.roff);
  core_free(sbuf);
  core_free(recv);
  if (rc != MINEX_OK)
    plan_free(p);
  return rc;
}

/* Packs exports [a, b) (all to one rank) into buf; offsets relative to
 * the first one's. Records a callback failure. */
static void pack_range(mx_comm *c, const minex_mpi_migrate_fns *f,
                       const mx_plan *p, int64_t a, int64_t b, char *buf) {
  size_t base = a < b ? p->offset[a] : 0;
  if (f->pack_multi) {
    size_t *off = core_malloc(sizeof *off * (size_t)(b - a + 1));
    if (off == NULL) {
      mx_fail(c, MINEX_ENOMEM, "out of memory (pack offsets)");
      return;
    }
    for (int64_t i = a; i < b; i++)
      off[i - a] = p->offset[i] - base;
    int e = b > a ? f->pack_multi(f->ctx, b - a, p->gid + a, p->lid + a,
                                  p->dest + a, p->bytes + a, off, buf)
                  : 0;
    core_free(off);
    if (e != 0)
      mx_fail(c, MINEX_ECALLBACK, "pack_multi returned %d (%lld vertices)", e,
              (long long)(b - a));
    return;
  }
  for (int64_t i = a; i < b; i++) {
    int e = f->pack(f->ctx, p->gid[i], p->lid[i], p->dest[i],
                    buf + (p->offset[i] - base), p->bytes[i]);
    if (e != 0) {
      mx_fail(c, MINEX_ECALLBACK, "pack returned %d for vertex %lld", e,
              (long long)p->gid[i]);
      return;
    }
  }
}

/* Unpacks imports [a, b) (all from one rank) from buf. */
static void unpack_range(mx_comm *c, const minex_mpi_migrate_fns *f,
                         const minex_mpi_lists *l, const mx_plan *p, int64_t a,
                         int64_t b, const char *buf) {
  size_t base = a < b ? p->ioffset[a] : 0;
  if (f->unpack_multi) {
    size_t *off = core_malloc(sizeof *off * (size_t)(b - a + 1));
    if (off == NULL) {
      mx_fail(c, MINEX_ENOMEM, "out of memory (unpack offsets)");
      return;
    }
    for (int64_t i = a; i < b; i++)
      off[i - a] = p->ioffset[i] - base;
    int e = b > a ? f->unpack_multi(f->ctx, b - a, l->import_gid + a,
                                    l->import_rank + a, p->ibytes + a, off, buf)
                  : 0;
    core_free(off);
    if (e != 0)
      mx_fail(c, MINEX_ECALLBACK, "unpack_multi returned %d (%lld vertices)", e,
              (long long)(b - a));
    return;
  }
  for (int64_t i = a; i < b; i++) {
    int e = f->unpack(f->ctx, l->import_gid[i], l->import_rank[i],
                      buf + (p->ioffset[i] - base), p->ibytes[i]);
    if (e != 0) {
      mx_fail(c, MINEX_ECALLBACK, "unpack returned %d for vertex %lld", e,
              (long long)l->import_gid[i]);
      return;
    }
  }
}

/* Everything at once: pack all, one exchange, unpack all. */
static int migrate_all(mx_comm *c, const minex_mpi_lists *l,
                       const minex_mpi_migrate_fns *f, const mx_plan *p) {
  int size = c->size, rc;
  size_t total = 0;
  for (int d = 0; d < size; d++)
    total += p->dbytes[d];
  char *buf = core_malloc(total > 0 ? total : 1), *recv = NULL;
  int64_t *scount = core_calloc((size_t)size, sizeof *scount);
  int64_t *rcount = core_calloc((size_t)size, sizeof *rcount);
  int64_t *roff = core_calloc((size_t)size + 1, sizeof *roff);
  if (!buf || !scount || !rcount || !roff)
    mx_fail(c, MINEX_ENOMEM, "out of memory packing %zu bytes", total);
  size_t at = 0;
  for (int d = 0; d < size && c->rc == MINEX_OK; d++) {
    pack_range(c, f, p, p->dstart[d], p->dstart[d + 1], buf + at);
    scount[d] = (int64_t)p->dbytes[d];
    at += p->dbytes[d];
  }
  if ((rc = mx_agree(c)) ||
      (rc = mx_exchange(c, buf, scount, &recv, rcount, roff)))
    goto done;
  core_free(buf);
  buf = NULL;
  for (int s = 0; s < size && c->rc == MINEX_OK; s++)
    unpack_range(c, f, l, p, p->sstart[s], p->sstart[s + 1], recv + roff[s]);
  rc = mx_agree(c);
done:
  core_free(buf);
  core_free(recv);
  core_free(scount);
  core_free(rcount);
  core_free(roff);
  return rc;
}

/* The end (exclusive) of the piece that starts at export/import i of the
 * range [i, end): as many as fit in half bytes (at least one). */
static int64_t piece_end(const size_t *bytes, int64_t i, int64_t end,
                         size_t half) {
  size_t sum = bytes[i];
  int64_t j = i + 1;
  while (j < end && sum + bytes[j] <= half)
    sum += bytes[j++];
  return j;
}

/* Bounded: step d exchanges with ranks r+d (send) and r-d (receive), in
 * pieces of at most max/2 bytes each way (a larger vertex alone); both
 * sides cut the same pieces from the sizes they share. The two piece
 * buffers are allocated once, before the steps (agreed); a piece carries a
 * trailing status byte, so a rank that failed to pack still sends every
 * piece its partner waits for, and the partner does not unpack it. */
static int migrate_bounded(mx_comm *c, const minex_mpi_lists *l,
                           const minex_mpi_migrate_fns *f, const mx_plan *p,
                           size_t max) {
  int size = c->size, rank = c->rank;
  size_t half = max / 2 > 0 ? max / 2 : 1, cap = half;
  for (int64_t i = 0; i < p->n; i++)
    cap = p->bytes[i] > cap ? p->bytes[i] : cap;
  for (int64_t i = 0; i < l->nimport; i++)
    cap = p->ibytes[i] > cap ? p->ibytes[i] : cap;
  char *sbuf = NULL, *rbuf = NULL;
  if (cap >= INT_MAX)
    mx_fail(c, MINEX_EUNSUP,
            "a piece of %zu bytes: MPI counts stop at 2 GiB (a smaller "
            "max_bytes, or smaller vertices)",
            cap);
  else if ((sbuf = core_malloc(cap + 1)) == NULL ||
           (rbuf = core_malloc(cap + 1)) == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory (two pieces of %zu bytes)", cap);
  int rc = mx_agree(c);
  for (int d = 1; d < size && rc == MINEX_OK; d++) {
    int to = (rank + d) % size, from = (rank - d + size) % size;
    int64_t si = p->dstart[to], se = p->dstart[to + 1];
    int64_t ri = p->sstart[from], re = p->sstart[from + 1];
    while (si < se || ri < re) {
      int64_t sj = si < se ? piece_end(p->bytes, si, se, half) : si;
      int64_t rj = ri < re ? piece_end(p->ibytes, ri, re, half) : ri;
      size_t sb =
          sj > si ? p->offset[sj - 1] + p->bytes[sj - 1] - p->offset[si] : 0;
      size_t rb =
          rj > ri ? p->ioffset[rj - 1] + p->ibytes[rj - 1] - p->ioffset[ri] : 0;
      if (sj > si) {
        if (c->rc == MINEX_OK)
          pack_range(c, f, p, si, sj, sbuf);
        sbuf[sb] = c->rc == MINEX_OK ? 0 : 1;
      }
      MPI_Request req[2];
      int nr = 0, e = MPI_SUCCESS;
      if (rj > ri)
        e = MPI_Irecv(rbuf, (int)rb + 1, MPI_BYTE, from, d, c->comm,
                      &req[nr++]);
      if (e == MPI_SUCCESS && sj > si) {
        e = MPI_Isend(sbuf, (int)sb + 1, MPI_BYTE, to, d, c->comm, &req[nr++]);
        c->bytes += (int64_t)sb + 1;
        c->messages++;
      }
      for (int k = 0; k < nr && e == MPI_SUCCESS; k++) {
        e = mx_wait(c, &req[k]);
      }
      if (e != MPI_SUCCESS) {
        mx_mpi_fail(c, "pairwise exchange", e);
        rc = c->rc; /* the partners may wait: nothing more can be agreed */
        break;
      }
      /* a piece its sender failed to pack is not unpacked (the sender's
         failure is what the final agreement reports) */
      if (rj > ri && rbuf[rb] == 0 && c->rc == MINEX_OK)
        unpack_range(c, f, l, p, ri, rj, rbuf);
      si = sj;
      ri = rj;
    }
  }
  core_free(sbuf);
  core_free(rbuf);
  return mx_agree(c);
}

int minex_mpi_migrate(const minex_mpi_lists *lists,
                      const minex_mpi_migrate_fns *fns, size_t max_bytes,
                      MPI_Comm comm) {
  mx_comm c;
  mx_open(&c, "minex_mpi_migrate");
  core_error_clear();
  int rc = mx_start(&c, comm);
  if (rc != MINEX_OK)
    return rc;
  mx_plan p;
  memset(&p, 0, sizeof p);
  fns_check(&c, lists, fns);
  if ((rc = mx_agree(&c)) == MINEX_OK &&
      (rc = plan_make(&c, lists, fns, &p)) == MINEX_OK)
    rc = max_bytes == 0 ? migrate_all(&c, lists, fns, &p)
                        : migrate_bounded(&c, lists, fns, &p, max_bytes);
  plan_free(&p);
  mx_close(&c);
  return rc;
}

/* ----------------------------------------------- split-phase (SPEC §6) */

struct minex_mpi_migration {
  mx_comm c;
  const minex_mpi_lists *l;
  minex_mpi_migrate_fns f;
  mx_plan p;
  char *sbuf, *rbuf;    /* every export packed; every import's room   */
  size_t *roff;         /* size+1: source s's data at rbuf + roff[s]  */
  MPI_Request *sreq;    /* size: the send to each rank (or NULL req)  */
  MPI_Request *rreq;    /* size: the receive from each rank           */
  unsigned char *rdone; /* size: 1 once source s is unpacked          */
  int pending;          /* receives not unpacked yet                  */
};

static void migration_free(minex_mpi_migration *m) {
  plan_free(&m->p);
  core_free(m->sbuf);
  core_free(m->rbuf);
  core_free(m->roff);
  core_free(m->sreq);
  core_free(m->rreq);
  core_free(m->rdone);
  mx_close(&m->c);
  core_free(m);
}

int minex_mpi_migrate_begin(const minex_mpi_lists *lists,
                            const minex_mpi_migrate_fns *fns, MPI_Comm comm,
                            minex_mpi_migration **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_mpi_migrate_begin: out is NULL");
  *out = NULL;
  minex_mpi_migration *m = core_calloc(1, sizeof *m);
  if (m == NULL)
    return core_error(MINEX_ENOMEM, "minex_mpi_migrate_begin: out of memory");
  mx_comm *c = &m->c;
  mx_open(c, "minex_mpi_migrate_begin");
  int rc = mx_start(c, comm);
  if (rc != MINEX_OK) {
    core_free(m);
    return rc;
  }
  int size = c->size;
  m->l = lists;
  if (fns != NULL)
    m->f = *fns;
  fns_check(c, lists, fns);
  if ((rc = mx_agree(c)) || (rc = plan_make(c, lists, fns, &m->p)))
    goto fail;
  const mx_plan *p = &m->p;
  size_t stotal = 0, rtotal = 0;
  for (int r = 0; r < size; r++) {
    if (p->dbytes[r] >= INT_MAX || p->sbytes[r] >= INT_MAX)
      mx_fail(c, MINEX_EUNSUP,
              "%zu bytes for one rank: the split-phase driver sends one "
              "message per rank, at most 2 GiB (minex_mpi_migrate with "
              "max_bytes has no such limit)",
              p->dbytes[r] > p->sbytes[r] ? p->dbytes[r] : p->sbytes[r]);
    stotal += p->dbytes[r];
    rtotal += p->sbytes[r];
  }
  m->sbuf = core_malloc(stotal > 0 ? stotal : 1);
  m->rbuf = core_malloc(rtotal > 0 ? rtotal : 1);
  m->roff = core_calloc((size_t)size + 1, sizeof *m->roff);
  m->sreq = core_malloc(sizeof *m->sreq * (size_t)size);
  m->rreq = core_malloc(sizeof *m->rreq * (size_t)size);
  m->rdone = core_calloc((size_t)size, 1);
  if (!m->sbuf || !m->rbuf || !m->roff || !m->sreq || !m->rreq || !m->rdone)
    mx_fail(c, MINEX_ENOMEM,
            "out of memory (%zu bytes to send, %zu to "
            "receive)",
            stotal, rtotal);
  /* step 1: every export packed (step 2, the boundary data, is the
     application's own messages) */
  size_t at = 0;
  for (int d = 0; d < size && c->rc == MINEX_OK; d++) {
    pack_range(c, &m->f, p, p->dstart[d], p->dstart[d + 1], m->sbuf + at);
    at += p->dbytes[d];
  }
  if ((rc = mx_agree(c)))
    goto fail;
  for (int r = 0; r < size; r++) {
    m->roff[r + 1] = m->roff[r] + p->sbytes[r];
    m->sreq[r] = m->rreq[r] = MPI_REQUEST_NULL;
  }
  /* a source whose vertices total 0 bytes sends no message: its null
     request tests complete, so progress unpacks its vertices at once */
  for (int s = 0; s < size; s++) {
    m->rdone[s] = p->sstart[s + 1] == p->sstart[s];
    m->pending += !m->rdone[s];
  }
  int e = MPI_SUCCESS;
  for (int s = 0; s < size && e == MPI_SUCCESS; s++)
    if (p->sbytes[s] > 0)
      e = MPI_Irecv(m->rbuf + m->roff[s], (int)p->sbytes[s], MPI_BYTE, s, 11,
                    c->comm, &m->rreq[s]);
  at = 0;
  for (int d = 0; d < size && e == MPI_SUCCESS; d++) {
    if (p->dbytes[d] > 0) {
      e = MPI_Isend(m->sbuf + at, (int)p->dbytes[d], MPI_BYTE, d, 11, c->comm,
                    &m->sreq[d]);
      c->bytes += (int64_t)p->dbytes[d];
      c->messages++;
    }
    at += p->dbytes[d];
  }
  if (e != MPI_SUCCESS)
    mx_mpi_fail(c, "posting the migration's messages", e);
  /* an MPI failure here is local: end reports it */
  c->fn = "minex_mpi_migrate";
  *out = m;
  return MINEX_OK;
fail:
  migration_free(m);
  return rc;
}

/* Unpacks source s once its message is in. */
static void take(minex_mpi_migration *m, int s, int64_t *unpacked) {
  m->rdone[s] = 1;
  m->pending--;
  if (m->c.rc != MINEX_OK)
    return;
  unpack_range(&m->c, &m->f, m->l, &m->p, m->p.sstart[s], m->p.sstart[s + 1],
               m->rbuf + m->roff[s]);
  if (unpacked)
    *unpacked += m->p.sstart[s + 1] - m->p.sstart[s];
}

int minex_mpi_migrate_progress(minex_mpi_migration *m, int *done,
                               int64_t *unpacked) {
  core_error_clear();
  if (unpacked)
    *unpacked = 0;
  if (m == NULL || done == NULL)
    return core_error(MINEX_EINVAL,
                      "minex_mpi_migrate_progress: m or done is NULL");
  for (int s = 0; s < m->c.size; s++) {
    if (m->rdone[s])
      continue;
    int flag = 0;
    MPI_Status st;
    int e = MPI_Test(&m->rreq[s], &flag, &st);
    if (e != MPI_SUCCESS) {
      mx_mpi_fail(&m->c, "MPI_Test", e);
      break;
    }
    if (flag)
      take(m, s, unpacked);
  }
  *done = m->pending == 0;
  /* local: a failure is the rank's own until end agrees on it */
  return m->c.rc == MINEX_OK ? MINEX_OK : core_error(m->c.rc, "%s", m->c.msg);
}

int minex_mpi_migrate_end(minex_mpi_migration *m) {
  core_error_clear();
  if (m == NULL)
    return core_error(MINEX_EINVAL, "minex_mpi_migrate_end: m is NULL");
  mx_comm *c = &m->c;
  for (int s = 0; s < c->size; s++) {
    if (m->rdone[s])
      continue;
    int e = mx_wait(c, &m->rreq[s]);
    if (e != MPI_SUCCESS)
      mx_mpi_fail(c, "MPI_Wait (receive)", e);
    take(m, s, NULL);
  }
  for (int d = 0; d < c->size; d++) {
    int e = mx_wait(c, &m->sreq[d]);
    if (e != MPI_SUCCESS)
      mx_mpi_fail(c, "MPI_Wait (send)", e);
  }
  int rc = mx_agree(c);
  migration_free(m);
  return rc;
}

int minex_mpi_migrate_overlap(const minex_mpi_lists *lists,
                              const minex_mpi_migrate_fns *fns,
                              int (*compute)(void *ctx, int64_t unpacked,
                                             int *more),
                              void *ctx, MPI_Comm comm) {
  if (compute == NULL) {
    /* local, before anything collective: every rank passes the same
       function in a correct program, and a NULL one fails alike */
    core_error_clear();
    return core_error(MINEX_EINVAL,
                      "minex_mpi_migrate_overlap: compute is NULL");
  }
  minex_mpi_migration *m = NULL;
  int rc = minex_mpi_migrate_begin(lists, fns, comm, &m);
  if (rc != MINEX_OK)
    return rc;
  int done = 0, more = 1;
  int64_t got = 0;
  mx_backoff idle = {0, 0, 0, 0};
  for (;;) {
    if (more) {
      mx_backoff_end(&idle);
      int e = compute(ctx, got, &more);
      got = 0;
      if (e != 0) {
        mx_fail(&m->c, MINEX_ECALLBACK, "compute returned %d", e);
        break;
      }
    } else if (!done) {
      /* nothing to compute until more arrives: leave the core between
         tests, as mx_wait does */
      mx_backoff_step(&m->c, &idle);
    }
    if (done && !more)
      break;
    if (!done) {
      if (minex_mpi_migrate_progress(m, &done, &got) != MINEX_OK)
        break; /* recorded in m: end agrees on it */
      if (got > 0)
        more = 1; /* what arrived may have made work ready */
    }
  }
  mx_backoff_end(&idle);
  return minex_mpi_migrate_end(m);
}
