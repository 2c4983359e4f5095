/* SPDX-License-Identifier: GPL-3.0-or-later */
/* From an MPI code: each rank holds a band of rows of a 200 x 200 grid
 * graph, and owns them (old = NULL: every vertex on its rank). The machine
 * has one processor per rank, the last one at half speed; MinEX moves work
 * off it. Built with libminex_mpi; run with mpiexec.mpich -n 3 (any
 * number of ranks works). */
#include <minex_mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int64_t W = 200, H = 200; /* vertex id = row * W + column */
  int64_t *vtxdist = malloc(sizeof *vtxdist * (size_t)(size + 1));
  for (int r = 0; r <= size; r++)
    vtxdist[r] = H * r / size * W; /* whole rows per rank */
  int64_t first = vtxdist[rank], n = vtxdist[rank + 1] - first;
  int64_t *xadj = malloc(sizeof *xadj * (size_t)(n + 1));
  int64_t *adjncy = malloc(sizeof *adjncy * (size_t)(4 * n + 1));
  int32_t *part = malloc(sizeof *part * (size_t)(n + 1));
  xadj[0] = 0;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = first + i, row = v / W, col = v % W, d = xadj[i];
    if (row > 0)
      adjncy[d++] = v - W;
    if (col > 0)
      adjncy[d++] = v - 1;
    if (col < W - 1)
      adjncy[d++] = v + 1;
    if (row < H - 1)
      adjncy[d++] = v + W;
    xadj[i + 1] = d;
  }
  /* one cluster per speed: size-1 processors at 1, one at slowdown 2 */
  int32_t nprocs[2] = {size - 1, 1};
  double proc[2] = {1.0, 2.0}, conn[4] = {1, 1, 1, 1};
  minex_config *cfg = NULL;
  minex_metrics m;
  int rc = minex_config_create(2, nprocs, proc, conn, &cfg);
  if (rc == MINEX_OK)
    rc = minex_mpi_repartition(vtxdist, xadj, adjncy, NULL, NULL, NULL, NULL,
                               cfg, NULL, part, &m, MPI_COMM_WORLD);
  if (rc != MINEX_OK) { /* every rank gets the same code and message */
    if (rank == 0)
      fprintf(stderr, "mpi_quickstart: %s\n", minex_last_error());
  } else {
    int64_t kept = 0;
    for (int64_t i = 0; i < n; i++)
      kept += part[i] == rank;
    printf("rank %d: %lld of %lld vertices stay\n", rank, (long long)kept,
           (long long)n);
    if (rank == 0)
      printf("MaxQwgt %.0f (lower bound %.0f), %lld vertices moved\n",
             m.max_qwgt, m.lower_bound, (long long)m.moved);
  }
  minex_config_destroy(cfg);
  free(vtxdist);
  free(xadj);
  free(adjncy);
  free(part);
  MPI_Finalize();
  return rc == MINEX_OK ? 0 : 1;
}
