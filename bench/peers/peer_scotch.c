/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scotch 7 peer driver of bench/peers (README.md, "Driver: Scotch"): the
 * repartitioning case becomes a SCOTCH_Graph with integer weights, the
 * machine one of four Scotch target architectures, and SCOTCH_graphRepart
 * or SCOTCH_graphRemap maps the graph from the old partition. Only the
 * available processors are targets; their compact ids 0..Pa-1 are mapped
 * back to MinEX's processor ids at the end. */
#include "peers_common.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <scotch.h> /* needs FILE and int types declared first */

_Static_assert(sizeof(SCOTCH_Num) == sizeof(int32_t),
               "processor ids are passed to Scotch as SCOTCH_Num");

static const char usage[] =
    "Usage: peer_scotch GRAPH --old OLD.part --config CFG.xml --method M\n"
    "                   [--param EMRAVAL] [--seed S] -o NEW.part\n"
    "Methods (M or M:KBAL, KBAL the imbalance tolerance, default 0.03):\n"
    "  repart        SCOTCH_graphRepart, Pa equal parts (speeds ignored)\n"
    "  remap-cmpltw  SCOTCH_graphRemap on a weighted complete graph\n"
    "                (weights proportional to 1/Proc)\n"
    "  remap-tleaf   SCOTCH_graphRemap on a tree-leaf clusters x procs\n"
    "                (link costs from Conn; equal-sized clusters only)\n"
    "  remap-deco    SCOTCH_graphRemap on a decomposition-defined machine\n"
    "                graph (SCOTCH_archBuild2: speeds and link costs)\n"
    "--param: migration/cut cost ratio emraval (default 1; Scotch rounds\n"
    "it to 0.01); --seed: Scotch's random seed (default 1).\n";

/* Largest sums of the integer weights handed to Scotch (SCOTCH_Num is
 * 32-bit here): Pwgt and Rwgt sums stay below 2^28, Cwgt (both directions)
 * below 2^26, leaving headroom for Scotch's cost products (cut load times
 * distance times the migration ratio's denominator, up to 100). */
#define PWGT_BUDGET (1 << 28)
#define RWGT_BUDGET (1 << 28)
#define CWGT_BUDGET (1 << 26)
/* Integer Conn values up to this stay exact; others are scaled. */
#define CONN_EXACT_MAX 1024
/* Scaled Conn: the smallest becomes CONN_SCALE_MIN, none above this. */
#define CONN_SCALE_MIN 100.0
#define CONN_SCALED_MAX (1 << 20)
/* Speed weights: exact when K/Proc is an integer for a K up to this,
 * else rounded from SPEED_SCALE * Proc_min / Proc. */
#define SPEED_EXACT_K 1000
#define SPEED_SCALE 1000.0
#define KBAL_DEFAULT 0.03
#define EMRAVAL_DEFAULT 1.0

typedef enum method {
  METHOD_REPART,       /* SCOTCH_graphRepart (complete graph, equal parts) */
  METHOD_REMAP_CMPLTW, /* SCOTCH_graphRemap on SCOTCH_archCmpltw           */
  METHOD_REMAP_TLEAF,  /* SCOTCH_graphRemap on SCOTCH_archTleaf (+ Sub)    */
  METHOD_REMAP_DECO    /* SCOTCH_graphRemap on SCOTCH_archBuild2 graph     */
} method;

/* The machine as Scotch sees it: the available processors only. */
typedef struct machine {
  int32_t nprocs;    /* P, every processor of the configuration         */
  int32_t navail;    /* Pa, available processors (Scotch's parts)        */
  int32_t *avail;    /* [navail]: compact id -> MinEX processor id       */
  int32_t *compact;  /* [nprocs]: MinEX id -> compact id, -1 unavailable */
  SCOTCH_Num *speed; /* [navail]: integer weight proportional to 1/Proc  */
  int uniform_speed; /* 1 when every available processor has one Proc    */
  double conn_scale; /* integer architecture distance of Conn = 1        */
  SCOTCH_Num *conn;  /* [C*C]: Conn scaled to integers >= 1              */
  int32_t nclusters; /* C                                                */
} machine;

static void machine_free(machine *m) {
  free(m->avail);
  free(m->compact);
  free(m->speed);
  free(m->conn);
}

static int is_integer(double x) {
  return x == floor(x) && fabs(x) < 9.0e15;
}

/* Turns n weights into SCOTCH_Num: exact when they are integers summing to
 * at most budget, else scaled to sum about budget and rounded, a positive
 * weight never below 1. Prints a note when it scales. Returns 0, or 1 when
 * a weight is negative or not finite (message on stderr). */
static int weights_to_scotch(const double *w, size_t n, double budget,
                             const char *what, SCOTCH_Num *out) {
  double sum = 0.0;
  int exact = 1;
  for (size_t i = 0; i < n; i++) {
    if (!isfinite(w[i]) || w[i] < 0.0) {
      fprintf(stderr, "peer_scotch: %s[%zu] = %g is not a finite weight >= 0\n",
              what, i, w[i]);
      return 1;
    }
    sum += w[i];
    exact = exact && is_integer(w[i]);
  }
  if (exact && sum <= budget) {
    for (size_t i = 0; i < n; i++)
      out[i] = (SCOTCH_Num)w[i];
    return 0;
  }
  double s = budget / sum;
  /* the 1-clamps may add up to n; keep the sum within the Num range */
  if ((double)n > budget)
    s = 0.5 * budget / sum;
  fprintf(stderr,
          "peer_scotch: %s: %s, scaled by %.6g and rounded for Scotch\n", what,
          exact ? "sum too large" : "not integers", s);
  for (size_t i = 0; i < n; i++) {
    double x = floor(w[i] * s + 0.5);
    out[i] = (SCOTCH_Num)(w[i] > 0.0 && x < 1.0 ? 1.0 : x);
  }
  return 0;
}

/* Available processors, integer speeds and integer link costs. */
static int machine_build(const peers_case *c, machine *m) {
  const minex_config *cfg = c->cfg;
  memset(m, 0, sizeof *m);
  m->nprocs = c->nprocs;
  m->nclusters = minex_config_nclusters(cfg);
  int32_t C = m->nclusters, P = m->nprocs;
  m->avail = malloc(sizeof *m->avail * (size_t)P);
  m->compact = malloc(sizeof *m->compact * (size_t)P);
  m->speed = malloc(sizeof *m->speed * (size_t)P);
  m->conn = malloc(sizeof *m->conn * (size_t)C * (size_t)C);
  if (!m->avail || !m->compact || !m->speed || !m->conn) {
    fprintf(stderr, "peer_scotch: machine: out of memory\n");
    return 1;
  }
  for (int32_t p = 0; p < P; p++) {
    m->compact[p] = -1;
    if (minex_config_is_available(cfg, p)) {
      m->compact[p] = m->navail;
      m->avail[m->navail++] = p;
    }
  }
  if (m->navail == 0) {
    fprintf(stderr, "peer_scotch: %s: no available processor\n",
            c->config_path);
    return 1;
  }
  /* speeds: the smallest K <= SPEED_EXACT_K making every K/Proc an integer
   * (Proc 1, 1.5, 3 -> 3, 2, 1), else rounded to SPEED_SCALE at the
   * fastest processor */
  double pmin = INFINITY, pmax = 0.0;
  for (int32_t i = 0; i < m->navail; i++) {
    double pr = minex_config_proc_slowdown(
        cfg, minex_config_cluster_of(cfg, m->avail[i]));
    pmin = fmin(pmin, pr);
    pmax = fmax(pmax, pr);
  }
  m->uniform_speed = pmin == pmax;
  int32_t k_exact = 0;
  for (int32_t k = 1; k <= SPEED_EXACT_K && !k_exact; k++) {
    int ok = 1;
    for (int32_t i = 0; i < m->navail && ok; i++) {
      double x = k / minex_config_proc_slowdown(
                         cfg, minex_config_cluster_of(cfg, m->avail[i]));
      ok = fabs(x - floor(x + 0.5)) < 1e-9 * x && x >= 0.5;
    }
    if (ok)
      k_exact = k;
  }
  for (int32_t i = 0; i < m->navail; i++) {
    double pr = minex_config_proc_slowdown(
        cfg, minex_config_cluster_of(cfg, m->avail[i]));
    double x = k_exact ? k_exact / pr : SPEED_SCALE * pmin / pr;
    x = floor(x + 0.5);
    m->speed[i] = (SCOTCH_Num)(x < 1.0 ? 1.0 : x);
  }
  /* link costs: exact when integers <= CONN_EXACT_MAX, else scaled so the
   * smallest is CONN_SCALE_MIN; never 0 (a 0 tree-leaf link cost is a
   * floating-point exception in Scotch 7.0.3) */
  int exact = 1;
  double cmin = INFINITY;
  for (int32_t a = 0; a < C; a++)
    for (int32_t b = 0; b < C; b++) {
      double x = minex_config_conn(cfg, a, b);
      exact = exact && is_integer(x) && x >= 1.0 && x <= CONN_EXACT_MAX;
      cmin = fmin(cmin, x);
    }
  m->conn_scale = exact ? 1.0 : CONN_SCALE_MIN / cmin;
  for (int32_t a = 0; a < C; a++)
    for (int32_t b = 0; b < C; b++) {
      double x = floor(minex_config_conn(cfg, a, b) * m->conn_scale + 0.5);
      m->conn[(size_t)a * (size_t)C + (size_t)b] =
          (SCOTCH_Num)(x < 1.0               ? 1.0
                       : x > CONN_SCALED_MAX ? CONN_SCALED_MAX
                                             : x);
    }
  if (!exact)
    fprintf(stderr,
            "peer_scotch: Conn scaled by %.6g and rounded for Scotch "
            "(each in [1, %d])\n",
            m->conn_scale, CONN_SCALED_MAX);
  return 0;
}

static SCOTCH_Num conn_at(const machine *m, int32_t a, int32_t b) {
  return m->conn[(size_t)a * (size_t)m->nclusters + (size_t)b];
}

/* The case's graph in Scotch's arrays (baseval 0). */
typedef struct sgraph {
  SCOTCH_Num *verttab; /* [n+1] adjacency index                         */
  SCOTCH_Num *edgetab; /* [2E] neighbours                                */
  SCOTCH_Num *velotab; /* [n] Pwgt as integers (vertex loads)            */
  SCOTCH_Num *edlotab; /* [2E] Cwgt as integers (edge loads)             */
  SCOTCH_Num *vmlotab; /* [n] Rwgt as integers (vertex migration costs)  */
  SCOTCH_Num *parotab; /* [n] old owner's compact id (see sgraph_build)  */
  SCOTCH_Num *parttab; /* [n] new part, compact id                       */
} sgraph;

static void sgraph_free(sgraph *s) {
  free(s->verttab);
  free(s->edgetab);
  free(s->velotab);
  free(s->edlotab);
  free(s->vmlotab);
  free(s->parotab);
  free(s->parttab);
}

static int sgraph_build(const peers_case *c, const machine *m, sgraph *s) {
  memset(s, 0, sizeof *s);
  size_t n = (size_t)c->nvtxs;
  const int64_t *xadj = minex_graph_xadj(c->g);
  const int32_t *adjncy = minex_graph_adjncy(c->g);
  int64_t nadj = xadj[n];
  if (nadj > INT32_MAX) {
    fprintf(stderr,
            "peer_scotch: %s: %" PRId64
            " adjacency entries exceed SCOTCH_Num (32-bit)\n",
            c->graph_path, nadj);
    return 1;
  }
  size_t na = (size_t)nadj;
  s->verttab = malloc(sizeof(SCOTCH_Num) * (n + 1));
  s->edgetab = malloc(sizeof(SCOTCH_Num) * (na ? na : 1));
  s->velotab = malloc(sizeof(SCOTCH_Num) * (n ? n : 1));
  s->edlotab = malloc(sizeof(SCOTCH_Num) * (na ? na : 1));
  s->vmlotab = malloc(sizeof(SCOTCH_Num) * (n ? n : 1));
  s->parotab = malloc(sizeof(SCOTCH_Num) * (n ? n : 1));
  s->parttab = malloc(sizeof(SCOTCH_Num) * (n ? n : 1));
  if (!s->verttab || !s->edgetab || !s->velotab || !s->edlotab || !s->vmlotab ||
      !s->parotab || !s->parttab) {
    fprintf(stderr, "peer_scotch: graph arrays: out of memory\n");
    return 1;
  }
  for (size_t v = 0; v <= n; v++)
    s->verttab[v] = (SCOTCH_Num)xadj[v];
  for (size_t e = 0; e < na; e++)
    s->edgetab[e] = (SCOTCH_Num)adjncy[e];
  if (weights_to_scotch(minex_graph_pwgt(c->g), n, PWGT_BUDGET, "Pwgt",
                        s->velotab) ||
      weights_to_scotch(minex_graph_rwgt(c->g), n, RWGT_BUDGET, "Rwgt",
                        s->vmlotab) ||
      weights_to_scotch(minex_graph_cwgt(c->g), na, CWGT_BUDGET, "Cwgt",
                        s->edlotab))
    return 1;
  /* A vertex whose old owner is unavailable must move whatever Scotch
   * does. Scotch 7.0.3 crashes on a -1 ("no old part") in parotab
   * (SIGSEGV in archCmpltwDomIncl), so it gets an available processor as
   * its old part and migration cost 0: moving it anywhere is free, as its
   * unavoidable move costs about the same wherever it goes. */
  for (size_t v = 0; v < n; v++) {
    s->parotab[v] = m->compact[c->old[v]];
    if (s->parotab[v] < 0) {
      s->parotab[v] = c->old[v] % m->navail;
      s->vmlotab[v] = 0;
    }
  }
  return 0;
}

/* Target graph of remap-deco: one vertex per available processor (weight
 * its speed) and one hub per cluster holding available processors (weight
 * 0, not a terminal). Processor-hub edges cost Conn(c,c), hub-hub edges
 * 2 Conn(c,d) - Conn(c,c) - Conn(d,d) (at least 1), so the path between
 * two processors costs 2 Conn of their clusters. A star per cluster keeps
 * each cluster together when Scotch coarsens the target graph (on a
 * complete graph its heavy-edge matching would pair the most distant
 * processors first). */
typedef struct tgraph {
  SCOTCH_Num vertnbr;  /* Pa + hubs                                  */
  SCOTCH_Num *verttab; /* [vertnbr+1]                                */
  SCOTCH_Num *velotab; /* [vertnbr] speed of a processor, 0 for hubs */
  SCOTCH_Num *edgetab; /* neighbours                                 */
  SCOTCH_Num *edlotab; /* link costs                                 */
  SCOTCH_Num *listtab; /* [Pa] terminals: the processor vertices     */
} tgraph;

static void tgraph_free(tgraph *t) {
  free(t->verttab);
  free(t->velotab);
  free(t->edgetab);
  free(t->edlotab);
  free(t->listtab);
}

static int tgraph_build(const peers_case *c, const machine *m, tgraph *t) {
  memset(t, 0, sizeof *t);
  int32_t C = m->nclusters, Pa = m->navail;
  int32_t *hub = malloc(sizeof *hub * (size_t)C); /* cluster -> hub vertex */
  int32_t *hub_cluster = malloc(sizeof *hub_cluster * (size_t)C);
  int32_t *members = calloc((size_t)C, sizeof *members);
  int rc = 1;
  if (!hub || !hub_cluster || !members)
    goto oom;
  for (int32_t i = 0; i < Pa; i++)
    members[minex_config_cluster_of(c->cfg, m->avail[i])]++;
  int32_t nhub = 0;
  for (int32_t a = 0; a < C; a++) {
    hub[a] = -1;
    if (members[a] > 0) {
      hub_cluster[nhub] = a;
      hub[a] = Pa + nhub++;
    }
  }
  size_t nv = (size_t)Pa + (size_t)nhub;
  size_t ne = 2 * (size_t)Pa + (size_t)nhub * (size_t)(nhub - 1);
  t->vertnbr = (SCOTCH_Num)nv;
  t->verttab = malloc(sizeof(SCOTCH_Num) * (nv + 1));
  t->velotab = malloc(sizeof(SCOTCH_Num) * nv);
  t->edgetab = malloc(sizeof(SCOTCH_Num) * ne);
  t->edlotab = malloc(sizeof(SCOTCH_Num) * ne);
  t->listtab = malloc(sizeof(SCOTCH_Num) * (size_t)Pa);
  if (!t->verttab || !t->velotab || !t->edgetab || !t->edlotab || !t->listtab)
    goto oom;
  size_t e = 0;
  for (int32_t i = 0; i < Pa; i++) {
    int32_t a = minex_config_cluster_of(c->cfg, m->avail[i]);
    t->verttab[i] = (SCOTCH_Num)e;
    t->velotab[i] = m->speed[i];
    t->edgetab[e] = hub[a];
    t->edlotab[e++] = conn_at(m, a, a);
    t->listtab[i] = i;
  }
  for (int32_t h = 0; h < nhub; h++) {
    int32_t a = hub_cluster[h];
    t->verttab[Pa + h] = (SCOTCH_Num)e;
    t->velotab[Pa + h] = 0;
    for (int32_t i = 0; i < Pa; i++)
      if (minex_config_cluster_of(c->cfg, m->avail[i]) == a) {
        t->edgetab[e] = i;
        t->edlotab[e++] = conn_at(m, a, a);
      }
    for (int32_t g = 0; g < nhub; g++) {
      int32_t b = hub_cluster[g];
      if (g == h)
        continue;
      SCOTCH_Num x = 2 * conn_at(m, a, b) - conn_at(m, a, a) - conn_at(m, b, b);
      t->edgetab[e] = Pa + g;
      t->edlotab[e++] = x < 1 ? 1 : x;
    }
  }
  t->verttab[nv] = (SCOTCH_Num)e;
  rc = 0;
  goto out;
oom:
  fprintf(stderr, "peer_scotch: remap-deco: target graph: out of memory\n");
out:
  free(hub);
  free(hub_cluster);
  free(members);
  return rc;
}

/* The tree-leaf of remap-tleaf: clusters x processors, every non-empty
 * cluster of the same size n. Level 0 (the root's children, the clusters)
 * costs the mean off-diagonal Conn, level 1 the mean Conn(c,c); a note on
 * stderr when they are not all equal or when speeds differ (tree leaves
 * all weigh the same). Fills sizetab/linktab, returns the level count, or
 * 0 when the clusters are of unequal sizes (message on stderr). */
static int tleaf_levels(const peers_case *c, const machine *m,
                        SCOTCH_Num sizetab[2], SCOTCH_Num linktab[2]) {
  int32_t C = m->nclusters, size = 0, nonempty = 0;
  double inter = 0.0, intra = 0.0;
  SCOTCH_Num inter_min = 0, inter_max = 0, intra_min = 0, intra_max = 0;
  int64_t ninter = 0;
  for (int32_t a = 0; a < C; a++) {
    int32_t na = minex_config_cluster_nprocs(c->cfg, a);
    if (na == 0)
      continue;
    if (size != 0 && na != size) {
      fprintf(stderr,
              "peer_scotch: remap-tleaf: clusters of unequal sizes (%" PRId32
              " and %" PRId32
              " processors); a tree-leaf architecture needs equal ones, use "
              "remap-deco\n",
              size, na);
      return 0;
    }
    size = na;
    SCOTCH_Num d = conn_at(m, a, a);
    intra += (double)d;
    intra_min = nonempty == 0 || d < intra_min ? d : intra_min;
    intra_max = d > intra_max ? d : intra_max;
    for (int32_t b = 0; b < C; b++) {
      if (b == a || minex_config_cluster_nprocs(c->cfg, b) == 0)
        continue;
      SCOTCH_Num x = conn_at(m, a, b);
      inter += (double)x;
      inter_min = ninter == 0 || x < inter_min ? x : inter_min;
      inter_max = x > inter_max ? x : inter_max;
      ninter++;
    }
    nonempty++;
  }
  if (inter_min != inter_max || intra_min != intra_max)
    fprintf(stderr, "peer_scotch: remap-tleaf: Conn not uniform; the tree "
                    "uses the mean inter- and intra-cluster costs\n");
  if (!m->uniform_speed)
    fprintf(stderr, "peer_scotch: remap-tleaf: processor speeds differ; a "
                    "tree-leaf architecture ignores them (equal parts)\n");
  SCOTCH_Num lintra = (SCOTCH_Num)floor(intra / nonempty + 0.5);
  lintra = lintra < 1 ? 1 : lintra;
  if (nonempty == 1) {
    sizetab[0] = size;
    linktab[0] = lintra;
    return 1;
  }
  SCOTCH_Num linter = (SCOTCH_Num)floor(inter / (double)ninter + 0.5);
  sizetab[0] = nonempty;
  sizetab[1] = size;
  linktab[0] = linter < 1 ? 1 : linter;
  linktab[1] = lintra;
  return 2;
}

static int parse_method(const char *s, method *mt, double *kbal) {
  static const struct {
    const char *name; /* method name on the command line */
    method m;         /* its value                         */
  } names[] = {{"repart", METHOD_REPART},
               {"remap-cmpltw", METHOD_REMAP_CMPLTW},
               {"remap-tleaf", METHOD_REMAP_TLEAF},
               {"remap-deco", METHOD_REMAP_DECO}};
  const char *colon = strchr(s, ':');
  size_t len = colon ? (size_t)(colon - s) : strlen(s);
  *kbal = KBAL_DEFAULT;
  if (colon) {
    char *end = NULL;
    *kbal = strtod(colon + 1, &end);
    if (end == colon + 1 || *end || !(*kbal >= 0.0 && *kbal < 1.0))
      return 1;
  }
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strlen(names[i].name) == len && !strncmp(s, names[i].name, len)) {
      *mt = names[i].m;
      return 0;
    }
  return 1;
}

/* Runs the method; fills s->parttab with compact ids. *seconds is the
 * wall time of the Scotch calls that build the target architecture and
 * the strategy and map the graph. Returns 0 or 1 (message on stderr). */
static int run_scotch(const peers_case *c, const machine *m, sgraph *s,
                      method mt, double kbal, double emraval, double *seconds) {
  SCOTCH_Graph graph, bound;
  SCOTCH_Graph target;
  SCOTCH_Arch arch, full;
  SCOTCH_Strat strat;
  SCOTCH_Context ctx;
  tgraph tg;
  int have_graph = 0, have_ctx = 0, have_bound = 0, have_arch = 0,
      have_full = 0, have_target = 0, have_strat = 0, rc = 1;
  const char *what = NULL;
  SCOTCH_Num n = (SCOTCH_Num)c->nvtxs, Pa = (SCOTCH_Num)m->navail;
  memset(&tg, 0, sizeof tg);

  if (mt == METHOD_REMAP_DECO && tgraph_build(c, m, &tg))
    return 1;
  SCOTCH_Num sizetab[2], linktab[2];
  int levels = 0;
  if (mt == METHOD_REMAP_TLEAF &&
      (levels = tleaf_levels(c, m, sizetab, linktab)) == 0)
    goto out;

  /* Deterministic for a seed: one thread (SCOTCH_PTHREAD_NUMBER, set in
   * main), the global generator seeded and reset, a context that asks
   * for deterministic algorithms with its own clone of that generator. */
  SCOTCH_randomSeed((SCOTCH_Num)(c->seed % 2147483647u));
  SCOTCH_randomReset();
  if ((what = "SCOTCH_graphInit", SCOTCH_graphInit(&graph)))
    goto fail;
  have_graph = 1;
  if ((what = "SCOTCH_graphBuild",
       SCOTCH_graphBuild(&graph, 0, n, s->verttab, NULL, s->velotab, NULL,
                         s->verttab[n], s->edgetab, s->edlotab)))
    goto fail;
  if ((what = "SCOTCH_graphCheck", SCOTCH_graphCheck(&graph)))
    goto fail;
  if ((what = "SCOTCH_contextInit", SCOTCH_contextInit(&ctx)))
    goto fail;
  have_ctx = 1;
  if ((what = "SCOTCH_contextOptionSetNum (deterministic)",
       SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1)) ||
      (what = "SCOTCH_contextOptionSetNum (fixed seed)",
       SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1)) ||
      (what = "SCOTCH_contextRandomClone", SCOTCH_contextRandomClone(&ctx)))
    goto fail;
  SCOTCH_contextRandomSeed(&ctx, (SCOTCH_Num)(c->seed % 2147483647u));
  if ((what = "SCOTCH_graphInit (context)", SCOTCH_graphInit(&bound)))
    goto fail;
  have_bound = 1;
  if ((what = "SCOTCH_contextBindGraph",
       SCOTCH_contextBindGraph(&ctx, &graph, &bound)))
    goto fail;

  double t0 = peers_now();
  /* emraval is the migration cost per Rwgt unit over the cut cost per
   * Cwgt unit on a Conn = 1 link: Scotch's cut cost is Cwgt times the
   * architecture distance, whose Conn = 1 is `unit` integer steps */
  double unit = 1.0;
  if ((what = "SCOTCH_stratInit", SCOTCH_stratInit(&strat)))
    goto fail;
  have_strat = 1;
  if ((what = "SCOTCH_stratGraphMapBuild",
       SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATQUALITY, Pa, kbal)))
    goto fail;
  if (mt != METHOD_REPART) {
    if ((what = "SCOTCH_archInit", SCOTCH_archInit(&arch)))
      goto fail;
    have_arch = 1;
  }
  switch (mt) {
  case METHOD_REPART:
    break;
  case METHOD_REMAP_CMPLTW:
    what = "SCOTCH_archCmpltw";
    if (SCOTCH_archCmpltw(&arch, Pa, m->speed))
      goto fail;
    break;
  case METHOD_REMAP_TLEAF:
    unit = m->conn_scale;
    if (Pa == m->nprocs) {
      what = "SCOTCH_archTleaf";
      if (SCOTCH_archTleaf(&arch, levels, sizetab, linktab))
        goto fail;
      break;
    }
    /* unavailable processors: the sub-architecture of the available
     * leaves, numbered 0..Pa-1 in the order of the list (processor ids
     * of non-empty clusters are the tree's leaf numbers) */
    if ((what = "SCOTCH_archInit", SCOTCH_archInit(&full)))
      goto fail;
    have_full = 1;
    if ((what = "SCOTCH_archTleaf",
         SCOTCH_archTleaf(&full, levels, sizetab, linktab)))
      goto fail;
    if ((what = "SCOTCH_archSub",
         SCOTCH_archSub(&arch, &full, Pa, (const SCOTCH_Num *)m->avail)))
      goto fail;
    break;
  case METHOD_REMAP_DECO:
    if (tg.vertnbr == Pa + 1) {
      /* one cluster: the star around one hub is the complete graph of
       * the processors' speeds, and Scotch 7.0.3's deco mapping on it ran
       * for minutes (over 200 s on cube202k-homo-p32, where cmpltw takes
       * 2.5 s): map on the weighted complete graph instead */
      fprintf(stderr, "peer_scotch: remap-deco: one cluster, mapped on the "
                      "weighted complete graph (remap-cmpltw)\n");
      what = "SCOTCH_archCmpltw";
      if (SCOTCH_archCmpltw(&arch, Pa, m->speed))
        goto fail;
      break;
    }
    unit = 2.0 * m->conn_scale;
    if ((what = "SCOTCH_graphInit (target)", SCOTCH_graphInit(&target)))
      goto fail;
    have_target = 1;
    if ((what = "SCOTCH_graphBuild (target)",
         SCOTCH_graphBuild(&target, 0, tg.vertnbr, tg.verttab, NULL, tg.velotab,
                           NULL, tg.verttab[tg.vertnbr], tg.edgetab,
                           tg.edlotab)))
      goto fail;
    if ((what = "SCOTCH_archBuild2 (target)",
         SCOTCH_archBuild2(&arch, &target, Pa, tg.listtab)))
      goto fail;
    break;
  }
  double ratio = emraval * unit;
  if (mt == METHOD_REPART) {
    what = "SCOTCH_graphRepart";
    if (SCOTCH_graphRepart(&bound, Pa, s->parotab, ratio, s->vmlotab, &strat,
                           s->parttab))
      goto fail;
  } else {
    what = "SCOTCH_graphRemap";
    if (SCOTCH_graphRemap(&bound, &arch, s->parotab, ratio, s->vmlotab, &strat,
                          s->parttab))
      goto fail;
  }
  *seconds = peers_now() - t0;
  for (SCOTCH_Num v = 0; v < n; v++)
    if (s->parttab[v] < 0 || s->parttab[v] >= Pa) {
      fprintf(stderr,
              "peer_scotch: Scotch put vertex %d in part %d, outside "
              "[0, %d)\n",
              (int)v, (int)s->parttab[v], (int)Pa);
      goto out;
    }
  rc = 0;
  goto out;
fail:
  fprintf(stderr, "peer_scotch: %s failed\n", what);
out:
  if (have_strat)
    SCOTCH_stratExit(&strat);
  if (have_arch)
    SCOTCH_archExit(&arch);
  if (have_full)
    SCOTCH_archExit(&full);
  if (have_target)
    SCOTCH_graphExit(&target);
  if (have_bound)
    SCOTCH_graphExit(&bound);
  if (have_ctx)
    SCOTCH_contextExit(&ctx);
  if (have_graph)
    SCOTCH_graphExit(&graph);
  tgraph_free(&tg);
  return rc;
}

int main(int argc, char **argv) {
  /* one Scotch thread: its threaded algorithms are not reproducible; read
   * once, when Scotch first creates a context */
  if (setenv("SCOTCH_PTHREAD_NUMBER", "1", 1)) {
    perror("peer_scotch: setenv SCOTCH_PTHREAD_NUMBER");
    return 1;
  }
  peers_case c;
  int rc = peers_case_load(&c, "scotch", usage, argc, argv);
  if (rc)
    return rc < 0 ? 0 : rc;
  method mt;
  double kbal;
  if (parse_method(c.method, &mt, &kbal)) {
    fprintf(stderr,
            "peer_scotch: --method %s: unknown (repart, remap-cmpltw, "
            "remap-tleaf, remap-deco, each with an optional :KBAL in "
            "[0, 1))\nTry 'peer_scotch --help'.\n",
            c.method);
    peers_case_free(&c);
    return 2;
  }
  double emraval = isnan(c.param) ? EMRAVAL_DEFAULT : c.param;
  if (emraval < 0.0) {
    fprintf(stderr, "peer_scotch: --param %g: emraval must be >= 0\n", emraval);
    peers_case_free(&c);
    return 2;
  }
  machine m;
  sgraph s;
  int32_t *part = NULL;
  double seconds = 0.0;
  rc = 1;
  memset(&s, 0, sizeof s);
  if (machine_build(&c, &m))
    goto out;
  if (mt == METHOD_REPART && !m.uniform_speed)
    fprintf(stderr, "peer_scotch: repart: processor speeds differ; "
                    "SCOTCH_graphRepart makes equal parts (remap-cmpltw "
                    "weighs them)\n");
  part = malloc(sizeof *part * (size_t)(c.nvtxs > 0 ? c.nvtxs : 1));
  if (!part) {
    fprintf(stderr, "peer_scotch: partition: out of memory\n");
    goto out;
  }
  if (m.navail == 1) {
    /* one target: nothing for Scotch to decide (its architectures need
     * two terminals or more) */
    for (int32_t v = 0; v < c.nvtxs; v++)
      part[v] = m.avail[0];
  } else {
    if (sgraph_build(&c, &m, &s) ||
        run_scotch(&c, &m, &s, mt, kbal, emraval, &seconds))
      goto out;
    for (int32_t v = 0; v < c.nvtxs; v++)
      part[v] = m.avail[s.parttab[v]];
  }
  rc = peers_finish(&c, part, seconds);
out:
  free(part);
  sgraph_free(&s);
  machine_free(&m);
  peers_case_free(&c);
  return rc;
}
