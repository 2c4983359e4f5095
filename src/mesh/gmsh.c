/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Gmsh .msh ASCII reader, versions 2.x and 4.0/4.1 (SPEC §7). Keeps the
 * tetrahedra (types 4, and the corners of 11) or, when there are none, the
 * triangles (types 2, 9); points and lines are skipped, every other Gmsh
 * type is counted for mesh_choose_kind (which refuses a file that mixes
 * kinds), and a type that is not Gmsh's is an error. Unknown sections are
 * skipped.
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

typedef struct elem_list {
  int32_t *nodes; /* k*count 0-based node indices */
  int64_t count;
  int64_t cap; /* elements allocated          */
} elem_list;

typedef struct gmsh_reader {
  io_reader r;
  int major, minor;   /* format version: 2.x, 4.0 or 4.1              */
  int64_t nnodes;     /* nodes read, -1 before $Nodes                 */
  int64_t *tags;      /* nnodes node tags, file order                 */
  double *coords;     /* 3*nnodes                                     */
  int32_t *dense;     /* dense[tag - tmin] = index or -1 (or NULL)     */
  int64_t tmin, tmax; /* tag range                                    */
  tag_index *sorted;  /* sorted (tag, index) when dense is NULL       */
  elem_list tets, tris;
  mesh_kinds kinds;     /* element counts by kind (all types)         */
  int64_t unknown;      /* elements whose type is not a Gmsh type     */
  int64_t unknown_type; /* the first such type, and its line          */
  int64_t unknown_line;
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
  if (ftype != 0)
    return core_error(MINEX_EUNSUP,
                      "%s:%lld: binary Gmsh file (file-type "
                      "%lld): re-save it as ASCII (gmsh -save_all "
                      "-format msh2 or msh4 without -bin)",
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

/* Dimension class of every Gmsh element type (GmshDefines.h, types 1 to
 * 140; 76-78 are unassigned): 'P' points and lines (boundary entities,
 * skipped), 'T' linear or quadratic tetrahedra (corners kept), 't'
 * linear or quadratic triangles (corners kept), '3' other volume elements
 * (hexahedra, prisms, pyramids, polyhedra, tetrahedra of order 3 and
 * above, trihedra), '2' other surface elements (quadrilaterals,
 * polygons, triangles of order 3 and above), 0 not a Gmsh type. */
#define GMSH_NTYPES 141
static char gmsh_class(int64_t t) {
  static const struct {
    int lo, hi;
    char c;
  } ranges[] = {
      {1, 1, 'P'},     {2, 2, 't'},     {3, 3, '2'},     {4, 4, 'T'},
      {5, 7, '3'},     {8, 8, 'P'},     {9, 9, 't'},     {10, 10, '2'},
      {11, 11, 'T'},   {12, 14, '3'},   {15, 15, 'P'},   {16, 16, '2'},
      {17, 19, '3'},   {20, 25, '2'},   {26, 28, 'P'},   {29, 33, '3'},
      {34, 34, '2'},   {35, 35, '3'},   {36, 61, '2'},   {62, 67, 'P'},
      {68, 69, '2'},   {70, 70, 'P'},   {71, 75, '3'},   {79, 83, '3'},
      {84, 84, 'P'},   {85, 86, '2'},   {87, 132, '3'},  {133, 134, 'P'},
      {135, 135, '2'}, {136, 137, '3'}, {138, 138, '2'}, {139, 140, '3'},
  };
  if (t < 1 || t >= GMSH_NTYPES)
    return 0;
  for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++)
    if (t >= ranges[r].lo && t <= ranges[r].hi)
      return ranges[r].c;
  return 0;
}

/* Counts element type t among the kinds of mesh_choose_kind (points and
 * lines do not count); a type that is not Gmsh's is counted apart, the
 * first one seen kept for the message. */
static void count_kind(gmsh_reader *g, int64_t t) {
  switch (gmsh_class(t)) {
  case 'T':
    g->kinds.tets++;
    break;
  case 't':
    g->kinds.tris++;
    break;
  case '3':
    g->kinds.other3d++;
    break;
  case '2':
    g->kinds.other2d++;
    break;
  case 'P':
    break;
  default:
    if (g->unknown++ == 0) {
      g->unknown_type = t;
      g->unknown_line = g->r.lineno;
    }
  }
}

/* Corner nodes kept for element type t, 0 when the type is skipped. */
static int kept_corners(int64_t t, elem_list **list, gmsh_reader *g, int *nn) {
  switch (t) {
  case 2:
    *nn = 3;
    *list = &g->tris;
    return 3;
  case 9:
    *nn = 6;
    *list = &g->tris;
    return 3;
  case 4:
    *nn = 4;
    *list = &g->tets;
    return 4;
  case 11:
    *nn = 10;
    *list = &g->tets;
    return 4;
  default:
    return 0;
  }
}

/* Node tags of one kept element at s: nn tags, the first k are kept. */
static int elem_nodes(gmsh_reader *g, char *s, int64_t etag, int nn, int k,
                      elem_list *l) {
  int rc = mesh_reserve((void **)&l->nodes, &l->cap, l->count + 1, INT64_MAX,
                        sizeof(int32_t) * (size_t)k);
  if (rc != MINEX_OK)
    return rc;
  int32_t *en = l->nodes + l->count * k;
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
  l->count++;
  return MINEX_OK;
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
    for (int64_t i = 0; i < bh[3]; i++) {
      if ((rc = next_line(g, "$Elements")) != MINEX_OK)
        return rc;
      s = g->r.line;
      int64_t e[3] = {0, bh[2], 0}; /* tag, type, number of tags */
      if ((rc = ints(g, &s, g->major == 2 ? 3 : 1, e, "an element")) !=
          MINEX_OK)
        return rc;
      for (int64_t t = 0; t < e[2]; t++) {
        int64_t tag;
        if ((rc = ints(g, &s, 1, &tag, "an element tag")) != MINEX_OK)
          return rc;
      }
      elem_list *l;
      int nn, k = kept_corners(e[1], &l, g, &nn);
      count_kind(g, e[1]);
      if (k > 0 && (rc = elem_nodes(g, s, e[0], nn, k, l)) != MINEX_OK)
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
    else if (l[0] == '$' && strncmp(l, "$End", 4) != 0)
      rc = skip_section(g);
    else
      rc = core_error(MINEX_EPARSE,
                      "%s:%lld: unexpected line '%.40s' "
                      "outside any section",
                      PATH, LINE, l);
    if (rc != MINEX_OK)
      return rc;
  }
  if (rc < 0)
    return rc;
  if (g->nnodes < 0)
    return core_error(MINEX_EPARSE, "%s:%lld: no $Nodes section", PATH, LINE);
  if (g->unknown > 0)
    return core_error(MINEX_EUNSUP,
                      "%s:%lld: element type %lld is not a Gmsh element type "
                      "(1-140): %lld elements of unknown types beside %lld "
                      "tetrahedra, %lld triangles, %lld other volume and "
                      "%lld other surface elements; none is dropped "
                      "silently",
                      PATH, (long long)g->unknown_line,
                      (long long)g->unknown_type, (long long)g->unknown,
                      (long long)g->kinds.tets, (long long)g->kinds.tris,
                      (long long)g->kinds.other3d, (long long)g->kinds.other2d);
  if (g->tets.count == 0 && g->tris.count == 0)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: no triangles or tetrahedra "
                      "(element types 2, 4, 9, 11)",
                      PATH, LINE);
  if (g->tets.count > INT32_MAX || g->tris.count > INT32_MAX)
    return core_error(MINEX_EPARSE, "%s: more than 2^31 elements", PATH);
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
  free(g->tags);
  free(g->dense);
  free(g->sorted);
  minex_elem_type use = MINEX_ELEM_TETRA;
  if (rc == MINEX_OK)
    rc = mesh_choose_kind(path, kind, &g->kinds, &use);
  if (rc != MINEX_OK) {
    free(g->coords);
    free(g->tets.nodes);
    free(g->tris.nodes);
    return rc;
  }
  if (use == MINEX_ELEM_TETRA) {
    free(g->tris.nodes);
    rc = mesh_adopt((int32_t)g->nnodes, g->coords, (int32_t)g->tets.count,
                    MINEX_ELEM_TETRA, g->tets.nodes, out);
  } else {
    free(g->tets.nodes);
    rc = mesh_adopt((int32_t)g->nnodes, g->coords, (int32_t)g->tris.count,
                    MINEX_ELEM_TRIANGLE, g->tris.nodes, out);
  }
  if (rc != MINEX_OK)
    core_error_prefix("%s", path);
  return rc;
}
