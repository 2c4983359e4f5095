/* SPDX-License-Identifier: GPL-3.0-or-later */
/* DRUM's dynamic monitoring of one process (Faik's thesis §3.1.1: agent
 * threads started by startMonitoring() and ended by stopMonitoring(), the
 * cpuMemory and commInterface objects; app. A: DRUM_startMonitoring,
 * DRUM_stopMonitoring, the monitoring frequency), a thread-less probe, and
 * the transfer of a reading into the machine model (§3.1.2.1).
 *
 * The thread wakes every 1/frequency seconds on a timed condition wait (a
 * stop wakes it at once), reads a snapshot (drum_procfs.c) and records the
 * interval's cpu_use and idle. The whole-period reading runs from the
 * snapshot taken by start to a fresh snapshot taken by read() in the
 * caller's thread while monitoring, or to the last snapshot, taken when
 * stop ends the thread. The per-interval series lives in a ring of the
 * last SERIES_CAP intervals; the standard deviations are over those. */
#include "drum/drum.h"
#include "drum/drum_procfs.h"

#include <errno.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SERIES_CAP = 4096 };

struct minex_drum_monitor {
  char *root;           /* copy of the root; NULL: the live system       */
  double period;        /* seconds between samples, 1 / frequency        */
  pthread_mutex_t lock; /* guards all fields below                       */
  pthread_cond_t wake;  /* signalled by stop; waits on CLOCK_MONOTONIC   */
  pthread_t thread;     /* the sampler, joinable while running          */
  int started;          /* 1 once a start succeeded (read allowed)       */
  int running;          /* 1 between start and stop: the thread exists   */
  int stopping;         /* 1: the thread must take its last snapshot     */
  drum_snapshot first;  /* taken by start                                */
  drum_snapshot last;   /* latest periodic snapshot, or the final one    */
  double t_first;       /* CLOCK_MONOTONIC seconds of first              */
  double t_last;        /* ... and of last                               */
  double own_cpu;       /* the thread's CPU seconds up to t_last         */
  int32_t nsamples;     /* periodic samples (intervals) since start      */
  double cpu_series[SERIES_CAP];  /* cpu_use of interval i % SERIES_CAP   */
  double idle_series[SERIES_CAP]; /* idle of interval i % SERIES_CAP      */
  int err;          /* first failure inside the thread, or MINEX_OK  */
  char errmsg[512]; /* its message (the thread's last error)         */
};

/* CPU seconds spent by the calling thread. */
static double thread_cpu(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static struct timespec to_timespec(double t) {
  struct timespec ts;
  double s = floor(t);
  ts.tv_sec = (time_t)s;
  ts.tv_nsec = (long)((t - s) * 1e9);
  if (ts.tv_nsec >= 1000000000L)
    ts.tv_nsec = 999999999L;
  return ts;
}

/* Deep copy of a snapshot into a zeroed dst. */
static int snapshot_copy(drum_snapshot *dst, const drum_snapshot *src) {
  *dst = *src;
  dst->cpus = NULL;
  dst->ifs = NULL;
  if (src->ncpus > 0) {
    dst->cpus = malloc(sizeof *dst->cpus * (size_t)src->ncpus);
    if (dst->cpus == NULL)
      goto nomem;
    memcpy(dst->cpus, src->cpus, sizeof *dst->cpus * (size_t)src->ncpus);
  }
  if (src->nifs > 0) {
    dst->ifs = malloc(sizeof *dst->ifs * (size_t)src->nifs);
    if (dst->ifs == NULL)
      goto nomem;
    memcpy(dst->ifs, src->ifs, sizeof *dst->ifs * (size_t)src->nifs);
  }
  return MINEX_OK;
nomem:
  drum_snapshot_free(dst);
  return core_error(MINEX_ENOMEM, "drum monitor: out of memory");
}

/* Keeps the thread's first failure (the message is thread-local). */
static void record_error(minex_drum_monitor *m, int rc) {
  if (m->err != MINEX_OK)
    return;
  m->err = rc;
  snprintf(m->errmsg, sizeof m->errmsg, "%s", minex_last_error());
}

/* The sampler. Holds the lock except while reading files. */
static void *monitor_main(void *arg) {
  minex_drum_monitor *m = arg;
  drum_snapshot cur = {0};
  pthread_mutex_lock(&m->lock);
  double next = m->t_first + m->period;
  while (!m->stopping) {
    int r = 0;
    if (m->err != MINEX_OK) {
      /* a file failed: keep the error for read/stop, sample no more */
      pthread_cond_wait(&m->wake, &m->lock);
      continue;
    }
    struct timespec ts = to_timespec(next);
    r = pthread_cond_timedwait(&m->wake, &m->lock, &ts);
    if (m->stopping)
      break;
    if (r != ETIMEDOUT && core_wtime() < next)
      continue; /* spurious wake-up */
    pthread_mutex_unlock(&m->lock);
    int rc = drum_snapshot_read(m->root, &cur);
    double t = core_wtime(), own = thread_cpu();
    pthread_mutex_lock(&m->lock);
    if (rc != MINEX_OK) {
      record_error(m, rc);
      continue;
    }
    minex_drum_sample iv;
    drum_sample_between(&m->last, &cur, t - m->t_last, own - m->own_cpu, &iv);
    int32_t slot = m->nsamples % SERIES_CAP;
    m->cpu_series[slot] = iv.cpu_use;
    m->idle_series[slot] = iv.idle;
    if (m->nsamples < INT32_MAX)
      m->nsamples++;
    drum_snapshot tmp = m->last;
    m->last = cur;
    cur = tmp;
    m->t_last = t;
    m->own_cpu = own;
    next += m->period;
    if (next < t) /* fell behind (a slow read): skip the missed ticks */
      next = t + m->period;
  }
  /* stop: the last snapshot ends the period */
  int failed = m->err != MINEX_OK;
  pthread_mutex_unlock(&m->lock);
  int rc = failed ? MINEX_OK : drum_snapshot_read(m->root, &cur);
  double t = core_wtime(), own = thread_cpu();
  pthread_mutex_lock(&m->lock);
  if (rc != MINEX_OK) {
    record_error(m, rc);
  } else if (!failed) {
    drum_snapshot tmp = m->last;
    m->last = cur;
    cur = tmp;
    m->t_last = t;
    m->own_cpu = own;
  }
  pthread_mutex_unlock(&m->lock);
  drum_snapshot_free(&cur);
  return NULL;
}

int minex_drum_monitor_create(const char *root, double frequency,
                              minex_drum_monitor **out) {
  core_error_clear();
  const char *fn = "minex_drum_monitor_create";
  if (out == NULL)
    return core_error(MINEX_EINVAL, "%s: out is NULL", fn);
  *out = NULL;
  if (!isfinite(frequency) || frequency < 1e-6 || frequency > 1000)
    return core_error(MINEX_EINVAL,
                      "%s: frequency = %g samples per second "
                      "must be in [1e-6, 1000]",
                      fn, frequency);
  minex_drum_monitor *m = calloc(1, sizeof *m);
  if (m == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", fn);
  if (root != NULL && root[0] != '\0' && strcmp(root, "/") != 0) {
    size_t n = strlen(root) + 1;
    m->root = malloc(n);
    if (m->root == NULL) {
      free(m);
      return core_error(MINEX_ENOMEM, "%s: out of memory", fn);
    }
    memcpy(m->root, root, n);
  }
  m->period = 1.0 / frequency;
  pthread_condattr_t attr;
  int ok = pthread_mutex_init(&m->lock, NULL) == 0;
  if (ok && pthread_condattr_init(&attr) == 0) {
    if (pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) != 0 ||
        pthread_cond_init(&m->wake, &attr) != 0) {
      pthread_mutex_destroy(&m->lock);
      ok = 0;
    }
    pthread_condattr_destroy(&attr);
  } else if (ok) {
    pthread_mutex_destroy(&m->lock);
    ok = 0;
  }
  if (!ok) {
    free(m->root);
    free(m);
    return core_error(MINEX_ENOMEM,
                      "%s: cannot create the mutex or the "
                      "condition variable",
                      fn);
  }
  *out = m;
  return MINEX_OK;
}

int minex_drum_monitor_start(minex_drum_monitor *monitor) {
  core_error_clear();
  const char *fn = "minex_drum_monitor_start";
  if (monitor == NULL)
    return core_error(MINEX_EINVAL, "%s: monitor is NULL", fn);
  minex_drum_monitor *m = monitor;
  pthread_mutex_lock(&m->lock);
  if (m->running) {
    pthread_mutex_unlock(&m->lock);
    return core_error(MINEX_EINVAL,
                      "%s: the monitor is running already "
                      "(stop it first)",
                      fn);
  }
  /* a restart begins a new period */
  int rc = drum_snapshot_read(m->root, &m->first);
  drum_snapshot_free(&m->last);
  if (rc == MINEX_OK)
    rc = snapshot_copy(&m->last, &m->first);
  if (rc != MINEX_OK) {
    drum_snapshot_free(&m->first);
    m->started = 0;
    pthread_mutex_unlock(&m->lock);
    core_error_prefix("%s", fn);
    return rc;
  }
  m->t_first = m->t_last = core_wtime();
  m->own_cpu = 0; /* a new thread starts with a CPU clock near 0 */
  m->nsamples = 0;
  m->err = MINEX_OK;
  m->errmsg[0] = '\0';
  m->stopping = 0;
  /* the sampler takes no signals: they stay with the application */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int e = pthread_create(&m->thread, NULL, monitor_main, m);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (e != 0) {
    drum_snapshot_free(&m->first);
    drum_snapshot_free(&m->last);
    m->started = 0;
    pthread_mutex_unlock(&m->lock);
    char msg[128] = "";
    strerror_r(e, msg, sizeof msg);
    return core_error(e == EAGAIN ? MINEX_ENOMEM : MINEX_EIO,
                      "%s: cannot create the monitor thread: %s", fn, msg);
  }
  m->running = 1;
  m->started = 1;
  pthread_mutex_unlock(&m->lock);
  return MINEX_OK;
}

/* Whole-period reading from first to end, plus the series statistics.
 * Called with the lock held. */
static void fill_sample(const minex_drum_monitor *m, const drum_snapshot *end,
                        double t_end, minex_drum_sample *sample) {
  drum_sample_between(&m->first, end, t_end - m->t_first, m->own_cpu, sample);
  sample->nsamples = m->nsamples;
  size_t n = m->nsamples < SERIES_CAP ? (size_t)m->nsamples : SERIES_CAP;
  sample->cpu_use_sd = n >= 2 ? gsl_stats_sd(m->cpu_series, 1, n) : 0;
  sample->idle_sd = n >= 2 ? gsl_stats_sd(m->idle_series, 1, n) : 0;
}

int minex_drum_monitor_read(minex_drum_monitor *monitor,
                            minex_drum_sample *sample) {
  core_error_clear();
  const char *fn = "minex_drum_monitor_read";
  if (monitor == NULL)
    return core_error(MINEX_EINVAL, "%s: monitor is NULL", fn);
  if (sample == NULL)
    return core_error(MINEX_EINVAL, "%s: sample is NULL", fn);
  minex_drum_monitor *m = monitor;
  pthread_mutex_lock(&m->lock);
  if (!m->started) {
    pthread_mutex_unlock(&m->lock);
    return core_error(MINEX_EINVAL, "%s: the monitor was not started", fn);
  }
  if (m->err != MINEX_OK) {
    int rc = m->err;
    char msg[sizeof m->errmsg];
    memcpy(msg, m->errmsg, sizeof msg);
    pthread_mutex_unlock(&m->lock);
    return core_error(rc, "%s: %s", fn, msg);
  }
  int live = m->running;
  pthread_mutex_unlock(&m->lock);
  if (!live) {
    pthread_mutex_lock(&m->lock);
    fill_sample(m, &m->last, m->t_last, sample);
    pthread_mutex_unlock(&m->lock);
    return MINEX_OK;
  }
  /* while monitoring: from start until now, read in this thread */
  drum_snapshot now = {0};
  int rc = drum_snapshot_read(m->root, &now);
  double t = core_wtime();
  if (rc != MINEX_OK) {
    core_error_prefix("%s", fn);
    return rc;
  }
  pthread_mutex_lock(&m->lock);
  fill_sample(m, &now, t, sample);
  pthread_mutex_unlock(&m->lock);
  drum_snapshot_free(&now);
  return MINEX_OK;
}

/* Stops and joins; MINEX_OK when not running. */
static int monitor_stop(minex_drum_monitor *m) {
  pthread_mutex_lock(&m->lock);
  if (!m->running) {
    pthread_mutex_unlock(&m->lock);
    return MINEX_OK;
  }
  m->stopping = 1;
  pthread_cond_signal(&m->wake);
  pthread_mutex_unlock(&m->lock);
  pthread_join(m->thread, NULL);
  pthread_mutex_lock(&m->lock);
  m->running = 0;
  int rc = m->err;
  pthread_mutex_unlock(&m->lock);
  if (rc != MINEX_OK)
    return core_error(rc, "minex_drum_monitor_stop: %s", m->errmsg);
  return MINEX_OK;
}

int minex_drum_monitor_stop(minex_drum_monitor *monitor) {
  core_error_clear();
  if (monitor == NULL)
    return core_error(MINEX_EINVAL, "minex_drum_monitor_stop: monitor is "
                                    "NULL");
  return monitor_stop(monitor);
}

void minex_drum_monitor_destroy(minex_drum_monitor *monitor) {
  if (monitor == NULL)
    return;
  char keep[1024];
  snprintf(keep, sizeof keep, "%s", minex_last_error());
  monitor_stop(monitor); /* its error, if any, goes with the monitor */
  core_error(MINEX_OK, "%s", keep);
  pthread_cond_destroy(&monitor->wake);
  pthread_mutex_destroy(&monitor->lock);
  drum_snapshot_free(&monitor->first);
  drum_snapshot_free(&monitor->last);
  free(monitor->root);
  free(monitor);
}

int minex_drum_probe(const char *root, double seconds,
                     minex_drum_sample *sample) {
  core_error_clear();
  const char *fn = "minex_drum_probe";
  if (sample == NULL)
    return core_error(MINEX_EINVAL, "%s: sample is NULL", fn);
  if (!isfinite(seconds) || seconds < 0 || seconds > 1e6)
    return core_error(MINEX_EINVAL, "%s: seconds = %g must be in [0, 1e6]", fn,
                      seconds);
  drum_snapshot a = {0}, b = {0};
  int rc = drum_snapshot_read(root, &a);
  double t0 = core_wtime();
  if (rc == MINEX_OK) {
    struct timespec req = to_timespec(seconds), rem;
    while (nanosleep(&req, &rem) != 0 && errno == EINTR)
      req = rem;
    rc = drum_snapshot_read(root, &b);
  }
  double t1 = core_wtime();
  if (rc == MINEX_OK)
    drum_sample_between(&a, &b, t1 - t0, 0, sample);
  else
    core_error_prefix("%s", fn);
  drum_snapshot_free(&a);
  drum_snapshot_free(&b);
  return rc;
}

static int check_reading(double x, const char *what) {
  if (!isfinite(x) || x < 0)
    return core_error(MINEX_EINVAL,
                      "minex_drum_apply_sample: sample->%s = "
                      "%g must be finite and >= 0",
                      what, x);
  return MINEX_OK;
}

/* The sample is this process's reading: with k_n processes on a node the
 * caller sums their cpu_use (the library does not use MPI) before applying
 * it. ncpus only grows: a model that gives the node more CPUs than the
 * process's affinity mask keeps its count. An unknown link capacity (0) is
 * taken from the interfaces' speeds. */
int minex_drum_apply_sample(minex_drum_model *model, int32_t node,
                            const minex_drum_sample *sample) {
  core_error_clear();
  const char *fn = "minex_drum_apply_sample";
  int rc = drum_check_node(model, node, fn);
  if (rc != MINEX_OK)
    return rc;
  const minex_drum_node *nd = &model->nodes[node];
  if (nd->type != MINEX_DRUM_COMPUTING)
    return core_error(MINEX_EINVAL, "%s: node %d (%s) is a network node", fn,
                      (int)node, nd->name);
  if (sample == NULL)
    return core_error(MINEX_EINVAL, "%s: sample is NULL", fn);
  if (sample->ncpus < 0)
    return core_error(MINEX_EINVAL, "%s: sample->ncpus = %d is negative", fn,
                      (int)sample->ncpus);
  if ((rc = check_reading(sample->cpu_use, "cpu_use")) != MINEX_OK ||
      (rc = check_reading(sample->idle, "idle")) != MINEX_OK ||
      (rc = check_reading(sample->rx_mbps, "rx_mbps")) != MINEX_OK ||
      (rc = check_reading(sample->tx_mbps, "tx_mbps")) != MINEX_OK ||
      (rc = check_reading(sample->capacity_mbps, "capacity_mbps")) != MINEX_OK)
    return rc;
  /* the traffic is checked before anything is written: the node's CPUs
     and link below must not change when the measurement is refused */
  if (!isfinite(sample->rx_mbps + sample->tx_mbps))
    return core_error(MINEX_EINVAL,
                      "%s: sample->rx_mbps + tx_mbps = %g + %g overflows", fn,
                      sample->rx_mbps, sample->tx_mbps);
  if (sample->ncpus > nd->ncpus)
    rc = minex_drum_set_cpus(model, node, sample->ncpus, nd->nprocs);
  nd = &model->nodes[node];
  if (rc == MINEX_OK && nd->parent >= 0 && nd->capacity == 0 &&
      sample->capacity_mbps > 0)
    rc = minex_drum_set_link(model, node, sample->capacity_mbps, nd->latency);
  if (rc == MINEX_OK)
    rc = minex_drum_set_measured(model, node, sample->cpu_use, sample->idle,
                                 sample->rx_mbps + sample->tx_mbps);
  if (rc != MINEX_OK)
    core_error_prefix("%s", fn);
  return rc;
}
