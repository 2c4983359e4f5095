/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The adaptive-mesh refinement workload of the MinEX paper (§2.1, §2.2):
 * refinement trees under a moving cylinder and the weighted dual graph of
 * their roots. The model is described in docs/design/workload.md. This file
 * holds the forest, its queries, the trees' streams (checked, packed, dropped,
 * unpacked: a forest may hold some roots only) and the workload; the split
 * codes and one adaptation are in adapt_refine.c.
 *
 * Each tree is stored as its preorder sequence of split codes, one byte per
 * node, the trees held end to end (an unpacked tree is appended until the
 * next adaptation rewrites them in root order); a node's vertices are not
 * stored but derived on the way down from the root, as integer barycentric
 * coordinates of the root scaled by 2^depth (every midpoint down to the deepest
 * level stays integral, so "lies on root face i" is the exact test lambda_i ==
 * 0). */
#include "adapt_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ----------------------------------------------------------------- errors */

static _Thread_local char last_error[1024];

const char *sim_last_error(void) {
  return last_error;
}

int sim_error_vset(int rc, const char *fmt, va_list ap) {
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  return rc;
}

int sim_error(int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sim_error_vset(rc, fmt, ap);
  va_end(ap);
  return rc;
}

void sim_error_clear(void) {
  last_error[0] = '\0';
}

/* ------------------------------------------------------------ the forest */

void sim_adapt_defaults(sim_adapt_params *p) {
  if (p == NULL)
    return;
  p->nsteps = 9;
  p->depth = 3;
  p->radius = 0.143;
  p->iterations = 1;
  p->axis = 2;
  p->sweep = 0;
  p->sweep_from = 0.0;
  p->sweep_to = 1.0;
  p->across = 0.5;
  p->max_elements = (int64_t)1 << 27;
}

static int params_check(const sim_adapt_params *p) {
  const char *f = "workload";
  if (p->nsteps < 1)
    return sim_error(MINEX_EINVAL, "%s: nsteps %d must be >= 1", f,
                     (int)p->nsteps);
  if (p->depth < 0 || p->depth > SIM_ADAPT_MAX_DEPTH)
    return sim_error(MINEX_EINVAL, "%s: depth %d must be in 0..%d", f,
                     (int)p->depth, SIM_ADAPT_MAX_DEPTH);
  if (!isfinite(p->radius) || p->radius < 0)
    return sim_error(MINEX_EINVAL, "%s: radius %g must be finite and >= 0", f,
                     p->radius);
  if (p->iterations < 1 || p->iterations > MINEX_ITERATIONS_MAX)
    return sim_error(MINEX_EINVAL, "%s: iterations %ld must be in [1, %ld]", f,
                     (long)p->iterations, (long)MINEX_ITERATIONS_MAX);
  if (p->axis < 0 || p->axis > 2 || p->sweep < 0 || p->sweep > 2 ||
      p->axis == p->sweep)
    return sim_error(MINEX_EINVAL,
                     "%s: axis %d and sweep %d must be distinct "
                     "coordinates in 0..2",
                     f, (int)p->axis, (int)p->sweep);
  if (!isfinite(p->sweep_from) || !isfinite(p->sweep_to) ||
      !isfinite(p->across))
    return sim_error(MINEX_EINVAL,
                     "%s: sweep_from, sweep_to and across must be finite", f);
  if (p->max_elements < 1)
    return sim_error(MINEX_EINVAL, "%s: max_elements %lld must be >= 1", f,
                     (long long)p->max_elements);
  return MINEX_OK;
}

/* Face adjacency from the mesh's dual, and which face each entry is. */
static int adjacency_fill(sim_adapt *a, const minex_mesh *mesh,
                          const int32_t (*sorted)[4]) {
  minex_graph *g = NULL;
  int rc = minex_mesh_dual(mesh, NULL, NULL, NULL, NULL, &g);
  if (rc != MINEX_OK)
    return sim_error(rc, "face adjacency of the mesh: %s", minex_last_error());
  const int32_t n = a->nroots;
  const int64_t m = minex_graph_xadj(g)[n];
  a->xadj = malloc(sizeof *a->xadj * ((size_t)n + 1));
  a->adjncy = malloc(sizeof *a->adjncy * ((size_t)m + 1));
  a->face_here = malloc((size_t)m + 1);
  a->face_there = malloc((size_t)m + 1);
  if (a->xadj == NULL || a->adjncy == NULL || a->face_here == NULL ||
      a->face_there == NULL) {
    minex_graph_destroy(g);
    return sim_error(MINEX_ENOMEM, "out of memory for the face adjacency "
                                   "of the mesh");
  }
  memcpy(a->xadj, minex_graph_xadj(g), sizeof *a->xadj * ((size_t)n + 1));
  memcpy(a->adjncy, minex_graph_adjncy(g), sizeof *a->adjncy * (size_t)m);
  minex_graph_destroy(g);
  for (int32_t v = 0; v < n; v++)
    for (int64_t j = a->xadj[v]; j < a->xadj[v + 1]; j++) {
      int32_t w = a->adjncy[j];
      /* The face of v on w is opposite v's node that w lacks, and back. */
      int fh = -1, ft = -1;
      for (int i = 0; i < 4; i++) {
        int in_w = 0, in_v = 0;
        for (int k = 0; k < 4; k++) {
          in_w |= sorted[v][i] == sorted[w][k];
          in_v |= sorted[w][i] == sorted[v][k];
        }
        if (!in_w)
          fh = i;
        if (!in_v)
          ft = i;
      }
      if (fh < 0 || ft < 0)
        return sim_error(MINEX_EINTERNAL,
                         "elements %d and %d of the mesh are "
                         "neighbours without a shared face",
                         (int)v, (int)w);
      a->face_here[j] = (uint8_t)fh;
      a->face_there[j] = (uint8_t)ft;
    }
  return MINEX_OK;
}

/* Bounding box of the nodes used by elements; geometry of each root. */
static int geometry_fill(sim_adapt *a, const minex_mesh *mesh,
                         int32_t (*sorted)[4]) {
  const sim_adapt_params *p = &a->p;
  const int32_t n = a->nroots;
  const int32_t *el = minex_mesh_elems(mesh);
  const double *xyz = minex_mesh_coords(mesh);
  const int across = 3 - p->axis - p->sweep;
  double lo[3] = {INFINITY, INFINITY, INFINITY};
  double hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (int64_t i = 0; i < (int64_t)n * 4; i++)
    for (int c = 0; c < 3; c++) {
      double x = xyz[3 * (int64_t)el[i] + c];
      lo[c] = fmin(lo[c], x);
      hi[c] = fmax(hi[c], x);
    }
  a->sweep_min = lo[p->sweep];
  a->sweep_len = hi[p->sweep] - lo[p->sweep];
  if (!(a->sweep_len > 0))
    return sim_error(MINEX_EINVAL,
                     "the mesh is flat: no extent along %c, the "
                     "coordinate the refinement sweeps",
                     "xyz"[p->sweep]);
  a->centre_across = lo[across] + p->across * (hi[across] - lo[across]);
  double r = p->radius * a->sweep_len;
  a->r2 = r * r;
  const double inv = 1.0 / a->scale;
  for (int32_t r0 = 0; r0 < n; r0++) {
    const int32_t *en = el + (int64_t)r0 * 4;
    uint8_t idx[4] = {0, 1, 2, 3};
    for (int i = 1; i < 4; i++) /* insertion sort by global node id */
      for (int j = i; j > 0 && en[idx[j - 1]] > en[idx[j]]; j--) {
        uint8_t t = idx[j];
        idx[j] = idx[j - 1];
        idx[j - 1] = t;
      }
    for (int i = 0; i < 4; i++) {
      a->perm[r0][i] = idx[i];
      sorted[r0][i] = en[idx[i]];
      const double *x = xyz + 3 * (int64_t)en[idx[i]];
      a->xy[r0][i][0] = x[p->sweep] * inv;
      a->xy[r0][i][1] = x[across] * inv;
    }
  }
  return MINEX_OK;
}

int sim_adapt_create(const minex_mesh *mesh, const sim_adapt_params *p,
                     sim_adapt **out) {
  sim_error_clear();
  if (out == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_create: out is NULL");
  *out = NULL;
  if (mesh == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_create: mesh is NULL");
  if (minex_mesh_elem_type(mesh) != MINEX_ELEM_TETRA)
    return sim_error(MINEX_EINVAL, "the mesh has triangles; the adaptation "
                                   "workload needs tetrahedra");
  const int32_t n = minex_mesh_nelems(mesh);
  if (n < 1)
    return sim_error(MINEX_EINVAL, "the mesh has no elements");
  sim_adapt_params par;
  if (p != NULL)
    par = *p;
  else
    sim_adapt_defaults(&par);
  int rc = params_check(&par);
  if (rc != MINEX_OK)
    return rc;
  if (n > par.max_elements)
    return sim_error(MINEX_EINVAL,
                     "the mesh's %d elements exceed the "
                     "workload's limit of %lld (max_elements)",
                     (int)n, (long long)par.max_elements);
  sim_adapt *a = calloc(1, sizeof *a);
  int32_t(*sorted)[4] = malloc(sizeof *sorted * (size_t)n);
  if (a == NULL || sorted == NULL) {
    free(a);
    free(sorted);
    return sim_error(MINEX_ENOMEM, "out of memory for the workload");
  }
  a->p = par;
  a->nroots = n;
  a->scale = (int32_t)1 << par.depth;
  sim_split_table_fill(a->kids);
  a->perm = malloc(sizeof *a->perm * (size_t)n);
  a->xy = malloc(sizeof *a->xy * (size_t)n);
  a->tree_cap = n;
  a->tree = calloc((size_t)n, 1); /* every root a leaf */
  a->tree_at = malloc(sizeof *a->tree_at * (size_t)n);
  a->leaves = malloc(sizeof *a->leaves * (size_t)n);
  a->elements = malloc(sizeof *a->elements * (size_t)n);
  a->faces = malloc(sizeof *a->faces * (size_t)n);
  a->depth = calloc((size_t)n, 1);
  if (a->perm == NULL || a->xy == NULL || a->tree == NULL ||
      a->tree_at == NULL || a->leaves == NULL || a->elements == NULL ||
      a->faces == NULL || a->depth == NULL) {
    rc = sim_error(MINEX_ENOMEM,
                   "out of memory for the workload of %d elements", (int)n);
    goto fail;
  }
  for (int32_t r = 0; r < n; r++) {
    a->tree_at[r] = r;
    a->leaves[r] = a->elements[r] = 1;
    for (int f = 0; f < 4; f++)
      a->faces[r][f] = 1;
  }
  a->total_leaves = a->total_elements = n;
  a->tree_used = n;
  a->nheld = n;
  if ((rc = geometry_fill(a, mesh, sorted)) != MINEX_OK ||
      (rc = adjacency_fill(a, mesh, (const int32_t(*)[4])sorted)) != MINEX_OK)
    goto fail;
  free(sorted);
  *out = a;
  return MINEX_OK;
fail:
  free(sorted);
  sim_adapt_destroy(a);
  return rc;
}

void sim_adapt_destroy(sim_adapt *a) {
  if (a == NULL)
    return;
  free(a->perm);
  free(a->xy);
  free(a->xadj);
  free(a->adjncy);
  free(a->face_here);
  free(a->face_there);
  free(a->tree);
  free(a->tree_at);
  free(a->leaves);
  free(a->elements);
  free(a->faces);
  free(a->depth);
  free(a);
}

int32_t sim_adapt_step_count(const sim_adapt *a) {
  return a ? a->step : 0;
}
int32_t sim_adapt_nroots(const sim_adapt *a) {
  return a ? a->nroots : 0;
}
int64_t sim_adapt_leaves(const sim_adapt *a) {
  return a ? a->total_leaves : 0;
}
int64_t sim_adapt_elements(const sim_adapt *a) {
  return a ? a->total_elements : 0;
}

/* ------------------------------------------------------------- queries */

int sim_adapt_root(const sim_adapt *a, int32_t root, sim_root_stats *st) {
  sim_error_clear();
  if (a == NULL || st == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_root: NULL argument");
  if (root < 0 || root >= a->nroots)
    return sim_error(MINEX_EINVAL, "sim_adapt_root: root %d outside [0, %d)",
                     (int)root, (int)a->nroots);
  if (a->elements[root] == 0)
    return sim_error(MINEX_EINVAL,
                     "sim_adapt_root: root %d is not held by this forest",
                     (int)root);
  st->leaves = a->leaves[root];
  st->elements = a->elements[root];
  st->depth = a->depth[root];
  for (int i = 0; i < 4; i++) {
    st->faces[a->perm[root][i]] = a->faces[root][i];
    st->nbr[a->perm[root][i]] = -1;
  }
  for (int64_t j = a->xadj[root]; j < a->xadj[root + 1]; j++)
    st->nbr[a->perm[root][a->face_here[j]]] = a->adjncy[j];
  return MINEX_OK;
}

/* The weights of the current adaptation in a's adjacency order: Pwgt =
 * leaves, Rwgt = tree elements, Cwgt = leaf faces on the shared face (Pwgt
 * and Cwgt per solver iteration; the horizon is the repartitioner's). */
static void adapt_weights(const sim_adapt *a, double *pwgt, double *rwgt,
                          double *cwgt) {
  const int32_t n = a->nroots;
  for (int32_t v = 0; v < n; v++) {
    pwgt[v] = (double)a->leaves[v];
    rwgt[v] = (double)a->elements[v];
    for (int64_t j = a->xadj[v]; j < a->xadj[v + 1]; j++) {
      int64_t here = a->faces[v][a->face_here[j]];
      int64_t there = a->faces[a->adjncy[j]][a->face_there[j]];
      cwgt[j] = (double)(here > there ? here : there);
    }
  }
}

int sim_adapt_graph(const sim_adapt *a, minex_graph **out) {
  sim_error_clear();
  if (out == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_graph: out is NULL");
  *out = NULL;
  if (a == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_graph: NULL argument");
  if (a->nheld != a->nroots)
    return sim_error(MINEX_EINVAL,
                     "sim_adapt_graph: the forest holds %d of the %d roots; "
                     "the graph needs every root's tree",
                     (int)a->nheld, (int)a->nroots);
  const int32_t n = a->nroots;
  const int64_t m = a->xadj[n];
  double *pwgt = malloc(sizeof *pwgt * (size_t)n);
  double *rwgt = malloc(sizeof *rwgt * (size_t)n);
  double *cwgt = malloc(sizeof *cwgt * ((size_t)m + 1));
  int rc;
  if (pwgt == NULL || rwgt == NULL || cwgt == NULL) {
    rc = sim_error(MINEX_ENOMEM,
                   "out of memory for the dual graph of an adaptation");
  } else {
    adapt_weights(a, pwgt, rwgt, cwgt);
    rc = minex_graph_create(n, a->xadj, a->adjncy, pwgt, rwgt, cwgt, out);
    if (rc != MINEX_OK)
      rc = sim_error(rc, "dual graph of an adaptation: %s", minex_last_error());
  }
  free(pwgt);
  free(rwgt);
  free(cwgt);
  return rc;
}

/* ------------------------------------------------ the stream of a tree */

/* What is wrong with a stream (tree_scan), as a message's end. */
enum { TREE_OK, TREE_SHORT, TREE_CODE, TREE_DEEP, TREE_GREEN, TREE_LONG };
static const char *const tree_fault[] = {
    "well-formed",
    "the stream ends inside the tree",
    "not a split code (0..11)",
    "a split at the forest's depth limit",
    "a child of a 1:2 or 1:4 split that is not a leaf",
    "bytes after the end of the tree"};

/* Checks and counts one subtree of a stream: a TREE_ code, with *in left
 * at the faulty byte. Splits stop at depth (<= SIM_ADAPT_MAX_DEPTH), which
 * bounds the recursion whatever the bytes. */
static int scan_node(const sim_adapt *a, const uint8_t **in, const uint8_t *end,
                     lam4 v, int level, walk *w) {
  if (*in >= end)
    return TREE_SHORT;
  int code = **in;
  if (code >= SPLIT_NCODES)
    return TREE_CODE;
  if (code != SPLIT_LEAF && level >= a->p.depth)
    return TREE_DEEP;
  (*in)++;
  w->elements++;
  if (code == SPLIT_LEAF) {
    w->leaves++;
    if (level > w->depth)
      w->depth = level;
    for (int f = 0; f < 4; f++)
      w->faces[f] +=
          (v[0][f] == 0) + (v[1][f] == 0) + (v[2][f] == 0) + (v[3][f] == 0) ==
          3;
    return TREE_OK;
  }
  lam4 kid[8];
  sim_children_of(w, code, v, kid);
  for (int c = 0; c < sim_split_nchildren(code); c++) {
    if (code != SPLIT_RED && *in < end && **in != SPLIT_LEAF)
      return TREE_GREEN;
    int rc = scan_node(a, in, end, kid[c], level + 1, w);
    if (rc != TREE_OK)
      return rc;
  }
  return TREE_OK;
}

/* Checks that buf[0 .. len) is exactly one tree of a's depth and counts it
 * into *w (leaves, elements, depth, sorted-local faces): a TREE_ code,
 * with *at the offset of the faulty byte. */
static int tree_scan(const sim_adapt *a, const uint8_t *buf, int64_t len,
                     walk *w, int64_t *at) {
  memset(w, 0, sizeof *w);
  w->a = a;
  lam4 v;
  sim_root_lambda(a, v);
  const uint8_t *in = buf;
  int rc = scan_node(a, &in, buf + len, v, 0, w);
  if (rc == TREE_OK && in != buf + len)
    rc = TREE_LONG;
  *at = in - buf;
  return rc;
}

int sim_adapt_check(const sim_adapt *a) {
  sim_error_clear();
  if (a == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_check: NULL argument");
  const int64_t full_face = (int64_t)1 << (2 * a->p.depth);
  if (a->tree_used < 0 || a->tree_used > a->tree_cap)
    return sim_error(MINEX_EINTERNAL,
                     "sim_adapt_check: %lld bytes of the trees in use, "
                     "%lld allocated",
                     (long long)a->tree_used, (long long)a->tree_cap);
  int64_t tl = 0, te = 0;
  int32_t held = 0;
  for (int32_t r = 0; r < a->nroots; r++) {
    const int64_t len = a->elements[r];
    if (len == 0) { /* not held: nothing stored, nothing counted */
      int zero = a->leaves[r] == 0 && a->depth[r] == 0;
      for (int f = 0; f < 4; f++)
        zero &= a->faces[r][f] == 0;
      if (!zero)
        return sim_error(MINEX_EINTERNAL,
                         "sim_adapt_check: root %d: counts of a root not "
                         "held",
                         (int)r);
      continue;
    }
    if (a->tree_at[r] < 0 || len < 0 || a->tree_at[r] > a->tree_used - len)
      return sim_error(MINEX_EINTERNAL,
                       "sim_adapt_check: root %d: stream outside the %lld "
                       "bytes in use",
                       (int)r, (long long)a->tree_used);
    walk w;
    int64_t at;
    int rc = tree_scan(a, a->tree + a->tree_at[r], len, &w, &at);
    if (rc != TREE_OK)
      return sim_error(MINEX_EINTERNAL,
                       "sim_adapt_check: root %d: malformed tree (byte %lld "
                       "of %lld: %s)",
                       (int)r, (long long)at, (long long)len, tree_fault[rc]);
    int ok = w.leaves == a->leaves[r] && w.elements == a->elements[r] &&
             w.depth == a->depth[r];
    for (int f = 0; f < 4; f++)
      ok &= w.faces[f] == a->faces[r][f] && w.faces[f] >= 1 &&
            w.faces[f] <= full_face;
    if (!ok)
      return sim_error(MINEX_EINTERNAL,
                       "sim_adapt_check: root %d: stored counts differ "
                       "from a recount",
                       (int)r);
    tl += w.leaves;
    te += len;
    held++;
  }
  if (tl != a->total_leaves || te != a->total_elements || held != a->nheld ||
      te > a->tree_used)
    return sim_error(MINEX_EINTERNAL,
                     "sim_adapt_check: totals differ from the trees");
  return MINEX_OK;
}

/* ------------------------------------------- the roots a forest holds */

int sim_adapt_holds(const sim_adapt *a, int32_t root) {
  return a != NULL && root >= 0 && root < a->nroots && a->elements[root] > 0;
}

size_t sim_adapt_tree_size(const sim_adapt *a, int32_t root) {
  return sim_adapt_holds(a, root) ? (size_t)a->elements[root] : 0;
}

/* The checks the calls on one root share: a and root valid, and held or
 * not as want_held says. */
static int root_arg(const sim_adapt *a, int32_t root, int want_held,
                    const char *fn) {
  if (a == NULL)
    return sim_error(MINEX_EINVAL, "%s: NULL argument", fn);
  if (root < 0 || root >= a->nroots)
    return sim_error(MINEX_EINVAL, "%s: root %d outside [0, %d)", fn, (int)root,
                     (int)a->nroots);
  if (want_held && a->elements[root] == 0)
    return sim_error(MINEX_EINVAL, "%s: root %d is not held by this forest", fn,
                     (int)root);
  if (!want_held && a->elements[root] > 0)
    return sim_error(MINEX_EINVAL,
                     "%s: root %d is held by this forest already (drop "
                     "it first)",
                     fn, (int)root);
  return MINEX_OK;
}

int sim_adapt_tree_pack(const sim_adapt *a, int32_t root, void *buf,
                        size_t len) {
  sim_error_clear();
  int rc = root_arg(a, root, 1, "sim_adapt_tree_pack");
  if (rc != MINEX_OK)
    return rc;
  const size_t need = (size_t)a->elements[root];
  if (buf == NULL || len < need)
    return sim_error(MINEX_EINVAL,
                     "sim_adapt_tree_pack: root %d: its tree takes %zu "
                     "bytes, the buffer %s",
                     (int)root, need, buf == NULL ? "is NULL" : "is smaller");
  memcpy(buf, a->tree + a->tree_at[root], need);
  return MINEX_OK;
}

int sim_adapt_tree_drop(sim_adapt *a, int32_t root) {
  sim_error_clear();
  int rc = root_arg(a, root, 1, "sim_adapt_tree_drop");
  if (rc != MINEX_OK)
    return rc;
  a->total_leaves -= a->leaves[root];
  a->total_elements -= a->elements[root];
  a->leaves[root] = a->elements[root] = 0;
  memset(a->faces[root], 0, sizeof a->faces[root]);
  a->depth[root] = 0;
  a->nheld--;
  return MINEX_OK;
}

/* Room for more bytes at the end of the trees: when the buffer is full,
 * a new one twice the held streams' size, which they are copied to in
 * root order (the holes of dropped roots go). */
static int tree_reserve(sim_adapt *a, int64_t more) {
  if (more <= a->tree_cap - a->tree_used)
    return MINEX_OK;
  const int64_t cap = 2 * (a->total_elements + more);
  uint8_t *b = malloc((size_t)cap);
  if (b == NULL)
    return MINEX_ENOMEM;
  int64_t at = 0;
  for (int32_t r = 0; r < a->nroots; r++)
    if (a->elements[r] > 0) {
      memcpy(b + at, a->tree + a->tree_at[r], (size_t)a->elements[r]);
      a->tree_at[r] = at;
      at += a->elements[r];
    }
  free(a->tree);
  a->tree = b;
  a->tree_cap = cap;
  a->tree_used = at;
  return MINEX_OK;
}

int sim_adapt_tree_unpack(sim_adapt *a, int32_t root, const void *buf,
                          size_t len) {
  sim_error_clear();
  const char *fn = "sim_adapt_tree_unpack";
  int rc = root_arg(a, root, 0, fn);
  if (rc != MINEX_OK)
    return rc;
  if (buf == NULL || len == 0)
    return sim_error(MINEX_EINVAL,
                     "%s: root %d: no bytes (a tree has at least its root)", fn,
                     (int)root);
  if (len > (size_t)(a->p.max_elements - a->total_elements))
    return sim_error(MINEX_EINVAL,
                     "%s: root %d: %zu more elements would take the forest "
                     "beyond its max_elements (%lld)",
                     fn, (int)root, len, (long long)a->p.max_elements);
  walk w;
  int64_t at;
  rc = tree_scan(a, buf, (int64_t)len, &w, &at);
  if (rc != TREE_OK)
    return sim_error(MINEX_EINVAL,
                     "%s: root %d: not a tree of depth <= %d (byte %lld of "
                     "%zu: %s)",
                     fn, (int)root, (int)a->p.depth, (long long)at, len,
                     tree_fault[rc]);
  if (tree_reserve(a, (int64_t)len) != MINEX_OK)
    return sim_error(MINEX_ENOMEM, "%s: root %d: out of memory for %zu bytes",
                     fn, (int)root, len);
  memcpy(a->tree + a->tree_used, buf, len);
  a->tree_at[root] = a->tree_used;
  a->tree_used += (int64_t)len;
  a->leaves[root] = w.leaves;
  a->elements[root] = w.elements;
  memcpy(a->faces[root], w.faces, sizeof w.faces);
  a->depth[root] = (uint8_t)w.depth;
  a->total_leaves += w.leaves;
  a->total_elements += w.elements;
  a->nheld++;
  return MINEX_OK;
}

/* ------------------------------------------------------------- workload */

static double wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void sim_workload_free(sim_workload *w) {
  if (w == NULL)
    return;
  minex_graph_destroy(w->graph);
  for (int32_t k = 0; k < w->nsteps; k++) {
    if (w->pwgt)
      free(w->pwgt[k]);
    if (w->rwgt)
      free(w->rwgt[k]);
    if (w->cwgt)
      free(w->cwgt[k]);
  }
  free(w->pwgt);
  free(w->rwgt);
  free(w->cwgt);
  free(w->leaves);
  free(w->elements);
  memset(w, 0, sizeof *w);
}

int32_t sim_workload_nvtxs(const sim_workload *w) {
  return w && w->graph ? minex_graph_nvtxs(w->graph) : 0;
}

/* Where each of a's adjacency entries stands in g's (sorted) lists:
 * at[j] for a's entry j. */
static void adjacency_map(const sim_adapt *a, const minex_graph *g,
                          int64_t *at) {
  const int64_t *gx = minex_graph_xadj(g);
  const int32_t *gadj = minex_graph_adjncy(g);
  for (int32_t v = 0; v < a->nroots; v++)
    for (int64_t j = a->xadj[v]; j < a->xadj[v + 1]; j++)
      for (int64_t i = gx[v]; i < gx[v + 1]; i++)
        if (gadj[i] == a->adjncy[j])
          at[j] = i;
}

int sim_workload_build(const minex_mesh *mesh, const sim_adapt_params *p,
                       sim_workload *out) {
  sim_error_clear();
  if (out == NULL)
    return sim_error(MINEX_EINVAL, "sim_workload_build: out is NULL");
  memset(out, 0, sizeof *out);
  double t0 = wtime();
  sim_adapt *a = NULL;
  int rc = sim_adapt_create(mesh, p, &a);
  if (rc != MINEX_OK)
    return rc;
  const int32_t ns = a->p.nsteps, n = a->nroots;
  const int64_t m = a->xadj[n];
  out->params = a->p;
  out->nsteps = ns;
  out->initial_elements = a->nroots;
  out->pwgt = calloc((size_t)ns, sizeof *out->pwgt);
  out->rwgt = calloc((size_t)ns, sizeof *out->rwgt);
  out->cwgt = calloc((size_t)ns, sizeof *out->cwgt);
  out->leaves = malloc(sizeof *out->leaves * (size_t)ns);
  out->elements = malloc(sizeof *out->elements * (size_t)ns);
  double *cw = malloc(sizeof *cw * ((size_t)m + 1));
  int64_t *at = malloc(sizeof *at * ((size_t)m + 1));
  if (!out->pwgt || !out->rwgt || !out->cwgt || !out->leaves ||
      !out->elements || !cw || !at)
    rc = sim_error(MINEX_ENOMEM, "out of memory for the workload");
  for (int32_t k = 0; k < ns && rc == MINEX_OK; k++) {
    if ((rc = sim_adapt_step(a)) != MINEX_OK)
      break;
    out->pwgt[k] = malloc(sizeof(double) * ((size_t)n + 1));
    out->rwgt[k] = malloc(sizeof(double) * ((size_t)n + 1));
    out->cwgt[k] = malloc(sizeof(double) * ((size_t)m + 1));
    if (!out->pwgt[k] || !out->rwgt[k] || !out->cwgt[k]) {
      rc = sim_error(MINEX_ENOMEM, "out of memory for the workload");
      break;
    }
    adapt_weights(a, out->pwgt[k], out->rwgt[k], cw);
    /* the first adaptation builds (sorts, validates) the graph; later ones
       only replace its weights, checked by minex_graph_set_weights */
    if (k == 0) {
      rc = minex_graph_create(n, a->xadj, a->adjncy, out->pwgt[k], out->rwgt[k],
                              cw, &out->graph);
      if (rc == MINEX_OK)
        adjacency_map(a, out->graph, at);
    }
    if (rc == MINEX_OK) {
      for (int64_t j = 0; j < m; j++)
        out->cwgt[k][at[j]] = cw[j];
      if (k > 0)
        rc = minex_graph_set_weights(out->graph, out->pwgt[k], out->rwgt[k],
                                     out->cwgt[k]);
    }
    if (rc != MINEX_OK) {
      rc = sim_error(rc, "dual graph of adaptation %d: %s", (int)k + 1,
                     minex_last_error());
      break;
    }
    out->leaves[k] = a->total_leaves;
    out->elements[k] = a->total_elements;
  }
  free(cw);
  free(at);
  sim_adapt_destroy(a);
  if (rc != MINEX_OK) {
    sim_workload_free(out);
    return rc;
  }
  out->seconds = wtime() - t0;
  return MINEX_OK;
}

int sim_workload_graph(const sim_workload *w, int32_t k, minex_graph **g) {
  if (w == NULL || g == NULL || w->graph == NULL)
    return sim_error(MINEX_EINVAL, "sim_workload_graph: NULL argument");
  if (k < 0 || k >= w->nsteps)
    return sim_error(MINEX_EINVAL,
                     "sim_workload_graph: adaptation %d "
                     "outside [1, %d]",
                     (int)k + 1, (int)w->nsteps);
  if (*g != NULL) {
    int rc = minex_graph_set_weights(*g, w->pwgt[k], w->rwgt[k], w->cwgt[k]);
    return rc == MINEX_OK ? MINEX_OK
                          : sim_error(rc, "adaptation %d: %s", (int)k + 1,
                                      minex_last_error());
  }
  const minex_graph *t = w->graph;
  int rc = minex_graph_create(minex_graph_nvtxs(t), minex_graph_xadj(t),
                              minex_graph_adjncy(t), w->pwgt[k], w->rwgt[k],
                              w->cwgt[k], g);
  return rc == MINEX_OK ? MINEX_OK
                        : sim_error(rc, "adaptation %d: %s", (int)k + 1,
                                    minex_last_error());
}
