/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Allocation failure: every public entry point that allocates
 * is called with its n-th allocation failing, for n = 1, 2, ... until the
 * call succeeds. Each failing call must return MINEX_ENOMEM, free what it
 * allocated and leave its outputs as they were (*out NULL, output arrays
 * unchanged). The test is linked with -Wl,--wrap=malloc,... (see
 * tests/driver/CMakeLists.txt), so the library's own calls to the
 * allocators come here; libxml2 and GSL allocate inside their shared
 * libraries and are not reached (gsl_rng_alloc, called by the library, is).
 * Leaks are caught by the pointer set below in every build, and by LSan
 * and valgrind (scripts/test.sh). docs/reference/reliability.md has the
 * figures. */
#define _GNU_SOURCE /* dladdr */
#include "minex.h"
#include "minex_drum.h"
#include "test_util.h"

#include <dlfcn.h>
#include <errno.h>
#include <gsl/gsl_rng.h>
#include <malloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* ------------------------------------------------------ the wrappers */

void *__real_malloc(size_t size);
void *__real_calloc(size_t nmemb, size_t size);
void *__real_realloc(void *ptr, size_t size);
void __real_free(void *ptr);
ssize_t __real_getline(char **line, size_t *cap, FILE *fp);
gsl_rng *__real_gsl_rng_alloc(const gsl_rng_type *type);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t nmemb, size_t size);
void *__wrap_realloc(void *ptr, size_t size);
void __wrap_free(void *ptr);
char *__wrap_strdup(const char *s);
ssize_t __wrap_getline(char **line, size_t *cap, FILE *fp);
gsl_rng *__wrap_gsl_rng_alloc(const gsl_rng_type *type);

static int armed;         /* 1 while the call under test runs           */
static int64_t count;     /* allocations seen while armed               */
static int64_t fail_at;   /* the allocation that fails (0: none)        */
static int failed_shrink; /* 1: it was a realloc to a smaller block      */

/* Blocks allocated while armed and not freed yet (open addressing;
 * tracking stops, with a flag, if it ever fills). */
#define LIVE_BITS 16
static void *live[1 << LIVE_BITS];
static int64_t nlive;
static int live_overflow;

static size_t live_slot(const void *p) {
  return (size_t)(((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull >>
                  (64 - LIVE_BITS));
}
static void live_add(void *p) {
  if (p == NULL)
    return;
  if (nlive >= (1 << LIVE_BITS) / 2) {
    live_overflow = 1;
    return;
  }
  size_t h = live_slot(p);
  while (live[h] != NULL && live[h] != (void *)1)
    h = (h + 1) & ((1u << LIVE_BITS) - 1);
  live[h] = p;
  nlive++;
}
static void live_remove(void *p) {
  if (p == NULL || nlive == 0)
    return;
  for (size_t h = live_slot(p); live[h] != NULL;
       h = (h + 1) & ((1u << LIVE_BITS) - 1))
    if (live[h] == p) {
      live[h] = (void *)1; /* tombstone */
      nlive--;
      return;
    }
}
static void live_reset(void) {
  memset(live, 0, sizeof live);
  nlive = 0;
  live_overflow = 0;
}

/* Distinct call sites (return addresses) seen while armed, for the
 * figures of docs/reference/reliability.md. */
#define SITES_MAX 1024
static void *sites[SITES_MAX];
static int32_t nsites;
static void note_site(void *ra) {
  for (int32_t i = 0; i < nsites; i++)
    if (sites[i] == ra)
      return;
  if (nsites < SITES_MAX)
    sites[nsites++] = ra;
}

/* 1 when the allocation being made must fail. */
#define fail_now()                                                             \
  (armed ? note_site(__builtin_return_address(0)), ++count == fail_at : 0)

void *__wrap_malloc(size_t size) {
  if (fail_now())
    return NULL;
  void *p = __real_malloc(size);
  if (armed)
    live_add(p);
  return p;
}

void *__wrap_calloc(size_t nmemb, size_t size) {
  if (fail_now())
    return NULL;
  void *p = __real_calloc(nmemb, size);
  if (armed)
    live_add(p);
  return p;
}

void *__wrap_realloc(void *ptr, size_t size) {
  if (fail_now()) {
    /* a shrinking realloc may fail harmlessly (level.c keeps the block) */
    failed_shrink = ptr != NULL && malloc_usable_size(ptr) >= size;
    return NULL; /* like realloc: ptr stays valid */
  }
  void *p = __real_realloc(ptr, size);
  if (armed && p != NULL) {
    live_remove(ptr);
    live_add(p);
  }
  return p;
}

void __wrap_free(void *ptr) {
  live_remove(ptr);
  __real_free(ptr);
}

char *__wrap_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = __wrap_malloc(n);
  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

ssize_t __wrap_getline(char **line, size_t *cap, FILE *fp) {
  /* getline allocates (or grows) the line buffer: a failure is ENOMEM */
  if (fail_now()) {
    errno = ENOMEM;
    return -1;
  }
  return __real_getline(line, cap, fp);
}

gsl_rng *__wrap_gsl_rng_alloc(const gsl_rng_type *type) {
  if (fail_now())
    return NULL;
  return __real_gsl_rng_alloc(type); /* GSL's own malloc: not tracked */
}

/* ------------------------------------------------------------ the loop */

/* One entry point: run makes the call (armed), ok_untouched says whether
 * the outputs are as before after a failure, release frees what a
 * successful call made, reset prepares the outputs before each call. */
typedef struct alloc_case {
  const char *name;
  int (*run)(void *ctx);
  int (*untouched)(void *ctx); /* NULL: nothing to compare */
  void (*release)(void *ctx);  /* NULL: nothing to free */
  void (*reset)(void *ctx);    /* NULL: nothing to prepare */
  void *ctx;
} alloc_case;

/* Runs c with allocation n = 1, 2, ... failing; returns the number of
 * allocations of the successful call (the failures checked). */
static int64_t alloc_loop(const alloc_case *c) {
  for (int64_t n = 1;; n++) {
    ck_assert_msg(n < 1000000, "%s: no success after 1e6 failures", c->name);
    if (c->reset)
      c->reset(c->ctx);
    live_reset();
    count = 0;
    failed_shrink = 0;
    fail_at = n;
    armed = 1;
    int rc = c->run(c->ctx);
    armed = 0;
    if (count < n) {
      /* the n-th allocation was never reached: the call went through */
      ck_assert_msg(rc == MINEX_OK,
                    "%s: fails with %s (%s) without an "
                    "allocation failure",
                    c->name, minex_err_name(rc), minex_last_error());
      ck_assert_msg(count > 0, "%s: no allocation reached the wrappers",
                    c->name);
      if (c->release)
        c->release(c->ctx);
      printf("alloc_fail: %-32s %4lld allocations, each failed once\n", c->name,
             (long long)count);
      return count;
    }
    if (rc == MINEX_OK && failed_shrink) {
      /* the call did without the smaller block: a success to release */
      if (c->release)
        c->release(c->ctx);
      continue;
    }
    ck_assert_msg(rc == MINEX_ENOMEM,
                  "%s: allocation %lld failed: got %s "
                  "(%s), want MINEX_ENOMEM",
                  c->name, (long long)n, minex_err_name(rc),
                  minex_last_error());
    ck_assert_msg(live_overflow || nlive == 0,
                  "%s: allocation %lld failed: "
                  "%lld blocks leaked",
                  c->name, (long long)n, (long long)nlive);
    if (c->untouched)
      ck_assert_msg(c->untouched(c->ctx),
                    "%s: allocation %lld failed: "
                    "output modified",
                    c->name, (long long)n);
  }
}

/* --------------------------------------------------------- the inputs */

static char tmpdir[64];
static char path_graph[128], path_part[128], path_config[128], path_drum[128],
    path_out[128];

static minex_graph *grid;  /* 4 x 4 x 2 grid, unit weights */
static minex_config *cfg4; /* 2 clusters of 2, heterogeneous */
static minex_mesh *box;    /* gen_box 2 x 2 x 2 */
static minex_drum_model *drum;

static void setup(void) {
  snprintf(tmpdir, sizeof tmpdir, "/tmp/minex-allocfail-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
  snprintf(path_graph, sizeof path_graph, "%s/g.graph", tmpdir);
  snprintf(path_part, sizeof path_part, "%s/g.part", tmpdir);
  snprintf(path_config, sizeof path_config, "%s/c.xml", tmpdir);
  snprintf(path_drum, sizeof path_drum, "%s/d.xml", tmpdir);
  snprintf(path_out, sizeof path_out, "%s/out", tmpdir);
  grid = test_grid_graph(4, 4, 2);
  ck_assert_ptr_nonnull(grid);
  int32_t np[2] = {2, 2};
  double proc[2] = {1, 2}, conn[4] = {1, 10, 10, 1};
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &cfg4), MINEX_OK);
  ck_assert_int_eq(minex_gen_box(2, 2, 2, &box), MINEX_OK);
  ck_assert_int_eq(minex_graph_write_metis(grid, path_graph), MINEX_OK);
  int32_t part[32];
  for (int32_t v = 0; v < 32; v++)
    part[v] = v / 8;
  ck_assert_int_eq(minex_part_write(path_part, 32, part), MINEX_OK);
  ck_assert_int_eq(minex_config_save(cfg4, path_config), MINEX_OK);
  ck_assert_int_eq(
      minex_drum_model_load(test_data_path("drum_case_thesis.xml"), &drum),
      MINEX_OK);
  ck_assert_int_eq(
      minex_drum_model_save(drum, path_drum, MINEX_DRUM_DIALECT_DRUMHEAD),
      MINEX_OK);
}

static void teardown(void) {
  minex_graph_destroy(grid);
  minex_config_destroy(cfg4);
  minex_mesh_destroy(box);
  minex_drum_model_destroy(drum);
  const char *files[] = {path_graph, path_part, path_config, path_drum,
                         path_out};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++)
    unlink(files[i]);
  rmdir(tmpdir);
}

/* Constructors with a `T **out`: the output pointer must stay NULL. */
typedef struct out_ctx {
  void *out;                  /* the object made                       */
  void (*destroy)(void *obj); /* its destroy function                  */
} out_ctx;

static int out_null(void *c) {
  return ((out_ctx *)c)->out == NULL;
}
static void out_reset(void *c) {
  ((out_ctx *)c)->out = NULL;
}
static void out_release(void *c) {
  out_ctx *o = c;
  o->destroy(o->out);
  o->out = NULL;
}
static void destroy_graph(void *p) {
  minex_graph_destroy(p);
}
static void destroy_config(void *p) {
  minex_config_destroy(p);
}
static void destroy_mesh(void *p) {
  minex_mesh_destroy(p);
}
static void destroy_drum(void *p) {
  minex_drum_model_destroy(p);
}
static void destroy_feedback(void *p) {
  minex_feedback_destroy(p);
}
static void destroy_monitor(void *p) {
  minex_drum_monitor_destroy(p);
}

#define OUT_CASE(fname, destroyer)                                             \
  static int run_##fname(void *c);                                             \
  static void check_##fname(void) {                                            \
    out_ctx o = {NULL, destroyer};                                             \
    alloc_case ac = {                                                          \
        #fname, run_##fname, out_null, out_release, out_reset, &o};            \
    alloc_loop(&ac);                                                           \
  }                                                                            \
  static int run_##fname(void *c)

OUT_CASE(minex_graph_create, destroy_graph) {
  const int64_t xadj[4] = {0, 1, 3, 4};
  const int32_t adj[4] = {1, 0, 2, 1};
  const double w[3] = {1, 2, 3}, cw[4] = {1, 1, 2, 2};
  return minex_graph_create(3, xadj, adj, w, w, cw,
                            (minex_graph **)&((out_ctx *)c)->out);
}
/* a hub of degree 40: the sort of long neighbour lists takes a buffer */
OUT_CASE(minex_graph_create_hub, destroy_graph) {
  int64_t xadj[42];
  int32_t adj[80];
  xadj[0] = 0;
  xadj[1] = 40;
  for (int32_t k = 0; k < 40; k++) {
    adj[k] = 40 - k; /* unsorted */
    adj[40 + k] = 0;
    xadj[k + 2] = 41 + k;
  }
  return minex_graph_create(41, xadj, adj, NULL, NULL, NULL,
                            (minex_graph **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_config_create, destroy_config) {
  int32_t np[3] = {2, 0, 3};
  double proc[3] = {1, 2, 3};
  double conn[9] = {1, 2, 3, 2, 1, 4, 3, 4, 1};
  return minex_config_create(3, np, proc, conn,
                             (minex_config **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_config_create_uniform, destroy_config) {
  return minex_config_create_uniform(5, (minex_config **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_graph_read_metis, destroy_graph) {
  return minex_graph_read_metis(path_graph,
                                (minex_graph **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_part_read, free) {
  return minex_part_read(path_part, 32, 4, (int32_t **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_config_load, destroy_config) {
  return minex_config_load(path_config, (minex_config **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_mesh_read_medit, destroy_mesh) {
  return minex_mesh_read(test_data_path("mesh_two_tets.mesh"),
                         (minex_mesh **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_mesh_read_medit_2d, destroy_mesh) {
  return minex_mesh_read(test_data_path("mesh_square2d.mesh"),
                         (minex_mesh **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_mesh_read_gmsh_v2, destroy_mesh) {
  return minex_mesh_read(test_data_path("mesh_cube_v2.msh"),
                         (minex_mesh **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_mesh_read_gmsh_v41, destroy_mesh) {
  return minex_mesh_read(test_data_path("mesh_cube_v41.msh"),
                         (minex_mesh **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_mesh_create, destroy_mesh) {
  const double xyz[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  const int32_t el[4] = {0, 1, 2, 3};
  return minex_mesh_create(4, xyz, 1, MINEX_ELEM_TETRA, el,
                           (minex_mesh **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_gen_box, destroy_mesh) {
  return minex_gen_box(2, 3, 2, (minex_mesh **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_mesh_dual, destroy_graph) {
  return minex_mesh_dual(box, NULL, NULL, NULL, NULL,
                         (minex_graph **)&((out_ctx *)c)->out);
}
static double cwgt_two(int32_t e1, int32_t e2, void *ctx) {
  (void)e1, (void)e2, (void)ctx;
  return 2;
}
OUT_CASE(minex_mesh_dual_weighted, destroy_graph) {
  double w[48];
  for (int i = 0; i < 48; i++)
    w[i] = 1 + i % 3;
  return minex_mesh_dual(box, w, w, cwgt_two, NULL,
                         (minex_graph **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_mesh_dual_ball, destroy_graph) {
  minex_ball b = {{0.5, 0.5, 0.5}, 0.4, 8, 4};
  return minex_mesh_dual_ball(box, &b, (minex_graph **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_drum_model_create, destroy_drum) {
  return minex_drum_model_create((minex_drum_model **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_drum_model_load_thesis, destroy_drum) {
  return minex_drum_model_load(test_data_path("drum_case_thesis.xml"),
                               (minex_drum_model **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_drum_model_load_drumhead, destroy_drum) {
  return minex_drum_model_load(path_drum,
                               (minex_drum_model **)&((out_ctx *)c)->out);
}
/* a model built node by node, past the first growth of its node array */
OUT_CASE(minex_drum_build, destroy_drum) {
  minex_drum_model **m = (minex_drum_model **)&((out_ctx *)c)->out;
  minex_drum_model *t = NULL;
  int rc = minex_drum_model_create(&t);
  for (int i = 0; rc == MINEX_OK && i < 12; i++) {
    char name[16];
    snprintf(name, sizeof name, "n%d", i);
    rc = minex_drum_add_node(t,
                             i < 3 ? MINEX_DRUM_NETWORK : MINEX_DRUM_COMPUTING,
                             i == 0  ? -1
                             : i < 3 ? 0
                                     : 1 + i % 2,
                             name, NULL);
  }
  if (rc != MINEX_OK) {
    /* add_node failed: the model must still be whole and freeable */
    minex_drum_model_destroy(t);
    return rc;
  }
  *m = t;
  return MINEX_OK;
}
OUT_CASE(minex_drum_config, destroy_config) {
  int32_t nodes[16];
  return minex_drum_config(drum, NULL, (minex_config **)&((out_ctx *)c)->out,
                           nodes);
}
OUT_CASE(minex_feedback_create, destroy_feedback) {
  return minex_feedback_create(6, 5, MINEX_FEEDBACK_MEDIAN,
                               (minex_feedback **)&((out_ctx *)c)->out);
}
static minex_feedback *filled_feedback(void) {
  minex_feedback *f = NULL;
  ck_assert_int_eq(minex_feedback_create(4, 3, MINEX_FEEDBACK_MEDIAN, &f),
                   MINEX_OK);
  double load[4] = {4, 3, 2, 0}, secs[4] = {1, 1, 2, 0};
  for (int s = 0; s < 4; s++)
    ck_assert_int_eq(minex_feedback_add(f, load, secs), MINEX_OK);
  return f;
}
static minex_feedback *fb;
OUT_CASE(minex_feedback_config_per_proc, destroy_config) {
  return minex_feedback_config(fb, cfg4, 1,
                               (minex_config **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_feedback_config_clusters, destroy_config) {
  return minex_feedback_config(fb, cfg4, 0,
                               (minex_config **)&((out_ctx *)c)->out);
}
OUT_CASE(minex_drum_monitor_create, destroy_monitor) {
  char root[4096];
  snprintf(root, sizeof root, "%s/t0", test_data_path("drum_proc"));
  return minex_drum_monitor_create(root, 10,
                                   (minex_drum_monitor **)&((out_ctx *)c)->out);
}

START_TEST(constructors_fail_cleanly) {
  check_minex_graph_create();
  check_minex_graph_create_hub();
  check_minex_config_create();
  check_minex_config_create_uniform();
  check_minex_graph_read_metis();
  check_minex_part_read();
  check_minex_config_load();
  check_minex_mesh_read_medit();
  check_minex_mesh_read_medit_2d();
  check_minex_mesh_read_gmsh_v2();
  check_minex_mesh_read_gmsh_v41();
  check_minex_mesh_create();
  check_minex_gen_box();
  check_minex_mesh_dual();
  check_minex_mesh_dual_weighted();
  check_minex_mesh_dual_ball();
  check_minex_drum_model_create();
  check_minex_drum_model_load_thesis();
  check_minex_drum_model_load_drumhead();
  check_minex_drum_build();
  check_minex_drum_config();
  check_minex_feedback_create();
  fb = filled_feedback();
  check_minex_feedback_config_per_proc();
  check_minex_feedback_config_clusters();
  minex_feedback_destroy(fb);
  fb = NULL;
  check_minex_drum_monitor_create();
}
END_TEST

/* ----------------------------------------- calls with output arrays */

/* minex_repartition / minex_evaluate: new_part and metrics unchanged. */
typedef struct repart_ctx {
  const minex_graph *g;
  const minex_config *cfg;
  int32_t old[32];
  int32_t out[32];
  minex_metrics m;
  minex_options opt;
} repart_ctx;

static void repart_reset(void *c) {
  repart_ctx *r = c;
  for (int32_t v = 0; v < 32; v++)
    r->out[v] = -7;
  memset(&r->m, 0xA5, sizeof r->m);
}
static int repart_untouched(void *c) {
  repart_ctx *r = c;
  minex_metrics m;
  memset(&m, 0xA5, sizeof m);
  for (int32_t v = 0; v < 32; v++)
    if (r->out[v] != -7)
      return 0;
  return memcmp(&m, &r->m, sizeof m) == 0;
}
static int run_repartition(void *c) {
  repart_ctx *r = c;
  return minex_repartition(r->g, r->cfg, r->old, &r->opt, r->out, &r->m);
}
static int run_evaluate(void *c) {
  repart_ctx *r = c;
  return minex_evaluate(r->g, r->cfg, r->old, r->old, &r->opt, &r->m);
}
static int run_evaluate_procs(void *c) {
  repart_ctx *r = c;
  double q[4];
  int rc = minex_evaluate_procs(r->g, r->cfg, r->old, r->old, &r->opt, NULL,
                                NULL, NULL, q);
  if (rc == MINEX_OK)
    memcpy(r->out, q, sizeof q); /* (so that the reset value changes) */
  return rc;
}
static int run_decide(void *c) {
  repart_ctx *r = c;
  int32_t newp[32];
  for (int32_t v = 0; v < 32; v++)
    newp[v] = (r->old[v] + 1) % 4;
  minex_decision d;
  memset(&d, 0, sizeof d);
  return minex_decide(r->g, r->cfg, r->old, newp, &r->opt, 10, 0.1, &d);
}

START_TEST(repartition_and_evaluate_fail_cleanly) {
  repart_ctx r;
  memset(&r, 0, sizeof r);
  r.g = grid;
  r.cfg = cfg4;
  for (int32_t v = 0; v < 32; v++)
    r.old[v] = v < 20 ? 0 : 1 + v % 3; /* processor 0 overloaded */
  minex_options_init(&r.opt);
  r.opt.coarse_target = 8;
  alloc_case cases[] = {
      {"minex_repartition", run_repartition, repart_untouched, NULL,
       repart_reset, &r},
      {"minex_evaluate", run_evaluate, repart_untouched, NULL, repart_reset,
       &r},
      {"minex_evaluate_procs", run_evaluate_procs, NULL, NULL, NULL, &r},
      {"minex_decide", run_decide, NULL, NULL, NULL, &r},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    alloc_loop(&cases[i]);
  /* throttle_auto rolls trials back: its own buffers and snapshot */
  r.opt.throttle_auto = 1;
  alloc_case aut = {"minex_repartition_throttle_auto",
                    run_repartition,
                    repart_untouched,
                    NULL,
                    repart_reset,
                    &r};
  alloc_loop(&aut);
  /* an unavailable processor: forced moves */
  minex_config *c2 = NULL;
  int32_t np[2] = {2, 2};
  ck_assert_int_eq(minex_config_create(2, np, NULL, NULL, &c2), MINEX_OK);
  ck_assert_int_eq(minex_config_set_available(c2, 1, 0), MINEX_OK);
  r.cfg = c2;
  r.opt.throttle_auto = 0;
  alloc_case una = {"minex_repartition_unavailable",
                    run_repartition,
                    repart_untouched,
                    NULL,
                    repart_reset,
                    &r};
  alloc_loop(&una);
  minex_config_destroy(c2);
}
END_TEST

/* A larger graph: several contraction levels, growing merge lists. */
typedef struct big_ctx {
  minex_graph *g;
  minex_config *cfg;
  int32_t *old, *out;
  int32_t n;
  minex_options opt;
} big_ctx;

static void big_reset(void *c) {
  big_ctx *b = c;
  for (int32_t v = 0; v < b->n; v++)
    b->out[v] = -7;
}
static int big_untouched(void *c) {
  big_ctx *b = c;
  for (int32_t v = 0; v < b->n; v++)
    if (b->out[v] != -7)
      return 0;
  return 1;
}
static int run_big(void *c) {
  big_ctx *b = c;
  return minex_repartition(b->g, b->cfg, b->old, &b->opt, b->out, NULL);
}

/* A grid of nx x ny x nz on 8 processors in two clusters, in blocks. */
static void big_make(big_ctx *b, int32_t nx, int32_t ny, int32_t nz) {
  b->g = test_grid_graph(nx, ny, nz);
  b->n = minex_graph_nvtxs(b->g);
  int32_t np[2] = {4, 4};
  double proc[2] = {1, 3}, conn[4] = {1, 5, 5, 1};
  ck_assert_int_eq(minex_config_create(2, np, proc, conn, &b->cfg), MINEX_OK);
  b->old = malloc(sizeof(int32_t) * (size_t)b->n);
  b->out = malloc(sizeof(int32_t) * (size_t)b->n);
  for (int32_t v = 0; v < b->n; v++)
    b->old[v] = v * 8 / b->n;
  minex_options_init(&b->opt);
}

static void big_free(big_ctx *b) {
  free(b->old);
  free(b->out);
  minex_config_destroy(b->cfg);
  minex_graph_destroy(b->g);
}

START_TEST(repartition_of_a_larger_graph_fails_cleanly) {
  big_ctx b;
  big_make(&b, 12, 12, 8);
  alloc_case ac = {"minex_repartition_1152_vertices",
                   run_big,
                   big_untouched,
                   NULL,
                   big_reset,
                   &b};
  alloc_loop(&ac);
  big_free(&b);
}
END_TEST

/* With a workspace: its blocks made and given back inside the
 * armed call (a trim after it), so a failure at any allocation -- a block,
 * its record, the workspace's table -- must leave every block returned. */
static int run_big_ws(void *c) {
  big_ctx *b = c;
  int rc = minex_repartition(b->g, b->cfg, b->old, &b->opt, b->out, NULL);
  int trc = minex_workspace_trim(b->opt.workspace);
  return rc != MINEX_OK ? rc : trc;
}

START_TEST(repartition_with_a_workspace_fails_cleanly) {
  big_ctx b;
  big_make(&b, 24, 24, 16); /* arrays of 64 KiB and more */
  ck_assert_int_eq(minex_workspace_create(&b.opt.workspace), MINEX_OK);
  alloc_case ac = {"minex_repartition_workspace",
                   run_big_ws,
                   big_untouched,
                   NULL,
                   big_reset,
                   &b};
  alloc_loop(&ac);
  minex_workspace_destroy(b.opt.workspace);
  big_free(&b);
}
END_TEST

/* Functions filling caller arrays, and writers. */
static int run_partition_initial_bfs(void *c) {
  (void)c;
  int32_t part[32];
  return minex_partition_initial(grid, 4, MINEX_INIT_BFS, part);
}
static int run_rcb(void *c) {
  (void)c;
  int32_t part[48];
  return minex_mesh_partition_rcb(box, 5, part);
}
static int run_graph_write(void *c) {
  (void)c;
  return minex_graph_write_metis(grid, path_out);
}
static int run_config_save(void *c) {
  (void)c;
  return minex_config_save(cfg4, path_out);
}
static int run_drum_save(void *c) {
  (void)c;
  return minex_drum_model_save(drum, path_out, MINEX_DRUM_DIALECT_THESIS);
}
static int run_vtk(void *c) {
  (void)c;
  return minex_mesh_write_vtk(box, NULL, NULL, NULL, path_out);
}
static int run_part_write(void *c) {
  (void)c;
  int32_t part[32] = {0};
  return minex_part_write(path_out, 32, part);
}
static int run_compute_powers(void *c) {
  (void)c;
  return minex_drum_compute_powers(drum, NULL);
}
/* The derived fields of every node before the call, to compare after. */
static double powers_before[64][4];
static void powers_reset(void *c) {
  (void)c;
  ck_assert_int_le(minex_drum_nnodes(drum), 64);
  for (int32_t i = 0; i < minex_drum_nnodes(drum); i++) {
    const minex_drum_node *nd = minex_drum_get(drum, i);
    double v[4] = {nd->proc_power, nd->comm_power, nd->power, nd->rate};
    memcpy(powers_before[i], v, sizeof v);
  }
}
static int powers_untouched(void *c) {
  (void)c;
  for (int32_t i = 0; i < minex_drum_nnodes(drum); i++) {
    const minex_drum_node *nd = minex_drum_get(drum, i);
    double v[4] = {nd->proc_power, nd->comm_power, nd->power, nd->rate};
    if (memcmp(powers_before[i], v, sizeof v) != 0)
      return 0;
  }
  return 1;
}
/* minex_graph_set_weights on a private copy of the grid: the weights
 * doubled, and on ENOMEM the copy keeps the grid's. */
static minex_graph *weights_g;
static double weights_new[1024];
static void weights_reset(void *c) {
  (void)c;
  minex_graph_destroy(weights_g);
  int32_t n = minex_graph_nvtxs(grid);
  const int64_t *xadj = minex_graph_xadj(grid);
  ck_assert_int_le(xadj[n], 1024);
  ck_assert_int_eq(minex_graph_create(n, xadj, minex_graph_adjncy(grid),
                                      minex_graph_pwgt(grid),
                                      minex_graph_rwgt(grid),
                                      minex_graph_cwgt(grid), &weights_g),
                   MINEX_OK);
  for (int64_t j = 0; j < xadj[n]; j++)
    weights_new[j] = 2 * minex_graph_cwgt(grid)[j];
}
static int run_set_weights(void *c) {
  (void)c;
  return minex_graph_set_weights(weights_g, NULL, NULL, weights_new);
}
static int weights_untouched(void *c) {
  (void)c;
  int32_t n = minex_graph_nvtxs(grid);
  return memcmp(minex_graph_cwgt(weights_g), minex_graph_cwgt(grid),
                sizeof(double) * (size_t)minex_graph_xadj(grid)[n]) == 0;
}
static void weights_release(void *c) {
  (void)c;
  minex_graph_destroy(weights_g);
  weights_g = NULL;
}
static int run_feedback_estimate(void *c) {
  double cap[4], slow[4], sd[4];
  int32_t k[4];
  (void)c;
  return minex_feedback_estimate(fb, cap, slow, sd, k);
}
static int run_allocate_sites(void *c) {
  (void)c;
  int32_t size[2] = {2, 3}, sc[2], nc[5];
  double w[5] = {1, 2, 3, 4, 5};
  return minex_allocate_sites(2, size, w, NULL, 17, sc, nc);
}
static int run_allocate(void *c) {
  (void)c;
  int32_t counts[4];
  double w[4] = {1, 2, 3, 4};
  return minex_allocate(4, w, 11, counts);
}
static int run_benchmark(void *c) {
  (void)c;
  double mflops;
  return minex_drum_benchmark(8, 0, 1, &mflops);
}
static int run_probe(void *c) {
  (void)c;
  char root[4096];
  snprintf(root, sizeof root, "%s/t0", test_data_path("drum_proc"));
  minex_drum_sample s;
  return minex_drum_probe(root, 0, &s);
}

START_TEST(other_allocating_calls_fail_cleanly) {
  fb = filled_feedback();
  alloc_case cases[] = {
      {"minex_partition_initial", run_partition_initial_bfs, NULL, NULL, NULL,
       NULL},
      {"minex_mesh_partition_rcb", run_rcb, NULL, NULL, NULL, NULL},
      {"minex_graph_write_metis", run_graph_write, NULL, NULL, NULL, NULL},
      {"minex_config_save", run_config_save, NULL, NULL, NULL, NULL},
      {"minex_drum_model_save", run_drum_save, NULL, NULL, NULL, NULL},
      {"minex_mesh_write_vtk", run_vtk, NULL, NULL, NULL, NULL},
      {"minex_part_write", run_part_write, NULL, NULL, NULL, NULL},
      {"minex_graph_set_weights", run_set_weights, weights_untouched,
       weights_release, weights_reset, NULL},
      {"minex_drum_compute_powers", run_compute_powers, powers_untouched, NULL,
       powers_reset, NULL},
      {"minex_feedback_estimate", run_feedback_estimate, NULL, NULL, NULL,
       NULL},
      {"minex_allocate", run_allocate, NULL, NULL, NULL, NULL},
      {"minex_allocate_sites", run_allocate_sites, NULL, NULL, NULL, NULL},
      {"minex_drum_benchmark", run_benchmark, NULL, NULL, NULL, NULL},
      {"minex_drum_probe", run_probe, NULL, NULL, NULL, NULL},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    alloc_loop(&cases[i]);
  minex_feedback_destroy(fb);
  fb = NULL;
}
END_TEST

/* The proof that the wrappers reach the library's objects at all. */
START_TEST(wrappers_reach_the_library) {
  minex_graph *g = NULL;
  live_reset();
  count = 0;
  fail_at = 0;
  armed = 1;
  int rc = minex_graph_read_metis(path_graph, &g);
  armed = 0;
  ck_assert_int_eq(rc, MINEX_OK);
  ck_assert_int_gt(count, 0);
  ck_assert_int_gt(nlive, 0); /* the graph's arrays */
  minex_graph_destroy(g);
  ck_assert_int_eq(nlive, 0);
}
END_TEST

int main(void) {
  Suite *s = suite_create("alloc_fail");
  TCase *tc = tcase_create("enomem");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, wrappers_reach_the_library);
  tcase_add_test(tc, constructors_fail_cleanly);
  tcase_add_test(tc, repartition_and_evaluate_fail_cleanly);
  tcase_add_test(tc, other_allocating_calls_fail_cleanly);
  suite_add_tcase(s, tc);
  TCase *heavy = test_heavy_tcase(s, 600);
  tcase_add_checked_fixture(heavy, setup, teardown);
  tcase_add_test(heavy, repartition_with_a_workspace_fails_cleanly);
  tcase_add_test(heavy, repartition_of_a_larger_graph_fails_cleanly);
  int rc = test_run_suite(s);
  /* MINEX_ALLOC_SITES=file (with CK_FORK=no): the call sites reached, as
     offsets in the executable for addr2line (docs/reference/reliability.md) */
  const char *out = getenv("MINEX_ALLOC_SITES");
  FILE *fp = out ? fopen(out, "w") : NULL;
  for (int32_t i = 0; fp != NULL && i < nsites; i++) {
    Dl_info info;
    if (dladdr(sites[i], &info) && info.dli_fbase != NULL)
      fprintf(
          fp, "%#lx\n",
          (unsigned long)((uintptr_t)sites[i] - (uintptr_t)info.dli_fbase - 1));
  }
  if (fp != NULL)
    fclose(fp);
  return rc;
}
