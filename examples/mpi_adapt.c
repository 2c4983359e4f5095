/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An MPI application that uses MinEX between adaptations (issue 21,
 * docs/migration.md "The application"). A tetrahedral box is adapted by
 * the moving-cylinder model of sims/ (the paper's workload); every root
 * element carries one value per leaf of its refinement tree. Each solver
 * iteration is an explicit update: every leaf of a root moves towards the
 * mean of the root's neighbours (the values of the previous iteration:
 * Jacobi), about `--flops` operations per leaf, after a non-blocking
 * exchange of the roots' means with the ranks that hold their neighbours.
 * The last rank is a half-speed processor: it repeats its work twice, and
 * the machine given to MinEX says so (Proc = 2).
 *
 * After each adaptation the run either keeps its distribution (none), or
 * repartitions with minex_mpi_repartition and moves the data with
 * minex_mpi_migrate (blocking: pack all, exchange, unpack all), or with the
 * split-phase driver (lt: the first iteration's roots that wait for nothing
 * are computed while the data travel). It prints, per adaptation interval,
 * the measured wall time (slowest rank) of repartition + migration + k
 * iterations beside the cost model's T_k of the partition (SPEC §2, in
 * weight units), and checks that the three ways compute the same numbers
 * (the sum of all values after the last interval, bit for bit).
 *
 * The adaptation model (sim_adapt) is deterministic and cheap at these
 * sizes, so every rank runs it on the whole mesh and uses its own roots'
 * trees; the roots' owners are kept on every rank (O(roots) memory). That
 * is the example's simplification, not the library's: minex_mpi_* see
 * only each rank's rows.
 *
 *   mpiexec.mpich -n 4 build/examples/mpi_adapt [--box N] [--steps S]
 *                 [--iters K] [--flops F] [--csv FILE] */
#include "adapt.h"
#include "minex_mpi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void die(const char *what, const char *msg) {
  fprintf(stderr, "mpi_adapt: rank %d: %s: %s\n", rank, what, msg);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

enum { NONE, BLOCKING, LT, NWAYS };
static const char *const way_name[NWAYS] = {"none", "blocking", "lt"};

/* The application's state on one rank. */
typedef struct app {
  int32_t n;            /* roots                                        */
  int32_t *owner;       /* n: the rank of every root (kept everywhere)  */
  double **val;         /* n: the leaves' values of the roots held here */
  int64_t *nval;        /* n: their number                              */
  double *mean;         /* n: root means (held roots and ghosts)        */
  const minex_graph *g; /* the roots' dual graph, this adaptation's weights */
  int flops;
} app;

/* Work of one leaf (the half-speed rank does it twice). */
static double leaf_work(double x, double target, int flops) {
  for (int k = 0; k < flops; k++)
    x = x + 1e-3 * (target - x);
  return x;
}

/* One root's update from the means of its neighbours (fixed order). */
static void update_root(app *A, int32_t r) {
  const int64_t *X = minex_graph_xadj(A->g);
  const int32_t *adj = minex_graph_adjncy(A->g);
  double t = 0;
  for (int64_t j = X[r]; j < X[r + 1]; j++)
    t += A->mean[adj[j]];
  if (X[r + 1] > X[r])
    t /= (double)(X[r + 1] - X[r]);
  int reps = rank == size - 1 ? 2 : 1;
  for (int rep = 0; rep < reps; rep++)
    for (int64_t i = 0; i < A->nval[r]; i++) {
      double y = leaf_work(A->val[r][i], t, A->flops);
      if (rep == reps - 1)
        A->val[r][i] = y;
    }
}

static void set_mean(app *A, int32_t r) {
  double s = 0;
  for (int64_t i = 0; i < A->nval[r]; i++)
    s += A->val[r][i];
  A->mean[r] = A->nval[r] > 0 ? s / (double)A->nval[r] : 0;
}

/* The other ranks holding a neighbour of root r, each once, into q;
 * returns their count (seen: size bytes of scratch). */
static int targets(const app *A, int32_t r, char *seen, int *q) {
  const int64_t *X = minex_graph_xadj(A->g);
  const int32_t *adj = minex_graph_adjncy(A->g);
  int nq = 0;
  memset(seen, 0, (size_t)size);
  for (int64_t j = X[r]; j < X[r + 1]; j++) {
    int o = A->owner[adj[j]];
    if (o != rank && !seen[o]) {
      seen[o] = 1;
      q[nq++] = o;
    }
  }
  return nq;
}

/* The means of held roots to the ranks holding a neighbour, and the
 * ghosts' means from them: one message per neighbouring rank each way. */
static void exchange_means(app *A) {
  const int64_t *X = minex_graph_xadj(A->g);
  const int32_t *adj = minex_graph_adjncy(A->g);
  int64_t *cnt = calloc((size_t)size, sizeof *cnt);
  int64_t *rcnt = calloc((size_t)size, sizeof *rcnt);
  /* a held root goes once to every other rank holding a neighbour */
  char *seen = calloc((size_t)size, 1);
  int *tq = malloc(sizeof *tq * (size_t)size);
  for (int32_t r = 0; r < A->n; r++)
    if (A->owner[r] == rank)
      for (int k = targets(A, r, seen, tq) - 1; k >= 0; k--)
        cnt[tq[k]]++;
  /* what comes back is symmetric: q sends a root for every root of q
     adjacent to one here, which this rank can count itself */
  for (int32_t r = 0; r < A->n; r++) {
    if (A->owner[r] == rank)
      continue;
    int here = 0;
    for (int64_t j = X[r]; j < X[r + 1] && !here; j++)
      here = A->owner[adj[j]] == rank;
    if (here)
      rcnt[A->owner[r]]++;
  }
  int64_t tot = 0, rtot = 0;
  for (int q = 0; q < size; q++) {
    tot += cnt[q];
    rtot += rcnt[q];
  }
  typedef struct {
    int32_t root;
    int32_t pad;
    double mean;
  } msg;
  msg *out = malloc(sizeof *out * (size_t)(tot + 1));
  msg *in = malloc(sizeof *in * (size_t)(rtot + 1));
  int64_t *at = calloc((size_t)size + 1, sizeof *at);
  for (int q = 0; q < size; q++)
    at[q + 1] = at[q] + cnt[q];
  int64_t *fill = malloc(sizeof *fill * (size_t)size);
  memcpy(fill, at, sizeof *fill * (size_t)size);
  for (int32_t r = 0; r < A->n; r++)
    if (A->owner[r] == rank)
      for (int k = 0, nq = targets(A, r, seen, tq); k < nq; k++)
        out[fill[tq[k]]++] = (msg){r, 0, A->mean[r]};
  MPI_Request *req = malloc(sizeof *req * 2 * (size_t)size);
  int nr = 0;
  int64_t roff = 0;
  for (int q = 0; q < size; q++) {
    if (rcnt[q] > 0)
      MPI_Irecv(in + roff, (int)(rcnt[q] * (int64_t)sizeof(msg)), MPI_BYTE, q,
                3, MPI_COMM_WORLD, &req[nr++]);
    roff += rcnt[q];
    if (cnt[q] > 0)
      MPI_Isend(out + at[q], (int)(cnt[q] * (int64_t)sizeof(msg)), MPI_BYTE, q,
                3, MPI_COMM_WORLD, &req[nr++]);
  }
  for (int i = 0; i < nr; i++) {
    MPI_Status st;
    MPI_Wait(&req[i], &st);
  }
  for (int64_t i = 0; i < rtot; i++)
    A->mean[in[i].root] = in[i].mean;
  free(cnt);
  free(rcnt);
  free(seen);
  free(tq);
  free(out);
  free(in);
  free(at);
  free(fill);
  free(req);
}

/* One solver iteration: means, exchange, every held root updated.
 * skip (may be NULL) marks roots already updated in this iteration. */
static void iterate(app *A, const unsigned char *skip) {
  for (int32_t r = 0; r < A->n; r++)
    if (A->owner[r] == rank && !(skip && skip[r]))
      set_mean(A, r);
  exchange_means(A);
  for (int32_t r = 0; r < A->n; r++)
    if (A->owner[r] == rank && !(skip && skip[r]))
      update_root(A, r);
}

/* ---------------------------------------------------------- migration */

/* Global ids: the held roots of each rank numbered in root order, rank
 * after rank (what minex_mpi_repartition's vtxdist describes). */
typedef struct numbering {
  int64_t vd[65];
  int64_t *gid;  /* n: every root's global id  */
  int32_t *root; /* n: the root of a global id */
} numbering;

static void number(const app *A, numbering *N) {
  int64_t cnt[65] = {0};
  for (int32_t r = 0; r < A->n; r++)
    cnt[A->owner[r] + 1]++;
  N->vd[0] = 0;
  for (int q = 0; q < size; q++)
    N->vd[q + 1] = N->vd[q] + cnt[q + 1];
  int64_t fill[65];
  memcpy(fill, N->vd, sizeof fill);
  for (int32_t r = 0; r < A->n; r++) {
    N->gid[r] = fill[A->owner[r]]++;
    N->root[N->gid[r]] = r;
  }
}

static int mig_size(void *ctx, int64_t gid, int64_t lid, size_t *bytes) {
  const app *A = ((void **)ctx)[0];
  const numbering *N = ((void **)ctx)[1];
  (void)lid;
  *bytes = sizeof(double) * (size_t)A->nval[N->root[gid]];
  return 0;
}

static int mig_pack(void *ctx, int64_t gid, int64_t lid, int dest, void *buf,
                    size_t bytes) {
  app *A = ((void **)ctx)[0];
  const numbering *N = ((void **)ctx)[1];
  int32_t r = N->root[gid];
  (void)lid;
  (void)dest;
  memcpy(buf, A->val[r], bytes);
  free(A->val[r]); /* it leaves */
  A->val[r] = NULL;
  return 0;
}

static int mig_unpack(void *ctx, int64_t gid, int src, const void *buf,
                      size_t bytes) {
  app *A = ((void **)ctx)[0];
  const numbering *N = ((void **)ctx)[1];
  int32_t r = N->root[gid];
  (void)src;
  A->val[r] = malloc(bytes > 0 ? bytes : 1);
  if (A->val[r] == NULL)
    return 1;
  memcpy(A->val[r], buf, bytes);
  A->nval[r] = (int64_t)(bytes / sizeof(double));
  return 0;
}

/* ---------------------------------------------------------------- run */

typedef struct interval {
  double seconds, repart, migrate, model_tk, leaves;
} interval;

/* One way through all adaptations; returns the final sum of all values. */
static double run(int way, const minex_mesh *mesh, int steps, int iters,
                  int flops, interval *out) {
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  p.nsteps = steps;
  p.iterations = iters;
  sim_adapt *sa = NULL;
  if (sim_adapt_create(mesh, &p, &sa) != MINEX_OK)
    die("sim_adapt_create", sim_last_error());
  app A = {0};
  A.n = sim_adapt_nroots(sa);
  if (A.n <= 0)
    die("sim_adapt_nroots", "no root");
  A.flops = flops;
  A.owner = malloc(sizeof *A.owner * (size_t)A.n);
  A.val = calloc((size_t)A.n, sizeof *A.val);
  A.nval = calloc((size_t)A.n, sizeof *A.nval);
  A.mean = calloc((size_t)A.n, sizeof *A.mean);
  numbering N;
  N.gid = malloc(sizeof *N.gid * (size_t)A.n);
  N.root = malloc(sizeof *N.root * (size_t)A.n);
  /* the start: roots in blocks of root ids, one value per root */
  for (int32_t r = 0; r < A.n; r++) {
    A.owner[r] = (int32_t)((int64_t)r * size / A.n);
    if (A.owner[r] == rank) {
      A.nval[r] = 1;
      A.val[r] = malloc(sizeof(double));
      A.val[r][0] = (double)(r % 17);
    }
  }
  /* the machine: size-1 processors at full speed, the last at half */
  int32_t np[2] = {size - 1, 1};
  double proc[2] = {1, 2}, conn[4] = {1, 1, 1, 1};
  minex_config *cfg = NULL;
  if (minex_config_create(2, np, proc, conn, &cfg) != MINEX_OK)
    die("minex_config_create", minex_last_error());
  minex_options opt;
  minex_options_init(&opt);
  opt.iterations = iters;
  minex_graph *g = NULL;
  for (int s = 0; s < steps; s++) {
    /* adaptation: every rank's trees (the model is deterministic) */
    if (sim_adapt_step(sa) != MINEX_OK)
      die("sim_adapt_step", sim_last_error());
    minex_graph_destroy(g);
    g = NULL;
    if (sim_adapt_graph(sa, &g) != MINEX_OK)
      die("sim_adapt_graph", sim_last_error());
    A.g = g;
    for (int32_t r = 0; r < A.n; r++) {
      if (A.owner[r] != rank)
        continue;
      sim_root_stats st;
      sim_adapt_root(sa, r, &st);
      if (st.leaves != A.nval[r]) { /* refined or coarsened: interpolate */
        set_mean(&A, r);
        double m = A.mean[r];
        free(A.val[r]);
        A.val[r] = malloc(sizeof(double) * (size_t)st.leaves);
        for (int64_t i = 0; i < st.leaves; i++)
          A.val[r][i] = m;
        A.nval[r] = st.leaves;
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), t_rep = 0, t_mig = 0;
    int32_t *old_owner = malloc(sizeof *old_owner * (size_t)A.n);
    memcpy(old_owner, A.owner, sizeof *old_owner * (size_t)A.n);
    unsigned char *early = NULL;
    if (way != NONE) {
      /* this rank's rows in global ids */
      number(&A, &N);
      int64_t first = N.vd[rank], nl = N.vd[rank + 1] - first;
      const int64_t *X = minex_graph_xadj(g);
      const int32_t *adj = minex_graph_adjncy(g);
      int64_t nnz = 0;
      for (int64_t i = 0; i < nl; i++)
        nnz += X[N.root[first + i] + 1] - X[N.root[first + i]];
      int64_t *xadj = malloc(sizeof *xadj * (size_t)(nl + 1));
      int64_t *ad = malloc(sizeof *ad * (size_t)(nnz + 1));
      double *pw = malloc(sizeof *pw * (size_t)(nl + 1));
      double *rw = malloc(sizeof *rw * (size_t)(nl + 1));
      double *cw = malloc(sizeof *cw * (size_t)(nnz + 1));
      int32_t *newp = malloc(sizeof *newp * (size_t)(nl + 1));
      xadj[0] = 0;
      for (int64_t i = 0; i < nl; i++) {
        int32_t r = N.root[first + i];
        int64_t o = xadj[i];
        for (int64_t j = X[r]; j < X[r + 1]; j++) {
          ad[o + j - X[r]] = N.gid[adj[j]];
          cw[o + j - X[r]] = minex_graph_cwgt(g)[j];
        }
        xadj[i + 1] = o + X[r + 1] - X[r];
        pw[i] = minex_graph_pwgt(g)[r];
        rw[i] = minex_graph_rwgt(g)[r];
      }
      if (minex_mpi_repartition(N.vd, xadj, ad, pw, rw, cw, NULL, cfg, &opt,
                                newp, NULL, MPI_COMM_WORLD) != MINEX_OK)
        die("minex_mpi_repartition", minex_last_error());
      t_rep = MPI_Wtime() - t0;
      double t1 = MPI_Wtime();
      minex_mpi_lists *l = NULL;
      if (minex_mpi_lists_create(N.vd, newp, size, NULL, &l, MPI_COMM_WORLD) !=
          MINEX_OK)
        die("minex_mpi_lists_create", minex_last_error());
      /* everyone's new owners (the example keeps them all) */
      int *counts = malloc(sizeof *counts * (size_t)size);
      int *displs = malloc(sizeof *displs * (size_t)size);
      for (int q = 0; q < size; q++) {
        counts[q] = (int)(N.vd[q + 1] - N.vd[q]);
        displs[q] = (int)N.vd[q];
      }
      int32_t *all = malloc(sizeof *all * (size_t)A.n);
      MPI_Allgatherv(newp, (int)nl, MPI_INT32_T, all, counts, displs,
                     MPI_INT32_T, MPI_COMM_WORLD);
      void *ctx[2] = {&A, &N};
      minex_mpi_migrate_fns f = {0};
      f.size = mig_size;
      f.pack = mig_pack;
      f.unpack = mig_unpack;
      f.ctx = ctx;
      if (way == BLOCKING) {
        if (minex_mpi_migrate(l, &f, 0, MPI_COMM_WORLD) != MINEX_OK)
          die("minex_mpi_migrate", minex_last_error());
        for (int64_t g2 = 0; g2 < A.n; g2++)
          A.owner[N.root[g2]] = all[g2];
      } else {
        minex_mpi_migration *m = NULL;
        if (minex_mpi_migrate_begin(l, &f, MPI_COMM_WORLD, &m) != MINEX_OK)
          die("minex_mpi_migrate_begin", minex_last_error());
        for (int64_t g2 = 0; g2 < A.n; g2++)
          A.owner[N.root[g2]] = all[g2];
        /* step 3: the roots that stay here and whose neighbours all stay
           here wait for nothing: their first iteration now */
        early = calloc(A.n > 0 ? (size_t)A.n : 1, 1);
        for (int32_t r = 0; r < A.n; r++) {
          if (A.owner[r] != rank || old_owner[r] != rank)
            continue;
          int ok = 1;
          for (int64_t j = X[r]; j < X[r + 1] && ok; j++)
            ok = A.owner[adj[j]] == rank && old_owner[adj[j]] == rank;
          early[r] = (unsigned char)ok;
        }
        /* their neighbours' means: every root that stays here (the
           values of the previous iteration, as iterate takes them) */
        for (int32_t r = 0; r < A.n; r++)
          if (A.owner[r] == rank && old_owner[r] == rank)
            set_mean(&A, r);
        int done = 0;
        int32_t r = 0;
        while (r < A.n) { /* compute in slices, progress between them */
          int32_t e = r + 256 < A.n ? r + 256 : A.n;
          for (; r < e; r++)
            if (early[r])
              update_root(&A, r);
          if (!done && minex_mpi_migrate_progress(m, &done, NULL))
            die("minex_mpi_migrate_progress", minex_last_error());
        }
        if (minex_mpi_migrate_end(m) != MINEX_OK)
          die("minex_mpi_migrate_end", minex_last_error());
      }
      t_mig = MPI_Wtime() - t1;
      minex_mpi_lists_destroy(l);
      free(counts);
      free(displs);
      free(all);
      free(xadj);
      free(ad);
      free(pw);
      free(rw);
      free(cw);
      free(newp);
    }
    /* the model's T_k of the partition the interval runs on */
    minex_metrics met;
    if (minex_evaluate(g, cfg, old_owner, A.owner, &opt, &met) != MINEX_OK)
      die("minex_evaluate", minex_last_error());
    /* k iterations (the first one's early roots are done already) */
    for (int it = 0; it < iters; it++)
      iterate(&A, it == 0 ? early : NULL);
    double dt = MPI_Wtime() - t0, mx;
    MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double rmx, mmx;
    MPI_Allreduce(&t_rep, &rmx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&t_mig, &mmx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    out[s] = (interval){mx, rmx, mmx, met.horizon_time,
                        (double)sim_adapt_leaves(sa)};
    free(early);
    free(old_owner);
  }
  /* the numbers: every value, summed in root order on rank 0 */
  double local = 0, *sums = calloc((size_t)A.n, sizeof *sums), *all = NULL;
  for (int32_t r = 0; r < A.n; r++)
    if (A.owner[r] == rank)
      for (int64_t i = 0; i < A.nval[r]; i++)
        sums[r] += A.val[r][i];
  if (rank == 0)
    all = calloc((size_t)A.n, sizeof *all);
  MPI_Reduce(sums, all, A.n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  for (int32_t r = 0; rank == 0 && r < A.n; r++)
    local += all[r];
  MPI_Bcast(&local, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  free(sums);
  free(all);
  for (int32_t r = 0; r < A.n; r++)
    free(A.val[r]);
  free(A.val);
  free(A.nval);
  free(A.mean);
  free(A.owner);
  free(N.gid);
  free(N.root);
  minex_graph_destroy(g);
  minex_config_destroy(cfg);
  sim_adapt_destroy(sa);
  return local;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int box = 8, steps = 4, iters = 10, flops = 20;
  const char *csv = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--box") && i + 1 < argc)
      box = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--steps") && i + 1 < argc)
      steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--iters") && i + 1 < argc)
      iters = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--flops") && i + 1 < argc)
      flops = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
      csv = argv[++i];
    else
      die("usage", "mpi_adapt [--box N] [--steps S] [--iters K] [--flops F] "
                   "[--csv FILE]");
  }
  if (box < 1 || steps < 1 || steps > 64 || iters < 1 || flops < 1 ||
      size > 64 || size < 2)
    die("arguments", "box, steps (<= 64), iters, flops >= 1; 2 to 64 ranks");
  minex_mesh *mesh = NULL;
  if (minex_gen_box(box, box, box, &mesh) != MINEX_OK)
    die("minex_gen_box", minex_last_error());
  interval res[NWAYS][64];
  double sum[NWAYS];
  for (int w = 0; w < NWAYS; w++)
    sum[w] = run(w, mesh, steps, iters, flops, res[w]);
  minex_mesh_destroy(mesh);
  int same = sum[NONE] == sum[BLOCKING] && sum[NONE] == sum[LT];
  if (rank == 0) {
    printf("mpi_adapt: %d ranks (the last at half speed), %d tets, %d "
           "adaptations, k = %d iterations each, %d flops per leaf\n",
           size, 6 * box * box * box, steps, iters, flops);
    printf("%-4s %-9s %10s %10s %10s %10s %12s %12s\n", "step", "way", "leaves",
           "seconds", "repart", "migrate", "model T_k", "s per 1e6 T_k");
    for (int s = 0; s < steps; s++)
      for (int w = 0; w < NWAYS; w++)
        printf("%-4d %-9s %10.0f %10.4f %10.4f %10.4f %12.0f %12.4f\n", s + 1,
               way_name[w], res[w][s].leaves, res[w][s].seconds,
               res[w][s].repart, res[w][s].migrate, res[w][s].model_tk,
               1e6 * res[w][s].seconds / res[w][s].model_tk);
    double tot[NWAYS] = {0};
    for (int w = 0; w < NWAYS; w++)
      for (int s = 0; s < steps; s++)
        tot[w] += res[w][s].seconds;
    printf("total seconds: none %.3f, blocking %.3f, lt %.3f; the same "
           "numbers in all three: %s (sum %.17g)\n",
           tot[NONE], tot[BLOCKING], tot[LT], same ? "yes" : "NO", sum[NONE]);
    if (csv != NULL) {
      FILE *f = fopen(csv, "w");
      if (f == NULL)
        die("--csv", csv);
      fprintf(f, "step,way,leaves,seconds,repart,migrate,model_tk\n");
      for (int s = 0; s < steps; s++)
        for (int w = 0; w < NWAYS; w++)
          fprintf(f, "%d,%s,%.0f,%.6f,%.6f,%.6f,%.1f\n", s + 1, way_name[w],
                  res[w][s].leaves, res[w][s].seconds, res[w][s].repart,
                  res[w][s].migrate, res[w][s].model_tk);
      fclose(f);
    }
  }
  MPI_Finalize();
  return same ? 0 : 1;
}
