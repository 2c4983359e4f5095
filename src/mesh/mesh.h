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
  minex_elem_type type; /* kind of every element, or MINEX_ELEM_MIXED      */
  int32_t *elems;       /* corner node ids in [0, nnodes), element after
                           element, distinct within an element             */
  uint8_t *kinds;       /* nelems kinds (minex_elem_type) when MIXED, else
                           NULL                                            */
  int64_t *eptr;        /* nelems+1 offsets into elems when MIXED, else
                           NULL (element e at e*minex_elem_nnodes(type))  */
  int64_t ignored;      /* elements of the file the reader ignored         */
  int32_t *fpart;       /* partition stored in the file, or NULL           */
  int64_t *fid;         /* each element's id in the file (Gmsh: its tag;
                           VTK: its cell index; MEDIT: its rank among the
                           file's elements), or NULL: fid_base + e      */
  int64_t fid_base;
};

/* File id of element e (see fid). */
static inline int64_t mesh_fid(const minex_mesh *m, int32_t e) {
  return m->fid != NULL ? m->fid[e] : m->fid_base + e;
}

/* Corner nodes of element e and their count in *k. */
static inline const int32_t *mesh_elem(const minex_mesh *m, int32_t e, int *k) {
  if (m->eptr != NULL) {
    *k = (int)(m->eptr[e + 1] - m->eptr[e]);
    return m->elems + m->eptr[e];
  }
  *k = minex_elem_nnodes(m->type);
  return m->elems + (int64_t)e * *k;
}

/* The mesh keeps corners in VTK's order (minex.h), where a prism's
 * triangle 0-2 has its normal (right-hand rule) pointing away from
 * triangle 3-5. Gmsh's and MEDIT's prisms, and VTK's Lagrange wedges,
 * have it pointing towards 3-5: their readers swap corners 1, 2 and 4, 5,
 * which reverses both triangles and keeps the same faces. */
static inline void mesh_prism_to_vtk(int32_t *en) {
  int32_t t = en[1];
  en[1] = en[2];
  en[2] = t;
  t = en[4];
  en[4] = en[5];
  en[5] = t;
}

/* Kind of element e. */
static inline minex_elem_type mesh_kind(const minex_mesh *m, int32_t e) {
  return m->kinds != NULL ? (minex_elem_type)m->kinds[e] : m->type;
}

/* Checks the invariants above: counts >= 0, known kinds of one dimension,
 * finite coordinates, node ids in range and distinct within each element.
 * MINEX_OK or MINEX_EINVAL with a message naming the node or element. */
int mesh_check(const minex_mesh *mesh);

/* Makes a mesh that owns coords and elems (malloc'ed by the caller) after
 * mesh_check. On any failure both arrays are freed and *out is NULL. */
int mesh_adopt(int32_t nnodes, double *coords, int32_t nelems,
               minex_elem_type type, int32_t *elems, minex_mesh **out);
/* The arrays mesh_adopt_mixed takes over (malloc'ed by the caller). */
typedef struct mesh_mixed {
  int32_t nnodes;  /* number of nodes                                   */
  double *coords;  /* 3*nnodes coordinates                              */
  int32_t nelems;  /* number of elements                                */
  uint8_t *kinds;  /* nelems kinds (minex_elem_type)                    */
  int32_t *elems;  /* corner node ids, element after element            */
  int64_t ignored; /* elements of the file the reader ignored           */
  int32_t *fpart;  /* nelems file partitions, or NULL                   */
  int64_t *fid;    /* nelems file ids, or NULL (then fid_base + e)      */
  int64_t fid_base;
} mesh_mixed;
/* The same for elements of the kinds in a->kinds (owned too; one kind
 * throughout makes a single-kind mesh). ignored and fpart are stored as
 * they are. */
int mesh_adopt_mixed(const mesh_mixed *a, minex_mesh **out);

/* Grows *arr (records of size bytes, *cap allocated) to hold need
 * records, doubling but never beyond limit (>= need): readers grow as the
 * data arrives, so a corrupt count in a header gives MINEX_EPARSE at the
 * end of the data, not a huge allocation. MINEX_OK or MINEX_ENOMEM. */
int mesh_reserve(void **arr, int64_t *cap, int64_t need, int64_t limit,
                 size_t size);

/* Elements of a file as they are read: kinds and corner nodes of the
 * volume and of the surface elements apart, so that the reader keeps the
 * highest dimension (mesh_list_finish). */
typedef struct mesh_list {
  uint8_t *kinds; /* count kinds                                     */
  int32_t *nodes; /* corner node ids, element after element          */
  int32_t *part;  /* count file partitions (when has_part)           */
  int64_t *fid;   /* count file ids (mesh_list_add_id)                */
  int64_t count;  /* elements                                        */
  int64_t nnodes; /* node ids held                                   */
  int64_t cap_k, cap_n, cap_p, cap_f;
} mesh_list;

typedef struct mesh_lists {
  mesh_list vol, surf; /* 3D and 2D elements                           */
  int64_t lower;       /* lines and points (ignored)                   */
  int has_part;        /* a partition was read for every element       */
} mesh_lists;

/* Appends an element of kind kind with its corners (node ids checked by
 * the caller) and its file partition part (-1: none; kept only when every
 * element of the list has one). MINEX_OK or MINEX_ENOMEM. */
int mesh_list_add(mesh_lists *l, minex_elem_type kind, const int32_t *nodes,
                  int32_t part);
/* The same with the element's file id fid (mesh_list_add's is the
 * element's rank among those of the file: lists' elements and lower ones
 * counted before it). */
int mesh_list_add_id(mesh_lists *l, minex_elem_type kind, const int32_t *nodes,
                     int32_t part, int64_t fid);
/* Builds the mesh of lists: the volume elements when there are any, else
 * the surface ones; with kind != 0 only the elements of that kind. The
 * rest count as ignored. Frees the lists' arrays and coords in every case
 * (coords adopted on success). MINEX_EPARSE "path: no elements" when none
 * is left. */
int mesh_list_finish(const char *path, mesh_lists *l, int kind, int32_t nnodes,
                     double *coords, minex_mesh **out);
void mesh_list_free(mesh_lists *l);

/* Reads the whole file into *buf (malloc'ed, NUL-terminated, *len bytes
 * before the NUL). MINEX_OK, MINEX_EIO or MINEX_ENOMEM. */
int mesh_load_file(const char *path, char **buf, size_t *len);

/* Readers behind minex_mesh_read (kind as in mesh_list_finish). Errors
 * are MINEX_EPARSE / MINEX_EUNSUP / MINEX_EIO with "path:line: what"
 * (binary files: "path: offset N: what"). */
int mesh_read_medit(const char *path, int kind, minex_mesh **out);
int mesh_read_meshb(const char *path, int kind, minex_mesh **out);
int mesh_read_gmsh(const char *path, int kind, minex_mesh **out);
int mesh_read_vtk(const char *path, int kind, minex_mesh **out);

/* VTK cell types (shared by the legacy and the XML reader): the kind of
 * type t, 0 with *lower = 1 for vertices and lines, -1 for a type that is
 * not read. */
int mesh_vtk_cell_kind(int64_t t, int *lower);
/* VTK cells as a reader holds them: cell i has nodes conn[offs[i] ..
 * offs[i+1]), type types[i] and partition part[i]. */
typedef struct mesh_vtk_cellset {
  int64_t npts;         /* points the node ids index: [0, npts)    */
  int64_t ncells;       /* cells                                   */
  const int64_t *offs;  /* ncells + 1 offsets into conn            */
  const int64_t *conn;  /* nconn point ids                         */
  int64_t nconn;        /* point ids in all                        */
  const int64_t *types; /* ncells VTK cell types                   */
  const int64_t *part;  /* ncells file partitions, or NULL         */
} mesh_vtk_cellset;
/* Adds the cells of cs to lists; line names the cell types for
 * messages. */
int mesh_vtk_cells(const char *path, int64_t line, const mesh_vtk_cellset *cs,
                   mesh_lists *lists);
int mesh_read_vtu(const char *path, int kind, minex_mesh **out);
/* The cell array name of a VTK legacy / XML file: *n values (one per
 * cell, malloc'ed in *vals). MINEX_EPARSE when it is missing or has more
 * than one component; the readers' codes otherwise. */
int mesh_read_vtk_field(const char *path, const char *name, double **vals,
                        int64_t *n);
int mesh_read_vtu_field(const char *path, const char *name, double **vals,
                        int64_t *n);

/* Local faces (3D) or edges (2D) of a kind: count, then per face its size
 * and local corner ids. */
typedef struct mesh_faces {
  int nfaces;
  int size[6];
  int node[6][4];
} mesh_faces;
const mesh_faces *mesh_kind_faces(minex_elem_type kind);

/* Binary readers: MINEX_OK when n records of size bytes fit in the len -
 * pos bytes left of the file at path, else MINEX_EPARSE naming the offset
 * and what was being read (a count is checked before anything is
 * allocated for it). */
int mesh_bin_need(const char *path, size_t pos, size_t len, uint64_t n,
                  uint64_t size, const char *what);

#endif
