/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The graph test_mpi and test_dist repartition, the same on every rank,
 * and how its vertices are spread over the ranks. Included once by each
 * program, after mpi_check.h (rank, size). */
#ifndef MINEX_TEST_MPI_FIXTURE_H
#define MINEX_TEST_MPI_FIXTURE_H

#include "minex.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole graph: a refined-ball tet box. */
typedef struct fixture {
  minex_graph *g;
  minex_mesh *mesh;
  int32_t n;
} fixture;

static void fixture_make(fixture *f, int nx) {
  memset(f, 0, sizeof *f);
  minex_ball ball = {{0.3, 0.4, 0.5}, 0.3, 8, 4};
  if (minex_gen_box(nx, nx, nx, &f->mesh) != MINEX_OK ||
      minex_mesh_dual_ball(f->mesh, &ball, &f->g) != MINEX_OK) {
    fprintf(stderr, "rank %d: fixture: %s\n", rank, minex_last_error());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  f->n = minex_graph_nvtxs(f->g);
}

static void fixture_free(fixture *f) {
  minex_graph_destroy(f->g);
  minex_mesh_destroy(f->mesh);
}

/* MINEX_TEST_QUICK (CI's valgrind stage), or MINEX_TEST_QUICK_RANKS=N on N
 * ranks and more (CI's Release stage: the in-process ranks of
 * tests/dist/test_inproc run the distributed algorithm on 1-8 ranks
 * there): the representative subset of a program's cases. */
static int quick_mode(void) {
  const char *r = getenv("MINEX_TEST_QUICK_RANKS");
  return getenv("MINEX_TEST_QUICK") != NULL ||
         (r != NULL && atoi(r) > 0 && size >= atoi(r));
}

/* vtxdist: even, or rank 1 without vertices (size > 1); global ids start
 * at base. */
static void make_vtxdist(int64_t *vd, int64_t n, int empty1, int64_t base) {
  int holders = empty1 && size > 1 ? size - 1 : size, h = 0;
  vd[0] = base;
  for (int r = 0; r < size; r++) {
    if (empty1 && size > 1 && r == 1) {
      vd[r + 1] = vd[r];
      continue;
    }
    h++;
    vd[r + 1] = base + n * h / holders;
  }
}

#endif
