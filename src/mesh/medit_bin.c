/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MEDIT binary .meshb reader (libMeshb's format, versions 1 to 4, either
 * byte order; SPEC §7): the int 1 (byte order), the version (1: 32-bit
 * floats; 2: doubles; 3: 64-bit positions; 4: 64-bit integers), then
 * keywords, each its code (32-bit), the position of the next keyword and,
 * for the data keywords, a count and count records. Vertices and the
 * element keywords of mesh_read_medit's list are read; edges are counted
 * as ignored; other data keywords are skipped by their next position;
 * polygons and polyhedra are refused. Every count is checked against the
 * bytes left before it is used. The file must end with the End keyword:
 * without it, it is taken as truncated. */
#include "mesh/mesh.h"

#include "core/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct meshb_reader {
  const char *path;
  const unsigned char *buf; /* whole file    */
  size_t len, pos;          /* size, cursor  */
  int swap;                 /* other byte order */
  int isize, fsize, psize;  /* integer, real, position sizes */
} meshb_reader;

#define PATH b->path
#define OFF ((unsigned long long)b->pos)

static uint64_t raw(meshb_reader *b, int size) {
  uint64_t u = 0;
  for (int k = 0; k < size; k++)
    u |= (uint64_t)b->buf[b->pos + (size_t)(b->swap ? size - 1 - k : k)]
         << (8 * k);
  b->pos += (size_t)size;
  return u;
}

static int need(meshb_reader *b, uint64_t n, uint64_t size, const char *what) {
  return mesh_bin_need(PATH, b->pos, b->len, n, size, what);
}

static int64_t get_int(meshb_reader *b) {
  uint64_t u = raw(b, b->isize);
  return b->isize == 4 ? (int64_t)(int32_t)(uint32_t)u : (int64_t)u;
}

static double get_real(meshb_reader *b) {
  uint64_t u = raw(b, b->fsize);
  if (b->fsize == 4) {
    uint32_t w = (uint32_t)u;
    float f;
    memcpy(&f, &w, 4);
    return f;
  }
  double d;
  memcpy(&d, &u, 8);
  return d;
}

/* Element keywords: code, kind, nodes per record (corners first). */
static const struct {
  int code;
  const char *name;
  minex_elem_type kind;
  int nn;
} elem_kw[] = {
    {8, "Tetrahedra", MINEX_ELEM_TETRA, 4},
    {10, "Hexahedra", MINEX_ELEM_HEXA, 8},
    {9, "Prisms", MINEX_ELEM_PRISM, 6},
    {49, "Pyramids", MINEX_ELEM_PYRAMID, 5},
    {6, "Triangles", MINEX_ELEM_TRIANGLE, 3},
    {7, "Quadrilaterals", MINEX_ELEM_QUAD, 4},
    {30, "TetrahedraP2", MINEX_ELEM_TETRA, 10},
    {33, "HexahedraQ2", MINEX_ELEM_HEXA, 27},
    {24, "TrianglesP2", MINEX_ELEM_TRIANGLE, 6},
    {27, "QuadrilateralsQ2", MINEX_ELEM_QUAD, 9},
};

/* The byte-order int and the version, which sets the sizes. */
static int read_header(meshb_reader *b) {
  int rc;
  if ((rc = need(b, 2, 4, "header")) != MINEX_OK)
    return rc;
  uint32_t one = (uint32_t)raw(b, 4);
  if (one == 0x01000000u)
    b->swap = 1;
  else if (one != 1)
    return core_error(MINEX_EPARSE, "%s: offset 0: not a .meshb file", PATH);
  int64_t version = (int32_t)(uint32_t)raw(b, 4);
  if (version < 1 || version > 4)
    return core_error(MINEX_EUNSUP,
                      "%s: offset 4: .meshb version %lld (1 to 4 are read)",
                      PATH, (long long)version);
  b->fsize = version == 1 ? 4 : 8;
  b->psize = version >= 3 ? 8 : 4;
  b->isize = version == 4 ? 8 : 4;
  return MINEX_OK;
}

static int read_dimension(meshb_reader *b, int *dim) {
  int rc;
  if ((rc = need(b, 1, 4, "Dimension")) != MINEX_OK)
    return rc;
  *dim = (int)(int32_t)(uint32_t)raw(b, 4);
  if (*dim != 2 && *dim != 3)
    return core_error(MINEX_EPARSE, "%s: offset %llu: Dimension %d", PATH,
                      OFF - 4, *dim);
  return MINEX_OK;
}

/* Vertices (keyword at offset at) of dim coordinates into *coords. */
static int read_vertices(meshb_reader *b, size_t at, int dim, int32_t *nnodes,
                         double **coords) {
  int rc;
  if (dim == 0 || *nnodes >= 0)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: Vertices before Dimension or "
                      "twice",
                      PATH, (unsigned long long)at);
  if ((rc = need(b, 1, (uint64_t)b->isize, "Vertices count")) != MINEX_OK)
    return rc;
  int64_t n = get_int(b);
  if (n < 0 || n > INT32_MAX)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: Vertices count %lld outside "
                      "[0, 2^31)",
                      PATH, OFF, (long long)n);
  if ((rc = need(b, (uint64_t)n, (uint64_t)(dim * b->fsize + b->isize),
                 "Vertices")) != MINEX_OK)
    return rc;
  *coords = malloc(sizeof(double) * 3 * (size_t)n + 1);
  if (*coords == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", PATH);
  for (int64_t v = 0; v < n; v++) {
    (*coords)[3 * v + 2] = 0.0;
    for (int d = 0; d < dim; d++)
      (*coords)[3 * v + d] = get_real(b);
    get_int(b); /* reference */
  }
  *nnodes = (int32_t)n;
  return MINEX_OK;
}

/* Edges (code 5) or EdgesP2 (25): counted as ignored and skipped. */
static int read_edges(meshb_reader *b, int64_t code, mesh_lists *lists) {
  int rc;
  if ((rc = need(b, 1, (uint64_t)b->isize, "Edges count")) != MINEX_OK)
    return rc;
  int64_t n = get_int(b);
  if (n < 0 ||
      (rc = need(b, (uint64_t)n, (uint64_t)((code == 5 ? 3 : 4) * b->isize),
                 "Edges")) != MINEX_OK)
    return rc != MINEX_OK
               ? rc
               : core_error(MINEX_EPARSE, "%s: offset %llu: negative count",
                            PATH, OFF);
  lists->lower += n;
  b->pos += (size_t)n * (size_t)((code == 5 ? 3 : 4) * b->isize);
  return MINEX_OK;
}

/* The records of element keyword elem_kw[k], corners kept. */
static int read_elements(meshb_reader *b, size_t k, mesh_lists *lists) {
  int rc;
  if ((rc = need(b, 1, (uint64_t)b->isize, "count")) != MINEX_OK)
    return rc;
  int64_t n = get_int(b);
  if (n < 0 || n > INT32_MAX)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: %s count %lld outside [0, 2^31)", PATH,
                      OFF, elem_kw[k].name, (long long)n);
  int nn = elem_kw[k].nn, kc = minex_elem_nnodes(elem_kw[k].kind);
  if ((rc = need(b, (uint64_t)n, (uint64_t)((nn + 1) * b->isize),
                 elem_kw[k].name)) != MINEX_OK)
    return rc;
  for (int64_t e = 0; e < n; e++) {
    int32_t en[8];
    for (int i = 0; i <= nn; i++) {
      int64_t id = get_int(b);
      if (i >= kc)
        continue; /* mid-edge nodes and the reference */
      if (id < 1 || id > INT32_MAX)
        return core_error(MINEX_EPARSE,
                          "%s: offset %llu: %s %lld: node id %lld "
                          "outside [1, 2^31)",
                          PATH, OFF, elem_kw[k].name, (long long)e + 1,
                          (long long)id);
      en[i] = (int32_t)(id - 1);
      for (int j = 0; j < i; j++)
        if (en[j] == en[i])
          return core_error(
              MINEX_EPARSE, "%s: offset %llu: %s %lld repeats node %lld", PATH,
              OFF, elem_kw[k].name, (long long)e + 1, (long long)id);
    }
    if (elem_kw[k].kind == MINEX_ELEM_PRISM)
      mesh_prism_to_vtk(en);
    if ((rc = mesh_list_add(lists, elem_kw[k].kind, en, -1)) != MINEX_OK)
      return rc;
  }
  return MINEX_OK;
}

static int parse(meshb_reader *b, mesh_lists *lists, int32_t *nnodes,
                 double **coords) {
  int rc = read_header(b);
  if (rc != MINEX_OK)
    return rc;
  int dim = 0, seen[sizeof elem_kw / sizeof elem_kw[0]] = {0};
  int64_t last = -1; /* the last keyword read, for the message */
  while (b->pos < b->len) {
    if ((rc = need(b, 1, 4 + (uint64_t)b->psize, "a keyword")) != MINEX_OK)
      return rc;
    size_t at = b->pos;
    int64_t code = (int32_t)(uint32_t)raw(b, 4);
    uint64_t next = raw(b, b->psize);
    if (code == 54) /* End */
      return MINEX_OK;
    if (next != 0 && (next <= at || next > b->len))
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: keyword %lld: next position "
                        "%llu outside the file or not after the keyword",
                        PATH, (unsigned long long)at, (long long)code,
                        (unsigned long long)next);
    if (code == 3) { /* Dimension */
      rc = read_dimension(b, &dim);
    } else if (code == 4) { /* Vertices */
      rc = read_vertices(b, at, dim, nnodes, coords);
    } else if (code == 5 || code == 25) { /* Edges, EdgesP2: ignored */
      rc = read_edges(b, code, lists);
    } else if (code == 46 || code == 47) {
      return core_error(MINEX_EUNSUP,
                        "%s: offset %llu: %s are not read (no element is "
                        "dropped silently)",
                        PATH, (unsigned long long)at,
                        code == 46 ? "Polyhedra" : "Polygons");
    } else {
      size_t k = 0, nk = sizeof elem_kw / sizeof elem_kw[0];
      while (k < nk && elem_kw[k].code != code)
        k++;
      if (k == nk) {   /* data we do not use: jump to the next keyword */
        if (next == 0) /* libMeshb's last keyword before End has one */
          return core_error(MINEX_EPARSE,
                            "%s: offset %llu: keyword %lld is the last "
                            "(next position 0) and no End follows: the "
                            "file is truncated",
                            PATH, (unsigned long long)at, (long long)code);
        b->pos = (size_t)next;
        last = code;
        continue;
      }
      if (seen[k]++)
        return core_error(MINEX_EPARSE, "%s: offset %llu: second %s", PATH,
                          (unsigned long long)at, elem_kw[k].name);
      rc = read_elements(b, k, lists);
    }
    if (rc != MINEX_OK)
      return rc;
    last = code;
    if (next != 0 && b->pos != next) /* 0: End should follow the data */
      return core_error(MINEX_EPARSE,
                        "%s: offset %llu: keyword %lld ends at %llu, its next "
                        "position says %llu",
                        PATH, (unsigned long long)at, (long long)code, OFF,
                        (unsigned long long)next);
  }
  /* libMeshb writes End when it closes the file: without it, a file cut
     between two keywords reads as a complete one that lacks the later
     keywords */
  char after[48] = "before any keyword";
  if (last >= 0)
    snprintf(after, sizeof after, "after keyword %lld", (long long)last);
  return core_error(MINEX_EPARSE,
                    "%s: offset %llu: end of file %s without the End "
                    "keyword (54): the file is truncated",
                    PATH, OFF, after);
}

static int check_ids(const char *path, const mesh_list *l, int32_t nnodes) {
  for (int64_t i = 0; i < l->nnodes; i++)
    if (l->nodes[i] >= nnodes)
      return core_error(MINEX_EPARSE, "%s: node id %d outside [1, %d]", path,
                        (int)l->nodes[i] + 1, (int)nnodes);
  return MINEX_OK;
}

int mesh_read_meshb(const char *path, int kind, minex_mesh **out) {
  *out = NULL;
  meshb_reader b0 = {0}, *b = &b0;
  b->path = path;
  char *buf = NULL;
  int rc = mesh_load_file(path, &buf, &b->len);
  if (rc != MINEX_OK)
    return rc;
  b->buf = (const unsigned char *)buf;
  mesh_lists lists = {0};
  int32_t nnodes = -1;
  double *coords = NULL;
  rc = parse(b, &lists, &nnodes, &coords);
  if (rc == MINEX_OK && nnodes < 0)
    rc = core_error(MINEX_EPARSE, "%s: no Vertices", path);
  if (rc == MINEX_OK)
    rc = check_ids(path, &lists.vol, nnodes);
  if (rc == MINEX_OK)
    rc = check_ids(path, &lists.surf, nnodes);
  free(buf);
  if (rc != MINEX_OK) {
    free(coords);
    mesh_list_free(&lists);
    return rc;
  }
  return mesh_list_finish(path, &lists, kind, nnodes, coords, out);
}
