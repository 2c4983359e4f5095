/* SPDX-License-Identifier: GPL-3.0-or-later */
/* MinEX quickstart: weight a refined ball in a generated tetrahedral box,
 * take an RCB partition made before refinement, repartition it for 4
 * clusters of 16 processors (Proc 1,1,2,2; Conn 1 inside, 10 between). */
#include <minex.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  minex_mesh *mesh = NULL;
  minex_graph *graph = NULL;
  minex_config *config = NULL;
  minex_ball ball = {{0.3, 0.5, 0.5}, 0.26, 8.0, 4.0};
  int32_t np[4] = {16, 16, 16, 16};
  double proc[4] = {1, 1, 2, 2}, conn[16];
  for (int i = 0; i < 16; i++)
    conn[i] = i % 5 == 0 ? 1.0 : 10.0; /* diagonal of the 4x4 matrix: 1 */
  if (minex_gen_box(16, 16, 16, &mesh) != MINEX_OK ||
      minex_mesh_dual_ball(mesh, &ball, &graph) != MINEX_OK ||
      minex_config_create(4, np, proc, conn, &config) != MINEX_OK) {
    fprintf(stderr, "quickstart: %s\n", minex_last_error());
    return 1;
  }
  int32_t n = minex_graph_nvtxs(graph);
  int32_t *old = malloc(sizeof *old * n), *new_part = malloc(sizeof *old * n);
  minex_options opt;
  minex_options_init(&opt); /* ThroTTle inf, alpha 0, receiver pays */
  minex_metrics before, after;
  int rc = minex_mesh_partition_rcb(mesh, 64, old);
  if (rc == MINEX_OK)
    rc = minex_evaluate(graph, config, old, old, &opt, &before);
  if (rc == MINEX_OK)
    rc = minex_repartition(graph, config, old, &opt, new_part, &after);
  if (rc != MINEX_OK)
    fprintf(stderr, "quickstart: %s\n", minex_last_error());
  else
    printf("%d elements: MaxQwgt %.0f -> %.0f (lower bound %.0f), "
           "%lld moved, %.3f s\n",
           (int)n, before.max_qwgt, after.max_qwgt, after.lower_bound,
           (long long)after.moved, after.seconds);
  free(old);
  free(new_part);
  minex_config_destroy(config);
  minex_graph_destroy(graph);
  minex_mesh_destroy(mesh);
  return rc == MINEX_OK ? 0 : 1;
}
