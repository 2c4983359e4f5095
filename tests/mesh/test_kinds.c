/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of every element kind and file variant: one mixed mesh
 * of hexahedra, prisms, tetrahedra and pyramids written by Gmsh (ASCII and
 * binary v2 and 4.1, second order, partitioned, MEDIT, VTK), by meshio
 * (MEDIT with prisms and pyramids, VTK 5.1, .vtu) and by VTK 9 (.vtu raw,
 * base64, zlib) reads as the same elements;
 * element ids follow the file's element order (checked with a parser of
 * the v2 file written here); duals equal an independent sort-based face
 * matching, ncommon duals a brute-force count of common corners; RCB and
 * RIB balance weights and targets; mesh -> partition -> VTK reads back;
 * every element kind read from every format is written to VTK with a
 * positive volume by VTK's corner convention. */
#include "test_util.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static minex_mesh *read_mesh(const char *name) {
  minex_mesh *m = NULL;
  int rc = minex_mesh_read(test_data_path(name), &m);
  ck_assert_msg(rc == MINEX_OK, "%s: %s", name, minex_last_error());
  return m;
}

/* ------------------------------------------- independent face matching */

/* Faces of each kind by local corner (written here from the VTK cell
 * pictures, not taken from the library). */
static int kind_faces(minex_elem_type t, int f[6][4], int size[6]) {
  static const int tet[4][3] = {{0, 1, 2}, {0, 1, 3}, {1, 2, 3}, {0, 2, 3}};
  static const int hex[6][4] = {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                {1, 2, 6, 5}, {3, 7, 6, 2}, {0, 4, 7, 3}};
  static const int pri[5][4] = {
      {0, 1, 2, -1}, {3, 4, 5, -1}, {0, 1, 4, 3}, {1, 2, 5, 4}, {0, 3, 5, 2}};
  static const int pyr[5][4] = {
      {0, 1, 2, 3}, {0, 1, 4, -1}, {1, 2, 4, -1}, {2, 3, 4, -1}, {0, 3, 4, -1}};
  int n = 0;
  switch (t) {
  case MINEX_ELEM_TETRA:
    for (n = 0; n < 4; n++) {
      size[n] = 3;
      for (int i = 0; i < 3; i++)
        f[n][i] = tet[n][i];
    }
    return 4;
  case MINEX_ELEM_HEXA:
    for (n = 0; n < 6; n++) {
      size[n] = 4;
      for (int i = 0; i < 4; i++)
        f[n][i] = hex[n][i];
    }
    return 6;
  case MINEX_ELEM_PRISM:
  case MINEX_ELEM_PYRAMID:
    for (n = 0; n < 5; n++) {
      const int *r = t == MINEX_ELEM_PRISM ? pri[n] : pyr[n];
      size[n] = r[3] < 0 ? 3 : 4;
      for (int i = 0; i < 4; i++)
        f[n][i] = r[i];
    }
    return 5;
  case MINEX_ELEM_TRIANGLE:
  case MINEX_ELEM_QUAD: {
    int k = t == MINEX_ELEM_QUAD ? 4 : 3;
    for (n = 0; n < k; n++) {
      size[n] = 2;
      f[n][0] = n;
      f[n][1] = (n + 1) % k;
    }
    return k;
  }
  default:
    ck_abort_msg("unexpected kind %d", (int)t);
    return 0;
  }
}

typedef struct face_rec {
  int32_t n[4]; /* sorted node ids, -1 padded at the end */
  int32_t elem;
} face_rec;

static int face_cmp(const void *a, const void *b) {
  const face_rec *x = a, *y = b;
  for (int i = 0; i < 4; i++)
    if (x->n[i] != y->n[i])
      return (x->n[i] > y->n[i]) - (x->n[i] < y->n[i]);
  return (x->elem > y->elem) - (x->elem < y->elem);
}

static int i32_cmp(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
  return (x > y) - (x < y);
}

/* The dual must hold exactly the pairs that share a face's node set, and
 * every face must be shared by at most two elements. Returns the number
 * of shared faces. */
static int64_t check_dual_by_faces(const minex_mesh *m, const minex_graph *g) {
  int32_t ne = minex_mesh_nelems(m);
  face_rec *fr = malloc(sizeof *fr * (size_t)ne * 6);
  int64_t nf = 0;
  for (int32_t e = 0; e < ne; e++) {
    int k, f[6][4], size[6];
    const int32_t *en = minex_mesh_elem_nodes(m, e, &k);
    int nfe = kind_faces(minex_mesh_elem_kind(m, e), f, size);
    for (int j = 0; j < nfe; j++) {
      face_rec r = {{-1, -1, -1, -1}, e};
      for (int i = 0; i < size[j]; i++)
        r.n[i] = en[f[j][i]];
      qsort(r.n, (size_t)size[j], sizeof r.n[0], i32_cmp);
      fr[nf++] = r;
    }
  }
  qsort(fr, (size_t)nf, sizeof *fr, face_cmp);
  int64_t shared = 0;
  for (int64_t i = 0; i + 1 < nf; i++) {
    if (memcmp(fr[i].n, fr[i + 1].n, sizeof fr[i].n) != 0)
      continue;
    QUIET_ASSERT(i + 2 >= nf ||
                 memcmp(fr[i].n, fr[i + 2].n, sizeof fr[i].n) != 0);
    int32_t a = fr[i].elem, b = fr[i + 1].elem;
    int found = 0;
    for (int64_t j = minex_graph_xadj(g)[a]; j < minex_graph_xadj(g)[a + 1];
         j++)
      found += minex_graph_adjncy(g)[j] == b;
    QUIET_ASSERT(found == 1);
    shared++;
  }
  ck_assert_int_eq(minex_graph_nedges(g), shared);
  free(fr);
  return shared;
}

/* Brute force: pairs sharing at least nc corners. */
static void check_dual_ncommon(const minex_mesh *m, int nc,
                               const minex_graph *g) {
  int32_t ne = minex_mesh_nelems(m);
  int64_t pairs = 0;
  for (int32_t a = 0; a < ne; a++) {
    int ka;
    const int32_t *an = minex_mesh_elem_nodes(m, a, &ka);
    for (int32_t b = a + 1; b < ne; b++) {
      int kb, c = 0;
      const int32_t *bn = minex_mesh_elem_nodes(m, b, &kb);
      for (int i = 0; i < ka; i++)
        for (int j = 0; j < kb; j++)
          c += an[i] == bn[j];
      int found = 0;
      for (int64_t j = minex_graph_xadj(g)[a]; j < minex_graph_xadj(g)[a + 1];
           j++)
        found += minex_graph_adjncy(g)[j] == b;
      QUIET_ASSERT(found == (c >= nc));
      pairs += c >= nc;
    }
  }
  ck_assert_int_eq(minex_graph_nedges(g), pairs);
}

/* ----------------------------------------------- same elements per file */

/* Element signature: kind and the sorted corner coordinates. */
typedef struct sig {
  int kind;
  double x[8][3];
  int32_t part;
} sig;

static int sig_cmp(const void *a, const void *b) {
  const sig *x = a, *y = b;
  if (x->kind != y->kind)
    return x->kind - y->kind;
  return memcmp(x->x, y->x, sizeof x->x);
}

static int pt_cmp(const void *a, const void *b) {
  const double *x = a, *y = b;
  for (int d = 0; d < 3; d++)
    if (x[d] != y[d])
      return x[d] < y[d] ? -1 : 1;
  return 0;
}

static sig *signatures(const minex_mesh *m) {
  int32_t ne = minex_mesh_nelems(m);
  sig *s = calloc((size_t)ne, sizeof *s);
  const int32_t *fp = minex_mesh_file_partition(m);
  for (int32_t e = 0; e < ne; e++) {
    int k;
    const int32_t *en = minex_mesh_elem_nodes(m, e, &k);
    s[e].kind = (int)minex_mesh_elem_kind(m, e);
    for (int i = 0; i < k; i++)
      for (int d = 0; d < 3; d++)
        /* meshio writes %.16e: compare at 1e-12 by rounding */
        s[e].x[i][d] =
            round(minex_mesh_coords(m)[3 * en[i] + d] * 1e9) / 1e9 + 0.0;
    qsort(s[e].x, (size_t)k, sizeof s[e].x[0], pt_cmp);
    s[e].part = fp ? fp[e] : -1;
  }
  return s;
}

/* Files of the mixed mesh: 8 hexahedra, 28 prisms, 40 tetrahedra, 4
 * pyramids; in_order: the elements in the order of mesh_gmsh_mixed_v41's
 * (Gmsh 2.2 files list the tetrahedra first, partitioned ones by part). */
static const struct {
  const char *name;
  int in_order;
} mixed_files[] = {
    {"mesh_gmsh_mixed_v2.msh", 0},
    {"mesh_gmsh_mixed_v41.msh", 1},
    {"mesh_gmsh_mixed_v2_bin.msh", 0},
    {"mesh_gmsh_mixed_v41_bin.msh", 1},
    {"mesh_gmsh_mixed_o2_v41.msh", 1},
    {"mesh_gmsh_mixed.vtk", 1},
    {"mesh_gmsh_mixed_bin.vtk", 1},
    {"mesh_meshio_mixed.vtk", 1},
    {"mesh_meshio_mixed_bin.vtk", 1},
    {"mesh_meshio_mixed.mesh", 1},
    {"mesh_gmsh_mixed_part3_v2.msh", 0},
    {"mesh_gmsh_mixed_part3_v41.msh", 0},
    {"mesh_gmsh_mixed_v2_swapped.msh", 0},
    {"mesh_meshio_mixed_v40_bin.msh", 1},
    {"mesh_meshio_mixed_v40_bin_ulong4.msh", 1},
    {"mesh_gmsh_mixed_v41_swapped.msh", 1},
    {"mesh_meshio_mixed_ascii.vtu", 1},
    {"mesh_meshio_mixed_b64.vtu", 1},
    {"mesh_meshio_mixed_zlib.vtu", 1},
    {"mesh_vtk9_mixed_raw.vtu", 1},
    {"mesh_vtk9_mixed_raw_zlib.vtu", 1},
    {"mesh_vtk9_mixed_b64inline_zlib.vtu", 1},
    {"mesh_vtk9_mixed_appended_b64.vtu", 1},
    {"mesh_vtk9_mixed_legacy.vtk", 1},
    {"mesh_meshio_mixed_v3.meshb", 1},
    {"mesh_vtk9_mixed_bigendian_zlib.vtu", 1},
    {"mesh_meshio_mixed_v4.meshb", 1},
    {"mesh_meshio_mixed_v3_bigendian.meshb", 1},
    {"mesh_meshio_mixed_v4_bigendian.meshb", 1},
    {"mesh_vtk9_mixed_legacy_bin.vtk", 1},
};
#define NMIXED (sizeof mixed_files / sizeof mixed_files[0])

START_TEST(every_file_variant_gives_the_same_mixed_mesh) {
  minex_mesh *ref = read_mesh("mesh_gmsh_mixed_v41.msh");
  int32_t ne = minex_mesh_nelems(ref);
  int count[16] = {0};
  for (int32_t e = 0; e < ne; e++)
    count[minex_mesh_elem_kind(ref, e)]++;
  ck_assert_int_eq(ne, 80);
  ck_assert_int_eq(count[MINEX_ELEM_HEXA], 8);
  ck_assert_int_eq(count[MINEX_ELEM_PRISM], 28);
  ck_assert_int_eq(count[MINEX_ELEM_TETRA], 40);
  ck_assert_int_eq(count[MINEX_ELEM_PYRAMID], 4);
  ck_assert_int_eq(minex_mesh_elem_type(ref), MINEX_ELEM_MIXED);
  sig *rs = signatures(ref);
  sig *rsorted = malloc(sizeof *rsorted * (size_t)ne);
  memcpy(rsorted, rs, sizeof *rs * (size_t)ne);
  qsort(rsorted, (size_t)ne, sizeof *rsorted, sig_cmp);
  for (size_t f = 0; f < NMIXED; f++) {
    minex_mesh *m = read_mesh(mixed_files[f].name);
    ck_assert_msg(minex_mesh_nelems(m) == ne, "%s: %d elements",
                  mixed_files[f].name, (int)minex_mesh_nelems(m));
    sig *s = signatures(m);
    if (mixed_files[f].in_order)
      for (int32_t e = 0; e < ne; e++)
        ck_assert_msg(sig_cmp(&s[e], &rs[e]) == 0, "%s: element %d differs",
                      mixed_files[f].name, (int)e);
    qsort(s, (size_t)ne, sizeof *s, sig_cmp);
    for (int32_t e = 0; e < ne; e++)
      ck_assert_msg(sig_cmp(&s[e], &rsorted[e]) == 0,
                    "%s: sorted element %d differs", mixed_files[f].name,
                    (int)e);
    free(s);
    minex_mesh_destroy(m);
  }
  free(rs);
  free(rsorted);
  minex_mesh_destroy(ref);
}
END_TEST

/* A parser of Gmsh 2.2 ASCII written here: node tags to file positions,
 * the volume elements (types 4-7) with their nodes, in file order. The
 * mesh's element e must be the file's e-th volume element, its corners
 * the file's in VTK's order. */
START_TEST(element_ids_follow_the_files_element_order) {
  FILE *fp = fopen(test_data_path("mesh_gmsh_mixed_v2.msh"), "r");
  ck_assert_ptr_nonnull(fp);
  char line[512];
  int32_t pos_of[1000];
  int nn = 0, in_nodes = 0, in_elems = 0, nvol = 0;
  minex_mesh *m = read_mesh("mesh_gmsh_mixed_v2.msh");
  int nlower = 0;
  while (fgets(line, sizeof line, fp)) {
    if (strncmp(line, "$Nodes", 6) == 0) {
      in_nodes = 1;
      ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
      continue;
    }
    if (strncmp(line, "$EndNodes", 9) == 0)
      in_nodes = 0;
    if (strncmp(line, "$Elements", 9) == 0) {
      in_elems = 1;
      ck_assert_ptr_nonnull(fgets(line, sizeof line, fp));
      continue;
    }
    if (strncmp(line, "$EndElements", 12) == 0)
      in_elems = 0;
    if (in_nodes) {
      int tag = atoi(line);
      ck_assert(tag > 0 && tag < 1000);
      pos_of[tag] = nn++;
    } else if (in_elems) {
      int v[64], n = 0;
      char *p = line, *q;
      for (long x = strtol(p, &q, 10); q != p; x = strtol(p, &q, 10)) {
        v[n++] = (int)x;
        p = q;
      }
      int type = v[1], ntags = v[2];
      int corners = type == 4 ? 4 : type == 5 ? 8 : type == 6 ? 6 : 5;
      if (type < 4 || type > 7) {
        nlower++;
        continue;
      }
      int k;
      const int32_t *en = minex_mesh_elem_nodes(m, nvol, &k);
      ck_assert_int_eq(k, corners);
      /* a prism's corners in VTK's order: each triangle reversed */
      static const int id[8] = {0, 1, 2, 3, 4, 5, 6, 7};
      static const int wedge[6] = {0, 2, 1, 3, 5, 4};
      const int *from = type == 6 ? wedge : id;
      for (int i = 0; i < k; i++)
        ck_assert_int_eq(en[i], pos_of[v[3 + ntags + from[i]]]);
      nvol++;
    }
  }
  fclose(fp);
  ck_assert_int_eq(nvol, minex_mesh_nelems(m));
  ck_assert_int_eq(minex_mesh_ignored(m), nlower);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(duals_equal_independent_face_matching) {
  const char *files[] = {
      "mesh_gmsh_mixed_v41.msh",   "mesh_gmsh_hex_v41.msh",
      "mesh_gmsh_quadtri_v41.msh", "mesh_gmsh_quadtri_o2_v2.msh",
      "mesh_meshio_mixed.mesh",    "mesh_gmsh_mixed.mesh"};
  int64_t shared[6];
  for (int f = 0; f < 6; f++) {
    minex_mesh *m = read_mesh(files[f]);
    minex_graph *g = NULL;
    ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g), MINEX_OK);
    shared[f] = check_dual_by_faces(m, g);
    for (int nc = 1; nc <= 4; nc++) {
      minex_graph *gn = NULL;
      ck_assert_int_eq(
          minex_mesh_dual_ncommon(m, nc, NULL, NULL, NULL, NULL, &gn),
          MINEX_OK);
      check_dual_ncommon(m, nc, gn);
      minex_graph_destroy(gn);
    }
    minex_graph_destroy(g);
    minex_mesh_destroy(m);
  }
  /* the 3 x 2 x 2 hexahedra: 2*2*2 + 3*1*2 + 3*2*1 inner faces */
  ck_assert_int_eq(shared[1], 20);
  /* second order gives the dual of the corners: same as linear */
  ck_assert_int_eq(shared[2], shared[3]);
  /* a triangle face of a prism meets a pyramid's, a quadrilateral one a
     hexahedron's: the mixed mesh is one connected dual */
  ck_assert_int_gt(shared[0], 79);
}
END_TEST

START_TEST(gmsh_partitions_are_read_as_the_old_partition) {
  minex_mesh *a = read_mesh("mesh_gmsh_mixed_part3_v2.msh");
  minex_mesh *b = read_mesh("mesh_gmsh_mixed_part3_v41.msh");
  ck_assert_ptr_nonnull(minex_mesh_file_partition(a));
  ck_assert_ptr_nonnull(minex_mesh_file_partition(b));
  minex_mesh *plain = read_mesh("mesh_gmsh_mixed_v2.msh");
  ck_assert_ptr_null(minex_mesh_file_partition(plain));
  minex_mesh_destroy(plain);
  int32_t ne = minex_mesh_nelems(a), size[3] = {0, 0, 0};
  for (int32_t e = 0; e < ne; e++) {
    int32_t p = minex_mesh_file_partition(a)[e];
    ck_assert(p >= 0 && p < 3);
    size[p]++;
  }
  for (int p = 0; p < 3; p++)
    ck_assert_int_gt(size[p], 0);
  /* the same elements carry the same partition in both files */
  sig *sa = signatures(a), *sb = signatures(b);
  qsort(sa, (size_t)ne, sizeof *sa, sig_cmp);
  qsort(sb, (size_t)ne, sizeof *sb, sig_cmp);
  for (int32_t e = 0; e < ne; e++)
    ck_assert_int_eq(sa[e].part, sb[e].part);
  free(sa);
  free(sb);
  minex_mesh_destroy(a);
  minex_mesh_destroy(b);
}
END_TEST

/* VTK's legacy writer puts an integer cell array in a FIELD: partition =
 * cell index % 3 over all 232 cells (lower-dimensional ones included);
 * the indices of the volume cells come from the file's CELL_TYPES, read
 * here. */
START_TEST(vtk_field_partition_follows_the_cell_numbering) {
  FILE *fp = fopen(test_data_path("mesh_vtk9_mixed_legacy.vtk"), "r");
  ck_assert_ptr_nonnull(fp);
  char line[256];
  long ncells = -1;
  while (fgets(line, sizeof line, fp))
    if (sscanf(line, "CELL_TYPES %ld", &ncells) == 1)
      break;
  ck_assert_int_eq(ncells, 232);
  int32_t want[232];
  int nvol = 0;
  for (long i = 0; i < ncells; i++) {
    int t;
    ck_assert_int_eq(fscanf(fp, "%d", &t), 1);
    if (t == 10 || t == 12 || t == 13 || t == 14)
      want[nvol++] = (int32_t)(i % 3);
  }
  fclose(fp);
  ck_assert_int_eq(nvol, 80);
  const char *files[] = {"mesh_vtk9_mixed_legacy.vtk",
                         "mesh_vtk9_mixed_legacy_bin.vtk"};
  for (int f = 0; f < 2; f++) {
    minex_mesh *m = read_mesh(files[f]);
    ck_assert_ptr_nonnull(minex_mesh_file_partition(m));
    ck_assert_mem_eq(minex_mesh_file_partition(m), want, sizeof want[0] * 80);
    ck_assert_int_eq(minex_mesh_ignored(m), 232 - 80);
    minex_mesh_destroy(m);
  }
}
END_TEST

/* ------------------------------------------------------- partitioning */

static void part_weights(const minex_mesh *m, const int32_t *part, int np,
                         const double *w, double *pw) {
  for (int p = 0; p < np; p++)
    pw[p] = 0;
  for (int32_t e = 0; e < minex_mesh_nelems(m); e++) {
    ck_assert(part[e] >= 0 && part[e] < np);
    pw[part[e]] += w ? w[e] : 1.0;
  }
}

START_TEST(rcb_and_rib_balance_weights_and_targets) {
  minex_mesh *m = read_mesh("mesh_gmsh_mixed_v41.msh");
  int32_t ne = minex_mesh_nelems(m);
  double *w = malloc(sizeof *w * (size_t)ne), wsum = 0, wmax = 0;
  for (int32_t e = 0; e < ne; e++) {
    /* a hexahedron weighs 6, a prism 3, a pyramid 2, a tetrahedron 1 */
    minex_elem_type t = minex_mesh_elem_kind(m, e);
    w[e] = t == MINEX_ELEM_HEXA      ? 6
           : t == MINEX_ELEM_PRISM   ? 3
           : t == MINEX_ELEM_PYRAMID ? 2
                                     : 1;
    wsum += w[e];
    wmax = fmax(wmax, w[e]);
  }
  int32_t *part = malloc(sizeof *part * (size_t)ne);
  const double target[4] = {1, 2, 3, 2};
  for (int method = 0; method < 2; method++) {
    for (int t = 0; t < 2; t++) {
      ck_assert_int_eq(
          minex_mesh_partition_geom(m, 4, method, w, t ? target : NULL, part),
          MINEX_OK);
      double pw[4];
      part_weights(m, part, 4, w, pw);
      for (int p = 0; p < 4; p++) {
        double want = wsum * (t ? target[p] / 8.0 : 0.25);
        /* two levels of cuts, each off by at most half the heaviest */
        ck_assert_msg(fabs(pw[p] - want) <= 2 * wmax,
                      "method %d part %d: %g "
                      "against %g",
                      method, p, pw[p], want);
      }
    }
  }
  /* no weights, no targets, RCB: minex_mesh_partition_rcb */
  int32_t *p2 = malloc(sizeof *p2 * (size_t)ne);
  ck_assert_int_eq(
      minex_mesh_partition_geom(m, 5, MINEX_GEOM_RCB, NULL, NULL, part),
      MINEX_OK);
  ck_assert_int_eq(minex_mesh_partition_rcb(m, 5, p2), MINEX_OK);
  ck_assert_mem_eq(part, p2, sizeof *part * (size_t)ne);
  w[3] = -1;
  ck_assert_int_eq(
      minex_mesh_partition_geom(m, 4, MINEX_GEOM_RCB, w, NULL, part),
      MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "element 3"));
  free(p2);
  free(part);
  free(w);
  minex_mesh_destroy(m);
}
END_TEST

/* A box of tetrahedra stretched along the diagonal (1,1,0): RIB's first
 * cut is across that axis (the halves are separated along it), RCB's is
 * across x, which leaves them interleaved along the diagonal. */
START_TEST(rib_cuts_across_the_principal_axis) {
  minex_mesh *box = NULL;
  ck_assert_int_eq(minex_gen_box(12, 2, 2, &box), MINEX_OK);
  int32_t nn = minex_mesh_nnodes(box), ne = minex_mesh_nelems(box);
  double *xyz = malloc(sizeof *xyz * 3 * (size_t)nn);
  for (int32_t v = 0; v < nn; v++) {
    const double *c = minex_mesh_coords(box) + 3 * v;
    double x = 10 * c[0], y = c[1];
    xyz[3 * v] = (x - y) / sqrt(2.0);
    xyz[3 * v + 1] = (x + y) / sqrt(2.0);
    xyz[3 * v + 2] = c[2];
  }
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_create(nn, xyz, ne, MINEX_ELEM_TETRA,
                                     minex_mesh_elems(box), &m),
                   MINEX_OK);
  int32_t *part = malloc(sizeof *part * (size_t)ne);
  for (int method = 0; method < 2; method++) {
    ck_assert_int_eq(minex_mesh_partition_geom(m, 2, method, NULL, NULL, part),
                     MINEX_OK);
    /* along the rotated long axis (1,1,0)/sqrt 2, i.e. x + y */
    double max0 = -INFINITY, min1 = INFINITY;
    for (int32_t e = 0; e < ne; e++) {
      double c[3];
      minex_mesh_centroid(m, e, c);
      double s = c[0] + c[1];
      if (part[e] == 0)
        max0 = fmax(max0, s);
      else
        min1 = fmin(min1, s);
    }
    int separated = max0 <= min1 + 1e-9;
    ck_assert_int_eq(separated, method == MINEX_GEOM_RIB);
  }
  free(part);
  free(xyz);
  minex_mesh_destroy(m);
  minex_mesh_destroy(box);
}
END_TEST

/* mesh -> weighted partition -> VTK -> read back: the same elements, and
 * the partition written comes back as the file's partition. */
START_TEST(mesh_partition_vtk_round_trip) {
  const char *files[] = {"mesh_gmsh_mixed_v41.msh",
                         "mesh_gmsh_quadtri_v41.msh"};
  for (int f = 0; f < 2; f++) {
    minex_mesh *m = read_mesh(files[f]);
    int32_t ne = minex_mesh_nelems(m);
    int32_t *part = malloc(sizeof *part * (size_t)ne);
    int32_t *old = malloc(sizeof *old * (size_t)ne);
    ck_assert_int_eq(
        minex_mesh_partition_geom(m, 3, MINEX_GEOM_RIB, NULL, NULL, part),
        MINEX_OK);
    ck_assert_int_eq(minex_mesh_partition_rcb(m, 3, old), MINEX_OK);
    minex_graph *g = NULL;
    ck_assert_int_eq(minex_mesh_dual(m, NULL, NULL, NULL, NULL, &g), MINEX_OK);
    char path[] = "/tmp/minex_kinds_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(minex_mesh_write_vtk(m, g, old, part, path), MINEX_OK);
    minex_mesh *back = NULL;
    ck_assert_int_eq(minex_mesh_read(path, &back), MINEX_OK);
    remove(path);
    ck_assert_int_eq(minex_mesh_nelems(back), ne);
    ck_assert_int_eq(minex_mesh_nnodes(back), minex_mesh_nnodes(m));
    ck_assert_mem_eq(minex_mesh_coords(back), minex_mesh_coords(m),
                     sizeof(double) * 3 * (size_t)minex_mesh_nnodes(m));
    for (int32_t e = 0; e < ne; e++) {
      int k1, k2;
      const int32_t *a = minex_mesh_elem_nodes(m, e, &k1);
      const int32_t *b = minex_mesh_elem_nodes(back, e, &k2);
      ck_assert_int_eq(minex_mesh_elem_kind(back, e),
                       minex_mesh_elem_kind(m, e));
      ck_assert_int_eq(k1, k2);
      ck_assert_mem_eq(a, b, sizeof *a * (size_t)k1);
    }
    ck_assert_ptr_nonnull(minex_mesh_file_partition(back));
    ck_assert_mem_eq(minex_mesh_file_partition(back), part,
                     sizeof *part * (size_t)ne);
    minex_mesh_destroy(back);
    minex_graph_destroy(g);
    free(part);
    free(old);
    minex_mesh_destroy(m);
  }
}
END_TEST

/* ---------------------------------------------- VTK's corner convention */

/* A cell of a VTK legacy file written by minex_mesh_write_vtk, read here
 * without the library: points, then each cell's type and points. */
typedef struct vtk_cells {
  int32_t npts, ncells;
  double (*x)[3];
  int *type, *first, *conn;
} vtk_cells;

static void vtk_cells_read(const char *path, vtk_cells *v) {
  FILE *fp = fopen(path, "r");
  ck_assert_ptr_nonnull(fp);
  char line[256];
  int n = 0, size = 0;
  *v = (vtk_cells){0};
  while (fgets(line, sizeof line, fp) != NULL) {
    if (sscanf(line, "POINTS %d double", &n) == 1) {
      v->npts = n;
      v->x = malloc(sizeof *v->x * (size_t)n);
      for (int i = 0; i < n; i++)
        ck_assert_int_eq(
            fscanf(fp, "%lf %lf %lf", &v->x[i][0], &v->x[i][1], &v->x[i][2]),
            3);
    } else if (sscanf(line, "CELLS %d %d", &n, &size) == 2) {
      v->ncells = n;
      v->first = malloc(sizeof *v->first * (size_t)(n + 1));
      v->conn = malloc(sizeof *v->conn * (size_t)size);
      int at = 0;
      for (int c = 0; c < n; c++) {
        int k;
        ck_assert_int_eq(fscanf(fp, "%d", &k), 1);
        v->first[c] = at;
        for (int i = 0; i < k; i++) {
          ck_assert_int_eq(fscanf(fp, "%d", &v->conn[at]), 1);
          ck_assert(v->conn[at] >= 0 && v->conn[at] < v->npts);
          at++;
        }
      }
      v->first[n] = at;
    } else if (sscanf(line, "CELL_TYPES %d", &n) == 1) {
      ck_assert_int_eq(n, v->ncells);
      v->type = malloc(sizeof *v->type * (size_t)n);
      for (int c = 0; c < n; c++)
        ck_assert_int_eq(fscanf(fp, "%d", &v->type[c]), 1);
    }
  }
  fclose(fp);
  ck_assert_ptr_nonnull(v->type);
}

static void vtk_cells_free(vtk_cells *v) {
  free(v->x);
  free(v->type);
  free(v->first);
  free(v->conn);
}

/* Signed volume of cell c as VTK reckons it: the faces of vtkTetra,
 * vtkHexahedron, vtkWedge and vtkPyramid (their face arrays, each face
 * counter-clockwise seen from outside the cell in VTK's corner order) fed
 * to the divergence theorem, each face a fan around its centroid; a 2D
 * cell's area about +z (VTK_TRIANGLE and VTK_QUAD counter-clockwise). */
static double vtk_cell_volume(const vtk_cells *v, int c) {
  static const int tet[4][5] = {
      {3, 0, 1, 3}, {3, 1, 2, 3}, {3, 2, 0, 3}, {3, 0, 2, 1}};
  static const int hex[6][5] = {{4, 0, 4, 7, 3}, {4, 1, 2, 6, 5},
                                {4, 0, 1, 5, 4}, {4, 3, 7, 6, 2},
                                {4, 0, 3, 2, 1}, {4, 4, 5, 6, 7}};
  static const int wedge[5][5] = {{3, 0, 1, 2},
                                  {3, 3, 5, 4},
                                  {4, 0, 3, 4, 1},
                                  {4, 1, 4, 5, 2},
                                  {4, 2, 5, 3, 0}};
  static const int pyr[5][5] = {
      {4, 0, 3, 2, 1}, {3, 0, 1, 4}, {3, 1, 2, 4}, {3, 2, 3, 4}, {3, 3, 0, 4}};
  const int *en = v->conn + v->first[c];
  int k = v->first[c + 1] - v->first[c];
  const int(*faces)[5] = NULL;
  int nf = 0;
  switch (v->type[c]) {
  case 5: /* VTK_TRIANGLE */
  case 9: /* VTK_QUAD */ {
    double a = 0;
    for (int i = 0; i < k; i++) {
      const double *p = v->x[en[i]], *q = v->x[en[(i + 1) % k]];
      a += p[0] * q[1] - q[0] * p[1];
    }
    return a / 2;
  }
  case 10:
    faces = tet, nf = 4;
    ck_assert_int_eq(k, 4);
    break;
  case 12:
    faces = hex, nf = 6;
    ck_assert_int_eq(k, 8);
    break;
  case 13:
    faces = wedge, nf = 5;
    ck_assert_int_eq(k, 6);
    break;
  case 14:
    faces = pyr, nf = 5;
    ck_assert_int_eq(k, 5);
    break;
  default:
    ck_abort_msg("cell %d: unexpected VTK type %d", c, v->type[c]);
  }
  double vol = 0;
  for (int f = 0; f < nf; f++) {
    int m = faces[f][0];
    double ctr[3] = {0, 0, 0};
    for (int i = 0; i < m; i++)
      for (int d = 0; d < 3; d++)
        ctr[d] += v->x[en[faces[f][1 + i]]][d] / m;
    for (int i = 0; i < m; i++) {
      const double *a = v->x[en[faces[f][1 + i]]];
      const double *b = v->x[en[faces[f][1 + (i + 1) % m]]];
      vol += (ctr[0] * (a[1] * b[2] - a[2] * b[1]) -
              ctr[1] * (a[0] * b[2] - a[2] * b[0]) +
              ctr[2] * (a[0] * b[1] - a[1] * b[0])) /
             6;
    }
  }
  return vol;
}

/* mesh written to VTK and read back here: every cell's VTK volume is
 * positive; vol[t] sums those of VTK type t. The file read back by the
 * library is the same mesh, corner for corner (the round trip). */
static void vtk_volumes(const minex_mesh *m, const char *name, double vol[16]) {
  char path[] = "/tmp/minex_kinds_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  ck_assert_int_eq(minex_mesh_write_vtk(m, NULL, NULL, NULL, path), MINEX_OK);
  vtk_cells v;
  vtk_cells_read(path, &v);
  minex_mesh *back = NULL;
  ck_assert_int_eq(minex_mesh_read(path, &back), MINEX_OK);
  remove(path);
  ck_assert_int_eq(minex_mesh_nelems(back), minex_mesh_nelems(m));
  for (int32_t e = 0; e < minex_mesh_nelems(m); e++) {
    int ka, kb;
    const int32_t *a = minex_mesh_elem_nodes(m, e, &ka),
                  *b = minex_mesh_elem_nodes(back, e, &kb);
    ck_assert_int_eq(minex_mesh_elem_kind(back, e), minex_mesh_elem_kind(m, e));
    ck_assert_int_eq(ka, kb);
    ck_assert_msg(memcmp(a, b, sizeof *a * (size_t)ka) == 0,
                  "%s: element %d changed in the VTK round trip", name, (int)e);
  }
  minex_mesh_destroy(back);
  ck_assert_int_eq(v.ncells, minex_mesh_nelems(m));
  for (int t = 0; t < 16; t++)
    vol[t] = 0;
  for (int c = 0; c < v.ncells; c++) {
    double x = vtk_cell_volume(&v, c);
    ck_assert_msg(x > 1e-12, "%s: cell %d (VTK type %d) has volume %g", name, c,
                  v.type[c], x);
    vol[v.type[c]] += x;
  }
  vtk_cells_free(&v);
}

/* The mixed mesh's hexahedra fill [0,1]^3, its prisms [1,2]x[0,1]^2, its
 * tetrahedra and pyramids [-1,0]x[0,1]^2: from every file variant of it
 * (Gmsh, MEDIT, VTK and .vtu, as Gmsh, meshio and VTK write them) every
 * cell of the VTK output has a positive volume by VTK's convention, and
 * each kind's volumes add up to its box. The same for the 2D and the
 * all-hexahedra meshes. */
START_TEST(vtk_output_cells_are_positive_from_every_file_variant) {
  double vol[16];
  for (size_t f = 0; f < NMIXED; f++) {
    minex_mesh *m = read_mesh(mixed_files[f].name);
    vtk_volumes(m, mixed_files[f].name, vol);
    ck_assert_msg(fabs(vol[12] - 1) < 1e-9 && fabs(vol[13] - 1) < 1e-9 &&
                      fabs(vol[10] + vol[14] - 1) < 1e-9,
                  "%s: hexahedra %g, prisms %g, tetrahedra and pyramids %g",
                  mixed_files[f].name, vol[12], vol[13], vol[10] + vol[14]);
    minex_mesh_destroy(m);
  }
  const struct {
    const char *name;
    int type;
    double want;
  } other[] = {{"mesh_gmsh_hex_v41.msh", 12, 1},
               {"mesh_gmsh_quadtri_v41.msh", 9, 1},
               {"mesh_gmsh_quadtri_v41.msh", 5, 1},
               {"mesh_gmsh_quadtri_o2_v2.msh", 9, 1},
               {"mesh_gmsh_quadtri_o2_v2.msh", 5, 1},
               {"mesh_square2d.mesh", 5, 1},
               {"mesh_two_tets.mesh", 10, 1.0 / 6 + 1.0 / 3}};
  for (size_t f = 0; f < sizeof other / sizeof other[0]; f++) {
    minex_mesh *m = read_mesh(other[f].name);
    vtk_volumes(m, other[f].name, vol);
    ck_assert_msg(fabs(vol[other[f].type] - other[f].want) < 1e-9,
                  "%s: VTK type %d: %g", other[f].name, other[f].type,
                  vol[other[f].type]);
    minex_mesh_destroy(m);
  }
}
END_TEST

static void write_file(const char *path, const char *text, size_t len) {
  FILE *fp = fopen(path, "wb");
  ck_assert_ptr_nonnull(fp);
  ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
  fclose(fp);
}

/* One right-handed element of each kind, in the corner order of the file
 * format it is written in: Gmsh's and MEDIT's prisms have triangle 0-2
 * counter-clockwise seen from triangle 3-5, VTK's wedges clockwise (its
 * Lagrange wedges as Gmsh). Each reads, is written to VTK, and its cell
 * has VTK volume (area in 2D) equal to the element's. */
typedef struct one_elem {
  const char *name;
  int dim, k;           /* dimension, corners                 */
  double x[8][3];       /* corners, Gmsh's and MEDIT's order  */
  double vol;           /* volume (area)                      */
  int gmsh, medit, vtk; /* type or keyword code in each format */
  const char *kw;       /* MEDIT keyword                      */
} one_elem;

static const one_elem elems[] = {
    {"tetrahedron",
     3,
     4,
     {{0, 0, 0}, {2, 0, 0}, {0, 3, 0}, {0, 0, 1}},
     1,
     4,
     8,
     10,
     "Tetrahedra"},
    {"hexahedron",
     3,
     8,
     {{0, 0, 0},
      {2, 0, 0},
      {2, 1, 0},
      {0, 1, 0},
      {0, 0, 3},
      {2, 0, 3},
      {2, 1, 3},
      {0, 1, 3}},
     6,
     5,
     10,
     12,
     "Hexahedra"},
    {"prism",
     3,
     6,
     {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 0, 3}, {2, 0, 3}, {0, 1, 3}},
     3,
     6,
     9,
     13,
     "Prisms"},
    {"pyramid",
     3,
     5,
     {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {1, 1, 3}},
     4,
     7,
     49,
     14,
     "Pyramids"},
    {"triangle",
     2,
     3,
     {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}},
     1,
     2,
     6,
     5,
     "Triangles"},
    {"quadrilateral",
     2,
     4,
     {{0, 0, 0}, {2, 0, 0}, {2, 1, 0}, {0, 1, 0}},
     2,
     3,
     7,
     9,
     "Quadrilaterals"},
};

/* The file's own corner order: node i of the file is corner order[i] of
 * elems[]. VTK's linear and quadratic wedges list each triangle the other
 * way round. */
static const int *file_order(const one_elem *el, int vtk_wedge) {
  static const int id[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  static const int wedge[6] = {0, 2, 1, 3, 5, 4};
  return vtk_wedge && el->k == 6 ? wedge : id;
}

typedef struct membuf {
  char *p;
  size_t n;
} membuf;

static void put(membuf *b, const void *data, size_t n) {
  b->p = realloc(b->p, b->n + n + 1);
  memcpy(b->p + b->n, data, n);
  b->n += n;
}

static void putf(membuf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  put(b, tmp, (size_t)n);
}

static void put_i32(membuf *b, int32_t v) {
  put(b, &v, 4); /* native order: the readers take either */
}

static void put_f64(membuf *b, double v) {
  put(b, &v, 8);
}

/* Gmsh: ASCII 2.2, ASCII 4.1 or binary 2.2 (extra: higher-order nodes
 * after the corners, repeating corner tags, which the readers skip). */
static void gmsh_file(membuf *b, const one_elem *el, int fmt, int type,
                      int extra) {
  int k = el->k;
  putf(b, "$MeshFormat\n%s\n",
       fmt == 1 ? "4.1 0 8"
       : fmt    ? "2.2 1 8"
                : "2.2 0 8");
  if (fmt == 2) {
    put_i32(b, 1);
    putf(b, "\n");
  }
  putf(b, "$EndMeshFormat\n$Nodes\n");
  if (fmt == 1) {
    putf(b, "1 %d 1 %d\n%d 1 0 %d\n", k, k, el->dim, k);
    for (int i = 0; i < k; i++)
      putf(b, "%d\n", i + 1);
  } else {
    putf(b, "%d\n", k);
  }
  for (int i = 0; i < k; i++) {
    if (fmt == 2) {
      put_i32(b, i + 1);
      for (int d = 0; d < 3; d++)
        put_f64(b, el->x[i][d]);
    } else if (fmt == 1) {
      putf(b, "%g %g %g\n", el->x[i][0], el->x[i][1], el->x[i][2]);
    } else {
      putf(b, "%d %g %g %g\n", i + 1, el->x[i][0], el->x[i][1], el->x[i][2]);
    }
  }
  putf(b, fmt == 2 ? "\n$EndNodes\n$Elements\n1\n" : "$EndNodes\n$Elements\n");
  if (fmt == 2) {
    put_i32(b, type);
    put_i32(b, 1); /* one element */
    put_i32(b, 2); /* two tags */
    put_i32(b, 1);
    put_i32(b, 0);
    put_i32(b, 1);
    for (int i = 0; i < k + extra; i++)
      put_i32(b, i % k + 1);
    putf(b, "\n$EndElements\n");
    return;
  }
  if (fmt == 1)
    putf(b, "1 1 1 1\n%d 1 %d 1\n1", el->dim, type);
  else
    putf(b, "1\n1 %d 2 0 1", type);
  for (int i = 0; i < k + extra; i++)
    putf(b, " %d", i % k + 1);
  putf(b, "\n$EndElements\n");
}

/* MEDIT ASCII .mesh or binary .meshb (version 2: 32-bit integers,
 * doubles, 32-bit positions). */
static void medit_file(membuf *b, const one_elem *el, int binary) {
  int k = el->k, dim = el->dim;
  if (!binary) {
    putf(b, "MeshVersionFormatted 2\nDimension %d\nVertices\n%d\n", dim, k);
    for (int i = 0; i < k; i++) {
      for (int d = 0; d < dim; d++)
        putf(b, "%g ", el->x[i][d]);
      putf(b, "0\n");
    }
    putf(b, "%s\n1\n", el->kw);
    for (int i = 0; i < k; i++)
      putf(b, "%d ", i + 1);
    putf(b, "0\nEnd\n");
    return;
  }
  put_i32(b, 1);
  put_i32(b, 2);
  put_i32(b, 3); /* Dimension */
  put_i32(b, (int32_t)b->n + 8);
  put_i32(b, dim);
  put_i32(b, 4); /* Vertices */
  put_i32(b, (int32_t)(b->n + 8 + (size_t)k * (8 * (size_t)dim + 4)));
  put_i32(b, k);
  for (int i = 0; i < k; i++) {
    for (int d = 0; d < dim; d++)
      put_f64(b, el->x[i][d]);
    put_i32(b, 0);
  }
  put_i32(b, el->medit);
  put_i32(b, (int32_t)(b->n + 8 + 4 * (size_t)(k + 1)));
  put_i32(b, 1);
  for (int i = 0; i < k; i++)
    put_i32(b, i + 1);
  put_i32(b, 0);
  put_i32(b, 54); /* End */
  put_i32(b, 0);
}

/* VTK legacy ASCII or .vtu ASCII, one cell of VTK type type with n nodes
 * (the corners in the file's order, then corners again for the
 * higher-order ones). */
static void vtk_file(membuf *b, const one_elem *el, int xml, int type, int n,
                     const int *order) {
  int k = el->k;
  if (xml)
    putf(b,
         "<?xml version=\"1.0\"?>\n<VTKFile type=\"UnstructuredGrid\" "
         "version=\"1.0\">\n<UnstructuredGrid>\n<Piece "
         "NumberOfPoints=\"%d\" NumberOfCells=\"1\">\n<Points>\n"
         "<DataArray type=\"Float64\" NumberOfComponents=\"3\" "
         "format=\"ascii\">\n",
         k);
  else
    putf(b,
         "# vtk DataFile Version 3.0\nt\nASCII\nDATASET "
         "UNSTRUCTURED_GRID\nPOINTS %d double\n",
         k);
  for (int i = 0; i < k; i++)
    putf(b, "%g %g %g\n", el->x[order[i]][0], el->x[order[i]][1],
         el->x[order[i]][2]);
  if (xml)
    putf(b, "</DataArray>\n</Points>\n<Cells>\n<DataArray type=\"Int64\" "
            "Name=\"connectivity\" format=\"ascii\">\n");
  else
    putf(b, "CELLS 1 %d\n%d", n + 1, n);
  for (int i = 0; i < n; i++)
    putf(b, " %d", i % k);
  if (xml)
    putf(b,
         "\n</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" "
         "format=\"ascii\">%d</DataArray>\n<DataArray type=\"UInt8\" "
         "Name=\"types\" format=\"ascii\">%d</DataArray>\n</Cells>\n"
         "</Piece>\n</UnstructuredGrid>\n</VTKFile>\n",
         n, type);
  else
    putf(b, "\nCELL_TYPES 1\n%d\n", type);
}

START_TEST(every_kind_from_every_format_has_its_volume_in_vtk) {
  char path[] = "/tmp/minex_kinds_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  for (size_t e = 0; e < sizeof elems / sizeof elems[0]; e++) {
    const one_elem *el = &elems[e];
    int prism = el->k == 6;
    /* the variants: format, type, extra nodes */
    const struct {
      const char *what;
      int format; /* 0-2 Gmsh ASCII 2.2, 4.1, binary 2.2; 3, 4 MEDIT
                     ASCII, binary; 5, 6 VTK legacy, .vtu */
      int type, extra;
    } var[] = {
        {"Gmsh 2.2 ASCII", 0, el->gmsh, 0},
        {"Gmsh 4.1 ASCII", 1, el->gmsh, 0},
        {"Gmsh 2.2 binary", 2, el->gmsh, 0},
        {"MEDIT .mesh", 3, 0, 0},
        {"MEDIT .meshb", 4, 0, 0},
        {"VTK legacy", 5, el->vtk, 0},
        {"VTK .vtu", 6, el->vtk, 0},
        /* second order: Gmsh's 15- and 18-node prisms, VTK's quadratic
           (15) and Lagrange (6 corners) wedges */
        {"Gmsh 15-node prism", prism ? 0 : -1, 18, 9},
        {"Gmsh 18-node prism", prism ? 2 : -1, 13, 12},
        {"VTK quadratic wedge", prism ? 5 : -1, 26, 9},
        {"VTK Lagrange wedge", prism ? 6 : -1, 73, 0},
    };
    for (size_t v = 0; v < sizeof var / sizeof var[0]; v++) {
      if (var[v].format < 0)
        continue;
      membuf b = {NULL, 0};
      int f = var[v].format;
      if (f <= 2)
        gmsh_file(&b, el, f, var[v].type, var[v].extra);
      else if (f <= 4)
        medit_file(&b, el, f == 4);
      else
        vtk_file(&b, el, f == 6, var[v].type, el->k + var[v].extra,
                 file_order(el, var[v].type != 73));
      write_file(path, b.p, b.n);
      free(b.p);
      minex_mesh *m = NULL;
      int rc = minex_mesh_read(path, &m);
      ck_assert_msg(rc == MINEX_OK, "%s %s: %s", var[v].what, el->name,
                    minex_last_error());
      ck_assert_int_eq(minex_mesh_nelems(m), 1);
      char what[128];
      snprintf(what, sizeof what, "%s %s", var[v].what, el->name);
      double vol[16];
      vtk_volumes(m, what, vol);
      ck_assert_msg(fabs(vol[el->vtk] - el->vol) < 1e-12, "%s: volume %g, %g",
                    what, vol[el->vtk], el->vol);
      minex_mesh_destroy(m);
    }
  }
  remove(path);
}
END_TEST

/* --------------------------------------------------- malformed inputs */

START_TEST(unknown_element_types_are_errors_never_dropped) {
  char path[] = "/tmp/minex_kinds_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  minex_mesh *m = (minex_mesh *)1;
  /* a Gmsh polygon (type 34) */
  const char *poly = "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n"
                     "1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n$Elements\n2\n"
                     "1 2 2 0 1 1 2 3\n2 34 2 0 1 1 2 3\n$EndElements\n";
  write_file(path, poly, strlen(poly));
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_EUNSUP);
  ck_assert_ptr_nonnull(
      strstr(minex_last_error(), ":13: Gmsh element type 34"));
  ck_assert_ptr_null(m);
  /* a VTK polygon (cell type 7) */
  const char *vtk = "# vtk DataFile Version 2.0\nt\nASCII\n"
                    "DATASET UNSTRUCTURED_GRID\nPOINTS 3 double\n0 0 0 1 0 0 "
                    "0 1 0\nCELLS 2 8\n3 0 1 2\n3 0 1 2\nCELL_TYPES 2\n5\n7\n";
  write_file(path, vtk, strlen(vtk));
  ck_assert_int_eq(minex_mesh_read(path, &m), MINEX_EUNSUP);
  ck_assert_ptr_nonnull(strstr(minex_last_error(), "VTK cell type 7"));
  remove(path);
}
END_TEST

/* Every truncation of the binary files (Gmsh, VTK legacy, VTK XML raw and
 * compressed, MEDIT binary) is an error, never a crash or a mesh; a .meshb
 * cut between two keywords too (it lacks its End). */
START_TEST(truncated_binary_files_are_rejected) {
  const char *files[] = {"mesh_gmsh_mixed_v2_bin.msh",
                         "mesh_gmsh_mixed_v41_bin.msh",
                         "mesh_gmsh_mixed_bin.vtk",
                         "mesh_meshio_mixed_bin.vtk",
                         "mesh_vtk9_mixed_raw_zlib.vtu",
                         "mesh_vtk9_mixed_raw.vtu",
                         "mesh_meshio_mixed_zlib.vtu",
                         "mesh_meshio_mixed_v3.meshb",
                         "mesh_meshio_mixed_v4.meshb",
                         "mesh_meshio_mixed_v3_bigendian.meshb",
                         "mesh_meshio_mixed_v4_bigendian.meshb",
                         "mesh_meshio_mixed_v40_bin.msh",
                         "mesh_gmsh_mixed_v41_swapped.msh",
                         "mesh_meshio_mixed_v40_bin_ulong4.msh"};
  char path[] = "/tmp/minex_kinds_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    FILE *fp = fopen(test_data_path(files[f]), "rb");
    ck_assert_ptr_nonnull(fp);
    char *buf = malloc(1 << 16);
    size_t n = fread(buf, 1, 1 << 16, fp);
    fclose(fp);
    /* cut before the last section's data ends */
    size_t stop = n > 64 ? n - 64 : 0;
    for (size_t len = 0; len < stop; len += 7) {
      write_file(path, buf, len);
      minex_mesh *m = NULL;
      int rc = minex_mesh_read(path, &m);
      ck_assert_msg(rc != MINEX_OK, "%s cut at %zu bytes read fine", files[f],
                    len);
      ck_assert_ptr_null(m);
    }
    free(buf);
  }
  remove(path);
}
END_TEST

/* ------------------------------------------ truncation at a section */

/* A cut of a file: its length, and whether the reader must refuse it (a
 * cut after the last section a reader needs, in a format with no end
 * marker, leaves a complete file: legacy VTK before CELL_DATA, Gmsh after
 * $EndElements). */
typedef struct cut {
  size_t at;
  int must;
} cut;

static int line_is(const char *buf, size_t n, size_t o, const char *key) {
  size_t k = strlen(key);
  return (o == 0 || buf[o - 1] == '\n') && o + k <= n &&
         memcmp(buf + o, key, k) == 0;
}

/* Gmsh, ASCII or binary: the start of every "$Name" line. */
static int gmsh_cuts(const char *buf, size_t n, cut *c) {
  int nc = 0;
  size_t end_elems = n;
  for (size_t o = 0; o < n; o++) {
    if (!line_is(buf, n, o, "$"))
      continue;
    size_t e = o + 1;
    while (e < n && ((buf[e] >= 'A' && buf[e] <= 'Z') ||
                     (buf[e] >= 'a' && buf[e] <= 'z')))
      e++;
    if (e == o + 1 || e >= n || (buf[e] != '\n' && buf[e] != '\r'))
      continue; /* binary data, not a section line */
    if (line_is(buf, n, o, "$EndElements"))
      end_elems = o;
    c[nc++] = (cut){o, 1};
  }
  for (int i = 0; i < nc; i++)
    c[i].must = c[i].at <= end_elems;
  return nc;
}

/* MEDIT ASCII: the start of every keyword line (End's too). */
static int medit_cuts(const char *buf, size_t n, cut *c) {
  int nc = 0;
  for (size_t o = 0; o < n; o++)
    if ((o == 0 || buf[o - 1] == '\n') &&
        ((buf[o] >= 'A' && buf[o] <= 'Z') || (buf[o] >= 'a' && buf[o] <= 'z')))
      c[nc++] = (cut){o, 1};
  return nc;
}

/* MEDIT binary: every keyword, End's too, by the next positions. */
static int meshb_cuts(const char *buf, size_t n, cut *c) {
  const unsigned char *u = (const unsigned char *)buf;
  int swap = u[0] == 0;
  int version = swap ? u[7] : u[4];
  int psize = version >= 3 ? 8 : 4, nc = 0;
  size_t o = 8;
  while (o + 4 + (size_t)psize <= n) {
    c[nc++] = (cut){o, 1};
    uint64_t next = 0;
    for (int b = 0; b < psize; b++)
      next |= (uint64_t)u[o + 4 + (size_t)(swap ? psize - 1 - b : b)]
              << (8 * b);
    if (next == 0)
      break;
    ck_assert(next > o && next <= n);
    o = (size_t)next;
  }
  return nc;
}

/* VTK legacy: the start of every keyword line; a cut before CELL_DATA or
 * POINT_DATA is a complete file, one just after the CELL_DATA line is
 * not. */
static int vtk_cuts(const char *buf, size_t n, cut *c) {
  static const char *const kw[] = {
      "POINTS ",       "CELLS ",     "OFFSETS ",    "CONNECTIVITY ",
      "CELL_TYPES ",   "CELL_DATA ", "POINT_DATA ", "SCALARS ",
      "LOOKUP_TABLE ", "FIELD ",     "METADATA"};
  int nc = 0;
  size_t data = n, after_cd = n;
  for (size_t o = 0; o < n; o++)
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
      if (line_is(buf, n, o, kw[k])) {
        if (data == n && (k == 5 || k == 6))
          data = o;
        if (k == 5) {
          after_cd = o;
          while (buf[after_cd] != '\n')
            after_cd++;
          after_cd++;
        }
        c[nc++] = (cut){o, 1};
      }
  for (int i = 0; i < nc; i++)
    c[i].must = c[i].at < data || c[i].at == after_cd;
  int listed = 0;
  for (int i = 0; i < nc; i++)
    listed |= c[i].at == after_cd;
  if (after_cd < n && !listed)
    c[nc++] = (cut){after_cd, 1};
  return nc;
}

/* VTK XML: the start of every tag before the raw appended data, and in
 * that data each array's offset, the end of the data and the closing
 * tags. */
static int vtu_cuts(const char *buf, size_t n, cut *c) {
  int nc = 0;
  const char *app = strstr(buf, "<AppendedData");
  size_t xml = app ? (size_t)(strchr(strchr(app, '>'), '_') - buf) + 1 : n;
  for (size_t o = 0; o < xml; o++)
    if (buf[o] == '<')
      c[nc++] = (cut){o, 1};
  if (app == NULL)
    return nc;
  for (const char *p = strstr(buf, "offset=\""); p != NULL && p < app;
       p = strstr(p + 1, "offset=\""))
    c[nc++] = (cut){xml + (size_t)strtoull(p + 8, NULL, 10), 1};
  size_t close = n - 15;
  while (memcmp(buf + close, "</AppendedData>", 15) != 0)
    close--;
  c[nc++] = (cut){close, 1};
  while (buf[close - 1] == ' ' || buf[close - 1] == '\n')
    close--;
  c[nc++] = (cut){close, 1}; /* just after the last array's bytes */
  c[nc++] = (cut){(size_t)(strstr(buf + close, "</VTKFile>") - buf), 1};
  return nc;
}

/* Whether message msg names the file at path and where in it:
 * "path:LINE:" or "path: offset N". */
static int names_where(const char *msg, const char *path) {
  const char *p = strstr(msg, path);
  if (p == NULL)
    return 0;
  p += strlen(path);
  return (p[0] == ':' && p[1] >= '0' && p[1] <= '9') ||
         strncmp(p, ": offset ", 9) == 0;
}

/* Each mesh format cut at every section boundary, and the VTK file
 * minex_mesh_write_vtk writes (with its partition): the reader refuses
 * every cut before the end of the last section it needs, naming the file
 * and the line or offset, where before a MEDIT file cut between two
 * sections (no End) was read as the sections before the cut. */
START_TEST(truncated_at_every_section_boundary_is_rejected) {
  static const struct {
    const char *name;
    int (*cuts)(const char *, size_t, cut *);
  } files[] = {
      {"mesh_gmsh_mixed_v2.msh", gmsh_cuts},
      {"mesh_gmsh_mixed_v41.msh", gmsh_cuts},
      {"mesh_gmsh_mixed_part3_v41.msh", gmsh_cuts},
      {"mesh_cube_v40.msh", gmsh_cuts},
      {"mesh_gmsh_mixed_v2_bin.msh", gmsh_cuts},
      {"mesh_gmsh_mixed_v41_bin.msh", gmsh_cuts},
      {"mesh_meshio_mixed_v40_bin.msh", gmsh_cuts},
      {"mesh_meshio_mixed.mesh", medit_cuts},
      {"mesh_two_tets.mesh", medit_cuts},
      {"mesh_square2d.mesh", medit_cuts},
      {"mesh_meshio_mixed_v3.meshb", meshb_cuts},
      {"mesh_meshio_mixed_v4_bigendian.meshb", meshb_cuts},
      {"mesh_gmsh_mixed.vtk", vtk_cuts},
      {"mesh_meshio_mixed.vtk", vtk_cuts},
      {"mesh_vtk9_mixed_legacy.vtk", vtk_cuts},
      {"mesh_gmsh_mixed_bin.vtk", vtk_cuts},
      {"mesh_vtk9_mixed_legacy_bin.vtk", vtk_cuts},
      {NULL, vtk_cuts}, /* minex_mesh_write_vtk's */
      {"mesh_meshio_mixed_ascii.vtu", vtu_cuts},
      {"mesh_meshio_mixed_b64.vtu", vtu_cuts},
      {"mesh_vtk9_mixed_b64inline_zlib.vtu", vtu_cuts},
      {"mesh_vtk9_mixed_raw.vtu", vtu_cuts},
      {"mesh_vtk9_mixed_raw_zlib.vtu", vtu_cuts},
      {"mesh_vtk9_mixed_appended_b64.vtu", vtu_cuts},
  };
  char path[] = "/tmp/minex_kinds_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  char own[] = "/tmp/minex_kinds_XXXXXX";
  fd = mkstemp(own);
  ck_assert_int_ge(fd, 0);
  close(fd);
  minex_mesh *mixed = read_mesh("mesh_gmsh_mixed_v41.msh");
  int32_t part[80];
  for (int e = 0; e < 80; e++)
    part[e] = e % 3;
  ck_assert_int_eq(minex_mesh_write_vtk(mixed, NULL, part, part, own),
                   MINEX_OK);
  minex_mesh_destroy(mixed);
  cut c[512];
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    const char *name = files[f].name ? files[f].name : "(minex's VTK)";
    FILE *fp = fopen(files[f].name ? test_data_path(files[f].name) : own, "rb");
    ck_assert_ptr_nonnull(fp);
    char *buf = malloc(1 << 16);
    size_t n = fread(buf, 1, (1 << 16) - 1, fp);
    fclose(fp);
    ck_assert_uint_lt(n, (1 << 16) - 1);
    buf[n] = '\0';
    int nc = files[f].cuts(buf, n, c), nmust = 0;
    ck_assert_int_le(nc, 512);
    for (int i = 0; i < nc; i++) {
      if (!c[i].must)
        continue;
      nmust++;
      write_file(path, buf, c[i].at);
      minex_mesh *m = (minex_mesh *)1;
      int rc = minex_mesh_read(path, &m);
      ck_assert_msg(rc != MINEX_OK, "%s cut at %zu bytes (of %zu) read fine",
                    name, c[i].at, n);
      ck_assert_ptr_null(m);
      /* a file of nothing or comments only is refused as empty */
      ck_assert_msg(names_where(minex_last_error(), path) ||
                        strstr(minex_last_error(), ": empty file") != NULL,
                    "%s cut at %zu: '%s' names no place in the file", name,
                    c[i].at, minex_last_error());
    }
    ck_assert_msg(nmust >= 3, "%s: %d cuts", name, nmust);
    /* the whole file reads */
    minex_mesh *m = NULL;
    write_file(path, buf, n);
    ck_assert_msg(minex_mesh_read(path, &m) == MINEX_OK, "%s: %s", name,
                  minex_last_error());
    minex_mesh_destroy(m);
    free(buf);
  }
  remove(path);
  remove(own);
}
END_TEST

/* A big-endian .meshb (the little-endian file with every field
 * byte-swapped, tests/data/meshb_swap_endian.py) is the same mesh, bit for
 * bit: node coordinates, element kinds and nodes, in the same order. */
START_TEST(big_endian_meshb_is_the_same_mesh) {
  const char *pairs[][2] = {
      {"mesh_meshio_mixed_v3.meshb", "mesh_meshio_mixed_v3_bigendian.meshb"},
      {"mesh_meshio_mixed_v4.meshb", "mesh_meshio_mixed_v4_bigendian.meshb"}};
  for (int p = 0; p < 2; p++) {
    minex_mesh *le = read_mesh(pairs[p][0]), *be = read_mesh(pairs[p][1]);
    int32_t nn = minex_mesh_nnodes(le), ne = minex_mesh_nelems(le);
    ck_assert_int_gt(nn, 0);
    ck_assert_int_eq(ne, 80);
    ck_assert_int_eq(minex_mesh_nnodes(be), nn);
    ck_assert_int_eq(minex_mesh_nelems(be), ne);
    ck_assert_int_eq(memcmp(minex_mesh_coords(le), minex_mesh_coords(be),
                            sizeof(double) * 3 * (size_t)nn),
                     0);
    for (int32_t e = 0; e < ne; e++) {
      int ka, kb;
      const int32_t *a = minex_mesh_elem_nodes(le, e, &ka),
                    *b = minex_mesh_elem_nodes(be, e, &kb);
      ck_assert_int_eq(minex_mesh_elem_kind(le, e),
                       minex_mesh_elem_kind(be, e));
      ck_assert_int_eq(ka, kb);
      ck_assert_int_eq(memcmp(a, b, sizeof *a * (size_t)ka), 0);
    }
    minex_mesh_destroy(le);
    minex_mesh_destroy(be);
  }
}
END_TEST

/* Offset just after the first occurrence of key in buf[n]. */
static size_t after(const char *buf, size_t n, const char *key) {
  size_t k = strlen(key);
  for (size_t i = 0; i + k <= n; i++)
    if (memcmp(buf + i, key, k) == 0)
      return i + k;
  ck_abort_msg("%s not found", key);
  return 0;
}

static void put_le(char *p, uint64_t v, int size) {
  for (int b = 0; b < size; b++)
    p[b] = (char)(v >> (8 * b) & 0xff);
}

/* Gmsh 4.0 binary with one count or tag changed: each is refused with
 * MINEX_EPARSE naming the offset, before any allocation of the count. */
START_TEST(gmsh40_binary_bad_counts_are_refused) {
  FILE *fp = fopen(test_data_path("mesh_meshio_mixed_v40_bin.msh"), "rb");
  ck_assert_ptr_nonnull(fp);
  char *orig = malloc(1 << 16), *buf = malloc(1 << 16);
  size_t n = fread(orig, 1, 1 << 16, fp);
  fclose(fp);
  size_t nodes = after(orig, n, "$Nodes\n"),
         elems = after(orig, n, "$Elements\n");
  /* $Nodes: numEntityBlocks numNodes (unsigned long), then the block
   * header tagEntity dimEntity typeNodeParam (int) numNodes, then per node
   * tag (int) x y z; $Elements alike with int tags */
  const struct {
    size_t off;
    uint64_t value;
    int size;
    const char *msg;
  } bad[] = {
      {nodes + 8, INT32_MAX, 8, "exceed the"},
      {nodes + 8, UINT64_MAX, 8, "node count"},
      {nodes, UINT64_MAX / 4, 8, "exceed the"},
      {nodes + 28, (uint64_t)1 << 40, 8, "exceeds the 67 announced"},
      {nodes + 28, 66, 8, "node blocks hold 66"},
      {nodes + 36, 0, 4, "tags must be >= 1"},
      {elems + 8, UINT64_MAX / 2, 8, "exceed the"},
      {elems + 28, 81, 8, "exceeds the 80 announced"},
      {elems + 24, 3, 4, ": offset "}, /* read as quads: misaligned */
      {elems + 24, 999, 4, "element type 999"},
  };
  char path[] = "/tmp/minex_kinds_XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  close(fd);
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    memcpy(buf, orig, n);
    put_le(buf + bad[i].off, bad[i].value, bad[i].size);
    write_file(path, buf, n);
    minex_mesh *m = (minex_mesh *)1;
    int rc = minex_mesh_read(path, &m);
    ck_assert_msg(rc != MINEX_OK && strstr(minex_last_error(), bad[i].msg),
                  "case %zu: rc %d, '%s'", i, rc, minex_last_error());
    /* a binary file has offsets, not lines: never "path:0:" */
    ck_assert_msg(strstr(minex_last_error(), ":0:") == NULL &&
                      strstr(minex_last_error(), "offset ") != NULL,
                  "case %zu: '%s'", i, minex_last_error());
    ck_assert_ptr_null(m);
  }
  remove(path);
  free(orig);
  free(buf);
}
END_TEST

int main(void) {
  Suite *s = suite_create("mesh_kinds");
  TCase *tc = tcase_create("small");
  tcase_add_test(tc, every_file_variant_gives_the_same_mixed_mesh);
  tcase_add_test(tc, element_ids_follow_the_files_element_order);
  tcase_add_test(tc, duals_equal_independent_face_matching);
  tcase_add_test(tc, gmsh_partitions_are_read_as_the_old_partition);
  tcase_add_test(tc, vtk_field_partition_follows_the_cell_numbering);
  tcase_add_test(tc, rcb_and_rib_balance_weights_and_targets);
  tcase_add_test(tc, rib_cuts_across_the_principal_axis);
  tcase_add_test(tc, mesh_partition_vtk_round_trip);
  tcase_add_test(tc, vtk_output_cells_are_positive_from_every_file_variant);
  tcase_add_test(tc, every_kind_from_every_format_has_its_volume_in_vtk);
  tcase_add_test(tc, unknown_element_types_are_errors_never_dropped);
  tcase_add_test(tc, truncated_at_every_section_boundary_is_rejected);
  tcase_add_test(tc, big_endian_meshb_is_the_same_mesh);
  tcase_add_test(tc, gmsh40_binary_bad_counts_are_refused);
  /* the truncation test writes and reads some 6,000 files: seconds on a
     loaded machine, more than Check's default 4 s */
  tcase_set_timeout(tc, 60);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 60);
  tcase_add_test(heavy, truncated_binary_files_are_rejected);
  return test_run_suite(s);
}
