/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One adaptation of the refinement forest of the MinEX paper (§2.1, §2.2):
 * the split codes and 3D_TAG's split tables, and the pass that coarsens and
 * refines every tree for the cylinder's next position
 * (docs/design/workload.md). An adaptation rewrites the whole forest in one
 * preorder pass into a second buffer: O(elements) time, 2 bytes per element of
 * memory. */
#include "adapt_internal.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ split codes */

/* Edge i joins vertices edge_v[i][0] < edge_v[i][1]. Points of a node are
 * numbered 0..3 (its vertices) and 4 + i (the midpoint of edge i). */
static const int edge_v[6][2] = {{0, 1}, {0, 2}, {0, 3},
                                 {1, 2}, {1, 3}, {2, 3}};

static int edge_index(int a, int b) {
  if (a > b) {
    int t = a;
    a = b;
    b = t;
  }
  for (int e = 0; e < 6; e++)
    if (edge_v[e][0] == a && edge_v[e][1] == b)
      return e;
  return -1;
}

/* Edges of the face opposite vertex d (those not touching d). */
static unsigned face_edge_mask(int d) {
  unsigned m = 0;
  for (int e = 0; e < 6; e++)
    if (edge_v[e][0] != d && edge_v[e][1] != d)
      m |= 1u << e;
  return m;
}

int sim_split_nchildren(int code) {
  if (code == SPLIT_LEAF)
    return 0;
  if (code < SPLIT_FACE)
    return 2;
  if (code < SPLIT_RED)
    return 4;
  return 8;
}

/* The split a marked-edge pattern asks for (3D_TAG's three patterns). */
static int split_of_mask(unsigned mask) {
  if (mask == 0)
    return SPLIT_LEAF;
  if ((mask & (mask - 1)) == 0) {
    int e = 0;
    while (!(mask & (1u << e)))
      e++;
    return SPLIT_EDGE + e;
  }
  for (int d = 0; d < 4; d++)
    if ((mask & ~face_edge_mask(d)) == 0)
      return SPLIT_FACE + d;
  return SPLIT_RED;
}

int sim_split_children(unsigned mask) {
  if (mask > 63)
    return -1;
  int c = sim_split_nchildren(split_of_mask(mask));
  return c == 0 ? 1 : c;
}

void sim_split_table_fill(split_table kids) {
  memset(kids, -1, sizeof(split_table));
  for (int e = 0; e < 6; e++) {
    int a = edge_v[e][0], b = edge_v[e][1];
    for (int c = 0; c < 2; c++)
      for (int j = 0; j < 4; j++)
        kids[SPLIT_EDGE + e][c][j] = (int8_t)j;
    kids[SPLIT_EDGE + e][0][a] = (int8_t)(4 + e); /* (m, b, ...) */
    kids[SPLIT_EDGE + e][1][b] = (int8_t)(4 + e); /* (a, m, ...) */
  }
  for (int d = 0; d < 4; d++) {
    int v[3], n = 0;
    for (int j = 0; j < 4; j++)
      if (j != d)
        v[n++] = j;
    int8_t mab = (int8_t)(4 + edge_index(v[0], v[1]));
    int8_t mbc = (int8_t)(4 + edge_index(v[1], v[2]));
    int8_t mac = (int8_t)(4 + edge_index(v[0], v[2]));
    int8_t(*k)[4] = kids[SPLIT_FACE + d];
    for (int c = 0; c < 4; c++)
      for (int j = 0; j < 4; j++)
        k[c][j] = (int8_t)j;
    /* Three corner triangles and the middle one, each joined to d. */
    k[0][v[1]] = mab, k[0][v[2]] = mac;
    k[1][v[0]] = mab, k[1][v[2]] = mbc;
    k[2][v[0]] = mac, k[2][v[1]] = mbc;
    k[3][v[0]] = mab, k[3][v[1]] = mbc, k[3][v[2]] = mac;
  }
  /* Bey (1995): four corner tetrahedra and the octahedron cut along the
   * diagonal m02-m13. Points: 4 m01, 5 m02, 6 m03, 7 m12, 8 m13, 9 m23. */
  static const int8_t red[8][4] = {{0, 4, 5, 6}, {4, 1, 7, 8}, {5, 7, 2, 9},
                                   {6, 8, 9, 3}, {4, 5, 6, 8}, {4, 5, 7, 8},
                                   {5, 6, 8, 9}, {5, 7, 8, 9}};
  memcpy(kids[SPLIT_RED], red, sizeof red);
}

/* ------------------------------------------------------- one adaptation */

/* Coordinates (sweep, across) of a point of the root. The nodes are in
 * ascending global id and zero terms add exactly, so a point on a face or
 * edge shared by two roots gets the same bits from both: the marks and
 * hence the refinement agree across the shared face. */
static void point_2d(const double (*xy)[2], const int32_t *l, double *s,
                     double *t) {
  double x = 0, y = 0;
  for (int i = 0; i < 4; i++) {
    x += (double)l[i] * xy[i][0];
    y += (double)l[i] * xy[i][1];
  }
  *s = x;
  *t = y;
}

/* Edges of the node whose midpoint is in the cylinder (non-strict). */
static unsigned node_marks(const walk *w, lam4 v) {
  double s[4], t[4];
  for (int i = 0; i < 4; i++)
    point_2d(w->xy, v[i], &s[i], &t[i]);
  unsigned mask = 0;
  for (int e = 0; e < 6; e++) {
    int p = edge_v[e][0], q = edge_v[e][1];
    double ds = 0.5 * (s[p] + s[q]) - w->cs, dt = 0.5 * (t[p] + t[q]) - w->ca;
    if (ds * ds + dt * dt <= w->a->r2)
      mask |= 1u << e;
  }
  return mask;
}

void sim_children_of(const walk *w, int code, lam4 v, lam4 *kid) {
  int32_t pt[10][4];
  memcpy(pt, v, sizeof(lam4));
  for (int e = 0; e < 6; e++)
    for (int i = 0; i < 4; i++)
      pt[4 + e][i] = (v[edge_v[e][0]][i] + v[edge_v[e][1]][i]) / 2;
  const int8_t(*k)[4] = w->a->kids[code];
  for (int c = 0; c < sim_split_nchildren(code); c++)
    for (int j = 0; j < 4; j++)
      memcpy(kid[c][j], pt[k[c][j]], sizeof pt[0]);
}

static void emit(walk *w, int code) {
  if (w->rc != MINEX_OK)
    return;
  if (w->len >= w->limit) {
    w->rc = MINEX_EINVAL;
    return;
  }
  if (w->len == w->cap) {
    int64_t cap = w->cap < 1024 ? 1024 : 2 * w->cap;
    uint8_t *b = realloc(w->out, (size_t)cap);
    if (b == NULL) {
      w->rc = MINEX_ENOMEM;
      return;
    }
    w->out = b;
    w->cap = cap;
  }
  w->out[w->len++] = (uint8_t)code;
  w->elements++;
}

static void emit_leaf(walk *w, lam4 v, int level) {
  emit(w, SPLIT_LEAF);
  w->leaves++;
  if (level > w->depth)
    w->depth = level;
  /* The leaf's face on root face f has its 3 other vertices at lambda_f=0
   * (a tetrahedron has at most 3 vertices on a plane). */
  for (int f = 0; f < 4; f++)
    w->faces[f] +=
        (v[0][f] == 0) + (v[1][f] == 0) + (v[2][f] == 0) + (v[3][f] == 0) == 3;
}

/* Emits a node split by code; 1:8 children are refined on to depth by
 * their own marks, children of 1:2 and 1:4 (green) splits stay leaves. */
static void refine(walk *w, lam4 v, int level, int code) {
  emit(w, code);
  lam4 kid[8];
  sim_children_of(w, code, v, kid);
  for (int c = 0; c < sim_split_nchildren(code) && w->rc == MINEX_OK; c++) {
    int sub = SPLIT_LEAF;
    if (code == SPLIT_RED && level + 1 < w->a->p.depth)
      sub = split_of_mask(node_marks(w, kid[c]));
    if (sub != SPLIT_LEAF)
      refine(w, kid[c], level + 1, sub);
    else
      emit_leaf(w, kid[c], level + 1);
  }
}

/* Rewrites the subtree at w->in for this step: an unmarked node whose
 * children were all leaves loses them (one level per step); a green node
 * whose split no longer fits its marks is split anew; a marked leaf is
 * refined. */
static void adapt_node(walk *w, lam4 v, int level) {
  if (w->rc != MINEX_OK)
    return;
  int code = *w->in++;
  int want =
      level < w->a->p.depth ? split_of_mask(node_marks(w, v)) : SPLIT_LEAF;
  if (code == SPLIT_LEAF) {
    if (want != SPLIT_LEAF)
      refine(w, v, level, want);
    else
      emit_leaf(w, v, level);
    return;
  }
  const int nk = sim_split_nchildren(code);
  int all_leaves = 1;
  for (int c = 0; c < nk; c++)
    all_leaves &= w->in[c] == SPLIT_LEAF;
  if (all_leaves &&
      (want == SPLIT_LEAF || (code != SPLIT_RED && want != code))) {
    w->in += nk;
    if (want != SPLIT_LEAF)
      refine(w, v, level, want);
    else
      emit_leaf(w, v, level);
    return;
  }
  emit(w, code);
  lam4 kid[8];
  sim_children_of(w, code, v, kid);
  for (int c = 0; c < nk; c++) {
    if (code == SPLIT_RED) {
      adapt_node(w, kid[c], level + 1);
    } else { /* a green split that still fits: its children stay leaves */
      w->in++;
      emit_leaf(w, kid[c], level + 1);
    }
  }
}

void sim_root_lambda(const sim_adapt *a, lam4 v) {
  memset(v, 0, sizeof(lam4));
  for (int i = 0; i < 4; i++)
    v[i][i] = a->scale;
}

int sim_adapt_step(sim_adapt *a) {
  sim_error_clear();
  if (a == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_step: NULL argument");
  if (a->step >= a->p.nsteps)
    return sim_error(MINEX_EINVAL,
                     "all %d adaptations of the workload are made",
                     (int)a->p.nsteps);
  const sim_adapt_params *p = &a->p;
  const int32_t n = a->nroots;
  const int k = a->step + 1;
  double f =
      p->sweep_from + (k - 0.5) / p->nsteps * (p->sweep_to - p->sweep_from);
  walk w = {0};
  w.a = a;
  w.cs = a->sweep_min + f * a->sweep_len;
  w.ca = a->centre_across;
  w.cap = a->tree_cap;
  w.out = malloc((size_t)w.cap);
  int64_t *at = malloc(sizeof *at * (size_t)n);
  int64_t *leaves = malloc(sizeof *leaves * (size_t)n);
  int64_t *elements = malloc(sizeof *elements * (size_t)n);
  int64_t(*faces)[4] = malloc(sizeof *faces * (size_t)n);
  uint8_t *depth = malloc((size_t)n);
  if (w.out == NULL || at == NULL || leaves == NULL || elements == NULL ||
      faces == NULL || depth == NULL) {
    w.rc = MINEX_ENOMEM;
    goto done;
  }
  w.limit = p->max_elements;
  int64_t total_leaves = 0;
  for (int32_t r = 0; r < n && w.rc == MINEX_OK; r++) {
    at[r] = w.len;
    if (a->elements[r] == 0) { /* not held here: no tree, no counts */
      leaves[r] = elements[r] = 0;
      memset(faces[r], 0, sizeof faces[r]);
      depth[r] = 0;
      continue;
    }
    w.in = a->tree + a->tree_at[r];
    w.xy = (const double(*)[2])a->xy[r];
    w.leaves = w.elements = 0;
    memset(w.faces, 0, sizeof w.faces);
    w.depth = 0;
    lam4 v;
    sim_root_lambda(a, v);
    adapt_node(&w, v, 0);
    leaves[r] = w.leaves;
    elements[r] = w.elements;
    memcpy(faces[r], w.faces, sizeof w.faces);
    depth[r] = (uint8_t)w.depth;
    total_leaves += w.leaves;
  }
  if (w.rc != MINEX_OK)
    goto done;
  free(a->tree);
  free(a->tree_at);
  free(a->leaves);
  free(a->elements);
  free(a->faces);
  free(a->depth);
  a->tree = w.out;
  a->tree_cap = w.cap;
  a->tree_used = w.len;
  a->tree_at = at;
  a->leaves = leaves;
  a->elements = elements;
  a->faces = faces;
  a->depth = depth;
  a->total_leaves = total_leaves;
  a->total_elements = w.len;
  a->step = k;
  return MINEX_OK;
done:
  free(w.out);
  free(at);
  free(leaves);
  free(elements);
  free(faces);
  free(depth);
  if (w.rc == MINEX_EINVAL)
    return sim_error(MINEX_EINVAL,
                     "adaptation %d would make more than %lld "
                     "tree elements (max_elements): fewer steps or a "
                     "smaller depth or radius",
                     k, (long long)p->max_elements);
  return sim_error(MINEX_ENOMEM, "out of memory in adaptation %d", k);
}
