/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Snapshots of the Linux kernel statistics that DRUM's monitors read
 * (Faik's thesis §3.1.1: commInterface and cpuMemory objects; app. A,
 * DRUM_cpuMonitor, DRUM_memoryMonitor, DRUM_interface), and the readings
 * between two snapshots (§3.1.2.1: u_{n,j} and the idle fractions i_t).
 * Internal: the monitor thread, minex_drum_probe and the tests use it. */
#ifndef MINEX_COSTMODEL_DRUM_PROCFS_H
#define MINEX_COSTMODEL_DRUM_PROCFS_H

#include "core/rename.h"

#include "core/core.h"
#include "minex_drum.h"

#include <stdint.h>

/* One cpuN line of proc/stat. */
typedef struct drum_cpu {
  int32_t id;     /* N of the cpuN line                                   */
  int allowed;    /* 1: N is in Cpus_allowed_list (all CPUs when the
                     process's status file or the line is missing)        */
  uint64_t idle;  /* idle + iowait ticks                                  */
  uint64_t total; /* user+nice+system+idle+iowait+irq+softirq+steal ticks
                     (guest time is already inside user and nice)         */
} drum_cpu;

/* One non-loopback interface of proc/net/dev. */
typedef struct drum_netif {
  char name[32];   /* interface name, as in proc/net/dev                  */
  uint64_t rx, tx; /* bytes received and sent since boot                  */
  double speed;    /* sys/class/net/NAME/speed, Mbit/s; 0: unknown        */
} drum_netif;

/* The kernel's counters at one moment, read under a root directory. */
typedef struct drum_snapshot {
  double proc_seconds;      /* utime+stime of the process, seconds         */
  int32_t ncpus;            /* cpuN lines of proc/stat (online CPUs)       */
  int32_t nallowed;         /* of these, CPUs the process may run on (>=1) */
  drum_cpu *cpus;           /* ncpus, in file order                        */
  int32_t nifs;             /* non-loopback interfaces                     */
  drum_netif *ifs;          /* nifs, in file order                         */
  double mem_total_mib;     /* proc/meminfo MemTotal / 1024; 0: unknown    */
  double mem_available_mib; /* MemAvailable / 1024; 0: unknown             */
  double loadavg[3];        /* proc/loadavg 1, 5, 15 min; 0: unknown       */
} drum_snapshot;

/* Frees the arrays of s and zeroes it (s may be zeroed already). */
void drum_snapshot_free(drum_snapshot *s);

/* Reads the counters under root (NULL, "" or "/": the live system):
 * proc/self/stat and proc/stat (required: missing -> MINEX_EIO naming the
 * path), proc/self/status, proc/net/dev, sys/class/net/IF/speed,
 * proc/meminfo, proc/loadavg (optional: missing -> unknown). Malformed
 * content -> MINEX_EPARSE "path:line: ...". s must be zeroed or hold a
 * snapshot, whose arrays are freed first; on error s is left zeroed. */
int drum_snapshot_read(const char *root, drum_snapshot *s);

/* Readings between snapshots a (earlier) and b, `seconds` of wall time
 * apart, of which own_cpu_seconds were spent by the monitor thread itself.
 * Pure; never fails. Counters that decreased (wrap-around, reset) give 0
 * for that CPU, interface or the process; rates are 0 when seconds <= 0.
 * ncpus, capacity, memory and load come from b; CPUs and interfaces are
 * matched by id and name. Sets nsamples = 1 and the deviations to 0. */
void drum_sample_between(const drum_snapshot *a, const drum_snapshot *b,
                         double seconds, double own_cpu_seconds,
                         minex_drum_sample *out);

#endif
