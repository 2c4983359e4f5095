/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MEDIT ASCII .mesh reader (SPEC §7): free-format tokens, '#' comments,
 * sections "Keyword count" followed by count records. Vertices, Triangles
 * and Tetrahedra are kept (1-based node ids, trailing reference); the other
 * known sections are skipped by their record sizes. */
#include "mesh/mesh.h"

#include "core/core.h"
#include "io/io_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Token stream over the counted line reader. */
typedef struct medit_lexer {
  io_reader r;
  char *pos;   /* next character of r.line, NULL when a new line is due */
  int64_t nrd; /* records read in the current section (for messages)   */
} medit_lexer;

/* Next token, NUL-terminated in place. 1: *tok set; 0: end of file;
 * < 0: read error. */
static int lex_next(medit_lexer *lx, char **tok) {
  for (;;) {
    if (lx->pos == NULL) {
      int rc = io_reader_next(&lx->r);
      if (rc <= 0)
        return rc;
      lx->pos = lx->r.line;
    }
    char *p = lx->pos;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v')
      p++;
    if (*p == '\0' || *p == '#') {
      lx->pos = NULL;
      continue;
    }
    char *q = p;
    while (*q && *q != ' ' && *q != '\t' && *q != '\r' && *q != '\f' &&
           *q != '\v')
      q++;
    if (*q) {
      *q = '\0';
      lx->pos = q + 1;
    } else {
      lx->pos = q;
    }
    *tok = p;
    return 1;
  }
}

/* Error for a token that should have been a number of section sec. */
static int bad_token(medit_lexer *lx, const char *sec, int64_t count,
                     const char *tok, const char *what) {
  if (tok == NULL)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: section %s truncated at end of "
                      "file: %lld of %lld records read",
                      lx->r.path, (long long)lx->r.lineno, sec,
                      (long long)lx->nrd, (long long)count);
  if (((tok[0] >= 'A' && tok[0] <= 'Z') || (tok[0] >= 'a' && tok[0] <= 'z')) &&
      strncasecmp(tok, "inf", 3) != 0 && strncasecmp(tok, "nan", 3) != 0)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: section %s ends at keyword "
                      "'%.40s' after %lld of %lld records: the count "
                      "disagrees with the data",
                      lx->r.path, (long long)lx->r.lineno, sec, tok,
                      (long long)lx->nrd, (long long)count);
  return core_error(MINEX_EPARSE,
                    "%s:%lld: section %s, record %lld: bad %s "
                    "'%.40s'",
                    lx->r.path, (long long)lx->r.lineno, sec,
                    (long long)lx->nrd + 1, what, tok);
}

static int lex_i64(medit_lexer *lx, const char *sec, int64_t count,
                   int64_t *v) {
  char *tok = NULL;
  int rc = lex_next(lx, &tok);
  if (rc < 0)
    return rc;
  if (rc == 0 || io_parse_i64(tok, NULL, v) != 0)
    return bad_token(lx, sec, count, rc ? tok : NULL, "integer");
  return MINEX_OK;
}

static int lex_double(medit_lexer *lx, const char *sec, int64_t count,
                      double *v) {
  char *tok = NULL;
  int rc = lex_next(lx, &tok);
  if (rc < 0)
    return rc;
  if (rc == 0 || io_parse_double(tok, NULL, v) != 0)
    return bad_token(lx, sec, count, rc ? tok : NULL, "number");
  return MINEX_OK;
}

/* Sections skipped by record size; 0 means "dimension" numbers. */
typedef struct medit_skip {
  const char *name;
  int size;
} medit_skip;

static const medit_skip skip_table[] = {
    {"Edges", 3},
    {"Corners", 1},
    {"RequiredVertices", 1},
    {"Ridges", 1},
    {"RequiredEdges", 1},
    {"RequiredTriangles", 1},
    {"RequiredQuadrilaterals", 1},
    {"Normals", 0},
    {"Tangents", 0},
    {"NormalAtVertices", 2},
    {"NormalAtTriangleVertices", 3},
    {"NormalAtQuadrilateralVertices", 3},
    {"TangentAtEdges", 3},
    {"TangentAtVertices", 2},
    {"Quadrilaterals", 5},
    {"Hexahedra", 9},
    {"Prisms", 7},
    {"Pyramids", 6},
    {"SubDomainFromMesh", 4},
    {"VertexOnGeometricVertex", 2},
    {"EdgeOnGeometricEdge", 2},
    {"Crack", 2},
};

/* Element section: count records of k node ids and a reference. Ids are
 * checked against nnodes when the vertices are already known (else later,
 * by check_ids). */
typedef struct medit_elems {
  int64_t count;  /* records, -1 when the section is absent       */
  int32_t *nodes; /* k*count 0-based node ids                     */
  int64_t line;   /* line of the section keyword                  */
} medit_elems;

static int read_elems(medit_lexer *lx, const char *sec, int k, int32_t nnodes,
                      medit_elems *el) {
  int64_t count;
  el->line = lx->r.lineno;
  lx->nrd = 0;
  int rc = lex_i64(lx, sec, 0, &count);
  if (rc != MINEX_OK)
    return rc;
  if (el->count >= 0)
    return core_error(MINEX_EPARSE, "%s:%lld: second %s section", lx->r.path,
                      (long long)lx->r.lineno, sec);
  if (count < 0 || count > INT32_MAX)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: %s count %lld outside "
                      "[0, 2^31)",
                      lx->r.path, (long long)lx->r.lineno, sec,
                      (long long)count);
  el->count = 0;
  int64_t cap = 0;
  for (lx->nrd = 0; lx->nrd < count; lx->nrd++) {
    if ((rc = mesh_reserve((void **)&el->nodes, &cap, lx->nrd + 1, count,
                           sizeof(int32_t) * (size_t)k)) != MINEX_OK)
      return rc;
    el->count = lx->nrd + 1;
    int32_t *en = el->nodes + lx->nrd * k;
    for (int i = 0; i <= k; i++) {
      int64_t id;
      if ((rc = lex_i64(lx, sec, count, &id)) != MINEX_OK)
        return rc;
      if (i == k)
        break; /* the reference */
      if (id < 1 || id > INT32_MAX || (nnodes >= 0 && id > nnodes))
        return core_error(MINEX_EPARSE,
                          "%s:%lld: %s %lld: node id %lld "
                          "outside [1, %d]",
                          lx->r.path, (long long)lx->r.lineno, sec,
                          (long long)lx->nrd + 1, (long long)id,
                          (int)(nnodes >= 0 ? nnodes : INT32_MAX));
      en[i] = (int32_t)(id - 1);
      for (int j = 0; j < i; j++)
        if (en[j] == en[i])
          return core_error(MINEX_EPARSE,
                            "%s:%lld: %s %lld repeats node "
                            "%lld",
                            lx->r.path, (long long)lx->r.lineno, sec,
                            (long long)lx->nrd + 1, (long long)id);
    }
  }
  return MINEX_OK;
}

/* Ids of a section read before Vertices. */
static int check_ids(const char *path, const char *sec, int k,
                     const medit_elems *el, int32_t nnodes) {
  for (int64_t i = 0; i < el->count * k; i++)
    if (el->nodes[i] >= nnodes)
      return core_error(MINEX_EPARSE,
                        "%s:%lld: %s %lld: node id %d outside "
                        "[1, %d]",
                        path, (long long)el->line, sec, (long long)(i / k + 1),
                        (int)el->nodes[i] + 1, (int)nnodes);
  return MINEX_OK;
}

static int read_vertices(medit_lexer *lx, int dim, int32_t *nnodes,
                         double **coords) {
  int64_t count;
  lx->nrd = 0;
  int rc = lex_i64(lx, "Vertices", 0, &count);
  if (rc != MINEX_OK)
    return rc;
  if (*nnodes >= 0)
    return core_error(MINEX_EPARSE, "%s:%lld: second Vertices section",
                      lx->r.path, (long long)lx->r.lineno);
  if (count < 0 || count > INT32_MAX)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: Vertices count %lld outside "
                      "[0, 2^31)",
                      lx->r.path, (long long)lx->r.lineno, (long long)count);
  int64_t cap = 0;
  if ((rc = mesh_reserve((void **)coords, &cap, 1, 1, 3 * sizeof(double))) !=
      MINEX_OK)
    return rc;
  for (lx->nrd = 0; lx->nrd < count; lx->nrd++) {
    if ((rc = mesh_reserve((void **)coords, &cap, lx->nrd + 1, count,
                           3 * sizeof(double))) != MINEX_OK)
      return rc;
    (*coords)[3 * lx->nrd + 2] = 0.0; /* z of 2D meshes */
    for (int d = 0; d < dim; d++)
      if ((rc = lex_double(lx, "Vertices", count, *coords + 3 * lx->nrd + d)) !=
          MINEX_OK)
        return rc;
    int64_t ref;
    if ((rc = lex_i64(lx, "Vertices", count, &ref)) != MINEX_OK)
      return rc;
  }
  *nnodes = (int32_t)count;
  return MINEX_OK;
}

static int skip_section(medit_lexer *lx, const char *sec, int size,
                        int64_t *nrecords) {
  int64_t count;
  lx->nrd = 0;
  int rc = lex_i64(lx, sec, 0, &count);
  if (rc != MINEX_OK)
    return rc;
  if (count < 0)
    return core_error(MINEX_EPARSE, "%s:%lld: %s count %lld < 0", lx->r.path,
                      (long long)lx->r.lineno, sec, (long long)count);
  for (lx->nrd = 0; lx->nrd < count; lx->nrd++)
    for (int i = 0; i < size; i++) {
      double v;
      if ((rc = lex_double(lx, sec, count, &v)) != MINEX_OK)
        return rc;
    }
  *nrecords = count;
  return MINEX_OK;
}

static int read_int_after(medit_lexer *lx, const char *kw, int64_t *v) {
  /* kw points into the line buffer, which reading the next line may
     reallocate: keep a copy for the messages */
  char name[64];
  snprintf(name, sizeof name, "%.40s", kw);
  lx->nrd = 0;
  int rc = lex_i64(lx, name, 1, v);
  if (rc != MINEX_OK)
    core_error(rc, "%s:%lld: %s needs an integer", lx->r.path,
               (long long)lx->r.lineno, name);
  return rc;
}

static int parse(medit_lexer *lx, medit_elems *tets, medit_elems *tris,
                 int32_t *nnodes, double **coords, mesh_kinds *kinds) {
  int dim = 0, rc;
  char *tok;
  int64_t v;
  while ((rc = lex_next(lx, &tok)) == 1) {
    if (strcasecmp(tok, "End") == 0)
      return MINEX_OK;
    if (strcasecmp(tok, "MeshVersionFormatted") == 0) {
      if ((rc = read_int_after(lx, tok, &v)) != MINEX_OK)
        return rc;
    } else if (strcasecmp(tok, "Dimension") == 0) {
      if ((rc = read_int_after(lx, "Dimension", &v)) != MINEX_OK)
        return rc;
      if (v != 2 && v != 3)
        return core_error(MINEX_EPARSE,
                          "%s:%lld: Dimension %lld: 2 or 3 "
                          "expected",
                          lx->r.path, (long long)lx->r.lineno, (long long)v);
      dim = (int)v;
    } else if (dim == 0) {
      return core_error(MINEX_EPARSE, "%s:%lld: '%.40s' before Dimension",
                        lx->r.path, (long long)lx->r.lineno, tok);
    } else if (strcasecmp(tok, "Vertices") == 0) {
      if ((rc = read_vertices(lx, dim, nnodes, coords)) != MINEX_OK)
        return rc;
    } else if (strcasecmp(tok, "Tetrahedra") == 0) {
      if ((rc = read_elems(lx, "Tetrahedra", 4, *nnodes, tets)) != MINEX_OK)
        return rc;
    } else if (strcasecmp(tok, "Triangles") == 0) {
      if ((rc = read_elems(lx, "Triangles", 3, *nnodes, tris)) != MINEX_OK)
        return rc;
    } else {
      size_t i, n = sizeof skip_table / sizeof skip_table[0];
      for (i = 0; i < n; i++)
        if (strcasecmp(tok, skip_table[i].name) == 0)
          break;
      if (i == n)
        return core_error(MINEX_EUNSUP,
                          "%s:%lld: unknown MEDIT section "
                          "'%.40s'",
                          lx->r.path, (long long)lx->r.lineno, tok);
      int size = skip_table[i].size ? skip_table[i].size : dim;
      int64_t count = 0;
      if ((rc = skip_section(lx, skip_table[i].name, size, &count)) != MINEX_OK)
        return rc;
      /* elements of other kinds: counted so that none is lost silently */
      if (strcmp(skip_table[i].name, "Quadrilaterals") == 0)
        kinds->other2d += count;
      else if (strcmp(skip_table[i].name, "Hexahedra") == 0 ||
               strcmp(skip_table[i].name, "Prisms") == 0 ||
               strcmp(skip_table[i].name, "Pyramids") == 0)
        kinds->other3d += count;
    }
  }
  return rc; /* 0: end of file without End, accepted; < 0: read error */
}

int mesh_read_medit(const char *path, int kind, minex_mesh **out) {
  *out = NULL;
  medit_lexer lx = {0};
  int rc = io_reader_open(&lx.r, path);
  if (rc != MINEX_OK)
    return rc;
  medit_elems tets = {-1, NULL, 0}, tris = {-1, NULL, 0};
  int32_t nnodes = -1;
  double *coords = NULL;
  mesh_kinds kinds = {0, 0, 0, 0};
  rc = parse(&lx, &tets, &tris, &nnodes, &coords, &kinds);
  if (rc == MINEX_OK && nnodes < 0)
    rc = core_error(MINEX_EPARSE, "%s:%lld: no Vertices section", path,
                    (long long)lx.r.lineno);
  if (rc == MINEX_OK && tets.count < 0 && tris.count < 0)
    rc = core_error(MINEX_EPARSE,
                    "%s:%lld: no Tetrahedra or Triangles "
                    "section",
                    path, (long long)lx.r.lineno);
  int use_tets = tets.count > 0 || (tets.count == 0 && tris.count <= 0);
  if (rc == MINEX_OK && (kind != 0 || kinds.other2d || kinds.other3d)) {
    minex_elem_type use = MINEX_ELEM_TETRA;
    kinds.tets = tets.count > 0 ? tets.count : 0;
    kinds.tris = tris.count > 0 ? tris.count : 0;
    rc = mesh_choose_kind(path, kind, &kinds, &use);
    use_tets = use == MINEX_ELEM_TETRA;
  }
  if (rc == MINEX_OK && use_tets)
    rc = check_ids(path, "Tetrahedra", 4, &tets, nnodes);
  else if (rc == MINEX_OK)
    rc = check_ids(path, "Triangles", 3, &tris, nnodes);
  io_reader_close(&lx.r);
  if (rc != MINEX_OK) {
    free(tets.nodes);
    free(tris.nodes);
    free(coords);
    return rc;
  }
  if (use_tets) {
    free(tris.nodes);
    rc = mesh_adopt(nnodes, coords, (int32_t)tets.count, MINEX_ELEM_TETRA,
                    tets.nodes, out);
  } else {
    free(tets.nodes);
    rc = mesh_adopt(nnodes, coords, (int32_t)tris.count, MINEX_ELEM_TRIANGLE,
                    tris.nodes, out);
  }
  if (rc != MINEX_OK)
    core_error_prefix("%s", path);
  return rc;
}
