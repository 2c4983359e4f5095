/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The golden corpus of minex_repartition: every case of golden_serial_cases
 * (tests/util/golden.c: the inputs of data/ on several machines under
 * several option sets), each under options.nthreads 1, 2, 4 and 8, gives
 * the line recorded in tests/data/golden/serial.txt bit for bit: the same
 * partition (its 64-bit FNV-1a hash) and the same metrics (doubles in %a).
 * A difference fails the input's test and prints the first case that
 * differs, field by field, golden value against the new one.
 *
 * The file records the behaviour of the code that wrote it. A change of
 * results must be deliberate: regenerate the file with
 *
 *   build/tests/driver/test_golden --write tests/data/golden/serial.txt
 *
 * which runs every case under every thread count and writes nothing when
 * two thread counts disagree; then commit it with the change.
 *
 * MINEX_GOLDEN_QUICK=1 (CI's Asan stage): 2 threads only, on 4elt and
 * cube_mesh. The cases run in the "heavy" tcase (tagged slow: not under
 * CI's valgrind). */
#include "golden.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GOLDEN_SERIAL MINEX_TEST_DATA "/golden/serial.txt"

static const int32_t all_threads[] = {1, 2, 4, 8};
static const int32_t quick_threads[] = {2};

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Runs case c on p with nthreads and formats its line into buf. */
static int run_case(const golden_case *c, const golden_problem *p,
                    int32_t nthreads, int32_t *part, char *buf, size_t len) {
  char id[128];
  minex_config *cfg;
  minex_options opt;
  int rc = golden_case_setup(c, p, id, sizeof id, &cfg, &opt, buf, len);
  if (rc != MINEX_OK)
    return rc;
  opt.nthreads = nthreads;
  minex_metrics m;
  rc = minex_repartition(p->graph, cfg, p->old, &opt, part, &m);
  if (rc == MINEX_OK)
    golden_format(buf, len, id, part, minex_graph_nvtxs(p->graph), &m);
  else
    snprintf(buf, len, "%s: minex_repartition (nthreads %d): %s (%s)", id,
             (int)nthreads, minex_last_error(), minex_err_name(rc));
  minex_config_destroy(cfg);
  return rc;
}

/* Every case of input in against the golden file. */
static void check_input(golden_input in) {
  int quick = getenv("MINEX_GOLDEN_QUICK") != NULL;
  const int32_t *threads = quick ? quick_threads : all_threads;
  int nthr = quick ? 1 : (int)(sizeof all_threads / sizeof *all_threads);
  if (quick && (in == GOLDEN_PERFUSION || in == GOLDEN_CUBE_CASE)) {
    /* every option set runs on 4elt, the large mesh's paths on cube_mesh */
    printf("golden %s: left out by MINEX_GOLDEN_QUICK\n",
           golden_input_name(in));
    return;
  }
  char err[512];
  golden_file gf;
  ck_assert_msg(golden_file_read(GOLDEN_SERIAL, &gf, err, sizeof err) ==
                    MINEX_OK,
                "%s", err);
  golden_problem p;
  ck_assert_msg(golden_load(in, MINEX_REPO_DATA, &p, err, sizeof err) ==
                    MINEX_OK,
                "%s", err);
  int32_t *part =
      malloc(sizeof *part * ((size_t)minex_graph_nvtxs(p.graph) + 1));
  static char line[GOLDEN_LINE_MAX], ref[GOLDEN_LINE_MAX], diff[8192],
      first[256];
  int runs = 0, bad = 0, ncases = 0, split = 0;
  double t0 = now();
  snprintf(first, sizeof first, "none");
  for (int i = 0; i < golden_nserial_cases; i++) {
    const golden_case *c = &golden_serial_cases[i];
    if (c->input != in)
      continue;
    ncases++;
    char id[128];
    golden_case_id(c, id, sizeof id);
    const char *want = golden_file_find(&gf, id);
    ck_assert_msg(want != NULL,
                  "%s: no entry in %s: regenerate it (test_golden --write)", id,
                  GOLDEN_SERIAL);
    for (int t = 0; t < nthr; t++) {
      int rc = run_case(c, &p, threads[t], part, line, sizeof line);
      ck_assert_msg(rc == MINEX_OK, "%s", line);
      runs++;
      /* whatever the golden file says, thread counts must agree */
      if (t == 0) {
        memcpy(ref, line, sizeof ref);
      } else if (strcmp(ref, line) != 0) {
        golden_diff(ref, line, diff, sizeof diff);
        fprintf(stderr,
                "golden: %s: nthreads %d differs from nthreads %d (the "
                "result depends on the thread count):\n%s",
                id, (int)threads[t], (int)threads[0], diff);
        split++;
      }
      if (strcmp(want, line) == 0)
        continue;
      int nd = golden_diff(want, line, diff, sizeof diff);
      if (bad++ == 0) {
        snprintf(first, sizeof first, "%s under nthreads %d (%d fields)", id,
                 (int)threads[t], nd);
        fprintf(stderr,
                "golden: %s under nthreads %d differs from %s in %d "
                "fields:\n%s",
                id, (int)threads[t], GOLDEN_SERIAL, nd, diff);
      } else {
        fprintf(stderr,
                "golden: %s under nthreads %d differs too (%d fields)\n", id,
                (int)threads[t], nd);
      }
    }
  }
  printf("golden %s: %d cases, %d runs (nthreads", golden_input_name(in),
         ncases, runs);
  for (int t = 0; t < nthr; t++)
    printf(" %d", (int)threads[t]);
  printf(") in %.2f s, %d differ, %d thread-count splits\n", now() - t0, bad,
         split);
  fflush(stdout);
  free(part);
  golden_problem_free(&p);
  golden_file_free(&gf);
  ck_assert_msg(bad == 0 && split == 0,
                "%d of %d runs differ from the golden file (first: %s), %d "
                "from their case's first thread count (details on stderr)",
                bad, runs, first, split);
}

START_TEST(input_gives_the_golden_results) {
  check_input((golden_input)_i);
}
END_TEST

/* The keys of a line, without their values. */
static void keys_of(const char *line, char *out, size_t len) {
  size_t used = 0;
  out[0] = '\0';
  for (const char *p = strchr(line, ' '); p != NULL; p = strchr(p + 1, ' ')) {
    size_t k = strcspn(p + 1, "=");
    int w = snprintf(out + used, len - used, "%.*s ", (int)k, p + 1);
    if (w > 0 && (size_t)w < len - used)
      used += (size_t)w;
  }
}

/* The file holds exactly the cases, each line with the fields
 * golden_format writes: a case added or removed must regenerate it. */
START_TEST(golden_file_holds_exactly_the_cases) {
  char err[512];
  golden_file gf;
  ck_assert_msg(golden_file_read(GOLDEN_SERIAL, &gf, err, sizeof err) ==
                    MINEX_OK,
                "%s", err);
  ck_assert_int_eq(gf.n, golden_nserial_cases);
  minex_metrics zero;
  memset(&zero, 0, sizeof zero);
  int32_t none = 0;
  static char fmt[GOLDEN_LINE_MAX], keys[GOLDEN_LINE_MAX],
      want[GOLDEN_LINE_MAX];
  golden_format(fmt, sizeof fmt, "x", &none, 1, &zero);
  keys_of(fmt, want, sizeof want);
  for (int i = 0; i < golden_nserial_cases; i++) {
    char id[128];
    golden_case_id(&golden_serial_cases[i], id, sizeof id);
    const char *line = golden_file_find(&gf, id);
    ck_assert_msg(line != NULL, "%s: no entry in %s", id, GOLDEN_SERIAL);
    keys_of(line, keys, sizeof keys);
    ck_assert_msg(strcmp(keys, want) == 0, "%s: fields '%s', want '%s'", id,
                  keys, want);
  }
  golden_file_free(&gf);
}
END_TEST

START_TEST(fnv1a_and_diff_behave) {
  ck_assert_uint_eq(golden_fnv1a(NULL, 0), 0xcbf29ce484222325ULL);
  int32_t zero = 0, three[3] = {1, -1, 70000};
  ck_assert_uint_eq(golden_fnv1a(&zero, 1), 0x4d25767f9dce13f5ULL);
  ck_assert_uint_eq(golden_fnv1a(three, 3), 0x5fa80fa370549342ULL);
  char out[1024];
  ck_assert_int_eq(
      golden_diff("a fnv=1 x=0x1p+0", "a fnv=1 x=0x1p+0", out, sizeof out), 0);
  ck_assert_int_eq(golden_diff("a fnv=1 x=0x1p+0 y=3", "a fnv=2 x=0x1.8p+0 z=4",
                               out, sizeof out),
                   4);
  ck_assert_ptr_nonnull(
      strstr(out, "x: golden 0x1p+0 (1), now 0x1.8p+0 (1.5)"));
  ck_assert_ptr_nonnull(strstr(out, "y: golden 3, now (absent)"));
  ck_assert_ptr_nonnull(strstr(out, "z: golden (absent), now 4"));
}
END_TEST

/* --write FILE: every case under every thread count, written only when
 * the thread counts agree (atomically: FILE.tmp, then renamed). */
static int write_golden(const char *path) {
  char tmp[4096], err[512];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *fp = fopen(tmp, "w");
  if (fp == NULL) {
    fprintf(stderr, "test_golden: cannot write %s\n", tmp);
    return EXIT_FAILURE;
  }
  fprintf(fp,
          "# Golden corpus of minex_repartition (tests/driver/test_golden.c,\n"
          "# cases in tests/util/golden.c); every line holds for nthreads 1, "
          "2, 4 and 8.\n"
          "# Regenerate deliberately: build/tests/driver/test_golden --write "
          "tests/data/golden/serial.txt\n"
          "# id fnv=FNV-1a-64(new_part) then minex_metrics fields (doubles "
          "in %%a)\n");
  static char ref[GOLDEN_LINE_MAX], line[GOLDEN_LINE_MAX];
  int status = EXIT_SUCCESS;
  for (int in = 0; in < GOLDEN_NINPUTS && status == EXIT_SUCCESS; in++) {
    golden_problem p;
    if (golden_load((golden_input)in, MINEX_REPO_DATA, &p, err, sizeof err) !=
        MINEX_OK) {
      fprintf(stderr, "test_golden: %s\n", err);
      status = EXIT_FAILURE;
      break;
    }
    int32_t *part =
        malloc(sizeof *part * ((size_t)minex_graph_nvtxs(p.graph) + 1));
    for (int i = 0; i < golden_nserial_cases && status == EXIT_SUCCESS; i++) {
      const golden_case *c = &golden_serial_cases[i];
      if ((int)c->input != in)
        continue;
      for (size_t t = 0; t < sizeof all_threads / sizeof *all_threads; t++) {
        char *out = t == 0 ? ref : line;
        if (run_case(c, &p, all_threads[t], part, out, GOLDEN_LINE_MAX) !=
            MINEX_OK) {
          fprintf(stderr, "test_golden: %s\n", out);
          status = EXIT_FAILURE;
          break;
        }
        if (t > 0 && strcmp(ref, line) != 0) {
          static char diff[8192];
          golden_diff(ref, line, diff, sizeof diff);
          fprintf(stderr,
                  "test_golden: nthreads %d differs from nthreads 1 (a "
                  "library bug; nothing written):\n%s\n%s",
                  (int)all_threads[t], ref, diff);
          status = EXIT_FAILURE;
          break;
        }
      }
      if (status == EXIT_SUCCESS)
        fprintf(fp, "%s\n", ref);
    }
    free(part);
    golden_problem_free(&p);
  }
  if (fclose(fp) != 0)
    status = EXIT_FAILURE;
  if (status == EXIT_SUCCESS && rename(tmp, path) != 0) {
    fprintf(stderr, "test_golden: cannot rename %s to %s\n", tmp, path);
    status = EXIT_FAILURE;
  }
  if (status != EXIT_SUCCESS)
    remove(tmp);
  else
    printf("test_golden: %d cases written to %s\n", golden_nserial_cases, path);
  return status;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--write") == 0)
    return write_golden(argv[2]);
  if (argc != 1) {
    fprintf(stderr, "usage: test_golden [--write FILE]\n");
    return EXIT_FAILURE;
  }
  Suite *s = suite_create("golden");
  TCase *tc = tcase_create("golden");
  tcase_add_test(tc, golden_file_holds_exactly_the_cases);
  tcase_add_test(tc, fnv1a_and_diff_behave);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 600);
  tcase_add_loop_test(heavy, input_gives_the_golden_results, 0, GOLDEN_NINPUTS);
  return test_run_suite(s);
}
