/* The adaptive-mesh refinement workload of the MinEX paper (§2.1, §2.2):
 * refinement trees under a moving cylinder and the weighted dual graph of
 * their roots. The model is described in docs/workload.md.
 *
 * Each tree is stored as its preorder sequence of split codes, one byte per
 * node, all trees end to end; a node's vertices are not stored but derived
 * on the way down from the root, as integer barycentric coordinates of the
 * root scaled by 2^depth (every midpoint down to the deepest level stays
 * integral, so "lies on root face i" is the exact test lambda_i == 0).
 * An adaptation rewrites the whole forest in one preorder pass into a
 * second buffer: O(elements) time, 2 bytes per element of memory. */
#include "adapt.h"

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

static int sim_error(int rc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int sim_error(int rc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  sim_error_vset(rc, fmt, ap);
  va_end(ap);
  return rc;
}

static void sim_error_clear(void) {
  last_error[0] = '\0';
}

/* ------------------------------------------------------------ split codes */

/* Split codes of a tree node (one byte in the preorder stream). */
enum {
  SPLIT_LEAF = 0, /* no children                                       */
  SPLIT_EDGE = 1, /* 1..6: 1:2 bisection of edge code-1 (2 children)   */
  SPLIT_FACE = 7, /* 7..10: 1:4 of the face opposite vertex code-7     */
  SPLIT_RED = 11, /* 1:8, Bey's red refinement                          */
  SPLIT_NCODES = 12
};

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

static int split_nchildren(int code) {
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
  int c = split_nchildren(split_of_mask(mask));
  return c == 0 ? 1 : c;
}

/* kids[code][c][j]: point (0..9) that is vertex j of child c. */
typedef int8_t split_table[SPLIT_NCODES][8][4];

static void split_table_fill(split_table kids) {
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

/* ------------------------------------------------------------ the forest */

struct sim_adapt {
  sim_adapt_params p; /* parameters, validated                        */
  int32_t nroots;     /* mesh elements                                */
  int32_t step;       /* adaptations made, 0..nsteps                  */
  int32_t scale;      /* 2^depth: barycentric coordinates' unit       */
  /* Each root's nodes are taken in ascending global node id ("sorted
   * local" order), so that a point shared by two roots is computed from
   * the same terms in the same order on both sides (see point_2d). */
  uint8_t (*perm)[4];   /* perm[r][i]: mesh-local index of sorted node i */
  double (*xy)[4][2];   /* sorted nodes' sweep and across coordinates,
                           divided by scale                             */
  double centre_across; /* cylinder centre along the third coordinate   */
  double sweep_min;     /* bounding box along sweep: min and extent     */
  double sweep_len;
  double r2; /* squared cylinder radius (mesh units)         */
  /* Face adjacency of the roots (the mesh's dual), CSR both directions. */
  int64_t *xadj;       /* nroots+1 offsets                             */
  int32_t *adjncy;     /* neighbours, sorted                           */
  uint8_t *face_here;  /* per entry v->w: v's sorted-local face on w   */
  uint8_t *face_there; /* per entry v->w: w's sorted-local face on v   */
  /* The trees: root r's preorder codes are tree[xtree[r] .. xtree[r+1]). */
  uint8_t *tree;
  int64_t *xtree;
  int64_t tree_cap; /* bytes allocated in tree                      */
  /* Per-root counts after the last adaptation (sorted-local faces). */
  int64_t *leaves;
  int64_t *elements;
  int64_t (*faces)[4];
  uint8_t *depth;
  int64_t total_leaves;
  int64_t total_elements;
  split_table kids; /* children of each split code                  */
};

void sim_adapt_defaults(sim_adapt_params *p) {
  if (p == NULL)
    return;
  p->nsteps = 9;
  p->depth = 3;
  p->radius = 0.143;
  p->iters = 1.0;
  p->axis = 2;
  p->sweep = 0;
  p->sweep_from = 0.0;
  p->sweep_to = 1.0;
  p->across = 0.5;
  p->max_elements = (int64_t)1 << 27;
}

static int params_check(const sim_adapt_params *p) {
  const char *f = "sim_adapt_create";
  if (p->nsteps < 1)
    return sim_error(MINEX_EINVAL, "%s: nsteps %d must be >= 1", f,
                     (int)p->nsteps);
  if (p->depth < 0 || p->depth > SIM_ADAPT_MAX_DEPTH)
    return sim_error(MINEX_EINVAL, "%s: depth %d must be in 0..%d", f,
                     (int)p->depth, SIM_ADAPT_MAX_DEPTH);
  if (!isfinite(p->radius) || p->radius < 0)
    return sim_error(MINEX_EINVAL, "%s: radius %g must be finite and >= 0", f,
                     p->radius);
  if (!isfinite(p->iters) || p->iters <= 0)
    return sim_error(MINEX_EINVAL, "%s: iters %g must be finite and > 0", f,
                     p->iters);
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
    return sim_error(rc, "sim_adapt_create: dual of the mesh: %s",
                     minex_last_error());
  const int32_t n = a->nroots;
  const int64_t m = minex_graph_xadj(g)[n];
  a->xadj = malloc(sizeof *a->xadj * ((size_t)n + 1));
  a->adjncy = malloc(sizeof *a->adjncy * ((size_t)m + 1));
  a->face_here = malloc((size_t)m + 1);
  a->face_there = malloc((size_t)m + 1);
  if (a->xadj == NULL || a->adjncy == NULL || a->face_here == NULL ||
      a->face_there == NULL) {
    minex_graph_destroy(g);
    return sim_error(MINEX_ENOMEM, "sim_adapt_create: out of memory for "
                                   "the adjacency");
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
                         "sim_adapt_create: elements %d and %d are "
                         "dual neighbours without a shared face",
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
                     "sim_adapt_create: the mesh has no extent along "
                     "the sweep coordinate %d",
                     (int)p->sweep);
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
    return sim_error(MINEX_EINVAL, "sim_adapt_create: the mesh has "
                                   "triangles; the refinement model needs "
                                   "tetrahedra");
  const int32_t n = minex_mesh_nelems(mesh);
  if (n < 1)
    return sim_error(MINEX_EINVAL, "sim_adapt_create: the mesh has no "
                                   "elements");
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
                     "sim_adapt_create: %d elements exceed max_elements "
                     "%lld",
                     (int)n, (long long)par.max_elements);
  sim_adapt *a = calloc(1, sizeof *a);
  int32_t(*sorted)[4] = malloc(sizeof *sorted * (size_t)n);
  if (a == NULL || sorted == NULL) {
    free(a);
    free(sorted);
    return sim_error(MINEX_ENOMEM, "sim_adapt_create: out of memory");
  }
  a->p = par;
  a->nroots = n;
  a->scale = (int32_t)1 << par.depth;
  split_table_fill(a->kids);
  a->perm = malloc(sizeof *a->perm * (size_t)n);
  a->xy = malloc(sizeof *a->xy * (size_t)n);
  a->tree_cap = n;
  a->tree = calloc((size_t)n, 1); /* every root a leaf */
  a->xtree = malloc(sizeof *a->xtree * ((size_t)n + 1));
  a->leaves = malloc(sizeof *a->leaves * (size_t)n);
  a->elements = malloc(sizeof *a->elements * (size_t)n);
  a->faces = malloc(sizeof *a->faces * (size_t)n);
  a->depth = calloc((size_t)n, 1);
  if (a->perm == NULL || a->xy == NULL || a->tree == NULL || a->xtree == NULL ||
      a->leaves == NULL || a->elements == NULL || a->faces == NULL ||
      a->depth == NULL) {
    rc = sim_error(MINEX_ENOMEM, "sim_adapt_create: out of memory for %d roots",
                   (int)n);
    goto fail;
  }
  for (int32_t r = 0; r <= n; r++)
    a->xtree[r] = r;
  for (int32_t r = 0; r < n; r++) {
    a->leaves[r] = a->elements[r] = 1;
    for (int f = 0; f < 4; f++)
      a->faces[r][f] = 1;
  }
  a->total_leaves = a->total_elements = n;
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
  free(a->xtree);
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

/* ------------------------------------------------------- one adaptation */

typedef int32_t lam4[4][4]; /* lam[vertex][root node]: barycentric * 2^depth */

/* State of one adaptation pass, root after root. */
typedef struct walk {
  const sim_adapt *a;
  const double (*xy)[2]; /* this root's sorted nodes, scaled by 1/2^depth */
  double cs, ca;         /* cylinder centre (sweep, across) this step     */
  const uint8_t *in;     /* cursor in the old preorder stream             */
  uint8_t *out;          /* new stream of all roots, grown on demand      */
  int64_t len, cap;      /* bytes written (= elements so far) / allocated */
  int64_t limit;         /* max_elements: the bound on len                */
  /* Counts of the current root: */
  int64_t leaves;   /* leaves                                      */
  int64_t elements; /* tree nodes                                  */
  int64_t faces[4]; /* leaf triangles on each sorted-local face    */
  int depth;        /* largest leaf level                          */
  int rc;           /* first failure; the pass then stops          */
} walk;

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

static void children_of(const walk *w, int code, lam4 v, lam4 *kid) {
  int32_t pt[10][4];
  memcpy(pt, v, sizeof(lam4));
  for (int e = 0; e < 6; e++)
    for (int i = 0; i < 4; i++)
      pt[4 + e][i] = (v[edge_v[e][0]][i] + v[edge_v[e][1]][i]) / 2;
  const int8_t(*k)[4] = w->a->kids[code];
  for (int c = 0; c < split_nchildren(code); c++)
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
  children_of(w, code, v, kid);
  for (int c = 0; c < split_nchildren(code) && w->rc == MINEX_OK; c++) {
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
  const int nk = split_nchildren(code);
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
  children_of(w, code, v, kid);
  for (int c = 0; c < nk; c++) {
    if (code == SPLIT_RED) {
      adapt_node(w, kid[c], level + 1);
    } else { /* a green split that still fits: its children stay leaves */
      w->in++;
      emit_leaf(w, kid[c], level + 1);
    }
  }
}

static void root_lambda(const sim_adapt *a, lam4 v) {
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
                     "sim_adapt_step: all %d adaptations are made",
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
  w.in = a->tree;
  w.cap = a->tree_cap;
  w.out = malloc((size_t)w.cap);
  int64_t *xnew = malloc(sizeof *xnew * ((size_t)n + 1));
  int64_t *leaves = malloc(sizeof *leaves * (size_t)n);
  int64_t *elements = malloc(sizeof *elements * (size_t)n);
  int64_t(*faces)[4] = malloc(sizeof *faces * (size_t)n);
  uint8_t *depth = malloc((size_t)n);
  if (w.out == NULL || xnew == NULL || leaves == NULL || elements == NULL ||
      faces == NULL || depth == NULL) {
    w.rc = MINEX_ENOMEM;
    goto done;
  }
  w.limit = p->max_elements;
  xnew[0] = 0;
  int64_t total_leaves = 0;
  for (int32_t r = 0; r < n && w.rc == MINEX_OK; r++) {
    w.xy = (const double(*)[2])a->xy[r];
    w.leaves = w.elements = 0;
    memset(w.faces, 0, sizeof w.faces);
    w.depth = 0;
    lam4 v;
    root_lambda(a, v);
    adapt_node(&w, v, 0);
    xnew[r + 1] = w.len;
    leaves[r] = w.leaves;
    elements[r] = w.elements;
    memcpy(faces[r], w.faces, sizeof w.faces);
    depth[r] = (uint8_t)w.depth;
    total_leaves += w.leaves;
  }
  if (w.rc != MINEX_OK)
    goto done;
  free(a->tree);
  free(a->xtree);
  free(a->leaves);
  free(a->elements);
  free(a->faces);
  free(a->depth);
  a->tree = w.out;
  a->tree_cap = w.cap;
  a->xtree = xnew;
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
  free(xnew);
  free(leaves);
  free(elements);
  free(faces);
  free(depth);
  if (w.rc == MINEX_EINVAL)
    return sim_error(MINEX_EINVAL,
                     "sim_adapt_step: adaptation %d exceeds max_elements "
                     "%lld tree elements",
                     k, (long long)p->max_elements);
  return sim_error(MINEX_ENOMEM,
                   "sim_adapt_step: out of memory in adaptation %d", k);
}

/* ------------------------------------------------------------- queries */

int sim_adapt_root(const sim_adapt *a, int32_t root, sim_root_stats *st) {
  sim_error_clear();
  if (a == NULL || st == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_root: NULL argument");
  if (root < 0 || root >= a->nroots)
    return sim_error(MINEX_EINVAL, "sim_adapt_root: root %d outside [0, %d)",
                     (int)root, (int)a->nroots);
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

int sim_adapt_graph(const sim_adapt *a, minex_graph **out) {
  sim_error_clear();
  if (out == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_graph: out is NULL");
  *out = NULL;
  if (a == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_graph: NULL argument");
  const int32_t n = a->nroots;
  const int64_t m = a->xadj[n];
  const double it = a->p.iters;
  double *pwgt = malloc(sizeof *pwgt * (size_t)n);
  double *rwgt = malloc(sizeof *rwgt * (size_t)n);
  double *cwgt = malloc(sizeof *cwgt * ((size_t)m + 1));
  int rc;
  if (pwgt == NULL || rwgt == NULL || cwgt == NULL) {
    rc = sim_error(MINEX_ENOMEM, "sim_adapt_graph: out of memory");
  } else {
    for (int32_t v = 0; v < n; v++) {
      pwgt[v] = it * (double)a->leaves[v];
      rwgt[v] = (double)a->elements[v];
      for (int64_t j = a->xadj[v]; j < a->xadj[v + 1]; j++) {
        int64_t here = a->faces[v][a->face_here[j]];
        int64_t there = a->faces[a->adjncy[j]][a->face_there[j]];
        cwgt[j] = it * (double)(here > there ? here : there);
      }
    }
    rc = minex_graph_create(n, a->xadj, a->adjncy, pwgt, rwgt, cwgt, out);
    if (rc != MINEX_OK)
      rc = sim_error(rc, "sim_adapt_graph: %s", minex_last_error());
  }
  free(pwgt);
  free(rwgt);
  free(cwgt);
  return rc;
}

/* Recount of one subtree for sim_adapt_check; returns 0 when malformed. */
static int check_node(const sim_adapt *a, const uint8_t **in,
                      const uint8_t *end, lam4 v, int level, walk *w) {
  if (*in >= end)
    return 0;
  int code = *(*in)++;
  if (code >= SPLIT_NCODES || (code != SPLIT_LEAF && level >= a->p.depth))
    return 0;
  if (code == SPLIT_LEAF) {
    w->leaves++;
    w->elements++;
    if (level > w->depth)
      w->depth = level;
    for (int f = 0; f < 4; f++)
      w->faces[f] +=
          (v[0][f] == 0) + (v[1][f] == 0) + (v[2][f] == 0) + (v[3][f] == 0) ==
          3;
    return 1;
  }
  w->elements++;
  lam4 kid[8];
  children_of(w, code, v, kid);
  for (int c = 0; c < split_nchildren(code); c++) {
    if (code != SPLIT_RED && (*in >= end || **in != SPLIT_LEAF))
      return 0;
    if (!check_node(a, in, end, kid[c], level + 1, w))
      return 0;
  }
  return 1;
}

int sim_adapt_check(const sim_adapt *a) {
  sim_error_clear();
  if (a == NULL)
    return sim_error(MINEX_EINVAL, "sim_adapt_check: NULL argument");
  const int64_t full_face = (int64_t)1 << (2 * a->p.depth);
  int64_t tl = 0;
  if (a->xtree[0] != 0)
    return sim_error(MINEX_EINTERNAL, "sim_adapt_check: xtree[0] != 0");
  for (int32_t r = 0; r < a->nroots; r++) {
    walk w = {0};
    w.a = a;
    const uint8_t *in = a->tree + a->xtree[r];
    const uint8_t *end = a->tree + a->xtree[r + 1];
    lam4 v;
    root_lambda(a, v);
    if (!check_node(a, &in, end, v, 0, &w) || in != end)
      return sim_error(MINEX_EINTERNAL,
                       "sim_adapt_check: root %d: malformed tree", (int)r);
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
  }
  if (tl != a->total_leaves || a->xtree[a->nroots] != a->total_elements)
    return sim_error(MINEX_EINTERNAL,
                     "sim_adapt_check: totals differ from the trees");
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
  if (w->graphs != NULL)
    for (int32_t k = 0; k < w->nsteps; k++)
      minex_graph_destroy(w->graphs[k]);
  free(w->graphs);
  free(w->leaves);
  free(w->elements);
  memset(w, 0, sizeof *w);
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
  const int32_t ns = a->p.nsteps;
  out->params = a->p;
  out->nsteps = ns;
  out->initial_elements = a->nroots;
  out->graphs = calloc((size_t)ns, sizeof *out->graphs);
  out->leaves = malloc(sizeof *out->leaves * (size_t)ns);
  out->elements = malloc(sizeof *out->elements * (size_t)ns);
  if (out->graphs == NULL || out->leaves == NULL || out->elements == NULL)
    rc = sim_error(MINEX_ENOMEM, "sim_workload_build: out of memory");
  for (int32_t k = 0; k < ns && rc == MINEX_OK; k++) {
    if ((rc = sim_adapt_step(a)) != MINEX_OK ||
        (rc = sim_adapt_graph(a, &out->graphs[k])) != MINEX_OK)
      break;
    out->leaves[k] = a->total_leaves;
    out->elements[k] = a->total_elements;
  }
  sim_adapt_destroy(a);
  if (rc != MINEX_OK) {
    sim_workload_free(out);
    return rc;
  }
  out->seconds = wtime() - t0;
  return MINEX_OK;
}
