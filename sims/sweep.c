/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Parameter sweeps of the MinEX paper's Tables 1-4 (§3.3, §4): the grids,
 * the parallel runner, and the CSV/Markdown/gnuplot output. */
#include "sweep.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ------------------------------------------------------------ the grids */

static const double t1_throttles[] = {0, 1, 4, 16, 32, 64, 128, INFINITY};
#define T1_NT 8
#define T1LOG_NT 13 /* 10^-3, 10^-2.5, ..., 10^3 */
static const double t2_inter[] = {3, 10, 100, 1000};
#define T2_NI 4
#define T3_NP 11 /* P = 2, 4, ..., 2048 */

int32_t sweep_table_parse(const char *name) {
  static const struct {
    const char *s;
    int32_t t;
  } k[] = {{"1", SWEEP_T1},
           {"1log", SWEEP_T1LOG},
           {"2", SWEEP_T2},
           {"3", SWEEP_T3},
           {"4", SWEEP_T4}};
  for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
    if (strcmp(name, k[i].s) == 0)
      return k[i].t;
  return -1;
}

const char *sweep_table_name(int32_t table) {
  switch (table) {
  case SWEEP_T1:
    return "table1";
  case SWEEP_T1LOG:
    return "table1log";
  case SWEEP_T2:
    return "table2";
  case SWEEP_T3:
    return "table3";
  case SWEEP_T4:
    return "table4";
  default:
    return "table";
  }
}

static sweep_spec spec(int32_t table, int32_t P, int32_t C, double I,
                       double alpha, double throttle, int aut, int part) {
  sweep_spec s = {table, P, C, I, alpha, throttle, aut, part, 0};
  return s;
}

int sweep_specs(int32_t table, sweep_spec **specs, int32_t *n) {
  sweep_spec *s = malloc(sizeof(sweep_spec) * 256);
  int32_t k = 0;
  if (s == NULL)
    return sim_fail(MINEX_ENOMEM, "sweep: out of memory");
  switch (table) {
  case SWEEP_T1: /* paper Table 1: P 32, I 3, maximum latency tolerance */
    for (int32_t C = 1; C <= 8; C++) {
      for (int i = 0; i < T1_NT; i++)
        s[k++] = spec(table, 32, C, 3, 1, t1_throttles[i], 0, 1);
      s[k++] = spec(table, 32, C, 3, 1, INFINITY, 1, 1);
    }
    break;
  case SWEEP_T1LOG:
    for (int32_t C = 1; C <= 8; C++)
      for (int i = 0; i < T1LOG_NT; i++)
        s[k++] = spec(table, 32, C, 3, 1, pow(10, -3 + 0.5 * i), 0, 1);
    break;
  case SWEEP_T2: /* paper Table 2: P 32, ThroTTle 64 */
    for (int a = 0; a <= 1; a++)
      for (int32_t C = 1; C <= 8; C++)
        for (int i = 0; i < T2_NI; i++)
          s[k++] = spec(table, 32, C, t2_inter[i], a, 64, 0, 1);
    break;
  case SWEEP_T3: /* paper Table 3: I 3, ThroTTle 2P */
  case SWEEP_T4: /* paper Table 4: the same without partitioning */
    for (int a = 0; a <= 1; a++)
      for (int i = 0; i < T3_NP; i++) {
        int32_t P = 2 << i;
        for (int32_t C = 1; C <= 8; C += 7) {
          if (C > P)
            continue;
          s[k++] = spec(table, P, C, 3, a, 2.0 * P, 0, table == SWEEP_T3);
          if (table == SWEEP_T3)
            s[k++] = spec(table, P, C, 3, a, INFINITY, 1, 1);
        }
      }
    break;
  default:
    free(s);
    return sim_fail(MINEX_EINVAL, "sweep: unknown table %d", (int)table);
  }
  *specs = s;
  *n = k;
  return MINEX_OK;
}

void sweep_options(const sweep_spec *s, uint64_t seed, minex_options *opt) {
  minex_options_init(opt);
  opt->seed = seed;
  opt->alpha = s->alpha;
  opt->throttle = s->throttle;
  opt->throttle_auto = s->throttle_auto;
  /* the sweeps reproduce the paper's Tables 1-4: its rules alone, unless
     the default rules are asked for (minex sweep --rules default) */
  opt->paper_exact = !s->default_rules;
}

/* ---------------------------------------------------------- the runner */

typedef struct sweep_job {
  const sim_workload *w;
  const minex_mesh *mesh;
  const sweep_spec *specs;
  int32_t n, rank, nranks;
  uint64_t seed;
  double *results;
  atomic_int next;      /* next spec index to take                    */
  pthread_mutex_t lock; /* progress callback and first error           */
  int32_t done, todo;
  int rc; /* first error                                 */
  char msg[512];
  sweep_progress_fn progress;
  void *ctx;
} sweep_job;

static int run_one(sweep_job *j, int32_t i) {
  const sweep_spec *s = &j->specs[i];
  int32_t n = sim_workload_nvtxs(j->w);
  int32_t *initial = malloc(sizeof(int32_t) * (size_t)n);
  minex_config *cfg = NULL;
  sim_result r = {0};
  int rc = initial ? MINEX_OK : sim_fail(MINEX_ENOMEM, "sweep: out of memory");
  if (rc == MINEX_OK &&
      (rc = minex_mesh_partition_rcb(j->mesh, s->P, initial)) != MINEX_OK)
    sim_fail(rc, "sweep: initial partition: %s", minex_last_error());
  if (rc == MINEX_OK)
    rc = sim_config_make(s->P, s->C, s->I, NULL, &cfg);
  if (rc == MINEX_OK) {
    sim_params p;
    p.partition = s->partition;
    sweep_options(s, j->seed, &p.opt);
    rc = sim_run(j->w, cfg, initial, &p, NULL, NULL, &r);
  }
  if (rc == MINEX_OK) {
    double *rec = j->results + (int64_t)i * sweep_record_size(r.nsteps);
    double cut = 0, tv = 0, mv = 0;
    for (int32_t k = 0; k < r.nsteps; k++) {
      const sim_step *t = &r.steps[k];
      double *f = rec + SWEEP_NSUM + (int64_t)k * SWEEP_NSTEPF;
      f[SWEEP_ST_MAXQ] = t->max_qwgt;
      f[SWEEP_ST_MINQ] = t->min_qwgt;
      f[SWEEP_ST_QTOT] = t->qwgt_tot;
      f[SWEEP_ST_LOADIMB] = t->load_imb;
      f[SWEEP_ST_CUT] = (double)t->cut_edges;
      f[SWEEP_ST_CUTW] = t->cut_weight;
      f[SWEEP_ST_MOVED] = (double)t->moved;
      f[SWEEP_ST_TOTALV] = t->total_v;
      f[SWEEP_ST_THROTTLE] = t->throttle_used;
      f[SWEEP_ST_SECONDS] = t->seconds;
      f[SWEEP_ST_LEAVES] = (double)t->leaves;
      cut += t->cut_weight;
      tv += t->total_v;
      mv += (double)t->moved;
    }
    rec[SWEEP_SUM_TOTAL] = r.total;
    rec[SWEEP_SUM_LOADIMB] = r.load_imb;
    rec[SWEEP_SUM_SECONDS] = r.seconds;
    rec[SWEEP_SUM_CUT] = cut / r.nsteps;
    rec[SWEEP_SUM_TOTALV] = tv;
    rec[SWEEP_SUM_MOVED] = mv;
    rec[SWEEP_SUM_HORIZON] = r.total_horizon;
    rec[SWEEP_SUM_DONE] = 1;
  }
  sim_result_free(&r);
  minex_config_destroy(cfg);
  free(initial);
  return rc;
}

static void *worker(void *arg) {
  sweep_job *j = arg;
  for (;;) {
    int32_t i = atomic_fetch_add(&j->next, 1);
    if (i >= j->n)
      break;
    if (i % j->nranks != j->rank)
      continue;
    pthread_mutex_lock(&j->lock);
    int failed = j->rc != MINEX_OK;
    pthread_mutex_unlock(&j->lock);
    if (failed)
      break;
    int rc = run_one(j, i);
    pthread_mutex_lock(&j->lock);
    if (rc != MINEX_OK && j->rc == MINEX_OK) {
      j->rc = rc;
      snprintf(j->msg, sizeof j->msg, "%s", sim_last_error());
    }
    if (rc == MINEX_OK) {
      j->done++;
      if (j->progress)
        j->progress(&j->specs[i],
                    j->results + (int64_t)i * sweep_record_size(j->w->nsteps),
                    j->done, j->todo, j->ctx);
    }
    pthread_mutex_unlock(&j->lock);
  }
  return NULL;
}

int sweep_run(const sim_workload *w, const minex_mesh *mesh,
              const sweep_spec *specs, int32_t n, uint64_t seed, int32_t rank,
              int32_t nranks, int32_t threads, double *results,
              sweep_progress_fn progress, void *ctx) {
  if (nranks < 1 || rank < 0 || rank >= nranks || threads < 1)
    return sim_fail(MINEX_EINVAL, "sweep: rank %d of %d, %d threads", (int)rank,
                    (int)nranks, (int)threads);
  sweep_job j;
  memset(&j, 0, sizeof j);
  j.w = w;
  j.mesh = mesh;
  j.specs = specs;
  j.n = n;
  j.rank = rank;
  j.nranks = nranks;
  j.seed = seed;
  j.results = results;
  j.progress = progress;
  j.ctx = ctx;
  atomic_init(&j.next, 0);
  for (int32_t i = 0; i < n; i++)
    j.todo += i % nranks == rank;
  pthread_mutex_init(&j.lock, NULL);
  pthread_t *tid = malloc(sizeof(pthread_t) * (size_t)threads);
  int32_t started = 0;
  if (tid != NULL)
    for (; started < threads; started++)
      if (pthread_create(&tid[started], NULL, worker, &j) != 0)
        break;
  if (started == 0) /* no thread could start: run here */
    worker(&j);
  for (int32_t t = 0; t < started; t++)
    pthread_join(tid[t], NULL);
  free(tid);
  pthread_mutex_destroy(&j.lock);
  if (j.rc != MINEX_OK)
    return sim_fail(j.rc, "%s", j.msg);
  return MINEX_OK;
}

/* ------------------------------------------------------------ output */

int sweep_write_file(const char *path, const char *text, size_t len) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    /* a FIFO or a device (--csv /dev/stdout): written in place, since a
       rename would replace it with a regular file */
    FILE *fp = fopen(path, "w");
    int ok = fp != NULL && fwrite(text, 1, len, fp) == len;
    int e = errno;
    if (fp != NULL && fclose(fp) != 0 && ok) {
      ok = 0;
      e = errno;
    }
    return ok ? MINEX_OK
              : sim_fail(MINEX_EIO, "%s: cannot write: %s", path, strerror(e));
  }
  size_t pl = strlen(path);
  char *tmp = malloc(pl + 16);
  if (tmp == NULL)
    return sim_fail(MINEX_ENOMEM, "sweep: out of memory");
  snprintf(tmp, pl + 16, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int rc =
        sim_fail(MINEX_EIO, "%s: cannot create: %s", path, strerror(errno));
    free(tmp);
    return rc;
  }
  /* mkstemp makes 0600: give the file the usual mode under the umask */
  mode_t um = umask(0);
  umask(um);
  fchmod(fd, 0666 & ~um);
  FILE *fp = fdopen(fd, "w");
  int ok = fp != NULL && fwrite(text, 1, len, fp) == len;
  if (fp != NULL)
    ok = (fclose(fp) == 0) && ok;
  else
    close(fd);
  if (!ok || rename(tmp, path) != 0) {
    int rc = sim_fail(MINEX_EIO, "%s: cannot write: %s", path, strerror(errno));
    remove(tmp);
    free(tmp);
    return rc;
  }
  free(tmp);
  return MINEX_OK;
}

static int write_buf(const char *dir, const char *name, const char *ext,
                     strbuf *b) {
  if (b->failed)
    return sim_fail(MINEX_ENOMEM, "sweep: out of memory");
  strbuf path = {0};
  strbuf_printf(&path, "%s/%s%s", dir, name, ext);
  if (path.failed)
    return sim_fail(MINEX_ENOMEM, "sweep: out of memory");
  int rc = sweep_write_file(path.s, b->s ? b->s : "", b->len);
  strbuf_free(&path);
  return rc;
}

static const double *rec_of(const double *results, int32_t i, int32_t nsteps) {
  return results + (int64_t)i * sweep_record_size(nsteps);
}

static void fmt_throttle(char *buf, size_t size, double t, int aut) {
  if (aut)
    snprintf(buf, size, "auto");
  else if (isinf(t))
    snprintf(buf, size, "inf");
  else
    snprintf(buf, size, "%g", t);
}

void sweep_throttle_label(const sweep_spec *s, const double *rec,
                          int32_t nsteps, char *buf, size_t size) {
  if (!s->throttle_auto) {
    fmt_throttle(buf, size, s->throttle, 0);
    return;
  }
  char used[32];
  fmt_throttle(used, sizeof used,
               rec[SWEEP_NSUM + (int64_t)SWEEP_NSTEPF * (nsteps - 1) +
                   SWEEP_ST_THROTTLE],
               0);
  snprintf(buf, size, "auto (%s)", used);
}

/* The spec index of (P, C, I, alpha, throttle, auto) in specs, or -1. */
static int32_t find(const sweep_spec *specs, int32_t n, int32_t P, int32_t C,
                    double I, double alpha, double throttle, int aut) {
  for (int32_t i = 0; i < n; i++) {
    const sweep_spec *s = &specs[i];
    if (s->P == P && s->C == C && s->I == I && s->alpha == alpha &&
        s->throttle_auto == aut && (aut || s->throttle == throttle))
      return i;
  }
  return -1;
}

static void csv_rows(strbuf *sum, strbuf *steps, const sweep_spec *specs,
                     int32_t n, int32_t nsteps, const double *results) {
  strbuf_printf(sum,
                "table,P,C,I,alpha,throttle,partition,total_maxqwgt,"
                "load_imb,mean_cut_weight,total_v,moved,throttle_used_last,"
                "total_horizon,seconds_repartition\n");
  strbuf_printf(steps,
                "table,P,C,I,alpha,throttle,partition,step,leaves,"
                "max_qwgt,min_qwgt,qwgt_tot,load_imb,cut_edges,cut_weight,"
                "moved,total_v,throttle_used,seconds\n");
  for (int32_t i = 0; i < n; i++) {
    const sweep_spec *s = &specs[i];
    const double *r = rec_of(results, i, nsteps);
    char th[32], tu[32];
    fmt_throttle(th, sizeof th, s->throttle, s->throttle_auto);
    const double *last = r + SWEEP_NSUM + (int64_t)(nsteps - 1) * SWEEP_NSTEPF;
    fmt_throttle(tu, sizeof tu, last[SWEEP_ST_THROTTLE], 0);
    strbuf_printf(sum,
                  "%s,%d,%d,%g,%g,%s,%d,%.17g,%.6f,%.6f,%.17g,%.0f,%s,"
                  "%.17g,%.6f\n",
                  sweep_table_name(s->table), (int)s->P, (int)s->C, s->I,
                  s->alpha, th, s->partition, r[SWEEP_SUM_TOTAL],
                  r[SWEEP_SUM_LOADIMB], r[SWEEP_SUM_CUT], r[SWEEP_SUM_TOTALV],
                  r[SWEEP_SUM_MOVED], tu, r[SWEEP_SUM_HORIZON],
                  r[SWEEP_SUM_SECONDS]);
    for (int32_t k = 0; k < nsteps; k++) {
      const double *f = r + SWEEP_NSUM + (int64_t)k * SWEEP_NSTEPF;
      fmt_throttle(tu, sizeof tu, f[SWEEP_ST_THROTTLE], 0);
      strbuf_printf(steps,
                    "%s,%d,%d,%g,%g,%s,%d,%d,%.0f,%.17g,%.17g,%.17g,"
                    "%.6f,%.0f,%.17g,%.0f,%.17g,%s,%.6f\n",
                    sweep_table_name(s->table), (int)s->P, (int)s->C, s->I,
                    s->alpha, th, s->partition, (int)k + 1, f[SWEEP_ST_LEAVES],
                    f[SWEEP_ST_MAXQ], f[SWEEP_ST_MINQ], f[SWEEP_ST_QTOT],
                    f[SWEEP_ST_LOADIMB], f[SWEEP_ST_CUT], f[SWEEP_ST_CUTW],
                    f[SWEEP_ST_MOVED], f[SWEEP_ST_TOTALV], tu,
                    f[SWEEP_ST_SECONDS]);
    }
  }
}

/* Value of spec i for a table cell: MaxQwgt total in thousands (the
 * paper's scale) or LoadImb; "-" when absent. */
static void cell(strbuf *b, const double *results, int32_t i, int32_t nsteps,
                 int loadimb) {
  if (i < 0) {
    strbuf_printf(b, " | -");
    return;
  }
  const double *r = rec_of(results, i, nsteps);
  if (loadimb)
    strbuf_printf(b, " | %.2f", r[SWEEP_SUM_LOADIMB]);
  else
    strbuf_printf(b, " | %.0f", r[SWEEP_SUM_TOTAL] / 1000);
}

static void md_table(strbuf *b, int32_t table, const sweep_spec *specs,
                     int32_t n, int32_t nsteps, const double *results) {
  char th[32];
  const char *lat[2] = {"No latency tolerance (alpha 0)",
                        "Maximum latency tolerance (alpha 1)"};
  switch (table) {
  case SWEEP_T1:
  case SWEEP_T1LOG: {
    int nt = table == SWEEP_T1 ? T1_NT + 1 : T1LOG_NT;
    strbuf_printf(b,
                  "# %s: MaxQwgt (sum over adaptations, thousands) and "
                  "LoadImb against ThroTTle; P = 32, I = 3, alpha = 1\n",
                  sweep_table_name(table));
    for (int li = 0; li <= 1; li++) {
      strbuf_printf(b, "\n%s\n\n| C", li ? "LoadImb" : "MaxQwgt");
      for (int t = 0; t < nt; t++) {
        int aut = table == SWEEP_T1 && t == T1_NT;
        double tv = table == SWEEP_T1 ? (aut ? INFINITY : t1_throttles[t])
                                      : pow(10, -3 + 0.5 * t);
        fmt_throttle(th, sizeof th, tv, aut);
        strbuf_printf(b, " | %s", th);
      }
      strbuf_printf(b, " |\n|---");
      for (int t = 0; t < nt; t++)
        strbuf_printf(b, "|---:");
      strbuf_printf(b, "|\n");
      for (int32_t C = 1; C <= 8; C++) {
        strbuf_printf(b, "| %d", (int)C);
        for (int t = 0; t < nt; t++) {
          int aut = table == SWEEP_T1 && t == T1_NT;
          double tv = table == SWEEP_T1 ? (aut ? INFINITY : t1_throttles[t])
                                        : pow(10, -3 + 0.5 * t);
          cell(b, results, find(specs, n, 32, C, 3, 1, tv, aut), nsteps, li);
        }
        strbuf_printf(b, " |\n");
      }
    }
    break;
  }
  case SWEEP_T2:
    strbuf_printf(b, "# table2: MaxQwgt (sum over adaptations, thousands) "
                     "against the interconnect slowdown I; P = 32, ThroTTle = "
                     "64\n");
    for (int a = 0; a <= 1; a++) {
      strbuf_printf(b, "\n%s\n\n| C", lat[a]);
      for (int i = 0; i < T2_NI; i++)
        strbuf_printf(b, " | I = %g", t2_inter[i]);
      strbuf_printf(b, " |\n|---|---:|---:|---:|---:|\n");
      for (int32_t C = 1; C <= 8; C++) {
        strbuf_printf(b, "| %d", (int)C);
        for (int i = 0; i < T2_NI; i++)
          cell(b, results, find(specs, n, 32, C, t2_inter[i], a, 64, 0), nsteps,
               0);
        strbuf_printf(b, " |\n");
      }
    }
    break;
  case SWEEP_T3:
  case SWEEP_T4:
    strbuf_printf(b,
                  "# %s: MaxQwgt (sum over adaptations, thousands) and "
                  "LoadImb against P; I = 3, ThroTTle = 2P%s\n",
                  sweep_table_name(table),
                  table == SWEEP_T4 ? ", no partitioning" : "");
    for (int a = 0; a <= 1; a++) {
      strbuf_printf(b,
                    "\n%s\n\n| P | MaxQwgt C=1 | MaxQwgt C=8 | LoadImb "
                    "C=1 | LoadImb C=8%s |\n|---:|---:|---:|---:|---:%s|\n",
                    lat[a],
                    table == SWEEP_T3 ? " | auto MaxQwgt C=1 | auto MaxQwgt "
                                        "C=8"
                                      : "",
                    table == SWEEP_T3 ? "|---:|---:" : "");
      for (int i = 0; i < T3_NP; i++) {
        int32_t P = 2 << i;
        strbuf_printf(b, "| %d", (int)P);
        for (int li = 0; li <= 1; li++)
          for (int32_t C = 1; C <= 8; C += 7)
            cell(b, results, find(specs, n, P, C, 3, a, 2.0 * P, 0), nsteps,
                 li);
        if (table == SWEEP_T3)
          for (int32_t C = 1; C <= 8; C += 7)
            cell(b, results, find(specs, n, P, C, 3, a, 0, 1), nsteps, 0);
        strbuf_printf(b, " |\n");
      }
    }
    break;
  default:
    break;
  }
}

/* gnuplot: every figure is drawn twice, to PNG and to SVG. */
static void gp_begin(strbuf *b, const char *file, int svg, const char *title,
                     const char *xlabel, const char *ylabel) {
  if (svg)
    strbuf_printf(b,
                  "set terminal svg size 900,600 dynamic enhanced\n"
                  "set output '%s.svg'\n",
                  file);
  else
    strbuf_printf(b,
                  "set terminal pngcairo size 900,600 enhanced\n"
                  "set output '%s.png'\n",
                  file);
  strbuf_printf(b,
                "reset\nset grid\nset key outside right\n"
                "set datafile missing 'NaN'\nset title \"%s\"\n"
                "set xlabel \"%s\"\nset ylabel \"%s\"\n",
                title, xlabel, ylabel);
}

static void gp_table1(strbuf *gp, strbuf *dat, int32_t table,
                      const sweep_spec *specs, int32_t n, int32_t nsteps,
                      const double *results) {
  const char *name = sweep_table_name(table);
  int nt = table == SWEEP_T1 ? T1_NT : T1LOG_NT;
  /* one data block per C: x position, ThroTTle label, MaxQwgt, LoadImb */
  for (int32_t C = 1; C <= 8; C++) {
    strbuf_printf(dat, "# C = %d\n", (int)C);
    for (int t = 0; t < nt; t++) {
      double tv = table == SWEEP_T1 ? t1_throttles[t] : pow(10, -3 + 0.5 * t);
      int32_t i = find(specs, n, 32, C, 3, 1, tv, 0);
      char th[32];
      fmt_throttle(th, sizeof th, tv, 0);
      const double *r = i >= 0 ? rec_of(results, i, nsteps) : NULL;
      strbuf_printf(
          dat, "%g %s %.17g %.17g\n", table == SWEEP_T1 ? (double)t : tv, th,
          r ? r[SWEEP_SUM_TOTAL] / 1000 : NAN, r ? r[SWEEP_SUM_LOADIMB] : NAN);
    }
    strbuf_printf(dat, "\n\n");
  }
  for (int svg = 0; svg <= 1; svg++)
    for (int li = 0; li <= 1; li++) {
      strbuf fn = {0};
      strbuf_printf(&fn, "%s_%s", name, li ? "loadimb" : "maxqwgt");
      gp_begin(gp, fn.s, svg,
               li ? "LoadImb against ThroTTle (P = 32, I = 3, alpha = 1)"
                  : "MaxQwgt against ThroTTle (P = 32, I = 3, alpha = 1)",
               "ThroTTle (normalised, SPEC 3)",
               li ? "LoadImb" : "MaxQwgt, sum over adaptations (thousands)");
      strbuf_free(&fn);
      if (table == SWEEP_T1LOG)
        strbuf_printf(gp, "set logscale x\nset format x '10^{%%L}'\n");
      if (li == 0)
        strbuf_printf(gp, "set logscale y\n");
      strbuf_printf(gp,
                    "plot for [c=0:7] '%s.dat' index c using 1:%d%s "
                    "with linespoints title sprintf('C = %%d', c+1)\n",
                    name, li ? 4 : 3, table == SWEEP_T1 ? ":xtic(2)" : "");
    }
}

static void gp_table2(strbuf *gp, strbuf *dat, const sweep_spec *specs,
                      int32_t n, int32_t nsteps, const double *results) {
  /* blocks: alpha 0 then 1, one per I; columns C, MaxQwgt */
  for (int a = 0; a <= 1; a++)
    for (int i = 0; i < T2_NI; i++) {
      strbuf_printf(dat, "# alpha = %d, I = %g\n", a, t2_inter[i]);
      for (int32_t C = 1; C <= 8; C++) {
        int32_t k = find(specs, n, 32, C, t2_inter[i], a, 64, 0);
        strbuf_printf(
            dat, "%d %.17g\n", (int)C,
            k >= 0 ? rec_of(results, k, nsteps)[SWEEP_SUM_TOTAL] / 1000 : NAN);
      }
      strbuf_printf(dat, "\n\n");
    }
  for (int svg = 0; svg <= 1; svg++) {
    gp_begin(gp, "table2_interconnect", svg,
             "Effect of the interconnect slowdown I (P = 32, ThroTTle = 64)",
             "clusters C", "MaxQwgt, sum over adaptations (thousands)");
    strbuf_printf(gp, "set logscale y\nset xtics 1\n"
                      "plot for [i=0:3] 'table2.dat' index i using 1:2 with "
                      "linespoints dt 2 title sprintf('I = %%s, alpha 0', "
                      "word('3 10 100 1000', i+1)), \\\n"
                      "     for [i=4:7] 'table2.dat' index i using 1:2 with "
                      "linespoints title sprintf('I = %%s, alpha 1', "
                      "word('3 10 100 1000', i-3))\n");
  }
}

static void gp_table34(strbuf *dat, int32_t table, const sweep_spec *specs,
                       int32_t n, int32_t nsteps, const double *results) {
  /* blocks: (alpha, C) = (0,1), (0,8), (1,1), (1,8); columns P, MaxQwgt,
     LoadImb */
  for (int a = 0; a <= 1; a++)
    for (int32_t C = 1; C <= 8; C += 7) {
      strbuf_printf(dat, "# %s alpha = %d, C = %d\n", sweep_table_name(table),
                    a, (int)C);
      for (int i = 0; i < T3_NP; i++) {
        int32_t P = 2 << i;
        int32_t k = find(specs, n, P, C, 3, a, 2.0 * P, 0);
        if (k < 0)
          continue;
        const double *r = rec_of(results, k, nsteps);
        strbuf_printf(dat, "%d %.17g %.17g\n", (int)P,
                      r[SWEEP_SUM_TOTAL] / 1000, r[SWEEP_SUM_LOADIMB]);
      }
      strbuf_printf(dat, "\n\n");
    }
}

/* The MaxQwgt-against-P plot: table3.dat and/or table4.dat. */
static void gp_against_p(strbuf *gp, int have3, int have4) {
  for (int svg = 0; svg <= 1; svg++) {
    gp_begin(gp, "maxqwgt_against_p", svg,
             "MaxQwgt against P (I = 3, ThroTTle = 2P)", "processors P",
             "MaxQwgt, sum over adaptations (thousands)");
    strbuf_printf(gp, "set logscale xy 2\nset format y '%%g'\nplot ");
    const char *sep = "";
    static const char *lab[4] = {"alpha 0, C = 1", "alpha 0, C = 8",
                                 "alpha 1, C = 1", "alpha 1, C = 8"};
    for (int t = 0; t < 2; t++) {
      if (!(t == 0 ? have3 : have4))
        continue;
      for (int b = 0; b < 4; b++) {
        strbuf_printf(gp,
                      "%s'table%d.dat' index %d using 1:2 with "
                      "linespoints %s title '%s, %s'",
                      sep, 3 + t, b, t ? "dt 2" : "",
                      t ? "no partitioning" : "MinEX", lab[b]);
        sep = ", \\\n     ";
      }
    }
    strbuf_printf(gp, "\n");
  }
}

static int file_exists(const char *dir, const char *name) {
  strbuf p = {0};
  strbuf_printf(&p, "%s/%s", dir, name);
  struct stat st;
  int ok = !p.failed && stat(p.s, &st) == 0;
  strbuf_free(&p);
  return ok;
}

int sweep_write(const char *dir, int32_t table, const sweep_spec *specs,
                int32_t n, int32_t nsteps, const double *results) {
  const char *name = sweep_table_name(table);
  strbuf sum = {0}, steps = {0}, md = {0}, gp = {0}, dat = {0};
  csv_rows(&sum, &steps, specs, n, nsteps, results);
  md_table(&md, table, specs, n, nsteps, results);
  switch (table) {
  case SWEEP_T1:
  case SWEEP_T1LOG:
    gp_table1(&gp, &dat, table, specs, n, nsteps, results);
    break;
  case SWEEP_T2:
    gp_table2(&gp, &dat, specs, n, nsteps, results);
    break;
  default:
    gp_table34(&dat, table, specs, n, nsteps, results);
    break;
  }
  int rc = write_buf(dir, name, ".csv", &sum);
  if (rc == MINEX_OK)
    rc = write_buf(dir, name, "_steps.csv", &steps);
  if (rc == MINEX_OK)
    rc = write_buf(dir, name, ".md", &md);
  if (rc == MINEX_OK)
    rc = write_buf(dir, name, ".dat", &dat);
  /* the data file is written first: a script never names missing data */
  if (rc == MINEX_OK && table != SWEEP_T3 && table != SWEEP_T4)
    rc = write_buf(dir, name, ".gp", &gp);
  if (rc == MINEX_OK && (table == SWEEP_T3 || table == SWEEP_T4)) {
    strbuf p = {0};
    gp_against_p(&p, file_exists(dir, "table3.dat"),
                 file_exists(dir, "table4.dat"));
    rc = write_buf(dir, "maxqwgt_against_p", ".gp", &p);
    strbuf_free(&p);
  }
  strbuf_free(&sum);
  strbuf_free(&steps);
  strbuf_free(&md);
  strbuf_free(&gp);
  strbuf_free(&dat);
  return rc;
}

int sweep_gnuplot(const char *dir, const char *script) {
  /* The child gets a copy of every stdio buffer: flush them first, or text
   * still buffered (stdout to a file or pipe is fully buffered) would be
   * written twice, once by the child. */
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0)
    return sim_fail(MINEX_EIO, "gnuplot: cannot fork: %s", strerror(errno));
  if (pid == 0) {
    if (chdir(dir) != 0)
      _exit(127);
    /* plots are a by-product: gnuplot's chatter stays out of the report.
     * dup2, not freopen: the child touches no stdio stream. */
    int null = open("/dev/null", O_WRONLY);
    if (null < 0 || dup2(null, STDOUT_FILENO) < 0)
      _exit(127);
    if (null != STDOUT_FILENO)
      close(null);
    execlp("gnuplot", "gnuplot", script, (char *)NULL);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return sim_fail(MINEX_EIO, "gnuplot: wait failed: %s", strerror(errno));
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 127)
    return sim_fail(MINEX_EIO,
                    "gnuplot not found (install gnuplot-nox): "
                    "%s/%s kept for later",
                    dir, script);
  if (WEXITSTATUS(status) != 0)
    return sim_fail(MINEX_EIO, "gnuplot failed on %s/%s (exit %d)", dir, script,
                    WEXITSTATUS(status));
  return MINEX_OK;
}

int sweep_plot(const char *dir, int32_t table) {
  if (table == SWEEP_T3 || table == SWEEP_T4)
    return sweep_gnuplot(dir, "maxqwgt_against_p.gp");
  strbuf s = {0};
  strbuf_printf(&s, "%s.gp", sweep_table_name(table));
  int rc = s.failed ? sim_fail(MINEX_ENOMEM, "sweep: out of memory")
                    : sweep_gnuplot(dir, s.s);
  strbuf_free(&s);
  return rc;
}
