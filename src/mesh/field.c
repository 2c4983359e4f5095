/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Per-element fields of a mesh file (minex_mesh_read_field): the Gmsh
 * ASCII $ElementData view of a name (values by element tag), the VTK
 * legacy CELL_DATA or VTK XML CellData array of a name (values by cell
 * index), mapped onto the mesh's elements through the file ids the
 * readers keep (mesh->fid). MEDIT files have no named fields. */
#include "mesh/mesh.h"

#include "core/core.h"
#include "io/io_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tag_value {
  int64_t tag;
  double v;
} tag_value;

static int tv_cmp(const void *a, const void *b) {
  int64_t x = ((const tag_value *)a)->tag, y = ((const tag_value *)b)->tag;
  return (x > y) - (x < y);
}

/* Next non-blank line of r inside $ElementData; end of file is an error. */
static int data_line(io_reader *r, const char *path) {
  for (;;) {
    int rc = io_reader_next(r);
    if (rc < 0)
      return rc;
    if (rc == 0)
      return core_error(MINEX_EPARSE,
                        "%s:%lld: end of file inside $ElementData: section "
                        "truncated",
                        path, (long long)r->lineno);
    if (!io_rest_blank(r->line))
      return MINEX_OK;
  }
}

static int line_i64(io_reader *r, const char *path, int64_t *v,
                    const char *what) {
  int rc = data_line(r, path);
  char *s = r->line;
  if (rc == MINEX_OK && io_parse_i64_line(s, &s, v) != 0)
    rc = core_error(MINEX_EPARSE, "%s:%lld: $ElementData: %s expected", path,
                    (long long)r->lineno, what);
  return rc;
}

/* The first $ElementData view of name (its first string tag) in an ASCII
 * Gmsh file: *n (tag, value) pairs, sorted by tag. */
static int gmsh_field(const char *path, const char *name, tag_value **out,
                      int64_t *n) {
  io_reader r;
  int rc = io_reader_open(&r, path);
  if (rc != MINEX_OK)
    return rc;
  tag_value *tv = NULL;
  int64_t cnt = 0, cap = 0;
  int found = 0, more;
  while (rc == MINEX_OK && !found && (more = io_reader_next(&r)) != 0) {
    if (more < 0) {
      rc = more;
      break;
    }
    if (strncmp(r.line, "$MeshFormat", 11) == 0) {
      /* the next line: version file-type data-size */
      double version;
      int64_t ftype;
      char *s;
      if ((rc = data_line(&r, path)) != MINEX_OK)
        break;
      s = r.line;
      if (io_parse_double(s, &s, &version) == 0 &&
          io_parse_i64(s, &s, &ftype) == 0 && ftype != 0)
        rc = core_error(MINEX_EUNSUP,
                        "%s:%lld: binary Gmsh file: element fields are read "
                        "from ASCII files (gmsh -format msh41 -bin 0, or "
                        "give the weights as a file)",
                        path, (long long)r.lineno);
      continue;
    }
    if (strncmp(r.line, "$ElementData", 12) != 0 || !io_rest_blank(r.line + 12))
      continue;
    int64_t nstr, nreal, nint, ints[3] = {0, 1, 0};
    char view[256] = "";
    if ((rc = line_i64(&r, path, &nstr, "the number of string tags")))
      break;
    for (int64_t i = 0; i < nstr && rc == MINEX_OK; i++) {
      if ((rc = data_line(&r, path)) != MINEX_OK)
        break;
      if (i == 0) {
        const char *s = r.line;
        while (*s == ' ' || *s == '\t')
          s++;
        if (*s == '"')
          s++;
        size_t len = strcspn(s, "\"\r\n");
        if (len >= sizeof view)
          len = sizeof view - 1;
        memcpy(view, s, len);
        view[len] = '\0';
      }
    }
    if (rc != MINEX_OK ||
        (rc = line_i64(&r, path, &nreal, "the number of real tags")))
      break;
    for (int64_t i = 0; i < nreal && rc == MINEX_OK; i++)
      rc = data_line(&r, path);
    if (rc != MINEX_OK ||
        (rc = line_i64(&r, path, &nint, "the number of integer tags")))
      break;
    for (int64_t i = 0; i < nint && rc == MINEX_OK; i++) {
      int64_t x;
      rc = line_i64(&r, path, &x, "an integer tag");
      if (i < 3)
        ints[i] = x;
    }
    if (rc != MINEX_OK)
      break;
    int want = strcmp(view, name) == 0;
    if (want && ints[1] != 1) {
      rc = core_error(MINEX_EPARSE,
                      "%s:%lld: view \"%s\" has %lld components: an element "
                      "field needs one",
                      path, (long long)r.lineno, name, (long long)ints[1]);
      break;
    }
    if (ints[2] < 0) {
      rc = core_error(MINEX_EPARSE, "%s:%lld: $ElementData: negative count",
                      path, (long long)r.lineno);
      break;
    }
    for (int64_t i = 0; i < ints[2] && rc == MINEX_OK; i++) {
      if ((rc = data_line(&r, path)) != MINEX_OK)
        break;
      if (!want)
        continue;
      char *s = r.line;
      int64_t tag;
      double v;
      if (io_parse_i64(s, &s, &tag) != 0 || io_parse_double(s, &s, &v) != 0) {
        rc = core_error(MINEX_EPARSE,
                        "%s:%lld: view \"%s\": 'element-tag value' expected",
                        path, (long long)r.lineno, name);
        break;
      }
      if ((rc = mesh_reserve((void **)&tv, &cap, cnt + 1, INT64_MAX,
                             sizeof *tv)) != MINEX_OK)
        break;
      tv[cnt++] = (tag_value){tag, v};
    }
    found = want;
  }
  io_reader_close(&r);
  if (rc == MINEX_OK && !found)
    rc = core_error(MINEX_EPARSE,
                    "%s: no $ElementData view \"%s\" (its first string tag)",
                    path, name);
  if (rc != MINEX_OK) {
    free(tv);
    return rc;
  }
  if (cnt > 0)
    qsort(tv, (size_t)cnt, sizeof *tv, tv_cmp);
  for (int64_t i = 1; i < cnt; i++)
    if (tv[i].tag == tv[i - 1].tag) {
      rc = core_error(MINEX_EPARSE,
                      "%s: view \"%s\" gives element %lld two values", path,
                      name, (long long)tv[i].tag);
      free(tv);
      return rc;
    }
  *out = tv;
  *n = cnt;
  return MINEX_OK;
}

int minex_mesh_read_field(const minex_mesh *mesh, const char *path,
                          const char *name, double *values) {
  core_error_clear();
  if (mesh == NULL || path == NULL || name == NULL || values == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_read_field: NULL argument");
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return core_error(MINEX_EIO, "%s: cannot open: %s", path, strerror(errno));
  char head[512];
  size_t nh = fread(head, 1, sizeof head - 1, fp);
  fclose(fp);
  head[nh] = '\0';
  size_t i = strspn(head, " \t\r\n");
  const int32_t ne = mesh->nelems;
  int rc;
  if (strncmp(head, "# vtk", 5) == 0 || strncmp(head + i, "<?xml", 5) == 0 ||
      strncmp(head + i, "<VTKFile", 8) == 0) {
    double *vals = NULL;
    int64_t n = 0;
    rc = head[0] == '#' ? mesh_read_vtk_field(path, name, &vals, &n)
                        : mesh_read_vtu_field(path, name, &vals, &n);
    if (rc != MINEX_OK)
      return rc;
    for (int32_t e = 0; e < ne && rc == MINEX_OK; e++) {
      int64_t c = mesh_fid(mesh, e);
      if (c < 0 || c >= n)
        rc = core_error(MINEX_EINVAL,
                        "%s: field \"%s\" has %lld cells, element %d is cell "
                        "%lld: is this the file the mesh was read from?",
                        path, name, (long long)n, (int)e, (long long)c);
      else
        values[e] = vals[c];
    }
    free(vals);
  } else if (strncmp(head + i, "$MeshFormat", 11) == 0) {
    tag_value *tv = NULL;
    int64_t n = 0;
    if ((rc = gmsh_field(path, name, &tv, &n)) != MINEX_OK)
      return rc;
    for (int32_t e = 0; e < ne && rc == MINEX_OK; e++) {
      tag_value key = {mesh_fid(mesh, e), 0};
      const tag_value *hit =
          n > 0 ? bsearch(&key, tv, (size_t)n, sizeof *tv, tv_cmp) : NULL;
      if (hit == NULL)
        rc = core_error(MINEX_EPARSE,
                        "%s: view \"%s\" has no value for element %lld (tag; "
                        "element %d of the mesh)",
                        path, name, (long long)key.tag, (int)e);
      else
        values[e] = hit->v;
    }
    free(tv);
  } else {
    return core_error(MINEX_EUNSUP,
                      "%s: element fields are read from Gmsh ASCII "
                      "($ElementData), VTK legacy (CELL_DATA) and VTK XML "
                      "(CellData) files; MEDIT files have none",
                      path);
  }
  for (int32_t e = 0; e < ne && rc == MINEX_OK; e++)
    if (!isfinite(values[e]))
      rc = core_error(MINEX_EPARSE,
                      "%s: field \"%s\": element %d has a non-finite value",
                      path, name, (int)e);
  return rc;
}
