/* SPDX-License-Identifier: GPL-3.0-or-later */
/* minex drum: the resource model (SPEC §4). `probe` measures this node
 * with the monitors and the LU benchmark; `config` reads a DRUM machine
 * model, prints the node powers and writes the MinEX configuration. */
#include "minex_drum.h"
#include "tool.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void help(void) {
  printf(
      "Usage: minex drum probe [--seconds S] [--frequency HZ] [--root DIR]\n"
      "                        [--bench-n N | --no-benchmark] [--json]\n"
      "                        [--model MODEL.xml --node NAME -o OUT.xml\n"
      "                         [--dialect drumhead|thesis]]\n"
      "       minex drum config MODEL.xml [--wcomm W] [--latency-bytes B]\n"
      "                        [--intra-conn X] [--min-available F]\n"
      "                        [--parts N] [-o CFG.xml] [--json]\n"
      "\n"
      "probe: monitors this process and node for S seconds (default 1) at HZ\n"
      "samples per second (default 10): CPUs, CPU use, idle CPUs (all and\n"
      "those the process may run on), network traffic and capacity, memory,\n"
      "load average; then rates the CPU with an LU benchmark (GSL, n = N,\n"
      "default 400). With --model, writes the benchmark and the readings\n"
      "into node NAME (name or address) of MODEL.xml and saves it to OUT.xml.\n"
      "  --root DIR           read DIR/proc and DIR/sys instead of /proc, "
      "/sys\n"
      "\n"
      "config: DRUM powers of every node (Faik's thesis §3.1.2) and the\n"
      "MinEX configuration: one cluster per computing node that runs\n"
      "processes, Proc = fastest rate / rate, Conn = B_ref / smallest\n"
      "available bandwidth on the path (docs/design/drum.md).\n"
      "  --wcomm W            communication weight in [0,1] (default 0)\n"
      "  --latency-bytes B    add link latencies for messages of B bytes\n"
      "  --intra-conn X       Conn of a node with itself (default 1)\n"
      "  --min-available F    floor of available bandwidth, share of the\n"
      "                       capacity (default 0.01)\n"
      "  --parts N            also allocate N partitions to the computing\n"
      "                       nodes by power (largest remainder)\n"
      "  -o, --output CFG.xml write the configuration (atomically)\n"
      "  --json               print one JSON object\n"
      "  -h, --help           this help\n");
}

static void json_sample(const minex_drum_sample *s) {
  printf("  \"seconds\": ");
  tool_json_double(stdout, s->seconds);
  printf(",\n  \"ncpus\": %d,\n  \"ncpus_online\": %d,\n  \"cpu_use\": ",
         (int)s->ncpus, (int)s->ncpus_online);
  tool_json_double(stdout, s->cpu_use);
  const struct {
    const char *k;
    double v;
  } f[] = {{"cpu_use_sd", s->cpu_use_sd},
           {"idle", s->idle},
           {"idle_sd", s->idle_sd},
           {"idle_all", s->idle_all},
           {"rx_mbps", s->rx_mbps},
           {"tx_mbps", s->tx_mbps},
           {"capacity_mbps", s->capacity_mbps},
           {"mem_total_mib", s->mem_total_mib},
           {"mem_available_mib", s->mem_available_mib},
           {"loadavg1", s->loadavg[0]},
           {"loadavg5", s->loadavg[1]},
           {"loadavg15", s->loadavg[2]}};
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
    printf(",\n  \"%s\": ", f[i].k);
    tool_json_double(stdout, f[i].v);
  }
  printf(",\n  \"nsamples\": %d", (int)s->nsamples);
}

/* One process's usable share of a CPU from a probe: u + i with k = 1
 * (Faik §3.1.2.1). */
static double usable_share(const minex_drum_sample *s) {
  double u = s->cpu_use > 1 ? 1 : s->cpu_use;
  double i = 1 - u < s->idle ? 1 - u : s->idle;
  return u + (i > 0 ? i : 0);
}

static int drum_probe(int argc, char **argv) {
  const char *cmd = "drum probe";
  double seconds = 1, freq = 10;
  const char *root = NULL, *model_path = NULL, *node_name = NULL;
  const char *out = NULL;
  int32_t bench_n = 400;
  int json = 0, bench = 1;
  minex_drum_dialect dialect = MINEX_DRUM_DIALECT_DRUMHEAD;
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    const char *v;
    if (tool_args_is(&a, "-h", "--help")) {
      if (tool_args_no_value(&a) != 0)
        return TOOL_EXIT_USAGE;
      help();
      return TOOL_EXIT_OK;
    } else if (tool_args_is(&a, NULL, "--seconds")) {
      if (!(v = tool_args_value(&a)) ||
          tool_parse_double(cmd, "--seconds", v, 0.01, 3600, 0, &seconds))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--frequency")) {
      if (!(v = tool_args_value(&a)) ||
          tool_parse_double(cmd, "--frequency", v, 0.01, 1000, 0, &freq))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--root")) {
      if (!(root = tool_args_value(&a)))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--bench-n")) {
      if (!(v = tool_args_value(&a)) ||
          tool_parse_i32(cmd, "--bench-n", v, 1, &bench_n))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--no-benchmark")) {
      bench = 0;
    } else if (tool_args_is(&a, NULL, "--model")) {
      if (!(model_path = tool_args_value(&a)))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--node")) {
      if (!(node_name = tool_args_value(&a)))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, "-o", "--output")) {
      if (!(out = tool_args_value(&a)))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--dialect")) {
      if (!(v = tool_args_value(&a)))
        return TOOL_EXIT_USAGE;
      if (strcmp(v, "drumhead") == 0)
        dialect = MINEX_DRUM_DIALECT_DRUMHEAD;
      else if (strcmp(v, "thesis") == 0)
        dialect = MINEX_DRUM_DIALECT_THESIS;
      else
        return tool_usage_error(cmd,
                                "--dialect: '%s' is not drumhead or "
                                "thesis",
                                v);
    } else if (tool_args_is(&a, NULL, "--json")) {
      json = 1;
    } else if (tool_args_is_option(&a)) {
      return tool_usage_error(cmd, "unknown option '%s'", a.arg);
    } else {
      return tool_usage_error(cmd, "unexpected argument '%s'", a.arg);
    }
  }
  if (more < 0)
    return TOOL_EXIT_USAGE;
  if ((model_path != NULL) != (node_name != NULL) ||
      (model_path != NULL) != (out != NULL))
    return tool_usage_error(cmd, "--model, --node and -o go together");
  if (bench_n > 4000)
    return tool_usage_error(cmd, "--bench-n: %d is above 4000", (int)bench_n);
  /* load the model first: a bad file fails before the measurements */
  minex_drum_model *model = NULL;
  int32_t node = -1;
  int rc;
  if (model_path != NULL) {
    if ((rc = minex_drum_model_load(model_path, &model)))
      return tool_fail(cmd, rc);
    node = minex_drum_find(model, node_name);
    if (node < 0 || minex_drum_get(model, node)->type != MINEX_DRUM_COMPUTING) {
      fprintf(stderr, "minex %s: %s: no computing node named '%s'\n", cmd,
              model_path, node_name);
      minex_drum_model_destroy(model);
      return TOOL_EXIT_FAIL;
    }
  }
  minex_drum_monitor *mon = NULL;
  minex_drum_sample s;
  double mflops = 0;
  if ((rc = minex_drum_monitor_create(root, freq, &mon)) ||
      (rc = minex_drum_monitor_start(mon)))
    goto fail;
  {
    struct timespec ts = {(time_t)seconds,
                          (long)((seconds - floor(seconds)) * 1e9)};
    while (nanosleep(&ts, &ts) != 0)
      ;
  }
  if ((rc = minex_drum_monitor_stop(mon)) ||
      (rc = minex_drum_monitor_read(mon, &s)))
    goto fail;
  if (bench && (rc = minex_drum_benchmark(bench_n, 0.5, 1, &mflops)))
    goto fail;
  if (model != NULL) {
    if ((bench && (rc = minex_drum_set_benchmark(model, node, mflops))) ||
        (rc = minex_drum_apply_sample(model, node, &s)) ||
        (rc = minex_drum_model_save(model, out, dialect)))
      goto fail;
  }
  if (json) {
    printf("{\n");
    json_sample(&s);
    printf(",\n  \"usable_share\": ");
    tool_json_double(stdout, usable_share(&s));
    printf(",\n  \"benchmark_mflops\": ");
    tool_json_double(stdout, bench ? mflops : NAN);
    printf("\n}\n");
  } else {
    printf("minex drum probe: %.2f s, %d samples%s%s\n", s.seconds,
           (int)s.nsamples, root ? " under " : "", root ? root : "");
    printf("  CPUs                 %d usable of %d online\n", (int)s.ncpus,
           (int)s.ncpus_online);
    printf("  CPU use (this proc)  %.3f (sd %.3f)\n", s.cpu_use, s.cpu_use_sd);
    printf("  idle CPUs            %.3f usable (sd %.3f), %.3f in all\n",
           s.idle, s.idle_sd, s.idle_all);
    printf("  usable share u + i   %.3f of one CPU\n", usable_share(&s));
    printf("  network              rx %.3f Mbit/s, tx %.3f Mbit/s, "
           "capacity %s",
           s.rx_mbps, s.tx_mbps, s.capacity_mbps > 0 ? "" : "unknown\n");
    if (s.capacity_mbps > 0)
      printf("%.0f Mbit/s\n", s.capacity_mbps);
    printf("  memory               %.0f MiB available of %.0f MiB\n",
           s.mem_available_mib, s.mem_total_mib);
    printf("  load average         %.2f %.2f %.2f\n", s.loadavg[0],
           s.loadavg[1], s.loadavg[2]);
    if (bench)
      printf("  LU benchmark         %.1f MFLOPS (n = %d)\n", mflops,
             (int)bench_n);
    if (model != NULL)
      printf("wrote node '%s' of %s -> %s\n", node_name, model_path, out);
  }
  minex_drum_monitor_destroy(mon);
  minex_drum_model_destroy(model);
  return TOOL_EXIT_OK;
fail:
  minex_drum_monitor_destroy(mon);
  minex_drum_model_destroy(model);
  return tool_fail(cmd, rc);
}

static const char *type_name(const minex_drum_node *n) {
  if (n->type == MINEX_DRUM_NETWORK)
    return "network";
  return n->ncpus > 1 ? "smp" : "computing";
}

static int drum_config(int argc, char **argv) {
  const char *cmd = "drum config";
  const char *path = NULL, *out = NULL;
  int json = 0;
  int32_t parts = 0;
  minex_drum_options o;
  minex_drum_options_init(&o);
  tool_args a;
  tool_args_init(&a, argc, argv);
  int more;
  while ((more = tool_args_next(&a)) > 0) {
    const char *v;
    if (tool_args_is(&a, "-h", "--help")) {
      if (tool_args_no_value(&a) != 0)
        return TOOL_EXIT_USAGE;
      help();
      return TOOL_EXIT_OK;
    } else if (tool_args_is(&a, NULL, "--wcomm")) {
      if (!(v = tool_args_value(&a)) ||
          tool_parse_double(cmd, "--wcomm", v, 0, 1, 0, &o.w_comm))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--latency-bytes")) {
      if (!(v = tool_args_value(&a)) ||
          tool_parse_double(cmd, "--latency-bytes", v, 0, 1e18, 0,
                            &o.latency_bytes))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--intra-conn")) {
      if (!(v = tool_args_value(&a)) ||
          tool_parse_double(cmd, "--intra-conn", v, 1e-9, 1e18, 0,
                            &o.intra_conn))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--min-available")) {
      if (!(v = tool_args_value(&a)) ||
          tool_parse_double(cmd, "--min-available", v, 1e-9, 1, 0,
                            &o.min_available))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--parts")) {
      if (!(v = tool_args_value(&a)) ||
          tool_parse_i32(cmd, "--parts", v, 0, &parts))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, "-o", "--output")) {
      if (!(out = tool_args_value(&a)))
        return TOOL_EXIT_USAGE;
    } else if (tool_args_is(&a, NULL, "--json")) {
      json = 1;
    } else if (tool_args_is_option(&a)) {
      return tool_usage_error(cmd, "unknown option '%s'", a.arg);
    } else if (path == NULL) {
      path = a.arg;
    } else {
      return tool_usage_error(cmd, "unexpected argument '%s'", a.arg);
    }
  }
  if (more < 0)
    return TOOL_EXIT_USAGE;
  if (path == NULL)
    return tool_usage_error(cmd, "missing MODEL.xml");
  minex_drum_model *m = NULL;
  minex_config *cfg = NULL;
  int32_t *cnode = NULL, *counts = NULL, *cindex = NULL;
  double *w = NULL;
  int rc = minex_drum_model_load(path, &m);
  if (rc != MINEX_OK)
    return tool_fail(cmd, rc);
  int32_t n = minex_drum_nnodes(m);
  cnode = malloc(sizeof(int32_t) * (size_t)n);
  cindex = malloc(sizeof(int32_t) * (size_t)n);
  w = malloc(sizeof(double) * (size_t)n);
  counts = calloc((size_t)n, sizeof(int32_t));
  if (!cnode || !cindex || !w || !counts) {
    fprintf(stderr, "minex %s: out of memory\n", cmd);
    rc = MINEX_ENOMEM;
    goto done;
  }
  if ((rc = minex_drum_config(m, &o, &cfg, cnode)))
    goto done;
  int32_t nc = minex_config_nclusters(cfg);
  for (int32_t i = 0; i < n; i++)
    cindex[i] = -1;
  for (int32_t c = 0; c < nc; c++)
    cindex[cnode[c]] = c;
  if (parts > 0) {
    /* partitions to the computing nodes that run processes, by power */
    for (int32_t c = 0; c < nc; c++)
      w[c] = minex_drum_get(m, cnode[c])->power;
    if ((rc = minex_allocate(nc, w, parts, counts)))
      goto done;
  }
  if (out != NULL && (rc = minex_config_save(cfg, out)))
    goto done;
  if (json) {
    printf("{\n  \"model\": ");
    tool_json_string(stdout, path);
    printf(",\n  \"w_comm\": ");
    tool_json_double(stdout, o.w_comm);
    printf(",\n  \"nodes\": [");
    for (int32_t i = 0; i < n; i++) {
      const minex_drum_node *x = minex_drum_get(m, i);
      printf("%s\n    {\"index\": %d, \"name\": ", i ? "," : "", (int)i);
      tool_json_string(stdout, x->name);
      printf(", \"type\": \"%s\", \"parent\": %d, \"cluster\": %d, "
             "\"ncpus\": %d, \"nprocs\": %d, \"benchmark\": ",
             type_name(x), (int)x->parent, (int)cindex[i], (int)x->ncpus,
             (int)x->nprocs);
      tool_json_double(stdout, x->benchmark);
      printf(", \"rate\": ");
      tool_json_double(stdout, x->rate);
      printf(", \"proc_power\": ");
      tool_json_double(stdout, x->proc_power);
      printf(", \"comm_power\": ");
      tool_json_double(stdout, x->comm_power);
      printf(", \"power\": ");
      tool_json_double(stdout, x->power);
      if (parts > 0 && cindex[i] >= 0)
        printf(", \"parts\": %d", (int)counts[cindex[i]]);
      printf("}");
    }
    printf("\n  ],\n  \"proc\": [");
    for (int32_t c = 0; c < nc; c++) {
      printf("%s", c ? ", " : "");
      tool_json_double(stdout, minex_config_proc_slowdown(cfg, c));
    }
    printf("],\n  \"conn\": [");
    for (int32_t c = 0; c < nc; c++) {
      printf("%s[", c ? ", " : "");
      for (int32_t d = 0; d < nc; d++) {
        printf("%s", d ? ", " : "");
        tool_json_double(stdout, minex_config_conn(cfg, c, d));
      }
      printf("]");
    }
    printf("]\n}\n");
  } else {
    printf("minex drum config %s: %d nodes, %d clusters, %d processors, "
           "w_comm %g\n",
           path, (int)n, (int)nc, (int)minex_config_nprocs(cfg), o.w_comm);
    printf("  %-4s %-24s %-9s %6s %5s %5s %10s %10s %10s %10s %8s", "node",
           "name", "type", "parent", "cpus", "procs", "MFLOPS", "rate",
           "c (Mb/s)", "power", "cluster");
    if (parts > 0)
      printf(" %6s", "parts");
    printf("\n");
    for (int32_t i = 0; i < n; i++) {
      const minex_drum_node *x = minex_drum_get(m, i);
      printf("  %-4d %-24.24s %-9s %6d %5d %5d %10.2f %10.3f %10.3f %10.6f",
             (int)i, x->name[0] ? x->name : x->address, type_name(x),
             (int)x->parent, (int)x->ncpus, (int)x->nprocs, x->benchmark,
             x->rate, x->comm_power, x->power);
      if (cindex[i] >= 0)
        printf(" %8d", (int)cindex[i]);
      else
        printf(" %8s", "-");
      if (parts > 0 && cindex[i] >= 0)
        printf(" %6d", (int)counts[cindex[i]]);
      else if (parts > 0)
        printf(" %6s", "-");
      printf("\n");
    }
    printf("  Proc:");
    for (int32_t c = 0; c < nc; c++)
      printf(" %.4g", minex_config_proc_slowdown(cfg, c));
    printf("\n");
    if (nc <= 16) {
      printf("  Conn:\n");
      for (int32_t c = 0; c < nc; c++) {
        printf("   ");
        for (int32_t d = 0; d < nc; d++)
          printf(" %8.4g", minex_config_conn(cfg, c, d));
        printf("\n");
      }
    }
    if (out != NULL)
      printf("wrote %s\n", out);
  }
done:
  free(cnode), free(cindex), free(w), free(counts);
  minex_config_destroy(cfg);
  minex_drum_model_destroy(m);
  return rc == MINEX_OK ? TOOL_EXIT_OK : tool_fail(cmd, rc);
}

int cmd_drum(int argc, char **argv) {
  if (argc < 2) {
    return tool_usage_error("drum", "missing subcommand (probe or config)");
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
    help();
    return TOOL_EXIT_OK;
  }
  if (strcmp(argv[1], "probe") == 0)
    return drum_probe(argc - 1, argv + 1);
  if (strcmp(argv[1], "config") == 0)
    return drum_config(argc - 1, argv + 1);
  return tool_usage_error("drum", "unknown subcommand '%s' (probe or config)",
                          argv[1]);
}
