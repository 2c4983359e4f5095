/* SPDX-License-Identifier: GPL-3.0-or-later */
/* peers_case: one case of the peer benchmark (bench/peers/README.md): a
 * mesh whose refined ball has moved since the old partition was made.
 * Writes DIR/graph.graph (the dual graph weighted by the ball at its new
 * position), DIR/old.part (a weighted recursive coordinate bisection of the
 * element centroids by the load of the ball at its old position, target
 * shares proportional to 1/Proc), DIR/config.xml (the machine) and
 * DIR/case.json (what was made). Public MinEX API only; deterministic. */
#include "minex.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The refined ball of `minex gen --refine`, relative to the mesh's
 * bounding box: centre at (0.3, 0.5, 0.5) of it, radius 0.15 x its
 * diagonal, each step moves the centre by 0.1 x its length along x. On the
 * unit cube this is exactly minex gen's ball. */
#define CASE_BALL_X 0.3
#define CASE_BALL_Y 0.5
#define CASE_BALL_Z 0.5
#define CASE_BALL_R 0.15
#define CASE_STEP_DX 0.1
#define CASE_FACTOR 8.0
#define CASE_CWGT 4.0

static const char usage[] =
    "Usage: peers_case (MESH | --elements N | --box NX NY NZ) --config "
    "CFG.xml -o DIR\n"
    "                  [--ball X,Y,Z,R] [--factor F] [--cwgt C]\n"
    "                  [--old-step S0] [--step S1] [--name NAME]\n"
    "\n"
    "Makes one case of the peer benchmark in DIR (created if missing):\n"
    "  graph.graph  dual graph with the refined ball at step S1 (default 1)\n"
    "  old.part     weighted recursive coordinate bisection of the element\n"
    "               centroids by the Pwgt of the ball at step S0 (default "
    "0), into\n"
    "               P parts with target shares proportional to 1/Proc\n"
    "  config.xml   the machine (CFG.xml as loaded)\n"
    "  case.json    what was made\n"
    "\n"
    "  MESH            MEDIT .mesh or Gmsh .msh\n"
    "  --elements N    built-in box of about N tetrahedra (as minex gen)\n"
    "  --box NX NY NZ  built-in box of NX*NY*NZ cubes (6 tetrahedra each)\n"
    "  --ball X,Y,Z,R  ball at step 0 in mesh coordinates (default: centre "
    "at\n"
    "                  (0.3,0.5,0.5) of the bounding box, radius 0.15 x its "
    "diagonal,\n"
    "                  minex gen's ball on the unit cube)\n"
    "  --factor F      Pwgt inside the ball (Rwgt F+1; default 8)\n"
    "  --cwgt C        Cwgt of an edge with a refined end (default 4)\n"
    "  --old-step S0, --step S1  ball positions: centre moved along x by "
    "S x 0.1 x\n"
    "                  the bounding box's length\n"
    "  --name NAME     case name for case.json (default: DIR's last part)\n";

static int usage_error(const char *what, const char *arg) {
  fprintf(stderr, "peers_case: %s%s%s\nTry 'peers_case --help'.\n", what,
          arg ? ": " : "", arg ? arg : "");
  return 2;
}

static int fail(const char *what, int rc) {
  fprintf(stderr, "peers_case: %s: %s (%s)\n", what, minex_last_error(),
          minex_err_name(rc));
  return 1;
}

/* ------------------------------------------------- weighted bisection */

typedef struct rcb_item {
  double key; /* centroid coordinate along the level's axis */
  int32_t id; /* element                                      */
} rcb_item;

static int by_key_then_id(const void *a, const void *b) {
  const rcb_item *x = a, *y = b;
  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

typedef struct rcb_ctx {
  const double *xyz;   /* 3 x nelems centroids                          */
  const double *w;     /* nelems weights (the old load)                 */
  const double *share; /* P target shares (1/Proc, 0 when unavailable) */
  int32_t *part;       /* output                                        */
} rcb_ctx;

static double share_sum(const rcb_ctx *c, int32_t p0, int32_t p1) {
  double s = 0;
  for (int32_t p = p0; p < p1; p++)
    s += c->share[p];
  return s;
}

/* Elements it[0..n) into processors [p0, p1): cut along the longest
 * extent of their centroids so that the left half of the processors gets
 * the weight share of its targets (the cut nearest to it, ties left). */
static void rcb(const rcb_ctx *c, rcb_item *it, int32_t n, int32_t p0,
                int32_t p1) {
  if (n == 0)
    return;
  if (p1 - p0 == 1) {
    for (int32_t i = 0; i < n; i++)
      c->part[it[i].id] = p0;
    return;
  }
  int32_t pm = p0 + (p1 - p0) / 2;
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
  double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  double wsum = 0;
  for (int32_t i = 0; i < n; i++) {
    const double *x = c->xyz + 3 * (size_t)it[i].id;
    for (int d = 0; d < 3; d++) {
      lo[d] = x[d] < lo[d] ? x[d] : lo[d];
      hi[d] = x[d] > hi[d] ? x[d] : hi[d];
    }
    wsum += c->w[it[i].id];
  }
  int axis = 0;
  for (int d = 1; d < 3; d++)
    if (hi[d] - lo[d] > hi[axis] - lo[axis])
      axis = d;
  for (int32_t i = 0; i < n; i++)
    it[i].key = c->xyz[3 * (size_t)it[i].id + (size_t)axis];
  qsort(it, (size_t)n, sizeof *it, by_key_then_id);

  double sl = share_sum(c, p0, pm), sr = share_sum(c, pm, p1);
  int32_t cut;
  if (sl <= 0)
    cut = 0;
  else if (sr <= 0)
    cut = n;
  else {
    /* with no weight at all, count elements instead */
    int unit = !(wsum > 0);
    double total = unit ? (double)n : wsum;
    double target = total * sl / (sl + sr), cum = 0;
    cut = n;
    for (int32_t i = 0; i < n; i++) {
      double wi = unit ? 1.0 : c->w[it[i].id];
      if (cum + wi >= target) {
        /* cut before i (cum) or after it (cum + wi): the nearer */
        cut = target - cum <= cum + wi - target ? i : i + 1;
        break;
      }
      cum += wi;
    }
    /* both halves have processors to fill: leave neither empty */
    if (cut < 1 && n >= 2)
      cut = 1;
    if (cut > n - 1 && n >= 2)
      cut = n - 1;
  }
  rcb(c, it, cut, p0, pm);
  rcb(c, it + cut, n - cut, pm, p1);
}

/* ------------------------------------------------------------ outputs */

static void put_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++)
    if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
    else
      fputc(*s, f);
  fputc('"', f);
}

/* What the case is, for the benchmark's scripts and report. */
typedef struct case_info {
  const char *name, *source, *config;
  int32_t nvtxs, nprocs, nclusters, refined_old, refined;
  int64_t nedges;
  long old_step, step;
  minex_ball old_ball, ball;
  double pwgt_old;
} case_info;

static void put_ball(FILE *f, const char *key, const minex_ball *b) {
  fprintf(f, ", \"%s\": [%.17g, %.17g, %.17g, %.17g]", key, b->center[0],
          b->center[1], b->center[2], b->radius);
}

/* DIR/case.json, one JSON object, written atomically (temp + rename). */
static int write_json(const char *dir, const case_info *ci) {
  char path[4096], tmp[4200];
  snprintf(path, sizeof path, "%s/case.json", dir);
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  FILE *f = fopen(tmp, "w");
  if (f == NULL) {
    fprintf(stderr, "peers_case: %s: %s\n", tmp, strerror(errno));
    return 1;
  }
  fputs("{\"name\": ", f);
  put_str(f, ci->name);
  fputs(", \"source\": ", f);
  put_str(f, ci->source);
  fputs(", \"config\": ", f);
  put_str(f, ci->config);
  fprintf(
      f,
      ", \"nvtxs\": %" PRId32 ", \"nedges\": %" PRId64 ", \"nprocs\": %" PRId32
      ", \"nclusters\": %" PRId32 ", \"old_step\": %ld, \"step\": %ld",
      ci->nvtxs, ci->nedges, ci->nprocs, ci->nclusters, ci->old_step, ci->step);
  put_ball(f, "old_ball", &ci->old_ball);
  put_ball(f, "ball", &ci->ball);
  fprintf(f,
          ", \"factor\": %.17g, \"cwgt\": %.17g, \"refined_old\": %" PRId32
          ", \"refined\": %" PRId32 ", \"pwgt_old\": %.17g}\n",
          ci->ball.factor, ci->ball.cwgt_refined, ci->refined_old, ci->refined,
          ci->pwgt_old);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad || rename(tmp, path) != 0) {
    fprintf(stderr, "peers_case: %s: %s\n", path, strerror(errno));
    unlink(tmp);
    return 1;
  }
  return 0;
}

static int parse_ball(const char *s, minex_ball *b) {
  char *end = NULL;
  const char *p = s;
  double v[4];
  for (int k = 0; k < 4; k++) {
    v[k] = strtod(p, &end);
    if (end == p || !isfinite(v[k]) || (k < 3 && *end != ','))
      return -1;
    p = end + (k < 3);
  }
  if (*end != '\0' || !(v[3] > 0))
    return -1;
  memcpy(b->center, v, sizeof b->center);
  b->radius = v[3];
  return 0;
}

static int parse_long(const char *s, long lo, long *out) {
  char *end = NULL;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno || v < lo)
    return -1;
  *out = v;
  return 0;
}

static int parse_double(const char *s, double *out) {
  char *end = NULL;
  double v = strtod(s, &end);
  if (end == s || *end || !isfinite(v) || v < 0)
    return -1;
  *out = v;
  return 0;
}

int main(int argc, char **argv) {
  const char *mesh_path = NULL, *cfg_path = NULL, *dir = NULL, *name = NULL;
  long elements = 0, box[3] = {0, 0, 0}, s0 = 0, s1 = 1;
  double factor = CASE_FACTOR, cwgt = CASE_CWGT;
  int have_ball = 0;
  minex_ball ball0 = {{0, 0, 0}, 0, 0, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      fputs(usage, stdout);
      return 0;
    }
    int nval =
        !strcmp(a, "--box") ? 3
        : (!strcmp(a, "--elements") || !strcmp(a, "--config") ||
           !strcmp(a, "-o") || !strcmp(a, "--ball") || !strcmp(a, "--factor") ||
           !strcmp(a, "--cwgt") || !strcmp(a, "--old-step") ||
           !strcmp(a, "--step") || !strcmp(a, "--name"))
            ? 1
            : 0;
    if (nval == 0) {
      if (a[0] == '-' || mesh_path != NULL)
        return usage_error("unexpected argument", a);
      mesh_path = a;
      continue;
    }
    if (i + nval >= argc)
      return usage_error("missing value of", a);
    const char *v = argv[++i];
    if (!strcmp(a, "--box")) {
      for (int k = 0; k < 3; k++) {
        if (k > 0)
          v = argv[++i];
        if (parse_long(v, 1, &box[k]) != 0 || box[k] > 1290)
          return usage_error("--box: expected three counts in 1..1290", v);
      }
    } else if (!strcmp(a, "--elements")) {
      if (parse_long(v, 1, &elements) != 0)
        return usage_error("--elements: expected a count >= 1", v);
    } else if (!strcmp(a, "--config")) {
      cfg_path = v;
    } else if (!strcmp(a, "-o")) {
      dir = v;
    } else if (!strcmp(a, "--ball")) {
      if (parse_ball(v, &ball0) != 0)
        return usage_error("--ball: expected X,Y,Z,R with R > 0", v);
      have_ball = 1;
    } else if (!strcmp(a, "--factor")) {
      if (parse_double(v, &factor) != 0)
        return usage_error("--factor: expected a number >= 0", v);
    } else if (!strcmp(a, "--cwgt")) {
      if (parse_double(v, &cwgt) != 0)
        return usage_error("--cwgt: expected a number >= 0", v);
    } else if (!strcmp(a, "--old-step")) {
      if (parse_long(v, -1000000, &s0) != 0 || s0 > 1000000)
        return usage_error("--old-step: expected an integer", v);
    } else if (!strcmp(a, "--step")) {
      if (parse_long(v, -1000000, &s1) != 0 || s1 > 1000000)
        return usage_error("--step: expected an integer", v);
    } else {
      name = v;
    }
  }
  if ((mesh_path != NULL) + (elements > 0) + (box[0] > 0) != 1)
    return usage_error("give exactly one of MESH, --elements N and --box", 0);
  if (cfg_path == NULL || dir == NULL)
    return usage_error("--config and -o DIR are required", 0);
  if (elements > 0) {
    double c = round(cbrt((double)elements / 6.0));
    if (c < 1)
      c = 1;
    if (c > 1290)
      return usage_error("--elements: too large", 0);
    box[0] = box[1] = box[2] = (long)c;
  }
  if (name == NULL) {
    const char *slash = strrchr(dir, '/');
    name = slash && slash[1] ? slash + 1 : dir;
  }
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "peers_case: %s: %s\n", dir, strerror(errno));
    return 1;
  }

  int status = 1, rc;
  minex_mesh *mesh = NULL;
  minex_config *cfg = NULL;
  minex_graph *g = NULL;
  double *xyz = NULL, *pw = NULL, *rw = NULL, *share = NULL;
  int32_t *part = NULL;
  rcb_item *it = NULL;
  if ((rc = minex_config_load(cfg_path, &cfg)) != MINEX_OK) {
    status = fail(cfg_path, rc);
    goto done;
  }
  rc = mesh_path ? minex_mesh_read(mesh_path, &mesh)
                 : minex_gen_box((int32_t)box[0], (int32_t)box[1],
                                 (int32_t)box[2], &mesh);
  if (rc != MINEX_OK) {
    status = fail(mesh_path ? mesh_path : "built-in box", rc);
    goto done;
  }
  int32_t ne = minex_mesh_nelems(mesh), P = minex_config_nprocs(cfg);
  size_t n = (size_t)ne + 1;
  xyz = malloc(sizeof *xyz * 3 * n);
  pw = malloc(sizeof *pw * n);
  rw = malloc(sizeof *rw * n);
  part = malloc(sizeof *part * n);
  it = malloc(sizeof *it * n);
  share = malloc(sizeof *share * ((size_t)P + 1));
  if (!xyz || !pw || !rw || !part || !it || !share) {
    fprintf(stderr, "peers_case: out of memory\n");
    goto done;
  }

  /* bounding box of the nodes the elements use (the workload's domain) */
  double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
  double hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  const double *coords = minex_mesh_coords(mesh);
  const int32_t *elems = minex_mesh_elems(mesh);
  size_t nv = (size_t)minex_mesh_elem_type(mesh);
  for (size_t k = 0; k < (size_t)ne * nv; k++)
    for (int d = 0; d < 3; d++) {
      double x = coords[3 * (size_t)elems[k] + (size_t)d];
      lo[d] = x < lo[d] ? x : lo[d];
      hi[d] = x > hi[d] ? x : hi[d];
    }
  if (ne == 0) {
    fprintf(stderr, "peers_case: the mesh has no elements\n");
    goto done;
  }
  double diag = sqrt((hi[0] - lo[0]) * (hi[0] - lo[0]) +
                     (hi[1] - lo[1]) * (hi[1] - lo[1]) +
                     (hi[2] - lo[2]) * (hi[2] - lo[2]));
  if (!have_ball) {
    ball0.center[0] = lo[0] + CASE_BALL_X * (hi[0] - lo[0]);
    ball0.center[1] = lo[1] + CASE_BALL_Y * (hi[1] - lo[1]);
    ball0.center[2] = lo[2] + CASE_BALL_Z * (hi[2] - lo[2]);
    ball0.radius = CASE_BALL_R * diag;
  }
  ball0.factor = factor;
  ball0.cwgt_refined = cwgt;
  minex_ball old_ball = ball0, new_ball = ball0;
  double dx = CASE_STEP_DX * (hi[0] - lo[0]);
  old_ball.center[0] += dx * (double)s0;
  new_ball.center[0] += dx * (double)s1;

  /* the old partition: weighted RCB by the old load */
  int32_t refined_old = 0, refined_new = 0;
  if ((rc = minex_ball_weights(mesh, &old_ball, pw, rw, &refined_old)) !=
      MINEX_OK) {
    status = fail("old ball", rc);
    goto done;
  }
  for (int32_t e = 0; e < ne; e++) {
    minex_mesh_centroid(mesh, e, xyz + 3 * (size_t)e);
    it[e].id = e;
    it[e].key = 0;
  }
  for (int32_t p = 0; p < P; p++)
    share[p] = minex_config_is_available(cfg, p)
                   ? 1.0 / minex_config_proc_slowdown(
                               cfg, minex_config_cluster_of(cfg, p))
                   : 0.0;
  rcb_ctx ctx = {xyz, pw, share, part};
  rcb(&ctx, it, ne, 0, P);
  double pwgt_old = 0;
  for (int32_t e = 0; e < ne; e++)
    pwgt_old += pw[e];

  /* the graph: the ball where it is now */
  if ((rc = minex_ball_weights(mesh, &new_ball, pw, rw, &refined_new)) !=
      MINEX_OK) {
    status = fail("new ball", rc);
    goto done;
  }
  if ((rc = minex_mesh_dual_ball(mesh, &new_ball, &g)) != MINEX_OK) {
    status = fail("dual graph", rc);
    goto done;
  }

  char path[4096];
  snprintf(path, sizeof path, "%s/graph.graph", dir);
  if ((rc = minex_graph_write_metis(g, path)) != MINEX_OK) {
    status = fail(path, rc);
    goto done;
  }
  snprintf(path, sizeof path, "%s/old.part", dir);
  if ((rc = minex_part_write(path, ne, part)) != MINEX_OK) {
    status = fail(path, rc);
    goto done;
  }
  snprintf(path, sizeof path, "%s/config.xml", dir);
  if ((rc = minex_config_save(cfg, path)) != MINEX_OK) {
    status = fail(path, rc);
    goto done;
  }
  case_info ci = {name,
                  mesh_path ? mesh_path : "built-in box",
                  cfg_path,
                  ne,
                  P,
                  minex_config_nclusters(cfg),
                  refined_old,
                  refined_new,
                  minex_graph_nedges(g),
                  s0,
                  s1,
                  old_ball,
                  new_ball,
                  pwgt_old};
  if (write_json(dir, &ci) != 0)
    goto done;
  printf("%s: %" PRId32 " elements, %" PRId64 " edges, P = %" PRId32
         "; ball at step %ld (%" PRId32 " refined) -> step %ld (%" PRId32
         " refined)\n",
         name, ne, minex_graph_nedges(g), P, s0, refined_old, s1, refined_new);
  status = 0;
done:
  free(xyz);
  free(pw);
  free(rw);
  free(part);
  free(it);
  free(share);
  minex_graph_destroy(g);
  minex_config_destroy(cfg);
  minex_mesh_destroy(mesh);
  return status;
}
