/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gmsh .msh reader (SPEC §7): ASCII versions 2.x, 4.0 and 4.1 here, binary
 * 2.x, 4.0 and 4.1 in gmsh_bin.c after this file has read $MeshFormat. Keeps
 * the tetrahedra, hexahedra, prisms, pyramids, triangles and quadrilaterals of
 * every order (corners kept) through mesh_lists, which keeps the highest
 * dimension; points and lines are ignored and counted. A Gmsh type that
 * is no such element (polygons, polyhedra, order-0 and sub-elements) and
 * a type that is not Gmsh's are errors. The partition of a partitioned
 * file (v2 element tags, 4.1 $PartitionedEntities) is kept. Unknown
 * sections are skipped.
 * Node tags may be sparse: they map to 0-based indices in file order
 * through a dense table or, when tags are very sparse, a sorted array. */
#include "mesh/gmsh.h"

#include <stdio.h>

#include "core/core.h"

#include <stdlib.h>
#include <string.h>

#define PATH g->r.path
#define LINE ((long long)g->r.lineno)

/* Next non-empty line; end of file inside section sec is a truncation. */
static int next_line(gmsh_reader *g, const char *sec) {
  for (;;) {
    int rc = io_reader_next(&g->r);
    if (rc < 0)
      return rc;
    if (rc == 0)
      return core_error(MINEX_EPARSE,
                        "%s:%lld: end of file inside %s: "
                        "section truncated",
                        PATH, LINE, sec);
    if (!io_rest_blank(g->r.line))
      return MINEX_OK;
  }
}

/* Reads n integers from *s onwards. */
static int ints(gmsh_reader *g, char **s, int n, int64_t *v, const char *what) {
  for (int i = 0; i < n; i++)
    if (io_parse_i64_line(*s, s, &v[i]) != 0) {
      if (g->r.line[0] == '$')
        return core_error(MINEX_EPARSE,
                          "%s:%lld: '%.40s' where %s was "
                          "expected: the section's counts disagree with "
                          "its data",
                          PATH, LINE, g->r.line, what);
      return core_error(MINEX_EPARSE,
                        "%s:%lld: bad or missing integer in "
                        "%s",
                        PATH, LINE, what);
    }
  return MINEX_OK;
}

static int expect_end(gmsh_reader *g, const char *end, const char *sec) {
  int rc = next_line(g, sec);
  if (rc != MINEX_OK)
    return rc;
  if (strncmp(g->r.line, end, strlen(end)) != 0 ||
      !io_rest_blank(g->r.line + strlen(end)))
    return core_error(MINEX_EPARSE,
                      "%s:%lld: '%.40s' where %s was expected: "
                      "the section holds more data than its counts say",
                      PATH, LINE, g->r.line, end);
  return MINEX_OK;
}

static int format_section(gmsh_reader *g) {
  int rc = next_line(g, "$MeshFormat");
  if (rc != MINEX_OK)
    return rc;
  char *s = g->r.line;
  double version;
  int64_t ftype, dsize;
  if (io_parse_double(s, &s, &version) != 0 ||
      io_parse_i64(s, &s, &ftype) != 0 || io_parse_i64(s, &s, &dsize) != 0)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: $MeshFormat needs "
                      "'version file-type data-size'",
                      PATH, LINE);
  if (ftype != 0 && ftype != 1)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: file-type %lld (0 ASCII or 1 "
                      "binary expected)",
                      PATH, LINE, (long long)ftype);
  if (version >= 2.0 && version < 3.0) {
    g->major = 2;
  } else if (version >= 4.0 && version < 4.05) {
    g->major = 4, g->minor = 0;
  } else if (version >= 4.05 && version < 5.0) {
    g->major = 4, g->minor = 1;
  } else {
    return core_error(MINEX_EUNSUP,
                      "%s:%lld: Gmsh format version %g: only "
                      "2.x, 4.0 and 4.1 are read",
                      PATH, LINE, version);
  }
  if (ftype == 1) {
    if (dsize != 8)
      return core_error(MINEX_EUNSUP,
                        "%s:%lld: binary file with data-size "
                        "%lld: only 8 (64-bit size_t and double) is read",
                        PATH, LINE, (long long)dsize);
    int64_t off = io_reader_tell(&g->r);
    g->binary = 1;
    g->bin_start = (size_t)off;
    return MINEX_OK; /* the rest is read by parse_binary */
  }
  return expect_end(g, "$EndMeshFormat", "$MeshFormat");
}

/* Gmsh numbers nodes from 1 (0 and negative tags are invalid). */
static int check_tag(gmsh_reader *g, int64_t tag) {
  if (tag < 1)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: node tag %lld: tags must be "
                      ">= 1",
                      PATH, LINE, (long long)tag);
  return MINEX_OK;
}

/* x y z and, for parametric nodes, up to 3 parameters. */
static int read_xyz(gmsh_reader *g, char *s, int parametric, int64_t i) {
  for (int d = 0; d < 3; d++)
    if (io_parse_double(s, &s, &g->coords[3 * i + d]) != 0)
      return core_error(MINEX_EPARSE,
                        "%s:%lld: node %lld: bad or missing "
                        "coordinate",
                        PATH, LINE, (long long)g->tags[i]);
  if (!parametric && !io_rest_blank(s))
    return core_error(MINEX_EPARSE,
                      "%s:%lld: node %lld: unexpected data "
                      "after the coordinates",
                      PATH, LINE, (long long)g->tags[i]);
  return MINEX_OK;
}

static int tag_cmp(const void *a, const void *b) {
  int64_t x = ((const tag_index *)a)->tag, y = ((const tag_index *)b)->tag;
  return (x > y) - (x < y);
}

/* Builds the tag -> index map and rejects duplicate tags. */
int gmsh_build_map(gmsh_reader *g, int64_t line) {
  int64_t n = g->nnodes;
  g->tmin = INT64_MAX, g->tmax = INT64_MIN;
  for (int64_t i = 0; i < n; i++) {
    if (g->tags[i] < g->tmin)
      g->tmin = g->tags[i];
    if (g->tags[i] > g->tmax)
      g->tmax = g->tags[i];
  }
  if (n > 0 && g->tmax - g->tmin <= 2 * n + 1024) {
    int64_t range = g->tmax - g->tmin + 1;
    g->dense = malloc(sizeof(int32_t) * (size_t)range);
    if (g->dense == NULL)
      return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
    memset(g->dense, 0xff, sizeof(int32_t) * (size_t)range);
    for (int64_t i = 0; i < n; i++) {
      int32_t *slot = &g->dense[g->tags[i] - g->tmin];
      if (*slot >= 0)
        return core_error(MINEX_EPARSE,
                          "%s:%lld: node tag %lld defined "
                          "twice in $Nodes",
                          PATH, (long long)line, (long long)g->tags[i]);
      *slot = (int32_t)i;
    }
    return MINEX_OK;
  }
  g->sorted = malloc(sizeof(tag_index) * (size_t)(n + 1));
  if (g->sorted == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  for (int64_t i = 0; i < n; i++)
    g->sorted[i] = (tag_index){g->tags[i], (int32_t)i};
  qsort(g->sorted, (size_t)n, sizeof(tag_index), tag_cmp);
  for (int64_t i = 1; i < n; i++)
    if (g->sorted[i].tag == g->sorted[i - 1].tag)
      return core_error(MINEX_EPARSE,
                        "%s:%lld: node tag %lld defined twice "
                        "in $Nodes",
                        PATH, (long long)line, (long long)g->sorted[i].tag);
  return MINEX_OK;
}

int32_t gmsh_lookup(const gmsh_reader *g, int64_t tag) {
  if (g->dense)
    return (tag < g->tmin || tag > g->tmax) ? -1 : g->dense[tag - g->tmin];
  int64_t lo = 0, hi = g->nnodes - 1;
  while (lo <= hi) {
    int64_t mid = lo + (hi - lo) / 2;
    if (g->sorted[mid].tag == tag)
      return g->sorted[mid].idx;
    if (g->sorted[mid].tag < tag)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return -1;
}

/* Room for need nodes in tags and coords (see mesh_reserve). */
int gmsh_reserve_nodes(gmsh_reader *g, int64_t need, int64_t *cap_tags,
                       int64_t *cap_xyz, int64_t limit) {
  int rc =
      mesh_reserve((void **)&g->tags, cap_tags, need, limit, sizeof(int64_t));
  if (rc == MINEX_OK)
    rc = mesh_reserve((void **)&g->coords, cap_xyz, need, limit,
                      3 * sizeof(double));
  return rc;
}

static int nodes_section(gmsh_reader *g) {
  int64_t start = g->r.lineno, h[4] = {1, 0, 0, 0}, total;
  if (g->nnodes >= 0)
    return core_error(MINEX_EPARSE, "%s:%lld: second $Nodes section", PATH,
                      LINE);
  int rc = next_line(g, "$Nodes");
  char *s = g->r.line;
  if (rc != MINEX_OK)
    return rc;
  if (g->major == 2)
    rc = ints(g, &s, 1, &h[1], "the node count");
  else
    rc = ints(g, &s, 2, h, "'numEntityBlocks numNodes'");
  if (rc != MINEX_OK)
    return rc;
  total = h[1];
  if (total < 0 || total > INT32_MAX || h[0] < 0)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: node count %lld outside "
                      "[0, 2^31)",
                      PATH, LINE, (long long)total);
  int64_t n = 0, cap_tags = 0, cap_xyz = 0;
  if ((rc = gmsh_reserve_nodes(g, 1, &cap_tags, &cap_xyz, 1)) != MINEX_OK)
    return rc;
  if (g->major == 2) {
    for (; n < total; n++) {
      if ((rc = next_line(g, "$Nodes")) != MINEX_OK ||
          (rc = gmsh_reserve_nodes(g, n + 1, &cap_tags, &cap_xyz, total)) !=
              MINEX_OK)
        return rc;
      s = g->r.line;
      if ((rc = ints(g, &s, 1, &g->tags[n], "a node")) != MINEX_OK ||
          (rc = check_tag(g, g->tags[n])) != MINEX_OK ||
          (rc = read_xyz(g, s, 0, n)) != MINEX_OK)
        return rc;
    }
  }
  for (int64_t b = 0; g->major == 4 && b < h[0]; b++) {
    int64_t bh[4]; /* 4.1: dim tag parametric count; 4.0: tag dim ... */
    if ((rc = next_line(g, "$Nodes")) != MINEX_OK)
      return rc;
    s = g->r.line;
    if ((rc = ints(g, &s, 4, bh, "a node block header")) != MINEX_OK)
      return rc;
    int parametric = bh[2] != 0;
    if (bh[3] < 0 || bh[3] > total - n)
      return core_error(MINEX_EPARSE,
                        "%s:%lld: node block of %lld nodes "
                        "exceeds the %lld announced: the counts disagree",
                        PATH, LINE, (long long)bh[3], (long long)total);
    for (int64_t i = 0; i < bh[3]; i++) {
      if ((rc = next_line(g, "$Nodes")) != MINEX_OK ||
          (rc = gmsh_reserve_nodes(g, n + i + 1, &cap_tags, &cap_xyz, total)) !=
              MINEX_OK)
        return rc;
      s = g->r.line;
      if ((rc = ints(g, &s, 1, &g->tags[n + i], "a node tag")) != MINEX_OK ||
          (rc = check_tag(g, g->tags[n + i])) != MINEX_OK)
        return rc;
      if (g->minor == 0)
        rc = read_xyz(g, s, parametric, n + i);
      else if (!io_rest_blank(s))
        rc = core_error(MINEX_EPARSE,
                        "%s:%lld: one node tag per line "
                        "expected",
                        PATH, LINE);
      if (rc != MINEX_OK)
        return rc;
    }
    for (int64_t i = 0; g->minor == 1 && i < bh[3]; i++) {
      if ((rc = next_line(g, "$Nodes")) != MINEX_OK)
        return rc;
      if ((rc = read_xyz(g, g->r.line, parametric, n + i)) != MINEX_OK)
        return rc;
    }
    n += bh[3];
  }
  if (n != total)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: node blocks hold %lld nodes, "
                      "the header says %lld: the counts disagree",
                      PATH, LINE, (long long)n, (long long)total);
  g->nnodes = total;
  if ((rc = expect_end(g, "$EndNodes", "$Nodes")) != MINEX_OK)
    return rc;
  return gmsh_build_map(g, start);
}

/* Kind and node count of every Gmsh element type this reader keeps or
 * ignores (GmshDefines.h; the node count is in each name, e.g. MSH_HEX_27);
 * G_LOWER marks points and lines. Types absent here are polygons,
 * polyhedra, order-0 elements, sub-elements and the MINI/trihedron types
 * (refused) or no Gmsh type at all (76-78, above 140). */
#define GMSH_NTYPES 141
typedef struct gmsh_type {
  int kind; /* minex_elem_type, G_LOWER or 0 (not read) */
  int nn;   /* nodes                                    */
} gmsh_type;
static const gmsh_type gmsh_types[GMSH_NTYPES] = {
    [1] = {G_LOWER, 2},
    [2] = {MINEX_ELEM_TRIANGLE, 3},
    [3] = {MINEX_ELEM_QUAD, 4},
    [4] = {MINEX_ELEM_TETRA, 4},
    [5] = {MINEX_ELEM_HEXA, 8},
    [6] = {MINEX_ELEM_PRISM, 6},
    [7] = {MINEX_ELEM_PYRAMID, 5},
    [8] = {G_LOWER, 3},
    [9] = {MINEX_ELEM_TRIANGLE, 6},
    [10] = {MINEX_ELEM_QUAD, 9},
    [11] = {MINEX_ELEM_TETRA, 10},
    [12] = {MINEX_ELEM_HEXA, 27},
    [13] = {MINEX_ELEM_PRISM, 18},
    [14] = {MINEX_ELEM_PYRAMID, 14},
    [15] = {G_LOWER, 1},
    [16] = {MINEX_ELEM_QUAD, 8},
    [17] = {MINEX_ELEM_HEXA, 20},
    [18] = {MINEX_ELEM_PRISM, 15},
    [19] = {MINEX_ELEM_PYRAMID, 13},
    [20] = {MINEX_ELEM_TRIANGLE, 9},
    [21] = {MINEX_ELEM_TRIANGLE, 10},
    [22] = {MINEX_ELEM_TRIANGLE, 12},
    [23] = {MINEX_ELEM_TRIANGLE, 15},
    [24] = {MINEX_ELEM_TRIANGLE, 15},
    [25] = {MINEX_ELEM_TRIANGLE, 21},
    [26] = {G_LOWER, 4},
    [27] = {G_LOWER, 5},
    [28] = {G_LOWER, 6},
    [29] = {MINEX_ELEM_TETRA, 20},
    [30] = {MINEX_ELEM_TETRA, 35},
    [31] = {MINEX_ELEM_TETRA, 56},
    [32] = {MINEX_ELEM_TETRA, 22},
    [33] = {MINEX_ELEM_TETRA, 28},
    [36] = {MINEX_ELEM_QUAD, 16},
    [37] = {MINEX_ELEM_QUAD, 25},
    [38] = {MINEX_ELEM_QUAD, 36},
    [39] = {MINEX_ELEM_QUAD, 12},
    [40] = {MINEX_ELEM_QUAD, 16},
    [41] = {MINEX_ELEM_QUAD, 20},
    [42] = {MINEX_ELEM_TRIANGLE, 28},
    [43] = {MINEX_ELEM_TRIANGLE, 36},
    [44] = {MINEX_ELEM_TRIANGLE, 45},
    [45] = {MINEX_ELEM_TRIANGLE, 55},
    [46] = {MINEX_ELEM_TRIANGLE, 66},
    [47] = {MINEX_ELEM_QUAD, 49},
    [48] = {MINEX_ELEM_QUAD, 64},
    [49] = {MINEX_ELEM_QUAD, 81},
    [50] = {MINEX_ELEM_QUAD, 100},
    [51] = {MINEX_ELEM_QUAD, 121},
    [52] = {MINEX_ELEM_TRIANGLE, 18},
    [53] = {MINEX_ELEM_TRIANGLE, 21},
    [54] = {MINEX_ELEM_TRIANGLE, 24},
    [55] = {MINEX_ELEM_TRIANGLE, 27},
    [56] = {MINEX_ELEM_TRIANGLE, 30},
    [57] = {MINEX_ELEM_QUAD, 24},
    [58] = {MINEX_ELEM_QUAD, 28},
    [59] = {MINEX_ELEM_QUAD, 32},
    [60] = {MINEX_ELEM_QUAD, 36},
    [61] = {MINEX_ELEM_QUAD, 40},
    [62] = {G_LOWER, 7},
    [63] = {G_LOWER, 8},
    [64] = {G_LOWER, 9},
    [65] = {G_LOWER, 10},
    [66] = {G_LOWER, 11},
    [71] = {MINEX_ELEM_TETRA, 84},
    [72] = {MINEX_ELEM_TETRA, 120},
    [73] = {MINEX_ELEM_TETRA, 165},
    [74] = {MINEX_ELEM_TETRA, 220},
    [75] = {MINEX_ELEM_TETRA, 286},
    [79] = {MINEX_ELEM_TETRA, 34},
    [80] = {MINEX_ELEM_TETRA, 40},
    [81] = {MINEX_ELEM_TETRA, 46},
    [82] = {MINEX_ELEM_TETRA, 52},
    [83] = {MINEX_ELEM_TETRA, 58},
    [90] = {MINEX_ELEM_PRISM, 40},
    [91] = {MINEX_ELEM_PRISM, 75},
    [92] = {MINEX_ELEM_HEXA, 64},
    [93] = {MINEX_ELEM_HEXA, 125},
    [94] = {MINEX_ELEM_HEXA, 216},
    [95] = {MINEX_ELEM_HEXA, 343},
    [96] = {MINEX_ELEM_HEXA, 512},
    [97] = {MINEX_ELEM_HEXA, 729},
    [98] = {MINEX_ELEM_HEXA, 1000},
    [99] = {MINEX_ELEM_HEXA, 32},
    [100] = {MINEX_ELEM_HEXA, 44},
    [101] = {MINEX_ELEM_HEXA, 56},
    [102] = {MINEX_ELEM_HEXA, 68},
    [103] = {MINEX_ELEM_HEXA, 80},
    [104] = {MINEX_ELEM_HEXA, 92},
    [105] = {MINEX_ELEM_HEXA, 104},
    [106] = {MINEX_ELEM_PRISM, 126},
    [107] = {MINEX_ELEM_PRISM, 196},
    [108] = {MINEX_ELEM_PRISM, 288},
    [109] = {MINEX_ELEM_PRISM, 405},
    [110] = {MINEX_ELEM_PRISM, 550},
    [111] = {MINEX_ELEM_PRISM, 24},
    [112] = {MINEX_ELEM_PRISM, 33},
    [113] = {MINEX_ELEM_PRISM, 42},
    [114] = {MINEX_ELEM_PRISM, 51},
    [115] = {MINEX_ELEM_PRISM, 60},
    [116] = {MINEX_ELEM_PRISM, 69},
    [117] = {MINEX_ELEM_PRISM, 78},
    [118] = {MINEX_ELEM_PYRAMID, 30},
    [119] = {MINEX_ELEM_PYRAMID, 55},
    [120] = {MINEX_ELEM_PYRAMID, 91},
    [121] = {MINEX_ELEM_PYRAMID, 140},
    [122] = {MINEX_ELEM_PYRAMID, 204},
    [123] = {MINEX_ELEM_PYRAMID, 285},
    [124] = {MINEX_ELEM_PYRAMID, 385},
    [125] = {MINEX_ELEM_PYRAMID, 21},
    [126] = {MINEX_ELEM_PYRAMID, 29},
    [127] = {MINEX_ELEM_PYRAMID, 37},
    [128] = {MINEX_ELEM_PYRAMID, 45},
    [129] = {MINEX_ELEM_PYRAMID, 53},
    [130] = {MINEX_ELEM_PYRAMID, 61},
    [131] = {MINEX_ELEM_PYRAMID, 69},
    [137] = {MINEX_ELEM_TETRA, 16},
};

/* The kind and node count of Gmsh type t, or an error naming it. */
int gmsh_type_of(gmsh_reader *g, int64_t t, int *kind, int *nn) {
  if (t >= 1 && t < GMSH_NTYPES && gmsh_types[t].kind != 0) {
    *kind = gmsh_types[t].kind;
    *nn = gmsh_types[t].nn;
    return MINEX_OK;
  }
  /* where: a line of a text file, an offset of a binary one */
  char at[64];
  if (g->binary)
    snprintf(at, sizeof at, " offset %llu", (unsigned long long)g->pos);
  else
    snprintf(at, sizeof at, "%lld", (long long)LINE);
  if (t < 1 || t >= GMSH_NTYPES || (t >= 76 && t <= 78))
    return core_error(MINEX_EUNSUP,
                      "%s:%s: element type %lld is not a Gmsh element "
                      "type (1-140): refused, since no element is dropped "
                      "silently",
                      PATH, at, (long long)t);
  return core_error(MINEX_EUNSUP,
                    "%s:%s: Gmsh element type %lld (a polygon, "
                    "polyhedron, order-0, sub- or MINI element) is not "
                    "read: only tetrahedra, hexahedra, prisms, pyramids, "
                    "triangles, quadrilaterals, lines and points",
                    PATH, at, (long long)t);
}

/* Node tags of one element at s: nn tags, the first k (corners) kept. */
static int elem_nodes(gmsh_reader *g, char *s, int64_t etag, int kind, int nn,
                      int32_t part) {
  int k = kind == G_LOWER ? 0 : minex_elem_nnodes((minex_elem_type)kind), rc;
  int32_t en[8];
  for (int i = 0; i < nn; i++) {
    int64_t tag;
    if ((rc = ints(g, &s, 1, &tag, "an element node")) != MINEX_OK)
      return rc;
    if (i >= k)
      continue;
    int32_t idx = gmsh_lookup(g, tag);
    if (idx < 0)
      return core_error(MINEX_EPARSE,
                        "%s:%lld: element %lld: node tag %lld "
                        "is not in $Nodes",
                        PATH, LINE, (long long)etag, (long long)tag);
    for (int j = 0; j < i; j++)
      if (en[j] == idx)
        return core_error(MINEX_EPARSE,
                          "%s:%lld: element %lld repeats node "
                          "%lld",
                          PATH, LINE, (long long)etag, (long long)tag);
    en[i] = idx;
  }
  if (!io_rest_blank(s))
    return core_error(MINEX_EPARSE,
                      "%s:%lld: element %lld: more nodes than "
                      "its type has",
                      PATH, LINE, (long long)etag);
  if (kind == G_LOWER) {
    g->lists.lower++;
    return MINEX_OK;
  }
  if (kind == MINEX_ELEM_PRISM)
    mesh_prism_to_vtk(en);
  return mesh_list_add_id(&g->lists, (minex_elem_type)kind, en, part, etag);
}

/* Partition of entity (dim, tag) of a partitioned file, or -1. */
int32_t gmsh_entity_part(const gmsh_reader *g, int64_t dim, int64_t tag) {
  for (int64_t i = 0; i < g->npents; i++)
    if (g->pents[i].dim == dim && g->pents[i].tag == tag)
      return g->pents[i].part;
  return -1;
}

static int elements_section(gmsh_reader *g) {
  if (g->nnodes < 0)
    return core_error(MINEX_EPARSE, "%s:%lld: $Elements before $Nodes", PATH,
                      LINE);
  int64_t h[2] = {1, 0}, total, n = 0;
  g->has_elements = 1;
  int rc = next_line(g, "$Elements");
  char *s = g->r.line;
  if (rc != MINEX_OK)
    return rc;
  if (g->major == 2)
    rc = ints(g, &s, 1, &h[1], "the element count");
  else
    rc = ints(g, &s, 2, h, "'numEntityBlocks numElements'");
  if (rc != MINEX_OK)
    return rc;
  total = h[1];
  if (total < 0 || h[0] < 0)
    return core_error(MINEX_EPARSE, "%s:%lld: negative element count", PATH,
                      LINE);
  for (int64_t b = 0; b < (g->major == 2 ? 1 : h[0]); b++) {
    int64_t bh[4] = {0, 0, 0, total}; /* v2: one block of mixed types */
    if (g->major == 4) {
      if ((rc = next_line(g, "$Elements")) != MINEX_OK)
        return rc;
      s = g->r.line;
      if ((rc = ints(g, &s, 4, bh, "an element block header")) != MINEX_OK)
        return rc;
      if (bh[3] < 0 || bh[3] > total - n)
        return core_error(MINEX_EPARSE,
                          "%s:%lld: element block of %lld "
                          "elements exceeds the %lld announced: the counts "
                          "disagree",
                          PATH, LINE, (long long)bh[3], (long long)total);
    }
    /* 4.1 blocks: (entityDim, entityTag, type); 4.0: (tag, dim, type) */
    int32_t bpart =
        g->major == 4 && g->minor == 1
            ? gmsh_entity_part(g, bh[0], bh[1])
            : (g->major == 4 ? gmsh_entity_part(g, bh[1], bh[0]) : -1);
    int bkind = 0, bnn = 0;
    if (g->major == 4 && bh[3] > 0 &&
        (rc = gmsh_type_of(g, bh[2], &bkind, &bnn)) != MINEX_OK)
      return rc;
    for (int64_t i = 0; i < bh[3]; i++) {
      if ((rc = next_line(g, "$Elements")) != MINEX_OK)
        return rc;
      s = g->r.line;
      int64_t e[3] = {0, bh[2], 0}; /* tag, type, number of tags */
      if ((rc = ints(g, &s, g->major == 2 ? 3 : 1, e, "an element")) !=
          MINEX_OK)
        return rc;
      if (e[2] < 0 || e[2] > 1000)
        return core_error(MINEX_EPARSE,
                          "%s:%lld: element %lld: %lld tags "
                          "(0 to 1000 expected)",
                          PATH, LINE, (long long)e[0], (long long)e[2]);
      /* v2 tags: physical, elementary, number of partitions, partitions
         (the first is the owner; negative ones are ghosts) */
      int64_t tags[4] = {0, 0, 0, 0};
      for (int64_t t = 0; t < e[2]; t++) {
        int64_t tag;
        if ((rc = ints(g, &s, 1, &tag, "an element tag")) != MINEX_OK)
          return rc;
        if (t < 4)
          tags[t] = tag;
      }
      int32_t part = bpart;
      if (g->major == 2 && e[2] >= 4 && tags[2] >= 1 && tags[3] >= 1 &&
          tags[3] <= INT32_MAX)
        part = (int32_t)(tags[3] - 1);
      int kind = bkind, nn = bnn;
      if (g->major == 2 && (rc = gmsh_type_of(g, e[1], &kind, &nn)) != MINEX_OK)
        return rc;
      if ((rc = elem_nodes(g, s, e[0], kind, nn, part)) != MINEX_OK)
        return rc;
    }
    n += bh[3];
  }
  if (n != total)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: element blocks hold %lld "
                      "elements, the header says %lld: the counts disagree",
                      PATH, LINE, (long long)n, (long long)total);
  return expect_end(g, "$EndElements", "$Elements");
}

/* Next number of a section whose records may span lines. */
static int tok_num(gmsh_reader *g, char **pos, int real, double *d, int64_t *v,
                   const char *sec) {
  int rc;
  while (*pos == NULL || io_rest_blank(*pos)) {
    if ((rc = next_line(g, sec)) != MINEX_OK)
      return rc;
    *pos = g->r.line;
  }
  if ((real ? io_parse_double(*pos, pos, d) : io_parse_i64(*pos, pos, v)) != 0)
    return core_error(MINEX_EPARSE, "%s:%lld: bad or missing number in %s",
                      PATH, LINE, sec);
  return MINEX_OK;
}

/* $PartitionedEntities (4.1): the partition of each partitioned volume
 * and surface entity (its first partition tag). */
static int partitioned_entities(gmsh_reader *g) {
  const char *sec = "$PartitionedEntities";
  char *pos = NULL;
  int64_t v, n[4], cap = 0;
  double d;
  int rc;
  if (g->pents != NULL)
    return core_error(MINEX_EPARSE, "%s:%lld: second %s", PATH, LINE, sec);
#define TOKI(x)                                                                \
  do {                                                                         \
    if ((rc = tok_num(g, &pos, 0, &d, &(x), sec)) != MINEX_OK)                 \
      return rc;                                                               \
  } while (0)
#define TOKD()                                                                 \
  do {                                                                         \
    if ((rc = tok_num(g, &pos, 1, &d, &v, sec)) != MINEX_OK)                   \
      return rc;                                                               \
  } while (0)
  TOKI(v); /* numPartitions */
  int64_t nghost;
  TOKI(nghost);
  for (int64_t i = 0; i < nghost; i++) {
    TOKI(v);
    TOKI(v);
  }
  for (int dim = 0; dim < 4; dim++)
    TOKI(n[dim]);
  for (int dim = 0; dim < 4; dim++)
    for (int64_t i = 0; i < n[dim]; i++) {
      int64_t tag, np, first = -1, cnt;
      TOKI(tag);
      TOKI(v); /* parent dim */
      TOKI(v); /* parent tag */
      TOKI(np);
      for (int64_t j = 0; j < np; j++) {
        TOKI(v);
        if (j == 0)
          first = v;
      }
      for (int j = 0; j < (dim == 0 ? 3 : 6); j++)
        TOKD();
      TOKI(cnt); /* physical tags */
      for (int64_t j = 0; j < cnt; j++)
        TOKI(v);
      if (dim > 0) {
        TOKI(cnt); /* bounding entities */
        for (int64_t j = 0; j < cnt; j++)
          TOKI(v);
      }
      if (dim >= 2 && first >= 1 && first <= INT32_MAX) {
        if ((rc = mesh_reserve((void **)&g->pents, &cap, g->npents + 1,
                               INT64_MAX, sizeof *g->pents)) != MINEX_OK)
          return rc;
        g->pents[g->npents++] =
            (part_entity){dim, (int)tag, (int32_t)(first - 1)};
      }
    }
#undef TOKI
#undef TOKD
  if (g->pents == NULL && (g->pents = malloc(sizeof *g->pents)) == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  if (!io_rest_blank(pos))
    return core_error(MINEX_EPARSE, "%s:%lld: unexpected data in %s", PATH,
                      LINE, sec);
  return expect_end(g, "$EndPartitionedEntities", sec);
}

/* Skips an unknown section $Name up to $EndName. */
static int skip_section(gmsh_reader *g) {
  char end[128];
  snprintf(end, sizeof end, "$End%.100s", g->r.line + 1);
  size_t len = strcspn(end, " \t");
  end[len] = '\0';
  char sec[128];
  snprintf(sec, sizeof sec, "%s", g->r.line);
  for (;;) {
    int rc = next_line(g, sec);
    if (rc != MINEX_OK)
      return rc;
    if (strncmp(g->r.line, end, len) == 0 && io_rest_blank(g->r.line + len))
      return MINEX_OK;
  }
}

static int parse(gmsh_reader *g) {
  int rc;
  while ((rc = io_reader_next(&g->r)) == 1) {
    const char *l = g->r.line;
    if (io_rest_blank(l))
      continue;
    if (g->major == 0 && strncmp(l, "$MeshFormat", 11) != 0)
      return core_error(MINEX_EPARSE, "%s:%lld: '%.40s' before $MeshFormat",
                        PATH, LINE, l);
    if (strncmp(l, "$MeshFormat", 11) == 0 && io_rest_blank(l + 11))
      rc = g->major ? core_error(MINEX_EPARSE, "%s:%lld: second $MeshFormat",
                                 PATH, LINE)
                    : format_section(g);
    else if (strncmp(l, "$Nodes", 6) == 0 && io_rest_blank(l + 6))
      rc = nodes_section(g);
    else if (strncmp(l, "$Elements", 9) == 0 && io_rest_blank(l + 9))
      rc = elements_section(g);
    else if (strncmp(l, "$PartitionedEntities", 20) == 0 &&
             io_rest_blank(l + 20) && g->major == 4 && g->minor == 1)
      rc = partitioned_entities(g);
    else if (l[0] == '$' && strncmp(l, "$End", 4) != 0)
      rc = skip_section(g);
    else
      rc = core_error(MINEX_EPARSE,
                      "%s:%lld: unexpected line '%.40s' "
                      "outside any section",
                      PATH, LINE, l);
    if (rc != MINEX_OK)
      return rc;
    if (g->binary)
      return MINEX_OK; /* parse_binary reads the rest */
  }
  if (rc < 0)
    return rc;
  if (g->nnodes < 0)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: end of file without a $Nodes section: the "
                      "file is truncated",
                      PATH, LINE);
  if (!g->has_elements)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: no elements: end of file without an "
                      "$Elements section (the file is truncated)",
                      PATH, LINE);
  return MINEX_OK;
}

int mesh_read_gmsh(const char *path, int kind, minex_mesh **out) {
  *out = NULL;
  gmsh_reader g0 = {0}, *g = &g0;
  g->nnodes = -1;
  int rc = io_reader_open(&g->r, path);
  if (rc == MINEX_OK)
    rc = parse(g);
  io_reader_close(&g->r);
  g->r.path = path; /* for the binary reader's messages */
  if (rc == MINEX_OK && g->binary)
    rc = gmsh_parse_binary(g);
  free(g->buf);
  free(g->tags);
  free(g->dense);
  free(g->sorted);
  free(g->pents);
  if (rc != MINEX_OK) {
    free(g->coords);
    mesh_list_free(&g->lists);
    return rc;
  }
  return mesh_list_finish(path, &g->lists, kind, (int32_t)g->nnodes, g->coords,
                          out);
}
