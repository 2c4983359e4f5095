/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests of src/drum/drum_power.c: DRUM powers and the slowdowns they
 * give (SPEC §4), against worked examples from the sources. */
#include "minex_drum.h"
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Faik's thesis, §5.3 and Table 5.4 ("Node powers computed by DRUM during
 * the perforated shock tube experiments"): the reconfigured Bullpen
 * cluster, 8 nodes of equal processing power; rivera, righetti, arroyo and
 * gossage hang off a 10 Mb/s switch, wetteland, lyle, farr and mcdaniel
 * sit on the 100 Mb/s switch (the root). Builds that tree; slow[] and
 * fast[] receive the node indices. */
static minex_drum_model *table54_model(int32_t slow[4], int32_t fast[4]) {
  static const char *slow_names[4] = {"rivera", "righetti", "arroyo",
                                      "gossage"};
  static const char *fast_names[4] = {"wetteland", "lyle", "farr", "mcdaniel"};
  minex_drum_model *m = NULL;
  int32_t root, sw;
  ck_assert_int_eq(minex_drum_model_create(&m), MINEX_OK);
  ck_assert_int_eq(
      minex_drum_add_node(m, MINEX_DRUM_NETWORK, -1, "switch100", &root),
      MINEX_OK);
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root,
                                         fast_names[i], &fast[i]),
                     MINEX_OK);
    ck_assert_int_eq(minex_drum_set_link(m, fast[i], 100, 0), MINEX_OK);
    ck_assert_int_eq(minex_drum_set_benchmark(m, fast[i], 80), MINEX_OK);
  }
  ck_assert_int_eq(
      minex_drum_add_node(m, MINEX_DRUM_NETWORK, root, "switch10", &sw),
      MINEX_OK);
  ck_assert_int_eq(minex_drum_set_link(m, sw, 100, 0), MINEX_OK);
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, sw,
                                         slow_names[i], &slow[i]),
                     MINEX_OK);
    ck_assert_int_eq(minex_drum_set_link(m, slow[i], 10, 0), MINEX_OK);
    ck_assert_int_eq(minex_drum_set_benchmark(m, slow[i], 80), MINEX_OK);
  }
  return m;
}

/* Table 5.4 as printed; columns rivera righetti arroyo gossage (10 Mb/s)
 * then wetteland lyle farr mcdaniel (100 Mb/s). The row w = 0.2 prints
 * 0.145 for gossage: a typo, the formula (and the three other 10 Mb/s
 * nodes of that row) give 0.104. */
static const double table54[11][8] = {
    {0.125, 0.124, 0.124, 0.125, 0.125, 0.124, 0.124, 0.124},
    {0.115, 0.114, 0.114, 0.115, 0.135, 0.135, 0.135, 0.135},
    {0.104, 0.104, 0.104, 0.145, 0.145, 0.145, 0.145, 0.145},
    {0.094, 0.094, 0.094, 0.094, 0.155, 0.156, 0.155, 0.155},
    {0.083, 0.084, 0.084, 0.084, 0.166, 0.165, 0.165, 0.165},
    {0.074, 0.073, 0.073, 0.074, 0.176, 0.176, 0.176, 0.176},
    {0.063, 0.063, 0.063, 0.063, 0.186, 0.186, 0.186, 0.186},
    {0.053, 0.053, 0.053, 0.053, 0.196, 0.196, 0.196, 0.196},
    {0.043, 0.043, 0.043, 0.043, 0.206, 0.206, 0.206, 0.206},
    {0.033, 0.032, 0.032, 0.033, 0.217, 0.217, 0.217, 0.217},
    {0.022, 0.022, 0.022, 0.022, 0.227, 0.227, 0.227, 0.227}};

START_TEST(faik_table_5_4_powers) {
  int n_exact = 0, n_off = 0, *exact = &n_exact, *off_by_one = &n_off;
  int32_t slow[4], fast[4];
  minex_drum_model *m = table54_model(slow, fast);
  for (int k = 0; k <= 10; k++) {
    double w = 0.1 * k;
    minex_drum_options o;
    minex_drum_options_init(&o);
    o.w_comm = w;
    ck_assert_int_eq(minex_drum_compute_powers(m, &o), MINEX_OK);
    /* SPEC §4: (1-w)/8 + w*10/440 and (1-w)/8 + w*100/440 exactly */
    double ps = (1 - w) / 8 + w * 10 / 440, pf = (1 - w) / 8 + w * 100 / 440;
    double total = 0;
    for (int i = 0; i < 4; i++) {
      double gs = minex_drum_get(m, slow[i])->power;
      double gf = minex_drum_get(m, fast[i])->power;
      ck_assert_msg(fabs(gs - ps) < 1e-12, "w=%g slow %g vs %g", w, gs, ps);
      ck_assert_msg(fabs(gf - pf) < 1e-12, "w=%g fast %g vs %g", w, gf, pf);
      total += gs + gf;
      /* the printed table, to its 3 decimals (+1 unit of DRUM's rounding) */
      if (!(k == 2 && i == 3))
        ck_assert_msg(fabs(gs - table54[k][i]) <= 0.0015,
                      "w=%g %s %g vs "
                      "table %g",
                      w, minex_drum_get(m, slow[i])->name, gs, table54[k][i]);
      ck_assert_msg(fabs(gf - table54[k][4 + i]) <= 0.0015, "w=%g %s", w,
                    minex_drum_get(m, fast[i])->name);
    }
    for (int i = 0; i < 8; i++) {
      /* rounded to 3 decimals, as printed: docs/design/drum.md counts these */
      double g = minex_drum_get(m, i < 4 ? slow[i] : fast[i - 4])->power;
      double d = fabs(round(g * 1000) / 1000 - table54[k][i]);
      if (d < 5e-4)
        (*exact)++;
      else if (d < 1.5e-3)
        (*off_by_one)++;
    }
    ck_assert(fabs(total - 1) < 1e-12);
    if (k == 2) /* the typo: gossage prints 0.145, the formula gives 0.104 */
    {
      double g = minex_drum_get(m, slow[3])->power;
      ck_assert(fabs(g - 0.104) <= 0.0015 && fabs(g - 0.145) > 0.03);
    }
    /* the 10 Mb/s switch carries the sum of its children */
    const minex_drum_node *sw =
        minex_drum_get(m, minex_drum_find(m, "switch10"));
    ck_assert(fabs(sw->comm_power - 40) < 1e-12);
    ck_assert(fabs(sw->power - 4 * ps) < 1e-12);
    ck_assert(fabs(minex_drum_get(m, 0)->power - 1) < 1e-15);
  }
  /* of the 88 printed values: 50 equal the formula rounded to 3 decimals,
     37 differ from it by 0.001 (DRUM's own rounding), 1 is the typo */
  ck_assert_int_eq(n_exact, 50);
  ck_assert_int_eq(n_off, 37);
  minex_drum_model_destroy(m);
}
END_TEST

START_TEST(table_5_4_conn_from_path_bandwidth) {
  int32_t slow[4], fast[4];
  minex_drum_model *m = table54_model(slow, fast);
  minex_config *cfg = NULL;
  int32_t cn[8];
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, cn), MINEX_OK);
  ck_assert_int_eq(minex_config_nclusters(cfg), 8);
  /* clusters follow node order: 4 fast nodes, then 4 slow ones */
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(cn[i], fast[i]);
    ck_assert_int_eq(cn[4 + i], slow[i]);
  }
  for (int c = 0; c < 8; c++) {
    ck_assert(fabs(minex_config_proc_slowdown(cfg, c) - 1) < 1e-15);
    ck_assert_int_eq(minex_config_cluster_nprocs(cfg, c), 1);
    for (int d = 0; d < 8; d++) {
      /* B_ref = 100 (fast-fast); any path through a 10 Mb/s link: 10 */
      double want = c == d ? 1 : (c < 4 && d < 4 ? 1 : 10);
      ck_assert_msg(fabs(minex_config_conn(cfg, c, d) - want) < 1e-12,
                    "Conn(%d,%d) = %g, want %g", c, d,
                    minex_config_conn(cfg, c, d), want);
    }
  }
  minex_config_destroy(cfg);
  /* traffic of 50 Mb/s on wetteland's link halves its bandwidth */
  ck_assert_int_eq(minex_drum_set_traffic(m, fast[0], 50), MINEX_OK);
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, NULL), MINEX_OK);
  ck_assert(fabs(minex_config_conn(cfg, 0, 1) - 2) < 1e-12);
  ck_assert(fabs(minex_config_conn(cfg, 1, 2) - 1) < 1e-12);
  ck_assert(fabs(minex_config_conn(cfg, 0, 4) - 10) < 1e-12);
  minex_config_destroy(cfg);
  /* a saturated link keeps min_available (1%) of its capacity */
  ck_assert_int_eq(minex_drum_set_traffic(m, fast[0], 500), MINEX_OK);
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, NULL), MINEX_OK);
  ck_assert(fabs(minex_config_conn(cfg, 0, 1) - 100) < 1e-9);
  minex_config_destroy(cfg);
  ck_assert_int_eq(minex_drum_set_traffic(m, fast[0], 0), MINEX_OK);
  /* latency term: 0.1 ms per link, 10 kB messages: fast-fast crosses two
     links, 2e-4 s * 100e6 bit/s / 8e4 bit = 0.25 on top of 1; a slow node
     to a fast one crosses three: 10 + 3e-4 * 1e8 / 8e4 = 10.375 */
  for (int32_t i = 1; i < minex_drum_nnodes(m); i++)
    ck_assert_int_eq(
        minex_drum_set_link(m, i, minex_drum_get(m, i)->capacity, 1e-4),
        MINEX_OK);
  minex_drum_options o;
  minex_drum_options_init(&o);
  o.latency_bytes = 1e4;
  o.intra_conn = 0.5;
  ck_assert_int_eq(minex_drum_config(m, &o, &cfg, NULL), MINEX_OK);
  ck_assert(fabs(minex_config_conn(cfg, 0, 1) - 1.25) < 1e-12);
  ck_assert(fabs(minex_config_conn(cfg, 0, 4) - 10.375) < 1e-12);
  ck_assert(fabs(minex_config_conn(cfg, 4, 5) - 10.25) < 1e-12);
  ck_assert(fabs(minex_config_conn(cfg, 3, 3) - 0.5) < 1e-15);
  minex_config_destroy(cfg);
  minex_drum_model_destroy(m);
}
END_TEST

/* Teresco, Faik, Flaherty (CiSE 2005), Fig. 7: DrumHead's Bullpen file
 * rates mendoza (one 300 MHz UltraSPARC II) at 52.43 MFLOPS and rivera (a
 * 4-way 450 MHz SMP) at 82.55 MFLOPS per CPU: mendoza's Proc is
 * 82.55 / 52.43 = 1.574, the "approximately 1.5 times" of Faik §5.1. */
START_TEST(bullpen_benchmark_ratio) {
  minex_drum_model *m = NULL;
  int32_t root, mendoza, rivera;
  ck_assert_int_eq(minex_drum_model_create(&m), MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, -1, "", &root),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root,
                                       "mendoza.cs.williams.edu", &mendoza),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_set_benchmark(m, mendoza, 52.43), MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root,
                                       "rivera.cs.williams.edu", &rivera),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_set_benchmark(m, rivera, 82.55), MINEX_OK);
  ck_assert_int_eq(minex_drum_set_cpus(m, rivera, 4, 4), MINEX_OK);
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, NULL), MINEX_OK);
  ck_assert_int_eq(minex_config_nprocs(cfg), 5);
  ck_assert_int_eq(minex_config_cluster_nprocs(cfg, 1), 4);
  ck_assert(fabs(minex_config_proc_slowdown(cfg, 0) - 82.55 / 52.43) < 1e-12);
  ck_assert(fabs(minex_config_proc_slowdown(cfg, 0) - 1.574) < 0.0005);
  ck_assert(fabs(minex_config_proc_slowdown(cfg, 1) - 1) < 1e-15);
  /* no capacities anywhere: every link slowdown is 1 */
  ck_assert(fabs(minex_config_conn(cfg, 0, 1) - 1) < 1e-15);
  /* powers: processing only, rivera holds 4 * 82.55 of 4 * 82.55 + 52.43 */
  const minex_drum_node *r = minex_drum_get(m, rivera);
  ck_assert(fabs(r->power - 330.2 / (330.2 + 52.43)) < 1e-12);
  ck_assert(fabs(r->proc_power - 330.2) < 1e-9);
  ck_assert(fabs(r->rate - 82.55) < 1e-12);
  minex_config_destroy(cfg);
  minex_drum_model_destroy(m);
}
END_TEST

/* Effective rate of one process on a computing node with benchmark b, m
 * CPUs, k processes, measured use u_sum and idle i_sum (Faik §3.1.2.1:
 * p_{n,j} = b (u + i), u = u_sum / k, i = min(k - u_sum, i_sum) / k). */
static double rate_of(double b, int32_t ncpus, int32_t k, double u_sum,
                      double i_sum) {
  minex_drum_model *m = NULL;
  int32_t root, x;
  ck_assert_int_eq(minex_drum_model_create(&m), MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, -1, "r", &root),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root, "x", &x),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_set_benchmark(m, x, b), MINEX_OK);
  ck_assert_int_eq(minex_drum_set_cpus(m, x, ncpus, k), MINEX_OK);
  ck_assert_int_eq(minex_drum_set_measured(m, x, u_sum, i_sum, 0), MINEX_OK);
  ck_assert_int_eq(minex_drum_compute_powers(m, NULL), MINEX_OK);
  double r = minex_drum_get(m, x)->rate;
  ck_assert(fabs(minex_drum_get(m, x)->proc_power - k * r) < 1e-12);
  minex_drum_model_destroy(m);
  return r;
}

START_TEST(smp_idle_share) {
  /* dedicated: each process has its CPU, no idle left -> u + i = 1 */
  ck_assert(fabs(rate_of(100, 2, 2, 2.0, 0.0) - 100) < 1e-12);
  ck_assert(fabs(rate_of(100, 1, 1, 1.0, 0.0) - 100) < 1e-12);
  /* one process on a 4-CPU node, 3 CPUs idle: it can use only one CPU
     (k - sum u = 0), so the idle time adds nothing: u + i = 1 */
  ck_assert(fabs(rate_of(100, 4, 1, 1.0, 3.0) - 100) < 1e-12);
  /* a process that waited half the time (u = 0.5) on an otherwise idle
     node could have used the idle half: u + i = 1 */
  ck_assert(fabs(rate_of(100, 4, 1, 0.5, 3.5) - 100) < 1e-12);
  /* a competing CPU-bound process on a 1-CPU node: u = 0.5, no idle time
     -> u + i = 0.5, half the rate */
  ck_assert(fabs(rate_of(100, 1, 1, 0.5, 0.0) - 50) < 1e-12);
  /* 2 processes, 2 CPUs, each gets 0.5 (two competitors), 0.3 CPU idle in
     all: u = 0.5, i = min(2 - 1, 0.3) / 2 = 0.15 -> 0.65 */
  ck_assert(fabs(rate_of(100, 2, 2, 1.0, 0.3) - 65) < 1e-12);
  /* 2 processes on 4 CPUs using 1.2, idle 1.5: i = min(0.8, 1.5)/2 = 0.4,
     u = 0.6 -> 1 */
  ck_assert(fabs(rate_of(100, 4, 2, 1.2, 1.5) - 100) < 1e-12);
  /* unmeasured nodes are dedicated */
  minex_drum_model *m = NULL;
  int32_t root, a, b;
  ck_assert_int_eq(minex_drum_model_create(&m), MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, -1, "r", &root),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root, "a", &a),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root, "b", &b),
                   MINEX_OK);
  /* no benchmarks at all: b_n = 1; b shares its CPU with a competitor */
  ck_assert_int_eq(minex_drum_set_measured(m, b, 0.5, 0.0, 0), MINEX_OK);
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, NULL), MINEX_OK);
  ck_assert(fabs(minex_config_proc_slowdown(cfg, 0) - 1) < 1e-15);
  ck_assert(fabs(minex_config_proc_slowdown(cfg, 1) - 2) < 1e-12);
  ck_assert(fabs(minex_drum_get(m, a)->power - 2.0 / 3) < 1e-12);
  minex_config_destroy(cfg);
  minex_drum_model_destroy(m);
}
END_TEST

START_TEST(nested_switch_capped_by_uplink) {
  /* a switch with four 100 Mb/s nodes behind a 50 Mb/s uplink: its c is
     min(400, 50) = 50; beside it one node on a 100 Mb/s link */
  minex_drum_model *m = NULL;
  int32_t root, sw, x, k;
  ck_assert_int_eq(minex_drum_model_create(&m), MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, -1, "r", &root),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root, "x", &x),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_set_link(m, x, 100, 0), MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, root, "sw", &sw),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_set_link(m, sw, 50, 0), MINEX_OK);
  for (int i = 0; i < 4; i++) {
    ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, sw, "y", &k),
                     MINEX_OK);
    ck_assert_int_eq(minex_drum_set_link(m, k, 100, 0), MINEX_OK);
  }
  minex_drum_options o;
  minex_drum_options_init(&o);
  o.w_comm = 1;
  ck_assert_int_eq(minex_drum_compute_powers(m, &o), MINEX_OK);
  ck_assert(fabs(minex_drum_get(m, sw)->comm_power - 50) < 1e-12);
  ck_assert(fabs(minex_drum_get(m, x)->power - 100.0 / 150) < 1e-12);
  ck_assert(fabs(minex_drum_get(m, k)->power - 50.0 / 150 / 4) < 1e-12);
  /* Conn: inside the switch 100 (= B_ref), through the uplink 50 */
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_drum_config(m, &o, &cfg, NULL), MINEX_OK);
  ck_assert(fabs(minex_config_conn(cfg, 1, 2) - 1) < 1e-12);
  ck_assert(fabs(minex_config_conn(cfg, 0, 1) - 2) < 1e-12);
  minex_config_destroy(cfg);
  minex_drum_model_destroy(m);
}
END_TEST

START_TEST(errors_name_the_fault) {
  minex_drum_model *m = NULL;
  int32_t root, a, b;
  minex_config *cfg = NULL;
  ck_assert_int_eq(minex_drum_model_create(&m), MINEX_OK);
  ck_assert_int_eq(minex_drum_compute_powers(m, NULL), MINEX_ECONFIG);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, 0, "r", NULL),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, -1, "r", &root),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_NETWORK, -1, "r2", NULL),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, NULL), MINEX_ECONFIG);
  ck_assert_ptr_null(cfg);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root, "a", &a),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, a, "c", NULL),
                   MINEX_EINVAL);
  ck_assert_int_eq(minex_drum_add_node(m, MINEX_DRUM_COMPUTING, root, "b", &b),
                   MINEX_OK);
  ck_assert_int_eq(minex_drum_set_link(m, a, -1, 0), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "capacity") != NULL);
  ck_assert_int_eq(minex_drum_set_link(m, a, NAN, 0), MINEX_EINVAL);
  ck_assert_int_eq(minex_drum_set_cpus(m, a, 0, 1), MINEX_EINVAL);
  ck_assert_int_eq(minex_drum_set_cpus(m, root, 2, 1), MINEX_EINVAL);
  ck_assert_int_eq(minex_drum_set_benchmark(m, 7, 1), MINEX_EINVAL);
  /* benchmark on a but not on b */
  ck_assert_int_eq(minex_drum_set_benchmark(m, a, 10), MINEX_OK);
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, NULL), MINEX_ECONFIG);
  ck_assert(strstr(minex_last_error(), "(b)") != NULL);
  ck_assert_int_eq(minex_drum_set_benchmark(m, b, 10), MINEX_OK);
  minex_drum_options o;
  minex_drum_options_init(&o);
  o.w_comm = 1.5;
  ck_assert_int_eq(minex_drum_compute_powers(m, &o), MINEX_EINVAL);
  ck_assert(strstr(minex_last_error(), "w_comm") != NULL);
  /* no rate left on b */
  ck_assert_int_eq(minex_drum_set_measured(m, b, 0, 0, 0), MINEX_OK);
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, NULL), MINEX_ECONFIG);
  ck_assert(strstr(minex_last_error(), "(b)") != NULL);
  /* no processes at all */
  ck_assert_int_eq(minex_drum_set_cpus(m, a, 1, 0), MINEX_OK);
  ck_assert_int_eq(minex_drum_set_cpus(m, b, 1, 0), MINEX_OK);
  ck_assert_int_eq(minex_drum_config(m, NULL, &cfg, NULL), MINEX_ECONFIG);
  ck_assert_int_eq(minex_drum_find(m, "b"), b);
  ck_assert_int_eq(minex_drum_find(m, "zz"), -1);
  ck_assert_ptr_null(minex_drum_get(m, 99));
  minex_drum_model_destroy(m);
}
END_TEST

int main(void) {
  Suite *s = suite_create("drum_power");
  TCase *tc = tcase_create("drum_power");
  tcase_add_test(tc, faik_table_5_4_powers);
  tcase_add_test(tc, table_5_4_conn_from_path_bandwidth);
  tcase_add_test(tc, bullpen_benchmark_ratio);
  tcase_add_test(tc, smp_idle_share);
  tcase_add_test(tc, nested_switch_capped_by_uplink);
  tcase_add_test(tc, errors_name_the_fault);
  suite_add_tcase(s, tc);
  return test_run_suite(s);
}
