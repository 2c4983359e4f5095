/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MEDIT ASCII .mesh reader (SPEC §7): free-format tokens, '#' comments,
 * sections "Keyword count" followed by count records. Vertices and the
 * element sections (Tetrahedra, Hexahedra, Prisms, Pyramids, Triangles,
 * Quadrilaterals, and the second-order TetrahedraP2, HexahedraQ2,
 * TrianglesP2, QuadrilateralsQ2 by their corners) are kept (1-based node
 * ids, trailing reference), elements in the order of the sections; the
 * other known sections are skipped by their record sizes. The file must
 * end with End: without it, it is taken as truncated. */
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
    {"EdgesP2", 4},
    {"SubDomainFromMesh", 4},
    {"VertexOnGeometricVertex", 2},
    {"EdgeOnGeometricEdge", 2},
    {"Crack", 2},
};

/* Element sections: keyword, kind, nodes per record (corners first). */
typedef struct medit_kind {
  const char *name;
  minex_elem_type kind;
  int nn;
} medit_kind;

static const medit_kind elem_table[] = {
    {"Tetrahedra", MINEX_ELEM_TETRA, 4},
    {"Hexahedra", MINEX_ELEM_HEXA, 8},
    {"Prisms", MINEX_ELEM_PRISM, 6},
    {"Pyramids", MINEX_ELEM_PYRAMID, 5},
    {"Triangles", MINEX_ELEM_TRIANGLE, 3},
    {"Quadrilaterals", MINEX_ELEM_QUAD, 4},
    {"TetrahedraP2", MINEX_ELEM_TETRA, 10},
    {"HexahedraQ2", MINEX_ELEM_HEXA, 27},
    {"TrianglesP2", MINEX_ELEM_TRIANGLE, 6},
    {"QuadrilateralsQ2", MINEX_ELEM_QUAD, 9},
};
#define MEDIT_NKINDS (sizeof elem_table / sizeof elem_table[0])

/* Element section: count records of nn node ids and a reference, the
 * corners kept. Ids are checked against nnodes when the vertices are
 * already known (else at the end, by check_ids). */
static int read_elems(medit_lexer *lx, const medit_kind *mk, int32_t nnodes,
                      mesh_lists *lists) {
  int64_t count;
  const char *sec = mk->name;
  lx->nrd = 0;
  int rc = lex_i64(lx, sec, 0, &count);
  if (rc != MINEX_OK)
    return rc;
  if (count < 0 || count > INT32_MAX)
    return core_error(MINEX_EPARSE,
                      "%s:%lld: %s count %lld outside "
                      "[0, 2^31)",
                      lx->r.path, (long long)lx->r.lineno, sec,
                      (long long)count);
  int k = minex_elem_nnodes(mk->kind);
  for (lx->nrd = 0; lx->nrd < count; lx->nrd++) {
    int32_t en[8];
    for (int i = 0; i <= mk->nn; i++) {
      int64_t id;
      if ((rc = lex_i64(lx, sec, count, &id)) != MINEX_OK)
        return rc;
      if (i == mk->nn || i >= k)
        continue; /* the reference, or a mid-edge node */
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
    if (mk->kind == MINEX_ELEM_PRISM)
      mesh_prism_to_vtk(en);
    if ((rc = mesh_list_add(lists, mk->kind, en, -1)) != MINEX_OK)
      return rc;
  }
  return MINEX_OK;
}

/* Ids of sections read before Vertices. */
static int check_ids(const char *path, const mesh_list *l, int32_t nnodes) {
  for (int64_t i = 0; i < l->nnodes; i++)
    if (l->nodes[i] >= nnodes)
      return core_error(MINEX_EPARSE,
                        "%s: node id %d outside [1, %d] (an element "
                        "section before Vertices)",
                        path, (int)l->nodes[i] + 1, (int)nnodes);
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

static int parse(medit_lexer *lx, mesh_lists *lists, int32_t *nnodes,
                 double **coords) {
  int dim = 0, rc;
  int seen[MEDIT_NKINDS] = {0};
  char *tok;
  int64_t v;
  const char *last = NULL; /* the last section read, for the message */
  while ((rc = lex_next(lx, &tok)) == 1) {
    if (strcasecmp(tok, "End") == 0)
      return MINEX_OK;
    size_t ek = 0;
    while (ek < MEDIT_NKINDS && strcasecmp(tok, elem_table[ek].name) != 0)
      ek++;
    if (strcasecmp(tok, "MeshVersionFormatted") == 0) {
      if ((rc = read_int_after(lx, tok, &v)) != MINEX_OK)
        return rc;
      last = "MeshVersionFormatted";
    } else if (strcasecmp(tok, "Dimension") == 0) {
      if ((rc = read_int_after(lx, "Dimension", &v)) != MINEX_OK)
        return rc;
      last = "Dimension";
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
      last = "Vertices";
    } else if (ek < MEDIT_NKINDS) {
      if (seen[ek]++)
        return core_error(MINEX_EPARSE, "%s:%lld: second %s section",
                          lx->r.path, (long long)lx->r.lineno,
                          elem_table[ek].name);
      if ((rc = read_elems(lx, &elem_table[ek], *nnodes, lists)) != MINEX_OK)
        return rc;
      last = elem_table[ek].name;
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
      if (strncmp(skip_table[i].name, "Edges", 5) == 0)
        lists->lower += count;
      last = skip_table[i].name;
    }
  }
  if (rc < 0)
    return rc;
  /* libMeshb, Gmsh, meshio and Mmg end the file with End; without it, a
     file cut between two sections reads as a complete one that lacks the
     later sections */
  return core_error(MINEX_EPARSE,
                    "%s:%lld: end of file %s%s without the End keyword: "
                    "the file is truncated (a complete MEDIT file ends "
                    "with End)",
                    lx->r.path, (long long)lx->r.lineno,
                    last ? "after section " : "before any section",
                    last ? last : "");
}

int mesh_read_medit(const char *path, int kind, minex_mesh **out) {
  *out = NULL;
  medit_lexer lx = {0};
  int rc = io_reader_open(&lx.r, path);
  if (rc != MINEX_OK)
    return rc;
  mesh_lists lists = {0};
  int32_t nnodes = -1;
  double *coords = NULL;
  rc = parse(&lx, &lists, &nnodes, &coords);
  if (rc == MINEX_OK && nnodes < 0)
    rc = core_error(MINEX_EPARSE, "%s:%lld: no Vertices section", path,
                    (long long)lx.r.lineno);
  if (rc == MINEX_OK)
    rc = check_ids(path, &lists.vol, nnodes);
  if (rc == MINEX_OK)
    rc = check_ids(path, &lists.surf, nnodes);
  io_reader_close(&lx.r);
  if (rc != MINEX_OK) {
    mesh_list_free(&lists);
    free(coords);
    return rc;
  }
  return mesh_list_finish(path, &lists, kind, nnodes, coords, out);
}
