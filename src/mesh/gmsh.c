/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gmsh .msh ASCII reader, versions 2.x and 4.0/4.1 (SPEC §7). Keeps the
 * tetrahedra, hexahedra, prisms, pyramids, triangles and quadrilaterals of
 * every order (corners kept) through mesh_lists, which keeps the highest
 * dimension; points and lines are ignored and counted. A Gmsh type that
 * is no such element (polygons, polyhedra, order-0 and sub-elements) and
 * a type that is not Gmsh's are errors. The partition of a partitioned
 * file (v2 element tags, 4.1 $PartitionedEntities) is kept. Unknown
 * sections are skipped.
 * Node tags may be sparse: they map to 0-based indices in file order
 * through a dense table or, when tags are very sparse, a sorted array. */
#include "mesh/mesh.h"

#include "core/core.h"
#include "io/io_util.h"

#include <stdlib.h>
#include <string.h>

typedef struct tag_index {
  int64_t tag;
  int32_t idx;
} tag_index;

/* Partition of an entity of a partitioned 4.1 file. */
typedef struct part_entity {
  int dim, tag;
  int32_t part; /* 0-based */
} part_entity;

typedef struct gmsh_reader {
  io_reader r;
  int major, minor;   /* format version: 2.x, 4.0 or 4.1              */
  int64_t nnodes;     /* nodes read, -1 before $Nodes                 */
  int64_t *tags;      /* nnodes node tags, file order                 */
  double *coords;     /* 3*nnodes                                     */
  int32_t *dense;     /* dense[tag - tmin] = index or -1 (or NULL)     */
  int64_t tmin, tmax; /* tag range                                    */
  tag_index *sorted;  /* sorted (tag, index) when dense is NULL       */
  mesh_lists lists;   /* elements kept, by dimension                 */
  part_entity *pents; /* $PartitionedEntities, or NULL               */
  int64_t npents;
  int binary;       /* file-type 1                                 */
  size_t bin_start; /* offset after the $MeshFormat line           */
  char *buf;        /* binary: the whole file                      */
  size_t len, pos;  /* its size and the cursor                     */
  int swap;         /* binary data of the other endianness          */
} gmsh_reader;

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
    if (io_parse_i64(*s, s, &v[i]) != 0) {
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
    if (g->major == 4 && g->minor == 0)
      return core_error(MINEX_EUNSUP,
                        "%s:%lld: binary Gmsh 4.0 file: re-save "
                        "it as 4.1 (gmsh -format msh41) or ASCII",
                        PATH, LINE);
    if (dsize != 8)
      return core_error(MINEX_EUNSUP,
                        "%s:%lld: binary file with data-size "
                        "%lld: only 8 (64-bit size_t and double) is read",
                        PATH, LINE, (long long)dsize);
    long off = ftell(g->r.fp);
    if (off < 0)
      return core_error(MINEX_EIO, "%s: cannot tell the file position", PATH);
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
static int build_map(gmsh_reader *g, int64_t line) {
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

static int32_t lookup(const gmsh_reader *g, int64_t tag) {
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
static int reserve_nodes(gmsh_reader *g, int64_t need, int64_t *cap_tags,
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
  if ((rc = reserve_nodes(g, 1, &cap_tags, &cap_xyz, 1)) != MINEX_OK)
    return rc;
  if (g->major == 2) {
    for (; n < total; n++) {
      if ((rc = next_line(g, "$Nodes")) != MINEX_OK ||
          (rc = reserve_nodes(g, n + 1, &cap_tags, &cap_xyz, total)) !=
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
          (rc = reserve_nodes(g, n + i + 1, &cap_tags, &cap_xyz, total)) !=
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
  return build_map(g, start);
}

/* Kind and node count of every Gmsh element type this reader keeps or
 * ignores (GmshDefines.h; the node count is in each name, e.g. MSH_HEX_27);
 * G_LOWER marks points and lines. Types absent here are polygons,
 * polyhedra, order-0 elements, sub-elements and the MINI/trihedron types
 * (refused) or no Gmsh type at all (76-78, above 140). */
#define G_LOWER 1
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
static int gmsh_type_of(gmsh_reader *g, int64_t t, int *kind, int *nn) {
  if (t >= 1 && t < GMSH_NTYPES && gmsh_types[t].kind != 0) {
    *kind = gmsh_types[t].kind;
    *nn = gmsh_types[t].nn;
    return MINEX_OK;
  }
  if (t < 1 || t >= GMSH_NTYPES || (t >= 76 && t <= 78))
    return core_error(MINEX_EUNSUP,
                      "%s:%lld: element type %lld is not a Gmsh element "
                      "type (1-140): refused, since no element is dropped "
                      "silently",
                      PATH, LINE, (long long)t);
  return core_error(MINEX_EUNSUP,
                    "%s:%lld: Gmsh element type %lld (a polygon, "
                    "polyhedron, order-0, sub- or MINI element) is not "
                    "read: only tetrahedra, hexahedra, prisms, pyramids, "
                    "triangles, quadrilaterals, lines and points",
                    PATH, LINE, (long long)t);
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
    int32_t idx = lookup(g, tag);
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
  return mesh_list_add(&g->lists, (minex_elem_type)kind, en, part);
}

/* Partition of entity (dim, tag) of a partitioned file, or -1. */
static int32_t entity_part(const gmsh_reader *g, int64_t dim, int64_t tag) {
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
    int32_t bpart = g->major == 4 && g->minor == 1
                        ? entity_part(g, bh[0], bh[1])
                        : (g->major == 4 ? entity_part(g, bh[1], bh[0]) : -1);
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
    return core_error(MINEX_EPARSE, "%s:%lld: no $Nodes section", PATH, LINE);
  return MINEX_OK;
}

/* ------------------------------------------------------------- binary */

/* Binary files (file-type 1): the whole file in memory, section keywords
 * as text lines, data as raw ints (4 bytes), size_t (8) and doubles (8)
 * of the writer's endianness, found from the int 1 after $MeshFormat.
 * Every count is checked against the bytes left before it is used. */
#define OFF ((unsigned long long)g->pos)

static int bin_need(gmsh_reader *g, uint64_t n, uint64_t size,
                    const char *what) {
  if (size != 0 && n > (g->len - g->pos) / size)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: %s: %llu records of %llu bytes "
                      "exceed the %llu bytes left (truncated file or bad "
                      "count)",
                      PATH, OFF, what, (unsigned long long)n,
                      (unsigned long long)size,
                      (unsigned long long)(g->len - g->pos));
  return MINEX_OK;
}

static uint64_t bin_raw(gmsh_reader *g, int size) {
  const unsigned char *p = (const unsigned char *)g->buf + g->pos;
  uint64_t u = 0;
  for (int b = 0; b < size; b++)
    u |= (uint64_t)p[g->swap ? size - 1 - b : b] << (8 * b);
  g->pos += (size_t)size;
  return u;
}

static int64_t bin_int(gmsh_reader *g) { /* 4-byte signed */
  return (int64_t)(int32_t)(uint32_t)bin_raw(g, 4);
}

static uint64_t bin_size(gmsh_reader *g) {
  return bin_raw(g, 8);
}

static double bin_double(gmsh_reader *g) {
  uint64_t u = bin_raw(g, 8);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* Next text line into line[cap], skipping blank ones; 0 at end of file. */
static int bin_line(gmsh_reader *g, char *line, size_t cap) {
  for (;;) {
    if (g->pos >= g->len)
      return 0;
    size_t e = g->pos;
    while (e < g->len && g->buf[e] != '\n')
      e++;
    size_t n = e - g->pos < cap - 1 ? e - g->pos : cap - 1;
    memcpy(line, g->buf + g->pos, n);
    line[n] = '\0';
    if (n > 0 && line[n - 1] == '\r')
      line[n - 1] = '\0';
    g->pos = e < g->len ? e + 1 : e;
    if (!io_rest_blank(line))
      return 1;
  }
}

/* Expects the line end (after binary data) then the keyword end. */
static int bin_end(gmsh_reader *g, const char *end) {
  char line[128];
  size_t at = g->pos;
  if (!bin_line(g, line, sizeof line) || strncmp(line, end, strlen(end)) != 0)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: %s expected: the section "
                      "holds more (or less) data than its counts say",
                      PATH, (unsigned long long)at, end);
  return MINEX_OK;
}

static int bin_check_node_tag(gmsh_reader *g, int64_t tag) {
  if (tag < 1)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: node tag %lld: tags "
                      "must be >= 1",
                      PATH, OFF, (long long)tag);
  return MINEX_OK;
}

static int bin_coord(gmsh_reader *g, int64_t i) {
  for (int d = 0; d < 3; d++)
    g->coords[3 * i + d] = bin_double(g);
  return MINEX_OK;
}

static int bin_nodes(gmsh_reader *g) {
  if (g->nnodes >= 0)
    return core_error(MINEX_EPARSE, "%s: offset %llu: second $Nodes", PATH,
                      OFF);
  int rc;
  int64_t cap_t = 0, cap_x = 0;
  char line[128];
  if (g->major == 2) {
    int64_t n;
    if (!bin_line(g, line, sizeof line) || io_parse_i64(line, NULL, &n) != 0 ||
        n < 0 || n > INT32_MAX)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: node count (0 to 2^31) "
                        "expected after $Nodes",
                        PATH, OFF);
    if ((rc = bin_need(g, (uint64_t)n, 28, "$Nodes")) != MINEX_OK ||
        (rc = reserve_nodes(g, n + 1, &cap_t, &cap_x, n + 1)) != MINEX_OK)
      return rc;
    for (int64_t i = 0; i < n; i++) {
      g->tags[i] = bin_int(g);
      if ((rc = bin_check_node_tag(g, g->tags[i])) != MINEX_OK)
        return rc;
      bin_coord(g, i);
    }
    g->nnodes = n;
  } else {
    if ((rc = bin_need(g, 4, 8, "$Nodes header")) != MINEX_OK)
      return rc;
    uint64_t nb = bin_size(g), total = bin_size(g);
    bin_size(g), bin_size(g); /* min and max tags */
    if (total > INT32_MAX ||
        (rc = bin_need(g, total, 32, "$Nodes")) != MINEX_OK ||
        (rc = bin_need(g, nb, 20, "$Nodes blocks")) != MINEX_OK)
      return rc != MINEX_OK ? rc
                            : core_error(MINEX_EPARSE,
                                         "%s: offset %llu: node count %llu "
                                         "outside [0, 2^31)",
                                         PATH, OFF, (unsigned long long)total);
    if ((rc = reserve_nodes(g, (int64_t)total + 1, &cap_t, &cap_x,
                            (int64_t)total + 1)) != MINEX_OK)
      return rc;
    uint64_t n = 0;
    for (uint64_t b = 0; b < nb; b++) {
      if ((rc = bin_need(g, 1, 20, "a node block header")) != MINEX_OK)
        return rc;
      int64_t dim = bin_int(g);
      bin_int(g);
      int64_t param = bin_int(g);
      uint64_t cnt = bin_size(g);
      int extra = param ? (int)(dim > 0 && dim <= 3 ? dim : 0) : 0;
      if (cnt > total - n)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: node block of %llu "
                          "nodes exceeds the %llu announced",
                          PATH, OFF, (unsigned long long)cnt,
                          (unsigned long long)total);
      if ((rc = bin_need(g, cnt, 8 * (4 + (uint64_t)extra), "a node block")) !=
          MINEX_OK)
        return rc;
      for (uint64_t i = 0; i < cnt; i++) {
        uint64_t t = bin_size(g);
        g->tags[n + i] = t > INT64_MAX ? -1 : (int64_t)t;
        if ((rc = bin_check_node_tag(g, g->tags[n + i])) != MINEX_OK)
          return rc;
      }
      for (uint64_t i = 0; i < cnt; i++) {
        bin_coord(g, (int64_t)(n + i));
        g->pos += (size_t)(8 * extra);
      }
      n += cnt;
    }
    if (n != total)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: node blocks hold %llu "
                        "nodes, the header says %llu",
                        PATH, OFF, (unsigned long long)n,
                        (unsigned long long)total);
    g->nnodes = (int64_t)total;
  }
  if ((rc = bin_end(g, "$EndNodes")) != MINEX_OK)
    return rc;
  return build_map(g, 0);
}

/* One element: tag, nn node ids of size isz bytes (4 or 8). */
static int bin_element(gmsh_reader *g, int64_t etag, int kind, int nn, int isz,
                       int32_t part) {
  int k = kind == G_LOWER ? 0 : minex_elem_nnodes((minex_elem_type)kind);
  int32_t en[8];
  for (int i = 0; i < nn; i++) {
    int64_t tag = isz == 4 ? bin_int(g) : (int64_t)bin_size(g);
    if (i >= k)
      continue;
    int32_t idx = lookup(g, tag);
    if (idx < 0)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: element %lld: node tag "
                        "%lld is not in $Nodes",
                        PATH, OFF, (long long)etag, (long long)tag);
    for (int j = 0; j < i; j++)
      if (en[j] == idx)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: element %lld repeats "
                          "node %lld",
                          PATH, OFF, (long long)etag, (long long)tag);
    en[i] = idx;
  }
  if (kind == G_LOWER) {
    g->lists.lower++;
    return MINEX_OK;
  }
  return mesh_list_add(&g->lists, (minex_elem_type)kind, en, part);
}

static int bin_elements(gmsh_reader *g) {
  if (g->nnodes < 0)
    return core_error(MINEX_EPARSE, "%s: offset %llu: $Elements before $Nodes",
                      PATH, OFF);
  int rc;
  char line[128];
  if (g->major == 2) {
    int64_t total, n = 0;
    if (!bin_line(g, line, sizeof line) ||
        io_parse_i64(line, NULL, &total) != 0 || total < 0)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: element count expected "
                        "after $Elements",
                        PATH, OFF);
    if ((rc = bin_need(g, (uint64_t)total, 12, "$Elements")) != MINEX_OK)
      return rc;
    while (n < total) {
      if ((rc = bin_need(g, 1, 12, "an element block header")) != MINEX_OK)
        return rc;
      int64_t type = bin_int(g), cnt = bin_int(g), ntags = bin_int(g);
      int kind = 0, nn = 0;
      if ((rc = gmsh_type_of(g, type, &kind, &nn)) != MINEX_OK) {
        core_error_prefix("offset %llu", OFF);
        return rc;
      }
      if (cnt < 0 || cnt > total - n || ntags < 0 || ntags > 1000)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: element block of %lld "
                          "elements with %lld tags: the counts disagree",
                          PATH, OFF, (long long)cnt, (long long)ntags);
      if ((rc = bin_need(g, (uint64_t)cnt, 4 * (uint64_t)(1 + ntags + nn),
                         "an element block")) != MINEX_OK)
        return rc;
      for (int64_t i = 0; i < cnt; i++) {
        int64_t etag = bin_int(g), tags[4] = {0, 0, 0, 0};
        for (int64_t t = 0; t < ntags; t++) {
          int64_t v = bin_int(g);
          if (t < 4)
            tags[t] = v;
        }
        int32_t part = ntags >= 4 && tags[2] >= 1 && tags[3] >= 1
                           ? (int32_t)(tags[3] - 1)
                           : -1;
        if ((rc = bin_element(g, etag, kind, nn, 4, part)) != MINEX_OK)
          return rc;
      }
      n += cnt;
    }
  } else {
    if ((rc = bin_need(g, 4, 8, "$Elements header")) != MINEX_OK)
      return rc;
    uint64_t nb = bin_size(g), total = bin_size(g), n = 0;
    bin_size(g), bin_size(g);
    if ((rc = bin_need(g, total, 16, "$Elements")) != MINEX_OK ||
        (rc = bin_need(g, nb, 20, "$Elements blocks")) != MINEX_OK)
      return rc;
    for (uint64_t b = 0; b < nb; b++) {
      if ((rc = bin_need(g, 1, 20, "an element block header")) != MINEX_OK)
        return rc;
      int64_t dim = bin_int(g), etag = bin_int(g), type = bin_int(g);
      uint64_t cnt = bin_size(g);
      int kind = 0, nn = 0;
      if (cnt > total - n)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: element block of %llu "
                          "elements exceeds the %llu announced",
                          PATH, OFF, (unsigned long long)cnt,
                          (unsigned long long)total);
      if (cnt > 0 && (rc = gmsh_type_of(g, type, &kind, &nn)) != MINEX_OK) {
        core_error_prefix("offset %llu", OFF);
        return rc;
      }
      if ((rc = bin_need(g, cnt, 8 * (uint64_t)(1 + nn), "an element block")) !=
          MINEX_OK)
        return rc;
      int32_t part = entity_part(g, dim, etag);
      for (uint64_t i = 0; i < cnt; i++) {
        int64_t et = (int64_t)bin_size(g);
        if ((rc = bin_element(g, et, kind, nn, 8, part)) != MINEX_OK)
          return rc;
      }
      n += cnt;
    }
    if (n != total)
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: element blocks hold %llu "
                        "elements, the header says %llu",
                        PATH, OFF, (unsigned long long)n,
                        (unsigned long long)total);
  }
  return bin_end(g, "$EndElements");
}

/* $PartitionedEntities in binary: as partitioned_entities. */
static int bin_partitioned(gmsh_reader *g) {
  int rc;
  int64_t cap = 0;
  if (g->pents != NULL)
    return core_error(MINEX_EPARSE, "%s: second $PartitionedEntities", PATH);
  if ((rc = bin_need(g, 2, 8, "$PartitionedEntities")) != MINEX_OK)
    return rc;
  bin_size(g);
  uint64_t nghost = bin_size(g), n[4];
  if ((rc = bin_need(g, nghost, 8, "ghost entities")) != MINEX_OK)
    return rc;
  g->pos += (size_t)(8 * nghost);
  if ((rc = bin_need(g, 4, 8, "entity counts")) != MINEX_OK)
    return rc;
  for (int d = 0; d < 4; d++)
    n[d] = bin_size(g);
  for (int dim = 0; dim < 4; dim++)
    for (uint64_t i = 0; i < n[dim]; i++) {
      if ((rc = bin_need(g, 1, 20, "a partitioned entity")) != MINEX_OK)
        return rc;
      int64_t tag = bin_int(g);
      bin_int(g), bin_int(g);
      uint64_t np = bin_size(g);
      if ((rc = bin_need(g, np, 4, "partition tags")) != MINEX_OK)
        return rc;
      int64_t first = np > 0 ? bin_int(g) : -1;
      g->pos += (size_t)(4 * (np > 0 ? np - 1 : 0));
      int nbox = dim == 0 ? 3 : 6;
      if ((rc = bin_need(g, 1, 8 * (uint64_t)nbox + 8, "an entity")) !=
          MINEX_OK)
        return rc;
      g->pos += (size_t)(8 * nbox);
      uint64_t nphys = bin_size(g);
      if ((rc = bin_need(g, nphys, 4, "physical tags")) != MINEX_OK)
        return rc;
      g->pos += (size_t)(4 * nphys);
      if (dim > 0) {
        if ((rc = bin_need(g, 1, 8, "bounding entities")) != MINEX_OK)
          return rc;
        uint64_t nbd = bin_size(g);
        if ((rc = bin_need(g, nbd, 4, "bounding entities")) != MINEX_OK)
          return rc;
        g->pos += (size_t)(4 * nbd);
      }
      if (dim >= 2 && first >= 1) {
        if ((rc = mesh_reserve((void **)&g->pents, &cap, g->npents + 1,
                               INT64_MAX, sizeof *g->pents)) != MINEX_OK)
          return rc;
        g->pents[g->npents++] =
            (part_entity){dim, (int)tag, (int32_t)(first - 1)};
      }
    }
  if (g->pents == NULL && (g->pents = malloc(sizeof *g->pents)) == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  return bin_end(g, "$EndPartitionedEntities");
}

/* Skips a section of unknown layout up to its "$EndName" line. */
static int bin_skip(gmsh_reader *g, const char *name) {
  char end[128];
  snprintf(end, sizeof end, "\n$End%.100s", name + 1);
  size_t n = strlen(end);
  for (size_t i = g->pos; i + n <= g->len; i++)
    if (g->buf[i] == '\n' && memcmp(g->buf + i, end, n) == 0) {
      g->pos = i + 1;
      char line[128];
      bin_line(g, line, sizeof line);
      return MINEX_OK;
    }
  return core_error(MINEX_EPARSE, "%s: end of file inside %s", PATH, name);
}

static int parse_binary(gmsh_reader *g) {
  int rc = mesh_load_file(PATH, &g->buf, &g->len);
  if (rc != MINEX_OK)
    return rc;
  g->pos = g->bin_start;
  if ((rc = bin_need(g, 1, 4, "the endianness word")) != MINEX_OK)
    return rc;
  uint32_t one = (uint32_t)bin_raw(g, 4);
  if (one == 0x01000000u)
    g->swap = 1;
  else if (one != 1)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: the int 1 after $MeshFormat reads "
                      "%u in either byte order",
                      PATH, OFF - 4, (unsigned)one);
  if ((rc = bin_end(g, "$EndMeshFormat")) != MINEX_OK)
    return rc;
  char line[128];
  while (bin_line(g, line, sizeof line)) {
    size_t len = strcspn(line, " \t");
    line[len] = '\0';
    if (strcmp(line, "$Nodes") == 0)
      rc = bin_nodes(g);
    else if (strcmp(line, "$Elements") == 0)
      rc = bin_elements(g);
    else if (strcmp(line, "$PartitionedEntities") == 0 && g->major == 4)
      rc = bin_partitioned(g);
    else if (line[0] == '$' && strncmp(line, "$End", 4) != 0)
      rc = bin_skip(g, line);
    else
      rc = core_error(MINEX_EPARSE,
                      "%s: offset %llu: unexpected '%.40s' outside any "
                      "section",
                      PATH, OFF, line);
    if (rc != MINEX_OK)
      return rc;
  }
  if (g->nnodes < 0)
    return core_error(MINEX_EPARSE, "%s: no $Nodes section", PATH);
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
    rc = parse_binary(g);
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
