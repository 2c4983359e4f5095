/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The golden corpus of minex_mpi_repartition under mpiexec -n 1, 2, 3, 4
 * (ctest test_golden_mpi_nN): every case of golden_mpi_cases
 * (tests/util/golden.c), the graph spread over the ranks in even blocks of
 * global ids, gives on every rank count the line recorded in
 * tests/data/golden/mpi.txt bit for bit: the same partition (the FNV-1a
 * hash of the owners gathered in global id order) and the same metrics.
 * The MPI layer's entries are its own (the default options resolve rounds
 * AUTO to ON, and stage 2 adds its sums per old part), kept apart from the
 * serial ones of tests/data/golden/serial.txt.
 *
 * A change of results must be deliberate: regenerate the file with
 *
 *   mpiexec.mpich -n 1 build/tests/mpi/test_golden_mpi --write \
 *     tests/data/golden/mpi.txt
 *
 * then run ctest -R golden_mpi, which checks it on 1 to 4 ranks.
 * MINEX_GOLDEN_QUICK=1 (CI's Asan stage): the cases of 4elt only.
 * A plain MPI program: rank 0 prints the first case that differs, field by
 * field, and every rank exits non-zero when any case failed. */
#include "golden.h"
#include "minex_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN_MPI MINEX_TEST_DATA "/golden/mpi.txt"

static int rank, size;

/* 1 when s is the same string on every rank. */
static int same_everywhere(const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL, lo, hi;
  for (const char *p = s; *p; p++) {
    h ^= (unsigned char)*p;
    h *= 0x100000001b3ULL;
  }
  MPI_Allreduce(&h, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&h, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/* Runs case c; on success every rank holds its line in buf. Collective;
 * returns the (collective) code, with the message in buf on failure. */
static int run_case(const golden_case *c, const golden_problem *p,
                    const golden_rows *r, int32_t *newp, int32_t *all,
                    int *counts, int *displs, char *buf, size_t len) {
  char id[128];
  minex_config *cfg;
  minex_options opt;
  int rc = golden_case_setup(c, p, id, sizeof id, &cfg, &opt, buf, len);
  if (rc != MINEX_OK)
    return rc;
  minex_metrics m;
  rc = minex_mpi_repartition(r->vtxdist, r->xadj, r->adjncy, r->pwgt, r->rwgt,
                             r->cwgt, r->old, cfg, &opt, newp, &m,
                             MPI_COMM_WORLD);
  minex_config_destroy(cfg);
  if (rc != MINEX_OK) {
    snprintf(buf, len, "%s: minex_mpi_repartition on %d ranks: %s (%s)", id,
             size, minex_last_error(), minex_err_name(rc));
    return rc;
  }
  MPI_Allgatherv(newp, (int)r->nlocal, MPI_INT32_T, all, counts, displs,
                 MPI_INT32_T, MPI_COMM_WORLD);
  golden_format(buf, len, id, all, minex_graph_nvtxs(p->graph), &m);
  return MINEX_OK;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *write_path = NULL;
  if (argc == 3 && strcmp(argv[1], "--write") == 0) {
    write_path = argv[2];
  } else if (argc != 1) {
    if (rank == 0)
      fprintf(stderr, "usage: test_golden_mpi [--write FILE]\n");
    MPI_Finalize();
    return 1;
  }
  int quick = write_path == NULL && getenv("MINEX_GOLDEN_QUICK") != NULL;
  int fails = 0, bad = 0, runs = 0;
  char err[512];
  golden_file gf;
  memset(&gf, 0, sizeof gf);
  FILE *out = NULL;
  char tmp[4096];
  if (write_path != NULL && rank == 0) {
    snprintf(tmp, sizeof tmp, "%s.tmp", write_path);
    if ((out = fopen(tmp, "w")) == NULL) {
      fprintf(stderr, "test_golden_mpi: cannot write %s\n", tmp);
      fails++;
    } else {
      fprintf(out, "# Golden corpus of minex_mpi_repartition "
                   "(tests/mpi/test_golden_mpi.c, cases in\n"
                   "# tests/util/golden.c); every line holds on 1, 2, 3 and 4 "
                   "ranks.\n"
                   "# Regenerate deliberately: mpiexec.mpich -n 1 "
                   "build/tests/mpi/test_golden_mpi --write "
                   "tests/data/golden/mpi.txt\n"
                   "# id fnv=FNV-1a-64(new_part) then minex_metrics fields "
                   "(doubles in %%a)\n");
    }
  } else if (write_path == NULL &&
             golden_file_read(GOLDEN_MPI, &gf, err, sizeof err) != MINEX_OK) {
    if (rank == 0)
      fprintf(stderr, "test_golden_mpi: %s\n", err);
    fails++;
  }
  /* the file holds exactly the cases: one added or removed regenerates it */
  if (write_path == NULL && fails == 0 && gf.n != golden_nmpi_cases) {
    if (rank == 0)
      fprintf(stderr, "test_golden_mpi: %s holds %d entries for %d cases\n",
              GOLDEN_MPI, gf.n, golden_nmpi_cases);
    fails++;
  }
  /* the loop below is collective: every rank goes on or none */
  int set_up = 0;
  MPI_Allreduce(&fails, &set_up, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (set_up > 0 && fails == 0)
    fails++;
  static char line[GOLDEN_LINE_MAX], diff[8192];
  int *counts = malloc(sizeof *counts * (size_t)size);
  int *displs = malloc(sizeof *displs * (size_t)size);
  for (int in = 0; in < GOLDEN_NINPUTS && set_up == 0; in++) {
    int any = 0;
    for (int i = 0; i < golden_nmpi_cases; i++)
      any |= (int)golden_mpi_cases[i].input == in;
    if (!any)
      continue;
    if (quick && in != GOLDEN_4ELT) {
      if (rank == 0)
        printf("golden_mpi %s: left out by MINEX_GOLDEN_QUICK\n",
               golden_input_name((golden_input)in));
      continue;
    }
    double t0 = MPI_Wtime();
    golden_problem p;
    golden_rows r;
    memset(&r, 0, sizeof r);
    int rc =
        golden_load((golden_input)in, MINEX_REPO_DATA, &p, err, sizeof err);
    if (rc == MINEX_OK &&
        (rc = golden_rows_make(&p, rank, size, &r)) != MINEX_OK)
      snprintf(err, sizeof err, "%s: out of memory (rows)",
               golden_input_name((golden_input)in));
    int all_ok = 0, ok = rc == MINEX_OK;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok) {
      fprintf(stderr, "test_golden_mpi: rank %d: %s\n", rank,
              rc == MINEX_OK ? "another rank failed to load" : err);
      fails++;
      golden_rows_free(&r);
      golden_problem_free(&p);
      break;
    }
    int32_t n = minex_graph_nvtxs(p.graph);
    for (int q = 0; q < size; q++) {
      displs[q] = (int)r.vtxdist[q];
      counts[q] = (int)(r.vtxdist[q + 1] - r.vtxdist[q]);
    }
    int32_t *newp = malloc(sizeof *newp * ((size_t)r.nlocal + 1));
    int32_t *all = malloc(sizeof *all * ((size_t)n + 1));
    int ncases = 0;
    for (int i = 0; i < golden_nmpi_cases; i++) {
      const golden_case *c = &golden_mpi_cases[i];
      if ((int)c->input != in)
        continue;
      char id[128];
      golden_case_id(c, id, sizeof id);
      ncases++;
      runs++;
      rc = run_case(c, &p, &r, newp, all, counts, displs, line, sizeof line);
      if (rc != MINEX_OK) {
        if (rank == 0)
          fprintf(stderr, "test_golden_mpi: %s\n", line);
        fails++;
        continue;
      }
      if (!same_everywhere(line)) {
        fprintf(stderr,
                "test_golden_mpi: rank %d: %s: line differs between "
                "ranks: %s\n",
                rank, id, line);
        fails++;
        continue;
      }
      if (out != NULL) {
        fprintf(out, "%s\n", line);
        continue;
      }
      if (write_path != NULL)
        continue;
      const char *want = golden_file_find(&gf, id);
      if (want == NULL) {
        if (rank == 0)
          fprintf(stderr,
                  "test_golden_mpi: %s: no entry in %s: regenerate "
                  "it (--write)\n",
                  id, GOLDEN_MPI);
        fails++;
      } else if (strcmp(want, line) != 0) {
        int nd = golden_diff(want, line, diff, sizeof diff);
        if (rank == 0 && bad == 0)
          fprintf(stderr,
                  "test_golden_mpi: %s on %d ranks differs from %s in %d "
                  "fields:\n%s",
                  id, size, GOLDEN_MPI, nd, diff);
        else if (rank == 0)
          fprintf(stderr,
                  "test_golden_mpi: %s on %d ranks differs too (%d fields)\n",
                  id, size, nd);
        bad++;
        fails++;
      }
    }
    if (rank == 0)
      printf("golden_mpi %s: %d cases on %d ranks in %.2f s\n",
             golden_input_name((golden_input)in), ncases, size,
             MPI_Wtime() - t0);
    free(newp);
    free(all);
    golden_rows_free(&r);
    golden_problem_free(&p);
  }
  free(counts);
  free(displs);
  golden_file_free(&gf);
  if (out != NULL) {
    if (fclose(out) != 0 || fails > 0 || rename(tmp, write_path) != 0) {
      fprintf(stderr, "test_golden_mpi: %s not written\n", write_path);
      remove(tmp);
      fails++;
    } else {
      printf("test_golden_mpi: %d cases written to %s\n", runs, write_path);
    }
  }
  int total = 0;
  MPI_Allreduce(&fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && write_path == NULL)
    printf("test_golden_mpi on %d ranks: %s (%d runs, %d differ from the "
           "golden file)\n",
           size, total == 0 ? "passed" : "FAILED", runs, bad);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
