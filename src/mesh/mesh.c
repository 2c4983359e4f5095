/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The mesh object (SPEC §7 "Meshes"): creation with validation, accessors,
 * element centroids, the element lists the readers fill, and
 * minex_mesh_read, which picks the MEDIT, Gmsh or VTK reader from the
 * file's first keyword. */
#include "mesh/mesh.h"

#include "core/core.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int minex_elem_nnodes(minex_elem_type type) {
  switch (type) {
  case MINEX_ELEM_TRIANGLE:
    return 3;
  case MINEX_ELEM_TETRA:
  case MINEX_ELEM_QUAD:
    return 4;
  case MINEX_ELEM_HEXA:
    return 8;
  case MINEX_ELEM_PRISM:
    return 6;
  case MINEX_ELEM_PYRAMID:
    return 5;
  default:
    return 0;
  }
}

int minex_elem_dim(minex_elem_type type) {
  switch (type) {
  case MINEX_ELEM_TRIANGLE:
  case MINEX_ELEM_QUAD:
    return 2;
  case MINEX_ELEM_TETRA:
  case MINEX_ELEM_HEXA:
  case MINEX_ELEM_PRISM:
  case MINEX_ELEM_PYRAMID:
    return 3;
  default:
    return 0;
  }
}

const char *minex_elem_name(minex_elem_type type) {
  switch (type) {
  case MINEX_ELEM_TRIANGLE:
    return "triangle";
  case MINEX_ELEM_TETRA:
    return "tetrahedron";
  case MINEX_ELEM_QUAD:
    return "quadrilateral";
  case MINEX_ELEM_HEXA:
    return "hexahedron";
  case MINEX_ELEM_PRISM:
    return "prism";
  case MINEX_ELEM_PYRAMID:
    return "pyramid";
  case MINEX_ELEM_MIXED:
    return "mixed";
  default:
    return "unknown";
  }
}

/* Faces by kind. Tetrahedra and triangles list the face (edge) opposite
 * local node f as face f. */
const mesh_faces *mesh_kind_faces(minex_elem_type kind) {
  static const mesh_faces tri = {3, {2, 2, 2}, {{1, 2}, {0, 2}, {0, 1}}};
  static const mesh_faces quad = {
      4, {2, 2, 2, 2}, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}};
  static const mesh_faces tet = {
      4, {3, 3, 3, 3}, {{1, 2, 3}, {0, 2, 3}, {0, 1, 3}, {0, 1, 2}}};
  static const mesh_faces hex = {6,
                                 {4, 4, 4, 4, 4, 4},
                                 {{0, 1, 2, 3},
                                  {4, 5, 6, 7},
                                  {0, 1, 5, 4},
                                  {1, 2, 6, 5},
                                  {2, 3, 7, 6},
                                  {3, 0, 4, 7}}};
  static const mesh_faces prism = {
      5,
      {3, 3, 4, 4, 4},
      {{0, 1, 2}, {3, 4, 5}, {0, 1, 4, 3}, {1, 2, 5, 4}, {2, 0, 3, 5}}};
  static const mesh_faces pyr = {
      5,
      {4, 3, 3, 3, 3},
      {{0, 1, 2, 3}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}};
  switch (kind) {
  case MINEX_ELEM_TRIANGLE:
    return &tri;
  case MINEX_ELEM_QUAD:
    return &quad;
  case MINEX_ELEM_TETRA:
    return &tet;
  case MINEX_ELEM_HEXA:
    return &hex;
  case MINEX_ELEM_PRISM:
    return &prism;
  case MINEX_ELEM_PYRAMID:
    return &pyr;
  default:
    return NULL;
  }
}

int mesh_check(const minex_mesh *mesh) {
  if (mesh == NULL)
    return core_error(MINEX_EINVAL, "mesh is NULL");
  if (mesh->nnodes < 0 || mesh->nelems < 0)
    return core_error(MINEX_EINVAL,
                      "mesh: %d nodes, %d elements: counts "
                      "must be >= 0",
                      (int)mesh->nnodes, (int)mesh->nelems);
  if (mesh->type == MINEX_ELEM_MIXED
          ? (mesh->kinds == NULL || mesh->eptr == NULL)
          : minex_elem_nnodes(mesh->type) == 0)
    return core_error(MINEX_EINVAL,
                      "mesh: element type %d is not a kind "
                      "(triangle 3, tetrahedron 4, quadrilateral 9, "
                      "hexahedron 12, prism 13, pyramid 14)",
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
  int dim0 = mesh->nelems > 0 ? minex_elem_dim(mesh_kind(mesh, 0)) : 0;
  /* dimension and corners of every kind value, looked up once (kinds are
     bytes in a mixed mesh) */
  int8_t kdim[256], knn[256];
  for (int t = 0; t < 256; t++) {
    kdim[t] = (int8_t)minex_elem_dim((minex_elem_type)t);
    knn[t] = (int8_t)minex_elem_nnodes((minex_elem_type)t);
  }
  for (int32_t e = 0; e < mesh->nelems; e++) {
    minex_elem_type t = mesh_kind(mesh, e);
    int k, dim = (unsigned)t < 256 ? kdim[t] : minex_elem_dim(t);
    if (dim == 0)
      return core_error(MINEX_EINVAL, "mesh: element %d: unknown kind %d",
                        (int)e, (int)t);
    if (dim != dim0)
      return core_error(MINEX_EINVAL,
                        "mesh: element %d is a %s, element 0 "
                        "a %s: one dimension per mesh",
                        (int)e, minex_elem_name(t),
                        minex_elem_name(mesh_kind(mesh, 0)));
    const int32_t *en = mesh_elem(mesh, e, &k);
    if (k != ((unsigned)t < 256 ? knn[t] : minex_elem_nnodes(t)))
      return core_error(MINEX_EINVAL, "mesh: element %d: %d nodes for a %s",
                        (int)e, k, minex_elem_name(t));
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
  *m = (minex_mesh){nnodes, coords, nelems, type, elems, NULL,
                    NULL,   0,      NULL,   NULL, 0};
  int rc = mesh_check(m);
  if (rc != MINEX_OK) {
    minex_mesh_destroy(m);
    return rc;
  }
  *out = m;
  return MINEX_OK;
}

int mesh_adopt_mixed(const mesh_mixed *a, minex_mesh **out) {
  *out = NULL;
  minex_mesh *m = malloc(sizeof *m);
  if (m == NULL) {
    free(a->coords);
    free(a->elems);
    free(a->kinds);
    free(a->fpart);
    free(a->fid);
    return core_error(MINEX_ENOMEM, "mesh: out of memory");
  }
  int32_t nelems = a->nelems;
  uint8_t *kinds = a->kinds;
  *m = (minex_mesh){.nnodes = a->nnodes,
                    .coords = a->coords,
                    .nelems = nelems,
                    .type = MINEX_ELEM_MIXED,
                    .elems = a->elems,
                    .kinds = kinds,
                    .ignored = a->ignored,
                    .fpart = a->fpart,
                    .fid = a->fid,
                    .fid_base = a->fid_base};
  int32_t e = 1;
  while (e < nelems && kinds[e] == kinds[0])
    e++;
  if (e >= nelems) { /* one kind (or none): no per-element arrays */
    m->type = nelems > 0 ? (minex_elem_type)kinds[0] : MINEX_ELEM_TETRA;
    free(kinds);
    m->kinds = NULL;
  } else {
    m->eptr = malloc(sizeof *m->eptr * ((size_t)nelems + 1));
    if (m->eptr == NULL) {
      minex_mesh_destroy(m);
      return core_error(MINEX_ENOMEM, "mesh: out of memory");
    }
    m->eptr[0] = 0;
    for (e = 0; e < nelems; e++) {
      int k = minex_elem_nnodes((minex_elem_type)kinds[e]);
      if (k == 0) {
        minex_mesh_destroy(m);
        return core_error(MINEX_EINVAL, "mesh: element %d: unknown kind %d",
                          (int)e, (int)kinds[e]);
      }
      m->eptr[e + 1] = m->eptr[e] + k;
    }
  }
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
  minex_mesh tmp = {nnodes,
                    (double *)coords,
                    nelems,
                    type,
                    (int32_t *)elems,
                    NULL,
                    NULL,
                    0,
                    NULL,
                    NULL,
                    0};
  int rc = mesh_check(&tmp);
  if (rc != MINEX_OK)
    return rc;
  size_t nc = 3 * (size_t)nnodes,
         ne = (size_t)minex_elem_nnodes(type) * (size_t)nelems;
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

int minex_mesh_create_mixed(int32_t nnodes, const double *coords,
                            int32_t nelems, const minex_elem_type *types,
                            const int32_t *elems, minex_mesh **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_create_mixed: out is NULL");
  *out = NULL;
  if (nnodes < 0 || nelems < 0 || (nnodes > 0 && coords == NULL) ||
      (nelems > 0 && (types == NULL || elems == NULL)))
    return core_error(MINEX_EINVAL, "minex_mesh_create_mixed: a count < 0 "
                                    "or a NULL array");
  size_t ne = 0;
  for (int32_t e = 0; e < nelems; e++) {
    int k = minex_elem_nnodes(types[e]);
    if (k == 0)
      return core_error(MINEX_EINVAL,
                        "minex_mesh_create_mixed: element %d: "
                        "unknown kind %d",
                        (int)e, (int)types[e]);
    ne += (size_t)k;
  }
  size_t nc = 3 * (size_t)nnodes;
  double *c = malloc(sizeof *c * (nc > 0 ? nc : 1));
  int32_t *el = malloc(sizeof *el * (ne > 0 ? ne : 1));
  uint8_t *kinds = malloc((size_t)nelems + 1);
  if (c == NULL || el == NULL || kinds == NULL) {
    free(c);
    free(el);
    free(kinds);
    return core_error(MINEX_ENOMEM, "minex_mesh_create_mixed: out of memory");
  }
  if (nc > 0)
    memcpy(c, coords, sizeof *c * nc);
  if (ne > 0)
    memcpy(el, elems, sizeof *el * ne);
  for (int32_t e = 0; e < nelems; e++)
    kinds[e] = (uint8_t)types[e];
  mesh_mixed a = {nnodes, c, nelems, kinds, el, 0, NULL, NULL, 0};
  return mesh_adopt_mixed(&a, out);
}

void minex_mesh_destroy(minex_mesh *mesh) {
  if (mesh == NULL)
    return;
  free(mesh->coords);
  free(mesh->elems);
  free(mesh->kinds);
  free(mesh->eptr);
  free(mesh->fpart);
  free(mesh->fid);
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

minex_elem_type minex_mesh_elem_kind(const minex_mesh *mesh, int32_t elem) {
  if (mesh == NULL || elem < 0 || elem >= mesh->nelems)
    return MINEX_ELEM_MIXED;
  return mesh_kind(mesh, elem);
}

const int32_t *minex_mesh_elem_nodes(const minex_mesh *mesh, int32_t elem,
                                     int *nnodes) {
  int k = 0;
  const int32_t *en = NULL;
  if (mesh != NULL && elem >= 0 && elem < mesh->nelems)
    en = mesh_elem(mesh, elem, &k);
  if (nnodes != NULL)
    *nnodes = k;
  return en;
}

int64_t minex_mesh_ignored(const minex_mesh *mesh) {
  return mesh ? mesh->ignored : 0;
}

const int32_t *minex_mesh_file_partition(const minex_mesh *mesh) {
  return mesh ? mesh->fpart : NULL;
}

/* An out-of-range elem gives the origin rather than reading past the
 * arrays: the prototype returns void, so it cannot report the error. */
void minex_mesh_centroid(const minex_mesh *mesh, int32_t elem, double xyz[3]) {
  xyz[0] = xyz[1] = xyz[2] = 0.0;
  if (mesh == NULL || elem < 0 || elem >= mesh->nelems)
    return;
  int k;
  const int32_t *en = mesh_elem(mesh, elem, &k);
  for (int i = 0; i < k; i++)
    for (int d = 0; d < 3; d++)
      xyz[d] += mesh->coords[3 * (int64_t)en[i] + d];
  for (int d = 0; d < 3; d++)
    xyz[d] /= k;
}

static int list_add(mesh_list *l, minex_elem_type kind, const int32_t *nodes,
                    int32_t part, int64_t fid) {
  int k = minex_elem_nnodes(kind);
  int rc =
      mesh_reserve((void **)&l->kinds, &l->cap_k, l->count + 1, INT64_MAX, 1);
  if (rc == MINEX_OK)
    rc = mesh_reserve((void **)&l->nodes, &l->cap_n, l->nnodes + k, INT64_MAX,
                      sizeof(int32_t));
  if (rc == MINEX_OK && part >= 0)
    rc = mesh_reserve((void **)&l->part, &l->cap_p, l->count + 1, INT64_MAX,
                      sizeof(int32_t));
  if (rc == MINEX_OK)
    rc = mesh_reserve((void **)&l->fid, &l->cap_f, l->count + 1, INT64_MAX,
                      sizeof(int64_t));
  if (rc != MINEX_OK)
    return rc;
  l->fid[l->count] = fid;
  l->kinds[l->count] = (uint8_t)kind;
  if (part >= 0)
    l->part[l->count] = part;
  l->count++;
  memcpy(l->nodes + l->nnodes, nodes, sizeof(int32_t) * (size_t)k);
  l->nnodes += k;
  return MINEX_OK;
}

int mesh_list_add(mesh_lists *l, minex_elem_type kind, const int32_t *nodes,
                  int32_t part) {
  return mesh_list_add_id(l, kind, nodes, part,
                          l->vol.count + l->surf.count + l->lower);
}

int mesh_list_add_id(mesh_lists *l, minex_elem_type kind, const int32_t *nodes,
                     int32_t part, int64_t fid) {
  if (l->vol.count + l->surf.count == 0)
    l->has_part = part >= 0;
  else if (part < 0)
    l->has_part = 0;
  return list_add(minex_elem_dim(kind) == 3 ? &l->vol : &l->surf, kind, nodes,
                  l->has_part ? part : -1, fid);
}

void mesh_list_free(mesh_lists *l) {
  mesh_list *ls[2] = {&l->vol, &l->surf};
  for (int i = 0; i < 2; i++) {
    free(ls[i]->kinds);
    free(ls[i]->nodes);
    free(ls[i]->part);
    free(ls[i]->fid);
    *ls[i] = (mesh_list){0};
  }
}

int mesh_list_finish(const char *path, mesh_lists *l, int kind, int32_t nnodes,
                     double *coords, minex_mesh **out) {
  *out = NULL;
  mesh_list *use = l->vol.count > 0 ? &l->vol : &l->surf;
  if (kind != 0)
    use = minex_elem_dim((minex_elem_type)kind) == 3 ? &l->vol : &l->surf;
  int64_t ignored = l->lower + (use == &l->vol ? l->surf.count : l->vol.count);
  int rc = MINEX_OK;
  if (kind != 0) { /* keep one kind: compact in place */
    int k = minex_elem_nnodes((minex_elem_type)kind);
    int64_t n = 0, src = 0;
    for (int64_t e = 0; e < use->count; e++) {
      int ke = minex_elem_nnodes((minex_elem_type)use->kinds[e]);
      if (use->kinds[e] == kind) {
        memmove(use->nodes + n * k, use->nodes + src,
                sizeof(int32_t) * (size_t)k);
        use->kinds[n] = use->kinds[e];
        if (l->has_part)
          use->part[n] = use->part[e];
        use->fid[n] = use->fid[e];
        n++;
      } else {
        ignored++;
      }
      src += ke;
    }
    use->count = n;
    if (n == 0)
      rc = core_error(MINEX_EPARSE, "%s: no %s (the kind selected)", path,
                      minex_elem_name((minex_elem_type)kind));
  } else if (use->count == 0) {
    rc = core_error(MINEX_EPARSE,
                    "%s: no elements (tetrahedra, hexahedra, "
                    "prisms, pyramids, triangles or quadrilaterals)",
                    path);
  }
  if (rc == MINEX_OK && use->count > INT32_MAX)
    rc = core_error(MINEX_EPARSE, "%s: more than 2^31 elements", path);
  /* binary coordinates can hold inf or NaN bit patterns */
  for (int64_t i = 0; rc == MINEX_OK && i < 3 * (int64_t)nnodes; i++)
    if (!isfinite(coords[i]))
      rc = core_error(MINEX_EPARSE,
                      "%s: node %lld (0-based, file order) has a "
                      "non-finite coordinate",
                      path, (long long)(i / 3));
  if (rc != MINEX_OK) {
    free(coords);
    mesh_list_free(l);
    return rc;
  }
  uint8_t *kinds = use->kinds;
  int32_t *nodes = use->nodes, *part = l->has_part ? use->part : NULL;
  int32_t ne = (int32_t)use->count;
  use->kinds = NULL, use->nodes = NULL;
  if (part != NULL)
    use->part = NULL;
  /* file ids in a run (the common case) are kept as their first one */
  int64_t *fid = use->fid, fid_base = ne > 0 ? fid[0] : 0;
  int32_t e = 0;
  while (e < ne && fid[e] == fid_base + e)
    e++;
  if (e < ne)
    use->fid = NULL;
  else
    fid = NULL;
  mesh_list_free(l);
  mesh_mixed a = {nnodes,  coords, ne,  kinds,   nodes,
                  ignored, part,   fid, fid_base};
  rc = mesh_adopt_mixed(&a, out);
  if (rc != MINEX_OK)
    core_error_prefix("%s", path);
  return rc;
}

int mesh_load_file(const char *path, char **buf, size_t *len) {
  *buf = NULL;
  *len = 0;
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return core_error(MINEX_EIO, "%s: cannot open: %s", path, strerror(errno));
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap);
  int rc = MINEX_OK;
  while (b != NULL) {
    n += fread(b + n, 1, cap - 1 - n, fp);
    if (n < cap - 1)
      break;
    char *nb = realloc(b, cap * 2);
    if (nb == NULL) {
      free(b);
      b = NULL;
      break;
    }
    b = nb;
    cap *= 2;
  }
  if (b == NULL)
    rc = core_error(MINEX_ENOMEM, "%s: out of memory reading the file", path);
  else if (ferror(fp))
    rc = core_error(MINEX_EIO, "%s: read error", path);
  fclose(fp);
  if (rc != MINEX_OK) {
    free(b);
    return rc;
  }
  b[n] = '\0';
  *buf = b;
  *len = n;
  return MINEX_OK;
}

int minex_mesh_read(const char *path, minex_mesh **out) {
  return minex_mesh_read_kind(path, 0, out);
}

/* "# vtk" on the first line is VTK legacy; otherwise the first keyword of
 * the file, after blanks and '#' comment lines; other binary content is
 * reported as such. */
int minex_mesh_read_kind(const char *path, int kind, minex_mesh **out) {
  core_error_clear();
  if (out == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_read: out is NULL");
  *out = NULL;
  if (path == NULL)
    return core_error(MINEX_EINVAL, "minex_mesh_read: path is NULL");
  if (kind != 0 && minex_elem_nnodes((minex_elem_type)kind) == 0)
    return core_error(MINEX_EINVAL,
                      "minex_mesh_read_kind: kind = %d (must "
                      "be 0 or an element kind: 3, 4, 9, 12, 13, 14)",
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
  if (n >= 5 && strncmp(buf, "# vtk", 5) == 0)
    return mesh_read_vtk(path, kind, out);
  /* MEDIT .meshb: the int 1 in either byte order, then version 1 to 4 */
  static const unsigned char le1[4] = {1, 0, 0, 0}, be1[4] = {0, 0, 0, 1};
  if (n >= 8 && (memcmp(buf, le1, 4) == 0 || memcmp(buf, be1, 4) == 0))
    return mesh_read_meshb(path, kind, out);
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
  if (strncmp(kw, "<?xml", 5) == 0 || strncmp(kw, "<VTKFile", 8) == 0)
    return mesh_read_vtu(path, kind, out);
  if (len == strlen("$NOD") && strncmp(kw, "$NOD", len) == 0)
    return core_error(MINEX_EUNSUP,
                      "%s:1: Gmsh version 1 file: re-save "
                      "as ASCII version 2 or 4",
                      path);
  if (memchr(buf, '\0', n) != NULL)
    return core_error(MINEX_EUNSUP,
                      "%s: binary content of no known mesh format "
                      "(Gmsh, MEDIT .meshb, VTK)",
                      path);
  if (i >= n)
    return core_error(MINEX_EPARSE, "%s: empty file", path);
  return core_error(MINEX_EUNSUP,
                    "%s: unrecognised mesh format (first "
                    "word '%.*s'): expected MEDIT 'MeshVersionFormatted', "
                    "Gmsh '$MeshFormat', VTK '# vtk' or '<VTKFile'",
                    path, (int)(len > 40 ? 40 : len), kw);
}

int mesh_bin_need(const char *path, size_t pos, size_t len, uint64_t n,
                  uint64_t size, const char *what) {
  if (size != 0 && n > (len - pos) / size)
    return core_error(MINEX_EPARSE,
                      "%s: offset %llu: %s: %llu records of %llu bytes "
                      "exceed the %llu bytes left (truncated file or bad "
                      "count)",
                      path, (unsigned long long)pos, what,
                      (unsigned long long)n, (unsigned long long)size,
                      (unsigned long long)(len - pos));
  return MINEX_OK;
}
