/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The golden corpus: problems, machines, option sets, cases and lines
 * (golden.h). */
#include "golden.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define NELEMS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ------------------------------------------------------------- names */

static const char *const input_names[GOLDEN_NINPUTS] = {
    "4elt", "perfusion", "cube_mesh", "cube_ball_p16"};
static const char *const machine_names[GOLDEN_NMACHINES] = {"uni", "het",
                                                            "het_gone"};
static const char *const optset_names[GOLDEN_NOPTSETS] = {"k1",
                                                          "k10",
                                                          "k100",
                                                          "alpha05",
                                                          "rounds_off",
                                                          "scratch_on",
                                                          "ladder_on",
                                                          "paper_exact",
                                                          "throttle_auto",
                                                          "cluster_levels_on",
                                                          "tuned",
                                                          "throttle_list"};

const char *golden_input_name(golden_input in) {
  return input_names[in];
}
const char *golden_machine_name(golden_machine m) {
  return machine_names[m];
}
const char *golden_optset_name(golden_optset o) {
  return optset_names[o];
}

void golden_case_id(const golden_case *c, char *buf, size_t len) {
  snprintf(buf, len, "%s/%s/%s", input_names[c->input],
           machine_names[c->machine], optset_names[c->optset]);
}

/* ------------------------------------------------------------- cases */

#define C(in, m, o)                                                            \
  { GOLDEN_##in, GOLDEN_##m, GOLDEN_##o }
/* Every option set on the two small inputs (one on three clusters, one on
 * one), the unavailable processors on both, and the paths that matter at
 * scale on the two large ones. */
const golden_case golden_serial_cases[] = {
    C(4ELT, HETERO, K1),
    C(4ELT, HETERO, K10),
    C(4ELT, HETERO, K100),
    C(4ELT, HETERO, ALPHA05),
    C(4ELT, HETERO, ROUNDS_OFF),
    C(4ELT, HETERO, SCRATCH_ON),
    C(4ELT, HETERO, LADDER_ON),
    C(4ELT, HETERO, PAPER_EXACT),
    C(4ELT, HETERO, THROTTLE_AUTO),
    C(4ELT, HETERO, CLUSTER_LEVELS_ON),
    C(4ELT, HETERO, TUNED),
    C(4ELT, HETERO, THROTTLE_LIST),
    C(4ELT, HETERO_GONE, K1),
    C(4ELT, HETERO_GONE, K10),
    C(4ELT, HETERO_GONE, ROUNDS_OFF),
    C(4ELT, HETERO_GONE, PAPER_EXACT),
    C(4ELT, UNIFORM, K1),
    C(PERFUSION, UNIFORM, K1),
    C(PERFUSION, UNIFORM, K10),
    C(PERFUSION, UNIFORM, K100),
    C(PERFUSION, UNIFORM, ALPHA05),
    C(PERFUSION, UNIFORM, ROUNDS_OFF),
    C(PERFUSION, UNIFORM, SCRATCH_ON),
    C(PERFUSION, UNIFORM, LADDER_ON),
    C(PERFUSION, UNIFORM, PAPER_EXACT),
    C(PERFUSION, UNIFORM, THROTTLE_AUTO),
    C(PERFUSION, UNIFORM, CLUSTER_LEVELS_ON),
    C(PERFUSION, UNIFORM, TUNED),
    C(PERFUSION, UNIFORM, THROTTLE_LIST),
    C(PERFUSION, HETERO_GONE, K1),
    C(PERFUSION, HETERO_GONE, K100),
    C(PERFUSION, HETERO_GONE, SCRATCH_ON),
    C(CUBE_MESH, HETERO, K1),
    C(CUBE_CASE, UNIFORM, K1),
    C(CUBE_CASE, UNIFORM, K100),
    C(CUBE_CASE, HETERO_GONE, K1),
};
const int golden_nserial_cases = NELEMS(golden_serial_cases);

/* Stage 2 (rounds AUTO or ON) and stage 1 (rounds OFF, paper_exact) of
 * the MPI layer, each on the small inputs, and the large case once. */
const golden_case golden_mpi_cases[] = {
    C(4ELT, HETERO, K1),
    C(4ELT, HETERO, K10),
    C(4ELT, HETERO, ALPHA05),
    C(4ELT, HETERO, ROUNDS_OFF),
    C(4ELT, HETERO, PAPER_EXACT),
    C(4ELT, HETERO, THROTTLE_AUTO),
    C(4ELT, HETERO, CLUSTER_LEVELS_ON),
    C(4ELT, HETERO, TUNED),
    C(4ELT, HETERO, THROTTLE_LIST),
    C(4ELT, HETERO_GONE, K1),
    C(PERFUSION, UNIFORM, K1),
    C(PERFUSION, UNIFORM, K10),
    C(PERFUSION, UNIFORM, ALPHA05),
    C(PERFUSION, UNIFORM, SCRATCH_ON),
    C(PERFUSION, UNIFORM, LADDER_ON),
    C(PERFUSION, HETERO_GONE, K1),
    C(CUBE_MESH, HETERO, K1),
    C(CUBE_CASE, UNIFORM, K1),
};
const int golden_nmpi_cases = NELEMS(golden_mpi_cases);
#undef C

/* ---------------------------------------------------------- problems */

/* Joins data_dir and rel. */
static const char *data_path(const char *data_dir, const char *rel, char *buf,
                             size_t len) {
  snprintf(buf, len, "%s/%s", data_dir, rel);
  return buf;
}

static int fail(int rc, char *err, size_t errlen, const char *what) {
  snprintf(err, errlen, "%s: %s (%s)", what, minex_last_error(),
           minex_err_name(rc));
  return rc;
}

/* The refined region of 4elt, which has no coordinates: the first n/10
 * vertices of a breadth-first search from vertex n/2 (a ball in the graph's
 * metric). */
static int bfs_ball(const minex_graph *g, unsigned char *inside) {
  int32_t n = minex_graph_nvtxs(g);
  const int64_t *xadj = minex_graph_xadj(g);
  const int32_t *adj = minex_graph_adjncy(g);
  int32_t *queue = malloc(sizeof *queue * ((size_t)n + 1));
  if (queue == NULL)
    return MINEX_ENOMEM;
  memset(inside, 0, (size_t)n);
  int32_t head = 0, tail = 0, want = n / 10;
  queue[tail++] = n / 2;
  inside[n / 2] = 1;
  while (head < tail && tail < want) {
    int32_t v = queue[head++];
    for (int64_t j = xadj[v]; j < xadj[v + 1] && tail < want; j++)
      if (!inside[adj[j]]) {
        inside[adj[j]] = 1;
        queue[tail++] = adj[j];
      }
  }
  free(queue);
  return MINEX_OK;
}

/* 4elt with a refined ball: Pwgt 8 inside and 1 outside, each times 1.0 to
 * 1.4 by vertex id, Rwgt = Pwgt + 1, Cwgt 4 on an edge with a refined end
 * and 1 elsewhere, times 1, 1.25 or 1.5 by the ends' ids. The weights are
 * not integers, so that every sum depends on its order; old is the
 * breadth-first blocks of minex_partition_initial into 8. */
static int load_4elt(const char *dir, golden_problem *p, char *err,
                     size_t errlen) {
  char path[4096];
  int rc = minex_graph_read_metis(
      data_path(dir, "graphs/4elt.graph", path, sizeof path), &p->graph);
  if (rc != MINEX_OK)
    return fail(rc, err, errlen, path);
  int32_t n = minex_graph_nvtxs(p->graph);
  const int64_t *xadj = minex_graph_xadj(p->graph);
  const int32_t *adj = minex_graph_adjncy(p->graph);
  unsigned char *inside = malloc((size_t)n + 1);
  double *pw = malloc(sizeof *pw * ((size_t)n + 1));
  double *rw = malloc(sizeof *rw * ((size_t)n + 1));
  double *cw = malloc(sizeof *cw * ((size_t)xadj[n] + 1));
  p->nparts = 8;
  p->old = malloc(sizeof *p->old * ((size_t)n + 1));
  rc = inside && pw && rw && cw && p->old ? bfs_ball(p->graph, inside)
                                          : MINEX_ENOMEM;
  if (rc == MINEX_OK) {
    for (int32_t v = 0; v < n; v++) {
      pw[v] = (inside[v] ? 8.0 : 1.0) * (1.0 + 0.1 * (double)(v % 5));
      rw[v] = pw[v] + 1.0;
      for (int64_t j = xadj[v]; j < xadj[v + 1]; j++) {
        int32_t w = adj[j];
        cw[j] = (inside[v] || inside[w] ? 4.0 : 1.0) *
                (1.0 + 0.25 * (double)((v + w) % 3));
      }
    }
    rc = minex_graph_set_weights(p->graph, pw, rw, cw);
    if (rc != MINEX_OK)
      fail(rc, err, errlen, "4elt: minex_graph_set_weights");
  } else {
    snprintf(err, errlen, "4elt: out of memory");
  }
  if (rc == MINEX_OK &&
      (rc = minex_partition_initial(p->graph, p->nparts, MINEX_INIT_BFS,
                                    p->old)) != MINEX_OK)
    fail(rc, err, errlen, "4elt: minex_partition_initial");
  free(inside);
  free(pw);
  free(rw);
  free(cw);
  return rc;
}

/* The ball at fractions fx, fy, fz of the box of the element centroids,
 * radius fr times its diagonal (as data/cases/cube_ball_p16 was made). */
static minex_ball centroid_ball(const minex_mesh *m, double fx, double fy,
                                double fz, double fr, double factor,
                                double cwgt) {
  double lo[3], hi[3], c[3];
  minex_mesh_centroid(m, 0, lo);
  minex_mesh_centroid(m, 0, hi);
  for (int32_t e = 1; e < minex_mesh_nelems(m); e++) {
    minex_mesh_centroid(m, e, c);
    for (int d = 0; d < 3; d++) {
      lo[d] = c[d] < lo[d] ? c[d] : lo[d];
      hi[d] = c[d] > hi[d] ? c[d] : hi[d];
    }
  }
  double diag2 = 0;
  for (int d = 0; d < 3; d++)
    diag2 += (hi[d] - lo[d]) * (hi[d] - lo[d]);
  minex_ball b = {{lo[0] + fx * (hi[0] - lo[0]), lo[1] + fy * (hi[1] - lo[1]),
                   lo[2] + fz * (hi[2] - lo[2])},
                  fr * sqrt(diag2),
                  factor,
                  cwgt};
  return b;
}

/* A mesh of data/: its dual weighted by a ball, old = RCB of the
 * centroids into nparts (the partition before the refinement). */
static int load_mesh(const char *dir, const char *rel, const minex_ball *frac,
                     int32_t nparts, golden_problem *p, char *err,
                     size_t errlen) {
  char path[4096];
  minex_mesh *mesh = NULL;
  int rc = minex_mesh_read(data_path(dir, rel, path, sizeof path), &mesh);
  if (rc != MINEX_OK)
    return fail(rc, err, errlen, path);
  minex_ball b =
      centroid_ball(mesh, frac->center[0], frac->center[1], frac->center[2],
                    frac->radius, frac->factor, frac->cwgt_refined);
  if ((rc = minex_mesh_dual_ball(mesh, &b, &p->graph)) != MINEX_OK) {
    fail(rc, err, errlen, "minex_mesh_dual_ball");
  } else {
    int32_t n = minex_graph_nvtxs(p->graph);
    p->nparts = nparts;
    p->old = malloc(sizeof *p->old * ((size_t)n + 1));
    if (p->old == NULL)
      rc = MINEX_ENOMEM;
    else if ((rc = minex_mesh_partition_rcb(mesh, nparts, p->old)) != MINEX_OK)
      fail(rc, err, errlen, "minex_mesh_partition_rcb");
  }
  minex_mesh_destroy(mesh);
  return rc;
}

static int load_case(const char *dir, golden_problem *p, char *err,
                     size_t errlen) {
  char path[4096];
  int rc = minex_graph_read_metis(
      data_path(dir, "cases/cube_ball_p16/graph.graph", path, sizeof path),
      &p->graph);
  if (rc != MINEX_OK)
    return fail(rc, err, errlen, path);
  p->nparts = 16;
  rc = minex_part_read(
      data_path(dir, "cases/cube_ball_p16/old.part", path, sizeof path),
      minex_graph_nvtxs(p->graph), p->nparts, &p->old);
  if (rc != MINEX_OK)
    fail(rc, err, errlen, path);
  return rc;
}

int golden_load(golden_input in, const char *data_dir, golden_problem *p,
                char *err, size_t errlen) {
  memset(p, 0, sizeof *p);
  p->input = in;
  err[0] = '\0';
  /* balls as fractions of the centroids' box and of its diagonal */
  static const minex_ball perfusion = {{0.3, 0.5, 0.5}, 0.15, 8.0, 4.0};
  static const minex_ball cube = {{0.7, 0.35, 0.5}, 0.1, 4.0, 2.0};
  int rc = MINEX_EINVAL;
  switch (in) {
  case GOLDEN_4ELT:
    rc = load_4elt(data_dir, p, err, errlen);
    break;
  case GOLDEN_PERFUSION:
    rc = load_mesh(data_dir, "meshes/perfusion_micro3d.mesh", &perfusion, 16, p,
                   err, errlen);
    break;
  case GOLDEN_CUBE_MESH:
    rc = load_mesh(data_dir, "meshes/cube_big_tetra.mesh", &cube, 12, p, err,
                   errlen);
    break;
  case GOLDEN_CUBE_CASE:
    rc = load_case(data_dir, p, err, errlen);
    break;
  default:
    snprintf(err, errlen, "unknown input %d", (int)in);
  }
  if (rc == MINEX_ENOMEM && err[0] == '\0')
    snprintf(err, errlen, "%s: out of memory", input_names[in]);
  if (rc != MINEX_OK)
    golden_problem_free(p);
  return rc;
}

void golden_problem_free(golden_problem *p) {
  minex_graph_destroy(p->graph);
  free(p->old);
  p->graph = NULL;
  p->old = NULL;
}

/* -------------------------------------------------------------- rows */

int golden_rows_make(const golden_problem *p, int rank, int size,
                     golden_rows *r) {
  memset(r, 0, sizeof *r);
  const minex_graph *g = p->graph;
  int32_t n = minex_graph_nvtxs(g);
  r->vtxdist = malloc(sizeof *r->vtxdist * ((size_t)size + 1));
  if (r->vtxdist == NULL)
    return MINEX_ENOMEM;
  for (int q = 0; q <= size; q++)
    r->vtxdist[q] = (int64_t)n * q / size;
  r->first = r->vtxdist[rank];
  r->nlocal = r->vtxdist[rank + 1] - r->first;
  r->old = p->old + r->first;
  const int64_t *X = minex_graph_xadj(g);
  const int32_t *A = minex_graph_adjncy(g);
  const double *C = minex_graph_cwgt(g);
  int64_t base = X[r->first], nnz = X[r->first + r->nlocal] - base;
  r->xadj = malloc(sizeof *r->xadj * ((size_t)r->nlocal + 1));
  r->adjncy = malloc(sizeof *r->adjncy * ((size_t)nnz + 1));
  r->cwgt = malloc(sizeof *r->cwgt * ((size_t)nnz + 1));
  r->pwgt = malloc(sizeof *r->pwgt * ((size_t)r->nlocal + 1));
  r->rwgt = malloc(sizeof *r->rwgt * ((size_t)r->nlocal + 1));
  if (!r->xadj || !r->adjncy || !r->cwgt || !r->pwgt || !r->rwgt) {
    golden_rows_free(r);
    return MINEX_ENOMEM;
  }
  for (int64_t v = 0; v <= r->nlocal; v++)
    r->xadj[v] = X[r->first + v] - base;
  for (int64_t j = 0; j < nnz; j++) {
    r->adjncy[j] = A[base + j];
    r->cwgt[j] = C[base + j];
  }
  memcpy(r->pwgt, minex_graph_pwgt(g) + r->first,
         sizeof *r->pwgt * (size_t)r->nlocal);
  memcpy(r->rwgt, minex_graph_rwgt(g) + r->first,
         sizeof *r->rwgt * (size_t)r->nlocal);
  return MINEX_OK;
}

void golden_rows_free(golden_rows *r) {
  free(r->vtxdist);
  free(r->xadj);
  free(r->adjncy);
  free(r->pwgt);
  free(r->rwgt);
  free(r->cwgt);
  memset(r, 0, sizeof *r);
}

/* ---------------------------------------------- machines and options */

int golden_case_setup(const golden_case *c, const golden_problem *p, char *id,
                      size_t idlen, minex_config **cfg, minex_options *opt,
                      char *err, size_t errlen) {
  golden_case_id(c, id, idlen);
  *cfg = NULL;
  int rc = golden_config(c->machine, p->nparts, cfg);
  if (rc != MINEX_OK) {
    snprintf(err, errlen, "%s: golden_config: %s", id, minex_last_error());
    return rc;
  }
  golden_options(c->optset, opt);
  return MINEX_OK;
}

int golden_config(golden_machine m, int32_t nparts, minex_config **out) {
  if (m == GOLDEN_UNIFORM)
    return minex_config_create_uniform(nparts, out);
  /* half, a quarter and the rest of the processors; each cluster its own
     speed, link slowdowns and intra-cluster slowdown */
  int32_t np[3] = {nparts / 2, nparts / 4, nparts - nparts / 2 - nparts / 4};
  double proc[3] = {1.0, 1.5, 2.5};
  double conn[9] = {1.0, 4.0, 10.0, 4.0, 1.5, 6.0, 10.0, 6.0, 2.0};
  int rc = minex_config_create(3, np, proc, conn, out);
  if (rc == MINEX_OK && m == GOLDEN_HETERO_GONE &&
      ((rc = minex_config_set_available(*out, 1, 0)) != MINEX_OK ||
       (rc = minex_config_set_available(*out, nparts - 2, 0)) != MINEX_OK)) {
    minex_config_destroy(*out);
    *out = NULL;
  }
  return rc;
}

void golden_options(golden_optset o, minex_options *opt) {
  static const double throttles[] = {0.5, 2.0, INFINITY};
  minex_options_init(opt);
  switch (o) {
  case GOLDEN_K1:
    break;
  case GOLDEN_K10:
    opt->iterations = 10;
    break;
  case GOLDEN_K100:
    opt->iterations = 100;
    break;
  case GOLDEN_ALPHA05:
    opt->alpha = 0.5;
    break;
  case GOLDEN_ROUNDS_OFF:
    opt->rounds = MINEX_ROUNDS_OFF;
    opt->iterations = 10;
    break;
  case GOLDEN_SCRATCH_ON:
    opt->scratch = MINEX_SCRATCH_ON;
    break;
  case GOLDEN_LADDER_ON:
    opt->ladder = MINEX_LADDER_ON;
    break;
  case GOLDEN_PAPER_EXACT:
    opt->paper_exact = 1;
    break;
  case GOLDEN_THROTTLE_AUTO:
    opt->throttle_auto = 1;
    break;
  case GOLDEN_CLUSTER_LEVELS_ON:
    opt->cluster_levels = MINEX_CLUSTER_LEVELS_ON;
    break;
  case GOLDEN_TUNED:
    opt->iterations = 4;
    opt->throttle = 4.0;
    opt->remap_mode = MINEX_REMAP_SENDER;
    opt->seed = 12345;
    opt->coarse_per_proc = 32;
    opt->sample_size = 2;
    opt->global_candidates = 0;
    opt->max_passes = 3;
    opt->refine = MINEX_REFINE_ON;
    opt->refine_passes = 2;
    opt->balance = MINEX_BALANCE_ON;
    opt->global_spread = 1;
    break;
  case GOLDEN_THROTTLE_LIST:
    opt->iterations = 10;
    opt->alpha = 1.0;
    opt->throttle_auto = 1;
    opt->throttle_candidates = throttles;
    opt->nthrottle_candidates = NELEMS(throttles);
    opt->remap_mode = MINEX_REMAP_BOTH;
    opt->coarse_target = 300;
    opt->balance = MINEX_BALANCE_OFF;
    break;
  default:
    break;
  }
}

/* ------------------------------------------------------------- lines */

uint64_t golden_fnv1a(const int32_t *part, int32_t n) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int32_t v = 0; v < n; v++) {
    uint32_t x = (uint32_t)part[v];
    for (int b = 0; b < 4; b++) {
      h ^= (x >> (8 * b)) & 0xffu;
      h *= 0x100000001b3ULL;
    }
  }
  return h;
}

void golden_format(char *buf, size_t len, const char *id, const int32_t *part,
                   int32_t n, const minex_metrics *m) {
  snprintf(buf, len,
           "%s fnv=%016" PRIx64 " max_qwgt=%a min_qwgt=%a qwgt_tot=%a"
           " load_imb=%a min_var=%a lower_bound=%a max_wgt=%a max_comm=%a"
           " max_remap=%a steady_max=%a horizon_time=%a cut_edges=%" PRId64
           " cut_weight=%a moved=%" PRId64 " total_v=%a max_v=%a"
           " stranded=%" PRId64 " navailable=%" PRId32 " coarse_nvtxs=%" PRId32
           " coarse_moves=%" PRId64 " expand_moves=%" PRId64
           " returned_old=%d scratch_used=%d"
           " throttle_used=%a horizon_used=%a start_nvtxs=%" PRId32
           " candidates=%" PRId32,
           id, golden_fnv1a(part, n), m->max_qwgt, m->min_qwgt, m->qwgt_tot,
           m->load_imb, m->min_var, m->lower_bound, m->max_wgt, m->max_comm,
           m->max_remap, m->steady_max, m->horizon_time, m->cut_edges,
           m->cut_weight, m->moved, m->total_v, m->max_v, m->stranded,
           m->navailable, m->coarse_nvtxs, m->coarse_moves, m->expand_moves,
           m->returned_old, m->scratch_used, m->throttle_used, m->horizon_used,
           m->start_nvtxs, m->candidates);
}

/* -------------------------------------------------------------- file */

int golden_file_read(const char *path, golden_file *f, char *err,
                     size_t errlen) {
  memset(f, 0, sizeof *f);
  FILE *fp = fopen(path, "r");
  if (fp == NULL) {
    snprintf(err, errlen, "%s: cannot open", path);
    return MINEX_EIO;
  }
  char *buf = NULL;
  size_t cap = 0;
  ssize_t got;
  int lineno = 0, rc = MINEX_OK, alloc = 0;
  while (rc == MINEX_OK && (got = getline(&buf, &cap, fp)) >= 0) {
    lineno++;
    while (got > 0 && (buf[got - 1] == '\n' || buf[got - 1] == '\r'))
      buf[--got] = '\0';
    if (got == 0 || buf[0] == '#')
      continue;
    char *blank = strchr(buf, ' ');
    if (blank == NULL || blank == buf || strstr(blank, " fnv=") != blank) {
      snprintf(err, errlen, "%s:%d: expected 'ID fnv=... FIELD=VALUE ...'",
               path, lineno);
      rc = MINEX_EPARSE;
      break;
    }
    size_t idlen = (size_t)(blank - buf);
    for (int i = 0; i < f->n; i++)
      if (strlen(f->id[i]) == idlen && memcmp(f->id[i], buf, idlen) == 0) {
        snprintf(err, errlen, "%s:%d: case %.*s given twice", path, lineno,
                 (int)idlen, buf);
        rc = MINEX_EPARSE;
      }
    if (rc != MINEX_OK)
      break;
    if (f->n == alloc) {
      int na = alloc ? 2 * alloc : 64;
      char **ni = realloc(f->id, sizeof *ni * (size_t)na);
      if (ni != NULL)
        f->id = ni;
      char **nl = ni ? realloc(f->line, sizeof *nl * (size_t)na) : NULL;
      if (nl != NULL)
        f->line = nl;
      if (ni == NULL || nl == NULL) {
        rc = MINEX_ENOMEM;
        break;
      }
      alloc = na;
    }
    f->line[f->n] = malloc((size_t)got + 1);
    f->id[f->n] = malloc(idlen + 1);
    if (f->line[f->n] == NULL || f->id[f->n] == NULL) {
      free(f->line[f->n]);
      free(f->id[f->n]);
      rc = MINEX_ENOMEM;
      break;
    }
    memcpy(f->line[f->n], buf, (size_t)got + 1);
    memcpy(f->id[f->n], buf, idlen);
    f->id[f->n][idlen] = '\0';
    f->n++;
  }
  if (rc == MINEX_ENOMEM)
    snprintf(err, errlen, "%s: out of memory", path);
  else if (rc == MINEX_OK && ferror(fp)) {
    snprintf(err, errlen, "%s: read error", path);
    rc = MINEX_EIO;
  }
  free(buf);
  fclose(fp);
  if (rc != MINEX_OK)
    golden_file_free(f);
  return rc;
}

void golden_file_free(golden_file *f) {
  for (int i = 0; i < f->n; i++) {
    free(f->id[i]);
    free(f->line[i]);
  }
  free(f->id);
  free(f->line);
  memset(f, 0, sizeof *f);
}

const char *golden_file_find(const golden_file *f, const char *id) {
  for (int i = 0; i < f->n; i++)
    if (strcmp(f->id[i], id) == 0)
      return f->line[i];
  return NULL;
}

/* The value of key in a line (after "key="), its length in *vlen, or
 * NULL. */
static const char *field(const char *line, const char *key, size_t klen,
                         size_t *vlen) {
  for (const char *p = strchr(line, ' '); p != NULL; p = strchr(p + 1, ' '))
    if (strncmp(p + 1, key, klen) == 0 && p[1 + klen] == '=') {
      const char *v = p + 2 + klen;
      *vlen = strcspn(v, " ");
      return v;
    }
  return NULL;
}

/* value, and its decimal form when it is a %a double */
static void describe(const char *v, size_t vlen, char *buf, size_t len) {
  char tmp[128];
  snprintf(tmp, sizeof tmp, "%.*s", (int)vlen, v);
  char *end = NULL;
  double d = strtod(tmp, &end);
  if (strstr(tmp, "0x") != NULL && end != NULL && *end == '\0')
    snprintf(buf, len, "%s (%.17g)", tmp, d);
  else
    snprintf(buf, len, "%s", tmp);
}

int golden_diff(const char *want, const char *got, char *out, size_t len) {
  int ndiff = 0;
  size_t used = 0;
  out[0] = '\0';
  /* each key of either line, the golden one's first */
  for (int pass = 0; pass < 2; pass++) {
    const char *a = pass == 0 ? want : got, *b = pass == 0 ? got : want;
    for (const char *p = strchr(a, ' '); p != NULL; p = strchr(p + 1, ' ')) {
      const char *key = p + 1, *eq = strchr(key, '=');
      if (eq == NULL)
        break;
      size_t klen = (size_t)(eq - key), alen = 0, blen = 0;
      const char *av = field(a, key, klen, &alen);
      const char *bv = field(b, key, klen, &blen);
      if (pass == 1 && bv != NULL)
        continue; /* compared in the first pass */
      if (bv != NULL && alen == blen && memcmp(av, bv, alen) == 0)
        continue;
      char da[192], db[192];
      describe(av, alen, da, sizeof da);
      if (bv != NULL)
        describe(bv, blen, db, sizeof db);
      else
        snprintf(db, sizeof db, "(absent)");
      int w =
          snprintf(out + used, len - used, "  %.*s: golden %s, now %s\n",
                   (int)klen, key, pass == 0 ? da : db, pass == 0 ? db : da);
      if (w > 0 && (size_t)w < len - used)
        used += (size_t)w;
      ndiff++;
    }
  }
  return ndiff;
}
