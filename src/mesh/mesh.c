/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The mesh object (SPEC §7 "Meshes"): creation with validation, accessors,
 * element centroids, and minex_mesh_read, which picks the MEDIT or the Gmsh
 * reader from the file's first keyword. */
#include "mesh/mesh.h"

#include "core/core.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mesh_check(const minex_mesh *mesh) {
  if (mesh == NULL)
    return core_error(MINEX_EINVAL, "mesh is NULL");
  if (mesh->nnodes < 0 || mesh->nelems < 0)
    return core_error(MINEX_EINVAL,
                      "mesh: %d nodes, %d elements: counts "
                      "must be >= 0",
                      (int)mesh->nnodes, (int)mesh->nelems);
  if (mesh->type != MINEX_ELEM_TRIANGLE && mesh->type != MINEX_ELEM_TETRA)
    return core_error(MINEX_EINVAL,
                      "mesh: element type %d is neither "
                      "triangle (3) nor tetrahedron (4)",
                      (int)mesh->type);
  if ((mesh->nnodes > 0 && mesh->coords == NULL) ||
      (mesh->nelems > 0 && mesh->elems == NULL))
    return core_error(MINEX_EINVAL, "mesh: NULL coordinate or element array");
  for (int64_t i = 0; i < 3 * (int64_t)mesh->nnodes; i++)
    if (!isfinite(mesh->coords[i]))
      return core_error(MINEX_EINVAL,
                        "mesh: node %lld has a non-finite "
                        "coordinate",
                        (long long)(i / 3));
  int k = (int)mesh->type;
  for (int32_t e = 0; e < mesh->nelems; e++) {
    const int32_t *en = mesh->elems + (int64_t)e * k;
    for (int i = 0; i < k; i++) {
      if (en[i] < 0 || en[i] >= mesh->nnodes)
        return core_error(MINEX_EINVAL,
                          "mesh: element %d: node %d outside "
                          "[0, %d)",
                          (int)e, (int)en[i], (int)mesh->nnodes);
      for (int j = 0; j < i; j++)
        if (en[j] == en[i])
          return core_error(MINEX_EINVAL, "mesh: element %d repeats node %d",
                            (int)e, (int)en[i]);
    }
  }
  return MINEX_OK;
}

int mesh_reserve(void **arr, int64_t *cap, int64_t need, int64_t limit,
                 size_t size) {
  if (need <= *cap)
    return MINEX_OK;
  int64_t c = *cap > 0 ? *cap : 4096;
  while (c < need)
    c *= 2;
  if (c > limit)
    c = limit > need ? limit : need;
  void *p = realloc(*arr, (size_t)c * size);
  if (p == NULL)
    return core_error(MINEX_ENOMEM,
                      "mesh reader: out of memory for %lld "
                      "records",
                      (long long)c);
  *arr = p;
  *cap = c;
  return MINEX_OK;
}

int mesh_adopt(int32_t nnodes, double *coords, int32_t nelems,
               minex_elem_type type, int32_t *elems, minex_mesh **out) {
  *out = NULL;
  minex_mesh *m = malloc(sizeof *m);
  if (m == NULL) {
    free(coords);
    free(elems);
    return core_error(MINEX_ENOMEM, "mesh: out of memory");
  }
  *m = (minex_mesh){nnodes, coords, nelems, type, elems};
  int rc = mesh_check(m);
  if (rc != MINEX_OK) {
    minex_mesh_destroy(m);
    return rc;
  }
  *out = m;
  return MINEX_OK;
}

int minex_mesh_create(int32_t nnodes, const double *coords, int32_t nelems,
                      minex_elem_type type, const int32_t *elems,
                      minex_mesh **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_create: out is NULL");
  *out = NULL;
  minex_mesh tmp = {nnodes, (double *)coords, nelems, type, (int32_t *)elems};
  int rc = mesh_check(&tmp);
  if (rc != MINEX_OK)
    return rc;
  size_t nc = 3 * (size_t)nnodes, ne = (size_t)type * (size_t)nelems;
  double *c = malloc(sizeof *c * (nc > 0 ? nc : 1));
  int32_t *el = malloc(sizeof *el * (ne > 0 ? ne : 1));
  if (c == NULL || el == NULL) {
    free(c);
    free(el);
    return core_error(MINEX_ENOMEM,
                      "minex_mesh_create: out of memory for "
                      "%d nodes, %d elements",
                      (int)nnodes, (int)nelems);
  }
  if (nc > 0)
    memcpy(c, coords, sizeof *c * nc);
  if (ne > 0)
    memcpy(el, elems, sizeof *el * ne);
  return mesh_adopt(nnodes, c, nelems, type, el, out);
}

void minex_mesh_destroy(minex_mesh *mesh) {
  if (mesh == NULL)
    return;
  free(mesh->coords);
  free(mesh->elems);
  free(mesh);
}

int32_t minex_mesh_nnodes(const minex_mesh *mesh) {
  return mesh ? mesh->nnodes : 0;
}

int32_t minex_mesh_nelems(const minex_mesh *mesh) {
  return mesh ? mesh->nelems : 0;
}

minex_elem_type minex_mesh_elem_type(const minex_mesh *mesh) {
  return mesh ? mesh->type : MINEX_ELEM_TETRA;
}

const double *minex_mesh_coords(const minex_mesh *mesh) {
  return mesh ? mesh->coords : NULL;
}

const int32_t *minex_mesh_elems(const minex_mesh *mesh) {
  return mesh ? mesh->elems : NULL;
}

/* An out-of-range elem gives the origin rather than reading past the
 * arrays: the prototype returns void, so it cannot report the error. */
void minex_mesh_centroid(const minex_mesh *mesh, int32_t elem, double xyz[3]) {
  xyz[0] = xyz[1] = xyz[2] = 0.0;
  if (mesh == NULL || elem < 0 || elem >= mesh->nelems)
    return;
  int k = (int)mesh->type;
  const int32_t *en = mesh->elems + (int64_t)elem * k;
  for (int i = 0; i < k; i++)
    for (int d = 0; d < 3; d++)
      xyz[d] += mesh->coords[3 * (int64_t)en[i] + d];
  for (int d = 0; d < 3; d++)
    xyz[d] /= k;
}

int mesh_choose_kind(const char *path, int kind, const mesh_kinds *k,
                     minex_elem_type *use) {
  if (kind == MINEX_ELEM_TETRA || kind == MINEX_ELEM_TRIANGLE) {
    int64_t have = kind == MINEX_ELEM_TETRA ? k->tets : k->tris;
    if (have == 0)
      return core_error(MINEX_EPARSE, "%s: no %s (the kind selected)", path,
                        kind == MINEX_ELEM_TETRA ? "tetrahedra" : "triangles");
    *use = (minex_elem_type)kind;
    return MINEX_OK;
  }
  if (k->tets > 0 && k->other3d > 0)
    return core_error(MINEX_EUNSUP,
                      "%s: %lld tetrahedra and %lld other "
                      "volume elements (hexahedra, prisms, pyramids or "
                      "higher-order tetrahedra): only one element kind is "
                      "read; select the tetrahedra explicitly to drop the "
                      "others",
                      path, (long long)k->tets, (long long)k->other3d);
  if (k->tets == 0 && k->other3d > 0)
    return core_error(MINEX_EUNSUP,
                      "%s: %lld volume elements, none of them "
                      "a tetrahedron: only tetrahedra and triangles are read "
                      "(select the %lld triangles explicitly to read the "
                      "surface)",
                      path, (long long)k->other3d, (long long)k->tris);
  if (k->tets == 0 && k->tris > 0 && k->other2d > 0)
    return core_error(MINEX_EUNSUP,
                      "%s: %lld triangles and %lld other "
                      "surface elements (quadrilaterals or higher-order "
                      "triangles): only one element kind is read; select "
                      "the triangles explicitly to drop the others",
                      path, (long long)k->tris, (long long)k->other2d);
  *use = k->tets > 0 ? MINEX_ELEM_TETRA : MINEX_ELEM_TRIANGLE;
  return MINEX_OK;
}

int minex_mesh_read(const char *path, minex_mesh **out) {
  return minex_mesh_read_kind(path, 0, out);
}

/* First keyword of the file, after blanks and '#' comment lines; binary
 * content is reported as such. */
int minex_mesh_read_kind(const char *path, int kind, minex_mesh **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_read: out is NULL");
  *out = NULL;
  if (path == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_read: path is NULL");
  if (kind != 0 && kind != MINEX_ELEM_TETRA && kind != MINEX_ELEM_TRIANGLE)
    return core_error(MINEX_EINVAL,
                      "minex_mesh_read_kind: kind = %d (must "
                      "be 0, MINEX_ELEM_TETRA or MINEX_ELEM_TRIANGLE)",
                      kind);
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return core_error(MINEX_EIO, "%s: cannot open: %s", path, strerror(errno));
  char buf[4096];
  size_t n = fread(buf, 1, sizeof buf - 1, fp);
  int bad = ferror(fp);
  fclose(fp);
  if (bad)
    return core_error(MINEX_EIO, "%s: read error", path);
  buf[n] = '\0';
  size_t i = 0;
  for (;;) {
    while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' ||
                     buf[i] == '\n'))
      i++;
    if (i < n && buf[i] == '#') {
      while (i < n && buf[i] != '\n')
        i++;
      continue;
    }
    break;
  }
  const char *kw = buf + i;
  size_t len = strcspn(kw, " \t\r\n");
  if (len == strlen("MeshVersionFormatted") &&
      strncmp(kw, "MeshVersionFormatted", len) == 0)
    return mesh_read_medit(path, kind, out);
  if (len == strlen("$MeshFormat") && strncmp(kw, "$MeshFormat", len) == 0)
    return mesh_read_gmsh(path, kind, out);
  if (len == strlen("$NOD") && strncmp(kw, "$NOD", len) == 0)
    return core_error(MINEX_EUNSUP,
                      "%s:1: Gmsh version 1 file: re-save "
                      "as ASCII version 2 or 4",
                      path);
  if (memchr(buf, '\0', n) != NULL)
    return core_error(MINEX_EUNSUP,
                      "%s: binary content (MEDIT .meshb?): "
                      "only ASCII MEDIT and Gmsh files are read",
                      path);
  if (i >= n)
    return core_error(MINEX_EPARSE, "%s: empty file", path);
  return core_error(MINEX_EUNSUP,
                    "%s: unrecognised mesh format (first "
                    "word '%.*s'): expected MEDIT 'MeshVersionFormatted' or "
                    "Gmsh '$MeshFormat'",
                    path, (int)(len > 40 ? 40 : len), kw);
}
