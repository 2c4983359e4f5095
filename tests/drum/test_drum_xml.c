/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/drum/drum_xml*.c: both DRUM machine-model dialects load
 * into the exact trees of the papers' figures, names are case-insensitive,
 * every class of bad file gets its code and a "file:line:" message, and
 * save -> load reproduces every attribute exactly, atomically. */
#include "drum/drum.h"
#include "io_test_util.h"
#include "test_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------- helpers
 * (scratch directories, files and error checks: tests/io/io_test_util.c) */

/* Whole file into a malloc'd string. */
static char *read_text(const char *path) {
  FILE *fp = fopen(path, "r");
  ck_assert_ptr_nonnull(fp);
  fseek(fp, 0, SEEK_END);
  long n = ftell(fp);
  fseek(fp, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  ck_assert_ptr_nonnull(s);
  ck_assert_int_eq((long)fread(s, 1, (size_t)n, fp), n);
  s[n] = '\0';
  fclose(fp);
  return s;
}

static minex_drum_model *load_ok(const char *path) {
  minex_drum_model *m = NULL;
  int rc = minex_drum_model_load(path, &m);
  ck_assert_msg(rc == MINEX_OK, "%s: %s", path, minex_last_error());
  ck_assert_ptr_nonnull(m);
  return m;
}

/* Expected node of a loaded model. */
typedef struct want_node {
  minex_drum_node_type type;
  int32_t parent, file_id;
  const char *name, *address;
  int monitorable;
  double capacity, latency, benchmark;
  int32_t ncpus, nprocs;
} want_node;

static void expect_nodes(const minex_drum_model *m, const want_node *w,
                         int32_t n) {
  ck_assert_int_eq(minex_drum_nnodes(m), n);
  for (int32_t i = 0; i < n; i++) {
    const minex_drum_node *nd = minex_drum_get(m, i);
    ck_assert_ptr_nonnull(nd);
    ck_assert_msg(nd->type == w[i].type, "node %d type", (int)i);
    ck_assert_msg(nd->parent == w[i].parent, "node %d parent %d != %d", (int)i,
                  (int)nd->parent, (int)w[i].parent);
    ck_assert_int_eq(nd->file_id, w[i].file_id);
    ck_assert_str_eq(nd->name, w[i].name);
    ck_assert_str_eq(nd->address, w[i].address);
    ck_assert_int_eq(nd->monitorable, w[i].monitorable);
    ck_assert_msg(nd->capacity == w[i].capacity, "node %d capacity %g", (int)i,
                  nd->capacity);
    ck_assert(nd->latency == w[i].latency);
    ck_assert_msg(nd->benchmark == w[i].benchmark, "node %d benchmark %g",
                  (int)i, nd->benchmark);
    ck_assert_int_eq(nd->ncpus, w[i].ncpus);
    ck_assert_int_eq(nd->nprocs, w[i].nprocs);
  }
}

/* Every stored field of two models is identical (doubles bit-equal in
 * value). */
static void assert_same_model(const minex_drum_model *a,
                              const minex_drum_model *b) {
  ck_assert_int_eq(minex_drum_nnodes(b), minex_drum_nnodes(a));
  for (int32_t i = 0; i < minex_drum_nnodes(a); i++) {
    const minex_drum_node *x = minex_drum_get(a, i), *y = minex_drum_get(b, i);
    ck_assert_msg(x->type == y->type, "node %d type", (int)i);
    ck_assert_int_eq(x->parent, y->parent);
    ck_assert_str_eq(x->name, y->name);
    ck_assert_str_eq(x->address, y->address);
    ck_assert_int_eq(x->file_id, y->file_id);
    ck_assert_int_eq(x->monitorable, y->monitorable);
    ck_assert_msg(x->capacity == y->capacity, "node %d capacity %.17g %.17g",
                  (int)i, x->capacity, y->capacity);
    ck_assert(x->latency == y->latency);
    ck_assert(x->traffic == y->traffic);
    ck_assert(x->benchmark == y->benchmark);
    ck_assert_int_eq(x->ncpus, y->ncpus);
    ck_assert_int_eq(x->nprocs, y->nprocs);
    ck_assert_int_eq(x->measured, y->measured);
    ck_assert(x->cpu_use == y->cpu_use);
    ck_assert(x->idle == y->idle);
  }
}

/* ------------------------------------------------------- good fixtures */

START_TEST(drum_load_fig35_gives_the_thesis_tree) {
  minex_drum_model *m = load_ok(test_data_path("drum_fig35.xml"));
  const minex_drum_node_type N = MINEX_DRUM_NETWORK, C = MINEX_DRUM_COMPUTING;
  /* file order 0 1 3 4 2 5 6 lists parents first: kept */
  const want_node w[] = {
      {N, -1, 0, "192.168.1.1", "192.168.1.1", 1, 0, 0, 0, 1, 0},
      {N, 0, 1, "192.168.2.2", "192.168.2.2", 1, 0, 0, 0, 1, 0},
      {C, 1, 3, "n11.ns.cs.rpi.edu", "n11.ns.cs.rpi.edu", 1, 0, 0, 0, 1, 1},
      {C, 1, 4, "n12.ns.cs.rpi.edu", "n12.ns.cs.rpi.edu", 1, 0, 0, 0, 1, 1},
      {N, 0, 2, "192.168.3.2", "192.168.3.2", 1, 0, 0, 0, 1, 0},
      {C, 4, 5, "n13.ns.cs.rpi.edu", "n13.ns.cs.rpi.edu", 1, 0, 0, 0, 1, 1},
      {C, 4, 6, "n14.ns.cs.rpi.edu", "n14.ns.cs.rpi.edu", 1, 0, 0, 0, 1, 1},
  };
  expect_nodes(m, w, 7);
  for (int32_t i = 0; i < 7; i++) {
    ck_assert_int_eq(minex_drum_get(m, i)->measured, 0);
    ck_assert(minex_drum_get(m, i)->traffic == 0);
  }
  ck_assert_int_eq(minex_drum_find(m, "n13.ns.cs.rpi.edu"), 5);
  minex_drum_model_destroy(m);
}
END_TEST

START_TEST(drum_load_bullpen_excerpt_ignores_lbmethod_and_image_attributes) {
  minex_drum_model *m = load_ok(test_data_path("drum_bullpen.xml"));
  const minex_drum_node_type N = MINEX_DRUM_NETWORK, C = MINEX_DRUM_COMPUTING;
  const want_node w[] = {
      {N, -1, 0, "", "", 0, 0, 0, 0, 1, 0},
      {C, 0, 2, "mendoza.cs.williams.edu", "137.165.8.140", 1, 0, 0, 52.43, 1,
       1},
      {C, 0, 3, "rivera.cs.williams.edu", "137.165.8.130", 0, 0, 0, 82.55, 4,
       4},
  };
  expect_nodes(m, w, 3);
  ck_assert_int_eq(minex_drum_find(m, "137.165.8.130"), 2);
  minex_drum_model_destroy(m);
}
END_TEST

START_TEST(drum_load_table54_gives_the_reconfigured_bullpen) {
  minex_drum_model *m = load_ok(test_data_path("drum_table54.xml"));
  ck_assert_int_eq(minex_drum_nnodes(m), 10);
  const minex_drum_node *r = minex_drum_get(m, 0), *s10 = minex_drum_get(m, 1);
  ck_assert(r->type == MINEX_DRUM_NETWORK && r->parent == -1);
  ck_assert_str_eq(r->name, "switch100");
  ck_assert(s10->type == MINEX_DRUM_NETWORK && s10->parent == 0);
  ck_assert_str_eq(s10->name, "switch10");
  ck_assert(s10->capacity == 100);
  /* computing nodes in the column order of Table 5.4 */
  static const char *hosts[] = {"rivera",    "righetti", "arroyo", "gossage",
                                "wetteland", "lyle",     "farr",   "mcdaniel"};
  for (int32_t k = 0; k < 8; k++) {
    const minex_drum_node *nd = minex_drum_get(m, 2 + k);
    char host[64];
    snprintf(host, sizeof host, "%s.cs.williams.edu", hosts[k]);
    ck_assert_str_eq(nd->name, host);
    ck_assert_int_eq(nd->file_id, 2 + k);
    ck_assert(nd->type == MINEX_DRUM_COMPUTING);
    ck_assert_int_eq(nd->parent, k < 4 ? 1 : 0);
    ck_assert(nd->capacity == (k < 4 ? 10 : 100));
    ck_assert(nd->benchmark == 82.55);
    ck_assert_int_eq(nd->ncpus, k == 0 || k == 4 ? 4 : 2);
    ck_assert_int_eq(nd->nprocs, 1);
    ck_assert_int_eq(nd->measured, 0);
  }
  minex_drum_model_destroy(m);
}
END_TEST

START_TEST(drum_load_ignores_case_of_names_and_types_drumhead) {
  minex_drum_model *m = load_ok(test_data_path("drum_case_drumhead.xml"));
  const minex_drum_node_type N = MINEX_DRUM_NETWORK, C = MINEX_DRUM_COMPUTING;
  const want_node w[] = {
      {N, -1, 10, "root", "10.0.0.1", 0, 0, 0, 0, 1, 0},
      {C, 0, 20, "smp", "10.0.0.2", 1, 1000, 5e-05, 82.55, 4, 3},
      {C, 0, 30, "sp", "10.0.0.3", 1, 100, 0, 52.43, 1, 1},
  };
  expect_nodes(m, w, 3);
  const minex_drum_node *smp = minex_drum_get(m, 1), *sp = minex_drum_get(m, 2);
  ck_assert_int_eq(smp->measured, 0);
  ck_assert_int_eq(sp->measured, 1); /* CpuUse given, idle defaults to 0 */
  ck_assert(sp->cpu_use == 0.75 && sp->idle == 0 && sp->traffic == 12.5);
  minex_drum_model_destroy(m);
}
END_TEST

START_TEST(drum_load_ignores_case_and_orders_thesis_nodes_depth_first) {
  minex_drum_model *m = load_ok(test_data_path("drum_case_thesis.xml"));
  const minex_drum_node_type N = MINEX_DRUM_NETWORK, C = MINEX_DRUM_COMPUTING;
  /* file order 0 7 3 9 has 7 before its parent 3: depth-first 0 3 7 9 */
  const want_node w[] = {
      {N, -1, 0, "0", "", 0, 0, 0, 0, 1, 0},
      {N, 0, 3, "10.1.0.1", "10.1.0.1", 0, 1000, 0, 0, 1, 0},
      {C, 1, 7, "leaf7", "leaf7", 1, 100, 0, 0, 2, 2},
      {C, 0, 9, "nine", "", 1, 0, 0, 0, 1, 0},
  };
  expect_nodes(m, w, 4);
  const minex_drum_node *leaf = minex_drum_get(m, 2);
  ck_assert_int_eq(leaf->measured, 1);
  ck_assert(leaf->cpu_use == 0 && leaf->idle == 1.5 && leaf->traffic == 0);
  ck_assert_int_eq(minex_drum_get(m, 3)->measured, 0);
  minex_drum_model_destroy(m);
}
END_TEST

/* ------------------------------------------------------ bad fixtures */

START_TEST(drum_load_rejects_each_malformed_fixture_naming_file_and_line) {
  static const struct {
    const char *file;
    int code;
    int line;
    const char *what;
  } bad[] = {
      {"drum_bad_xml.xml", MINEX_EPARSE, 5, "malformed XML"},
      {"drum_bad_root.xml", MINEX_EPARSE, 2, "<machine>"},
      {"drum_bad_empty.xml", MINEX_ECONFIG, 2, "no nodes"},
      {"drum_bad_type.xml", MINEX_EPARSE, 4, "\"ROUTER\""},
      {"drum_bad_mixed.xml", MINEX_EPARSE, 4, "on line 3"},
      {"drum_bad_missing_id.xml", MINEX_EPARSE, 4, "attribute name"},
      {"drum_bad_duplicate_id.xml", MINEX_ECONFIG, 5, "first on line 4"},
      {"drum_bad_missing_child.xml", MINEX_ECONFIG, 3, "child 9"},
      {"drum_bad_missing_parent.xml", MINEX_ECONFIG, 5, "parent 7"},
      {"drum_bad_two_parents.xml", MINEX_ECONFIG, 5, "node 1 (line 4)"},
      {"drum_bad_childrennum.xml", MINEX_ECONFIG, 3, "childrenNum = 3"},
      {"drum_bad_cycle.xml", MINEX_ECONFIG, 4,
       "cycle, each the parent of "
       "the one before: 1 -> 2 -> 1"},
      {"drum_bad_self_parent.xml", MINEX_ECONFIG, 5, "node 2 is its own"},
      {"drum_bad_no_root.xml", MINEX_ECONFIG, 2, "no root"},
      {"drum_bad_two_roots.xml", MINEX_ECONFIG, 5, "node 0 (line 3)"},
      {"drum_bad_computing_children.xml", MINEX_ECONFIG, 4,
       "computing node 1 has children"},
      {"drum_bad_negative.xml", MINEX_EPARSE, 4, "bandwidth = \"-100\""},
      {"drum_bad_numprocs.xml", MINEX_EPARSE, 4, "numprocs = \"0\""},
      {"drum_bad_multiple.xml", MINEX_EPARSE, 5, "needs numprocs"},
      {"drum_bad_number.xml", MINEX_EPARSE, 4, "benchmark = \"12abc\""},
      {"drum_bad_numnode.xml", MINEX_ECONFIG, 2, "numnode = 8"},
      {"drum_bad_bool.xml", MINEX_EPARSE, 4, "\"maybe\""},
      {"drum_bad_nested.xml", MINEX_EPARSE, 4, "inside"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    minex_drum_model *m = (minex_drum_model *)&m; /* must become NULL */
    int rc = minex_drum_model_load(test_data_path(bad[i].file), &m);
    ck_assert_ptr_null(m);
    char loc[128];
    snprintf(loc, sizeof loc, "%s:%d: ", bad[i].file, bad[i].line);
    ck_assert_msg(rc == bad[i].code, "%s: %s (%s)", bad[i].file,
                  minex_err_name(rc), minex_last_error());
    io_expect_error(rc, bad[i].code, loc, bad[i].what);
  }
}
END_TEST

/* A DrumHead root and one computing node whose attributes are `attrs`. */
static void write_drumhead(const char *path, const char *type,
                           const char *attrs) {
  char text[1024];
  snprintf(text, sizeof text,
           "<machinemodel>\n"
           "<node type=\"NETWORK\" nodenum=\"0\" parent=\"-1\"/>\n"
           "<node type=\"%s\" nodenum=\"1\" parent=\"0\" %s/>\n"
           "</machinemodel>\n",
           type, attrs);
  io_write_text(path, text);
}

START_TEST(drum_load_rejects_non_numbers_and_out_of_range_values) {
  static const struct {
    const char *type, *attrs;
    int code;
    const char *what;
  } bad[] = {
      {"SINGLE_COMPUTING", "benchmark=\"nan\"", MINEX_EPARSE, "benchmark"},
      {"SINGLE_COMPUTING", "benchmark=\"inf\"", MINEX_EPARSE, "\"inf\""},
      {"SINGLE_COMPUTING", "benchmark=\"\"", MINEX_EPARSE, "benchmark = \"\""},
      {"SINGLE_COMPUTING", "benchmark=\" \"", MINEX_EPARSE, "benchmark"},
      {"SINGLE_COMPUTING", "benchmark=\"1e999\"", MINEX_EPARSE, "1e999"},
      {"SINGLE_COMPUTING", "benchmark=\"-0.5\"", MINEX_EPARSE, ">= 0"},
      {"SINGLE_COMPUTING", "benchmark=\"1 2\"", MINEX_EPARSE, "\"1 2\""},
      {"SINGLE_COMPUTING", "latency=\"-1e-6\"", MINEX_EPARSE, "latency"},
      {"SINGLE_COMPUTING", "capacity=\"-1\"", MINEX_EPARSE, "capacity"},
      {"SINGLE_COMPUTING", "speed=\"fast\"", MINEX_EPARSE, "speed"},
      {"SINGLE_COMPUTING", "traffic=\"12abc\"", MINEX_EPARSE, "traffic"},
      {"SINGLE_COMPUTING", "cpuuse=\"-0.1\"", MINEX_EPARSE, "cpuuse"},
      {"SINGLE_COMPUTING", "idle=\"x\"", MINEX_EPARSE, "idle"},
      {"SINGLE_COMPUTING", "processes=\"-1\"", MINEX_EPARSE, "processes"},
      {"SINGLE_COMPUTING", "numprocs=\"4\"", MINEX_EPARSE,
       "MULTIPLE_COMPUTING"},
      {"MULTIPLE_COMPUTING", "numprocs=\"2.5\"", MINEX_EPARSE, "numprocs"},
      {"MULTIPLE_COMPUTING", "numprocs=\"-3\"", MINEX_EPARSE, "numprocs"},
      {"SINGLE_COMPUTING", "isMonitorable=\"\"", MINEX_EPARSE, "isMonitorable"},
      {"SINGLE_COMPUTING", "IP=\"a\" ip=\"b\"", MINEX_EPARSE, "given twice"},
      {"SINGLE_COMPUTING", "bandwidth=\"1\" Speed=\"1\"", MINEX_EPARSE,
       "given twice"},
      /* each says what is wrong with the number */
      {"SINGLE_COMPUTING", "bandwidth=\"1e-320\"", MINEX_EPARSE,
       "is subnormal"},
      {"SINGLE_COMPUTING", "bandwidth=\"0x10\"", MINEX_EPARSE,
       "is hexadecimal"},
      {"SINGLE_COMPUTING", "benchmark=\"1e999\"", MINEX_EPARSE,
       "is out of range"},
      {"SINGLE_COMPUTING", "benchmark=\"-2\"", MINEX_EPARSE, "is negative"},
      {"SINGLE_COMPUTING", "processes=\"+2\"", MINEX_EPARSE, "processes"},
      /* one number that used to take 5 GB and 18 s */
      {"SINGLE_COMPUTING", "processes=\"1000000000\"", MINEX_EPARSE,
       "0..1048576"},
      {"SINGLE_COMPUTING", "processes=\"1e9\"", MINEX_EPARSE, "processes"},
      {"MULTIPLE_COMPUTING", "numprocs=\"1048577\"", MINEX_EPARSE, "numprocs"},
  };
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "v.xml");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    write_drumhead(path, bad[i].type, bad[i].attrs);
    minex_drum_model *m = NULL;
    int rc = minex_drum_model_load(path, &m);
    ck_assert_ptr_null(m);
    io_expect_error(rc, bad[i].code, "v.xml:3: ", bad[i].what);
  }
  io_rmdir(dir);
}
END_TEST

/* Whole documents, each with its expected code, "file:line: " and text. */
START_TEST(drum_load_rejects_structural_errors_in_either_dialect) {
  static const struct {
    const char *text;
    int code;
    const char *where, *what;
  } bad[] = {
      /* DrumHead without parent attribute */
      {"<machinemodel>\n<node type=\"NETWORK\" nodenum=\"0\"/>\n"
       "</machinemodel>\n",
       MINEX_EPARSE, "d.xml:2: ", "no parent attribute"},
      /* DrumHead parent below -1 */
      {"<machinemodel>\n<node type=\"NETWORK\" nodenum=\"0\" "
       "parent=\"-2\"/>\n</machinemodel>\n",
       MINEX_EPARSE, "d.xml:2: ", "parent = \"-2\""},
      /* no type */
      {"<machinemodel>\n<node nodenum=\"0\" parent=\"-1\"/>\n"
       "</machinemodel>\n",
       MINEX_EPARSE, "d.xml:2: ", "without a type"},
      /* DrumHead parent is a computing node */
      {"<machinemodel>\n<node type=\"NETWORK\" nodenum=\"0\" parent=\"-1\"/>\n"
       "<node type=\"SINGLE_COMPUTING\" nodenum=\"1\" parent=\"0\"/>\n"
       "<node type=\"SINGLE_COMPUTING\" nodenum=\"2\" parent=\"1\"/>\n"
       "</machinemodel>\n",
       MINEX_ECONFIG, "d.xml:4: ", "parent 1 (line 3) is a computing node"},
      /* DrumHead cycle below a valid root */
      {"<machinemodel>\n<node type=\"NETWORK\" nodenum=\"0\" parent=\"-1\"/>\n"
       "<node type=\"NETWORK\" nodenum=\"5\" parent=\"6\"/>\n"
       "<node type=\"NETWORK\" nodenum=\"6\" parent=\"7\"/>\n"
       "<node type=\"NETWORK\" nodenum=\"7\" parent=\"5\"/>\n"
       "</machinemodel>\n",
       MINEX_ECONFIG, "d.xml:3: ", "5 -> 6 -> 7 -> 5"},
      /* thesis: a node lists itself */
      {"<machinemodel>\n<node type=\"NETWORK_NODE\" name=\"0\" "
       "children=\"0;\"/>\n</machinemodel>\n",
       MINEX_ECONFIG, "d.xml:2: ", "itself"},
      /* thesis: a child listed twice by one parent */
      {"<machinemodel>\n<node type=\"NETWORK_NODE\" name=\"0\" "
       "children=\"1;1;\"/>\n<node type=\"COMPUTING_NODE\" name=\"1\"/>\n"
       "</machinemodel>\n",
       MINEX_ECONFIG, "d.xml:2: ", "twice"},
      /* thesis: empty entry and non-number in children */
      {"<machinemodel>\n<node type=\"NETWORK_NODE\" name=\"0\" "
       "children=\"1;;2\"/>\n</machinemodel>\n",
       MINEX_EPARSE, "d.xml:2: ", "empty entry"},
      {"<machinemodel>\n<node type=\"NETWORK_NODE\" name=\"0\" "
       "children=\"1;x\"/>\n</machinemodel>\n",
       MINEX_EPARSE, "d.xml:2: ", "\"x\" is not a node number"},
      /* thesis: node number not an integer */
      {"<machinemodel>\n<node type=\"NETWORK_NODE\" name=\"zero\"/>\n"
       "</machinemodel>\n",
       MINEX_EPARSE, "d.xml:2: ", "name = \"zero\""},
      /* thesis: two roots (node 2 listed by nobody) */
      {"<machinemodel>\n<node type=\"NETWORK_NODE\" name=\"0\" "
       "children=\"1\"/>\n<node type=\"COMPUTING_NODE\" name=\"1\"/>\n"
       "<node type=\"COMPUTING_NODE\" name=\"2\"/>\n</machinemodel>\n",
       MINEX_ECONFIG, "d.xml:4: ", "exactly one root"},
      /* numnode not a number */
      {"<machinemodel numnode=\"seven\">\n<node type=\"NETWORK_NODE\" "
       "name=\"0\"/>\n</machinemodel>\n",
       MINEX_EPARSE, "d.xml:1: ", "numnode"},
      /* CRLF, tags over several lines, non-empty elements: the line is
         the one of the tag's '<' */
      {"<machinemodel>\r\n<node type=\"NETWORK\"\r\n nodenum=\"0\"\r\n "
       "parent=\"-1\">\r\n</node>\r\n<node\r\ntype=\"SINGLE_COMPUTING\""
       "\r\nnodenum=\"0\" parent=\"0\">\r\n<lbmethod/></node>\r\n"
       "</machinemodel>\r\n",
       MINEX_ECONFIG, "d.xml:6: ", "first on line 2"},
      {"<machinemodel><node type=\"NETWORK\" nodenum=\"0\" parent=\"-1\"/>"
       "<node type=\"NETWORK\" nodenum=\"1\" parent=\"0\"/><node\n\n"
       "type=\"NETWORK\" nodenum=\"2\" parent=\"9\"/></machinemodel>\n",
       MINEX_ECONFIG, "d.xml:1: ", "parent 9"},
      /* empty document */
      {"", MINEX_EPARSE, "d.xml:", "malformed XML"},
  };
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "d.xml");
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    io_write_text(path, bad[i].text);
    minex_drum_model *m = NULL;
    int rc = minex_drum_model_load(path, &m);
    ck_assert_ptr_null(m);
    io_expect_error(rc, bad[i].code, bad[i].where, bad[i].what);
  }
  io_rmdir(dir);
}
END_TEST

START_TEST(drum_load_accepts_children_and_boolean_spellings) {
  static const struct {
    const char *children, *mon;
    int32_t nkids;
    int monitorable;
  } ok[] = {
      {"1;2", "1", 2, 1},  {" 1 ; 2 ; ", "0", 2, 0}, {"2;1;", "true", 2, 1},
      {"", "FALSE", 0, 0}, {";", " yes ", 0, 1},     {"  ;  ", "No", 0, 0},
  };
  char dir[256], path[512], text[1024];
  io_tmpdir(dir);
  io_join(path, dir, "c.xml");
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
    /* with no children, 1 and 2 stay separate roots: list them on a
       network node of their own then */
    snprintf(text, sizeof text,
             "<machinemodel>\n"
             "<node type=\"NETWORK_NODE\" name=\"0\" children=\"%s\" "
             "IsMonitorable=\"%s\"/>\n"
             "%s"
             "</machinemodel>\n",
             ok[i].children, ok[i].mon,
             ok[i].nkids ? "<node type=\"COMPUTING_NODE\" name=\"1\"/>\n"
                           "<node type=\"COMPUTING_NODE\" name=\"2\"/>\n"
                         : "");
    io_write_text(path, text);
    minex_drum_model *m = load_ok(path);
    ck_assert_int_eq(minex_drum_nnodes(m), 1 + ok[i].nkids);
    ck_assert_int_eq(minex_drum_get(m, 0)->monitorable, ok[i].monitorable);
    for (int32_t k = 1; k <= ok[i].nkids; k++) {
      ck_assert_int_eq(minex_drum_get(m, k)->parent, 0);
      ck_assert_int_eq(minex_drum_get(m, k)->file_id, k);
    }
    minex_drum_model_destroy(m);
  }
  io_rmdir(dir);
}
END_TEST

START_TEST(drum_load_of_missing_file_is_eio_and_null_arguments_einval) {
  minex_drum_model *m = (minex_drum_model *)&m;
  io_expect_error(minex_drum_model_load("/nonexistent/m.xml", &m), MINEX_EIO,
                  "/nonexistent/m.xml", NULL);
  ck_assert_ptr_null(m);
  m = (minex_drum_model *)&m; /* a NULL path also sets *out to NULL */
  ck_assert_int_eq(minex_drum_model_load(NULL, &m), MINEX_EINVAL);
  ck_assert_ptr_null(m);
  ck_assert_int_eq(
      minex_drum_model_load(test_data_path("drum_fig35.xml"), NULL),
      MINEX_EINVAL);
}
END_TEST

/* --------------------------------------------------------- round trips */

/* A model with every attribute set, built breadth-first (not the
 * depth-first order the loader falls back to), special characters in
 * the strings, distinct file ids. */
static minex_drum_model *full_model(void) {
  minex_drum_model *m = NULL;
  ck_assert_int_eq(minex_drum_model_create(&m), MINEX_OK);
  int32_t root, a, b, c, a1, a2, c1;
  const minex_drum_node_type N = MINEX_DRUM_NETWORK, C = MINEX_DRUM_COMPUTING;
  ck_assert_int_eq(minex_drum_add_node(m, N, -1, "core & <switch>", &root), 0);
  ck_assert_int_eq(minex_drum_add_node(m, N, root, "rack \"A\" 'x'", &a), 0);
  ck_assert_int_eq(minex_drum_add_node(m, C, root, "", &b), 0);
  ck_assert_int_eq(minex_drum_add_node(m, N, root, "12", &c), 0);
  ck_assert_int_eq(minex_drum_add_node(m, C, a, "a1.example.org", &a1), 0);
  ck_assert_int_eq(minex_drum_add_node(m, C, a, "tab\there", &a2), 0);
  ck_assert_int_eq(minex_drum_add_node(m, C, c, "c1", &c1), 0);
  ck_assert_int_eq(drum_set_strings(m, root, "core & <switch>", "10.0.0.1"), 0);
  ck_assert_int_eq(drum_set_strings(m, a2, "tab\there", "line\nbreak\r"), 0);
  ck_assert_int_eq(drum_set_strings(m, c1, "c1", "c1"), 0);
  ck_assert_int_eq(drum_set_strings(m, a1, "a1.example.org", "192.168.0.11"),
                   0);
  const int32_t ids[] = {100, 7, 3, 12, 4, 5, 0};
  for (int32_t i = 0; i < 7; i++)
    m->nodes[i].file_id = ids[i];
  m->nodes[root].monitorable = 0;
  m->nodes[a2].monitorable = 0;
  ck_assert_int_eq(minex_drum_set_link(m, root, 0, 1e-3), 0);
  ck_assert_int_eq(minex_drum_set_traffic(m, root, 0.5), 0);
  ck_assert_int_eq(minex_drum_set_link(m, a, 1000, 2.5e-5), 0);
  ck_assert_int_eq(minex_drum_set_traffic(m, a, 0.1 + 0.2), 0);
  ck_assert_int_eq(minex_drum_set_link(m, b, 10, 0), 0);
  ck_assert_int_eq(minex_drum_set_link(m, c, 1.0 / 3.0, 0), 0);
  ck_assert_int_eq(minex_drum_set_link(m, a1, 100, 1e-4), 0);
  ck_assert_int_eq(minex_drum_set_link(m, a2, 0.1, 0), 0);
  ck_assert_int_eq(minex_drum_set_link(m, c1, 1e-300, 123456.789), 0);
  ck_assert_int_eq(minex_drum_set_benchmark(m, a1, 82.55), 0);
  ck_assert_int_eq(minex_drum_set_benchmark(m, a2, 1.0 / 3.0), 0);
  ck_assert_int_eq(minex_drum_set_benchmark(m, c1, 1e9 + 0.5), 0);
  ck_assert_int_eq(minex_drum_set_cpus(m, a1, 4, 3), 0);
  ck_assert_int_eq(minex_drum_set_cpus(m, a2, 1, 0), 0);
  ck_assert_int_eq(minex_drum_set_cpus(m, b, 2, 2), 0);
  ck_assert_int_eq(minex_drum_set_cpus(m, c1, 16, 7), 0);
  ck_assert_int_eq(
      minex_drum_set_measured(m, a1, 2.7, 0.1 + 0.2, 12.345678901234567), 0);
  ck_assert_int_eq(minex_drum_set_measured(m, b, 0, 0, 0), 0);
  ck_assert_int_eq(minex_drum_set_traffic(m, a2, 3.3), 0);
  return m;
}

static minex_drum_model *save_load(const minex_drum_model *m, const char *path,
                                   minex_drum_dialect dialect) {
  int rc = minex_drum_model_save(m, path, dialect);
  ck_assert_msg(rc == MINEX_OK, "%s", minex_last_error());
  return load_ok(path);
}

START_TEST(drum_roundtrip_thesis_keeps_every_attribute) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "t.xml");
  minex_drum_model *m = full_model();
  minex_drum_model *back = save_load(m, path, MINEX_DRUM_DIALECT_THESIS);
  assert_same_model(m, back);
  char *text = read_text(path);
  ck_assert_ptr_nonnull(strstr(text, "<machinemodel numnode=\"7\">"));
  ck_assert_ptr_nonnull(strstr(text, "type=\"COMPUTING_NODE\""));
  ck_assert_ptr_nonnull(strstr(text, "children=\"7;3;12;\""));
  ck_assert_ptr_nonnull(strstr(text, "benchmark=\"82.55\""));
  ck_assert_ptr_null(strstr(text, "nodenum"));
  free(text);
  ck_assert_int_eq(io_count_entries(dir), 1); /* no temporary left */
  minex_drum_model_destroy(back);
  minex_drum_model_destroy(m);
  io_rmdir(dir);
}
END_TEST

START_TEST(drum_roundtrip_drumhead_keeps_every_attribute) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "d.xml");
  minex_drum_model *m = full_model();
  minex_drum_model *back = save_load(m, path, MINEX_DRUM_DIALECT_DRUMHEAD);
  assert_same_model(m, back);
  char *text = read_text(path);
  ck_assert_ptr_nonnull(strstr(text, "type=\"MULTIPLE_COMPUTING\" "
                                     "nodenum=\"4\""));
  ck_assert_ptr_nonnull(strstr(text, "type=\"SINGLE_COMPUTING\" "
                                     "nodenum=\"5\""));
  ck_assert_ptr_nonnull(strstr(text, "parent=\"-1\""));
  ck_assert_ptr_null(strstr(text, "children="));
  free(text);
  ck_assert_int_eq(io_count_entries(dir), 1);
  minex_drum_model_destroy(back);
  minex_drum_model_destroy(m);
  io_rmdir(dir);
}
END_TEST

START_TEST(drum_convert_thesis_to_drumhead_and_back_keeps_the_model) {
  char dir[256], p1[512], p2[512];
  io_tmpdir(dir);
  io_join(p1, dir, "1.xml");
  io_join(p2, dir, "2.xml");
  const char *files[] = {"drum_fig35.xml", "drum_case_thesis.xml",
                         "drum_bullpen.xml", "drum_table54.xml"};
  for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
    minex_drum_model *m = load_ok(test_data_path(files[f]));
    minex_drum_model *d = save_load(m, p1, MINEX_DRUM_DIALECT_DRUMHEAD);
    assert_same_model(m, d);
    minex_drum_model *t = save_load(d, p2, MINEX_DRUM_DIALECT_THESIS);
    assert_same_model(m, t);
    minex_drum_model_destroy(m);
    minex_drum_model_destroy(d);
    minex_drum_model_destroy(t);
  }
  minex_drum_model *m = full_model();
  minex_drum_model *t = save_load(m, p1, MINEX_DRUM_DIALECT_THESIS);
  minex_drum_model *d = save_load(t, p2, MINEX_DRUM_DIALECT_DRUMHEAD);
  minex_drum_model *t2 = save_load(d, p1, MINEX_DRUM_DIALECT_THESIS);
  assert_same_model(m, t2);
  minex_drum_model_destroy(m);
  minex_drum_model_destroy(t);
  minex_drum_model_destroy(d);
  minex_drum_model_destroy(t2);
  ck_assert_int_eq(io_count_entries(dir), 2);
  io_rmdir(dir);
}
END_TEST

START_TEST(drum_save_renumbers_when_file_ids_repeat_or_are_negative) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "r.xml");
  for (int variant = 0; variant < 2; variant++) {
    for (int dialect = 0; dialect < 2; dialect++) {
      minex_drum_model *m = full_model();
      if (variant == 0)
        m->nodes[3].file_id = m->nodes[1].file_id; /* duplicate */
      else
        m->nodes[5].file_id = -4; /* negative */
      minex_drum_model *back = save_load(m, path, (minex_drum_dialect)dialect);
      for (int32_t i = 0; i < m->n; i++) {
        ck_assert_int_eq(back->nodes[i].file_id, i);
        m->nodes[i].file_id = i;
      }
      assert_same_model(m, back);
      minex_drum_model_destroy(m);
      minex_drum_model_destroy(back);
    }
  }
  io_rmdir(dir);
}
END_TEST

START_TEST(drum_save_rejects_unwritable_strings_and_writes_nothing) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "s.xml");
  minex_drum_model *m = full_model();
  ck_assert_int_eq(drum_set_strings(m, 6, "bell\a", ""), 0);
  io_expect_error(minex_drum_model_save(m, path, MINEX_DRUM_DIALECT_DRUMHEAD),
                  MINEX_EINVAL, "node 6", "control character");
  ck_assert_int_eq(drum_set_strings(m, 6, "ok", "bad\xff\xfe utf8"), 0);
  io_expect_error(minex_drum_model_save(m, path, MINEX_DRUM_DIALECT_THESIS),
                  MINEX_EINVAL, "address", "UTF-8");
  ck_assert_int_eq(io_count_entries(dir), 0);
  ck_assert_int_eq(minex_drum_model_save(m, path, (minex_drum_dialect)7),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_drum_model_save(NULL, path, MINEX_DRUM_DIALECT_THESIS),
                   MINEX_EINVAL);
  minex_drum_model *empty = NULL;
  ck_assert_int_eq(minex_drum_model_create(&empty), MINEX_OK);
  io_expect_error(minex_drum_model_save(empty, path, MINEX_DRUM_DIALECT_THESIS),
                  MINEX_EINVAL, "no nodes", NULL);
  ck_assert_int_eq(io_count_entries(dir), 0);
  /* UTF-8 names are fine */
  ck_assert_int_eq(drum_set_strings(m, 6,
                                    "n\xc3\xb6"
                                    "de",
                                    "\xe2\x82\xac"),
                   0);
  minex_drum_model *back = save_load(m, path, MINEX_DRUM_DIALECT_THESIS);
  assert_same_model(m, back);
  minex_drum_model_destroy(back);
  minex_drum_model_destroy(empty);
  minex_drum_model_destroy(m);
  io_rmdir(dir);
}
END_TEST

START_TEST(drum_save_to_unwritable_path_fails_and_leaves_no_file) {
  char dir[256], path[512], sub[512];
  io_tmpdir(dir);
  io_join(path, dir, "missing/m.xml");
  minex_drum_model *m = full_model();
  io_expect_error(minex_drum_model_save(m, path, MINEX_DRUM_DIALECT_THESIS),
                  MINEX_EIO, path, NULL);
  ck_assert_int_eq(io_count_entries(dir), 0);
  if (geteuid() != 0) { /* root writes into read-only directories */
    io_join(sub, dir, "ro");
    ck_assert_int_eq(mkdir(sub, 0500), 0);
    io_join(path, sub, "m.xml");
    io_expect_error(minex_drum_model_save(m, path, MINEX_DRUM_DIALECT_DRUMHEAD),
                    MINEX_EIO, path, NULL);
    ck_assert_int_eq(io_count_entries(sub), 0);
    chmod(sub, 0700);
  }
  minex_drum_model_destroy(m);
  io_rmdir(dir);
}
END_TEST

/* A write that fails half-way (file size limit) must leave the old file
 * untouched and no temporary behind. */
START_TEST(drum_save_failing_mid_write_keeps_the_old_file) {
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "big.xml");
  const char *old = "<machinemodel>old</machinemodel>\n";
  io_write_text(path, old);
  minex_drum_model *m = NULL;
  ck_assert_int_eq(minex_drum_model_create(&m), MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, -1, "r", NULL),
                   0);
  for (int32_t i = 0; i < 400; i++) {
    int32_t k;
    ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, 0,
                                         "a-rather-long-host-name.example.org",
                                         &k),
                     0);
    ck_assert_int_eq(minex_drum_set_benchmark(m, k, 1.0 / (k + 1)), 0);
  }
  struct rlimit saved, lim;
  ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &saved), 0);
  lim = saved;
  lim.rlim_cur = 2048;
  void (*saved_sig)(int) = signal(SIGXFSZ, SIG_IGN);
  ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &lim), 0);
  int rc_t = minex_drum_model_save(m, path, MINEX_DRUM_DIALECT_THESIS);
  int rc_d = minex_drum_model_save(m, path, MINEX_DRUM_DIALECT_DRUMHEAD);
  setrlimit(RLIMIT_FSIZE, &saved);
  signal(SIGXFSZ, saved_sig);
  ck_assert_int_eq(rc_t, MINEX_EIO);
  ck_assert_int_eq(rc_d, MINEX_EIO);
  ck_assert_int_eq(io_count_entries(dir), 1);
  char *text = read_text(path);
  ck_assert_str_eq(text, old);
  free(text);
  /* without the limit the same save succeeds and replaces the file */
  minex_drum_model *back = save_load(m, path, MINEX_DRUM_DIALECT_THESIS);
  assert_same_model(m, back);
  ck_assert_int_eq(io_count_entries(dir), 1);
  minex_drum_model_destroy(back);
  minex_drum_model_destroy(m);
  io_rmdir(dir);
}
END_TEST

/* stderr stays empty while bad files are loaded: libxml2 never prints. */
START_TEST(drum_load_never_prints) {
  static const char *files[] = {"drum_bad_xml.xml", "drum_bad_root.xml",
                                "drum_bad_cycle.xml", "drum_bad_number.xml"};
  char dir[256], path[512];
  io_tmpdir(dir);
  io_join(path, dir, "stderr.txt");
  fflush(stderr);
  int saved = dup(2);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ck_assert_int_ge(fd, 0);
  dup2(fd, 2);
  close(fd);
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    minex_drum_model *m = NULL;
    ck_assert_int_ne(minex_drum_model_load(test_data_path(files[i]), &m),
                     MINEX_OK);
  }
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  char *text = read_text(path);
  ck_assert_str_eq(text, "");
  free(text);
  io_rmdir(dir);
}
END_TEST

int main(void) {
  Suite *s = suite_create("drum_xml");
  TCase *tc = tcase_create("drum_xml");
  tcase_add_test(tc, drum_load_fig35_gives_the_thesis_tree);
  tcase_add_test(
      tc, drum_load_bullpen_excerpt_ignores_lbmethod_and_image_attributes);
  tcase_add_test(tc, drum_load_table54_gives_the_reconfigured_bullpen);
  tcase_add_test(tc, drum_load_ignores_case_of_names_and_types_drumhead);
  tcase_add_test(tc,
                 drum_load_ignores_case_and_orders_thesis_nodes_depth_first);
  tcase_add_test(tc,
                 drum_load_rejects_each_malformed_fixture_naming_file_and_line);
  tcase_add_test(tc, drum_load_rejects_non_numbers_and_out_of_range_values);
  tcase_add_test(tc, drum_load_rejects_structural_errors_in_either_dialect);
  tcase_add_test(tc, drum_load_accepts_children_and_boolean_spellings);
  tcase_add_test(tc,
                 drum_load_of_missing_file_is_eio_and_null_arguments_einval);
  tcase_add_test(tc, drum_roundtrip_thesis_keeps_every_attribute);
  tcase_add_test(tc, drum_roundtrip_drumhead_keeps_every_attribute);
  tcase_add_test(tc, drum_convert_thesis_to_drumhead_and_back_keeps_the_model);
  tcase_add_test(tc, drum_save_renumbers_when_file_ids_repeat_or_are_negative);
  tcase_add_test(tc, drum_save_rejects_unwritable_strings_and_writes_nothing);
  tcase_add_test(tc, drum_save_to_unwritable_path_fails_and_leaves_no_file);
  tcase_add_test(tc, drum_save_failing_mid_write_keeps_the_old_file);
  tcase_add_test(tc, drum_load_never_prints);

  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
