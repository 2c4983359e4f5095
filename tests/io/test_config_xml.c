/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/io/config_xml.c and schema/minex-config.xsd (compiled into
 * the library): configurations round-trip exactly, links and defaults
 * follow SPEC §1, and each class of bad document gets its own code and a
 * message naming the line (SPEC §7). */
#include "io/config_schema.h"
#include "io_test_util.h"
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <libxml/globals.h>
#include <libxml/xmlerror.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void assert_same_config(const minex_config *a, const minex_config *b) {
  int32_t nc = minex_config_nclusters(a);
  ck_assert_int_eq(minex_config_nclusters(b), nc);
  ck_assert_int_eq(minex_config_nprocs(b), minex_config_nprocs(a));
  ck_assert_int_eq(minex_config_navailable(b), minex_config_navailable(a));
  for (int32_t c = 0; c < nc; c++) {
    ck_assert_int_eq(minex_config_cluster_nprocs(b, c),
                     minex_config_cluster_nprocs(a, c));
    ck_assert(minex_config_proc_slowdown(b, c) ==
              minex_config_proc_slowdown(a, c));
    for (int32_t d = 0; d < nc; d++)
      ck_assert(minex_config_conn(b, c, d) == minex_config_conn(a, c, d));
  }
  for (int32_t p = 0; p < minex_config_nprocs(a); p++)
    ck_assert_int_eq(minex_config_is_available(b, p),
                     minex_config_is_available(a, p));
}

START_TEST(config_roundtrip_random_configs_is_exact) {
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "c.xml");
  for (int it = 0; it < 40; it++) {
    minex_config *cf = test_random_config(rng, 6, 9);
    ck_assert_ptr_nonnull(cf);
    for (int32_t p = 0; p < minex_config_nprocs(cf); p++)
      if (gsl_rng_uniform(rng) < 0.2)
        minex_config_set_available(cf, p, 0);
    ck_assert_int_eq(minex_config_save(cf, path), MINEX_OK);
    minex_config *back = NULL;
    int rc = minex_config_load(path, &back);
    ck_assert_msg(rc == MINEX_OK, "%s", minex_last_error());
    assert_same_config(cf, back);
    minex_config_destroy(cf);
    minex_config_destroy(back);
  }
  ck_assert_int_eq(io_count_entries(dir), 1);
  io_rmdir(dir);
  gsl_rng_free(rng);
}
END_TEST

START_TEST(config_load_applies_symmetric_links_and_defaults) {
  minex_config *cf = NULL;
  int rc = minex_config_load(io_data("io_default_link.xml"), &cf);
  ck_assert_msg(rc == MINEX_OK, "%s", minex_last_error());
  ck_assert_int_eq(minex_config_nclusters(cf), 3);
  ck_assert_int_eq(minex_config_nprocs(cf), 5);
  ck_assert_int_eq(minex_config_cluster_nprocs(cf, 2), 0);
  ck_assert(minex_config_proc_slowdown(cf, 0) == 1.5);
  ck_assert(minex_config_proc_slowdown(cf, 1) == 1.0); /* default */
  ck_assert(minex_config_proc_slowdown(cf, 2) == 3.0);
  ck_assert(minex_config_conn(cf, 0, 1) == 4 &&
            minex_config_conn(cf, 1, 0) == 4);
  ck_assert(minex_config_conn(cf, 0, 0) == 2); /* explicit intra link */
  ck_assert(minex_config_conn(cf, 1, 1) == 1); /* intra default */
  ck_assert(minex_config_conn(cf, 0, 2) == 7.5);
  ck_assert(minex_config_conn(cf, 2, 1) == 7.5);
  ck_assert_int_eq(minex_config_navailable(cf), 3);
  ck_assert_int_eq(minex_config_is_available(cf, 1), 0);
  ck_assert_int_eq(minex_config_is_available(cf, 4), 0);
  ck_assert_int_eq(minex_config_is_available(cf, 0), 1);
  minex_config_destroy(cf);
}
END_TEST

static void expect_load_error(const char *file, int code, const char *where,
                              const char *what) {
  minex_config *cf = (minex_config *)&cf; /* must be reset to NULL */
  int rc = minex_config_load(io_data(file), &cf);
  ck_assert_ptr_null(cf);
  char loc[128];
  snprintf(loc, sizeof loc, "%s:%s", file, where);
  io_expect_error(rc, code, loc, what);
}

START_TEST(config_load_rejects_malformed_xml_with_eparse_and_line) {
  expect_load_error("io_malformed.xml", MINEX_EPARSE, "5:", "mismatch");
}
END_TEST

START_TEST(config_load_rejects_schema_violation_with_libxml2_message) {
  expect_load_error("io_bad_schema.xml", MINEX_ESCHEMA, "4:", "'four'");
}
END_TEST

START_TEST(config_load_rejects_wrong_elements_order_and_version) {
  static const struct {
    const char *text;
    const char *what;
  } bad[] = {
      {"<minex-config version=\"2\">\n<cluster name=\"a\" procs=\"1\"/>\n"
       "</minex-config>\n",
       "version"},
      {"<minex-config version=\"1\">\n</minex-config>\n", "cluster"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"1\" "
       "speed=\"2\"/>\n</minex-config>\n",
       "speed"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"1\"/>\n"
       "<node/></minex-config>\n",
       "node"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"1\"/>\n"
       "<unavailable proc=\"0\"/>\n<link from=\"a\" to=\"a\" "
       "slowdown=\"1\"/>\n</minex-config>\n",
       "link"},
      {"<config version=\"1\">\n<cluster name=\"a\" procs=\"1\"/>\n"
       "</config>\n",
       "config"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"-1\"/>\n"
       "</minex-config>\n",
       "procs"},
      {"<minex-config version=\"1\">\n<cluster name=\" a\" procs=\"1\"/>\n"
       "</minex-config>\n",
       "name"},
  };
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "s.xml");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    io_write_text(path, bad[i].text);
    minex_config *cf = NULL;
    io_expect_error(minex_config_load(path, &cf), MINEX_ESCHEMA,
                    "s.xml:", bad[i].what);
  }
  io_rmdir(dir);
}
END_TEST

START_TEST(config_load_rejects_link_to_unknown_cluster_naming_line) {
  expect_load_error("io_unknown_cluster.xml", MINEX_ECONFIG, "6:", "\"c\"");
}
END_TEST

START_TEST(config_load_rejects_duplicate_cluster_name_naming_both_lines) {
  expect_load_error("io_dup_cluster.xml", MINEX_ECONFIG, "5:", "line 3");
}
END_TEST

START_TEST(config_load_rejects_nonpositive_proc_slowdown_naming_line) {
  expect_load_error("io_bad_proc.xml", MINEX_ECONFIG, "4:", "proc-slowdown");
}
END_TEST

START_TEST(config_load_rejects_unavailable_proc_out_of_range_naming_line) {
  expect_load_error("io_unavail_range.xml", MINEX_ECONFIG, "6:", "[0, 8)");
}
END_TEST

START_TEST(config_load_rejects_contradicting_link_directions_naming_line) {
  expect_load_error("io_link_conflict.xml", MINEX_ECONFIG, "6:", "line 5");
}
END_TEST

START_TEST(config_load_rejects_missing_link_without_default_naming_pair) {
  expect_load_error("io_missing_link.xml", MINEX_ECONFIG, "2:", "'a' and 'c'");
}
END_TEST

START_TEST(config_load_rejects_bad_numbers_and_zero_processors) {
  static const struct {
    const char *text;
    const char *what;
  } bad[] = {
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"0\"/>\n"
       "</minex-config>\n",
       "0 processors"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"1\" "
       "proc-slowdown=\"INF\"/>\n</minex-config>\n",
       "s.xml:2:"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"1\" "
       "proc-slowdown=\"NaN\"/>\n</minex-config>\n",
       "s.xml:2:"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"1\"/>\n"
       "<link from=\"a\" to=\"a\" slowdown=\"-1\"/>\n</minex-config>\n",
       "s.xml:3:"},
      {"<minex-config version=\"1\" default-link-slowdown=\"0\">\n<cluster "
       "name=\"a\" procs=\"1\"/>\n</minex-config>\n",
       "s.xml:1:"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" "
       "procs=\"99999999999\"/>\n</minex-config>\n",
       "s.xml:2:"},
      /* 102 bytes that used to allocate 5 GB */
      {"<minex-config version=\"1\">\n<cluster name=\"a\" "
       "procs=\"1073741823\"/>\n</minex-config>\n",
       "MINEX_NPROCS_MAX"},
      /* within the per-cluster limit, beyond it in total */
      {"<minex-config version=\"1\" default-link-slowdown=\"1\">\n"
       "<cluster name=\"a\" procs=\"1048576\"/>\n<cluster name=\"b\" "
       "procs=\"1\"/>\n"
       "</minex-config>\n",
       "MINEX_NPROCS_MAX"},
      {"<minex-config version=\"1\">\n<cluster name=\"a\" procs=\"+1\"/>"
       "\n</minex-config>\n",
       "s.xml:2:"},
  };
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "s.xml");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    io_write_text(path, bad[i].text);
    minex_config *cf = NULL;
    io_expect_error(minex_config_load(path, &cf), MINEX_ECONFIG, bad[i].what,
                    NULL);
    ck_assert_ptr_null(cf);
  }
  io_rmdir(dir);
}
END_TEST

static minex_config *load_example(const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/../docs/examples/%s", MINEX_SCHEMA_SOURCE_DIR,
           name);
  minex_config *cf = NULL;
  int rc = minex_config_load(path, &cf);
  ck_assert_msg(rc == MINEX_OK, "%s: %s", name, minex_last_error());
  return cf;
}

/* 10,000 clusters in ~400 KB of XML used to take 1.6 GB (Conn is C^2):
 * refused at the first cluster beyond MINEX_NCLUSTERS_MAX, naming its line,
 * before Conn is allocated. */
START_TEST(config_load_refuses_more_clusters_than_the_limit) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "many.xml");
  size_t cap = 64 * (size_t)(MINEX_NCLUSTERS_MAX + 2) + 256, len = 0;
  char *text = malloc(cap);
  len += (size_t)snprintf(text + len, cap - len,
                          "<minex-config version=\"1\" "
                          "default-link-slowdown=\"1\">\n");
  for (int c = 0; c <= MINEX_NCLUSTERS_MAX; c++)
    len += (size_t)snprintf(text + len, cap - len,
                            "<cluster name=\"c%d\" procs=\"1\"/>\n", c);
  snprintf(text + len, cap - len, "</minex-config>\n");
  io_write_text(path, text);
  free(text);
  minex_config *cf = NULL;
  char where[64];
  snprintf(where, sizeof where, "many.xml:%d:", MINEX_NCLUSTERS_MAX + 2);
  io_expect_error(minex_config_load(path, &cf), MINEX_ECONFIG, where,
                  "MINEX_NCLUSTERS_MAX");
  ck_assert_ptr_null(cf);
  io_rmdir(dir);
  /* the API refuses the same */
  int32_t np[MINEX_NCLUSTERS_MAX + 1];
  for (int c = 0; c <= MINEX_NCLUSTERS_MAX; c++)
    np[c] = 1;
  ck_assert_int_eq(
      minex_config_create(MINEX_NCLUSTERS_MAX + 1, np, NULL, NULL, &cf),
      MINEX_ECONFIG);
  ck_assert_int_eq(minex_config_create_uniform(MINEX_NPROCS_MAX + 1, &cf),
                   MINEX_ECONFIG);
}
END_TEST

START_TEST(config_shipped_examples_load_as_documented) {
  minex_config *h = load_example("hetero4.xml");
  ck_assert_int_eq(minex_config_nclusters(h), 4);
  ck_assert_int_eq(minex_config_nprocs(h), 64);
  const double proc[] = {1, 1, 2, 2};
  for (int32_t c = 0; c < 4; c++) {
    ck_assert_int_eq(minex_config_cluster_nprocs(h, c), 16);
    ck_assert(minex_config_proc_slowdown(h, c) == proc[c]);
    for (int32_t d = 0; d < 4; d++)
      ck_assert(minex_config_conn(h, c, d) == (c == d ? 1 : 10));
  }
  minex_config *s = load_example("hetero4_shrink.xml");
  ck_assert_int_eq(minex_config_navailable(s), 48);
  ck_assert_int_eq(minex_config_is_available(s, 47), 1);
  ck_assert_int_eq(minex_config_is_available(s, 48), 0);
  minex_config_set_available(h, 0, 1); /* no-op: all available */
  for (int32_t p = 48; p < 64; p++)
    minex_config_set_available(h, p, 0);
  assert_same_config(h, s);
  minex_config *u = load_example("uniform16.xml"), *ref = NULL;
  ck_assert_int_eq(minex_config_create_uniform(16, &ref), MINEX_OK);
  assert_same_config(u, ref);
  minex_config_destroy(h);
  minex_config_destroy(s);
  minex_config_destroy(u);
  minex_config_destroy(ref);
}
END_TEST

START_TEST(config_schema_is_built_in_unless_env_dir_has_one) {
  unsetenv("MINEX_SCHEMA_DIR");
  ck_assert_ptr_null(minex_config_schema_path()); /* the built-in copy */
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_load(io_data("io_default_link.xml"), &cf),
                   MINEX_OK);
  minex_config_destroy(cf);
  cf = NULL;
  io_expect_error(minex_config_load(io_data("io_bad_schema.xml"), &cf),
                  MINEX_ESCHEMA, "io_bad_schema.xml:", NULL);
  char dir[256], path[512];
  io_tmpdir(dir);
  setenv("MINEX_SCHEMA_DIR", dir, 1); /* empty dir: the built-in copy */
  ck_assert_ptr_null(minex_config_schema_path());
  ck_assert_int_eq(minex_config_load(io_data("io_default_link.xml"), &cf),
                   MINEX_OK);
  minex_config_destroy(cf);
  cf = NULL;
  /* a schema in MINEX_SCHEMA_DIR is used, even a broken one (EIO) */
  io_write_text(io_join(path, dir, "minex-config.xsd"), "<not-a-schema/>\n");
  const char *p = minex_config_schema_path();
  ck_assert_ptr_nonnull(p);
  ck_assert_str_eq(p, path);
  io_expect_error(minex_config_load(io_data("io_default_link.xml"), &cf),
                  MINEX_EIO, "minex-config.xsd", NULL);
  unsetenv("MINEX_SCHEMA_DIR");
  io_rmdir(dir);
}
END_TEST

START_TEST(config_built_in_schema_is_the_shipped_xsd) {
  char path[1024];
  snprintf(path, sizeof path, "%s/minex-config.xsd", MINEX_SCHEMA_SOURCE_DIR);
  FILE *fp = fopen(path, "rb");
  ck_assert_ptr_nonnull(fp);
  static unsigned char text[1 << 16];
  size_t n = fread(text, 1, sizeof text, fp);
  ck_assert(feof(fp));
  fclose(fp);
  ck_assert_uint_eq(io_config_schema_len, n);
  ck_assert(memcmp(io_config_schema, text, n) == 0);
}
END_TEST

START_TEST(config_load_of_missing_file_is_eio) {
  minex_config *cf = NULL;
  /* the system's reason too */
  char why[128] = "";
  strerror_r(ENOENT, why, sizeof why);
  io_expect_error(minex_config_load("/nonexistent/c.xml", &cf), MINEX_EIO,
                  "/nonexistent/c.xml", why);
  cf = (minex_config *)&cf; /* a NULL path also sets *out to NULL */
  ck_assert_int_eq(minex_config_load(NULL, &cf), MINEX_EINVAL);
  ck_assert_ptr_null(cf);
}
END_TEST

START_TEST(config_save_into_missing_directory_is_eio_and_leaves_no_file) {
  minex_config *cf = NULL;
  ck_assert_int_eq(minex_config_create_uniform(4, &cf), MINEX_OK);
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "missing/c.xml");
  io_expect_error(minex_config_save(cf, path), MINEX_EIO, path, NULL);
  ck_assert_int_eq(io_count_entries(dir), 0);
  ck_assert_int_eq(minex_config_save(NULL, path), MINEX_EINVAL);
  minex_config_destroy(cf);
  io_rmdir(dir);
}
END_TEST

#if LIBXML_VERSION >= 21200
static void caller_handler(void *ctx, const xmlError *err) {
#else
static void caller_handler(void *ctx, xmlErrorPtr err) {
#endif
  (void)ctx;
  (void)err;
}

/* stderr goes to a file while every bad document is loaded: it must stay
 * empty, and the caller's libxml2 error handler must be restored. */
START_TEST(config_load_never_prints_and_restores_libxml2_handler) {
  static const char *files[] = {
      "io_malformed.xml",     "io_bad_schema.xml",   "io_unknown_cluster.xml",
      "io_dup_cluster.xml",   "io_bad_proc.xml",     "io_unavail_range.xml",
      "io_link_conflict.xml", "io_missing_link.xml", "io_truncated.graph"};
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "stderr.txt");
  int marker = 42;
  xmlSetStructuredErrorFunc(&marker, caller_handler);
  fflush(stderr);
  int saved = dup(2);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ck_assert_int_ge(fd, 0);
  dup2(fd, 2);
  close(fd);
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    minex_config *cf = NULL;
    ck_assert_int_ne(minex_config_load(io_data(files[i]), &cf), MINEX_OK);
  }
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
#if LIBXML_VERSION >= 21200
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
  ck_assert(xmlStructuredError == caller_handler);
  ck_assert(xmlStructuredErrorContext == &marker);
#if LIBXML_VERSION >= 21200
#pragma GCC diagnostic pop
#endif
  xmlSetStructuredErrorFunc(NULL, NULL);
  FILE *fp = fopen(path, "r");
  ck_assert_ptr_nonnull(fp);
  fseek(fp, 0, SEEK_END);
  ck_assert_int_eq(ftell(fp), 0);
  fclose(fp);
  io_rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("config_xml");
  TCase *tc = tcase_create("config");
  tcase_add_test(tc, config_roundtrip_random_configs_is_exact);
  tcase_add_test(tc, config_load_applies_symmetric_links_and_defaults);
  tcase_add_test(tc, config_load_rejects_malformed_xml_with_eparse_and_line);
  tcase_add_test(tc, config_load_rejects_schema_violation_with_libxml2_message);
  tcase_add_test(tc, config_load_rejects_wrong_elements_order_and_version);
  tcase_add_test(tc, config_load_rejects_link_to_unknown_cluster_naming_line);
  tcase_add_test(tc,
                 config_load_rejects_duplicate_cluster_name_naming_both_lines);
  tcase_add_test(tc, config_load_rejects_nonpositive_proc_slowdown_naming_line);
  tcase_add_test(tc,
                 config_load_rejects_unavailable_proc_out_of_range_naming_line);
  tcase_add_test(tc,
                 config_load_rejects_contradicting_link_directions_naming_line);
  tcase_add_test(tc,
                 config_load_rejects_missing_link_without_default_naming_pair);
  tcase_add_test(tc, config_load_rejects_bad_numbers_and_zero_processors);
  tcase_add_test(tc, config_shipped_examples_load_as_documented);
  tcase_add_test(tc, config_schema_is_built_in_unless_env_dir_has_one);
  tcase_add_test(tc, config_built_in_schema_is_the_shipped_xsd);
  tcase_add_test(tc, config_load_of_missing_file_is_eio);
  tcase_add_test(tc,
                 config_save_into_missing_directory_is_eio_and_leaves_no_file);
  tcase_add_test(tc, config_load_never_prints_and_restores_libxml2_handler);
  tcase_add_test(tc, config_load_refuses_more_clusters_than_the_limit);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
