/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An MPI application that uses MinEX between adaptations
 * (docs/guide/migration.md "The application"). A tetrahedral box is adapted by
 * the moving-cylinder model of sims/ (the paper's workload); every root
 * element carries one value per leaf of its refinement tree. Each rank
 * adapts only the roots it holds: the model decides a root's refinement
 * from its own tree and geometry, so the adaptation needs no message, and
 * a root's data are its tree (its split codes, sim_adapt_tree_pack) and
 * its leaves' values, which move together when MinEX moves the root. Each
 * solver iteration is an explicit update: every leaf of a root moves
 * towards the mean of the root's neighbours (the values of the previous
 * iteration: Jacobi), about `--flops` operations per leaf, after a
 * non-blocking exchange of the roots' means with the ranks that hold their
 * neighbours. The last rank is a half-speed processor: it repeats its work
 * twice, and the machine given to MinEX says so (Proc = 2).
 *
 * After each adaptation every rank builds its rows of the roots' dual graph
 * in global ids (Pwgt = leaves, Rwgt = tree elements, Cwgt = the finer of
 * the two sides' tilings of the shared face; a neighbour held elsewhere
 * sends its tiling in a non-blocking ghost exchange), and the run either
 * keeps its distribution (none), or repartitions with
 * minex_mpi_repartition and moves the data with minex_mpi_migrate
 * (blocking: pack all, exchange, unpack all), or with the split-phase
 * driver (lt: the first iteration's roots that wait for nothing are
 * computed while the data travel). It prints, per adaptation interval, the
 * measured wall time (slowest rank) of repartition + migration + k
 * iterations beside the cost model's T_k of the partition (SPEC §2, in
 * weight units), and checks that the three ways compute the same numbers
 * (the sum of all values after the last interval, bit for bit).
 *
 * Kept on every rank (O(roots)): the mesh (every rank generates the box),
 * the forest's per-root geometry and adjacency (sim_adapt_create), the
 * roots' owners and per-root scratch arrays. The model's T_k is evaluated
 * on rank 0 from every rank's rows, after the interval: it is the
 * report's, not the loop's. With --check rank 0 also runs the model on the
 * whole mesh and compares after every adaptation each root's leaves,
 * elements, face tilings and tree (a hash of its bytes), and the gathered
 * rows' weights, with it; a difference is printed and the run exits with
 * status 1.
 *
 *   mpiexec.mpich -n 4 build/examples/mpi_adapt [--box N] [--steps S]
 *                 [--iters K] [--flops F] [--csv FILE] [--check]
 *                 [--rounds on|off|auto]
 * --rounds: options.rounds; auto (the default) and on run the distributed
 * kernel (stage 2 of minex_mpi_repartition), off gathers the graph on rank
 * 0 (stage 1, docs/design/distributed.md).
 *
 * Uses the public headers of MinEX only (minex_mpi.h); adapt.h is the
 * workload model (sims/adapt.h, adapt.c, adapt_refine.c: public API only),
 * installed beside this file in share/doc/minex/examples/mpi/ with a CMake
 * project, so the example builds from an installed MinEX
 * (docs/guide/install-mpi.md):
 *   cc -D_POSIX_C_SOURCE=200809L mpi_adapt.c adapt.c adapt_refine.c \
 *      $(pkg-config --cflags --libs minex_mpi) -lm -o mpi_adapt
 */
#include "adapt.h" /* the workload model, shipped with the example */
#include "minex_mpi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --flops: the operations of one leaf's update per iteration; the default
 * is the order of an explicit high-order element's update (a few thousand
 * flops), where a step's work, not the repartitioning, sets the pace */
#define MPI_ADAPT_FLOPS 2000

static int rank, size;
static int rounds = MINEX_ROUNDS_AUTO; /* --rounds: options.rounds */

static void die(const char *what, const char *msg) {
  fprintf(stderr, "mpi_adapt: rank %d: %s: %s\n", rank, what, msg);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

enum { NONE, BLOCKING, LT, NWAYS };
static const char *const way_name[NWAYS] = {"none", "blocking", "lt"};

/* The application's state on one rank. */
typedef struct app {
  int32_t n;         /* roots                                          */
  sim_adapt *sa;     /* the trees of the roots held here               */
  int32_t *owner;    /* n: the rank of every root (kept everywhere)    */
  double **val;      /* n: the leaves' values of the roots held here   */
  int64_t *nval;     /* n: their number                                */
  double *mean;      /* n: root means (held roots and ghosts)          */
  int32_t (*nb)[4];  /* n: a held root's neighbours, ascending, then -1 */
  int64_t (*fc)[4];  /* n: its leaf triangles on the face shared with
                        nb[r][j], from its side                        */
  int64_t (*gf)[4];  /* n: the same face's from nb[r][j]'s side        */
  unsigned char *mk; /* n: scratch marks, all 0 between uses           */
  int flops;
} app;

static int held(const app *A, int32_t r) {
  return A->owner[r] == rank;
}

/* Where w is among root r's neighbours, or -1. */
static int slot(const app *A, int32_t r, int32_t w) {
  for (int j = 0; j < 4; j++)
    if (A->nb[r][j] == w)
      return j;
  return -1;
}

/* A held root's neighbours and its tilings of the shared faces, from its
 * tree (after an adaptation, or when it has arrived); returns its leaves. */
static int64_t refresh_root(app *A, int32_t r) {
  sim_root_stats st;
  if (sim_adapt_root(A->sa, r, &st) != MINEX_OK)
    die("sim_adapt_root", sim_last_error());
  int k = 0;
  for (int f = 0; f < 4; f++) {
    if (st.nbr[f] < 0)
      continue;
    int j = k++;
    for (; j > 0 && A->nb[r][j - 1] > st.nbr[f]; j--) {
      A->nb[r][j] = A->nb[r][j - 1];
      A->fc[r][j] = A->fc[r][j - 1];
    }
    A->nb[r][j] = st.nbr[f];
    A->fc[r][j] = st.faces[f];
  }
  for (; k < 4; k++) {
    A->nb[r][k] = -1;
    A->fc[r][k] = 0;
  }
  return st.leaves;
}

/* Work of one leaf (the half-speed rank does it twice). */
static double leaf_work(double x, double target, int flops) {
  for (int k = 0; k < flops; k++)
    x = x + 1e-3 * (target - x);
  return x;
}

/* One root's update from the means of its neighbours (ascending order). */
static void update_root(app *A, int32_t r) {
  double t = 0;
  int deg = 0;
  for (; deg < 4 && A->nb[r][deg] >= 0; deg++)
    t += A->mean[A->nb[r][deg]];
  if (deg > 0)
    t /= (double)deg;
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
  int nq = 0;
  memset(seen, 0, (size_t)size);
  for (int j = 0; j < 4 && A->nb[r][j] >= 0; j++) {
    int o = A->owner[A->nb[r][j]];
    if (o != rank && !seen[o]) {
      seen[o] = 1;
      q[nq++] = o;
    }
  }
  return nq;
}

/* at[q] = the first of rank q's items when cnt[q] go to each rank q, in
 * rank order (size + 1 entries); returns the total. */
static int64_t offsets(const int64_t *cnt, int64_t *at) {
  at[0] = 0;
  for (int q = 0; q < size; q++)
    at[q + 1] = at[q] + cnt[q];
  return at[size];
}

/* Sends cnt[q] items of `item` bytes to every rank q (from out, rank after
 * rank) and receives rcnt[q] from each (into in, rank after rank):
 * non-blocking, one message each way per neighbouring rank. */
static void exchange(const void *out, const int64_t *cnt, void *in,
                     const int64_t *rcnt, size_t item, int tag) {
  MPI_Request *req = malloc(sizeof *req * 2 * (size_t)size);
  if (req == NULL)
    die("exchange", "out of memory");
  int nr = 0;
  int64_t so = 0, ro = 0;
  for (int q = 0; q < size; q++) {
    if (rcnt[q] > 0)
      MPI_Irecv((char *)in + (size_t)ro * item, (int)((size_t)rcnt[q] * item),
                MPI_BYTE, q, tag, MPI_COMM_WORLD, &req[nr++]);
    ro += rcnt[q];
    if (cnt[q] > 0)
      MPI_Isend((const char *)out + (size_t)so * item,
                (int)((size_t)cnt[q] * item), MPI_BYTE, q, tag, MPI_COMM_WORLD,
                &req[nr++]);
    so += cnt[q];
  }
  for (int i = 0; i < nr; i++) {
    MPI_Status st;
    MPI_Wait(&req[i], &st);
  }
  free(req);
}

/* The means of held roots to the ranks holding a neighbour, and the
 * ghosts' means from them: one message per neighbouring rank each way. */
static void exchange_means(app *A) {
  int64_t *cnt = calloc((size_t)size, sizeof *cnt);
  int64_t *rcnt = calloc((size_t)size, sizeof *rcnt);
  int64_t *at = malloc(sizeof *at * ((size_t)size + 1));
  int64_t *fill = malloc(sizeof *fill * ((size_t)size + 1));
  char *seen = calloc((size_t)size, 1);
  int *tq = malloc(sizeof *tq * (size_t)size);
  if (!cnt || !rcnt || !at || !fill || !seen || !tq)
    die("exchange_means", "out of memory");
  /* a held root goes once to every other rank holding a neighbour; each
     ghost (a neighbour held elsewhere) comes once from its rank */
  for (int32_t r = 0; r < A->n; r++) {
    if (!held(A, r))
      continue;
    for (int k = targets(A, r, seen, tq) - 1; k >= 0; k--)
      cnt[tq[k]]++;
    for (int j = 0; j < 4 && A->nb[r][j] >= 0; j++) {
      int32_t w = A->nb[r][j];
      if (!held(A, w) && !A->mk[w]) {
        A->mk[w] = 1;
        rcnt[A->owner[w]]++;
      }
    }
  }
  for (int32_t r = 0; r < A->n; r++)
    if (held(A, r))
      for (int j = 0; j < 4 && A->nb[r][j] >= 0; j++)
        A->mk[A->nb[r][j]] = 0;
  int64_t tot = offsets(cnt, at), rtot = offsets(rcnt, fill);
  typedef struct {
    int32_t root;
    int32_t pad;
    double mean;
  } msg;
  msg *out = malloc(sizeof *out * (size_t)(tot + 1));
  msg *in = malloc(sizeof *in * (size_t)(rtot + 1));
  if (!out || !in)
    die("exchange_means", "out of memory");
  memcpy(fill, at, sizeof *fill * (size_t)size);
  for (int32_t r = 0; r < A->n; r++)
    if (held(A, r))
      for (int k = 0, nq = targets(A, r, seen, tq); k < nq; k++)
        out[fill[tq[k]]++] = (msg){r, 0, A->mean[r]};
  exchange(out, cnt, in, rcnt, sizeof(msg), 3);
  for (int64_t i = 0; i < rtot; i++)
    A->mean[in[i].root] = in[i].mean;
  free(cnt);
  free(rcnt);
  free(at);
  free(fill);
  free(seen);
  free(tq);
  free(out);
  free(in);
}

/* The ghost exchange of the face tilings: for every face a held root
 * shares with a root held elsewhere, this side's leaf triangles go to that
 * rank and that side's come from it (the faces between two ranks are the
 * same seen from either: as many come as go). Then gf holds the other
 * side's tiling of every face of every held root. */
static void exchange_faces(app *A) {
  typedef struct {
    int32_t to, from; /* the face of root `to` shared with root `from`  */
    int64_t faces;    /* from's leaf triangles on it                     */
  } fmsg;
  int64_t *cnt = calloc((size_t)size, sizeof *cnt);
  int64_t *at = malloc(sizeof *at * ((size_t)size + 1));
  if (!cnt || !at)
    die("exchange_faces", "out of memory");
  for (int32_t r = 0; r < A->n; r++)
    if (held(A, r))
      for (int j = 0; j < 4 && A->nb[r][j] >= 0; j++)
        if (!held(A, A->nb[r][j]))
          cnt[A->owner[A->nb[r][j]]]++;
  int64_t tot = offsets(cnt, at);
  fmsg *out = malloc(sizeof *out * (size_t)(tot + 1));
  fmsg *in = malloc(sizeof *in * (size_t)(tot + 1));
  if (!out || !in)
    die("exchange_faces", "out of memory");
  for (int32_t r = 0; r < A->n; r++) {
    if (!held(A, r))
      continue;
    for (int j = 0; j < 4 && A->nb[r][j] >= 0; j++) {
      int32_t w = A->nb[r][j];
      if (held(A, w)) /* both sides here */
        A->gf[r][j] = A->fc[w][slot(A, w, r)];
      else
        out[at[A->owner[w]]++] = (fmsg){w, r, A->fc[r][j]};
    }
  }
  exchange(out, cnt, in, cnt, sizeof(fmsg), 4);
  for (int64_t i = 0; i < tot; i++) {
    int32_t r = in[i].to;
    int j = r >= 0 && r < A->n && held(A, r) ? slot(A, r, in[i].from) : -1;
    if (j < 0)
      die("exchange_faces", "a tiling of a face this rank does not hold");
    A->gf[r][j] = in[i].faces;
  }
  free(cnt);
  free(at);
  free(out);
  free(in);
}

/* One solver iteration: means, exchange, every held root updated.
 * skip (may be NULL) marks roots already updated in this iteration. */
static void iterate(app *A, const unsigned char *skip) {
  for (int32_t r = 0; r < A->n; r++)
    if (held(A, r) && !(skip && skip[r]))
      set_mean(A, r);
  exchange_means(A);
  for (int32_t r = 0; r < A->n; r++)
    if (held(A, r) && !(skip && skip[r]))
      update_root(A, r);
}

/* ------------------------------------------------ the rows of the graph */

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

/* This rank's rows of the roots' dual graph, in global ids. */
typedef struct rows {
  int64_t nl;           /* rows: global ids vd[rank] .. vd[rank] + nl - 1 */
  int64_t *xadj, *adj;  /* local CSR, global neighbour ids                */
  double *pw, *rw, *cw; /* leaves, tree elements, finer face tiling       */
} rows;

static void rows_build(const app *A, const numbering *N, rows *R) {
  const int64_t first = N->vd[rank], nl = N->vd[rank + 1] - first;
  R->nl = nl;
  R->xadj = malloc(sizeof *R->xadj * (size_t)(nl + 1));
  R->adj = malloc(sizeof *R->adj * (size_t)(4 * nl + 1));
  R->pw = malloc(sizeof *R->pw * (size_t)(nl + 1));
  R->rw = malloc(sizeof *R->rw * (size_t)(nl + 1));
  R->cw = malloc(sizeof *R->cw * (size_t)(4 * nl + 1));
  if (!R->xadj || !R->adj || !R->pw || !R->rw || !R->cw)
    die("rows_build", "out of memory");
  R->xadj[0] = 0;
  for (int64_t i = 0; i < nl; i++) {
    int32_t r = N->root[first + i];
    int64_t o = R->xadj[i];
    for (int j = 0; j < 4 && A->nb[r][j] >= 0; j++, o++) {
      R->adj[o] = N->gid[A->nb[r][j]];
      R->cw[o] =
          (double)(A->fc[r][j] > A->gf[r][j] ? A->fc[r][j] : A->gf[r][j]);
    }
    R->xadj[i + 1] = o;
    R->pw[i] = (double)A->nval[r];
    R->rw[i] = (double)sim_adapt_tree_size(A->sa, r);
  }
}

static void rows_free(rows *R) {
  free(R->xadj);
  free(R->adj);
  free(R->pw);
  free(R->rw);
  free(R->cw);
}

/* Every rank's n items of type t, per_rank[q] from rank q, into all on
 * rank 0 (rank order). */
static void gather(const void *mine, int64_t n, MPI_Datatype t, void *all,
                   const int64_t *per_rank) {
  int *cnt = NULL, *dsp = NULL;
  if (rank == 0) {
    cnt = malloc(sizeof *cnt * (size_t)size);
    dsp = malloc(sizeof *dsp * (size_t)size);
    if (!cnt || !dsp)
      die("gather", "out of memory");
    for (int q = 0, d = 0; q < size; d += cnt[q], q++) {
      cnt[q] = (int)per_rank[q];
      dsp[q] = d;
    }
  }
  MPI_Gatherv(mine, (int)n, t, all, cnt, dsp, t, 0, MPI_COMM_WORLD);
  free(cnt);
  free(dsp);
}

/* Rank 0: the whole dual graph from every rank's rows (global id order),
 * for the model's T_k and --check; NULL on the other ranks. */
static minex_graph *rows_gather(const rows *R, const numbering *N) {
  const int64_t n = N->vd[size], nnz = R->xadj[R->nl];
  int64_t nls[64], nnzs[64];
  for (int q = 0; q < size; q++)
    nls[q] = N->vd[q + 1] - N->vd[q];
  MPI_Gather(&nnz, 1, MPI_INT64_T, nnzs, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
  int64_t m = 0;
  for (int q = 0; rank == 0 && q < size; q++)
    m += nnzs[q];
  int64_t *deg = malloc(sizeof *deg * (size_t)(R->nl + 1));
  int64_t *xadj = NULL, *adj = NULL;
  double *pw = NULL, *rw = NULL, *cw = NULL;
  if (rank == 0) {
    xadj = malloc(sizeof *xadj * (size_t)(n + 1));
    adj = malloc(sizeof *adj * (size_t)(m + 1));
    pw = malloc(sizeof *pw * (size_t)n);
    rw = malloc(sizeof *rw * (size_t)n);
    cw = malloc(sizeof *cw * (size_t)(m + 1));
    if (!xadj || !adj || !pw || !rw || !cw)
      die("rows_gather", "out of memory");
  }
  if (deg == NULL)
    die("rows_gather", "out of memory");
  for (int64_t i = 0; i < R->nl; i++)
    deg[i] = R->xadj[i + 1] - R->xadj[i];
  gather(deg, R->nl, MPI_INT64_T, rank == 0 ? xadj + 1 : NULL, nls);
  gather(R->adj, nnz, MPI_INT64_T, adj, nnzs);
  gather(R->pw, R->nl, MPI_DOUBLE, pw, nls);
  gather(R->rw, R->nl, MPI_DOUBLE, rw, nls);
  gather(R->cw, nnz, MPI_DOUBLE, cw, nnzs);
  minex_graph *g = NULL;
  if (rank == 0) {
    xadj[0] = 0;
    for (int64_t v = 0; v < n; v++)
      xadj[v + 1] += xadj[v];
    int32_t *a32 = malloc(sizeof *a32 * (size_t)(m + 1));
    if (a32 == NULL)
      die("rows_gather", "out of memory");
    for (int64_t j = 0; j < m; j++)
      a32[j] = (int32_t)adj[j];
    if (minex_graph_create((int32_t)n, xadj, a32, pw, rw, cw, &g) != MINEX_OK)
      die("minex_graph_create (the gathered rows)", minex_last_error());
    free(a32);
  }
  free(deg);
  free(xadj);
  free(adj);
  free(pw);
  free(rw);
  free(cw);
  return g;
}

/* ------------------------------------------------------------- --check */

/* Per root: leaves, elements, the leaf triangles on its 4 faces (mesh
 * order) and a hash of its tree's bytes (FNV-1a, 63 bits). */
enum { NSTAT = 7 };

static void root_stats(const sim_adapt *a, int32_t r, int64_t *s) {
  sim_root_stats st;
  if (sim_adapt_root(a, r, &st) != MINEX_OK)
    die("sim_adapt_root", sim_last_error());
  s[0] = st.leaves;
  s[1] = st.elements;
  for (int f = 0; f < 4; f++)
    s[2 + f] = st.faces[f];
  size_t len = sim_adapt_tree_size(a, r);
  unsigned char *b = malloc(len);
  if (b == NULL || sim_adapt_tree_pack(a, r, b, len) != MINEX_OK)
    die("sim_adapt_tree_pack", sim_last_error());
  uint64_t h = 1469598103934665603u;
  for (size_t i = 0; i < len; i++)
    h = (h ^ b[i]) * 1099511628211u;
  s[6] = (int64_t)(h >> 1);
  free(b);
}

static int64_t check_failures; /* rank 0: differences found by --check */

static void differs(const char *way, int step, int32_t root, const char *what,
                    double here, double model) {
  if (check_failures++ < 8)
    fprintf(stderr,
            "mpi_adapt: --check: way %s, adaptation %d, root %d: %s %.17g "
            "distributed, %.17g in the whole-mesh model\n",
            way, step, (int)root, what, here, model);
}

/* The distributed state after an adaptation against the whole-mesh model
 * ref (rank 0's; NULL elsewhere): every root's stats, and g, the gathered
 * rows, against the model's graph. Collective. */
static void check_step(const app *A, const numbering *N, const minex_graph *g,
                       const sim_adapt *ref, const char *way, int step) {
  static const char *const stat_name[NSTAT] = {
      "leaves", "elements", "face 0", "face 1", "face 2", "face 3", "tree"};
  const int64_t nl = N->vd[rank + 1] - N->vd[rank];
  int64_t *mine = malloc(sizeof *mine * (size_t)(NSTAT * nl + 1));
  int64_t *all =
      rank == 0 ? malloc(sizeof *all * (size_t)(NSTAT * A->n)) : NULL;
  if (mine == NULL || (rank == 0 && all == NULL))
    die("--check", "out of memory");
  for (int64_t i = 0; i < nl; i++)
    root_stats(A->sa, N->root[N->vd[rank] + i], mine + NSTAT * i);
  /* the forest holds exactly the roots the owners say */
  int64_t wrong = 0, wrong_all = 0;
  for (int32_t r = 0; r < A->n; r++)
    wrong += sim_adapt_holds(A->sa, r) != held(A, r);
  MPI_Reduce(&wrong, &wrong_all, 1, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  int64_t per[64];
  for (int q = 0; q < size; q++)
    per[q] = NSTAT * (N->vd[q + 1] - N->vd[q]);
  gather(mine, NSTAT * nl, MPI_INT64_T, all, per);
  free(mine);
  if (rank != 0)
    return;
  if (wrong_all > 0)
    differs(way, step, -1, "roots held against the owners", (double)wrong_all,
            0);
  minex_graph *h = NULL;
  if (sim_adapt_graph(ref, &h) != MINEX_OK)
    die("sim_adapt_graph", sim_last_error());
  const int64_t *gx = minex_graph_xadj(g), *hx = minex_graph_xadj(h);
  const int32_t *ga = minex_graph_adjncy(g), *ha = minex_graph_adjncy(h);
  for (int64_t v = 0; v < A->n; v++) {
    int32_t r = N->root[v];
    int64_t s[NSTAT];
    root_stats(ref, r, s);
    for (int i = 0; i < NSTAT; i++)
      if (all[NSTAT * v + i] != s[i])
        differs(way, step, r, stat_name[i], (double)all[NSTAT * v + i],
                (double)s[i]);
    if (minex_graph_pwgt(g)[v] != minex_graph_pwgt(h)[r])
      differs(way, step, r, "Pwgt", minex_graph_pwgt(g)[v],
              minex_graph_pwgt(h)[r]);
    if (minex_graph_rwgt(g)[v] != minex_graph_rwgt(h)[r])
      differs(way, step, r, "Rwgt", minex_graph_rwgt(g)[v],
              minex_graph_rwgt(h)[r]);
    if (gx[v + 1] - gx[v] != hx[r + 1] - hx[r]) {
      differs(way, step, r, "degree", (double)(gx[v + 1] - gx[v]),
              (double)(hx[r + 1] - hx[r]));
      continue;
    }
    /* both sorted: by global id here, by root there; compare by root */
    for (int64_t j = hx[r]; j < hx[r + 1]; j++) {
      int64_t k = gx[v];
      while (k < gx[v + 1] && N->root[ga[k]] != ha[j])
        k++;
      if (k == gx[v + 1])
        differs(way, step, r, "neighbour missing", -1, ha[j]);
      else if (minex_graph_cwgt(g)[k] != minex_graph_cwgt(h)[j])
        differs(way, step, r, "Cwgt", minex_graph_cwgt(g)[k],
                minex_graph_cwgt(h)[j]);
    }
  }
  minex_graph_destroy(h);
  free(all);
}

/* ---------------------------------------------------------- migration */

/* A root's data: its tree's byte count (int64), its tree, its values. */
static int mig_size(void *ctx, int64_t gid, int64_t lid, size_t *bytes) {
  const app *A = ((void **)ctx)[0];
  const numbering *N = ((void **)ctx)[1];
  int32_t r = N->root[gid];
  (void)lid;
  *bytes = sizeof(int64_t) + sim_adapt_tree_size(A->sa, r) +
           sizeof(double) * (size_t)A->nval[r];
  return 0;
}

static int mig_pack(void *ctx, int64_t gid, int64_t lid, int dest, void *buf,
                    size_t bytes) {
  app *A = ((void **)ctx)[0];
  const numbering *N = ((void **)ctx)[1];
  int32_t r = N->root[gid];
  unsigned char *b = buf;
  int64_t nt = (int64_t)sim_adapt_tree_size(A->sa, r);
  (void)lid;
  (void)dest;
  memcpy(b, &nt, sizeof nt);
  if (sim_adapt_tree_pack(A->sa, r, b + sizeof nt, (size_t)nt) != MINEX_OK ||
      sim_adapt_tree_drop(A->sa, r) != MINEX_OK) { /* it leaves */
    fprintf(stderr, "mpi_adapt: rank %d: %s\n", rank, sim_last_error());
    return 1;
  }
  memcpy(b + sizeof nt + nt, A->val[r], bytes - sizeof nt - (size_t)nt);
  free(A->val[r]);
  A->val[r] = NULL;
  return 0;
}

static int mig_unpack(void *ctx, int64_t gid, int src, const void *buf,
                      size_t bytes) {
  app *A = ((void **)ctx)[0];
  const numbering *N = ((void **)ctx)[1];
  int32_t r = N->root[gid];
  const unsigned char *b = buf;
  int64_t nt = -1;
  sim_root_stats st;
  (void)src;
  if (bytes >= sizeof nt)
    memcpy(&nt, b, sizeof nt);
  if (nt < 1 || (size_t)nt > bytes - sizeof nt ||
      (bytes - sizeof nt - (size_t)nt) % sizeof(double) != 0) {
    fprintf(stderr,
            "mpi_adapt: rank %d: root %d: %zu bytes arrived, not a "
            "tree and values\n",
            rank, (int)r, bytes);
    return 1;
  }
  if (sim_adapt_tree_unpack(A->sa, r, b + sizeof nt, (size_t)nt) != MINEX_OK ||
      sim_adapt_root(A->sa, r, &st) != MINEX_OK) {
    fprintf(stderr, "mpi_adapt: rank %d: %s\n", rank, sim_last_error());
    return 1;
  }
  size_t nv = (bytes - sizeof nt - (size_t)nt) / sizeof(double);
  if ((int64_t)nv != st.leaves) {
    fprintf(stderr,
            "mpi_adapt: rank %d: root %d: %zu values for %lld "
            "leaves\n",
            rank, (int)r, nv, (long long)st.leaves);
    return 1;
  }
  A->val[r] = malloc(nv > 0 ? sizeof(double) * nv : 1);
  if (A->val[r] == NULL)
    return 1;
  memcpy(A->val[r], b + sizeof nt + nt, sizeof(double) * nv);
  A->nval[r] = (int64_t)nv;
  return 0;
}

/* ---------------------------------------------------------------- run */

typedef struct interval {
  double seconds, repart, migrate, model_tk, leaves;
} interval;

/* Rank 0: T_k of moving from the owners before the interval (global id
 * order: the ranks of vtxdist) to A's now, on the gathered graph g;
 * broadcast to every rank. */
static double model_tk(const app *A, const numbering *N, const minex_graph *g,
                       const minex_config *cfg, const minex_options *opt) {
  double tk = 0;
  if (rank == 0) {
    int32_t *old = malloc(sizeof *old * (size_t)A->n);
    int32_t *now = malloc(sizeof *now * (size_t)A->n);
    if (old == NULL || now == NULL)
      die("model_tk", "out of memory");
    for (int q = 0; q < size; q++)
      for (int64_t v = N->vd[q]; v < N->vd[q + 1]; v++) {
        old[v] = q;
        now[v] = A->owner[N->root[v]];
      }
    minex_metrics met;
    if (minex_evaluate(g, cfg, old, now, opt, &met) != MINEX_OK)
      die("minex_evaluate", minex_last_error());
    tk = met.horizon_time;
    free(old);
    free(now);
  }
  MPI_Bcast(&tk, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return tk;
}

/* One way through all adaptations; returns the final sum of all values.
 * check: rank 0 compares every adaptation with the whole-mesh model. */
static double run(int way, const minex_mesh *mesh, int steps, int iters,
                  int flops, int check, interval *out) {
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  p.nsteps = steps;
  p.iterations = iters;
  app A = {0};
  if (sim_adapt_create(mesh, &p, &A.sa) != MINEX_OK)
    die("sim_adapt_create", sim_last_error());
  sim_adapt *ref = NULL; /* --check: the model on the whole mesh */
  if (check && rank == 0 && sim_adapt_create(mesh, &p, &ref) != MINEX_OK)
    die("sim_adapt_create", sim_last_error());
  A.n = sim_adapt_nroots(A.sa);
  if (A.n <= 0)
    die("sim_adapt_nroots", "no root");
  A.flops = flops;
  A.owner = malloc(sizeof *A.owner * (size_t)A.n);
  A.val = calloc((size_t)A.n, sizeof *A.val);
  A.nval = calloc((size_t)A.n, sizeof *A.nval);
  A.mean = calloc((size_t)A.n, sizeof *A.mean);
  A.nb = malloc(sizeof *A.nb * (size_t)A.n);
  A.fc = malloc(sizeof *A.fc * (size_t)A.n);
  A.gf = malloc(sizeof *A.gf * (size_t)A.n);
  A.mk = calloc((size_t)A.n, 1);
  numbering N;
  N.gid = malloc(sizeof *N.gid * (size_t)A.n);
  N.root = malloc(sizeof *N.root * (size_t)A.n);
  if (!A.owner || !A.val || !A.nval || !A.mean || !A.nb || !A.fc || !A.gf ||
      !A.mk || !N.gid || !N.root)
    die("run", "out of memory");
  /* the start: roots in blocks of root ids, one value per root; each rank
     keeps the trees of its own (every root a leaf) */
  for (int32_t r = 0; r < A.n; r++) {
    A.owner[r] = (int32_t)((int64_t)r * size / A.n);
    if (A.owner[r] == rank) {
      A.nval[r] = 1;
      A.val[r] = malloc(sizeof(double));
      A.val[r][0] = (double)(r % 17);
    } else if (sim_adapt_tree_drop(A.sa, r) != MINEX_OK) {
      die("sim_adapt_tree_drop", sim_last_error());
    }
  }
  /* the machine: size-1 processors at full speed, the last at half */
  int32_t np[2] = {size - 1, 1};
  double proc[2] = {1, 2}, conn[4] = {1, 1, 1, 1};
  minex_config *cfg = NULL;
  int rc = size > 1 ? minex_config_create(2, np, proc, conn, &cfg)
                    : minex_config_create(1, np + 1, proc + 1, conn, &cfg);
  if (rc != MINEX_OK)
    die("minex_config_create", minex_last_error());
  minex_options opt;
  minex_options_init(&opt);
  opt.iterations = iters;
  opt.rounds =
      rounds; /* OFF: stage 1, else stage 2 (docs/design/distributed.md) */
  /* the repartitioner's large buffers kept from one adaptation to the
     next (docs/reference/api.md "A workspace for the adaptive loop") */
  if (minex_workspace_create(&opt.workspace) != MINEX_OK)
    die("minex_workspace_create", minex_last_error());
  for (int s = 0; s < steps; s++) {
    /* adaptation: each rank its own roots' trees, no message */
    if (sim_adapt_step(A.sa) != MINEX_OK)
      die("sim_adapt_step", sim_last_error());
    if (ref != NULL && sim_adapt_step(ref) != MINEX_OK)
      die("sim_adapt_step (the whole-mesh model)", sim_last_error());
    for (int32_t r = 0; r < A.n; r++) {
      if (!held(&A, r))
        continue;
      int64_t leaves = refresh_root(&A, r);
      if (leaves != A.nval[r]) { /* refined or coarsened: interpolate */
        set_mean(&A, r);
        double m = A.mean[r];
        free(A.val[r]);
        A.val[r] = malloc(sizeof(double) * (size_t)leaves);
        for (int64_t i = 0; i < leaves; i++)
          A.val[r][i] = m;
        A.nval[r] = leaves;
      }
    }
    /* this rank's rows of the dual graph: the neighbours' tilings of the
       shared faces from the ranks holding them */
    exchange_faces(&A);
    number(&A, &N);
    rows R;
    rows_build(&A, &N, &R);
    minex_graph *g = rows_gather(&R, &N); /* rank 0, for the report */
    if (check)
      check_step(&A, &N, g, ref, way_name[way], s + 1);
    int64_t lv = sim_adapt_leaves(A.sa), leaves = 0;
    MPI_Allreduce(&lv, &leaves, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), t_rep = 0, t_mig = 0;
    int32_t *old_owner = malloc(sizeof *old_owner * (size_t)A.n);
    memcpy(old_owner, A.owner, sizeof *old_owner * (size_t)A.n);
    unsigned char *early = NULL;
    if (way != NONE) {
      const int64_t nl = R.nl;
      int32_t *newp = malloc(sizeof *newp * (size_t)(nl + 1));
      if (minex_mpi_repartition(N.vd, R.xadj, R.adj, R.pw, R.rw, R.cw, NULL,
                                cfg, &opt, newp, NULL,
                                MPI_COMM_WORLD) != MINEX_OK)
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
          for (int j = 0; j < 4 && A.nb[r][j] >= 0 && ok; j++)
            ok = A.owner[A.nb[r][j]] == rank && old_owner[A.nb[r][j]] == rank;
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
      /* the arrived roots' neighbours, from their trees */
      for (int32_t r = 0; r < A.n; r++)
        if (A.owner[r] == rank && old_owner[r] != rank)
          refresh_root(&A, r);
      t_mig = MPI_Wtime() - t1;
      minex_mpi_lists_destroy(l);
      free(counts);
      free(displs);
      free(all);
      free(newp);
    }
    /* k iterations (the first one's early roots are done already) */
    for (int it = 0; it < iters; it++)
      iterate(&A, it == 0 ? early : NULL);
    double dt = MPI_Wtime() - t0, mx;
    MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double rmx, mmx;
    MPI_Allreduce(&t_rep, &rmx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&t_mig, &mmx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    /* the model's T_k of the partition the interval ran on */
    double tk = model_tk(&A, &N, g, cfg, &opt);
    out[s] = (interval){mx, rmx, mmx, tk, (double)leaves};
    minex_graph_destroy(g);
    rows_free(&R);
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
  free(A.nb);
  free(A.fc);
  free(A.gf);
  free(A.mk);
  free(N.gid);
  free(N.root);
  minex_config_destroy(cfg);
  minex_workspace_destroy(opt.workspace);
  sim_adapt_destroy(A.sa);
  sim_adapt_destroy(ref);
  return local;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int box = 8, steps = 4, iters = 10, flops = MPI_ADAPT_FLOPS, check = 0;
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
    else if (!strcmp(argv[i], "--check"))
      check = 1;
    else if (!strcmp(argv[i], "--rounds") && i + 1 < argc &&
             (!strcmp(argv[i + 1], "on") || !strcmp(argv[i + 1], "off") ||
              !strcmp(argv[i + 1], "auto"))) {
      i++;
      rounds = !strcmp(argv[i], "on")    ? MINEX_ROUNDS_ON
               : !strcmp(argv[i], "off") ? MINEX_ROUNDS_OFF
                                         : MINEX_ROUNDS_AUTO;
    } else
      die("usage", "mpi_adapt [--box N] [--steps S] [--iters K] [--flops F] "
                   "[--csv FILE] [--check] [--rounds on|off|auto]");
  }
  if (box < 1 || steps < 1 || steps > 64 || iters < 1 || flops < 1 || size > 64)
    die("arguments", "box, steps (<= 64), iters, flops >= 1; 1 to 64 ranks");
  minex_mesh *mesh = NULL;
  if (minex_gen_box(box, box, box, &mesh) != MINEX_OK)
    die("minex_gen_box", minex_last_error());
  interval res[NWAYS][64];
  double sum[NWAYS];
  for (int w = 0; w < NWAYS; w++)
    sum[w] = run(w, mesh, steps, iters, flops, check, res[w]);
  minex_mesh_destroy(mesh);
  int same = sum[NONE] == sum[BLOCKING] && sum[NONE] == sum[LT];
  MPI_Bcast(&check_failures, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
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
    /* what the repartitioning costs against what it saves */
    for (int w = BLOCKING; w <= LT; w++) {
      double rp = 0, mg = 0;
      for (int s = 0; s < steps; s++) {
        rp += res[w][s].repart;
        mg += res[w][s].migrate;
      }
      printf("%s: repartitioning %.3f s and migration %.3f s, %.1f%% of its "
             "%.3f s; %.3f of the time without repartitioning\n",
             way_name[w], rp, mg, tot[w] > 0 ? 100 * (rp + mg) / tot[w] : 0,
             tot[w], tot[NONE] > 0 ? tot[w] / tot[NONE] : 0);
    }
    if (check)
      printf("--check: every root's tree and the rows' weights equal the "
             "whole-mesh model's after every adaptation of the three ways: "
             "%s (%lld differences)\n",
             check_failures == 0 ? "yes" : "NO", (long long)check_failures);
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
  return same && check_failures == 0 ? 0 : 1;
}
