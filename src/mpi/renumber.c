/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex_mpi_renumber (minex_mpi.h, docs/reference/parmetis.md): after a
 * migration, contiguous global ids again. Each rank's vertices get the ids
 * vtxdist[rank] .. vtxdist[rank+1]-1 in the order of their old ids; the
 * ghosts' new ids come from a directory spread over the ranks by blocks of
 * old ids (two sparse exchanges). */
#include "mpi/mpi_comm.h"

#include <stdlib.h>
#include <string.h>

typedef struct pair {
  int64_t old, nw;
} pair;

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static int cmp_pair(const void *a, const void *b) {
  return cmp_i64(&((const pair *)a)->old, &((const pair *)b)->old);
}

/* Index of id in the sorted array a[0..n), or -1. */
static int64_t find(const int64_t *a, int64_t n, int64_t id) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (a[mid] < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && a[lo] == id ? lo : -1;
}

typedef struct rn {
  pair *loc;     /* local (old, new), sorted by old       */
  int64_t *sold; /* the same old ids, sorted             */
  int64_t *ask;  /* the ghosts' old ids, sorted, unique  */
  int64_t nask;
  int64_t *cnt; /* 6 * (size + 1) counts and offsets    */
  char *recv, *answer, *back;
  pair *dir; /* this rank's directory entries         */
  int64_t *vd, *nwid, *nwadj;
} rn;

static void rn_free(rn *b) {
  core_free(b->loc);
  core_free(b->sold);
  core_free(b->ask);
  core_free(b->cnt);
  core_free(b->recv);
  core_free(b->answer);
  core_free(b->back);
  core_free(b->dir);
  core_free(b->vd);
  core_free(b->nwid);
  core_free(b->nwadj);
}

/* The local checks; failures recorded in c. */
static void rn_check(mx_comm *c, int64_t nlocal, const int64_t *gid,
                     const int64_t *xadj, const int64_t *adjncy,
                     const int64_t *vtxdist, const int64_t *new_gid,
                     const int64_t *new_adjncy) {
  if (nlocal < 0) {
    mx_fail(c, MINEX_EINVAL, "nlocal = %lld is negative", (long long)nlocal);
    return;
  }
  if (vtxdist == NULL || (nlocal > 0 && (gid == NULL || new_gid == NULL))) {
    mx_fail(c, MINEX_EINVAL, "vtxdist, gid or new_gid is NULL (nlocal = %lld)",
            (long long)nlocal);
    return;
  }
  for (int64_t i = 0; i < nlocal; i++)
    if (gid[i] < 0) {
      mx_fail(c, MINEX_EINVAL, "gid[%lld] = %lld is negative", (long long)i,
              (long long)gid[i]);
      return;
    }
  if (xadj == NULL || nlocal == 0)
    return;
  if (xadj[0] != 0) {
    mx_fail(c, MINEX_EINVAL, "xadj[0] = %lld, not 0", (long long)xadj[0]);
    return;
  }
  for (int64_t i = 0; i < nlocal; i++)
    if (xadj[i + 1] < xadj[i]) {
      mx_fail(c, MINEX_EINVAL, "xadj[%lld] = %lld is below xadj[%lld]",
              (long long)(i + 1), (long long)xadj[i + 1], (long long)i);
      return;
    }
  if (xadj[nlocal] > 0 && (adjncy == NULL || new_adjncy == NULL)) {
    mx_fail(c, MINEX_EINVAL, "adjncy or new_adjncy is NULL");
    return;
  }
  for (int64_t j = 0; j < xadj[nlocal]; j++)
    if (adjncy[j] < 0) {
      mx_fail(c, MINEX_EINVAL, "adjncy[%lld] = %lld is negative", (long long)j,
              (long long)adjncy[j]);
      return;
    }
}

int minex_mpi_renumber(int64_t nlocal, const int64_t *gid, const int64_t *xadj,
                       const int64_t *adjncy, int64_t *vtxdist,
                       int64_t *new_gid, int64_t *new_adjncy, MPI_Comm comm) {
  static const char fn[] = "minex_mpi_renumber";
  core_error_clear();
  if (comm == MPI_COMM_NULL)
    return core_error(MINEX_EINVAL, "%s: comm is MPI_COMM_NULL", fn);
  mx_comm c;
  mx_open(&c, fn);
  int rc = mx_start(&c, comm);
  if (rc != MINEX_OK)
    return rc;
  rn b;
  memset(&b, 0, sizeof b);
  rn_check(&c, nlocal, gid, xadj, adjncy, vtxdist, new_gid, new_adjncy);
  if ((rc = mx_agree(&c)) != MINEX_OK)
    goto done;
  int size = c.size, rank = c.rank;
  int64_t nl = nlocal, nnz = xadj != NULL && nl > 0 ? xadj[nl] : 0;
  b.vd = core_malloc(sizeof *b.vd * ((size_t)size + 1));
  b.cnt = core_malloc(sizeof *b.cnt * 6 * ((size_t)size + 1));
  b.loc = core_malloc(sizeof *b.loc * (size_t)(nl + 1));
  b.sold = core_malloc(sizeof *b.sold * (size_t)(nl + 1));
  b.ask = core_malloc(sizeof *b.ask * (size_t)(nnz + 1));
  b.nwid = core_malloc(sizeof *b.nwid * (size_t)(nl + 1));
  b.nwadj = core_malloc(sizeof *b.nwadj * (size_t)(nnz + 1));
  if (!b.vd || !b.cnt || !b.loc || !b.sold || !b.ask || !b.nwid || !b.nwadj)
    mx_fail(&c, MINEX_ENOMEM, "out of memory (%lld vertices, %lld edge ends)",
            (long long)nl, (long long)nnz);
  if ((rc = mx_agree(&c)) != MINEX_OK)
    goto done;
  int64_t *scount = b.cnt, *rcount = b.cnt + (size + 1);
  int64_t *roff = b.cnt + 2 * (size + 1), *bcount = b.cnt + 3 * (size + 1);
  int64_t *boff = b.cnt + 4 * (size + 1), *all_n = b.cnt + 5 * (size + 1);
  /* the new vtxdist: ranks in rank order */
  int e = MPI_Allgather(&nl, 1, MPI_INT64_T, all_n, 1, MPI_INT64_T, c.comm);
  if (e != MPI_SUCCESS) {
    mx_mpi_fail(&c, "MPI_Allgather", e);
    rc = mx_agree(&c);
    goto done;
  }
  c.collectives++;
  b.vd[0] = 0;
  for (int r = 0; r < size; r++)
    b.vd[r + 1] = b.vd[r] + all_n[r];
  /* local ids in order of old id */
  for (int64_t i = 0; i < nl; i++) {
    b.loc[i].old = gid[i];
    b.loc[i].nw = i; /* input position, for now */
  }
  qsort(b.loc, (size_t)nl, sizeof *b.loc, cmp_pair);
  for (int64_t i = 0; i < nl; i++) {
    if (i > 0 && b.loc[i].old == b.loc[i - 1].old) {
      mx_fail(&c, MINEX_EINVAL, "gid %lld appears twice on this rank",
              (long long)b.loc[i].old);
      break;
    }
    b.nwid[b.loc[i].nw] = b.vd[rank] + i;
    b.loc[i].nw = b.vd[rank] + i;
    b.sold[i] = b.loc[i].old;
  }
  /* the directory's blocks: ids 0 .. gmax, block ids per rank */
  int64_t gmax = nl > 0 ? b.loc[nl - 1].old : 0, gall = 0;
  for (int64_t j = 0; j < nnz; j++)
    if (adjncy[j] > gmax)
      gmax = adjncy[j];
  if (mx_allreduce(&c, &gmax, &gall, 1, MPI_INT64_T, MPI_MAX) != MINEX_OK ||
      (rc = mx_agree(&c)) != MINEX_OK)
    goto done;
  int64_t block = gall / size + 1;
  /* (old, new) of every local vertex to its directory rank; sorted by old,
     so the destinations are in order */
  for (int r = 0; r < size; r++)
    scount[r] = 0;
  for (int64_t i = 0; i < nl; i++)
    scount[b.loc[i].old / block] += (int64_t)sizeof(pair);
  if ((rc = mx_exchange(&c, (const char *)b.loc, scount, &b.recv, rcount,
                        roff)) != MINEX_OK)
    goto done;
  int64_t ndir = roff[size] / (int64_t)sizeof(pair);
  b.dir = core_malloc(sizeof *b.dir * (size_t)(ndir + 1));
  if (b.dir == NULL)
    mx_fail(&c, MINEX_ENOMEM, "out of memory (directory of %lld ids)",
            (long long)ndir);
  else {
    memcpy(b.dir, b.recv, sizeof *b.dir * (size_t)ndir);
    qsort(b.dir, (size_t)ndir, sizeof *b.dir, cmp_pair);
    for (int64_t i = 1; i < ndir; i++)
      if (b.dir[i].old == b.dir[i - 1].old) {
        mx_fail(&c, MINEX_EINVAL, "gid %lld is held by two ranks",
                (long long)b.dir[i].old);
        break;
      }
  }
  if ((rc = mx_agree(&c)) != MINEX_OK)
    goto done;
  /* the ghosts: neighbours not held here, unique, sorted */
  for (int64_t j = 0; j < nnz; j++)
    if (find(b.sold, nl, adjncy[j]) < 0)
      b.ask[b.nask++] = adjncy[j];
  qsort(b.ask, (size_t)b.nask, sizeof *b.ask, cmp_i64);
  int64_t u = 0;
  for (int64_t i = 0; i < b.nask; i++)
    if (u == 0 || b.ask[i] != b.ask[u - 1])
      b.ask[u++] = b.ask[i];
  b.nask = u;
  for (int r = 0; r < size; r++)
    scount[r] = 0;
  for (int64_t i = 0; i < b.nask; i++)
    scount[b.ask[i] / block] += 8;
  core_free(b.recv);
  b.recv = NULL;
  if ((rc = mx_exchange(&c, (const char *)b.ask, scount, &b.recv, rcount,
                        roff)) != MINEX_OK)
    goto done;
  /* the answers, in the order asked: the new id, or -1 (held nowhere) */
  int64_t nq = roff[size] / 8;
  b.answer = core_malloc(8 * (size_t)(nq + 1));
  if (b.answer == NULL)
    mx_fail(&c, MINEX_ENOMEM, "out of memory (%lld queries)", (long long)nq);
  else
    for (int64_t i = 0; i < nq; i++) {
      int64_t q, a = -1;
      memcpy(&q, b.recv + 8 * i, 8);
      int64_t lo = 0, hi = ndir;
      while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (b.dir[mid].old < q)
          lo = mid + 1;
        else
          hi = mid;
      }
      if (lo < ndir && b.dir[lo].old == q)
        a = b.dir[lo].nw;
      memcpy(b.answer + 8 * i, &a, 8);
    }
  if ((rc = mx_agree(&c)) != MINEX_OK)
    goto done;
  for (int r = 0; r < size; r++)
    bcount[r] = rcount[r];
  if ((rc = mx_exchange(&c, b.answer, bcount, &b.back, rcount, boff)) !=
      MINEX_OK)
    goto done;
  /* the adjacency in new ids */
  for (int64_t v = 0; v < nl && c.rc == MINEX_OK && xadj != NULL; v++)
    for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
      int64_t i = find(b.sold, nl, adjncy[j]);
      if (i >= 0) {
        b.nwadj[j] = b.loc[i].nw;
        continue;
      }
      int64_t a;
      memcpy(&a, b.back + 8 * find(b.ask, b.nask, adjncy[j]), 8);
      if (a < 0) {
        mx_fail(&c, MINEX_EGRAPH,
                "adjncy[%lld] = %lld (a neighbour of gid %lld) is held by no "
                "rank",
                (long long)j, (long long)adjncy[j], (long long)gid[v]);
        break;
      }
      b.nwadj[j] = a;
    }
  if ((rc = mx_agree(&c)) != MINEX_OK)
    goto done;
  memcpy(vtxdist, b.vd, sizeof *vtxdist * ((size_t)size + 1));
  if (nl > 0)
    memcpy(new_gid, b.nwid, sizeof *new_gid * (size_t)nl);
  if (nnz > 0)
    memcpy(new_adjncy, b.nwadj, sizeof *new_adjncy * (size_t)nnz);
done:
  rn_free(&b);
  mx_close(&c);
  return rc;
}
