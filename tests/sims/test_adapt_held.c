/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the forests that hold some roots only (sims/adapt.h, "The roots
 * a forest holds"; examples/mpi_adapt.c): the roots split over
 * three forests, each adapting its own, the trees moving between them by
 * pack / drop / unpack after every adaptation, give every root the tree,
 * the counts and in the end the graph of the forest holding every root;
 * malformed or misplaced trees are rejected with the root named, and
 * leave the forest as it was. */
#include "adapt.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NF = 3 }; /* forests: the "processes" */

static minex_mesh *box(int32_t nx, int32_t ny, int32_t nz) {
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_gen_box(nx, ny, nz, &m), MINEX_OK);
  return m;
}

/* A fixed pseudo-random holder of root r after adaptation k. */
static int holder(int32_t r, int32_t k) {
  uint32_t h = (uint32_t)r * 2654435761u ^ (uint32_t)(k + 1) * 40503u;
  h ^= h >> 15;
  h *= 2246822519u;
  h ^= h >> 13;
  return (int)(h % NF);
}

/* Root r of a and of b are the same tree: counts, neighbours and bytes. */
static void assert_same_root(const sim_adapt *a, const sim_adapt *b,
                             int32_t r) {
  sim_root_stats s, t;
  ck_assert_msg(sim_adapt_root(a, r, &s) == MINEX_OK, "%s", sim_last_error());
  ck_assert_msg(sim_adapt_root(b, r, &t) == MINEX_OK, "%s", sim_last_error());
  QUIET_ASSERT(s.leaves == t.leaves && s.elements == t.elements &&
               s.depth == t.depth);
  for (int f = 0; f < 4; f++)
    QUIET_ASSERT(s.faces[f] == t.faces[f] && s.nbr[f] == t.nbr[f]);
  size_t n = sim_adapt_tree_size(a, r);
  QUIET_ASSERT(n == (size_t)s.elements && sim_adapt_tree_size(b, r) == n);
  uint8_t *x = malloc(n), *y = malloc(n);
  QUIET_ASSERT(x != NULL && y != NULL);
  QUIET_ASSERT(sim_adapt_tree_pack(a, r, x, n) == MINEX_OK);
  QUIET_ASSERT(sim_adapt_tree_pack(b, r, y, n) == MINEX_OK);
  QUIET_ASSERT(memcmp(x, y, n) == 0);
  free(x);
  free(y);
}

/* Moves root r's tree from forest a to forest b. */
static void move_root(sim_adapt *a, sim_adapt *b, int32_t r) {
  size_t n = sim_adapt_tree_size(a, r);
  QUIET_ASSERT(n >= 1);
  uint8_t *buf = malloc(n);
  QUIET_ASSERT(buf != NULL);
  QUIET_ASSERT(sim_adapt_tree_pack(a, r, buf, n) == MINEX_OK);
  QUIET_ASSERT(sim_adapt_tree_drop(a, r) == MINEX_OK);
  ck_assert_msg(sim_adapt_tree_unpack(b, r, buf, n) == MINEX_OK, "%s",
                sim_last_error());
  free(buf);
}

/* The whole run of p on m: one forest holding every root against three
 * holding a third each, trees moving after every adaptation; before the
 * last adaptation every tree goes to forest 0, so that forests 1 and 2
 * adapt holding none. */
static void split_run(const minex_mesh *m, const sim_adapt_params *p) {
  sim_adapt *whole = NULL, *f[NF] = {NULL};
  ck_assert_msg(sim_adapt_create(m, p, &whole) == MINEX_OK, "%s",
                sim_last_error());
  const int32_t n = sim_adapt_nroots(whole);
  int *own = malloc(sizeof *own * (size_t)n);
  ck_assert_ptr_nonnull(own);
  for (int i = 0; i < NF; i++) {
    ck_assert_int_eq(sim_adapt_create(m, p, &f[i]), MINEX_OK);
    for (int32_t r = 0; r < n; r++)
      if (holder(r, -1) != i)
        ck_assert_int_eq(sim_adapt_tree_drop(f[i], r), MINEX_OK);
  }
  for (int32_t r = 0; r < n; r++)
    own[r] = holder(r, -1);
  int64_t moved = 0, moved_refined = 0;
  for (int32_t k = 1; k <= p->nsteps; k++) {
    if (k == p->nsteps) /* all to forest 0 */
      for (int32_t r = 0; r < n; r++)
        if (own[r] != 0) {
          move_root(f[own[r]], f[0], r);
          own[r] = 0;
        }
    ck_assert_int_eq(sim_adapt_step(whole), MINEX_OK);
    int64_t leaves = 0, elements = 0;
    for (int i = 0; i < NF; i++) {
      ck_assert_msg(sim_adapt_step(f[i]) == MINEX_OK, "%s", sim_last_error());
      ck_assert_int_eq(sim_adapt_step_count(f[i]), k);
      ck_assert_msg(sim_adapt_check(f[i]) == MINEX_OK, "%s", sim_last_error());
      leaves += sim_adapt_leaves(f[i]);
      elements += sim_adapt_elements(f[i]);
    }
    ck_assert_int_eq(leaves, sim_adapt_leaves(whole));
    ck_assert_int_eq(elements, sim_adapt_elements(whole));
    for (int32_t r = 0; r < n; r++) {
      for (int i = 0; i < NF; i++)
        QUIET_ASSERT(sim_adapt_holds(f[i], r) == (i == own[r]));
      assert_same_root(f[own[r]], whole, r);
    }
    if (k == p->nsteps)
      break;
    for (int32_t r = 0; r < n; r++) {
      int to = holder(r, k);
      if (to == own[r])
        continue;
      moved++;
      moved_refined += sim_adapt_tree_size(f[own[r]], r) > 1;
      move_root(f[own[r]], f[to], r);
      own[r] = to;
    }
    for (int i = 0; i < NF; i++)
      ck_assert_msg(sim_adapt_check(f[i]) == MINEX_OK, "%s", sim_last_error());
  }
  /* the trees did travel, refined ones among them */
  ck_assert_int_gt(moved, n);
  ck_assert_int_gt(moved_refined, 10);
  ck_assert_int_eq(sim_adapt_leaves(f[1]), 0);
  ck_assert_int_eq(sim_adapt_elements(f[2]), 0);
  /* forest 0 holds every tree: the whole forest's graph, bit for bit */
  minex_graph *g = NULL, *h = NULL;
  ck_assert_msg(sim_adapt_graph(whole, &g) == MINEX_OK, "%s", sim_last_error());
  ck_assert_msg(sim_adapt_graph(f[0], &h) == MINEX_OK, "%s", sim_last_error());
  test_assert_graphs_equal(g, h);
  minex_graph_destroy(g);
  minex_graph_destroy(h);
  /* a forest missing trees has no graph */
  g = (minex_graph *)1;
  ck_assert_int_eq(sim_adapt_graph(f[1], &g), MINEX_EINVAL);
  ck_assert_ptr_null(g);
  ck_assert_ptr_nonnull(strstr(sim_last_error(), "holds 0 of the"));
  free(own);
  for (int i = 0; i < NF; i++)
    sim_adapt_destroy(f[i]);
  sim_adapt_destroy(whole);
}

START_TEST(trees_moved_between_three_forests_equal_the_whole_forests) {
  minex_mesh *m = box(4, 4, 4);
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  split_run(m, &p);
  /* deeper trees, another direction, a wider cylinder */
  sim_adapt_defaults(&p);
  p.nsteps = 5;
  p.depth = 4;
  p.axis = 0;
  p.sweep = 1;
  p.radius = 0.2;
  split_run(m, &p);
  minex_mesh_destroy(m);
}
END_TEST

/* Forest of a 2^3 box at depth 2 with the cylinder over all of it (every
 * root red-refined twice: 1 + 8 + 64 = 73 bytes), root r dropped (none
 * for r = -1). */
static sim_adapt *forest_without(const minex_mesh *m, int32_t r,
                                 int64_t max_elements) {
  sim_adapt_params p;
  sim_adapt_defaults(&p);
  p.nsteps = 1;
  p.depth = 2;
  p.radius = 10;
  p.max_elements = max_elements;
  sim_adapt *a = NULL;
  ck_assert_int_eq(sim_adapt_create(m, &p, &a), MINEX_OK);
  if (r >= 0)
    ck_assert_int_eq(sim_adapt_tree_drop(a, r), MINEX_OK);
  ck_assert_int_eq(sim_adapt_step(a), MINEX_OK);
  return a;
}

/* Unpacking buf into root r of a fails with MINEX_EINVAL, a message naming
 * the function, the root and want, and leaves a as it was. */
static void assert_rejected(sim_adapt *a, int32_t r, const void *buf,
                            size_t len, const char *want) {
  const int64_t leaves = sim_adapt_leaves(a), el = sim_adapt_elements(a);
  const int held = sim_adapt_holds(a, r);
  ck_assert_int_eq(sim_adapt_tree_unpack(a, r, buf, len), MINEX_EINVAL);
  char root[32];
  snprintf(root, sizeof root, "root %d", (int)r);
  ck_assert_msg(strstr(sim_last_error(), "sim_adapt_tree_unpack") != NULL &&
                    strstr(sim_last_error(), root) != NULL &&
                    strstr(sim_last_error(), want) != NULL,
                "want '%s': '%s'", want, sim_last_error());
  ck_assert_int_eq(sim_adapt_holds(a, r), held);
  ck_assert_int_eq(sim_adapt_leaves(a), leaves);
  ck_assert_int_eq(sim_adapt_elements(a), el);
  ck_assert_msg(sim_adapt_check(a) == MINEX_OK, "%s", sim_last_error());
}

START_TEST(malformed_or_misplaced_trees_are_rejected_naming_the_root) {
  minex_mesh *m = box(2, 2, 2);
  const int32_t r = 5;
  sim_adapt *whole = forest_without(m, -1, (int64_t)1 << 27);
  sim_adapt *a = forest_without(m, r, (int64_t)1 << 27);
  uint8_t good[80], bad[80];
  ck_assert_uint_eq(sim_adapt_tree_size(whole, r), 73);
  ck_assert_int_eq(sim_adapt_tree_pack(whole, r, good, sizeof good), MINEX_OK);
  ck_assert_int_eq(good[0], 11); /* 1:8 */
  ck_assert_int_eq(sim_adapt_tree_size(a, r), 0);
  ck_assert_int_eq(sim_adapt_holds(a, r), 0);

  assert_rejected(a, r, good, 0, "no bytes");
  assert_rejected(a, r, NULL, 73, "no bytes");
  assert_rejected(a, r, good, 72, "ends inside the tree");
  memcpy(bad, good, 73);
  bad[73] = 0;
  assert_rejected(a, r, bad, 74, "byte 73 of 74: bytes after the end");
  bad[0] = 12;
  assert_rejected(a, r, bad, 73, "byte 0 of 73: not a split code");
  memcpy(bad, good, 73);
  bad[40] = 255;
  assert_rejected(a, r, bad, 73, "byte 40 of 73: not a split code");
  /* a level-2 node split at depth 2 */
  static const uint8_t deep[3] = {11, 11, 11};
  assert_rejected(a, r, deep, 3, "byte 2 of 3: a split at the forest's depth");
  /* the first child of a bisection split again */
  static const uint8_t green[4] = {1, 11, 0, 0};
  assert_rejected(a, r, green, 4, "byte 1 of 4: a child of a 1:2 or 1:4");
  /* misplaced: a root held already, roots out of range */
  assert_rejected(a, 0, good, 73, "held by this forest already");
  ck_assert_int_eq(sim_adapt_tree_unpack(a, -1, good, 73), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_tree_unpack(a, 48, good, 73), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_tree_unpack(NULL, r, good, 73), MINEX_EINVAL);

  /* a small well-formed tree is accepted and counted: one bisection */
  static const uint8_t bisect[3] = {1, 0, 0};
  ck_assert_int_eq(sim_adapt_tree_unpack(a, r, bisect, 3), MINEX_OK);
  sim_root_stats st;
  ck_assert_int_eq(sim_adapt_root(a, r, &st), MINEX_OK);
  ck_assert_int_eq(st.leaves, 2);
  ck_assert_int_eq(st.elements, 3);
  ck_assert_int_eq(st.depth, 1);
  ck_assert_int_eq(sim_adapt_check(a), MINEX_OK);
  ck_assert_int_eq(sim_adapt_tree_drop(a, r), MINEX_OK);
  /* the root's own tree: the whole forest's root, counts and bytes */
  ck_assert_int_eq(sim_adapt_tree_unpack(a, r, good, 73), MINEX_OK);
  assert_same_root(a, whole, r);
  ck_assert_int_eq(sim_adapt_leaves(a), sim_adapt_leaves(whole));
  ck_assert_int_eq(sim_adapt_check(a), MINEX_OK);

  /* the other calls on a root not held, or a buffer too small */
  ck_assert_int_eq(sim_adapt_tree_drop(a, r), MINEX_OK);
  ck_assert_int_eq(sim_adapt_tree_drop(a, r), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(sim_last_error(), "root 5 is not held"));
  ck_assert_int_eq(sim_adapt_root(a, r, &st), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(sim_last_error(), "root 5 is not held"));
  ck_assert_int_eq(sim_adapt_tree_pack(a, r, bad, sizeof bad), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_tree_pack(whole, r, bad, 72), MINEX_EINVAL);
  ck_assert_ptr_nonnull(strstr(sim_last_error(), "root 5: its tree takes 73"));
  ck_assert_int_eq(sim_adapt_tree_pack(whole, r, NULL, 73), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_tree_drop(NULL, r), MINEX_EINVAL);
  ck_assert_int_eq(sim_adapt_holds(NULL, r), 0);
  ck_assert_int_eq(sim_adapt_holds(a, 48), 0);
  ck_assert_uint_eq(sim_adapt_tree_size(a, -1), 0);
  sim_adapt_destroy(a);

  /* a tree that takes the held ones beyond max_elements: 47 of 48 roots
     held as 73 elements each, one more would exceed 47 * 73 + 10 */
  a = forest_without(m, r, 47 * 73 + 10);
  assert_rejected(a, r, good, 73, "beyond its max_elements");
  ck_assert_int_eq(sim_adapt_tree_unpack(a, r, bisect, 3), MINEX_OK);
  sim_adapt_destroy(a);
  sim_adapt_destroy(whole);
  minex_mesh_destroy(m);
}
END_TEST

START_TEST(random_bytes_are_rejected_or_make_well_formed_trees) {
  /* every byte of a good tree replaced by every value in turn, and random
     truncations: never a crash, a failure leaves the forest as it was, a
     success is a tree sim_adapt_check accepts */
  minex_mesh *m = box(2, 2, 2);
  const int32_t r = 7;
  sim_adapt *whole = forest_without(m, -1, (int64_t)1 << 27);
  sim_adapt *a = forest_without(m, r, (int64_t)1 << 27);
  uint8_t good[73], bad[73];
  ck_assert_int_eq(sim_adapt_tree_pack(whole, r, good, sizeof good), MINEX_OK);
  const int64_t leaves = sim_adapt_leaves(a);
  int ok = 0, rejected = 0;
  for (int i = 0; i < 73; i++)
    for (int v = 0; v < 256; v += 3) {
      memcpy(bad, good, sizeof bad);
      bad[i] = (uint8_t)v;
      size_t len = 73 - (size_t)((i * 7 + v) % 5 == 0 ? v % 73 : 0);
      int rc = sim_adapt_tree_unpack(a, r, bad, len);
      QUIET_ASSERT(rc == MINEX_OK || rc == MINEX_EINVAL);
      QUIET_ASSERT(rc == MINEX_OK || strstr(sim_last_error(), "root 7"));
      QUIET_ASSERT(sim_adapt_check(a) == MINEX_OK);
      if (rc == MINEX_OK) {
        ok++;
        QUIET_ASSERT(sim_adapt_elements(a) > 0 &&
                     sim_adapt_tree_size(a, r) == len);
        QUIET_ASSERT(sim_adapt_tree_drop(a, r) == MINEX_OK);
      } else {
        rejected++;
        QUIET_ASSERT(!sim_adapt_holds(a, r));
      }
      QUIET_ASSERT(sim_adapt_leaves(a) == leaves);
    }
  /* both occur: a byte set to its own value keeps the tree good */
  ck_assert_int_gt(ok, 0);
  ck_assert_int_gt(rejected, 1000);
  sim_adapt_destroy(a);
  sim_adapt_destroy(whole);
  minex_mesh_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("sims_adapt_held");
  TCase *tc = tcase_create("held");
  tcase_add_test(tc, trees_moved_between_three_forests_equal_the_whole_forests);
  tcase_add_test(tc, malformed_or_misplaced_trees_are_rejected_naming_the_root);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 600);
  tcase_add_test(heavy, random_bytes_are_rejected_or_make_well_formed_trees);
  return test_run_suite(s);
}
