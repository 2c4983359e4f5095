/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ParMETIS_V3_AdaptiveRepart's argument list onto minex_mpi_repartition
 * (minex_parmetis.h; the mapping of every argument in docs/guide/mpi.md). */
#include "minex_parmetis.h"
#include "mpi/bound.h"
#include "mpi/mpi_comm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int last_code;
static _Thread_local double last_imbalance;
static _Thread_local int last_met = -1;

int minex_parmetis_last_error(void) {
  return last_code;
}

void minex_parmetis_last_imbalance(double *imbalance, int *met) {
  if (imbalance != NULL)
    *imbalance = last_imbalance;
  if (met != NULL)
    *met = last_met;
}

/* The arguments, read through one of the two type widths. */
typedef struct pm_in {
  int wide;  /* 1: int64_t ids; 0: int32_t */
  int rwide; /* 1: double weights; 0: float */
  const void *vtxdist, *xadj, *adjncy, *vwgt, *vsize, *adjwgt, *tpwgts;
  const void *wgtflag, *numflag, *ncon, *nparts, *itr, *options, *ubvec;
  void *edgecut, *part;
  const MPI_Comm *comm;
} pm_in;

static int64_t geti(const void *p, int wide, int64_t i) {
  return wide ? ((const int64_t *)p)[i] : ((const int32_t *)p)[i];
}

static double getr(const void *p, int rwide, int64_t i) {
  return rwide ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static int to_parmetis(int rc) {
  last_code = rc;
  switch (rc) {
  case MINEX_OK:
    return MINEX_PARMETIS_OK;
  case MINEX_ENOMEM:
    return MINEX_PARMETIS_ERROR_MEMORY;
  case MINEX_EINVAL:
  case MINEX_EGRAPH:
  case MINEX_EPART:
  case MINEX_ECONFIG:
  case MINEX_EUNSUP:
  case MINEX_ENOPROC:
    return MINEX_PARMETIS_ERROR_INPUT;
  default:
    return MINEX_PARMETIS_ERROR;
  }
}

/* The machine of nparts processors of shares tpwgts (NULL: equal):
 * consecutive equal shares form a cluster of Proc = mean share / share;
 * a zero share is an unavailable processor. */
static int pm_config(mx_comm *c, const pm_in *in, int32_t nparts,
                     minex_config **cfg) {
  *cfg = NULL;
  if (in->tpwgts == NULL) {
    int rc = minex_config_create_uniform(nparts, cfg);
    return rc == MINEX_OK ? MINEX_OK : mx_fail(c, rc, "%s", minex_last_error());
  }
  double sum = 0;
  for (int32_t p = 0; p < nparts; p++) {
    double s = getr(in->tpwgts, in->rwide, p);
    if (!isfinite(s) || s < 0)
      return mx_fail(c, MINEX_EINVAL, "tpwgts[%d] = %g is not finite and >= 0",
                     (int)p, s);
    sum += s;
  }
  if (!(sum > 0))
    return mx_fail(c, MINEX_ENOPROC, "every tpwgts entry is 0");
  int32_t nc = 0;
  int32_t *np = core_malloc(sizeof *np * (size_t)nparts);
  double *proc = core_malloc(sizeof *proc * (size_t)nparts);
  double *conn = NULL;
  int rc = MINEX_OK;
  if (np == NULL || proc == NULL) {
    rc = mx_fail(c, MINEX_ENOMEM, "out of memory (tpwgts)");
    goto done;
  }
  for (int32_t p = 0; p < nparts; p++) {
    double s = getr(in->tpwgts, in->rwide, p);
    if (p > 0 && s == getr(in->tpwgts, in->rwide, p - 1)) {
      np[nc - 1]++;
      continue;
    }
    np[nc] = 1;
    proc[nc] = s > 0 ? (sum / nparts) / s : 1.0;
    nc++;
  }
  if (nc > MINEX_NCLUSTERS_MAX) {
    rc = mx_fail(c, MINEX_EUNSUP,
                 "tpwgts has %d runs of equal shares; MinEX takes at most %d "
                 "clusters",
                 (int)nc, MINEX_NCLUSTERS_MAX);
    goto done;
  }
  conn = core_malloc(sizeof *conn * (size_t)nc * (size_t)nc);
  if (conn == NULL) {
    rc = mx_fail(c, MINEX_ENOMEM, "out of memory (tpwgts)");
    goto done;
  }
  for (size_t i = 0; i < (size_t)nc * (size_t)nc; i++)
    conn[i] = 1.0;
  if ((rc = minex_config_create(nc, np, proc, conn, cfg)) != MINEX_OK) {
    mx_fail(c, rc, "%s", minex_last_error());
    goto done;
  }
  for (int32_t p = 0; p < nparts; p++)
    if (getr(in->tpwgts, in->rwide, p) == 0)
      minex_config_set_available(*cfg, p, 0);
done:
  core_free(np);
  core_free(proc);
  core_free(conn);
  return rc;
}

/* One call's scalar arguments, read once, and the graph in MinEX's types
 * (owned; NULL where an array is not needed). */
typedef struct pm_call {
  int64_t wgtflag, numflag, nparts, opt0;
  int64_t n, nnz; /* local vertices and edge ends                    */
  double itr;
  double ubvec; /* ubvec[0], 0 when ubvec is NULL                  */
  int coupled;  /* nparts equals the ranks: part is the old partition */
  int64_t *vd, *xadj, *adj;
  double *pw, *rw, *cw;
  int32_t *old, *newp;
  minex_config *cfg;
} pm_call;

static void pm_call_free(pm_call *s) {
  minex_config_destroy(s->cfg);
  core_free(s->vd);
  core_free(s->xadj);
  core_free(s->adj);
  core_free(s->pw);
  core_free(s->rw);
  core_free(s->cw);
  core_free(s->old);
  core_free(s->newp);
}

/* The scalar arguments; the first failure recorded in c. */
static void pm_scalars(mx_comm *c, const pm_in *in, pm_call *s) {
  int w = in->wide;
  if (in->wgtflag == NULL || in->numflag == NULL || in->ncon == NULL ||
      in->nparts == NULL || in->itr == NULL || in->edgecut == NULL ||
      in->vtxdist == NULL)
    mx_fail(c, MINEX_EINVAL,
            "wgtflag, numflag, ncon, nparts, itr, edgecut and vtxdist must "
            "not be NULL");
  else if (geti(in->ncon, w, 0) != 1)
    mx_fail(c, MINEX_EUNSUP, "ncon = %lld: MinEX takes one weight (ncon = 1)",
            (long long)geti(in->ncon, w, 0));
  else if ((s->numflag = geti(in->numflag, w, 0)) != 0 && s->numflag != 1)
    mx_fail(c, MINEX_EINVAL, "numflag = %lld, not 0 or 1",
            (long long)s->numflag);
  else if ((s->wgtflag = geti(in->wgtflag, w, 0)) < 0 || s->wgtflag > 3)
    mx_fail(c, MINEX_EINVAL, "wgtflag = %lld, not 0, 1, 2 or 3",
            (long long)s->wgtflag);
  else if ((s->nparts = geti(in->nparts, w, 0)) < 1 ||
           s->nparts > MINEX_NPROCS_MAX)
    mx_fail(c, MINEX_EINVAL, "nparts = %lld is outside [1, %d]",
            (long long)s->nparts, MINEX_NPROCS_MAX);
  else if (!((s->itr = getr(in->itr, in->rwide, 0)) >= 1e-6 && s->itr <= 1e6))
    mx_fail(c, MINEX_EINVAL, "itr = %g is outside [1e-6, 1e6]", s->itr);
  else if (in->ubvec != NULL &&
           !((s->ubvec = getr(in->ubvec, in->rwide, 0)) >= 1 &&
             s->ubvec < INFINITY))
    mx_fail(c, MINEX_EINVAL,
            "ubvec[0] = %g is not finite and >= 1 (the bound on a "
            "processor's load relative to its target)",
            s->ubvec);
}

/* The coupling, vtxdist in 0-based ids, and this rank's sizes and arrays
 * present; the first failure recorded in c. */
static void pm_local(mx_comm *c, const pm_in *in, pm_call *s) {
  int w = in->wide;
  s->opt0 = in->options != NULL ? geti(in->options, w, 0) : 0;
  /* ParMETIS's rule: coupled when nparts equals the number of ranks,
     unless options ask for uncoupled */
  s->coupled = s->nparts == c->size &&
               !(s->opt0 == 1 &&
                 geti(in->options, w, 3) == MINEX_PARMETIS_PSR_UNCOUPLED);
  if ((s->vd = core_malloc(sizeof *s->vd * ((size_t)c->size + 1))) == NULL)
    mx_fail(c, MINEX_ENOMEM, "out of memory (vtxdist)");
  else
    for (int r = 0; r <= c->size; r++)
      s->vd[r] = geti(in->vtxdist, w, r) - s->numflag;
  int64_t n = 0, nnz = 0, wgtflag = s->wgtflag;
  if (c->rc == MINEX_OK && (n = s->vd[c->rank + 1] - s->vd[c->rank]) < 0)
    mx_fail(c, MINEX_EINVAL, "vtxdist[%d] is below vtxdist[%d]", c->rank + 1,
            c->rank);
  if (c->rc == MINEX_OK && n > 0 && (in->xadj == NULL || in->part == NULL))
    mx_fail(c, MINEX_EINVAL, "xadj or part is NULL (%lld local vertices)",
            (long long)n);
  if (c->rc == MINEX_OK && n > 0 &&
      (nnz = geti(in->xadj, w, n) - s->numflag) < 0)
    mx_fail(c, MINEX_EINVAL, "xadj[%lld] = %lld is negative", (long long)n,
            (long long)(nnz + s->numflag));
  if (c->rc == MINEX_OK && nnz > 0 && in->adjncy == NULL)
    mx_fail(c, MINEX_EINVAL, "adjncy is NULL");
  if (c->rc == MINEX_OK && (wgtflag & 2) && n > 0 && in->vwgt == NULL)
    mx_fail(c, MINEX_EINVAL, "vwgt is NULL but wgtflag = %lld",
            (long long)wgtflag);
  if (c->rc == MINEX_OK && (wgtflag & 1) && nnz > 0 && in->adjwgt == NULL)
    mx_fail(c, MINEX_EINVAL, "adjwgt is NULL but wgtflag = %lld",
            (long long)wgtflag);
  s->n = n;
  s->nnz = nnz;
}

/* The arrays of the graph in MinEX's types; 0 when one is missing. */
static int pm_alloc(const pm_in *in, pm_call *s) {
  int64_t n = s->n, nnz = s->nnz, wgtflag = s->wgtflag;
  s->xadj = core_malloc(sizeof *s->xadj * (size_t)(n + 1));
  s->adj = core_malloc(sizeof *s->adj * (size_t)(nnz > 0 ? nnz : 1));
  s->newp = core_malloc(sizeof *s->newp * (size_t)(n > 0 ? n : 1));
  if ((wgtflag & 2) && n > 0)
    s->pw = core_malloc(sizeof *s->pw * (size_t)n);
  if ((wgtflag & 1) && nnz > 0)
    s->cw = core_malloc(sizeof *s->cw * (size_t)nnz);
  if ((in->vsize != NULL || s->itr < 1) && n > 0)
    s->rw = core_malloc(sizeof *s->rw * (size_t)n);
  if (!s->coupled && n > 0)
    s->old = core_malloc(sizeof *s->old * (size_t)n);
  return !(s->xadj == NULL || s->adj == NULL || s->newp == NULL ||
           ((wgtflag & 2) && n > 0 && s->pw == NULL) ||
           ((wgtflag & 1) && nnz > 0 && s->cw == NULL) ||
           ((in->vsize != NULL || s->itr < 1) && n > 0 && s->rw == NULL) ||
           (!s->coupled && n > 0 && s->old == NULL));
}

/* The weights, checked here, where their values are the caller's (vsize
 * before the division by itr), then converted. */
static void pm_weights(mx_comm *c, const pm_in *in, pm_call *s) {
  int w = in->wide;
  int64_t n = s->n, nnz = s->nnz;
  const void *wa[3] = {s->pw ? in->vwgt : NULL, s->rw ? in->vsize : NULL,
                       s->cw ? in->adjwgt : NULL};
  static const char *const wname[3] = {"vwgt", "vsize", "adjwgt"};
  for (int i = 0; i < 3 && c->rc == MINEX_OK; i++)
    for (int64_t j = 0; wa[i] != NULL && j < (i == 2 ? nnz : n); j++)
      if (geti(wa[i], w, j) < 0) {
        mx_fail(c, MINEX_EGRAPH, "%s[%lld] = %lld is negative", wname[i],
                (long long)j, (long long)geti(wa[i], w, j));
        break;
      }
  for (int64_t v = 0; s->pw != NULL && v < n; v++)
    s->pw[v] = (double)geti(in->vwgt, w, v);
  for (int64_t j = 0; s->cw != NULL && j < nnz; j++)
    s->cw[j] = (double)geti(in->adjwgt, w, j);
  /* itr < 1: migration weighs 1/itr iterations' worth (k = 1) */
  for (int64_t v = 0; s->rw != NULL && v < n; v++)
    s->rw[v] = (in->vsize != NULL ? (double)geti(in->vsize, w, v) : 1.0) /
               (s->itr < 1 ? s->itr : 1.0);
}

/* Uncoupled: the current owners from part, each in [0, nparts). */
static void pm_old(mx_comm *c, const pm_in *in, pm_call *s) {
  int64_t numflag = s->numflag, nparts = s->nparts;
  for (int64_t v = 0; s->old != NULL && v < s->n; v++) {
    int64_t p = geti(in->part, in->wide, v) - numflag;
    s->old[v] = p >= 0 && p < nparts ? (int32_t)p : -1;
    if (s->old[v] < 0) {
      mx_fail(c, MINEX_EPART,
              "part[%lld] = %lld (the current owner, uncoupled) is outside "
              "[%lld, %lld)",
              (long long)v, (long long)(p + numflag), (long long)numflag,
              (long long)(nparts + numflag));
      break;
    }
  }
}

/* The graph, the old owners and the machine in MinEX's types; the first
 * failure recorded in c. */
static void pm_convert(mx_comm *c, const pm_in *in, pm_call *s) {
  int w = in->wide;
  if (!pm_alloc(in, s)) {
    mx_fail(c, MINEX_ENOMEM, "out of memory converting %lld vertices",
            (long long)s->n);
    return;
  }
  s->xadj[0] = 0;
  for (int64_t v = 0; s->n > 0 && v <= s->n; v++)
    s->xadj[v] = geti(in->xadj, w, v) - s->numflag;
  for (int64_t j = 0; j < s->nnz; j++)
    s->adj[j] = geti(in->adjncy, w, j) - s->numflag;
  pm_weights(c, in, s);
  pm_old(c, in, s);
  if (c->rc == MINEX_OK)
    pm_config(c, in, (int32_t)s->nparts, &s->cfg);
}

/* The largest vwgt sum of a processor over its target (the figure of
 * minex_parmetis_last_imbalance): from the bounded call's metrics, else
 * summed over the ranks. */
static void pm_imbalance(mx_comm *c, const pm_call *s,
                         const minex_metrics *met) {
  if (s->ubvec > 0) {
    last_imbalance = met->imbalance;
    last_met = met->bound_status == MINEX_BOUND_MET;
    return;
  }
  last_met = -1;
  int32_t P = (int32_t)s->nparts;
  double *l = core_calloc((size_t)P + 1, sizeof *l);
  double *all = core_calloc((size_t)P + 1, sizeof *all);
  if (l == NULL || all == NULL) {
    mx_fail(c, MINEX_ENOMEM, "out of memory (the imbalance)");
  } else {
    for (int64_t v = 0; v < s->n; v++) {
      l[s->newp[v]] += s->pw != NULL ? s->pw[v] : 1.0;
      l[P] += s->pw != NULL ? s->pw[v] : 1.0;
    }
    if (mx_allreduce(c, l, all, P + 1, MPI_DOUBLE, MPI_SUM) == MINEX_OK) {
      double speed = 0, r = 0;
      for (int32_t p = 0; p < P; p++)
        if (minex_config_is_available(s->cfg, p))
          speed += 1 / minex_config_proc_slowdown(
                           s->cfg, minex_config_cluster_of(s->cfg, p));
      for (int32_t p = 0; p < P && all[P] > 0; p++) {
        if (!minex_config_is_available(s->cfg, p))
          continue;
        double t = all[P] /
                   minex_config_proc_slowdown(
                       s->cfg, minex_config_cluster_of(s->cfg, p)) /
                   speed;
        if (all[p] / t > r)
          r = all[p] / t;
      }
      last_imbalance = r;
    }
  }
  core_free(l);
  core_free(all);
}

/* Collective: the repartition, then part and edgecut in the caller's
 * types and numbering; agreed. */
static int pm_solve(mx_comm *c, const pm_in *in, pm_call *s) {
  int w = in->wide;
  minex_options o;
  minex_options_init(&o);
  o.iterations = s->itr >= 1 ? (int32_t)llround(s->itr) : 1;
  if (s->opt0 == 1)
    o.seed = (uint64_t)geti(in->options, w, 2);
  /* a rank that holds no vertex gets NULL for its empty arrays, as the
     ranks' NULL-or-given rule of minex_mpi_repartition reads them */
  /* its messages in this entry's names and numbering */
  const mx_names nm = {c->fn,
                       "vwgt",
                       "vsize",
                       "adjwgt",
                       "part",
                       "part",
                       "the machine of nparts and tpwgts",
                       "itr or options[2] (the seed)",
                       s->numflag};
  minex_metrics met;
  dist_input rows = {s->vd, s->xadj, s->adj, s->pw, s->rw, s->cw, s->old};
  /* ubvec: the bound of docs/SPEC.md §3 "Load bounds" */
  o.max_imbalance = s->ubvec;
  int rc =
      mx_repartition_bounded(&nm, &rows, s->cfg, &o, s->newp, &met, c->comm);
  if (rc == MINEX_OK)
    pm_imbalance(c, s, &met);
  if (rc == MINEX_OK) {
    /* the cut in idx_t, or an error (the same figure on every rank, so
       every rank fails alike; part and edgecut left as they were) */
    double lim = w ? 0x1p63 : 0x1p31;
    if (!(met.cut_weight < lim - 0.5))
      mx_fail(c, MINEX_EUNSUP,
              "edgecut: the cut weight %.17g does not fit idx_t (%s, at most "
              "%s)%s",
              met.cut_weight, w ? "int64_t" : "int32_t",
              w ? "9223372036854775807" : "2147483647",
              w ? "" : ": call minex_parmetis_adaptive_repart64");
    rc = mx_agree(c);
  }
  if (rc != MINEX_OK)
    return rc;
  for (int64_t v = 0; v < s->n; v++) {
    if (w)
      ((int64_t *)in->part)[v] = s->newp[v] + s->numflag;
    else
      ((int32_t *)in->part)[v] = (int32_t)(s->newp[v] + s->numflag);
  }
  long long cut = llround(met.cut_weight);
  if (w)
    *(int64_t *)in->edgecut = (int64_t)cut;
  else
    *(int32_t *)in->edgecut = (int32_t)cut;
  return MINEX_OK;
}

/* The checks and conversions, each phase's failures agreed before the
 * next (every rank makes the same collectives), then the repartition. */
static int pm_run(const pm_in *in) {
  const char *fn = in->wide ? (in->rwide ? "minex_parmetis_adaptive_repart64"
                                         : "minex_parmetis_adaptive_repart64f")
                            : (in->rwide ? "minex_parmetis_adaptive_repart32d"
                                         : "minex_parmetis_adaptive_repart");
  core_error_clear();
  if (in->comm == NULL || *in->comm == MPI_COMM_NULL)
    return to_parmetis(
        core_error(MINEX_EINVAL, "%s: comm is NULL or MPI_COMM_NULL", fn));
  mx_comm c;
  mx_open(&c, fn);
  int started = mx_start(&c, *in->comm);
  if (started != MINEX_OK)
    return to_parmetis(started);
  pm_call s;
  memset(&s, 0, sizeof s);
  s.itr = 1;
  pm_scalars(&c, in, &s);
  int rc = mx_agree(&c);
  if (rc == MINEX_OK) {
    pm_local(&c, in, &s);
    rc = mx_agree(&c);
  }
  if (rc == MINEX_OK) {
    pm_convert(&c, in, &s);
    rc = mx_agree(&c);
  }
  if (rc == MINEX_OK)
    rc = pm_solve(&c, in, &s);
  pm_call_free(&s);
  mx_close(&c);
  return to_parmetis(rc);
}

int minex_parmetis_adaptive_repart(
    int32_t *vtxdist, int32_t *xadj, int32_t *adjncy, int32_t *vwgt,
    int32_t *vsize, int32_t *adjwgt, int32_t *wgtflag, int32_t *numflag,
    int32_t *ncon, int32_t *nparts, float *tpwgts, float *ubvec, float *itr,
    int32_t *options, int32_t *edgecut, int32_t *part, MPI_Comm *comm) {
  pm_in in = {0,       0,      vtxdist, xadj,    adjncy, vwgt,   vsize,
              adjwgt,  tpwgts, wgtflag, numflag, ncon,   nparts, itr,
              options, ubvec,  edgecut, part,    comm};
  return pm_run(&in);
}

int minex_parmetis_adaptive_repart64(
    int64_t *vtxdist, int64_t *xadj, int64_t *adjncy, int64_t *vwgt,
    int64_t *vsize, int64_t *adjwgt, int64_t *wgtflag, int64_t *numflag,
    int64_t *ncon, int64_t *nparts, double *tpwgts, double *ubvec, double *itr,
    int64_t *options, int64_t *edgecut, int64_t *part, MPI_Comm *comm) {
  pm_in in = {1,       1,      vtxdist, xadj,    adjncy, vwgt,   vsize,
              adjwgt,  tpwgts, wgtflag, numflag, ncon,   nparts, itr,
              options, ubvec,  edgecut, part,    comm};
  return pm_run(&in);
}

int minex_parmetis_adaptive_repart64f(
    int64_t *vtxdist, int64_t *xadj, int64_t *adjncy, int64_t *vwgt,
    int64_t *vsize, int64_t *adjwgt, int64_t *wgtflag, int64_t *numflag,
    int64_t *ncon, int64_t *nparts, float *tpwgts, float *ubvec, float *itr,
    int64_t *options, int64_t *edgecut, int64_t *part, MPI_Comm *comm) {
  pm_in in = {1,       0,      vtxdist, xadj,    adjncy, vwgt,   vsize,
              adjwgt,  tpwgts, wgtflag, numflag, ncon,   nparts, itr,
              options, ubvec,  edgecut, part,    comm};
  return pm_run(&in);
}

int minex_parmetis_adaptive_repart32d(
    int32_t *vtxdist, int32_t *xadj, int32_t *adjncy, int32_t *vwgt,
    int32_t *vsize, int32_t *adjwgt, int32_t *wgtflag, int32_t *numflag,
    int32_t *ncon, int32_t *nparts, double *tpwgts, double *ubvec, double *itr,
    int32_t *options, int32_t *edgecut, int32_t *part, MPI_Comm *comm) {
  pm_in in = {0,       1,      vtxdist, xadj,    adjncy, vwgt,   vsize,
              adjwgt,  tpwgts, wgtflag, numflag, ncon,   nparts, itr,
              options, ubvec,  edgecut, part,    comm};
  return pm_run(&in);
}
