/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Linux kernel statistics for DRUM's cpuMemory and commInterface monitors
 * (Faik's thesis §3.1.1, app. A): one snapshot of proc/ and sys/ under a
 * root directory, and the readings between two snapshots (§3.1.2.1). */
#include "drum/drum_procfs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { PATH_CAP = 4096, FILE_MAX = 64 << 20 };

/* ------------------------------------------------------------ file text */

/* root + "/" + rel; the live system for NULL, "" and "/". */
static int join_path(const char *root, const char *rel, char *out) {
  int n;
  if (root == NULL || root[0] == '\0' || strcmp(root, "/") == 0)
    n = snprintf(out, PATH_CAP, "/%s", rel);
  else
    n = snprintf(out, PATH_CAP, "%s%s%s", root,
                 root[strlen(root) - 1] == '/' ? "" : "/", rel);
  if (n < 0 || n >= PATH_CAP)
    return core_error(MINEX_EINVAL, "drum monitor: root '%s' is too long",
                      root);
  return MINEX_OK;
}

/* Whole file as a NUL-terminated string in *text (malloc'd). Kernel files
 * report size 0, so read until end of file. When optional, any failure to
 * open or read means "unknown": *text = NULL and MINEX_OK. */
static int slurp(const char *path, int optional, char **text) {
  *text = NULL;
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    if (optional)
      return MINEX_OK;
    char msg[128] = "";
    strerror_r(errno, msg, sizeof msg);
    return core_error(MINEX_EIO, "%s: cannot open: %s", path, msg);
  }
  size_t cap = 4096, len = 0;
  char *buf = malloc(cap);
  int rc = buf ? MINEX_OK : core_error(MINEX_ENOMEM, "%s: out of memory", path);
  while (rc == MINEX_OK) {
    if (len + 1 == cap) {
      char *nb = cap < FILE_MAX ? realloc(buf, cap * 2) : NULL;
      if (nb == NULL) {
        rc = core_error(MINEX_ENOMEM, "%s: out of memory (or over %d MiB)",
                        path, FILE_MAX >> 20);
        break;
      }
      buf = nb;
      cap *= 2;
    }
    size_t got = fread(buf + len, 1, cap - 1 - len, f);
    len += got;
    if (got == 0) {
      if (ferror(f)) {
        int e = errno;
        if (optional) {
          free(buf);
          buf = NULL;
        } else {
          char msg[128] = "";
          strerror_r(e, msg, sizeof msg);
          rc = core_error(MINEX_EIO, "%s: cannot read: %s", path, msg);
        }
      }
      break;
    }
  }
  fclose(f);
  if (rc != MINEX_OK) {
    free(buf);
    return rc;
  }
  if (buf != NULL)
    buf[len] = '\0';
  *text = buf;
  return MINEX_OK;
}

/* Splits the text at '\n': returns the next line (NUL-terminated in
 * place) and advances *p, or NULL at the end. */
static char *next_line(char **p, int *lineno) {
  char *s = *p;
  if (s == NULL || *s == '\0')
    return NULL;
  char *nl = strchr(s, '\n');
  if (nl != NULL) {
    *nl = '\0';
    *p = nl + 1;
  } else {
    *p = s + strlen(s);
  }
  (*lineno)++;
  return s;
}

static const char *skip_blank(const char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  return s;
}

static int is_digit(char c) {
  return c >= '0' && c <= '9';
}
static int is_end(char c) {
  return c == '\0' || c == ' ' || c == '\t' || c == '\n';
}
/* Nothing but blanks and newlines from s on. */
static int only_space(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
    s++;
  return *s == '\0';
}

/* Unsigned decimal token at *s (after blanks), ending at a blank or the
 * end; rejects signs, suffixes ("12x") and overflow. */
static int parse_u64(const char **s, uint64_t *v) {
  const char *p = skip_blank(*s);
  if (!is_digit(*p))
    return 0;
  uint64_t x = 0;
  for (; is_digit(*p); p++) {
    unsigned d = (unsigned)(*p - '0');
    if (x > (UINT64_MAX - d) / 10)
      return 0;
    x = 10 * x + d;
  }
  if (!is_end(*p))
    return 0;
  *v = x;
  *s = p;
  return 1;
}

/* Non-negative decimal "12", "0.75" (no exponent; independent of the
 * locale, which may use a decimal comma). */
static int parse_decimal(const char **s, double *v) {
  const char *p = skip_blank(*s);
  if (!is_digit(*p))
    return 0;
  double x = 0, scale = 1;
  for (; is_digit(*p); p++)
    x = 10 * x + (*p - '0');
  if (*p == '.')
    for (p++; is_digit(*p); p++)
      x += (*p - '0') * (scale /= 10);
  if (!is_end(*p) || !isfinite(x))
    return 0;
  *v = x;
  *s = p;
  return 1;
}

/* Line number (1-based) of position pos in text. */
static int line_of(const char *text, const char *pos) {
  int line = 1;
  for (const char *c = text; c < pos; c++)
    line += *c == '\n';
  return line;
}

/* ---------------------------------------------------------- the parsers */

/* proc/self/stat: "pid (comm) state ppid ... utime stime ...". comm may
 * hold blanks, ')' and even newlines, so fields are counted after the
 * last ')': state is field 3, utime 14 and stime 15 (proc(5)). */
static int parse_self_stat(const char *path, const char *text,
                           double *seconds) {
  const char *p = strrchr(text, ')');
  if (p == NULL)
    return core_error(MINEX_EPARSE, "%s:1: no ')' closing the command name",
                      path);
  p++;
  for (int field = 3; field < 14; field++) {
    p = skip_blank(p);
    if (is_end(*p))
      return core_error(MINEX_EPARSE,
                        "%s:%d: truncated: ends at field %d, "
                        "before utime (14) and stime (15)",
                        path, line_of(text, p), field);
    while (!is_end(*p))
      p++;
  }
  uint64_t ticks[2];
  for (int k = 0; k < 2; k++) {
    const char *at = skip_blank(p);
    if (!parse_u64(&p, &ticks[k]))
      return core_error(MINEX_EPARSE,
                        "%s:%d: field %d (%s) is not a "
                        "non-negative integer",
                        path, line_of(text, at), 14 + k, k ? "stime" : "utime");
  }
  long hz = sysconf(_SC_CLK_TCK);
  if (hz <= 0)
    hz = 100;
  *seconds = (double)(ticks[0] + ticks[1]) / (double)hz;
  return MINEX_OK;
}

/* proc/stat: the cpuN lines (the "cpu" total line and the rest skipped). */
static int parse_stat(const char *path, char *text, drum_snapshot *s) {
  int32_t cap = 0;
  char *cur = text, *line;
  int ln = 0;
  while ((line = next_line(&cur, &ln)) != NULL) {
    if (strncmp(line, "cpu", 3) != 0 || !is_digit(line[3]))
      continue;
    const char *p = line + 3;
    uint64_t id = 0;
    while (is_digit(*p) && id < (1u << 24))
      id = 10 * id + (uint64_t)(*p++ - '0');
    if (!is_end(*p) || id >= (1u << 24))
      return core_error(MINEX_EPARSE, "%s:%d: bad CPU name '%.20s'", path, ln,
                        line);
    uint64_t v[10];
    int n = 0;
    for (;;) {
      p = skip_blank(p);
      if (*p == '\0')
        break;
      if (n == 10 || !parse_u64(&p, &v[n]))
        return core_error(MINEX_EPARSE,
                          "%s:%d: cpu%d: counter %d is not a "
                          "non-negative integer",
                          path, ln, (int)id, n + 1);
      n++;
    }
    if (n < 4)
      return core_error(MINEX_EPARSE,
                        "%s:%d: cpu%d: truncated line, %d "
                        "counters where user nice system idle are needed",
                        path, ln, (int)id, n);
    if (s->ncpus == cap) {
      cap = cap ? 2 * cap : 16;
      drum_cpu *c = realloc(s->cpus, sizeof *c * (size_t)cap);
      if (c == NULL)
        return core_error(MINEX_ENOMEM, "%s: out of memory", path);
      s->cpus = c;
    }
    drum_cpu *c = &s->cpus[s->ncpus++];
    c->id = (int32_t)id;
    c->allowed = 1;
    c->idle = v[3] + (n > 4 ? v[4] : 0);
    c->total = 0;
    for (int k = 0; k < n && k < 8; k++)
      c->total += v[k];
  }
  if (s->ncpus == 0)
    return core_error(MINEX_EPARSE, "%s:%d: no cpuN lines", path, ln);
  return MINEX_OK;
}

/* proc/self/status: Cpus_allowed_list "0-3,8,10-11" marks the CPUs the
 * process may run on. Without the file or the line all CPUs count. */
static int parse_status(const char *path, char *text, drum_snapshot *s) {
  static const char key[] = "Cpus_allowed_list:";
  char *cur = text, *line;
  int ln = 0;
  while ((line = next_line(&cur, &ln)) != NULL)
    if (strncmp(line, key, sizeof key - 1) == 0)
      break;
  if (line == NULL)
    return MINEX_OK;
  for (int32_t i = 0; i < s->ncpus; i++)
    s->cpus[i].allowed = 0;
  const char *p = line + sizeof key - 1;
  int items = 0;
  for (;;) {
    uint64_t lo, hi;
    p = skip_blank(p);
    if (*p == '\0' && items > 0)
      break;
    /* parse_u64 wants a blank after the number; ranges use '-' and ',' */
    char num[24];
    size_t k = 0;
    while (is_digit(*p) && k + 1 < sizeof num)
      num[k++] = *p++;
    num[k] = '\0';
    const char *q = num;
    int ok = k > 0 && parse_u64(&q, &lo);
    hi = lo = ok ? lo : 0;
    if (ok && *p == '-') {
      p++;
      k = 0;
      while (is_digit(*p) && k + 1 < sizeof num)
        num[k++] = *p++;
      num[k] = '\0';
      q = num;
      ok = k > 0 && parse_u64(&q, &hi) && hi >= lo;
    }
    p = skip_blank(p);
    if (!ok || (*p != ',' && *p != '\0'))
      return core_error(MINEX_EPARSE,
                        "%s:%d: Cpus_allowed_list: expected "
                        "a list like 0-3,8 near '%.20s'",
                        path, ln, p);
    for (int32_t i = 0; i < s->ncpus; i++)
      if ((uint64_t)s->cpus[i].id >= lo && (uint64_t)s->cpus[i].id <= hi)
        s->cpus[i].allowed = 1;
    items++;
    if (*p == ',')
      p++;
  }
  return MINEX_OK;
}

/* sys/class/net/NAME/speed in Mbit/s: missing, unreadable (virtual
 * interfaces fail the read with EINVAL) or negative (-1) is unknown. */
static int read_speed(const char *root, const char *name, double *speed) {
  *speed = 0;
  if (strchr(name, '/') != NULL || strcmp(name, ".") == 0 ||
      strcmp(name, "..") == 0)
    return MINEX_OK;
  char rel[96], path[PATH_CAP];
  snprintf(rel, sizeof rel, "sys/class/net/%s/speed", name);
  int rc = join_path(root, rel, path);
  char *text = NULL;
  if (rc == MINEX_OK)
    rc = slurp(path, 1, &text);
  if (rc != MINEX_OK || text == NULL)
    return rc;
  const char *p = skip_blank(text);
  int neg = *p == '-';
  uint64_t v = 0;
  p += neg;
  if (!parse_u64(&p, &v) || !only_space(p)) {
    rc = core_error(MINEX_EPARSE, "%s:1: '%.20s' is not a speed in Mbit/s",
                    path, text);
  } else if (!neg) {
    *speed = (double)v;
  }
  free(text);
  return rc;
}

/* proc/net/dev: two header lines (with '|'), then "name: rx_bytes
 * rx_packets ... (8 receive counters) tx_bytes ...". lo is skipped. */
static int parse_net_dev(const char *root, const char *path, char *text,
                         drum_snapshot *s) {
  int32_t cap = 0;
  char *cur = text, *line;
  int ln = 0;
  while ((line = next_line(&cur, &ln)) != NULL) {
    if (strchr(line, '|') != NULL || *skip_blank(line) == '\0')
      continue;
    char *colon = strchr(line, ':');
    const char *name = skip_blank(line);
    if (colon == NULL || colon == name)
      return core_error(MINEX_EPARSE,
                        "%s:%d: expected 'interface: "
                        "counters'",
                        path, ln);
    char *e = colon;
    while (e > name && (e[-1] == ' ' || e[-1] == '\t'))
      e--;
    size_t len = (size_t)(e - name);
    if (len >= sizeof s->ifs[0].name)
      return core_error(MINEX_EPARSE,
                        "%s:%d: interface name longer than "
                        "%d characters",
                        path, ln, (int)sizeof s->ifs[0].name - 1);
    uint64_t v[16];
    int n = 0;
    const char *p = colon + 1;
    for (;;) {
      p = skip_blank(p);
      if (*p == '\0')
        break;
      if (n == 16 || !parse_u64(&p, &v[n]))
        return core_error(MINEX_EPARSE,
                          "%s:%d: counter %d is not a "
                          "non-negative integer",
                          path, ln, n + 1);
      n++;
    }
    if (n < 9)
      return core_error(MINEX_EPARSE,
                        "%s:%d: truncated line, %d counters "
                        "(transmitted bytes is the 9th)",
                        path, ln, n);
    if (len == 2 && strncmp(name, "lo", 2) == 0)
      continue;
    if (s->nifs == cap) {
      cap = cap ? 2 * cap : 8;
      drum_netif *f = realloc(s->ifs, sizeof *f * (size_t)cap);
      if (f == NULL)
        return core_error(MINEX_ENOMEM, "%s: out of memory", path);
      s->ifs = f;
    }
    drum_netif *f = &s->ifs[s->nifs++];
    memcpy(f->name, name, len);
    f->name[len] = '\0';
    f->rx = v[0];
    f->tx = v[8];
    int rc = read_speed(root, f->name, &f->speed);
    if (rc != MINEX_OK)
      return rc;
  }
  return MINEX_OK;
}

/* proc/meminfo: MemTotal and MemAvailable, "Key:   123456 kB". */
static int parse_meminfo(const char *path, char *text, drum_snapshot *s) {
  char *cur = text, *line;
  int ln = 0;
  while ((line = next_line(&cur, &ln)) != NULL) {
    double *dst = NULL;
    const char *p = NULL;
    if (strncmp(line, "MemTotal:", 9) == 0)
      dst = &s->mem_total_mib, p = line + 9;
    else if (strncmp(line, "MemAvailable:", 13) == 0)
      dst = &s->mem_available_mib, p = line + 13;
    if (dst == NULL)
      continue;
    uint64_t kb;
    if (!parse_u64(&p, &kb))
      return core_error(MINEX_EPARSE,
                        "%s:%d: '%.40s': expected a size in "
                        "kB",
                        path, ln, line);
    p = skip_blank(p);
    if (*p != '\0' && strcmp(p, "kB") != 0)
      return core_error(MINEX_EPARSE,
                        "%s:%d: '%.40s': unit '%.8s' is not "
                        "kB",
                        path, ln, line, p);
    *dst = (double)kb / 1024.0;
  }
  return MINEX_OK;
}

/* proc/loadavg: "0.72 1.05 1.28 2/85 4353"; the first three numbers. */
static int parse_loadavg(const char *path, const char *text, drum_snapshot *s) {
  const char *p = text;
  for (int k = 0; k < 3; k++)
    if (!parse_decimal(&p, &s->loadavg[k]))
      return core_error(MINEX_EPARSE,
                        "%s:1: load average %d is not a "
                        "non-negative number",
                        path, k + 1);
  return MINEX_OK;
}

/* ------------------------------------------------------------- snapshot */

void drum_snapshot_free(drum_snapshot *s) {
  if (s == NULL)
    return;
  free(s->cpus);
  free(s->ifs);
  memset(s, 0, sizeof *s);
}

/* Reads root/rel (optional or not) and hands the text to one parser. */
static int read_one(const char *root, const char *rel, int optional,
                    drum_snapshot *s, int which) {
  char path[PATH_CAP];
  char *text = NULL;
  int rc = join_path(root, rel, path);
  if (rc == MINEX_OK)
    rc = slurp(path, optional, &text);
  if (rc != MINEX_OK || text == NULL)
    return rc;
  switch (which) {
  case 0:
    rc = parse_self_stat(path, text, &s->proc_seconds);
    break;
  case 1:
    rc = parse_stat(path, text, s);
    break;
  case 2:
    rc = parse_status(path, text, s);
    break;
  case 3:
    rc = parse_net_dev(root, path, text, s);
    break;
  case 4:
    rc = parse_meminfo(path, text, s);
    break;
  default:
    rc = parse_loadavg(path, text, s);
    break;
  }
  free(text);
  return rc;
}

int drum_snapshot_read(const char *root, drum_snapshot *s) {
  drum_snapshot_free(s);
  static const struct {
    const char *rel;
    int optional;
  } files[] = {{"proc/self/stat", 0},   {"proc/stat", 0},
               {"proc/self/status", 1}, {"proc/net/dev", 1},
               {"proc/meminfo", 1},     {"proc/loadavg", 1}};
  int rc = MINEX_OK;
  for (int k = 0; k < 6 && rc == MINEX_OK; k++)
    rc = read_one(root, files[k].rel, files[k].optional, s, k);
  if (rc == MINEX_OK) {
    for (int32_t i = 0; i < s->ncpus; i++)
      s->nallowed += s->cpus[i].allowed;
    if (s->nallowed == 0) {
      char path[PATH_CAP];
      join_path(root, "proc/self/status", path);
      rc = core_error(MINEX_EPARSE,
                      "%s: Cpus_allowed_list names none of "
                      "the %d CPUs of proc/stat",
                      path, (int)s->ncpus);
    }
  }
  if (rc != MINEX_OK)
    drum_snapshot_free(s);
  return rc;
}

/* ------------------------------------------------------------- readings */

/* b - a, or 0 when the counter went backwards (wrap-around or reset). */
static double delta(uint64_t a, uint64_t b) {
  return b >= a ? (double)(b - a) : 0.0;
}

void drum_sample_between(const drum_snapshot *a, const drum_snapshot *b,
                         double seconds, double own_cpu_seconds,
                         minex_drum_sample *out) {
  memset(out, 0, sizeof *out);
  int timed = isfinite(seconds) && seconds > 0;
  out->seconds = timed ? seconds : 0;
  out->ncpus = b->nallowed;
  out->ncpus_online = b->ncpus;
  if (timed && b->proc_seconds >= a->proc_seconds) {
    double own = isfinite(own_cpu_seconds) ? own_cpu_seconds : 0;
    out->cpu_use =
        fmax(0.0, (b->proc_seconds - a->proc_seconds - own) / seconds);
  }
  /* CPU N of b matched in a by id; usually at the same index */
  for (int32_t i = 0; i < b->ncpus; i++) {
    const drum_cpu *cb = &b->cpus[i], *ca = NULL;
    if (i < a->ncpus && a->cpus[i].id == cb->id)
      ca = &a->cpus[i];
    for (int32_t j = 0; ca == NULL && j < a->ncpus; j++)
      if (a->cpus[j].id == cb->id)
        ca = &a->cpus[j];
    if (ca == NULL || cb->total <= ca->total || cb->idle < ca->idle)
      continue;
    double frac =
        fmin(1.0, delta(ca->idle, cb->idle) / delta(ca->total, cb->total));
    out->idle_all += frac;
    if (cb->allowed)
      out->idle += frac;
  }
  for (int32_t i = 0; i < b->nifs; i++) {
    const drum_netif *fb = &b->ifs[i], *fa = NULL;
    out->capacity_mbps += fb->speed;
    if (i < a->nifs && strcmp(a->ifs[i].name, fb->name) == 0)
      fa = &a->ifs[i];
    for (int32_t j = 0; fa == NULL && j < a->nifs; j++)
      if (strcmp(a->ifs[j].name, fb->name) == 0)
        fa = &a->ifs[j];
    if (fa == NULL || !timed)
      continue;
    out->rx_mbps += delta(fa->rx, fb->rx) * 8e-6 / seconds;
    out->tx_mbps += delta(fa->tx, fb->tx) * 8e-6 / seconds;
  }
  out->mem_total_mib = b->mem_total_mib;
  out->mem_available_mib = b->mem_available_mib;
  for (int k = 0; k < 3; k++)
    out->loadavg[k] = b->loadavg[k];
  out->nsamples = 1;
}
