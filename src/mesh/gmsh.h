/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Gmsh reader's state and the helpers its ASCII part (gmsh.c) and its
 * binary part (gmsh_bin.c) share: node tags to indices, the element types,
 * the partitioned entities. */
#ifndef MINEX_MESH_GMSH_H
#define MINEX_MESH_GMSH_H

#include "core/rename.h"

#include "io/io_util.h"
#include "mesh/mesh.h"

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
  int has_elements;   /* an $Elements section was read                */
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
  int ulong;        /* binary 4.0: bytes of an unsigned long (4, 8) */
} gmsh_reader;

/* Kind value of points and lines (ignored, counted) in gmsh_type_of. */
#define G_LOWER 1

/* Builds the tag -> index map of the nnodes nodes read and rejects
 * duplicate tags (line: of $Nodes, for messages). */
int gmsh_build_map(gmsh_reader *g, int64_t line);
/* Index of node tag, or -1. */
int32_t gmsh_lookup(const gmsh_reader *g, int64_t tag);
/* Room for need nodes in tags and coords (see mesh_reserve). */
int gmsh_reserve_nodes(gmsh_reader *g, int64_t need, int64_t *cap_tags,
                       int64_t *cap_xyz, int64_t limit);
/* The kind (a minex_elem_type, or G_LOWER) and node count of Gmsh element
 * type t, or MINEX_EUNSUP naming it (at the reader's current line). */
int gmsh_type_of(gmsh_reader *g, int64_t t, int *kind, int *nn);
/* Partition of entity (dim, tag) of a partitioned file, or -1. */
int32_t gmsh_entity_part(const gmsh_reader *g, int64_t dim, int64_t tag);
/* The binary file after its $MeshFormat line (gmsh_bin.c). */
int gmsh_parse_binary(gmsh_reader *g);

#endif
