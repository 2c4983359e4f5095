/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Internal layout of the mesh object and the entry points shared by the
 * files of src/mesh: the MEDIT and Gmsh readers behind minex_mesh_read, and
 * the constructor that adopts arrays without copying them (1e7 elements). */
#ifndef MINEX_MESH_H
#define MINEX_MESH_H

#include "core/rename.h"

#include "minex.h"

struct minex_mesh {
  int32_t nnodes;       /* number of nodes                                 */
  double *coords;       /* 3*nnodes coordinates x y z (z = 0 in 2D)        */
  int32_t nelems;       /* number of elements                              */
  minex_elem_type type; /* nodes per element: 3 triangle, 4 tetrahedron    */
  int32_t *elems;       /* type*nelems node ids in [0, nnodes), distinct
                           within an element                               */
};

/* Checks the invariants above: counts >= 0, known type, finite
 * coordinates, node ids in range and distinct within each element.
 * MINEX_OK or MINEX_EINVAL with a message naming the node or element. */
int mesh_check(const minex_mesh *mesh);

/* Makes a mesh that owns coords and elems (malloc'ed by the caller) after
 * mesh_check. On any failure both arrays are freed and *out is NULL. */
int mesh_adopt(int32_t nnodes, double *coords, int32_t nelems,
               minex_elem_type type, int32_t *elems, minex_mesh **out);

/* Grows *arr (records of size bytes, *cap allocated) to hold need
 * records, doubling but never beyond limit (>= need): readers grow as the
 * data arrives, so a corrupt count in a header gives MINEX_EPARSE at the
 * end of the data, not a huge allocation. MINEX_OK or MINEX_ENOMEM. */
int mesh_reserve(void **arr, int64_t *cap, int64_t need, int64_t limit,
                 size_t size);

/* Element counts of a mesh file, by kind, for mesh_choose_kind. */
typedef struct mesh_kinds {
  int64_t tets;    /* tetrahedra (linear or quadratic: corners kept)      */
  int64_t tris;    /* triangles (linear or quadratic: corners kept)       */
  int64_t other3d; /* other volume elements: hexahedra, prisms, pyramids,
                      higher-order tetrahedra                             */
  int64_t other2d; /* other surface elements: quadrilaterals, ...         */
} mesh_kinds;

/* The kind to build the mesh of: kind (MINEX_ELEM_TETRA or _TRIANGLE) when
 * the caller selected one, else tetrahedra when present, else triangles.
 * Without a selection, a file whose elements of the chosen dimension are
 * not all of that kind (or that has volume elements of another kind only)
 * is refused with MINEX_EUNSUP naming the counts: elements are never
 * dropped silently. */
int mesh_choose_kind(const char *path, int kind, const mesh_kinds *k,
                     minex_elem_type *use);

/* MEDIT .mesh reader (medit.c) and Gmsh .msh reader (gmsh.c); kind as in
 * mesh_choose_kind. Errors are MINEX_EPARSE / MINEX_EUNSUP / MINEX_EIO
 * with "path:line: what". */
int mesh_read_medit(const char *path, int kind, minex_mesh **out);
int mesh_read_gmsh(const char *path, int kind, minex_mesh **out);

#endif
