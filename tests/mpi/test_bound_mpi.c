/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The ParMETIS-shaped entry with ubvec (docs/SPEC.md §3 "Load bounds"):
 * every processor within ubvec of its target tpwgts * total, recomputed
 * here, the same partition on one rank as on all of them, every type
 * width alike; and minex_mpi_renumber after a migration against a serial
 * recomputation. Public headers only. Run on 1-4 ranks. */
#include "minex_mpi.h"
#include "minex_parmetis.h"

#include "mpi_check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An nx x ny grid (4-neighbour), vertex v = x + nx*y. */
#define NX 40
#define NY 30
#define NV (NX * NY)

static int nbrs(int v, int *out) {
  int x = v % NX, y = v / NX, k = 0;
  if (x > 0)
    out[k++] = v - 1;
  if (x < NX - 1)
    out[k++] = v + 1;
  if (y > 0)
    out[k++] = v - NX;
  if (y < NY - 1)
    out[k++] = v + NX;
  return k;
}

static int vwgt_of(int v) {
  return 1 + (int)((v * 2654435761u) >> 30); /* 1..4 */
}

/* The ParMETIS call on comm for the vertices block-distributed over its
 * ranks; part_all receives every owner (global order). */
static int pm_call(MPI_Comm comm, float *ubvec, int wide64, int32_t *part_all,
                   double *imb, int *met) {
  int r, s;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &s);
  int32_t *vd = malloc(sizeof *vd * (size_t)(s + 1));
  for (int i = 0; i <= s; i++)
    vd[i] = (int32_t)((int64_t)NV * i / s);
  int n = vd[r + 1] - vd[r];
  int32_t *xadj = malloc(sizeof *xadj * (size_t)(n + 1));
  int32_t *adj = malloc(sizeof *adj * (size_t)(4 * n + 1));
  int32_t *vw = malloc(sizeof *vw * (size_t)(n + 1));
  int32_t *vs = malloc(sizeof *vs * (size_t)(n + 1));
  int32_t *part = malloc(sizeof *part * (size_t)(n + 1));
  xadj[0] = 0;
  for (int i = 0; i < n; i++) {
    int v = vd[r] + i, nb[4], k = nbrs(v, nb);
    for (int j = 0; j < k; j++)
      adj[xadj[i] + j] = nb[j];
    xadj[i + 1] = xadj[i] + k;
    vw[i] = vwgt_of(v);
    vs[i] = 2 * vw[i];
    /* the old partition: part 0 holds the left 60 % */
    int x = v % NX;
    part[i] = x < 24 ? 0 : x < 30 ? 1 : x < 35 ? 2 : 3;
  }
  int32_t wgtflag = 2, numflag = 0, ncon = 1, nparts = 4, edgecut = -1;
  int32_t options[4] = {1, 0, 3, MINEX_PARMETIS_PSR_UNCOUPLED};
  float tp[4] = {0.1f, 0.2f, 0.3f, 0.4f}, itr = 0.01f;
  int rc;
  if (!wide64) {
    rc = minex_parmetis_adaptive_repart(vd, xadj, adj, vw, vs, NULL, &wgtflag,
                                        &numflag, &ncon, &nparts, tp, ubvec,
                                        &itr, options, &edgecut, part, &comm);
  } else { /* the 64-bit-index, float-weight entry */
    int64_t nnz = xadj[n];
    int64_t *vd6 = malloc(sizeof *vd6 * (size_t)(s + 1));
    int64_t *x6 = malloc(sizeof *x6 * (size_t)(n + 1));
    int64_t *a6 = malloc(sizeof *a6 * (size_t)(nnz + 1));
    int64_t *w6 = malloc(sizeof *w6 * (size_t)(n + 1));
    int64_t *s6 = malloc(sizeof *s6 * (size_t)(n + 1));
    int64_t *p6 = malloc(sizeof *p6 * (size_t)(n + 1));
    for (int i = 0; i <= s; i++)
      vd6[i] = vd[i];
    for (int i = 0; i <= n; i++)
      x6[i] = xadj[i];
    for (int64_t j = 0; j < nnz; j++)
      a6[j] = adj[j];
    for (int i = 0; i < n; i++) {
      w6[i] = vw[i];
      s6[i] = vs[i];
      p6[i] = part[i];
    }
    int64_t wf = 2, nf = 0, nc = 1, np = 4, ec = -1;
    int64_t op[4] = {1, 0, 3, MINEX_PARMETIS_PSR_UNCOUPLED};
    rc = minex_parmetis_adaptive_repart64f(vd6, x6, a6, w6, s6, NULL, &wf, &nf,
                                           &nc, &np, tp, ubvec, &itr, op, &ec,
                                           p6, &comm);
    for (int i = 0; i < n; i++)
      part[i] = (int32_t)p6[i];
    free(vd6);
    free(x6);
    free(a6);
    free(w6);
    free(s6);
    free(p6);
  }
  minex_parmetis_last_imbalance(imb, met);
  int *cnt = malloc(sizeof *cnt * (size_t)s),
      *off = malloc(sizeof *off * (size_t)s);
  for (int i = 0; i < s; i++) {
    cnt[i] = vd[i + 1] - vd[i];
    off[i] = vd[i];
  }
  MPI_Allgatherv(part, n, MPI_INT32_T, part_all, cnt, off, MPI_INT32_T, comm);
  free(cnt);
  free(off);
  free(vd);
  free(xadj);
  free(adj);
  free(vw);
  free(vs);
  free(part);
  return rc;
}

/* The largest vwgt sum of a part over its target tpwgts * total. */
static double imbalance_of(const int32_t *part) {
  /* the caller's float shares, normalised as ParMETIS reads them */
  const float tf[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  double tsum = (double)tf[0] + tf[1] + tf[2] + tf[3], tp[4];
  for (int p = 0; p < 4; p++)
    tp[p] = tf[p] / tsum;
  double l[4] = {0, 0, 0, 0}, tot = 0, r = 0;
  for (int v = 0; v < NV; v++) {
    l[part[v]] += vwgt_of(v);
    tot += vwgt_of(v);
  }
  for (int p = 0; p < 4; p++)
    if (l[p] / (tp[p] * tot) > r)
      r = l[p] / (tp[p] * tot);
  return r;
}

static void test_ubvec(void) {
  int32_t *a = malloc(sizeof *a * NV), *b = malloc(sizeof *b * NV);
  int32_t *c = malloc(sizeof *c * NV), *u = malloc(sizeof *u * NV);
  float ub = 1.05f;
  double imb = -1, imb0 = -1;
  int met = -2, met0 = -2;
  /* without the bound: what MinEX's objective alone gives */
  int rc = pm_call(MPI_COMM_WORLD, NULL, 0, u, &imb0, &met0);
  CHECK(rc == METIS_OK, "no ubvec: %d %s", rc, minex_last_error());
  CHECK(met0 == -1, "no ubvec: met %d", met0);
  CHECK(fabs(imb0 - imbalance_of(u)) < 1e-9, "no ubvec: imbalance %g vs %g",
        imb0, imbalance_of(u));
  rc = pm_call(MPI_COMM_WORLD, &ub, 0, a, &imb, &met);
  CHECK(rc == METIS_OK, "ubvec 1.05: %d %s", rc, minex_last_error());
  CHECK(met == 1, "ubvec 1.05: bound not met (imbalance %g)", imb);
  double got = imbalance_of(a);
  CHECK(got <= 1.05 * (1 + 1e-9), "ubvec 1.05: imbalance %g recomputed", got);
  CHECK(fabs(imb - got) < 1e-9, "ubvec 1.05: reported %g, recomputed %g", imb,
        got);
  for (int v = 0; v < NV; v++)
    CHECK(a[v] >= 0 && a[v] < 4, "owner %d of %d", a[v], v);
  if (rank == 0)
    fprintf(stderr,
            "test_bound_mpi: imbalance %.4f without ubvec, %.4f with "
            "ubvec 1.05\n",
            imbalance_of(u), got);
  /* the same partition on one rank */
  MPI_Comm one;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &one);
  if (rank == 0) {
    double i1;
    int m1;
    rc = pm_call(one, &ub, 0, b, &i1, &m1);
    CHECK(rc == METIS_OK, "one rank: %d %s", rc, minex_last_error());
    CHECK(memcmp(a, b, sizeof *a * NV) == 0,
          "one rank and %d ranks give different partitions", size);
    MPI_Comm_free(&one);
  }
  /* the 64-bit-index float entry: the same partition */
  rc = pm_call(MPI_COMM_WORLD, &ub, 1, c, &imb, &met);
  CHECK(rc == METIS_OK && memcmp(a, c, sizeof *a * NV) == 0,
        "repart64f: %d, partition differs", rc);
  /* ubvec below 1: refused */
  float bad = 0.9f;
  rc = pm_call(MPI_COMM_WORLD, &bad, 0, c, &imb, &met);
  CHECK(rc == METIS_ERROR_INPUT && strstr(minex_last_error(), "ubvec") != NULL,
        "ubvec 0.9: %d %s", rc, minex_last_error());
  free(a);
  free(b);
  free(c);
  free(u);
}

/* After a "migration": vertex v (old id 3v + 7) on rank h(v) % size, each
 * rank's list in a scrambled order. */
static int owner_rank(int v) {
  return (int)(((unsigned)v * 2246822519u) >> 7) % size;
}

static void test_renumber(void) {
  int64_t n = 0;
  for (int v = 0; v < NV; v++)
    n += owner_rank(v) == rank;
  int64_t *gid = malloc(sizeof *gid * (size_t)(n + 1));
  int *loc = malloc(sizeof *loc * (size_t)(n + 1));
  int64_t k = 0;
  for (int v = NV - 1; v >= 0; v--) /* reverse, then interleaved */
    if (owner_rank(v) == rank)
      loc[k++] = v;
  for (int64_t i = 0; i + 1 < n; i += 2) {
    int t = loc[i];
    loc[i] = loc[i + 1];
    loc[i + 1] = t;
  }
  int64_t *xadj = malloc(sizeof *xadj * (size_t)(n + 1));
  int64_t *adj = malloc(sizeof *adj * (size_t)(4 * n + 1));
  int64_t *nadj = malloc(sizeof *nadj * (size_t)(4 * n + 1));
  int64_t *ngid = malloc(sizeof *ngid * (size_t)(n + 1));
  int64_t *vd = malloc(sizeof *vd * (size_t)(size + 1));
  xadj[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    int nb[4], d = nbrs(loc[i], nb);
    gid[i] = 3 * (int64_t)loc[i] + 7;
    for (int j = 0; j < d; j++)
      adj[xadj[i] + j] = 3 * (int64_t)nb[j] + 7;
    xadj[i + 1] = xadj[i] + d;
  }
  int rc =
      minex_mpi_renumber(n, gid, xadj, adj, vd, ngid, nadj, MPI_COMM_WORLD);
  CHECK(rc == MINEX_OK, "renumber: %s", minex_last_error());
  /* the serial recomputation: ranks in order, old ids ascending within */
  int64_t *map = malloc(sizeof *map * NV),
          *want_vd = calloc((size_t)size + 1, 8);
  int64_t next = 0;
  for (int r = 0; r < size; r++) {
    for (int v = 0; v < NV; v++) /* ascending v is ascending old id */
      if (owner_rank(v) == r)
        map[v] = next++;
    want_vd[r + 1] = next;
  }
  CHECK(memcmp(vd, want_vd, 8 * ((size_t)size + 1)) == 0, "vtxdist differs");
  CHECK(vd[0] == 0 && vd[size] == NV, "vtxdist %lld .. %lld", (long long)vd[0],
        (long long)vd[size]);
  int bad = 0;
  for (int64_t i = 0; i < n; i++) {
    bad += ngid[i] != map[loc[i]];
    bad += ngid[i] < vd[rank] || ngid[i] >= vd[rank + 1];
    for (int64_t j = xadj[i]; j < xadj[i + 1]; j++)
      bad += nadj[j] != map[(adj[j] - 7) / 3];
  }
  CHECK(bad == 0, "renumber: %d ids differ from the serial recomputation", bad);
  /* a bijection onto 0 .. NV-1 */
  int *cnt = malloc(sizeof *cnt * (size_t)size),
      *off = malloc(sizeof *off * (size_t)size);
  for (int r = 0; r < size; r++) {
    cnt[r] = (int)(want_vd[r + 1] - want_vd[r]);
    off[r] = (int)want_vd[r];
  }
  int64_t *all = malloc(sizeof *all * NV);
  MPI_Allgatherv(ngid, (int)n, MPI_INT64_T, all, cnt, off, MPI_INT64_T,
                 MPI_COMM_WORLD);
  char *seen = calloc(NV, 1);
  int dup = 0;
  for (int v = 0; v < NV; v++) {
    if (all[v] < 0 || all[v] >= NV || seen[all[v]])
      dup++;
    else
      seen[all[v]] = 1;
  }
  CHECK(dup == 0, "renumber: %d new ids repeated or out of range", dup);
  /* errors, agreed: an id on two ranks; a neighbour held nowhere */
  int64_t vd2[65];
  if (size > 1) {
    int64_t one = 7, x1[2] = {0, 0};
    rc = minex_mpi_renumber(rank < 2 ? 1 : 0, &one, x1, NULL, vd2, ngid, NULL,
                            MPI_COMM_WORLD);
    CHECK(rc == MINEX_EINVAL && strstr(minex_last_error(), "two ranks"),
          "duplicate id: %d %s", rc, minex_last_error());
  }
  int64_t me = rank, x2[2] = {0, 1}, nb = 1000000, out;
  rc = minex_mpi_renumber(1, &me, x2, &nb, vd2, ngid, &out, MPI_COMM_WORLD);
  CHECK(rc == MINEX_EGRAPH && strstr(minex_last_error(), "held by no rank"),
        "unknown neighbour: %d %s", rc, minex_last_error());
  free(seen);
  free(all);
  free(cnt);
  free(off);
  free(map);
  free(want_vd);
  free(gid);
  free(loc);
  free(xadj);
  free(adj);
  free(nadj);
  free(ngid);
  free(vd);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64) {
    MPI_Finalize();
    return 1;
  }
  test_ubvec();
  test_renumber();
  int total = 0;
  MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0)
    fprintf(stderr, "test_bound_mpi: %d failures on %d ranks\n", total, size);
  MPI_Finalize();
  return total != 0;
}
