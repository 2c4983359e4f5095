/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The migration layer under mpiexec -n 1, 2, 3, 4 (ctest
 * test_migrate_nN): import/export lists against the new parts (computed
 * by every rank for every vertex), the new parts of neighbours, and every
 * way of moving the data -- single and multi callbacks, one exchange,
 * bounded pieces, split-phase -- checked by content: every vertex's bytes
 * (a different length per vertex, 0 included) arrive exactly once, intact,
 * in the documented order; the sum of all data over all ranks is the same
 * before and after. Scenarios: random parts, every vertex moving, none, all
 * from one rank; a rank without vertices; sources whose vertices all have
 * 0 bytes, beside sources with data and alone. Callback failures and the
 * lists of another call (the same counts) are collective errors naming the
 * rank and vertex. Plain MPI program: exits non-zero on every rank when any
 * check failed. */
#include "minex_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"

static uint64_t mix(uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* The rank that holds vertex gid before the migration. */
static const int64_t *vdist;
static int owner_of(int64_t gid) {
  int owner = 0;
  while (gid >= vdist[owner + 1])
    owner++;
  return owner;
}

/* Which vertices carry no data: SIZES_MIXED, any vertex (0 to 40 bytes);
 * SIZES_ZERO_SOME, every vertex of ranks 0, 3, ... and none of the others
 * (sources whose bytes total 0 beside sources with data); SIZES_ZERO_ALL,
 * every vertex. */
enum { SIZES_MIXED, SIZES_ZERO_SOME, SIZES_ZERO_ALL };
static int sizes = SIZES_MIXED;

/* A vertex's data: its length and its bytes. */
static size_t vbytes(int64_t gid) {
  size_t len = (size_t)(mix((uint64_t)gid) % 41);
  switch (sizes) {
  case SIZES_ZERO_SOME:
    return owner_of(gid) % 3 == 0 ? 0 : 1 + len % 40;
  case SIZES_ZERO_ALL:
    return 0;
  default:
    return len;
  }
}
static unsigned char vbyte(int64_t gid, size_t i) {
  return (unsigned char)(mix((uint64_t)gid * 131 + i) & 0xff);
}

/* What one rank saw during a migration. */
typedef struct seen {
  int64_t n, cap, *gid;
  int *src;
  int bad;          /* data that were not the vertex's */
  int64_t fail_gid; /* pack fails for this vertex (-1: never) */
} seen;

static void seen_add(seen *s, int64_t gid, int src) {
  if (s->n == s->cap) {
    s->cap = 2 * s->cap + 16;
    s->gid = realloc(s->gid, sizeof *s->gid * (size_t)s->cap);
    s->src = realloc(s->src, sizeof *s->src * (size_t)s->cap);
  }
  s->gid[s->n] = gid;
  s->src[s->n++] = src;
}

static int cb_size(void *ctx, int64_t gid, int64_t lid, size_t *bytes) {
  (void)ctx;
  (void)lid;
  *bytes = vbytes(gid);
  return 0;
}

static int cb_pack(void *ctx, int64_t gid, int64_t lid, int dest, void *buf,
                   size_t bytes) {
  seen *s = ctx;
  (void)lid;
  (void)dest;
  if (gid == s->fail_gid)
    return 3;
  for (size_t i = 0; i < bytes; i++)
    ((unsigned char *)buf)[i] = vbyte(gid, i);
  return 0;
}

static int cb_unpack(void *ctx, int64_t gid, int src, const void *buf,
                     size_t bytes) {
  seen *s = ctx;
  if (bytes != vbytes(gid))
    s->bad++;
  for (size_t i = 0; i < bytes; i++)
    if (((const unsigned char *)buf)[i] != vbyte(gid, i)) {
      s->bad++;
      break;
    }
  seen_add(s, gid, src);
  return 0;
}

static int cb_size_multi(void *ctx, int64_t n, const int64_t *gid,
                         const int64_t *lid, size_t *bytes) {
  for (int64_t i = 0; i < n; i++)
    cb_size(ctx, gid[i], lid[i], &bytes[i]);
  return 0;
}

static int cb_pack_multi(void *ctx, int64_t n, const int64_t *gid,
                         const int64_t *lid, const int32_t *dest,
                         const size_t *bytes, const size_t *offset, void *buf) {
  for (int64_t i = 0; i < n; i++)
    if (cb_pack(ctx, gid[i], lid[i], dest[i], (char *)buf + offset[i],
                bytes[i]))
      return 3;
  return 0;
}

static int cb_unpack_multi(void *ctx, int64_t n, const int64_t *gid,
                           const int32_t *src, const size_t *bytes,
                           const size_t *offset, const void *buf) {
  for (int64_t i = 0; i < n; i++)
    cb_unpack(ctx, gid[i], src[i], (const char *)buf + offset[i], bytes[i]);
  return 0;
}

/* The overlap driver's compute callback: n units of work in slices of
 * 100, and the arrivals it is told of counted. */
typedef struct compute_state {
  int64_t n, done, told, calls;
} compute_state;

static int compute(void *ctx, int64_t unpacked, int *more) {
  compute_state *c = ctx;
  c->told += unpacked;
  c->calls++;
  c->done += c->n - c->done < 100 ? c->n - c->done : 100;
  *more = c->done < c->n;
  return 0;
}

static int compute_fails(void *ctx, int64_t unpacked, int *more) {
  (void)ctx;
  (void)unpacked;
  *more = 0;
  return rank == size - 1 ? 2 : 0;
}

/* The scenarios: the new part of every vertex, known to every rank. */
enum { RANDOM, ALL_MOVE, NONE_MOVE, FROM_ONE };

static int32_t new_part_of(int scen, int64_t gid, int32_t P) {
  int owner = owner_of(gid);
  switch (scen) {
  case RANDOM:
    return (int32_t)(mix((uint64_t)gid + 99) % (uint64_t)P);
  case ALL_MOVE: /* to the next rank's first part */
    return (int32_t)(((int64_t)((owner + 1) % size) * P + size - 1) / size);
  case NONE_MOVE: /* the first part of its own rank */
    return (int32_t)(((int64_t)owner * P + size - 1) / size);
  default: /* rank 0's vertices spread, the others stay */
    return owner == 0 ? (int32_t)(mix((uint64_t)gid) % (uint64_t)P)
                      : (int32_t)(((int64_t)owner * P + size - 1) / size);
  }
}

static int home(int32_t p, int32_t P) {
  return (int)((int64_t)p * size / P);
}

static int gid_cmp(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Checks what arrived against the lists: each import exactly once,
 * intact; in list order when ordered is set. */
static void check_arrivals(const char *what, const minex_mpi_lists *l,
                           const seen *s, int ordered) {
  CHECK(s->bad == 0, "%s: %d vertices arrived with wrong data", what, s->bad);
  CHECK(s->n == l->nimport, "%s: %lld unpacked, %lld imports", what,
        (long long)s->n, (long long)l->nimport);
  if (s->n != l->nimport)
    return;
  if (ordered) {
    int64_t off = 0;
    for (int64_t i = 0; i < s->n; i++)
      off += s->gid[i] != l->import_gid[i] || s->src[i] != l->import_rank[i];
    CHECK(off == 0, "%s: %lld unpacked out of list order", what,
          (long long)off);
  }
  int64_t *a = malloc(sizeof *a * (size_t)(s->n + 1));
  int64_t *b = malloc(sizeof *b * (size_t)(s->n + 1));
  if (s->n > 0) {
    memcpy(a, s->gid, sizeof *a * (size_t)s->n);
    memcpy(b, l->import_gid, sizeof *b * (size_t)s->n);
  }
  qsort(a, (size_t)s->n, sizeof *a, gid_cmp);
  qsort(b, (size_t)s->n, sizeof *b, gid_cmp);
  int64_t diff = 0;
  for (int64_t i = 0; i < s->n; i++)
    diff += a[i] != b[i] || (i > 0 && a[i] == a[i - 1]);
  CHECK(diff == 0, "%s: the vertices unpacked are not the imports, once each",
        what);
  free(a);
  free(b);
}

/* The data of the whole graph, summed over the ranks: before (every vertex
 * where it was) and after (kept + arrived) must agree. */
static uint64_t data_sum(const int64_t *gids, int64_t n) {
  uint64_t h = 0;
  for (int64_t i = 0; i < n; i++)
    for (size_t k = 0; k < vbytes(gids[i]); k++)
      h += mix((uint64_t)gids[i] * 7 + vbyte(gids[i], k));
  uint64_t all = 0;
  MPI_Allreduce(&h, &all, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

static void scenario(int scen, const int64_t *vd, int32_t P) {
  static const char *const sname[] = {"random", "all move", "none move",
                                      "from rank 0"};
  static const char *const zname[] = {"", " (ranks 0, 3, ... send 0 bytes)",
                                      " (0 bytes everywhere)"};
  char what[192], name[96];
  snprintf(name, sizeof name, "%s%s", sname[scen], zname[sizes]);
  int64_t first = vd[rank], n = vd[rank + 1] - vd[rank];
  int32_t *np = malloc(sizeof *np * (size_t)(n + 1));
  for (int64_t v = 0; v < n; v++)
    np[v] = new_part_of(scen, first + v, P);
  minex_mpi_lists *l = NULL;
  int rc = minex_mpi_lists_create(vd, np, P, NULL, &l, MPI_COMM_WORLD);
  CHECK(rc == MINEX_OK, "%s: lists: %s", name, minex_last_error());
  if (rc != MINEX_OK) {
    free(np);
    return;
  }
  /* the lists against the parts every rank can compute */
  int64_t want_exp = 0, want_imp = 0;
  for (int64_t v = 0; v < n; v++)
    want_exp += home(np[v], P) != rank;
  for (int64_t g = vd[0]; g < vd[size]; g++) {
    int h = home(new_part_of(scen, g, P), P);
    want_imp += h == rank && owner_of(g) != rank;
  }
  CHECK(l->nexport == want_exp && l->nimport == want_imp &&
            l->nkeep == n - want_exp,
        "%s: %lld exports, %lld imports, %lld kept; want %lld, %lld", name,
        (long long)l->nexport, (long long)l->nimport, (long long)l->nkeep,
        (long long)want_exp, (long long)want_imp);
  for (int64_t i = 0; i < l->nimport; i++) {
    int ok = home(l->import_part[i], P) == rank &&
             l->import_part[i] == new_part_of(scen, l->import_gid[i], P) &&
             (i == 0 || l->import_rank[i] > l->import_rank[i - 1] ||
              (l->import_rank[i] == l->import_rank[i - 1] &&
               l->import_gid[i] > l->import_gid[i - 1]));
    if (!ok) {
      CHECK(0,
            "%s: import %lld (vertex %lld from rank %d) wrong or out of "
            "order",
            name, (long long)i, (long long)l->import_gid[i],
            (int)l->import_rank[i]);
      break;
    }
  }
  /* the whole data before: every vertex where it is */
  int64_t *mine = malloc(sizeof *mine * (size_t)(n + 1));
  for (int64_t v = 0; v < n; v++)
    mine[v] = first + v;
  uint64_t before = data_sum(mine, n);
  /* every way of moving it */
  for (int way = 0; way < 6; way++) {
    static const char *const wname[] = {
        "single", "multi", "bounded 16", "bounded 1", "split-phase", "overlap"};
    snprintf(what, sizeof what, "%s, %s", name, wname[way]);
    seen s;
    memset(&s, 0, sizeof s);
    s.fail_gid = -1;
    minex_mpi_migrate_fns f = {0};
    f.ctx = &s;
    if (way == 1) {
      f.size_multi = cb_size_multi;
      f.pack_multi = cb_pack_multi;
      f.unpack_multi = cb_unpack_multi;
    } else {
      f.size = cb_size;
      f.pack = cb_pack;
      f.unpack = cb_unpack;
    }
    if (way <= 1) {
      rc = minex_mpi_migrate(l, &f, 0, MPI_COMM_WORLD);
    } else if (way <= 3) {
      rc = minex_mpi_migrate(l, &f, way == 2 ? 16 : 1, MPI_COMM_WORLD);
    } else if (way == 5) {
      compute_state cs = {n, 0, 0, 0};
      rc = minex_mpi_migrate_overlap(l, &f, compute, &cs, MPI_COMM_WORLD);
      CHECK(cs.done == n && cs.told == l->nimport,
            "%s: compute did %lld of %lld, was told of %lld arrivals of %lld",
            what, (long long)cs.done, (long long)n, (long long)cs.told,
            (long long)l->nimport);
    } else {
      minex_mpi_migration *m = NULL;
      rc = minex_mpi_migrate_begin(l, &f, MPI_COMM_WORLD, &m);
      int done = 0;
      int64_t got = 0, total = 0;
      for (int spin = 0; rc == MINEX_OK && !done && spin < 3; spin++) {
        rc = minex_mpi_migrate_progress(m, &done, &got);
        total += got;
      }
      CHECK(total <= l->nimport && (!done || total == l->nimport),
            "%s: progress counted %lld of %lld imports (done: %d)", what,
            (long long)total, (long long)l->nimport, done);
      if (m != NULL) {
        int rc2 = minex_mpi_migrate_end(m);
        rc = rc == MINEX_OK ? rc2 : rc;
      }
    }
    CHECK(rc == MINEX_OK, "%s: %s", what, minex_last_error());
    check_arrivals(what, l, &s, way <= 1);
    /* the whole data after: kept + arrived */
    int64_t *now = malloc(sizeof *now * (size_t)(l->nkeep + s.n + 1));
    int64_t k = 0;
    for (int64_t v = 0; v < n; v++)
      if (home(np[v], P) == rank)
        now[k++] = first + v;
    if (s.n > 0)
      memcpy(now + k, s.gid, sizeof *now * (size_t)s.n);
    uint64_t after = data_sum(now, k + s.n);
    CHECK(after == before, "%s: the data summed over the ranks changed", what);
    free(now);
    free(s.gid);
    free(s.src);
  }
  /* a pack callback failing on the last rank that exports anything */
  int64_t last_exp = l->nexport > 0 ? rank : -1, who = -1;
  MPI_Allreduce(&last_exp, &who, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (who >= 0) {
    for (int way = 0; way < 3; way++) {
      seen s;
      memset(&s, 0, sizeof s);
      s.fail_gid = rank == who ? l->export_gid[l->nexport - 1] : -1;
      minex_mpi_migrate_fns f = {0};
      f.ctx = &s;
      f.size = cb_size;
      f.pack = cb_pack;
      f.unpack = cb_unpack;
      if (way < 2) {
        rc = minex_mpi_migrate(l, &f, way == 0 ? 0 : 16, MPI_COMM_WORLD);
      } else {
        minex_mpi_migration *m = NULL;
        rc = minex_mpi_migrate_begin(l, &f, MPI_COMM_WORLD, &m);
        CHECK(m == NULL, "failed begin left a migration");
      }
      char want[96];
      snprintf(want, sizeof want, "rank %d: pack returned 3 for vertex",
               (int)who);
      CHECK(rc == MINEX_ECALLBACK && strstr(minex_last_error(), want),
            "%s, pack fails (way %d): rc %d, '%s'", name, way, rc,
            minex_last_error());
      free(s.gid);
      free(s.src);
    }
  }
  /* a compute callback failing on the last rank */
  if (scen == RANDOM) {
    seen s;
    memset(&s, 0, sizeof s);
    s.fail_gid = -1;
    minex_mpi_migrate_fns f = {0};
    f.ctx = &s;
    f.size = cb_size;
    f.pack = cb_pack;
    f.unpack = cb_unpack;
    rc = minex_mpi_migrate_overlap(l, &f, compute_fails, NULL, MPI_COMM_WORLD);
    char want[64];
    snprintf(want, sizeof want, "rank %d: compute returned 2", size - 1);
    CHECK(rc == MINEX_ECALLBACK && strstr(minex_last_error(), want),
          "compute fails: rc %d, '%s'", rc, minex_last_error());
    free(s.gid);
    free(s.src);
  }
  minex_mpi_lists_destroy(l);
  free(mine);
  free(np);
}

/* A ring over the global ids: every vertex's neighbours' new parts. */
static void test_neighbour_parts(const int64_t *vd, int32_t P) {
  int64_t first = vd[rank], n = vd[rank + 1] - vd[rank];
  int64_t N = vd[size] - vd[0];
  if (N < 3)
    return;
  int64_t *xadj = malloc(sizeof *xadj * (size_t)(n + 1));
  int64_t *adj = malloc(sizeof *adj * (size_t)(2 * n + 1));
  int32_t *np = malloc(sizeof *np * (size_t)(n + 1));
  int32_t *nb = malloc(sizeof *nb * (size_t)(2 * n + 1));
  xadj[0] = 0;
  for (int64_t v = 0; v < n; v++) {
    int64_t g = first + v - vd[0];
    adj[2 * v] = vd[0] + (g + N - 1) % N;
    adj[2 * v + 1] = vd[0] + (g + 1) % N;
    xadj[v + 1] = 2 * v + 2;
    np[v] = new_part_of(RANDOM, first + v, P);
  }
  int rc = minex_mpi_neighbour_parts(vd, xadj, adj, np, nb, MPI_COMM_WORLD);
  CHECK(rc == MINEX_OK, "neighbour parts: %s", minex_last_error());
  int64_t wrong = 0;
  for (int64_t j = 0; rc == MINEX_OK && j < 2 * n; j++)
    wrong += nb[j] != new_part_of(RANDOM, adj[j], P);
  CHECK(wrong == 0, "neighbour parts: %lld wrong", (long long)wrong);
  free(xadj);
  free(adj);
  free(np);
  free(nb);
}

/* Lists of another call whose counts match: each rank's first half moves
 * to the next rank (lists a) or its last half does (lists b), so every
 * rank pair has the same count either way. Rank 0 passes b, the others a:
 * every driver must refuse the call on every rank, with one message naming
 * rank 0, its source rank size-1 and the first vertex that differs, before
 * anything is unpacked. On one rank nothing moves: nothing to refuse. */
static void test_foreign_lists(const int64_t *vd, int32_t P) {
  if (size < 2)
    return;
  int64_t n = vd[rank + 1] - vd[rank];
  int32_t own = (int32_t)(((int64_t)rank * P + size - 1) / size);
  int32_t next =
      (int32_t)(((int64_t)((rank + 1) % size) * P + size - 1) / size);
  int32_t *pa = malloc(sizeof *pa * (size_t)(n + 1));
  int32_t *pb = malloc(sizeof *pb * (size_t)(n + 1));
  for (int64_t v = 0; v < n; v++) {
    pa[v] = v < n / 2 ? next : own;
    pb[v] = v >= n - n / 2 ? next : own;
  }
  minex_mpi_lists *la = NULL, *lb = NULL;
  int rc = minex_mpi_lists_create(vd, pa, P, NULL, &la, MPI_COMM_WORLD);
  if (rc == MINEX_OK)
    rc = minex_mpi_lists_create(vd, pb, P, NULL, &lb, MPI_COMM_WORLD);
  CHECK(rc == MINEX_OK, "foreign lists: lists: %s", minex_last_error());
  if (rc != MINEX_OK) {
    minex_mpi_lists_destroy(la);
    free(pa);
    free(pb);
    return;
  }
  /* rank 0 expects the last half of rank s's vertices and is sent the
     first half */
  int s = size - 1;
  int64_t ns = vd[s + 1] - vd[s];
  char want[256];
  snprintf(want, sizeof want,
           "rank 0: lists: import 0 is vertex %lld from rank %d, but rank %d "
           "sends vertex %lld in its place",
           (long long)(vd[s] + ns - ns / 2), s, s, (long long)vd[s]);
  const minex_mpi_lists *mine = rank == 0 ? lb : la;
  for (int way = 0; way < 5; way++) {
    static const char *const wname[] = {"all at once", "bounded 16",
                                        "split-phase", "overlap", "one call's"};
    seen sn;
    memset(&sn, 0, sizeof sn);
    sn.fail_gid = -1;
    minex_mpi_migrate_fns f = {0};
    f.ctx = &sn;
    f.size = cb_size;
    f.pack = cb_pack;
    f.unpack = cb_unpack;
    if (way <= 1) {
      rc = minex_mpi_migrate(mine, &f, way == 0 ? 0 : 16, MPI_COMM_WORLD);
    } else if (way == 2) {
      minex_mpi_migration *m = NULL;
      rc = minex_mpi_migrate_begin(mine, &f, MPI_COMM_WORLD, &m);
      CHECK(m == NULL || rc == MINEX_OK, "foreign lists: failed begin left "
                                         "a migration");
      if (m != NULL) {
        int done = 0;
        int64_t got = 0;
        minex_mpi_migrate_progress(m, &done, &got);
        minex_mpi_migrate_end(m);
      }
    } else if (way == 3) {
      compute_state cs = {n, 0, 0, 0};
      rc = minex_mpi_migrate_overlap(mine, &f, compute, &cs, MPI_COMM_WORLD);
    } else { /* the setup is sound: one call's lists everywhere pass */
      rc = minex_mpi_migrate(la, &f, 0, MPI_COMM_WORLD);
      CHECK(rc == MINEX_OK && sn.bad == 0 && sn.n == la->nimport,
            "foreign lists: one call's lists: rc %d, '%s'", rc,
            minex_last_error());
      free(sn.gid);
      free(sn.src);
      continue;
    }
    /* the same message on every rank: rank 0's, compared */
    char msg[1024], msg0[1024];
    snprintf(msg, sizeof msg, "%s", minex_last_error());
    memcpy(msg0, msg, sizeof msg);
    MPI_Bcast(msg0, (int)sizeof msg0, MPI_CHAR, 0, MPI_COMM_WORLD);
    CHECK(rc == MINEX_EINVAL && strstr(msg, want) && strcmp(msg, msg0) == 0,
          "foreign lists, %s: rc %d, '%s' (want '%s' on every rank)",
          wname[way], rc, msg, want);
    CHECK(sn.n == 0 && sn.bad == 0,
          "foreign lists, %s: %lld vertices unpacked (%d with wrong data)",
          wname[way], (long long)sn.n, sn.bad);
    free(sn.gid);
    free(sn.src);
  }
  minex_mpi_lists_destroy(la);
  minex_mpi_lists_destroy(lb);
  free(pa);
  free(pb);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64) {
    MPI_Finalize();
    return 1;
  }
  /* 997 vertices from global id 5e9; rank 1 (of 3 or more) holds none */
  int64_t vd[65];
  vd[0] = 5000000000LL;
  for (int r = 0; r < size; r++)
    vd[r + 1] = size >= 3 && r == 1 ? vd[r] : vd[0] + 997LL * (r + 1) / size;
  vd[size] = vd[0] + 997;
  int32_t P = 2 * size;
  vdist = vd;
  for (int scen = RANDOM; scen <= FROM_ONE; scen++)
    scenario(scen, vd, P);
  /* sources whose bytes total 0, beside others and alone: their vertices
     are unpacked as any others, by every driver */
  sizes = SIZES_ZERO_SOME;
  scenario(RANDOM, vd, P);
  scenario(ALL_MOVE, vd, P);
  sizes = SIZES_ZERO_ALL;
  scenario(RANDOM, vd, P);
  sizes = SIZES_MIXED;
  test_foreign_lists(vd, P);
  test_neighbour_parts(vd, P);
  /* bad input: an owner out of range on the last rank */
  int64_t n = vd[rank + 1] - vd[rank];
  int32_t *np = calloc((size_t)(n + 1), sizeof *np);
  if (rank == size - 1 && n > 0)
    np[n - 1] = P;
  minex_mpi_lists *l = NULL;
  int rc = minex_mpi_lists_create(vd, np, P, NULL, &l, MPI_COMM_WORLD);
  char want[64];
  snprintf(want, sizeof want, "rank %d: new_part[%lld] = %d", size - 1,
           (long long)(vd[size] - vd[size - 1] - 1), (int)P);
  CHECK(rc == MINEX_EPART && l == NULL && strstr(minex_last_error(), want),
        "bad new_part: rc %d '%s'", rc, minex_last_error());
  free(np);
  int all = 0;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    printf("test_migrate on %d ranks: %s (%d failed checks)\n", size,
           all == 0 ? "passed" : "FAILED", all);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
