/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of the minex command-line tool (programs/): runs the built binary
 * (MINEX_TOOL) with posix_spawn in a fresh temporary directory per test and
 * checks exit statuses, outputs and the files left behind. */
#include "minex_drum.h"
#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef MINEX_TOOL
#error "MINEX_TOOL (path of the minex binary) must be defined"
#endif

/* ------------------------------------------------------------- helpers */

static char tmpdir[4096];

static void make_tmpdir(void) {
  const char *base = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/minex_tool_XXXXXX",
           base != NULL && base[0] != '\0' ? base : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

/* Removes tmpdir and the plain files in it (tests make no subfolders that
 * survive; a left-over folder fails the rmdir and is reported). */
static void remove_tmpdir(void) {
  DIR *d = opendir(tmpdir);
  if (d == NULL)
    return;
  struct dirent *e;
  char p[8192];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
    unlink(p);
  }
  closedir(d);
  rmdir(tmpdir);
}

/* Path of name inside tmpdir, in one of 32 static buffers used in turn
 * (a test holds fewer paths than that at a time). */
static const char *tpath(const char *name) {
  static char buf[32][8192];
  static int slot;
  char *b = buf[slot++ % 32];
  snprintf(b, sizeof buf[0], "%s/%s", tmpdir, name);
  return b;
}

/* Reads a whole file into a NUL-terminated malloc'ed string (NULL when
 * it cannot be opened). */
static char *slurp(const char *path) {
  FILE *fp = fopen(path, "rb");
  if (fp == NULL)
    return NULL;
  size_t cap = 4096, len = 0;
  char *s = malloc(cap);
  size_t k;
  while ((k = fread(s + len, 1, cap - len - 1, fp)) > 0) {
    len += k;
    if (cap - len - 1 == 0)
      s = realloc(s, cap *= 2);
  }
  fclose(fp);
  s[len] = '\0';
  return s;
}

static void write_file(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs(text, fp);
  ck_assert_int_eq(fclose(fp), 0);
}

static int exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Number of entries in tmpdir (to prove nothing was left behind). */
static int count_entries(void) {
  DIR *d = opendir(tmpdir);
  ck_assert_ptr_nonnull(d);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

/* Removes the plain files of tmpdir/name and the folder itself (for the
 * output folders of sim and sweep). */
static void remove_subdir(const char *name) {
  const char *dir = tpath(name);
  DIR *d = opendir(dir);
  if (d == NULL)
    return;
  struct dirent *e;
  char p[16384];
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
    unlink(p);
  }
  closedir(d);
  ck_assert_int_eq(rmdir(dir), 0);
}

/* Number of lines of text that start with prefix. */
static int count_lines_starting(const char *text, const char *prefix) {
  int n = 0;
  size_t len = strlen(prefix);
  for (const char *p = text; p != NULL && *p; p = strchr(p, '\n')) {
    if (*p == '\n')
      p++;
    n += strncmp(p, prefix, len) == 0;
  }
  return n;
}

static char *out_text, *err_text;
static char out_path[8192], err_path[8192]; /* capture files, set in setup */

/* Runs prog (searched in PATH when it has no '/') with the NULL-terminated
 * arguments, stdout and stderr captured into out_text/err_text. Returns
 * the exit status, or 128 + signal. */
static int run_argv(const char *prog, char *const argv[]) {
  const char *outp = out_path, *errp = err_path;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, outp, O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&fa, 2, errp, O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid;
  int rc = strchr(prog, '/') != NULL
               ? posix_spawn(&pid, prog, &fa, NULL, argv, environ)
               : posix_spawnp(&pid, prog, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  ck_assert_msg(rc == 0, "cannot run %s: %s", prog, strerror(rc));
  int st;
  while (waitpid(pid, &st, 0) < 0)
    ck_assert_int_eq(errno, EINTR);
  free(out_text);
  free(err_text);
  out_text = slurp(outp);
  err_text = slurp(errp);
  unlink(outp);
  unlink(errp);
  ck_assert_ptr_nonnull(out_text);
  ck_assert_ptr_nonnull(err_text);
  if (WIFSIGNALED(st))
    return 128 + WTERMSIG(st);
  return WEXITSTATUS(st);
}

/* run("repart", "g.graph", ..., NULL): the minex tool with these arguments.
 */
static int run(const char *first, ...) {
  char *argv[64];
  int n = 0;
  argv[n++] = (char *)MINEX_TOOL;
  argv[n++] = (char *)first;
  va_list ap;
  va_start(ap, first);
  const char *s;
  while ((s = va_arg(ap, const char *)) != NULL && n < 63)
    argv[n++] = (char *)s;
  va_end(ap);
  argv[n] = NULL;
  return run_argv(MINEX_TOOL, argv);
}

/* Saves the last stdout into tmpdir/name and checks it is one valid JSON
 * document (python3 -m json.tool). */
static void check_json(const char *name) {
  write_file(tpath(name), out_text);
  char *argv[] = {"python3", "-m", "json.tool", (char *)tpath(name), NULL};
  char *saved_out = out_text, *saved_err = err_text;
  out_text = err_text = NULL;
  int st = run_argv("python3", argv);
  ck_assert_msg(st == 0, "%s is not valid JSON: %s\n%s", name, err_text,
                saved_out);
  free(out_text);
  free(err_text);
  out_text = saved_out;
  err_text = saved_err;
}

/* Number after "\"key\":" at or after from (top-level keys come before the
 * nested "old" object in the tool's output). */
static double json_number(const char *from, const char *key) {
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *p = strstr(from, pat);
  ck_assert_msg(p != NULL, "key %s missing in %s", key, from);
  char *end;
  double x = strtod(p + strlen(pat), &end);
  ck_assert_msg(end != p + strlen(pat), "key %s is not a number", key);
  return x;
}

static void check_required_keys(const char *json) {
  static const char *keys[] = {"max_qwgt",   "min_qwgt",    "qwgt_tot",
                               "load_imb",   "lower_bound", "cut_edges",
                               "cut_weight", "moved",       "total_v",
                               "max_v",      "seconds"};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
    json_number(json, keys[k]);
}

static void setup(void) {
  make_tmpdir();
  snprintf(out_path, sizeof out_path, "%s/.stdout", tmpdir);
  snprintf(err_path, sizeof err_path, "%s/.stderr", tmpdir);
}

static void teardown(void) {
  free(out_text);
  free(err_text);
  out_text = err_text = NULL;
  remove_tmpdir();
}

/* --------------------------------------------------------------- tests */

/* Every subcommand, and the tool itself, answers --help and -h with a usage
 * text on stdout and exit status 0; --version names the version. */
START_TEST(help_of_every_subcommand_exits_zero) {
  static const char *cmds[] = {"repart", "eval", "mesh2dual",
                               "info",   "gen",  "sim",
                               "sweep",  "drum", "partition"};
  ck_assert_int_eq(run("--help", NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "Usage"));
  for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
    ck_assert_msg(run(cmds[k], "--help", NULL) == 0, "%s --help", cmds[k]);
    ck_assert_msg(strstr(out_text, "Usage: minex") != NULL, "%s", cmds[k]);
    ck_assert_msg(run(cmds[k], "-h", NULL) == 0, "%s -h", cmds[k]);
  }
  ck_assert_int_eq(run("--version", NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, MINEX_VERSION_STRING));
}
END_TEST

/* A bad command line exits 2 with a hint, never 0 or 1. */
START_TEST(usage_errors_exit_two) {
  ck_assert_int_eq(run("frobnicate", NULL), 2);
  ck_assert_int_eq(run("repart", NULL), 2);
  ck_assert_int_eq(run("repart", "g.graph", "--bogus", NULL), 2);
  ck_assert_int_eq(run("repart", "g.graph", "--nparts", "0", NULL), 2);
  ck_assert_int_eq(
      run("repart", "g.graph", "--nparts", "4", "--alpha", "2", NULL), 2);
  ck_assert_int_eq(
      run("repart", "g.graph", "--nparts", "4", "--throttle", "-1", NULL), 2);
  ck_assert_int_eq(run("eval", "g.graph", "--old", "a.part", NULL), 2);
  ck_assert_int_eq(run("gen", "--elements", "100", NULL), 2);
  ck_assert_int_eq(run("gen", "--box", "2", "2", NULL), 2);
  ck_assert_ptr_nonnull(strstr(err_text, "--help"));
}
END_TEST

/* gen -> info -> repart -> eval on a small box with the refined ball:
 * info validates the written graph; repart's JSON is valid, has the
 * required keys, MaxQwgt(new) <= MaxQwgt(old); eval of the written
 * partition reports exactly repart's figures. */
START_TEST(gen_info_repart_eval_round_trip) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *np = tpath("new.part");
  ck_assert_int_eq(run("gen", "--box", "8", "8", "8", "--refine", "--part", old,
                       "--nparts", "8", "-o", g, NULL),
                   0);
  ck_assert_ptr_nonnull(strstr(out_text, "3072 tetrahedra"));

  ck_assert_int_eq(run("info", g, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "3072"));
  ck_assert_int_eq(run("info", g, "--json", NULL), 0);
  check_json("info.json");
  ck_assert_int_eq((int)json_number(out_text, "nvtxs"), 3072);
  ck_assert_int_eq((int)json_number(out_text, "components"), 1);
  ck_assert_int_eq((int)json_number(out_text, "isolated"), 0);
  ck_assert(json_number(out_text, "pwgt_max") == 8.0); /* refined ball */

  ck_assert_int_eq(
      run("repart", g, "--old", old, "--nparts", "8", "-o", np, "--json", NULL),
      0);
  check_json("repart.json");
  check_required_keys(out_text);
  char *rj = strdup(out_text);
  const char *rold = strstr(rj, "\"old\":");
  ck_assert_ptr_nonnull(rold);
  double new_max = json_number(rj, "max_qwgt");
  double old_max = json_number(rold, "max_qwgt");
  ck_assert_msg(new_max <= old_max, "MaxQwgt new %g > old %g", new_max,
                old_max);
  ck_assert(json_number(rj, "seconds") >= 0);
  ck_assert(exists(np));

  ck_assert_int_eq(run("eval", g, "--old", old, "--new", np, "--nparts", "8",
                       "--json", NULL),
                   0);
  check_json("eval.json");
  check_required_keys(out_text);
  static const char *same[] = {"max_qwgt", "min_qwgt",  "qwgt_tot",
                               "load_imb", "cut_edges", "cut_weight",
                               "moved",    "total_v",   "max_v"};
  for (size_t k = 0; k < sizeof same / sizeof same[0]; k++)
    ck_assert_msg(json_number(out_text, same[k]) == json_number(rj, same[k]),
                  "%s differs between repart and eval", same[k]);

  /* the human table of both commands works too */
  ck_assert_int_eq(
      run("eval", g, "--old", old, "--new", np, "--nparts", "8", NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "MaxQwgt"));
  free(rj);
}
END_TEST

/* --iters K (SPEC §2 horizon): repart optimises under K and eval scores
 * under K; both print SteadyMax, MaxRemap and T_K = MaxRemap + K *
 * SteadyMax, eval of repart's output agrees, and MaxQwgt under K is no
 * worse than the old partition's under K. */
START_TEST(iters_gives_the_horizon_figures) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *np = tpath("new.part"),
             *cfg = MINEX_SOURCE_DIR "/docs/examples/hetero4.xml";
  ck_assert_int_eq(run("gen", "--box", "8", "8", "8", "--refine", "--part", old,
                       "--nparts", "64", "-o", g, NULL),
                   0);
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--iters",
                       "100", "-o", np, "--json", NULL),
                   0);
  check_json("repart_iters.json");
  char *rj = strdup(out_text);
  ck_assert_int_eq((int)json_number(rj, "iterations"), 100);
  double steady = json_number(rj, "steady_max");
  double remap = json_number(rj, "max_remap");
  double tk = json_number(rj, "horizon_time");
  ck_assert(steady > 0);
  ck_assert(fabs(tk - (remap + 100 * steady)) <= 1e-9 * tk);
  ck_assert(json_number(rj, "max_qwgt") <=
            json_number(strstr(rj, "\"old\":"), "max_qwgt"));
  ck_assert_int_eq(run("eval", g, "--old", old, "--new", np, "--config", cfg,
                       "--iters", "100", "--json", NULL),
                   0);
  check_json("eval_iters.json");
  static const char *same[] = {"max_qwgt", "steady_max", "max_remap",
                               "horizon_time", "iterations"};
  for (size_t k = 0; k < sizeof same / sizeof same[0]; k++)
    ck_assert_msg(json_number(out_text, same[k]) == json_number(rj, same[k]),
                  "%s differs between repart and eval", same[k]);
  /* SteadyMax and MaxRemap do not depend on K; MaxQwgt does */
  ck_assert_int_eq(run("eval", g, "--old", old, "--new", np, "--config", cfg,
                       "--json", NULL),
                   0);
  ck_assert(json_number(out_text, "steady_max") == steady);
  ck_assert(json_number(out_text, "max_remap") == remap);
  ck_assert(json_number(out_text, "max_qwgt") < json_number(rj, "max_qwgt"));
  ck_assert_int_eq(run("eval", g, "--old", old, "--new", np, "--config", cfg,
                       "--iters", "10", NULL),
                   0);
  ck_assert_ptr_nonnull(strstr(out_text, "T_k"));
  ck_assert_ptr_nonnull(strstr(out_text, "SteadyMax"));
  free(rj);
}
END_TEST

/* --max-imbalance: every processor's Pwgt sum within the bound of its
 * target, recomputed here from the written partition; refused below 1. */
START_TEST(repart_max_imbalance_bounds_every_processor) {
  const char *g = tpath("boxb.graph"), *old = tpath("oldb.part");
  const char *np = tpath("newb.part");
  ck_assert_int_eq(run("gen", "--box", "8", "8", "8", "--refine", "--part", old,
                       "--nparts", "8", "-o", g, NULL),
                   0);
  ck_assert_int_eq(run("repart", g, "--old", old, "--max-imbalance", "1.03",
                       "-o", np, "--json", NULL),
                   0);
  ck_assert_ptr_nonnull(strstr(out_text, "\"bound_met\": true"));
  double imb = json_number(out_text, "imbalance");
  ck_assert(imb <= 1.03 && imb >= 1);
  minex_graph *gr = NULL;
  ck_assert_int_eq(minex_graph_read_metis(g, &gr), MINEX_OK);
  int32_t n = minex_graph_nvtxs(gr), *part = NULL;
  ck_assert_int_eq(minex_part_read(np, n, 8, &part), MINEX_OK);
  double l[8] = {0}, tot = 0;
  for (int32_t v = 0; v < n; v++) {
    l[part[v]] += minex_graph_pwgt(gr)[v];
    tot += minex_graph_pwgt(gr)[v];
  }
  for (int p = 0; p < 8; p++)
    ck_assert_msg(l[p] <= 1.03 * tot / 8 * (1 + 1e-12), "p %d: %g > %g", p,
                  l[p], 1.03 * tot / 8);
  free(part);
  minex_graph_destroy(gr);
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--max-imbalance", "0.9", NULL), 2);
  ck_assert_ptr_nonnull(strstr(err_text, "--max-imbalance"));
}
END_TEST

/* The same round trip on the shipped heterogeneous configuration
 * (docs/examples/hetero4.xml: 4 clusters of 16): the tool loads the XML and
 * repart never raises MaxQwgt; -v prints the library's progress. */
START_TEST(repart_with_hetero_config_never_raises_max_qwgt) {
  const char *cfg = MINEX_SOURCE_DIR "/docs/examples/hetero4.xml";
  ck_assert_msg(exists(cfg), "%s is missing from the repository", cfg);
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  ck_assert_int_eq(run("gen", "--elements", "20000", "--refine", "--part", old,
                       "--nparts", "64", "-o", g, NULL),
                   0);
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--config", cfg, "--json", "-v", NULL), 0);
  check_json("repart.json");
  check_required_keys(out_text);
  const char *rold = strstr(out_text, "\"old\":");
  ck_assert_ptr_nonnull(rold);
  ck_assert(json_number(out_text, "max_qwgt") <= json_number(rold, "max_qwgt"));
  ck_assert_int_eq((int)json_number(out_text, "nprocs"), 64);
  ck_assert_msg(strlen(err_text) > 0, "-v printed nothing on stderr");
}
END_TEST

/* Without --old, repart builds the BFS initial partition, says so on
 * stderr, and still prints both columns. */
START_TEST(repart_without_old_says_it_builds_the_initial_partition) {
  const char *g = tpath("box.graph");
  ck_assert_int_eq(
      run("gen", "--box", "4", "4", "4", "--refine", "-o", g, NULL), 0);
  ck_assert_int_eq(run("repart", g, "--nparts", "4", NULL), 0);
  ck_assert_ptr_nonnull(strstr(err_text, "initial partition"));
  ck_assert_ptr_nonnull(strstr(out_text, "MaxQwgt"));
}
END_TEST

/* mesh2dual on a hand-made MEDIT mesh of two tetrahedra sharing a face:
 * a graph of 2 vertices and 1 edge that info accepts; --vtk writes. */
START_TEST(mesh2dual_two_tetrahedra_share_one_face) {
  const char *m = tpath("two.mesh"), *g = tpath("two.graph");
  const char *vtk = tpath("two.vtk");
  write_file(m, "MeshVersionFormatted 1\nDimension 3\nVertices\n5\n"
                "0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n1 1 1 0\n"
                "Tetrahedra\n2\n1 2 3 4 0\n2 3 4 5 0\nEnd\n");
  ck_assert_int_eq(run("mesh2dual", m, "-o", g, "--vtk", vtk, NULL), 0);
  ck_assert(exists(vtk));
  ck_assert_int_eq(run("info", g, "--json", NULL), 0);
  ck_assert_int_eq((int)json_number(out_text, "nvtxs"), 2);
  ck_assert_int_eq((int)json_number(out_text, "nedges"), 1);
}
END_TEST

/* Reads a partition file of n lines written by the tool. */
static int32_t *read_part_file(const char *path, int32_t n) {
  int32_t *part = NULL;
  ck_assert_int_eq(minex_part_read(path, n, 0, &part), MINEX_OK);
  return part;
}

/* partition of a mixed Gmsh mesh (binary 4.1): the file has one line per
 * volume element, ids in [0, P), the VTK it writes reads back with the
 * same partition; under a configuration the unavailable processors get
 * nothing; a graph input takes scotch and refuses rcb. */
START_TEST(partition_of_a_mixed_mesh_writes_part_and_vtk) {
  char mesh[4096], cfgp[4096]; /* test_data_path reuses its buffer */
  snprintf(mesh, sizeof mesh, "%s",
           test_data_path("mesh_gmsh_mixed_v41_bin.msh"));
  snprintf(cfgp, sizeof cfgp, "%s", test_data_path("io_default_link.xml"));
  char part[4096], vtk[4096]; /* so does tpath */
  snprintf(part, sizeof part, "%s", tpath("m.part"));
  snprintf(vtk, sizeof vtk, "%s", tpath("m.vtk"));
  const char *methods[] = {"rcb", "rib", "scotch", "bfs"};
  for (int i = 0; i < 4; i++) {
    ck_assert_msg(run("partition", mesh, "--nparts", "4", "--method",
                      methods[i], "-o", part, "--vtk", vtk, NULL) == 0,
                  "%s: %s", methods[i], err_text);
    int32_t *p = read_part_file(part, 80);
    int size[4] = {0, 0, 0, 0};
    for (int e = 0; e < 80; e++) {
      ck_assert(p[e] >= 0 && p[e] < 4);
      size[p[e]]++;
    }
    for (int q = 0; q < 4; q++)
      ck_assert_int_gt(size[q], 0);
    minex_mesh *back = NULL;
    ck_assert_int_eq(minex_mesh_read(vtk, &back), MINEX_OK);
    ck_assert_int_eq(minex_mesh_nelems(back), 80);
    ck_assert_mem_eq(minex_mesh_file_partition(back), p, sizeof *p * 80);
    minex_mesh_destroy(back);
    free(p);
  }
  ck_assert_ptr_nonnull(strstr(out_text, "152 lower-dimensional"));
  /* io_default_link.xml: 5 processors, 2 of them unavailable */
  ck_assert_int_eq(run("partition", mesh, "--config", cfgp, "-o", part, NULL),
                   0);
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_config_load(cfgp, &cfg), MINEX_OK);
  int32_t *p = read_part_file(part, 80);
  for (int e = 0; e < 80; e++)
    ck_assert(minex_config_is_available(cfg, p[e]));
  free(p);
  minex_config_destroy(cfg);
  char g[4096], hex[4096];
  snprintf(g, sizeof g, "%s", tpath("m.graph"));
  snprintf(hex, sizeof hex, "%s", test_data_path("mesh_gmsh_hex_v41.msh"));
  /* hexahedra sharing 4 corners share a face: --ncommon 4 is the face
     dual (20 edges); a kind the file lacks fails naming it */
  ck_assert_int_eq(run("mesh2dual", hex, "--ncommon", "4", "-o", g, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "12 vertices, 20 edges"));
  ck_assert_int_eq(run("mesh2dual", hex, "--kind", "prism", "-o", g, NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "no prism"));
  ck_assert_int_eq(run("mesh2dual", mesh, "-o", g, NULL), 0);
  ck_assert_int_eq(run("partition", g, "--nparts", "3", "-o", part, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "by scotch"));
  ck_assert_int_eq(
      run("partition", g, "--nparts", "3", "--method", "rcb", "-o", part, NULL),
      2);
  ck_assert_int_eq(run("partition", mesh, "--nparts", "3", "--method", "metis",
                       "-o", part, NULL),
                   2);
}
END_TEST

/* repart --mesh of a Gmsh-partitioned file: the file's partition is the
 * old one (--write-old writes it back), and the VTK holds old, new and
 * moved consistent with the partition files. Without a stored partition
 * and without --old, --write-old writes the start that was built. */
START_TEST(repart_mesh_writes_old_new_and_moved_as_vtk) {
  char mesh[4096], hex[4096], np[4096], op[4096], vtk[4096];
  snprintf(mesh, sizeof mesh, "%s",
           test_data_path("mesh_gmsh_mixed_part3_v41.msh"));
  snprintf(hex, sizeof hex, "%s", test_data_path("mesh_gmsh_hex_v41.msh"));
  snprintf(np, sizeof np, "%s", tpath("n.part"));
  snprintf(op, sizeof op, "%s", tpath("o.part"));
  snprintf(vtk, sizeof vtk, "%s", tpath("r.vtk"));
  ck_assert_int_eq(run("repart", "--mesh", mesh, "--vtk", vtk, "--write-old",
                       op, "-o", np, NULL),
                   0);
  ck_assert_ptr_nonnull(strstr(err_text, "the one stored in"));
  minex_mesh *m = NULL;
  ck_assert_int_eq(minex_mesh_read(mesh, &m), MINEX_OK);
  int32_t *o = read_part_file(op, 80), *n = read_part_file(np, 80);
  ck_assert_mem_eq(o, minex_mesh_file_partition(m), sizeof *o * 80);
  char *text = slurp(vtk);
  /* the cell data blocks in order: partition (new), old, moved */
  char *pn = strstr(text, "SCALARS partition int 1\nLOOKUP_TABLE default\n");
  char *po = strstr(text, "SCALARS old int 1\nLOOKUP_TABLE default\n");
  char *pm = strstr(text, "SCALARS moved int 1\nLOOKUP_TABLE default\n");
  ck_assert(pn && po && pm && pn < po && po < pm);
  ck_assert_ptr_nonnull(strstr(text, "SCALARS pwgt double 1"));
  pn = strchr(strchr(pn, '\n') + 1, '\n') + 1;
  po = strchr(strchr(po, '\n') + 1, '\n') + 1;
  pm = strchr(strchr(pm, '\n') + 1, '\n') + 1;
  for (int e = 0; e < 80; e++) {
    long a = strtol(pn, &pn, 10), b = strtol(po, &po, 10),
         c = strtol(pm, &pm, 10);
    ck_assert_int_eq(a, n[e]);
    ck_assert_int_eq(b, o[e]);
    ck_assert_int_eq(c, n[e] != o[e]);
  }
  free(text);
  free(o);
  free(n);
  minex_mesh_destroy(m);
  /* no stored partition: the start built (BFS) is written */
  ck_assert_int_eq(
      run("repart", "--mesh", hex, "--nparts", "3", "--write-old", op, NULL),
      0);
  ck_assert_ptr_nonnull(strstr(err_text, "initial partition"));
  o = read_part_file(op, 12);
  int seen[3] = {0, 0, 0};
  for (int e = 0; e < 12; e++)
    seen[o[e]]++;
  ck_assert(seen[0] == 4 && seen[1] == 4 && seen[2] == 4);
  free(o);
  ck_assert_int_eq(run("repart", "--mesh", hex, NULL), 2);
  ck_assert_int_eq(run("repart", hex, "--nparts", "2", "--vtk", vtk, NULL), 2);
}
END_TEST

/* A missing input fails with exit 1 and a message naming the file. */
START_TEST(missing_file_fails_naming_it) {
  const char *g = tpath("no_such.graph");
  ck_assert_int_eq(run("info", g, NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "no_such.graph"));
  ck_assert_int_eq(run("repart", g, "--nparts", "2", NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "no_such.graph"));
  ck_assert_int_eq(
      run("mesh2dual", tpath("no_such.mesh"), "-o", tpath("x.graph"), NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "no_such.mesh"));
  ck_assert(!exists(tpath("x.graph")));
}
END_TEST

/* Malformed graphs (truncated, asymmetric, id out of range, negative
 * weight) fail with exit 1, a message naming the file, and no output. */
START_TEST(malformed_graph_fails_naming_file) {
  static const char *bad[] = {
      "3 2\n2\n1 3\n",        /* truncated: vertex 3 missing            */
      "3 2\n2\n1 3\n1\n",     /* asymmetric: 3 lists 1, 1 does not list 3 */
      "2 1\n2\n1 3\n",        /* neighbour id 3 out of range            */
      "2 1 010\n-1 2\n1 1\n", /* negative Pwgt                          */
      "two 1\n2\n1\n",        /* malformed header                       */
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    const char *g = tpath("bad.graph");
    write_file(g, bad[k]);
    ck_assert_msg(run("info", g, NULL) == 1, "case %zu accepted", k);
    ck_assert_msg(strstr(err_text, "bad.graph") != NULL,
                  "case %zu: message does not name the file: %s", k, err_text);
    ck_assert_msg(
        run("repart", g, "--nparts", "2", "-o", tpath("new.part"), NULL) == 1,
        "case %zu", k);
    ck_assert(!exists(tpath("new.part")));
  }
}
END_TEST

/* Output into a directory that does not exist: exit 1, a message naming
 * the path, and nothing left behind (no partial or temporary file). */
START_TEST(output_into_missing_directory_leaves_nothing) {
  const char *g = tpath("box.graph");
  ck_assert_int_eq(run("gen", "--box", "3", "3", "3", "-o", g, NULL), 0);
  int before = count_entries();
  const char *dest = tpath("nodir/new.part");
  ck_assert_int_eq(run("repart", g, "--nparts", "2", "-o", dest, NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "nodir"));
  ck_assert_int_eq(
      run("gen", "--box", "3", "3", "3", "-o", tpath("nodir/g.graph"), NULL),
      1);
  ck_assert_int_eq(run("gen", "--box", "3", "3", "3", "-o", tpath("g2.graph"),
                       "--part", tpath("nodir/old.part"), "--nparts", "2",
                       NULL),
                   1);
  ck_assert(!exists(tpath("nodir")));
  /* gen writes the graph before the partition: whether g2.graph stays is
   * the writers' order, but no temporary may remain */
  unlink(tpath("g2.graph"));
  ck_assert_int_eq(count_entries(), before);
}
END_TEST

/* A partition file with the wrong length is rejected with its name. */
START_TEST(wrong_partition_fails_naming_file) {
  const char *g = tpath("box.graph"), *p = tpath("short.part");
  ck_assert_int_eq(run("gen", "--box", "2", "2", "2", "-o", g, NULL), 0);
  write_file(p, "0\n1\n");
  ck_assert_int_eq(run("repart", g, "--old", p, "--nparts", "2", NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "short.part"));
  ck_assert_int_eq(run("eval", g, "--old", p, "--new", p, NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "short.part"));
}
END_TEST

/* Every processor of the configuration unavailable: partition refuses
 * with MINEX_ENOPROC naming the cause, as repart does, whatever the method
 * (before: rcb and rib said "the targets sum to 0 (MINEX_EINVAL)", bfs
 * wrote a partition onto the unavailable processors), and writes no
 * partition file. */
START_TEST(partition_with_no_available_processor_is_enoproc) {
  char mesh[4096], cfg[4096], out[4096]; /* tpath reuses its buffer */
  snprintf(mesh, sizeof mesh, "%s", test_data_path("mesh_gmsh_hex_v41.msh"));
  snprintf(cfg, sizeof cfg, "%s", tpath("none.xml"));
  snprintf(out, sizeof out, "%s", tpath("none.part"));
  write_file(cfg, "<minex-config version=\"1\">\n"
                  "<cluster name=\"a\" procs=\"2\"/>\n"
                  "<unavailable proc=\"0\"/>\n<unavailable proc=\"1\"/>\n"
                  "</minex-config>\n");
  const char *methods[] = {"rcb", "rib", "scotch", "bfs"};
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(run("partition", mesh, "--config", cfg, "--method",
                         methods[i], "-o", out, NULL),
                     1);
    ck_assert_msg(strstr(err_text, "all 2 processors are unavailable") &&
                      strstr(err_text, "(MINEX_ENOPROC)"),
                  "%s: %s", methods[i], err_text);
    ck_assert(!exists(out));
  }
}
END_TEST

/* Leaving processors: with hetero4_shrink.xml (cluster d, processors
 * 48..63, unavailable) the old RCB partition strands vertices, and repart
 * moves every one of them to an available processor. */
START_TEST(repart_moves_everything_off_unavailable_processors) {
  const char *cfg = MINEX_SOURCE_DIR "/docs/examples/hetero4_shrink.xml";
  ck_assert_msg(exists(cfg), "%s is missing from the repository", cfg);
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *np = tpath("new.part");
  ck_assert_int_eq(run("gen", "--box", "12", "12", "12", "--refine", "--part",
                       old, "--nparts", "64", "-o", g, NULL),
                   0);
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--config", cfg, "-o", np, "--json", NULL),
      0);
  check_json("repart.json");
  const char *rold = strstr(out_text, "\"old\":");
  ck_assert_ptr_nonnull(rold);
  ck_assert(json_number(rold, "stranded") > 0);
  ck_assert(json_number(out_text, "stranded") == 0);
  ck_assert_int_eq((int)json_number(out_text, "navailable"), 48);
  ck_assert_int_eq(run("eval", g, "--old", old, "--new", np, "--config", cfg,
                       "--json", NULL),
                   0);
  ck_assert(json_number(out_text, "stranded") == 0);
}
END_TEST

/* The same command twice gives the same partition file (the library is
 * deterministic for a seed and the tool adds nothing random); the options
 * reach the library: alpha = 1 never scores worse than alpha = 0. */
START_TEST(repart_is_deterministic_and_passes_options) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *p1 = tpath("a.part"), *p2 = tpath("b.part");
  ck_assert_int_eq(run("gen", "--box", "6", "6", "6", "--refine", "--part", old,
                       "--nparts", "4", "-o", g, NULL),
                   0);
  for (int k = 0; k < 2; k++)
    ck_assert_int_eq(run("repart", g, "--old", old, "--nparts", "4", "--seed",
                         "7", "--throttle", "2.5", "--remap", "both",
                         "--coarse-per-proc", "16", "--no-global", "-o",
                         k == 0 ? p1 : p2, NULL),
                     0);
  char *a = slurp(p1), *b = slurp(p2);
  ck_assert_ptr_nonnull(a);
  ck_assert_ptr_nonnull(b);
  ck_assert_str_eq(a, b);
  free(a);
  free(b);
  ck_assert_int_eq(run("eval", g, "--old", old, "--new", p1, "--nparts", "4",
                       "--json", NULL),
                   0);
  double q0 = json_number(out_text, "max_qwgt");
  ck_assert_int_eq(run("eval", g, "--old", old, "--new", p1, "--nparts", "4",
                       "--alpha", "1", "--json", NULL),
                   0);
  ck_assert(json_number(out_text, "max_qwgt") <= q0);
}
END_TEST

/* --step K moves the default ball centre along x by K*0.1; without a ball
 * every weight is 1. */
START_TEST(gen_step_moves_the_ball_and_no_ball_means_unit_weights) {
  const char *g = tpath("box.graph");
  ck_assert_int_eq(
      run("gen", "--box", "5", "5", "5", "--step", "2", "-o", g, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "centre (0.5, 0.5, 0.5)"));
  ck_assert_int_eq(run("gen", "--elements", "800", "-o", g, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "5x5x5: 750 tetrahedra"));
  ck_assert_int_eq(run("info", g, "--json", NULL), 0);
  ck_assert(json_number(out_text, "pwgt_max") == 1.0);
  ck_assert(json_number(out_text, "cwgt_max") == 1.0);
}
END_TEST

/* drum config on Faik's Table 5.4 model: valid JSON whose powers are the
 * table's formula, a configuration file the library reads back with Conn
 * 10 across the 10 Mb/s switch, and partitions allocated by power. */
START_TEST(drum_config_table54_powers_conn_and_parts) {
  const char *model = MINEX_SOURCE_DIR "/tests/data/drum_table54.xml";
  const char *cfg = tpath("t54.xml");
  ck_assert_int_eq(run("drum", "config", model, "--wcomm", "0.3", "--parts",
                       "64", "-o", cfg, "--json", NULL),
                   0);
  check_json("drum.json");
  /* first computing node in the file is rivera (10 Mb/s): (0.7)/8 + 0.3 *
     10/440 */
  const char *riv = strstr(out_text, "rivera");
  ck_assert_ptr_nonnull(riv);
  ck_assert(fabs(json_number(riv, "power") - (0.7 / 8 + 0.3 * 10 / 440)) <
            1e-12);
  ck_assert_int_eq((int)json_number(riv, "parts"), 6);
  const char *wet = strstr(out_text, "wetteland");
  ck_assert_ptr_nonnull(wet);
  ck_assert(fabs(json_number(wet, "power") - (0.7 / 8 + 0.3 * 100 / 440)) <
            1e-12);
  ck_assert_int_eq((int)json_number(wet, "parts"), 10);
  minex_config *c = NULL;
  ck_assert_int_eq(minex_config_load(cfg, &c), MINEX_OK);
  ck_assert_int_eq(minex_config_nclusters(c), 8);
  int slow = 0;
  for (int32_t a = 0; a < 8; a++)
    for (int32_t b = 0; b < 8; b++)
      slow += minex_config_conn(c, a, b) == 10;
  /* 4 slow nodes: every ordered pair with a slow end and a == b excluded */
  ck_assert_int_eq(slow, 64 - 8 - 12);
  minex_config_destroy(c);
  /* the table output names every node */
  ck_assert_int_eq(run("drum", "config", model, NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "gossage"));
  ck_assert_ptr_nonnull(strstr(out_text, "Conn:"));
  /* a malformed model fails naming the file and line, writes nothing */
  const char *bad = MINEX_SOURCE_DIR "/tests/data/drum_bad_cycle.xml";
  ck_assert_int_eq(run("drum", "config", bad, "-o", tpath("x.xml"), NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "drum_bad_cycle.xml:"));
  ck_assert(!exists(tpath("x.xml")));
  ck_assert_int_eq(run("drum", "config", model, "--wcomm", "2", NULL), 2);
  ck_assert_int_eq(run("drum", "frob", NULL), 2);
  ck_assert_int_eq(run("drum", NULL), 2);
}
END_TEST

/* repart --steps: with no steps to win the remapping back the decision is
 * no and -o writes the old partition; with many steps it is yes and -o
 * writes the new one, made under the horizon K = N. */
START_TEST(repart_steps_decides_whether_to_move) {
  const char *cfg = MINEX_SOURCE_DIR "/docs/examples/hetero4.xml";
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *np = tpath("new.part"), *dp = tpath("dec.part");
  ck_assert_int_eq(run("gen", "--box", "10", "10", "10", "--refine", "--part",
                       old, "--nparts", "64", "-o", g, NULL),
                   0);
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--config", cfg, "-o", np, NULL), 0);
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--steps",
                       "0", "-o", dp, "--json", NULL),
                   0);
  check_json("dec0.json");
  const char *d = strstr(out_text, "\"decision\"");
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_nonnull(strstr(d, "\"repartition\": false"));
  double saving = json_number(d, "saving_per_step");
  double remap = json_number(d, "remap_cost");
  /* the remapping cost may be 0 when the slowest processor of the moving
     step sends and receives nothing: the decision is still no at 0 steps,
     since nothing is gained */
  ck_assert(saving > 0 && remap >= 0);
  ck_assert_int_eq(json_number(d, "gain") <= 0, 1);
  ck_assert(fabs(json_number(d, "break_even_steps") - remap / saving) <
            1e-9 * (1 + remap / saving));
  char *a = slurp(dp), *b = slurp(old);
  ck_assert_str_eq(a, b);
  free(a), free(b);
  /* --steps N alone is the horizon too: the partition of --iters N */
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--iters",
                       "1000", "-o", np, NULL),
                   0);
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--steps",
                       "1000", "--tolerance", "0.5", "-o", dp, NULL),
                   0);
  ck_assert_ptr_nonnull(strstr(out_text, "repartition?"));
  ck_assert_ptr_nonnull(strstr(out_text, "yes"));
  a = slurp(dp), b = slurp(np);
  ck_assert_str_eq(a, b);
  free(a), free(b);
  /* --step-seconds: the call's own time counts (SPEC section 5). One
     iteration of a microsecond: the predicted call cannot pay, so there is
     no call and -o writes the old partition; of ten seconds: the call pays
     and its measured cost is SteadyMax x seconds / 10 */
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--steps",
                       "1000", "--step-seconds", "1e-6", "-o", dp, "--json",
                       NULL),
                   0);
  check_json("call0.json");
  d = strstr(out_text, "\"decision\"");
  ck_assert_ptr_nonnull(d);
  ck_assert_ptr_nonnull(strstr(d, "\"repartition\": false"));
  ck_assert_ptr_nonnull(strstr(d, "\"called\": false"));
  ck_assert(json_number(d, "call_cost") > json_number(d, "gain"));
  a = slurp(dp), b = slurp(old);
  ck_assert_str_eq(a, b);
  free(a), free(b);
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--steps",
                       "1000", "--step-seconds", "10", "-o", dp, "--json",
                       NULL),
                   0);
  check_json("call1.json");
  d = strstr(out_text, "\"decision\"");
  ck_assert_ptr_nonnull(strstr(d, "\"called\": true"));
  ck_assert_ptr_nonnull(strstr(d, "\"repartition\": true"));
  double old_steady = json_number(strstr(out_text, "\"old\""), "steady_max");
  ck_assert(fabs(json_number(d, "call_cost") -
                 json_number(d, "call_seconds") * old_steady / 10) <
            1e-9 * (1 + json_number(d, "call_cost")));
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg,
                       "--step-seconds", "1", NULL),
                   2);
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--config", cfg, "--tolerance", "1", NULL),
      2);
}
END_TEST

/* drum probe on a recorded /proc tree (static files: no change over the
 * period) and on the live system with --model: the benchmark and the
 * readings land in the named node of the written model. */
START_TEST(drum_probe_recorded_root_and_model_update) {
  const char *root = MINEX_SOURCE_DIR "/tests/data/drum_proc/t0";
  ck_assert_int_eq(run("drum", "probe", "--root", root, "--seconds", "0.05",
                       "--no-benchmark", "--json", NULL),
                   0);
  check_json("probe.json");
  /* t0's Cpus_allowed_list is 0,2-3 of 4 CPUs in /proc/stat */
  ck_assert_int_eq((int)json_number(out_text, "ncpus"), 3);
  ck_assert_int_eq((int)json_number(out_text, "ncpus_online"), 4);
  ck_assert(json_number(out_text, "mem_total_mib") > 0);
  const char *model = MINEX_SOURCE_DIR "/tests/data/drum_bullpen.xml";
  const char *out = tpath("measured.xml");
  ck_assert_int_eq(run("drum", "probe", "--seconds", "0.1", "--bench-n", "60",
                       "--model", model, "--node", "mendoza.cs.williams.edu",
                       "-o", out, NULL),
                   0);
  ck_assert_ptr_nonnull(strstr(out_text, "MFLOPS"));
  minex_drum_model *m = NULL;
  ck_assert_int_eq(minex_drum_model_load(out, &m), MINEX_OK);
  const minex_drum_node *x =
      minex_drum_get(m, minex_drum_find(m, "mendoza.cs.williams.edu"));
  ck_assert_ptr_nonnull(x);
  ck_assert(x->benchmark > 0 && x->benchmark != 52.43);
  ck_assert_int_eq(x->measured, 1);
  /* rivera untouched */
  x = minex_drum_get(m, minex_drum_find(m, "rivera.cs.williams.edu"));
  ck_assert(x->benchmark == 82.55 && !x->measured);
  minex_drum_model_destroy(m);
  /* an unknown node fails before measuring and writes nothing */
  ck_assert_int_eq(run("drum", "probe", "--no-benchmark", "--model", model,
                       "--node", "nowhere", "-o", tpath("n.xml"), NULL),
                   1);
  ck_assert_ptr_nonnull(strstr(err_text, "nowhere"));
  ck_assert(!exists(tpath("n.xml")));
  ck_assert_int_eq(run("drum", "probe", "--model", model, NULL), 2);
}
END_TEST

/* `sim --plots DIR` with a DIR that does not exist is an error given before
 * the run (exit 1, naming DIR), never a claim that plots were written; an
 * existing DIR gets the data and script. */
START_TEST(sim_plots_into_missing_directory_fails_before_the_run) {
  const char *nodir = tpath("nodir");
  ck_assert_int_eq(run("sim", "--box", "2", "2", "2", "--steps", "2", "--depth",
                       "1", "--nprocs", "4", "--clusters", "2", "--plots",
                       nodir, NULL),
                   1);
  ck_assert_msg(strstr(err_text, nodir) != NULL, "%s", err_text);
  ck_assert_msg(strstr(out_text, "written") == NULL, "%s", out_text);
  ck_assert(!exists(nodir));
  /* a plain file is no directory either */
  write_file(tpath("afile"), "x\n");
  ck_assert_int_eq(run("sim", "--box", "2", "2", "2", "--steps", "2", "--plots",
                       tpath("afile"), NULL),
                   1);
  ck_assert_msg(strstr(out_text, "written") == NULL, "%s", out_text);
  ck_assert_int_eq(mkdir(tpath("plots"), 0777), 0);
  int rc =
      run("sim", "--box", "2", "2", "2", "--steps", "2", "--depth", "1",
          "--nprocs", "4", "--clusters", "2", "--plots", tpath("plots"), NULL);
  ck_assert_msg(rc == 0, "%s", err_text);
  ck_assert(exists(tpath("plots/sim_loads.dat")));
  ck_assert(exists(tpath("plots/sim_loads.gp")));
  remove_subdir("plots");
}
END_TEST

/* With stdout a file (not a terminal), sweep prints its report once: the
 * gnuplot child must not inherit and flush a copy of the stdio buffer. */
START_TEST(sweep_report_is_printed_once_into_a_file) {
  int rc = run("sweep", "--box", "2", "2", "2", "--steps", "2", "--depth", "1",
               "--table", "1", "--threads", "1", "-o", tpath("sw"), NULL);
  ck_assert_msg(rc == 0, "%s", err_text);
  ck_assert_int_eq(count_lines_starting(out_text, "minex sweep:"), 1);
  ck_assert_int_eq(count_lines_starting(out_text, "table1:"), 1);
  ck_assert_int_eq(count_lines_starting(out_text, "all:"), 1);
  remove_subdir("sw");
}
END_TEST

/* sweep -v names the ThroTTle each configuration ran with: a number (or
 * inf) for fixed ones, and for auto the value the last step chose, never
 * the placeholder 0. */
START_TEST(sweep_verbose_prints_the_throttle_auto_chose) {
  int rc = run("sweep", "--box", "3", "3", "3", "--steps", "2", "--depth", "1",
               "--table", "1", "--threads", "1", "--no-plots", "-v", "-o",
               tpath("sw"), NULL);
  ck_assert_msg(rc == 0, "%s", err_text);
  const char *zero = strstr(err_text, "ThroTTle auto (0)");
  ck_assert_msg(zero == NULL, "%.120s", zero);
  int autos = 0;
  for (const char *p = strstr(err_text, "ThroTTle auto ("); p != NULL;
       p = strstr(p + 1, "ThroTTle auto (")) {
    char *end;
    double t = strtod(p + strlen("ThroTTle auto ("), &end);
    ck_assert_msg(end != p + strlen("ThroTTle auto (") && t > 0, "%.40s", p);
    autos++;
  }
  ck_assert_int_eq(autos, 8); /* one auto configuration per C = 1..8 */
  remove_subdir("sw");
}
END_TEST

/* A mesh the workload cannot use fails naming the file and the reason in
 * the user's terms, not an internal function. */
START_TEST(sim_with_triangle_mesh_fails_naming_the_file) {
  const char *mesh = MINEX_SOURCE_DIR "/tests/data/mesh_square2d.mesh";
  ck_assert_int_eq(run("sim", mesh, "--steps", "1", NULL), 1);
  ck_assert_msg(strstr(err_text, "mesh_square2d.mesh") != NULL, "%s", err_text);
  ck_assert_msg(strstr(err_text, "tetrahedra") != NULL, "%s", err_text);
  ck_assert_msg(strstr(err_text, "sim_") == NULL, "%s", err_text);
  ck_assert_int_eq(run("sweep", mesh, "--table", "1", "-o", tpath("sw"), NULL),
                   1);
  ck_assert_msg(strstr(err_text, "mesh_square2d.mesh") != NULL &&
                    strstr(err_text, "sim_") == NULL,
                "%s", err_text);
  remove_subdir("sw");
  /* a workload that outgrows its element limit says which adaptation and
   * which options make it smaller */
  ck_assert_int_eq(run("sim", "--box", "4", "4", "4", "--depth", "8",
                       "--radius", "1", "--steps", "3", NULL),
                   1);
  ck_assert_msg(strstr(err_text, "adaptation 1") != NULL &&
                    strstr(err_text, "sim_") == NULL,
                "%s", err_text);
}
END_TEST

/* sim --write-graphs writes what replays the run outside it: MinEX on
 * PREFIX_step1.graph from PREFIX_initial.part on PREFIX_config.xml, then on
 * step 2 from its own step-1 result, gives the sim's per-step MaxQwgt, and
 * the initial partition scored on each step gives the baseline's. */
START_TEST(sim_write_graphs_replays_the_run) {
  const char *prefix = tpath("wl");
  int rc = run("sim", "--box", "3", "3", "4", "--steps", "2", "--depth", "2",
               "--nprocs", "6", "--clusters", "2", "--alpha", "0.5", "--json",
               "--write-graphs", prefix, NULL);
  ck_assert_msg(rc == 0, "%s", err_text);
  char *sim = out_text;
  out_text = NULL;
  const char *steps = strstr(sim, "\"steps\":");
  const char *base = strstr(sim, "\"baseline_steps\":");
  ck_assert(steps != NULL && base != NULL);
  const char *old = tpath("wl_initial.part"), *cfg = tpath("wl_config.xml");
  ck_assert(exists(old) && exists(cfg) && !exists(tpath("wl_step3.graph")));
  for (int k = 1; k <= 2; k++) {
    char graph[64], step_key[32], newp[32];
    snprintf(graph, sizeof graph, "wl_step%d.graph", k);
    snprintf(step_key, sizeof step_key, "\"step\": %d,", k);
    snprintf(newp, sizeof newp, "p%d.part", k);
    const char *s = strstr(steps, step_key), *b = strstr(base, step_key);
    ck_assert(s != NULL && b != NULL);
    rc = run("repart", tpath(graph), "--old", old, "--config", cfg, "--alpha",
             "0.5", "--json", "-o", tpath(newp), NULL);
    ck_assert_msg(rc == 0, "%s", err_text);
    ck_assert_double_eq_tol(json_number(out_text, "max_qwgt"),
                            json_number(s, "max_qwgt"),
                            1e-9 * json_number(s, "max_qwgt"));
    rc = run("eval", tpath(graph), "--old", tpath("wl_initial.part"), "--new",
             tpath("wl_initial.part"), "--config", cfg, "--alpha", "0.5",
             "--json", NULL);
    ck_assert_msg(rc == 0, "%s", err_text);
    ck_assert_double_eq_tol(json_number(out_text, "max_qwgt"),
                            json_number(b, "max_qwgt"),
                            1e-9 * json_number(b, "max_qwgt"));
    old = tpath(newp);
  }
  free(sim);
  ck_assert_int_eq(run("sim", "--write-graphs", "", NULL), 2);
}
END_TEST

/* A flag that takes no value refuses "--flag=value" (exit 2,
 * naming it) instead of ignoring the value: --paper-exact=0 used to turn
 * paper-exact ON. Every no-value flag of every subcommand, first and last
 * on an otherwise valid command line; nothing runs, nothing is written.
 * Options that take values still read them inline, --box=N included. */
START_TEST(flags_without_value_refuse_one) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  ck_assert_int_eq(run("gen", "--box=3", "3", "3", "-o", g, "--part", old,
                       "--nparts", "2", NULL),
                   0);
  ck_assert_ptr_nonnull(strstr(out_text, "162 tetrahedra"));
  const char *o = tpath("out.part"), *mesh = tpath("two.mesh");
  write_file(mesh, "MeshVersionFormatted 2\nDimension 3\nVertices\n5\n"
                   "0 0 0 0\n1 0 0 0\n0 1 0 0\n0 0 1 0\n1 1 1 0\n"
                   "Tetrahedra\n2\n1 2 3 4 0\n2 3 4 5 0\nEnd\n");
  const char *model = MINEX_SOURCE_DIR "/tests/data/drum_table54.xml";
  const char *root = MINEX_SOURCE_DIR "/tests/data/drum_proc/t0";
  struct {
    const char *flag;
    const char *argv[12];
  } cases[] = {
      {"--paper-exact", {"repart", g, "--old", old, "-o", o}},
      {"--no-global", {"repart", g, "--old", old, "-o", o}},
      {"--json", {"repart", g, "--old", old, "-o", o}},
      {"--verbose", {"repart", g, "--old", old, "-o", o}},
      {"--help", {"repart", g, "--old", old}},
      {"--json", {"eval", g, "--old", old, "--new", old}},
      {"--verbose", {"eval", g, "--old", old, "--new", old}},
      {"--json", {"info", g}},
      {"--verbose", {"info", g}},
      {"--verbose", {"mesh2dual", mesh, "-o", o}},
      {"--refine", {"gen", "--box", "2", "2", "2", "-o", o}},
      {"--verbose", {"gen", "--box", "2", "2", "2", "-o", o}},
      {"--paper-exact", {"sim", "--box", "2", "2", "2", "--steps", "1"}},
      {"--no-partition", {"sim", "--box", "2", "2", "2", "--steps", "1"}},
      {"--json", {"sim", "--box", "2", "2", "2", "--steps", "1"}},
      {"--verbose", {"sim", "--box", "2", "2", "2", "--steps", "1"}},
      {"--no-plots",
       {"sweep", "--table", "4", "--box", "2", "2", "2", "--steps", "1", "-o",
        o}},
      {"--verbose",
       {"sweep", "--table", "4", "--box", "2", "2", "2", "--steps", "1", "-o",
        o}},
      {"--no-benchmark",
       {"drum", "probe", "--root", root, "--seconds", "0.01"}},
      {"--json",
       {"drum", "probe", "--root", root, "--seconds", "0.01",
        "--no-benchmark"}},
      {"--json", {"drum", "config", model, "-o", o}},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    for (int last = 0; last < 2; last++) {
      char bad[64];
      snprintf(bad, sizeof bad, "%s=0", cases[c].flag);
      char *argv[24];
      int n = 0, k = 0;
      argv[n++] = (char *)MINEX_TOOL;
      /* the subcommand (and drum's verb) stay first */
      argv[n++] = (char *)cases[c].argv[k++];
      if (strcmp(argv[1], "drum") == 0)
        argv[n++] = (char *)cases[c].argv[k++];
      if (!last)
        argv[n++] = bad;
      while (cases[c].argv[k] != NULL)
        argv[n++] = (char *)cases[c].argv[k++];
      if (last)
        argv[n++] = bad;
      argv[n] = NULL;
      int st = run_argv(MINEX_TOOL, argv);
      ck_assert_msg(st == 2, "%s %s: exit %d", argv[1], bad, st);
      ck_assert_msg(strstr(err_text, "expected no value") != NULL &&
                        strstr(err_text, cases[c].flag) != NULL,
                    "%s %s: %s", argv[1], bad, err_text);
      ck_assert_msg(!exists(o), "%s %s wrote its output", argv[1], bad);
    }
  }
  /* the flags themselves still work */
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--paper-exact", "--json", "-o", o, NULL),
      0);
  ck_assert(exists(o));
}
END_TEST

/* -o (and sim --csv) onto a FIFO writes through it and leaves the FIFO
 * in place (an atomic rename would replace it with a regular file, and as
 * root -o /dev/null would replace /dev/null); the
 * reader gets exactly what a regular file gets. */
START_TEST(output_onto_a_fifo_writes_through_it) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *fifo = tpath("out.fifo"), *copy = tpath("copy.txt");
  const char *plain = tpath("plain.part");
  ck_assert_int_eq(run("gen", "--box", "4", "4", "4", "--refine", "--part", old,
                       "--nparts", "4", "-o", g, NULL),
                   0);
  ck_assert_int_eq(run("repart", g, "--old", old, "-o", plain, NULL), 0);
  ck_assert_int_eq(mkfifo(fifo, 0600), 0);
  for (int what = 0; what < 2; what++) {
    pid_t r = test_fifo_reader(fifo, copy);
    if (what == 0)
      ck_assert_int_eq(run("repart", g, "--old", old, "-o", fifo, NULL), 0);
    else
      ck_assert_int_eq(run("sim", "--box", "2", "2", "2", "--steps", "1",
                           "--nprocs", "2", "--clusters", "1", "--csv", fifo,
                           NULL),
                       0);
    struct stat sb;
    ck_assert_int_eq(lstat(fifo, &sb), 0);
    if (!S_ISFIFO(sb.st_mode))
      kill(r, SIGKILL); /* it waits on the FIFO that is gone */
    int st;
    ck_assert_int_eq(waitpid(r, &st, 0), r);
    ck_assert_msg(S_ISFIFO(sb.st_mode), "the FIFO was replaced (%d)", what);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    char *got = slurp(copy);
    if (what == 0) {
      char *want = slurp(plain);
      ck_assert_str_eq(got, want);
      free(want);
    } else {
      ck_assert_ptr_nonnull(strstr(got, "step"));
    }
    free(got);
  }
}
END_TEST

/* The number in the last column of the table row that starts with label
 * (the new partition's), or NAN when there is no such row. */
static double table_value(const char *text, const char *label) {
  char pat[96];
  snprintf(pat, sizeof pat, "\n  %s ", label);
  const char *p = strstr(text, pat);
  if (p == NULL)
    return NAN;
  const char *eol = strchr(p + 1, '\n');
  const char *q = eol != NULL ? eol : p + strlen(p);
  while (q > p && (q[-1] == ' ' || q[-1] == '\n'))
    q--;
  while (q > p && q[-1] != ' ')
    q--;
  return strtod(q, NULL);
}

/* The table's ratios to LB compare like with like. LB is one
 * iteration's processing: MaxQwgt and T_k under k are set against k LB,
 * SteadyMax against LB, so no ratio is below 1 (no partition beats the
 * bound) and none is inflated by k (--iters 100 printed "MaxQwgt / LB
 * 499.8" for a partition 5 times the bound). */
START_TEST(table_ratios_compare_like_with_like) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *cfg = MINEX_SOURCE_DIR "/docs/examples/hetero4.xml";
  ck_assert_int_eq(run("gen", "--box", "8", "8", "8", "--refine", "--part", old,
                       "--nparts", "16", "-o", g, NULL),
                   0);
  const char *ks[] = {"1", "100"};
  for (int i = 0; i < 2; i++) {
    double k = atof(ks[i]);
    ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--iters",
                         ks[i], "--json", NULL),
                     0);
    char *j = strdup(out_text);
    double lb = json_number(j, "lower_bound");
    ck_assert_int_eq(
        run("repart", g, "--old", old, "--config", cfg, "--iters", ks[i], NULL),
        0);
    double rq =
        table_value(out_text, k > 1 ? "MaxQwgt / (k LB)" : "MaxQwgt / LB");
    double rs = table_value(out_text, "SteadyMax / LB");
    double rt = table_value(out_text, k > 1 ? "T_k / (k LB)" : "T_1 / LB");
    ck_assert_msg(!isnan(rq) && !isnan(rs) && !isnan(rt), "%s", out_text);
    ck_assert(fabs(rq - json_number(j, "max_qwgt") / (k * lb)) < 1e-5 * rq);
    ck_assert(fabs(rs - json_number(j, "steady_max") / lb) < 1e-5 * rs);
    ck_assert(fabs(rt - json_number(j, "horizon_time") / (k * lb)) < 1e-5 * rt);
    ck_assert(rq >= 1 - 1e-9 && rs >= 1 - 1e-9 && rt >= 1 - 1e-9);
    ck_assert(rq < 10 && rt < 10);
    free(j);
  }
}
END_TEST

/* SPEC §5: --steps N prices the move as T_N does. The remap
 * cost is the new partition's MaxRemap (it printed "remap 0" beside a
 * MaxRemap of 1,990), T_N(old) = N SteadyMax(old) and T_N(new) = MaxRemap
 * + N SteadyMax(new) are reported, and the answer is T_N(new) < T_N(old).
 * --steps alone sets the horizon K = N; --iters K beside it makes the
 * partition without multiplying N. */
START_TEST(repart_steps_agrees_with_horizon_time) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *cfg = MINEX_SOURCE_DIR "/docs/examples/hetero4.xml";
  ck_assert_int_eq(run("gen", "--box", "8", "8", "8", "--refine", "--part", old,
                       "--nparts", "16", "-o", g, NULL),
                   0);
  const char *cases[][2] = {
      {"20", NULL}, {"20", "1"}, {"1", "50"}, {"0", NULL}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const char *n = cases[c][0], *k = cases[c][1];
    if (k != NULL)
      ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg,
                           "--steps", n, "--iters", k, "--json", NULL),
                       0);
    else
      ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg,
                           "--steps", n, "--json", NULL),
                       0);
    check_json("steps.json");
    double steps = atof(n);
    int want_k = k != NULL ? atoi(k) : (steps < 1 ? 1 : (int)steps);
    ck_assert_int_eq((int)json_number(out_text, "iterations"), want_k);
    const char *d = strstr(out_text, "\"decision\"");
    ck_assert_ptr_nonnull(d);
    const char *o = strstr(out_text, "\"old\":");
    double remap = json_number(out_text, "max_remap");
    double steady_new = json_number(out_text, "steady_max");
    double steady_old = json_number(o, "steady_max");
    double t_old = json_number(d, "horizon_old");
    double t_new = json_number(d, "horizon_new");
    ck_assert(fabs(json_number(d, "remap_cost") - remap) <= 1e-9 * remap);
    ck_assert(fabs(t_old - steps * steady_old) <= 1e-9 * (1 + t_old));
    ck_assert(fabs(t_new - (remap + steps * steady_new)) <= 1e-9 * (1 + t_new));
    ck_assert(fabs(json_number(d, "saving_per_step") -
                   (steady_old - steady_new)) <= 1e-9 * steady_old);
    int yes = strstr(d, "\"repartition\": true") != NULL;
    ck_assert_int_eq(yes, t_new < t_old);
    if (want_k == (int)steps) /* eval under k = N gives the same T_N */
      ck_assert(fabs(json_number(out_text, "horizon_time") - t_new) <=
                1e-9 * t_new);
  }
}
END_TEST

/* The printed time adds up (contraction, the diffusive run, the
 * ladder's runs, the from-scratch candidate, then checks and scoring: the
 * candidates were missing, 0.12 s of phases against 0.399 s), and
 * coarse_nvtxs is the contraction's size whichever candidate is kept (it
 * was the from-scratch candidate's level, 373,789 at 10^6). */
START_TEST(repart_time_adds_up_and_coarse_is_the_contraction) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *cfg = MINEX_SOURCE_DIR "/docs/examples/hetero4.xml";
  ck_assert_int_eq(run("gen", "--box", "14", "14", "14", "--refine", "--part",
                       old, "--nparts", "16", "-o", g, NULL),
                   0);
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--iters",
                       "20", "--json", NULL),
                   0);
  check_json("all.json");
  char *j = strdup(out_text);
  double total = json_number(j, "seconds");
  double cands = json_number(j, "seconds_candidates");
  double parts = json_number(j, "seconds_contract") + cands;
  double kinds = json_number(j, "seconds_diffusive") +
                 json_number(j, "seconds_ladder") +
                 json_number(j, "seconds_scratch");
  ck_assert(json_number(j, "seconds_ladder") > 0);
  ck_assert(json_number(j, "seconds_scratch") > 0);
  ck_assert_msg(parts <= total * (1 + 1e-9) && parts >= 0.5 * total,
                "phases %g of %g s", parts, total);
  /* The candidates run concurrently on the threads; each
     kind's time is its own wall time, so they overlap on more than one
     thread and add up to the candidates' time on one */
  int threads = (int)json_number(j, "threads");
  ck_assert_int_ge(threads, 1);
  ck_assert_msg(threads > 1 ? kinds >= 0.9 * cands && kinds <= threads * cands
                            : kinds <= cands * (1 + 1e-9),
                "candidates %g s, kinds %g s on %d threads", cands, kinds,
                threads);
  ck_assert(json_number(j, "seconds_refine") <= kinds);
  /* the projection figures: the parallel regions' wall time within
     the call's, their largest units within their work */
  double pw = json_number(j, "seconds_parallel");
  double work = json_number(j, "seconds_parallel_work");
  double span = json_number(j, "seconds_parallel_span");
  ck_assert_msg(pw > 0 && pw <= total * (1 + 1e-9), "parallel %g of %g s", pw,
                total);
  ck_assert_msg(span > 0 && span <= work * (1 + 1e-9) &&
                    work <= threads * pw * (1 + 1e-6) + 1e-6,
                "work %g s, span %g s, parallel %g s on %d threads", work, span,
                pw, threads);
  ck_assert_int_eq((int)json_number(j, "candidates"), 2 + MINEX_LADDER_MAX);
  ck_assert_int_eq((int)json_number(j, "scratch_used"), 1);
  int32_t coarse = (int32_t)json_number(j, "coarse_nvtxs");
  ck_assert_int_ne(coarse, (int32_t)json_number(j, "start_nvtxs"));
  /* the same contraction with every other candidate off */
  ck_assert_int_eq(run("repart", g, "--old", old, "--config", cfg, "--iters",
                       "20", "--scratch", "off", "--ladder", "off", "--json",
                       NULL),
                   0);
  ck_assert_int_eq((int32_t)json_number(out_text, "coarse_nvtxs"), coarse);
  ck_assert_int_eq((int)json_number(out_text, "candidates"), 1);
  ck_assert(json_number(out_text, "seconds_ladder") == 0);
  /* the table prints the same sum */
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--config", cfg, "--iters", "20", NULL),
      0);
  const char *line = strstr(out_text, "repartition time");
  ck_assert_ptr_nonnull(line);
  if (threads > 1) { /* concurrent candidates: their times in brackets */
    ck_assert_ptr_nonnull(strstr(line, "+ candidates"));
    ck_assert_ptr_nonnull(strstr(line, ", ladder"));
    ck_assert_ptr_nonnull(strstr(line, ", from-scratch"));
  } else {
    ck_assert_ptr_nonnull(strstr(line, "+ ladder"));
    ck_assert_ptr_nonnull(strstr(line, "+ from-scratch"));
  }
  free(j);
}
END_TEST

/* The table says which figure was minimised, and when T_1 rose
 * at the default k = 1 (a lower MaxQwgt bought with remapping, 43,720 ->
 * 51,196 on a user's case) it says to give --iters K when the partition
 * must last. */
START_TEST(repart_says_what_it_minimised) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  ck_assert_int_eq(run("gen", "--box", "4", "4", "4", "--refine", "--part", old,
                       "--nparts", "8", "-o", g, NULL),
                   0);
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--nparts", "8", "--json", NULL), 0);
  double t_new = json_number(out_text, "horizon_time");
  double t_old = json_number(strstr(out_text, "\"old\":"), "horizon_time");
  double q_new = json_number(out_text, "max_qwgt");
  double q_old = json_number(strstr(out_text, "\"old\":"), "max_qwgt");
  /* this case lowers MaxQwgt and raises T_1 */
  ck_assert(q_new < q_old && t_new > t_old);
  ck_assert_int_eq(run("repart", g, "--old", old, "--nparts", "8", NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "minimised"));
  ck_assert_ptr_nonnull(strstr(out_text, "MaxQwgt under k = 1"));
  ck_assert_ptr_nonnull(strstr(out_text, "T_1 rose"));
  ck_assert_ptr_nonnull(strstr(out_text, "--iters K"));
  /* under a horizon that pays for the move, no such note */
  ck_assert_int_eq(
      run("repart", g, "--old", old, "--nparts", "8", "--iters", "8", NULL), 0);
  ck_assert_ptr_nonnull(strstr(out_text, "MaxQwgt under k = 8"));
  ck_assert_ptr_null(strstr(out_text, "rose"));
}
END_TEST

/* The table prints weights of any magnitude readably: loads of 1e150 in
 * fixed point were 150-digit numbers (%f), loads of 1e-200 were 0.000000. */
START_TEST(table_prints_huge_and_tiny_loads_readably) {
  const char *g = tpath("huge.graph"), *old = tpath("huge.part");
  const char *scales[2] = {"1e150", "1e-200"};
  for (int i = 0; i < 2; i++) {
    FILE *f = fopen(g, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "4 4 010\n");
    for (int v = 0; v < 4; v++)
      fprintf(f, "%s %d %d\n", scales[i], v == 0 ? 4 : v, v == 3 ? 1 : v + 2);
    fclose(f);
    f = fopen(old, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "0\n0\n0\n1\n");
    fclose(f);
    ck_assert_int_eq(run("repart", g, "--old", old, "--nparts", "2", NULL), 0);
    const char *row = strstr(out_text, "MaxQwgt ");
    ck_assert_ptr_nonnull(row);
    /* 3 x the weight on processor 0 before, 2 x after */
    ck_assert_msg(strstr(row, i == 0 ? "3e+150" : "3e-200") != NULL &&
                      strstr(row, i == 0 ? "2e+150" : "2e-200") != NULL,
                  "%.200s", row);
    for (const char *p = out_text; *p; p++) /* no run of 40 digits */
      ck_assert_msg(strspn(p, "0123456789") < 40, "%.80s", p);
  }
}
END_TEST

/* docs/guide/cli.md, sweep --rules: at --iters 1 the defaults are
 * the paper's rules only at alpha = 0, but for the expansion in rounds (issue
 * 19; --rounds off gives the paper's). At alpha > 0 the ladder runs (1 +
 * MINEX_LADDER_MAX candidates against the paper's one); refinement and the
 * from-scratch candidate stay off at k = 1 either way. */
START_TEST(defaults_at_k1_add_the_ladder_only_at_alpha) {
  const char *g = tpath("box.graph"), *old = tpath("old.part");
  const char *a = tpath("a.part"), *b = tpath("b.part");
  ck_assert_int_eq(run("gen", "--box", "6", "6", "6", "--refine", "--part", old,
                       "--nparts", "8", "-o", g, NULL),
                   0);
  const char *alphas[] = {"0", "1"};
  for (int i = 0; i < 2; i++) {
    ck_assert_int_eq(run("repart", g, "--old", old, "--nparts", "8", "--alpha",
                         alphas[i], "--rounds", "off", "--json", "-o", a, NULL),
                     0);
    int cand = (int)json_number(out_text, "candidates");
    ck_assert_int_eq((int)json_number(out_text, "scratch_used"), 0);
    ck_assert_int_eq(run("repart", g, "--old", old, "--nparts", "8", "--alpha",
                         alphas[i], "--paper-exact", "--json", "-o", b, NULL),
                     0);
    ck_assert_int_eq((int)json_number(out_text, "candidates"), 1);
    if (i == 0) {
      ck_assert_int_eq(cand, 1);
      char *x = slurp(a), *y = slurp(b);
      ck_assert_str_eq(x, y);
      free(x), free(y);
    } else {
      ck_assert_int_eq(cand, 1 + MINEX_LADDER_MAX);
    }
  }
}
END_TEST

/* Mesh users: --out-mesh .msh writes a Gmsh file that reads back with the
 * partition written to -o (the file's partition, part after part); an
 * unknown extension is a usage error listing .msh and .vtk; a METIS graph
 * given to --mesh and an --old file of the wrong count get hints; --pwgt
 * and --rwgt weigh the dual of --mesh (a wrong count names the file), and
 * need --mesh without GRAPH. */
/* Every command that reads meshes lists every format it reads. */
START_TEST(every_mesh_reader_in_every_help) {
  const char *cmds[] = {"partition", "repart", "mesh2dual", "sim", "sweep"};
  const char *formats[] = {".msh", ".mesh", ".meshb", ".vtk", ".vtu"};
  for (int c = 0; c < 5; c++) {
    ck_assert_int_eq(run(cmds[c], "--help", NULL), 0);
    for (int f = 0; f < 5; f++)
      ck_assert_msg(strstr(out_text, formats[f]) != NULL, "%s --help: no %s",
                    cmds[c], formats[f]);
  }
}
END_TEST

START_TEST(mesh_outputs_weights_and_hints) {
  char mesh[4096], graph[4096];
  snprintf(mesh, sizeof mesh, "%s", test_data_path("mesh_gmsh_mixed_v41.msh"));
  snprintf(graph, sizeof graph, "%s", test_data_path("io_asym.graph"));
  char part[4096], msh[4096], w[4096];
  snprintf(part, sizeof part, "%s", tpath("g.part"));
  snprintf(msh, sizeof msh, "%s", tpath("g.msh"));
  snprintf(w, sizeof w, "%s", tpath("w.txt"));
  ck_assert_msg(run("partition", mesh, "--nparts", "3", "-o", part,
                    "--out-mesh", msh, NULL) == 0,
                "%s", err_text);
  int32_t *p = read_part_file(part, 80);
  minex_mesh *back = NULL;
  ck_assert_int_eq(minex_mesh_read(msh, &back), MINEX_OK);
  ck_assert_int_eq(minex_mesh_nelems(back), 80);
  const int32_t *fp = minex_mesh_file_partition(back);
  ck_assert_ptr_nonnull(fp);
  int count[3] = {0, 0, 0}, i = 0;
  for (int e = 0; e < 80; e++)
    count[p[e]]++;
  for (int q = 0; q < 3; q++)
    for (int e = 0; e < count[q]; e++, i++)
      ck_assert_int_eq(fp[i], q);
  minex_mesh_destroy(back);
  free(p);
  ck_assert_int_eq(run("partition", mesh, "--nparts", "3", "-o", part,
                       "--out-mesh", tpath("g.obj"), NULL),
                   2);
  ck_assert_ptr_nonnull(strstr(err_text, ".msh"));
  ck_assert_ptr_nonnull(strstr(err_text, ".vtk"));
  /* a graph given as the mesh */
  ck_assert_int_eq(run("repart", "--mesh", graph, "--nparts", "2", NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "METIS graph"));
  ck_assert_ptr_nonnull(strstr(err_text, ".vtu"));
  /* an --old file of the wrong count */
  write_file(w, "0\n1\n");
  ck_assert_int_eq(
      run("repart", "--mesh", mesh, "--old", w, "--nparts", "2", NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, "80 3D elements"));
  /* weights: element 0 weighs 1000, the others 1 */
  FILE *f = fopen(w, "w");
  ck_assert_ptr_nonnull(f);
  for (int e = 0; e < 80; e++)
    fprintf(f, "%d\n", e == 0 ? 1000 : 1);
  fclose(f);
  ck_assert_msg(run("repart", "--mesh", mesh, "--nparts", "2", "--pwgt", w,
                    "--json", NULL) == 0,
                "%s", err_text);
  /* LB = the processing weight 1079 over the 2 processors */
  ck_assert_double_eq(json_number(out_text, "lower_bound"), 539.5);
  write_file(w, "1\n2\n");
  ck_assert_int_eq(
      run("repart", "--mesh", mesh, "--nparts", "2", "--rwgt", w, NULL), 1);
  ck_assert_ptr_nonnull(strstr(err_text, w));
  ck_assert_ptr_nonnull(strstr(err_text, "2 weights for 80 elements"));
  ck_assert_int_eq(run("repart", graph, "--nparts", "2", "--pwgt", w, NULL), 2);
  ck_assert_ptr_nonnull(strstr(err_text, "--mesh MESH without GRAPH"));
  /* weights from the field the partitioned Gmsh file holds: the
     partition ids 0, 1, 2 of the 80 elements */
  int64_t sum = 0;
  p = read_part_file(part, 80);
  for (int e = 0; e < 80; e++)
    sum += p[e];
  free(p);
  ck_assert_msg(run("repart", "--mesh", msh, "--pwgt-field", "partition",
                    "--nparts", "3", "--json", NULL) == 0,
                "%s", err_text);
  ck_assert_double_eq_tol(json_number(out_text, "lower_bound"), (double)sum / 3,
                          1e-9);
  ck_assert_int_eq(run("partition", msh, "--nparts", "3", "-o", part,
                       "--pwgt-field", "nope", NULL),
                   1);
  ck_assert_ptr_nonnull(strstr(err_text, msh));
  ck_assert_ptr_nonnull(strstr(err_text, "\"nope\""));
  /* a negative value is no weight */
  char vtk[4096];
  snprintf(vtk, sizeof vtk, "%s", tpath("g.vtk"));
  write_file(vtk, "# vtk DataFile Version 3.0\nt\nASCII\n"
                  "DATASET UNSTRUCTURED_GRID\nPOINTS 5 double\n0 0 0\n"
                  "1 0 0\n0 1 0\n0 0 1\n1 1 1\nCELLS 2 10\n4 0 1 2 3\n"
                  "4 1 2 3 4\nCELL_TYPES 2\n10\n10\nCELL_DATA 2\n"
                  "SCALARS w double 1\nLOOKUP_TABLE default\n1\n-2\n");
  ck_assert_int_eq(
      run("repart", "--mesh", vtk, "--nparts", "2", "--rwgt-field", "w", NULL),
      1);
  ck_assert_ptr_nonnull(strstr(err_text, "weights are >= 0"));
  ck_assert_ptr_nonnull(strstr(err_text, "element 1"));
}
END_TEST

/* sim headlines its objective, T_k under k, with the ratio of the T_k sums
 * on the same line; where MinEX's sum is above no partitioning's it says
 * why and what to give; the plots' data holds T_k. */
START_TEST(sim_headlines_its_objective) {
  int rc = run("sim", "--box", "4", "4", "4", "--steps", "3", "--nprocs", "8",
               "--clusters", "2", "--threads", "1", NULL);
  ck_assert_msg(rc == 0, "%s", err_text);
  ck_assert_ptr_nonnull(strstr(out_text, "objective: T_k"));
  ck_assert_ptr_nonnull(strstr(out_text, "under k = 1"));
  const char *line = strstr(out_text, "sum of T_1: ");
  ck_assert_ptr_nonnull(line);
  double mine = 0, none = 0, ratio = 0;
  ck_assert_int_eq(sscanf(line,
                          "sum of T_1: %lf with MinEX, %lf without "
                          "partitioning (speed-up x%lf",
                          &mine, &none, &ratio),
                   3);
  ck_assert_double_eq_tol(ratio, none / mine, 0.006);
  /* this small box at k = 1: MinEX's remapping costs more than it saves */
  ck_assert(mine > none);
  ck_assert_ptr_nonnull(strstr(line, "MinEX slower"));
  ck_assert_ptr_nonnull(strstr(out_text, "never remaps"));
  ck_assert_ptr_nonnull(strstr(out_text, "--iters K"));
  rc = run("sim", "--box", "4", "4", "4", "--steps", "3", "--nprocs", "8",
           "--clusters", "2", "--threads", "1", "--iters", "20", NULL);
  ck_assert_msg(rc == 0, "%s", err_text);
  line = strstr(out_text, "sum of T_20: ");
  ck_assert_ptr_nonnull(line);
  ck_assert_int_eq(sscanf(line,
                          "sum of T_20: %lf with MinEX, %lf without "
                          "partitioning (speed-up x%lf",
                          &mine, &none, &ratio),
                   3);
  ck_assert(mine < none);
  ck_assert_ptr_null(strstr(out_text, "never remaps"));
  ck_assert_int_eq(run("sim", "--box", "2", "2", "2", "--steps", "2",
                       "--nprocs", "4", "--clusters", "2", "--threads", "1",
                       "--json", NULL),
                   0);
  ck_assert_ptr_nonnull(strstr(out_text, "\"kept_old\": "));
}
END_TEST

static Suite *tool_suite(void) {
  Suite *s = suite_create("tool");
  TCase *tc = tcase_create("cli");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, help_of_every_subcommand_exits_zero);
  tcase_add_test(tc, usage_errors_exit_two);
  tcase_add_test(tc, iters_gives_the_horizon_figures);
  tcase_add_test(tc, repart_max_imbalance_bounds_every_processor);
  tcase_add_test(tc, gen_info_repart_eval_round_trip);
  tcase_add_test(tc, repart_with_hetero_config_never_raises_max_qwgt);
  tcase_add_test(tc, repart_without_old_says_it_builds_the_initial_partition);
  tcase_add_test(tc, mesh2dual_two_tetrahedra_share_one_face);
  tcase_add_test(tc, partition_of_a_mixed_mesh_writes_part_and_vtk);
  tcase_add_test(tc, repart_mesh_writes_old_new_and_moved_as_vtk);
  tcase_add_test(tc, missing_file_fails_naming_it);
  tcase_add_test(tc, malformed_graph_fails_naming_file);
  tcase_add_test(tc, output_into_missing_directory_leaves_nothing);
  tcase_add_test(tc, wrong_partition_fails_naming_file);
  tcase_add_test(tc, partition_with_no_available_processor_is_enoproc);
  tcase_add_test(tc, repart_moves_everything_off_unavailable_processors);
  tcase_add_test(tc, repart_is_deterministic_and_passes_options);
  tcase_add_test(tc, gen_step_moves_the_ball_and_no_ball_means_unit_weights);
  tcase_add_test(tc, drum_config_table54_powers_conn_and_parts);
  tcase_add_test(tc, repart_steps_decides_whether_to_move);
  tcase_add_test(tc, drum_probe_recorded_root_and_model_update);
  tcase_add_test(tc, sim_plots_into_missing_directory_fails_before_the_run);
  tcase_add_test(tc, sweep_report_is_printed_once_into_a_file);
  tcase_add_test(tc, sweep_verbose_prints_the_throttle_auto_chose);
  tcase_add_test(tc, sim_with_triangle_mesh_fails_naming_the_file);
  tcase_add_test(tc, sim_write_graphs_replays_the_run);
  tcase_add_test(tc, flags_without_value_refuse_one);
  tcase_add_test(tc, output_onto_a_fifo_writes_through_it);
  tcase_add_test(tc, table_ratios_compare_like_with_like);
  tcase_add_test(tc, repart_steps_agrees_with_horizon_time);
  tcase_add_test(tc, repart_time_adds_up_and_coarse_is_the_contraction);
  tcase_add_test(tc, repart_says_what_it_minimised);
  tcase_add_test(tc, mesh_outputs_weights_and_hints);
  tcase_add_test(tc, every_mesh_reader_in_every_help);
  tcase_add_test(tc, sim_headlines_its_objective);
  tcase_add_test(tc, defaults_at_k1_add_the_ladder_only_at_alpha);
  tcase_add_test(tc, table_prints_huge_and_tiny_loads_readably);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) {
  return test_run_suite(tool_suite());
}
