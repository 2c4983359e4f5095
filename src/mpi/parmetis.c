/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ParMETIS_V3_AdaptiveRepart's argument list onto minex_mpi_repartition
 * (minex_parmetis.h; the mapping of every argument in docs/mpi.md). */
#include "minex_parmetis.h"
#include "mpi/mpi_comm.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static _Thread_local int last_code;

int minex_parmetis_last_error(void) {
  return last_code;
}

/* The arguments, read through one of the two type widths. */
typedef struct pm_in {
  int wide; /* 1: int64_t and double; 0: int32_t and float */
  const void *vtxdist, *xadj, *adjncy, *vwgt, *vsize, *adjwgt, *tpwgts;
  const void *wgtflag, *numflag, *ncon, *nparts, *itr, *options;
  void *edgecut, *part;
  const MPI_Comm *comm;
} pm_in;

static int64_t geti(const void *p, int wide, int64_t i) {
  return wide ? ((const int64_t *)p)[i] : ((const int32_t *)p)[i];
}

static double getr(const void *p, int wide, int64_t i) {
  return wide ? ((const double *)p)[i] : (double)((const float *)p)[i];
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
    double s = getr(in->tpwgts, in->wide, p);
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
    double s = getr(in->tpwgts, in->wide, p);
    if (p > 0 && s == getr(in->tpwgts, in->wide, p - 1)) {
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
    if (getr(in->tpwgts, in->wide, p) == 0)
      minex_config_set_available(*cfg, p, 0);
done:
  core_free(np);
  core_free(proc);
  core_free(conn);
  return rc;
}

static int pm_run(const pm_in *in) {
  const char *fn = in->wide ? "minex_parmetis_adaptive_repart64"
                            : "minex_parmetis_adaptive_repart";
  core_error_clear();
  if (in->comm == NULL || *in->comm == MPI_COMM_NULL)
    return to_parmetis(
        core_error(MINEX_EINVAL, "%s: comm is NULL or MPI_COMM_NULL", fn));
  mx_comm c;
  mx_open(&c, fn);
  int started = mx_start(&c, *in->comm);
  if (started != MINEX_OK)
    return to_parmetis(started);
  int w = in->wide, rc;
  int64_t *vd = NULL, *xadj = NULL, *adj = NULL;
  double *pw = NULL, *rw = NULL, *cw = NULL;
  int32_t *old = NULL, *newp = NULL;
  minex_config *cfg = NULL;
  int64_t wgtflag = 0, numflag = 0, nparts = 0, n = 0, nnz = 0, opt0 = 0;
  int coupled = 0;
  double itr = 1;
  /* the scalar arguments */
  if (in->wgtflag == NULL || in->numflag == NULL || in->ncon == NULL ||
      in->nparts == NULL || in->itr == NULL || in->edgecut == NULL ||
      in->vtxdist == NULL)
    mx_fail(&c, MINEX_EINVAL,
            "wgtflag, numflag, ncon, nparts, itr, edgecut and vtxdist must "
            "not be NULL");
  else if (geti(in->ncon, w, 0) != 1)
    mx_fail(&c, MINEX_EUNSUP, "ncon = %lld: MinEX takes one weight (ncon = 1)",
            (long long)geti(in->ncon, w, 0));
  else if ((numflag = geti(in->numflag, w, 0)) != 0 && numflag != 1)
    mx_fail(&c, MINEX_EINVAL, "numflag = %lld, not 0 or 1", (long long)numflag);
  else if ((wgtflag = geti(in->wgtflag, w, 0)) < 0 || wgtflag > 3)
    mx_fail(&c, MINEX_EINVAL, "wgtflag = %lld, not 0, 1, 2 or 3",
            (long long)wgtflag);
  else if ((nparts = geti(in->nparts, w, 0)) < 1 || nparts > MINEX_NPROCS_MAX)
    mx_fail(&c, MINEX_EINVAL, "nparts = %lld is outside [1, %d]",
            (long long)nparts, MINEX_NPROCS_MAX);
  else if (!((itr = getr(in->itr, w, 0)) >= 1e-6 && itr <= 1e6))
    mx_fail(&c, MINEX_EINVAL, "itr = %g is outside [1e-6, 1e6]", itr);
  if ((rc = mx_agree(&c)))
    goto done;
  opt0 = in->options != NULL ? geti(in->options, w, 0) : 0;
  /* ParMETIS's rule: coupled when nparts equals the number of ranks,
     unless options ask for uncoupled */
  coupled =
      nparts == c.size &&
      !(opt0 == 1 && geti(in->options, w, 3) == MINEX_PARMETIS_PSR_UNCOUPLED);
  if ((vd = core_malloc(sizeof *vd * ((size_t)c.size + 1))) == NULL)
    mx_fail(&c, MINEX_ENOMEM, "out of memory (vtxdist)");
  else
    for (int r = 0; r <= c.size; r++)
      vd[r] = geti(in->vtxdist, w, r) - numflag;
  if (c.rc == MINEX_OK && (n = vd[c.rank + 1] - vd[c.rank]) < 0)
    mx_fail(&c, MINEX_EINVAL, "vtxdist[%d] is below vtxdist[%d]", c.rank + 1,
            c.rank);
  if (c.rc == MINEX_OK && n > 0 && (in->xadj == NULL || in->part == NULL))
    mx_fail(&c, MINEX_EINVAL, "xadj or part is NULL (%lld local vertices)",
            (long long)n);
  if (c.rc == MINEX_OK && n > 0 && (nnz = geti(in->xadj, w, n) - numflag) < 0)
    mx_fail(&c, MINEX_EINVAL, "xadj[%lld] = %lld is negative", (long long)n,
            (long long)(nnz + numflag));
  if (c.rc == MINEX_OK && nnz > 0 && in->adjncy == NULL)
    mx_fail(&c, MINEX_EINVAL, "adjncy is NULL");
  if (c.rc == MINEX_OK && (wgtflag & 2) && n > 0 && in->vwgt == NULL)
    mx_fail(&c, MINEX_EINVAL, "vwgt is NULL but wgtflag = %lld",
            (long long)wgtflag);
  if (c.rc == MINEX_OK && (wgtflag & 1) && nnz > 0 && in->adjwgt == NULL)
    mx_fail(&c, MINEX_EINVAL, "adjwgt is NULL but wgtflag = %lld",
            (long long)wgtflag);
  if ((rc = mx_agree(&c)))
    goto done;
  /* the graph in MinEX's types */
  xadj = core_malloc(sizeof *xadj * (size_t)(n + 1));
  adj = core_malloc(sizeof *adj * (size_t)(nnz > 0 ? nnz : 1));
  newp = core_malloc(sizeof *newp * (size_t)(n > 0 ? n : 1));
  if ((wgtflag & 2) && n > 0)
    pw = core_malloc(sizeof *pw * (size_t)n);
  if ((wgtflag & 1) && nnz > 0)
    cw = core_malloc(sizeof *cw * (size_t)nnz);
  if ((in->vsize != NULL || itr < 1) && n > 0)
    rw = core_malloc(sizeof *rw * (size_t)n);
  if (!coupled && n > 0)
    old = core_malloc(sizeof *old * (size_t)n);
  if (xadj == NULL || adj == NULL || newp == NULL ||
      ((wgtflag & 2) && n > 0 && pw == NULL) ||
      ((wgtflag & 1) && nnz > 0 && cw == NULL) ||
      ((in->vsize != NULL || itr < 1) && n > 0 && rw == NULL) ||
      (!coupled && n > 0 && old == NULL)) {
    mx_fail(&c, MINEX_ENOMEM, "out of memory converting %lld vertices",
            (long long)n);
  } else {
    xadj[0] = 0;
    for (int64_t v = 0; n > 0 && v <= n; v++)
      xadj[v] = geti(in->xadj, w, v) - numflag;
    for (int64_t j = 0; j < nnz; j++)
      adj[j] = geti(in->adjncy, w, j) - numflag;
    /* the weights checked here, where their values are the caller's
       (vsize before the division by itr) */
    const void *wa[3] = {pw ? in->vwgt : NULL, rw ? in->vsize : NULL,
                         cw ? in->adjwgt : NULL};
    static const char *const wname[3] = {"vwgt", "vsize", "adjwgt"};
    for (int i = 0; i < 3 && c.rc == MINEX_OK; i++)
      for (int64_t j = 0; wa[i] != NULL && j < (i == 2 ? nnz : n); j++)
        if (geti(wa[i], w, j) < 0) {
          mx_fail(&c, MINEX_EGRAPH, "%s[%lld] = %lld is negative", wname[i],
                  (long long)j, (long long)geti(wa[i], w, j));
          break;
        }
    for (int64_t v = 0; pw != NULL && v < n; v++)
      pw[v] = (double)geti(in->vwgt, w, v);
    for (int64_t j = 0; cw != NULL && j < nnz; j++)
      cw[j] = (double)geti(in->adjwgt, w, j);
    /* itr < 1: migration weighs 1/itr iterations' worth (k = 1) */
    for (int64_t v = 0; rw != NULL && v < n; v++)
      rw[v] = (in->vsize != NULL ? (double)geti(in->vsize, w, v) : 1.0) /
              (itr < 1 ? itr : 1.0);
    for (int64_t v = 0; old != NULL && v < n; v++) {
      int64_t p = geti(in->part, w, v) - numflag;
      old[v] = p >= 0 && p < nparts ? (int32_t)p : -1;
      if (old[v] < 0) {
        mx_fail(&c, MINEX_EPART,
                "part[%lld] = %lld (the current owner, uncoupled) is outside "
                "[%lld, %lld)",
                (long long)v, (long long)(p + numflag), (long long)numflag,
                (long long)(nparts + numflag));
        break;
      }
    }
    if (c.rc == MINEX_OK)
      pm_config(&c, in, (int32_t)nparts, &cfg);
  }
  if ((rc = mx_agree(&c)))
    goto done;
  minex_options o;
  minex_options_init(&o);
  o.iterations = itr >= 1 ? (int32_t)llround(itr) : 1;
  if (opt0 == 1)
    o.seed = (uint64_t)geti(in->options, w, 2);
  /* a rank that holds no vertex gets NULL for its empty arrays, as the
     ranks' NULL-or-given rule of minex_mpi_repartition reads them */
  /* its messages in this entry's names and numbering */
  const mx_names nm = {fn,
                       "vwgt",
                       "vsize",
                       "adjwgt",
                       "part",
                       "part",
                       "the machine of nparts and tpwgts",
                       "itr or options[2] (the seed)",
                       numflag};
  minex_metrics met;
  dist_input rows = {vd, xadj, adj, pw, rw, cw, old};
  rc = mx_repartition(&nm, &rows, cfg, &o, newp, &met, c.comm);
  if (rc == MINEX_OK) {
    /* the cut in idx_t, or an error (the same figure on every rank, so
       every rank fails alike; part and edgecut left as they were) */
    double lim = w ? 0x1p63 : 0x1p31;
    if (!(met.cut_weight < lim - 0.5))
      mx_fail(&c, MINEX_EUNSUP,
              "edgecut: the cut weight %.17g does not fit idx_t (%s, at most "
              "%s)%s",
              met.cut_weight, w ? "int64_t" : "int32_t",
              w ? "9223372036854775807" : "2147483647",
              w ? "" : ": call minex_parmetis_adaptive_repart64");
    rc = mx_agree(&c);
  }
  if (rc == MINEX_OK) {
    for (int64_t v = 0; v < n; v++) {
      if (w)
        ((int64_t *)in->part)[v] = newp[v] + numflag;
      else
        ((int32_t *)in->part)[v] = (int32_t)(newp[v] + numflag);
    }
    long long cut = llround(met.cut_weight);
    if (w)
      *(int64_t *)in->edgecut = (int64_t)cut;
    else
      *(int32_t *)in->edgecut = (int32_t)cut;
  }
done:
  minex_config_destroy(cfg);
  core_free(vd);
  core_free(xadj);
  core_free(adj);
  core_free(pw);
  core_free(rw);
  core_free(cw);
  core_free(old);
  core_free(newp);
  mx_close(&c);
  return to_parmetis(rc);
}

int minex_parmetis_adaptive_repart(
    int32_t *vtxdist, int32_t *xadj, int32_t *adjncy, int32_t *vwgt,
    int32_t *vsize, int32_t *adjwgt, int32_t *wgtflag, int32_t *numflag,
    int32_t *ncon, int32_t *nparts, float *tpwgts, float *ubvec, float *itr,
    int32_t *options, int32_t *edgecut, int32_t *part, MPI_Comm *comm) {
  (void)ubvec; /* documented as ignored */
  pm_in in = {0,      vtxdist, xadj,    adjncy,  vwgt, vsize,
              adjwgt, tpwgts,  wgtflag, numflag, ncon, nparts,
              itr,    options, edgecut, part,    comm};
  return pm_run(&in);
}

int minex_parmetis_adaptive_repart64(
    int64_t *vtxdist, int64_t *xadj, int64_t *adjncy, int64_t *vwgt,
    int64_t *vsize, int64_t *adjwgt, int64_t *wgtflag, int64_t *numflag,
    int64_t *ncon, int64_t *nparts, double *tpwgts, double *ubvec, double *itr,
    int64_t *options, int64_t *edgecut, int64_t *part, MPI_Comm *comm) {
  (void)ubvec;
  pm_in in = {1,      vtxdist, xadj,    adjncy,  vwgt, vsize,
              adjwgt, tpwgts,  wgtflag, numflag, ncon, nparts,
              itr,    options, edgecut, part,    comm};
  return pm_run(&in);
}
