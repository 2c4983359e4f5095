/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Dual graph of a mesh (SPEC §7): elements sharing a face (tetrahedra, 3
 * nodes) or an edge (triangles, 2 nodes) are adjacent. A node -> element
 * incidence CSR and a per-element counter find, for each element, the
 * elements sharing at least k-1 of its nodes; O(nelems + nnodes) memory.
 * Also the refined-ball weights of data/cases (minex_ball_weights). */
#include "mesh/mesh.h"

#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* nbr[e*k + f] = element across the face opposite local node f, or -1.
 * Fails on a face shared by three or more elements (non-manifold) and on
 * two elements with the same node set. */
static int face_neighbours(const minex_mesh *m, int32_t *nbr) {
  const int k = (int)m->type;
  const int32_t ne = m->nelems, nn = m->nnodes;
  const int32_t *el = m->elems;
  int64_t *xinc = calloc((size_t)nn + 1, sizeof *xinc);
  int32_t *inc = malloc(sizeof *inc * ((size_t)ne * k + 1));
  uint8_t *cnt = calloc((size_t)ne + 1, 1);
  int32_t *touched = NULL;
  int rc = MINEX_OK;
  if (xinc == NULL || inc == NULL || cnt == NULL) {
    rc = core_error(MINEX_ENOMEM,
                    "mesh dual: out of memory for the "
                    "incidence of %d elements",
                    (int)ne);
    goto done;
  }
  for (int64_t i = 0; i < (int64_t)ne * k; i++)
    xinc[el[i] + 1]++;
  int64_t maxinc = 0;
  for (int32_t v = 0; v < nn; v++) {
    if (xinc[v + 1] > maxinc)
      maxinc = xinc[v + 1];
    xinc[v + 1] += xinc[v];
  }
  /* Fill by element order so that each node's list is sorted. */
  for (int32_t e = 0; e < ne; e++)
    for (int i = 0; i < k; i++)
      inc[xinc[el[(int64_t)e * k + i]]++] = e;
  for (int32_t v = nn; v > 0; v--)
    xinc[v] = xinc[v - 1];
  xinc[0] = 0;
  touched = malloc(sizeof *touched * (size_t)(k * maxinc + 1));
  if (touched == NULL) {
    rc = core_error(MINEX_ENOMEM, "mesh dual: out of memory");
    goto done;
  }
  for (int64_t i = 0; i < (int64_t)ne * k; i++)
    nbr[i] = -1;
  for (int32_t e = 0; e < ne && rc == MINEX_OK; e++) {
    const int32_t *en = el + (int64_t)e * k;
    int64_t nt = 0;
    for (int i = 0; i < k; i++)
      for (int64_t j = xinc[en[i]]; j < xinc[en[i] + 1]; j++) {
        int32_t o = inc[j];
        if (o != e && cnt[o]++ == 0)
          touched[nt++] = o;
      }
    for (int64_t t = 0; t < nt; t++) {
      int32_t o = touched[t];
      int c = cnt[o];
      cnt[o] = 0;
      if (c < k - 1 || rc != MINEX_OK)
        continue;
      if (c == k) {
        rc = core_error(MINEX_EPARSE,
                        "mesh dual: elements %d and %d have "
                        "the same nodes",
                        (int)e, (int)o);
        continue;
      }
      /* o shares all nodes of e but one: the face opposite that node. */
      const int32_t *on = el + (int64_t)o * k;
      int f = 0;
      for (; f < k; f++) {
        int found = 0;
        for (int j = 0; j < k; j++)
          found |= on[j] == en[f];
        if (!found)
          break;
      }
      int32_t *slot = &nbr[(int64_t)e * k + f];
      if (*slot >= 0) {
        char face[64];
        int len = 0;
        for (int i = 0; i < k; i++)
          if (i != f)
            len += snprintf(face + len, sizeof face - (size_t)len, " %d",
                            (int)en[i]);
        rc = core_error(MINEX_EPARSE,
                        "mesh dual: %s of nodes%s is shared "
                        "by elements %d, %d and %d (non-manifold)",
                        k == 4 ? "face" : "edge", face, (int)e, (int)*slot,
                        (int)o);
        continue;
      }
      *slot = o;
    }
  }
done:
  free(xinc);
  free(inc);
  free(cnt);
  free(touched);
  return rc;
}

int minex_mesh_dual(const minex_mesh *mesh, const double *pwgt,
                    const double *rwgt, minex_cwgt_fn cwgt_fn, void *cwgt_ctx,
                    minex_graph **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_dual: out is NULL");
  *out = NULL;
  if (mesh == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_dual: mesh is NULL");
  const int k = (int)mesh->type;
  const int32_t ne = mesh->nelems;
  int32_t *adj = malloc(sizeof *adj * ((size_t)ne * k + 1));
  int64_t *xadj = malloc(sizeof *xadj * ((size_t)ne + 1));
  double *cw = NULL;
  int rc = MINEX_OK;
  if (adj == NULL || xadj == NULL) {
    rc = core_error(MINEX_ENOMEM,
                    "minex_mesh_dual: out of memory for %d "
                    "elements",
                    (int)ne);
    goto done;
  }
  if ((rc = face_neighbours(mesh, adj)) != MINEX_OK)
    goto done;
  /* Compact the face slots in place into sorted CSR rows: entries only
   * move towards the front, so no row is overwritten before it is read. */
  int64_t n = 0;
  xadj[0] = 0;
  for (int32_t e = 0; e < ne; e++) {
    int32_t row[4];
    int deg = 0;
    for (int f = 0; f < k; f++) {
      int32_t o = adj[(int64_t)e * k + f];
      if (o < 0)
        continue;
      int j = deg++;
      for (; j > 0 && row[j - 1] > o; j--)
        row[j] = row[j - 1];
      row[j] = o;
    }
    for (int j = 0; j < deg; j++)
      adj[n++] = row[j];
    xadj[e + 1] = n;
  }
  if (cwgt_fn != NULL) {
    cw = malloc(sizeof *cw * ((size_t)n + 1));
    if (cw == NULL) {
      rc = core_error(MINEX_ENOMEM, "minex_mesh_dual: out of memory");
      goto done;
    }
    /* Called with the smaller id first, so both directions agree. */
    for (int32_t e = 0; e < ne; e++)
      for (int64_t j = xadj[e]; j < xadj[e + 1]; j++)
        cw[j] = adj[j] > e ? cwgt_fn(e, adj[j], cwgt_ctx)
                           : cwgt_fn(adj[j], e, cwgt_ctx);
  }
  rc = minex_graph_create(ne, xadj, adj, pwgt, rwgt, cw, out);
  if (rc != MINEX_OK)
    core_error_prefix("minex_mesh_dual");
done:
  free(adj);
  free(xadj);
  free(cw);
  return rc;
}

/* Ball weights; flags (may be NULL) receives 1 for refined elements. */
static int ball_fill(const minex_mesh *mesh, const minex_ball *ball,
                     double *pwgt, double *rwgt, uint8_t *flags,
                     int32_t *nrefined) {
  if (!isfinite(ball->radius) || ball->radius < 0 || !isfinite(ball->factor) ||
      ball->factor < 0 || !isfinite(ball->cwgt_refined) ||
      ball->cwgt_refined < 0 || !isfinite(ball->center[0]) ||
      !isfinite(ball->center[1]) || !isfinite(ball->center[2]))
    return core_error(MINEX_EINVAL,
                      "ball: radius, factor and cwgt_refined "
                      "must be finite and >= 0, the centre finite");
  int32_t nref = 0;
  double r2 = ball->radius * ball->radius;
  for (int32_t e = 0; e < mesh->nelems; e++) {
    double c[3];
    minex_mesh_centroid(mesh, e, c);
    double d2 = 0;
    for (int d = 0; d < 3; d++)
      d2 += (c[d] - ball->center[d]) * (c[d] - ball->center[d]);
    /* Non-strict: a centroid on the sphere counts as inside. */
    int in = d2 <= r2;
    pwgt[e] = in ? ball->factor : 1.0;
    rwgt[e] = in ? ball->factor + 1.0 : 1.0;
    if (flags)
      flags[e] = (uint8_t)in;
    nref += in;
  }
  if (nrefined)
    *nrefined = nref;
  return MINEX_OK;
}

int minex_ball_weights(const minex_mesh *mesh, const minex_ball *ball,
                       double *pwgt, double *rwgt, int32_t *nrefined) {
  core_error_clear();
  if (mesh == NULL || ball == NULL || pwgt == NULL || rwgt == NULL)
    return core_error(MINEX_EINVAL, "minex_ball_weights: NULL argument");
  return ball_fill(mesh, ball, pwgt, rwgt, NULL, nrefined);
}

typedef struct ball_ctx {
  const uint8_t *refined; /* 1 inside the ball */
  double cwgt_refined;
} ball_ctx;

static double ball_cwgt(int32_t e1, int32_t e2, void *ctx) {
  const ball_ctx *b = ctx;
  return (b->refined[e1] || b->refined[e2]) ? b->cwgt_refined : 1.0;
}

int minex_mesh_dual_ball(const minex_mesh *mesh, const minex_ball *ball,
                         minex_graph **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_dual_ball: out is NULL");
  *out = NULL;
  if (mesh == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_dual_ball: mesh is NULL");
  if (ball == NULL)
    return minex_mesh_dual(mesh, NULL, NULL, NULL, NULL, out);
  size_t n = (size_t)mesh->nelems + 1;
  double *pwgt = malloc(sizeof *pwgt * n), *rwgt = malloc(sizeof *rwgt * n);
  uint8_t *flags = malloc(n);
  int rc;
  if (pwgt == NULL || rwgt == NULL || flags == NULL) {
    rc = core_error(MINEX_ENOMEM, "minex_mesh_dual_ball: out of memory");
  } else if ((rc = ball_fill(mesh, ball, pwgt, rwgt, flags, NULL)) ==
             MINEX_OK) {
    ball_ctx ctx = {flags, ball->cwgt_refined};
    rc = minex_mesh_dual(mesh, pwgt, rwgt, ball_cwgt, &ctx, out);
  }
  free(pwgt);
  free(rwgt);
  free(flags);
  return rc;
}
