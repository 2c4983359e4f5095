/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Repartitions a 4-vertex path (Pwgt 10 each, all on processor 0 of 2)
 * with the installed library; with an argument, also loads that
 * configuration file (schema-validated by the installed library). */
#include <minex.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int64_t xadj[] = {0, 1, 3, 5, 6};
  int32_t adj[] = {1, 0, 2, 1, 3, 2};
  double pwgt[] = {10, 10, 10, 10};
  int32_t old[] = {0, 0, 0, 0}, nw[4];
  minex_graph *g = NULL;
  minex_config *c = NULL;
  minex_metrics m;
  if (minex_graph_create(4, xadj, adj, pwgt, NULL, NULL, &g) != MINEX_OK ||
      minex_config_create_uniform(2, &c) != MINEX_OK ||
      minex_repartition(g, c, old, NULL, nw, &m) != MINEX_OK) {
    fprintf(stderr, "consumer: %s\n", minex_last_error());
    return 1;
  }
  printf("consumer: MinEX %s, MaxQwgt %g, schema %s\n", minex_version(),
         m.max_qwgt,
         minex_config_schema_path() ? minex_config_schema_path()
                                    : "(built-in)");
  if (strcmp(minex_version(), MINEX_VERSION_STRING) != 0) {
    fprintf(stderr, "consumer: library %s, headers %s\n", minex_version(),
            MINEX_VERSION_STRING);
    return 1;
  }
  if (argc > 1) {
    minex_config *f = NULL;
    if (minex_config_load(argv[1], &f) != MINEX_OK) {
      fprintf(stderr, "consumer: %s\n", minex_last_error());
      return 1;
    }
    printf("consumer: %s: %d clusters, %d processors\n", argv[1],
           (int)minex_config_nclusters(f), (int)minex_config_nprocs(f));
    minex_config_destroy(f);
  }
  minex_graph_destroy(g);
  minex_config_destroy(c);
  /* old: 40 on one processor; two vertices each side: 20 + 1 + 2 */
  return m.max_qwgt < 40 ? 0 : 1;
}
