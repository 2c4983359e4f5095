/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Soak test of the public API: N successive rounds of what an adaptive
 * application does between adaptations (read the configuration XML and the
 * graph, repartition, evaluate, write the partition), each round with all
 * objects created and destroyed. Prints the resident memory and the open
 * descriptors after the first round and after the last, so that a leak of
 * memory or of file descriptors shows as growth
 * (docs/reference/reliability.md). Usage: bench_soak [--rounds N] [--elements
 * E] [--config CFG.xml] */
#include <minex.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* VmRSS of this process in KiB, -1 when /proc is unreadable. */
static long rss_kib(void) {
  FILE *fp = fopen("/proc/self/status", "r");
  if (fp == NULL)
    return -1;
  char line[256];
  long kib = -1;
  while (fgets(line, sizeof line, fp))
    if (strncmp(line, "VmRSS:", 6) == 0)
      kib = strtol(line + 6, NULL, 10);
  fclose(fp);
  return kib;
}

/* Open descriptors of this process (entries of /proc/self/fd, less the one
 * opendir itself holds). */
static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (d == NULL)
    return -1;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (e->d_name[0] != '.')
      n++;
  closedir(d);
  return n - 1;
}

static int fail(const char *what, int rc) {
  fprintf(stderr, "bench_soak: %s: %s (%s)\n", what, minex_last_error(),
          minex_err_name(rc));
  return 1;
}

int main(int argc, char **argv) {
  long rounds = 1000, elements = 20000;
  const char *cfg_path = MINEX_SOURCE_DIR "/docs/examples/hetero4.xml";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = strtol(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--elements") == 0 && i + 1 < argc)
      elements = strtol(argv[++i], NULL, 10);
    else if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
      cfg_path = argv[++i];
    else {
      fprintf(stderr, "Usage: bench_soak [--rounds N] [--elements E] "
                      "[--config CFG.xml]\n");
      return 2;
    }
  }
  if (rounds < 1 || elements < 6)
    return 2;
  char dir[] = "/tmp/minex_soak_XXXXXX";
  if (mkdtemp(dir) == NULL)
    return 1;
  char gpath[64], ppath[64], npath[64];
  snprintf(gpath, sizeof gpath, "%s/g.graph", dir);
  snprintf(ppath, sizeof ppath, "%s/old.part", dir);
  snprintf(npath, sizeof npath, "%s/new.part", dir);

  /* the inputs, written once: a refined box and its RCB partition */
  minex_config *cfg = NULL;
  int rc = minex_config_load(cfg_path, &cfg);
  if (rc != MINEX_OK)
    return fail("configuration", rc);
  int32_t P = minex_config_nprocs(cfg);
  minex_config_destroy(cfg);
  minex_mesh *mesh = NULL;
  minex_graph *g = NULL;
  int32_t side = 1;
  while ((int64_t)6 * (side + 1) * (side + 1) * (side + 1) <= elements)
    side++;
  minex_ball ball = {{0.3, 0.5, 0.5}, 0.26, 8.0, 4.0};
  if ((rc = minex_gen_box(side, side, side, &mesh)) != MINEX_OK ||
      (rc = minex_mesh_dual_ball(mesh, &ball, &g)) != MINEX_OK)
    return fail("workload", rc);
  int32_t n = minex_graph_nvtxs(g);
  int32_t *old = malloc(sizeof *old * (size_t)n);
  if (old == NULL || (rc = minex_mesh_partition_rcb(mesh, P, old)) ||
      (rc = minex_graph_write_metis(g, gpath)) ||
      (rc = minex_part_write(ppath, n, old)))
    return fail("inputs", rc);
  free(old);
  minex_graph_destroy(g);
  minex_mesh_destroy(mesh);

  long rss_first = 0, rss_last = 0;
  int fds_before = open_fds(), fds_first = 0, fds_last = 0;
  double max_first = 0, max_last = 0;
  for (long r = 0; r < rounds; r++) {
    minex_graph *gr = NULL;
    minex_config *cf = NULL;
    int32_t *op = NULL, *np = NULL;
    minex_metrics m, e;
    minex_options opt;
    minex_options_init(&opt);
    opt.seed = (uint64_t)(r % 7) + 1;
    if ((rc = minex_config_load(cfg_path, &cf)) ||
        (rc = minex_graph_read_metis(gpath, &gr)) ||
        (rc = minex_part_read(ppath, minex_graph_nvtxs(gr),
                              minex_config_nprocs(cf), &op)))
      return fail("read", rc);
    np = malloc(sizeof *np * (size_t)minex_graph_nvtxs(gr));
    if (np == NULL)
      return 1;
    if ((rc = minex_repartition(gr, cf, op, &opt, np, &m)) ||
        (rc = minex_evaluate(gr, cf, op, np, &opt, &e)) ||
        (rc = minex_part_write(npath, minex_graph_nvtxs(gr), np)))
      return fail("repartition", rc);
    if (e.max_qwgt != m.max_qwgt) {
      fprintf(stderr, "bench_soak: round %ld: evaluate %.17g != %.17g\n", r,
              e.max_qwgt, m.max_qwgt);
      return 1;
    }
    free(np);
    free(op);
    minex_graph_destroy(gr);
    minex_config_destroy(cf);
    if (r == 0) {
      rss_first = rss_kib();
      fds_first = open_fds();
      max_first = m.max_qwgt;
    }
    rss_last = rss_kib();
    fds_last = open_fds();
    max_last = m.max_qwgt;
  }
  unlink(gpath);
  unlink(ppath);
  unlink(npath);
  rmdir(dir);
  printf("bench_soak: %ld rounds of config load + graph read + partition "
         "read + repartition + evaluate + partition write, %" PRId32
         " vertices, P = %" PRId32 "\n",
         rounds, n, P);
  printf("bench: soak rounds=%ld rss_first_kib=%ld rss_last_kib=%ld "
         "fds_before=%d fds_first=%d fds_last=%d max_qwgt_first=%.6g "
         "max_qwgt_last=%.6g\n",
         rounds, rss_first, rss_last, fds_before, fds_first, fds_last,
         max_first, max_last);
  return fds_last == fds_before ? 0 : 1;
}
