/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Dual graph of a mesh (SPEC §7): elements sharing a face (3D, any kind:
 * a triangle face meets a triangle face, a quadrilateral one a
 * quadrilateral one) or an edge (2D) are adjacent; or, with METIS's
 * ncommon, elements sharing at least ncommon corners. A node -> element
 * incidence CSR and a per-element counter find, for each element, the
 * elements sharing nodes with it; O(nelems + nnodes) memory. Also the
 * refined-ball weights of data/cases (minex_ball_weights). */
#include "mesh/mesh.h"

#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Node -> element incidence, each node's list sorted by element; loc
 * (when asked for) the node's local corner in each element listed. */
typedef struct incidence {
  int64_t *xinc;  /* nnodes+1 offsets */
  int32_t *inc;   /* element ids      */
  uint8_t *loc;   /* local corners, or NULL */
  uint8_t *cnt;   /* nelems counters (or e's corner masks), 0 between */
  uint8_t *omask; /* nelems masks of the other's corners, or NULL */
  int32_t *touched;
} incidence;

static void inc_free(incidence *in) {
  free(in->xinc);
  free(in->inc);
  free(in->loc);
  free(in->cnt);
  free(in->omask);
  free(in->touched);
}

static int inc_build(const minex_mesh *m, incidence *in, int masks) {
  const int32_t ne = m->nelems, nn = m->nnodes;
  int64_t total =
      m->eptr ? m->eptr[ne] : (int64_t)ne * minex_elem_nnodes(m->type);
  in->xinc = calloc((size_t)nn + 1, sizeof *in->xinc);
  in->inc = malloc(sizeof *in->inc * ((size_t)total + 1));
  in->cnt = calloc((size_t)ne + 1, 1);
  if (masks) {
    in->loc = malloc((size_t)total + 1);
    in->omask = calloc((size_t)ne + 1, 1);
  }
  if (in->xinc == NULL || in->inc == NULL || in->cnt == NULL ||
      (masks && (in->loc == NULL || in->omask == NULL)))
    return core_error(MINEX_ENOMEM,
                      "mesh dual: out of memory for the "
                      "incidence of %d elements",
                      (int)ne);
  const int32_t *el = m->elems;
  for (int64_t i = 0; i < total; i++)
    in->xinc[el[i] + 1]++;
  int64_t maxinc = 0;
  for (int32_t v = 0; v < nn; v++) {
    if (in->xinc[v + 1] > maxinc)
      maxinc = in->xinc[v + 1];
    in->xinc[v + 1] += in->xinc[v];
  }
  /* Fill by element order so that each node's list is sorted. */
  for (int32_t e = 0; e < ne; e++) {
    int k;
    const int32_t *en = mesh_elem(m, e, &k);
    for (int i = 0; i < k; i++) {
      int64_t at = in->xinc[en[i]]++;
      in->inc[at] = e;
      if (masks)
        in->loc[at] = (uint8_t)i;
    }
  }
  for (int32_t v = nn; v > 0; v--)
    in->xinc[v] = in->xinc[v - 1];
  in->xinc[0] = 0;
  in->touched = malloc(sizeof *in->touched * (size_t)(8 * maxinc + 1));
  if (in->touched == NULL)
    return core_error(MINEX_ENOMEM, "mesh dual: out of memory");
  return MINEX_OK;
}

/* Elements sharing nodes with e, in touched[0, return), their counts in
 * cnt (the caller resets them). */
static int64_t inc_gather(const minex_mesh *m, incidence *in, int32_t e) {
  int k;
  const int32_t *en = mesh_elem(m, e, &k);
  int64_t nt = 0;
  for (int i = 0; i < k; i++)
    for (int64_t j = in->xinc[en[i]]; j < in->xinc[en[i] + 1]; j++) {
      int32_t o = in->inc[j];
      if (o != e && in->cnt[o]++ == 0)
        in->touched[nt++] = o;
    }
  return nt;
}

/* Elements after e sharing nodes with it, in touched[0, return); for each
 * such o, cnt[o] the mask of e's corners it has and omask[o] the mask of
 * its own corners that are e's (the caller resets both). Each node's list
 * is sorted and holds e, so its elements after e are its tail. */
static int64_t inc_gather_after(const minex_mesh *m, incidence *in, int32_t e) {
  int k;
  const int32_t *en = mesh_elem(m, e, &k);
  const int32_t *inc = in->inc;
  int64_t nt = 0;
  for (int i = 0; i < k; i++)
    for (int64_t j = in->xinc[en[i] + 1] - 1; inc[j] > e; j--) {
      int32_t o = inc[j];
      if (in->cnt[o] == 0)
        in->touched[nt++] = o;
      in->cnt[o] |= (uint8_t)(1u << i);
      in->omask[o] |= (uint8_t)(1u << in->loc[j]);
    }
  return nt;
}

/* Bit mask of a face's local corners. */
static unsigned face_mask(const mesh_faces *fs, int f) {
  unsigned m = 0;
  for (int i = 0; i < fs->size[f]; i++)
    m |= 1u << fs->node[f][i];
  return m;
}

/* The face of e that o shares as a face of its own, or -1: the corners
 * they share are matched once (as local-corner masks, and o's local
 * corners mapped to e's), then each face is a mask test. */
static int shared_face(const minex_mesh *m, int32_t e, int32_t o) {
  int ke, ko;
  const int32_t *en = mesh_elem(m, e, &ke), *on = mesh_elem(m, o, &ko);
  unsigned me = 0, mo = 0;
  int o2e[8];
  for (int j = 0; j < ko; j++) {
    o2e[j] = -1;
    for (int i = 0; i < ke; i++)
      if (en[i] == on[j]) {
        me |= 1u << i;
        mo |= 1u << j;
        o2e[j] = i;
        break;
      }
  }
  const mesh_faces *fe = mesh_kind_faces(mesh_kind(m, e)),
                   *fo = mesh_kind_faces(mesh_kind(m, o));
  for (int f = 0; f < fe->nfaces; f++) {
    unsigned mf = face_mask(fe, f);
    if ((mf & ~me) != 0)
      continue;
    /* all of face f's corners are o's: is the same set a face of o? */
    for (int g = 0; g < fo->nfaces; g++) {
      if (fo->size[g] != fe->size[f] || (face_mask(fo, g) & ~mo) != 0)
        continue;
      unsigned in_e = 0;
      for (int j = 0; j < fo->size[g]; j++)
        in_e |= 1u << o2e[fo->node[g][j]];
      if (in_e == mf)
        return f;
    }
  }
  return -1;
}

static int popcount8(unsigned x) {
  x = (x & 0x55) + (x >> 1 & 0x55);
  x = (x & 0x33) + (x >> 2 & 0x33);
  return (int)((x & 0x0f) + (x >> 4));
}

/* Records o across face f of e (slots from base): -1 when the face
 * already has another element across it (non-manifold). */
static int put_slot(const minex_mesh *m, int32_t *nbr, int64_t base, int mindeg,
                    int32_t e, int f, int32_t o) {
  int32_t *slot = &nbr[base + f];
  if (*slot < 0) {
    *slot = o;
    return MINEX_OK;
  }
  int k;
  const int32_t *en = mesh_elem(m, e, &k);
  const mesh_faces *fe = mesh_kind_faces(mesh_kind(m, e));
  char face[64];
  int len = 0;
  for (int i = 0; i < fe->size[f]; i++)
    len += snprintf(face + len, sizeof face - (size_t)len, " %d",
                    (int)en[fe->node[f][i]]);
  int32_t a = *slot < o ? *slot : o, b = *slot < o ? o : *slot;
  return core_error(MINEX_EPARSE,
                    "mesh dual: %s of nodes%s is shared "
                    "by elements %d, %d and %d (non-manifold)",
                    mindeg == 3 ? "face" : "edge", face, (int)e, (int)a,
                    (int)b);
}

/* nbr[fbase(e) + f] = element across face f of e, or -1. Fails on a face
 * shared by three or more elements (non-manifold) and on two elements with
 * the same node set. Each pair e < o is met once, from e: the corners they
 * share as a mask of each's local corners, which, when it is exactly a
 * face of each (of one size), names both faces by a table; otherwise
 * shared_face decides each side, as it would alone. */
static int face_neighbours(const minex_mesh *m, const int64_t *fptr, int nfmax,
                           int32_t *nbr) {
  const int32_t ne = m->nelems;
  const int mindeg =
      minex_elem_dim(m->nelems > 0 ? mesh_kind(m, 0) : MINEX_ELEM_TETRA) == 3
          ? 3
          : 2;
  /* face_of[kind][mask]: the face of that kind whose corners are the mask,
     else -1; face sizes in the high bits (size << 4 | face) */
  static const minex_elem_type kinds[] = {
      MINEX_ELEM_TRIANGLE, MINEX_ELEM_QUAD,  MINEX_ELEM_TETRA,
      MINEX_ELEM_HEXA,     MINEX_ELEM_PRISM, MINEX_ELEM_PYRAMID};
  int8_t face_of[16][256];
  memset(face_of, -1, sizeof face_of);
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
    const mesh_faces *fs = mesh_kind_faces(kinds[i]);
    for (int f = 0; f < fs->nfaces; f++)
      face_of[kinds[i]][face_mask(fs, f)] = (int8_t)(fs->size[f] << 4 | f);
  }
  incidence in = {0};
  int rc = inc_build(m, &in, 1);
  int64_t nslots = fptr ? fptr[ne] : (int64_t)ne * nfmax;
  for (int64_t i = 0; i < nslots; i++)
    nbr[i] = -1;
  const int32_t knn = m->eptr ? 0 : minex_elem_nnodes(m->type);
  for (int32_t e = 0; e < ne && rc == MINEX_OK; e++) {
    int ke = knn ? knn : (int)(m->eptr[e + 1] - m->eptr[e]);
    const int8_t *fe = face_of[mesh_kind(m, e)];
    int64_t nt = inc_gather_after(m, &in, e);
    int64_t base = fptr ? fptr[e] : (int64_t)e * nfmax;
    for (int64_t t = 0; t < nt; t++) {
      int32_t o = in.touched[t];
      unsigned me = in.cnt[o], mo = in.omask[o];
      in.cnt[o] = in.omask[o] = 0;
      int c = popcount8(me);
      if (c < mindeg || rc != MINEX_OK)
        continue;
      int ko = knn ? knn : (int)(m->eptr[o + 1] - m->eptr[o]);
      if (c == ke && c == ko) {
        rc = core_error(MINEX_EPARSE,
                        "mesh dual: elements %d and %d have "
                        "the same nodes",
                        (int)e, (int)o);
        continue;
      }
      int f = fe[me], g = face_of[mesh_kind(m, o)][mo];
      if (f >= 0 && g >= 0 && f >> 4 == g >> 4) {
        f &= 15;
        g &= 15;
      } else {
        f = shared_face(m, e, o);
        if (f < 0)
          continue;
        g = shared_face(m, o, e);
      }
      int64_t obase = fptr ? fptr[o] : (int64_t)o * nfmax;
      rc = put_slot(m, nbr, base, mindeg, e, f, o);
      if (rc == MINEX_OK)
        rc = put_slot(m, nbr, obase, mindeg, o, g, e);
    }
  }
  inc_free(&in);
  return rc;
}

/* Face rule: CSR rows from the face slots. */
static int dual_faces(const minex_mesh *m, int64_t *xadj, int32_t **adj_out) {
  const int32_t ne = m->nelems;
  int nfmax = 0;
  int64_t *fptr = NULL;
  if (m->eptr != NULL) {
    fptr = malloc(sizeof *fptr * ((size_t)ne + 1));
    if (fptr == NULL)
      return core_error(MINEX_ENOMEM, "minex_mesh_dual: out of memory");
    fptr[0] = 0;
    for (int32_t e = 0; e < ne; e++)
      fptr[e + 1] = fptr[e] + mesh_kind_faces(mesh_kind(m, e))->nfaces;
  } else {
    nfmax = mesh_kind_faces(m->type)->nfaces;
  }
  int64_t nslots = fptr ? fptr[ne] : (int64_t)ne * nfmax;
  int32_t *adj = malloc(sizeof *adj * ((size_t)nslots + 1));
  int rc = MINEX_OK;
  if (adj == NULL)
    rc = core_error(MINEX_ENOMEM,
                    "minex_mesh_dual: out of memory for %d "
                    "elements",
                    (int)ne);
  if (rc == MINEX_OK)
    rc = face_neighbours(m, fptr, nfmax, adj);
  if (rc != MINEX_OK) {
    free(adj);
    free(fptr);
    return rc;
  }
  /* Compact the face slots in place into sorted CSR rows: entries only
   * move towards the front, so no row is overwritten before it is read. */
  int64_t n = 0;
  xadj[0] = 0;
  for (int32_t e = 0; e < ne; e++) {
    int32_t row[6];
    int deg = 0;
    int64_t lo = fptr ? fptr[e] : (int64_t)e * nfmax,
            hi = fptr ? fptr[e + 1] : lo + nfmax;
    for (int64_t s = lo; s < hi; s++) {
      int32_t o = adj[s];
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
  free(fptr);
  *adj_out = adj;
  return MINEX_OK;
}

static int cmp_i32(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* ncommon rule: two passes (degrees, then rows). */
static int dual_ncommon(const minex_mesh *m, int ncommon, int64_t *xadj,
                        int32_t **adj_out) {
  const int32_t ne = m->nelems;
  incidence in = {0};
  int32_t *adj = NULL;
  int rc = inc_build(m, &in, 0);
  xadj[0] = 0;
  for (int pass = 0; pass < 2 && rc == MINEX_OK; pass++) {
    if (pass == 1) {
      adj = malloc(sizeof *adj * ((size_t)xadj[ne] + 1));
      if (adj == NULL) {
        rc = core_error(MINEX_ENOMEM, "minex_mesh_dual: out of memory");
        break;
      }
    }
    for (int32_t e = 0; e < ne; e++) {
      int64_t nt = inc_gather(m, &in, e), deg = 0;
      for (int64_t t = 0; t < nt; t++) {
        int32_t o = in.touched[t];
        if (in.cnt[o] >= ncommon) {
          if (pass == 1)
            adj[xadj[e] + deg] = o;
          deg++;
        }
        in.cnt[o] = 0;
      }
      if (pass == 0)
        xadj[e + 1] = xadj[e] + deg;
      else
        qsort(adj + xadj[e], (size_t)deg, sizeof *adj, cmp_i32);
    }
  }
  inc_free(&in);
  if (rc != MINEX_OK) {
    free(adj);
    return rc;
  }
  *adj_out = adj;
  return MINEX_OK;
}

int minex_mesh_dual_ncommon(const minex_mesh *mesh, int ncommon,
                            const double *pwgt, const double *rwgt,
                            minex_cwgt_fn cwgt_fn, void *cwgt_ctx,
                            minex_graph **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_dual: out is NULL");
  *out = NULL;
  if (mesh == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_dual: mesh is NULL");
  if (ncommon < 0)
    return core_error(MINEX_EINVAL, "minex_mesh_dual: ncommon = %d < 0",
                      ncommon);
  const int32_t ne = mesh->nelems;
  int32_t *adj = NULL;
  int64_t *xadj = malloc(sizeof *xadj * ((size_t)ne + 1));
  double *cw = NULL;
  int rc = MINEX_OK;
  if (xadj == NULL) {
    rc = core_error(MINEX_ENOMEM,
                    "minex_mesh_dual: out of memory for %d "
                    "elements",
                    (int)ne);
    goto done;
  }
  rc = ncommon > 0 ? dual_ncommon(mesh, ncommon, xadj, &adj)
                   : dual_faces(mesh, xadj, &adj);
  if (rc != MINEX_OK)
    goto done;
  int64_t n = xadj[ne];
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

int minex_mesh_dual(const minex_mesh *mesh, const double *pwgt,
                    const double *rwgt, minex_cwgt_fn cwgt_fn, void *cwgt_ctx,
                    minex_graph **out) {
  return minex_mesh_dual_ncommon(mesh, 0, pwgt, rwgt, cwgt_fn, cwgt_ctx, out);
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
