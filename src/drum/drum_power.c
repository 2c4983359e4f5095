/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DRUM node powers and the MinEX slowdowns derived from them (SPEC §4;
 * Faik's thesis §3.1.2: power_n = pp_n (w_comm c_n / sum c + w_cpu p_n /
 * sum p) over siblings; §3.1.2.1: p_{n,j} = b_n (u + i) with the SMP idle
 * share; §3.1.2.2, third formulation: c_n = available bandwidth
 * C - (rx + tx)).
 *
 * Choices where the thesis is silent (docs/design/drum.md):
 * - Without a benchmark on any computing node every b_n is 1; a model with
 *   benchmarks on some computing nodes and not on others is an error.
 * - A computing node that was never measured is dedicated: u + i = 1.
 * - The available bandwidth of a link is floored at min_available * C, so a
 *   saturated link is very slow but not infinitely so.
 * - c_n of a computing node is the available bandwidth of its link (0 when
 *   it runs no application process); of a network node the sum of its
 *   children's, capped by its own link's available bandwidth when that is
 *   known (a switch behind a slow uplink cannot pass more than the uplink).
 * - Siblings of which any has an unknown c (no capacity anywhere below it)
 *   share the communication term like the processing term.
 * - Conn(c,d) counts the links of the tree path with a known capacity;
 *   pairs without any get B_ref (Conn 1), and with no capacities at all
 *   every Conn is 1. Conn(c,c) is intra_conn (shared memory). */
#include "drum/drum.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void minex_drum_options_init(minex_drum_options *options) {
  if (options == NULL)
    return;
  memset(options, 0, sizeof *options);
  options->w_comm = 0.0;
  options->min_available = 0.01;
  options->latency_bytes = 0.0;
  options->intra_conn = 1.0;
}

static int check_options(const minex_drum_options *o, const char *fn) {
  if (!(o->w_comm >= 0 && o->w_comm <= 1))
    return core_error(MINEX_EINVAL, "%s: options.w_comm = %g is not in [0,1]",
                      fn, o->w_comm);
  if (!(o->min_available > 0 && o->min_available <= 1))
    return core_error(MINEX_EINVAL,
                      "%s: options.min_available = %g is not "
                      "in (0,1]",
                      fn, o->min_available);
  if (!(isfinite(o->latency_bytes) && o->latency_bytes >= 0))
    return core_error(MINEX_EINVAL,
                      "%s: options.latency_bytes = %g must be "
                      "finite and >= 0",
                      fn, o->latency_bytes);
  if (!(isfinite(o->intra_conn) && o->intra_conn > 0))
    return core_error(MINEX_EINVAL,
                      "%s: options.intra_conn = %g must be "
                      "finite and > 0",
                      fn, o->intra_conn);
  return MINEX_OK;
}

/* Available bandwidth of node i's link to its parent, or -1 if unknown. */
static double link_available(const minex_drum_node *nd,
                             const minex_drum_options *o) {
  if (nd->capacity <= 0)
    return -1;
  double a = nd->capacity - nd->traffic;
  double floor = o->min_available * nd->capacity;
  return a > floor ? a : floor;
}

/* Benchmarks on all computing nodes or on none: *with_b of them have one.
 * ECONFIG when there is no computing node or only some have one. */
static int check_benchmarks(const minex_drum_model *model, const char *fn,
                            int32_t *with_b) {
  const minex_drum_node *nd = model->nodes;
  int32_t computing = 0, missing = -1;
  *with_b = 0;
  for (int32_t i = 0; i < model->n; i++) {
    if (nd[i].type != MINEX_DRUM_COMPUTING)
      continue;
    computing++;
    if (nd[i].benchmark > 0)
      (*with_b)++;
    else if (missing < 0)
      missing = i;
  }
  if (computing == 0)
    return core_error(MINEX_ECONFIG, "%s: the model has no computing node", fn);
  if (*with_b > 0 && *with_b < computing)
    return core_error(MINEX_ECONFIG,
                      "%s: node %d (%s) has no benchmark "
                      "rating while %d other computing nodes have one; run "
                      "`minex drum probe` on it or set benchmark=",
                      fn, (int)missing, nd[missing].name, (int)*with_b);
  return MINEX_OK;
}

/* Leaves: rates and powers of the computing nodes (b_n 1 when with_b is
 * 0); c unknown is -1. Network nodes start at 0. */
static void leaf_powers(minex_drum_model *model, const minex_drum_options *o,
                        int32_t with_b) {
  for (int32_t i = 0; i < model->n; i++) {
    minex_drum_node *x = &model->nodes[i];
    x->proc_power = 0;
    x->comm_power = x->type == MINEX_DRUM_COMPUTING ? link_available(x, o) : 0;
    x->power = 0;
    x->rate = 0;
    if (x->type != MINEX_DRUM_COMPUTING)
      continue;
    double b = with_b > 0 ? x->benchmark : 1.0;
    double k = x->nprocs, share = 1.0;
    if (x->measured) {
      /* §3.1.2.1: u = (1/k) sum_j u_j, i = (1/k) min(k - sum_j u_j,
         sum_t i_t); a node without processes is rated for one */
      double kk = k > 0 ? k : 1.0;
      double u = x->cpu_use > kk ? kk : x->cpu_use;
      double idle = kk - u < x->idle ? kk - u : x->idle;
      share = (u + (idle > 0 ? idle : 0)) / kk;
    }
    x->rate = b * share;
    x->proc_power = k * x->rate;
    if (x->nprocs == 0) /* no process: no share of the work either way */
      x->comm_power = 0;
  }
}

/* Inner nodes, bottom-up: children come after their parents, so when the
 * loop reaches i all of i's children have been added to it. */
static void inner_powers(minex_drum_model *model, const minex_drum_options *o) {
  minex_drum_node *nd = model->nodes;
  for (int32_t i = model->n - 1; i > 0; i--) {
    minex_drum_node *x = &nd[i], *p = &nd[x->parent];
    if (x->type == MINEX_DRUM_NETWORK) {
      double up = link_available(x, o);
      if (x->comm_power >= 0 && up >= 0 && up < x->comm_power)
        x->comm_power = up;
    }
    p->proc_power += x->proc_power;
    if (p->comm_power >= 0)
      p->comm_power = x->comm_power >= 0 ? p->comm_power + x->comm_power : -1;
  }
}

/* Top-down: power of each child from its parent's, among siblings; sum_p,
 * sum_c (zeroed doubles) and unk (zeroed bytes) hold n entries. */
static void sibling_powers(minex_drum_model *model, const minex_drum_options *o,
                           double *sum_p, double *sum_c, unsigned char *unk) {
  minex_drum_node *nd = model->nodes;
  int32_t n = model->n;
  for (int32_t i = 1; i < n; i++) {
    int32_t q = nd[i].parent;
    sum_p[q] += nd[i].proc_power;
    if (nd[i].comm_power < 0)
      unk[q] = 1;
    else
      sum_c[q] += nd[i].comm_power;
  }
  nd[0].power = 1.0;
  double wc = o->w_comm, wp = 1.0 - o->w_comm;
  for (int32_t i = 1; i < n; i++) {
    int32_t q = nd[i].parent;
    double ps = sum_p[q] > 0 ? nd[i].proc_power / sum_p[q] : 0;
    double cs = ps;
    if (!unk[q] && sum_c[q] > 0)
      cs = nd[i].comm_power / sum_c[q];
    nd[i].power = nd[q].power * (wc * cs + wp * ps);
  }
}

int minex_drum_compute_powers(minex_drum_model *model,
                              const minex_drum_options *options) {
  core_error_clear();
  const char *fn = "minex_drum_compute_powers";
  if (model == NULL)
    return core_error(MINEX_EINVAL, "%s: model is NULL", fn);
  minex_drum_options def;
  if (options == NULL) {
    minex_drum_options_init(&def);
    options = &def;
  }
  int rc = check_options(options, fn);
  if (rc != MINEX_OK)
    return rc;
  int32_t n = model->n, with_b = 0;
  if (n == 0)
    return core_error(MINEX_ECONFIG, "%s: the model has no nodes", fn);
  if ((rc = check_benchmarks(model, fn, &with_b)) != MINEX_OK)
    return rc;
  /* allocated before any node is written: on ENOMEM the model keeps the
     powers it had (a half pass would leave comm_power at -1) */
  double *sum_p = calloc((size_t)n, sizeof(double));
  double *sum_c = calloc((size_t)n, sizeof(double));
  unsigned char *unk = calloc((size_t)n, 1);
  if (sum_p == NULL || sum_c == NULL || unk == NULL) {
    free(sum_p), free(sum_c), free(unk);
    return core_error(MINEX_ENOMEM, "%s: out of memory", fn);
  }
  leaf_powers(model, options, with_b);
  inner_powers(model, options);
  sibling_powers(model, options, sum_p, sum_c, unk);
  free(sum_p), free(sum_c), free(unk);
  for (int32_t i = 0; i < n; i++)
    if (model->nodes[i].comm_power < 0)
      model->nodes[i].comm_power = 0;
  return MINEX_OK;
}

/* Depth of each node (root 0). */
static void node_depths(const minex_drum_model *m, int32_t *depth) {
  for (int32_t i = 0; i < m->n; i++)
    depth[i] = i == 0 ? 0 : depth[m->nodes[i].parent] + 1;
}

/* Smallest known available bandwidth (or -1) and summed latency on the
 * tree path between nodes a and b. */
static void path_link(const minex_drum_model *m, const int32_t *depth,
                      int32_t a, int32_t b, const minex_drum_options *o,
                      double *bw, double *lat) {
  double best = -1, l = 0;
  while (a != b) {
    int32_t *x = depth[a] >= depth[b] ? &a : &b;
    const minex_drum_node *nd = &m->nodes[*x];
    double av = link_available(nd, o);
    if (av >= 0 && (best < 0 || av < best))
      best = av;
    l += nd->latency;
    *x = nd->parent;
  }
  *bw = best;
  *lat = l;
}

/* Arrays of minex_drum_config, allocated together before any is filled. */
typedef struct drum_config_work {
  int32_t *node;  /* nc computing nodes that run processes, node order  */
  int32_t *np;    /* nc their processes                                 */
  int32_t *depth; /* n depths of the model's nodes                      */
  double *proc;   /* nc Proc: fastest rate / the node's rate            */
  double *bw;     /* nc x nc smallest known available bandwidth, or -1  */
  double *lat;    /* nc x nc summed latency on the tree path            */
  double *conn;   /* nc x nc Conn                                       */
} drum_config_work;

static void config_work_free(drum_config_work *w) {
  free(w->node);
  free(w->np);
  free(w->depth);
  free(w->proc);
  free(w->bw);
  free(w->lat);
  free(w->conn);
}

static int config_work_alloc(drum_config_work *w, int32_t n, int32_t nc) {
  w->node = malloc(sizeof(int32_t) * (size_t)nc);
  w->np = malloc(sizeof(int32_t) * (size_t)nc);
  w->depth = malloc(sizeof(int32_t) * (size_t)n);
  w->proc = malloc(sizeof(double) * (size_t)nc);
  w->bw = malloc(sizeof(double) * (size_t)nc * (size_t)nc);
  w->lat = malloc(sizeof(double) * (size_t)nc * (size_t)nc);
  w->conn = malloc(sizeof(double) * (size_t)nc * (size_t)nc);
  if (!w->node || !w->np || !w->depth || !w->proc || !w->bw || !w->lat ||
      !w->conn)
    return core_error(MINEX_ENOMEM, "%s: out of memory", "minex_drum_config");
  return MINEX_OK;
}

/* One cluster per computing node that runs processes: node, np and
 * proc of w. ECONFIG when one of them has no rate left. */
static int cluster_procs(const minex_drum_model *model, drum_config_work *w) {
  const minex_drum_node *nd = model->nodes;
  double rmax = 0;
  int32_t nc = 0;
  for (int32_t i = 0; i < model->n; i++)
    if (nd[i].type == MINEX_DRUM_COMPUTING && nd[i].nprocs > 0) {
      w->node[nc] = i;
      w->np[nc++] = nd[i].nprocs;
      if (nd[i].rate > rmax)
        rmax = nd[i].rate;
    }
  for (int32_t c = 0; c < nc; c++) {
    double r = nd[w->node[c]].rate;
    if (!(r > 0))
      return core_error(MINEX_ECONFIG,
                        "%s: node %d (%s) has no processing "
                        "rate left (measured u + i = 0)",
                        "minex_drum_config", (int)w->node[c],
                        nd[w->node[c]].name);
    w->proc[c] = rmax / r;
  }
  return MINEX_OK;
}

/* Conn between the nc clusters of w: B_ref over the path's bandwidth (1
 * without one), plus the latency term, intra_conn on the diagonal. */
static void cluster_conn(const minex_drum_model *model,
                         const minex_drum_options *o, int32_t nc,
                         drum_config_work *w) {
  double *bw = w->bw, *lat = w->lat, *conn = w->conn;
  node_depths(model, w->depth);
  double bref = -1;
  for (int32_t c = 0; c < nc; c++)
    for (int32_t d = c + 1; d < nc; d++) {
      double b, l;
      path_link(model, w->depth, w->node[c], w->node[d], o, &b, &l);
      bw[c * nc + d] = bw[d * nc + c] = b;
      lat[c * nc + d] = lat[d * nc + c] = l;
      if (b > bref)
        bref = b;
    }
  for (int32_t c = 0; c < nc; c++)
    for (int32_t d = 0; d < nc; d++) {
      if (c == d) {
        conn[c * nc + d] = o->intra_conn;
        continue;
      }
      double b = bw[c * nc + d];
      double v = bref > 0 && b > 0 ? bref / b : 1.0;
      if (o->latency_bytes > 0 && bref > 0)
        v += lat[c * nc + d] * bref * 1e6 / (8.0 * o->latency_bytes);
      conn[c * nc + d] = v;
    }
}

int minex_drum_config(minex_drum_model *model,
                      const minex_drum_options *options, minex_config **out,
                      int32_t *cluster_node) {
  const char *fn = "minex_drum_config";
  if (out == NULL) {
    core_error_clear();
    return core_error(MINEX_EINVAL, "%s: out is NULL", fn);
  }
  *out = NULL;
  minex_drum_options def;
  if (options == NULL) {
    minex_drum_options_init(&def);
    options = &def;
  }
  int rc = minex_drum_compute_powers(model, options);
  if (rc != MINEX_OK)
    return rc;
  int32_t n = model->n, nc = 0;
  int64_t total = 0;
  const minex_drum_node *nd = model->nodes;
  for (int32_t i = 0; i < n; i++)
    if (nd[i].type == MINEX_DRUM_COMPUTING && nd[i].nprocs > 0) {
      nc++;
      total += nd[i].nprocs;
    }
  if (nc == 0)
    return core_error(MINEX_ECONFIG,
                      "%s: no computing node runs an "
                      "application process (all nprocs are 0)",
                      fn);
  /* one cluster per computing node: Conn is nc x nc, and every structure
     of a repartition is O(processes); refuse before allocating them */
  if (nc > MINEX_NCLUSTERS_MAX || total > MINEX_NPROCS_MAX)
    return core_error(MINEX_ECONFIG,
                      "%s: %d computing nodes run %lld "
                      "processes (at most MINEX_NCLUSTERS_MAX = %d nodes and "
                      "MINEX_NPROCS_MAX = %d processes)",
                      fn, (int)nc, (long long)total, MINEX_NCLUSTERS_MAX,
                      MINEX_NPROCS_MAX);
  drum_config_work w = {0};
  rc = config_work_alloc(&w, n, nc);
  if (rc == MINEX_OK)
    rc = cluster_procs(model, &w);
  if (rc == MINEX_OK) {
    cluster_conn(model, options, nc, &w);
    rc = minex_config_create(nc, w.np, w.proc, w.conn, out);
  }
  if (rc == MINEX_OK && cluster_node != NULL)
    memcpy(cluster_node, w.node, sizeof(int32_t) * (size_t)nc);
  config_work_free(&w);
  return rc;
}
