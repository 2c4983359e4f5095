/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Atomic output files and the counted line reader (see io_util.h). */
#define _XOPEN_SOURCE 700 /* realpath (XSI), beside _POSIX_C_SOURCE */
#include "io/io_util.h"

#include "core/core.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary's name: "<path>.tmp.<host>.<pid>.<n>". */
static void tmp_name(char *buf, size_t cap, const char *path, const char *host,
                     long pid, unsigned n) {
  snprintf(buf, cap, "%s.tmp.%s.%ld.%u", path, host, pid, n);
}

/* This machine's name, for temporaries (a shared file system may hold
 * temporaries of other hosts, whose process ids mean nothing here). */
static void host_name(char *host, size_t cap) {
  if (gethostname(host, cap) != 0 || host[0] == '\0')
    snprintf(host, cap, "localhost");
  host[cap - 1] = '\0';
  for (char *c = host; *c; c++)
    if (*c == '/' || *c == '.')
      *c = '_';
}

/* Removes the temporaries of path left by processes of this host that no
 * longer exist (killed while writing): each could be as large as the
 * output. Best effort: failures are ignored. */
static void remove_stale(const char *path, const char *host) {
  const char *slash = strrchr(path, '/');
  size_t dlen = slash ? (size_t)(slash - path) : 0;
  char dir[4096];
  if (dlen >= sizeof dir)
    return;
  if (slash) {
    memcpy(dir, path, dlen);
    dir[dlen] = '\0';
    if (dlen == 0)
      snprintf(dir, sizeof dir, "/");
  } else {
    snprintf(dir, sizeof dir, ".");
  }
  const char *base = slash ? slash + 1 : path;
  char prefix[512];
  int plen = snprintf(prefix, sizeof prefix, "%s.tmp.%s.", base, host);
  if (plen <= 0 || (size_t)plen >= sizeof prefix)
    return;
  DIR *d = opendir(dir);
  if (d == NULL)
    return;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strncmp(e->d_name, prefix, (size_t)plen) != 0)
      continue;
    char *end;
    errno = 0;
    long pid = strtol(e->d_name + plen, &end, 10);
    if (errno != 0 || pid <= 0 || *end != '.' || pid == (long)getpid())
      continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
      continue; /* alive, or not ours to judge */
    char full[4096 + 256];
    snprintf(full, sizeof full, "%s/%s", dir, e->d_name);
    unlink(full);
  }
  closedir(d);
}

static int atomic_open_tmp(io_atomic *af, const char *path, size_t n);

/* path is an existing FIFO or device: opens it for writing in place (no
 * O_TRUNC, no O_CREAT; a FIFO waits for its reader as a shell's '>'
 * does). */
static int open_in_place(io_atomic *af, const char *path, size_t n) {
  af->path = malloc(n + 1);
  if (af->path == NULL)
    return core_error(MINEX_ENOMEM, "%s: out of memory", path);
  memcpy(af->path, path, n + 1);
  int fd = open(path, O_WRONLY | O_NOCTTY);
  int e = errno;
  if (fd >= 0 && (af->fp = fdopen(fd, "w")) == NULL) {
    e = errno;
    close(fd);
  }
  if (af->fp == NULL) {
    free(af->path);
    af->path = NULL;
    return core_error(MINEX_EIO, "%s: cannot open for writing: %s", path,
                      strerror(e));
  }
  return MINEX_OK;
}

int io_atomic_open(io_atomic *af, const char *path) {
  memset(af, 0, sizeof *af);
  if (path == NULL || path[0] == '\0')
    return core_error(MINEX_EINVAL, "output path is empty");
  size_t n = strlen(path);
  /* only a regular file (or a new one) is replaced by a rename */
  struct stat st, lst;
  char *resolved = NULL;
  if (lstat(path, &lst) == 0 && !S_ISREG(lst.st_mode) && stat(path, &st) == 0) {
    if (S_ISDIR(st.st_mode))
      return core_error(MINEX_EIO, "%s: is a directory", path);
    if (!S_ISREG(st.st_mode))
      return open_in_place(af, path, n);
    /* a symbolic link to a regular file: replace the file, keep the link */
    if ((resolved = realpath(path, NULL)) == NULL)
      return open_in_place(af, path, n);
    path = resolved;
    n = strlen(path);
  }
  int rc = atomic_open_tmp(af, path, n);
  free(resolved);
  return rc;
}

/* io_atomic_open for a path that is a regular file or does not exist. */
static int atomic_open_tmp(io_atomic *af, const char *path, size_t n) {
  char host[64];
  host_name(host, sizeof host);
  remove_stale(path, host);
  size_t tcap = n + strlen(host) + 48;
  af->path = malloc(n + 1);
  af->tmp = malloc(tcap);
  if (af->path == NULL || af->tmp == NULL) {
    free(af->path);
    free(af->tmp);
    return core_error(MINEX_ENOMEM, "%s: out of memory", path);
  }
  memcpy(af->path, path, n + 1);
  /* not mkstemp: its 0600 mode would make every output private; open
     with 0666 so the user's umask applies, as for any other file */
  static _Atomic unsigned counter;
  int fd = -1, e = 0;
  for (int attempt = 0; attempt < 100 && fd < 0; attempt++) {
    tmp_name(af->tmp, tcap, path, host, (long)getpid(), counter++);
    fd = open(af->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    e = errno;
    if (fd < 0 && e != EEXIST)
      break;
  }
  if (fd < 0) {
    free(af->path);
    free(af->tmp);
    af->path = af->tmp = NULL;
    return core_error(MINEX_EIO, "%s: cannot create: %s", path, strerror(e));
  }
  af->fp = fdopen(fd, "w");
  if (af->fp == NULL) {
    close(fd);
    unlink(af->tmp);
    free(af->path);
    free(af->tmp);
    af->path = af->tmp = NULL;
    return core_error(MINEX_EIO, "%s: cannot open stream", path);
  }
  return MINEX_OK;
}

int io_atomic_commit(io_atomic *af) {
  int bad = ferror(af->fp);
  if (fflush(af->fp) != 0)
    bad = 1;
  int e = errno;
  if (fclose(af->fp) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  af->fp = NULL;
  int rc = MINEX_OK;
  if (bad) {
    if (af->tmp != NULL)
      unlink(af->tmp);
    rc = core_error(MINEX_EIO, "%s: write failed: %s", af->path, strerror(e));
  } else if (af->tmp != NULL && rename(af->tmp, af->path) != 0) {
    e = errno;
    unlink(af->tmp);
    rc = core_error(MINEX_EIO, "%s: cannot rename temporary file: %s", af->path,
                    strerror(e));
  }
  free(af->path);
  free(af->tmp);
  af->path = af->tmp = NULL;
  return rc;
}

void io_atomic_abort(io_atomic *af) {
  if (af->fp)
    fclose(af->fp);
  if (af->tmp)
    unlink(af->tmp);
  free(af->path);
  free(af->tmp);
  memset(af, 0, sizeof *af);
}

int io_reader_open(io_reader *r, const char *path) {
  memset(r, 0, sizeof *r);
  if (path == NULL)
    return core_error(MINEX_EINVAL, "input path is NULL");
  r->path = path;
  r->fp = fopen(path, "r");
  if (r->fp == NULL)
    return core_error(MINEX_EIO, "%s: cannot open: %s", path, strerror(errno));
  return MINEX_OK;
}

/* Reads more of the file into buf after the unread bytes (moved to the
 * front, the buffer doubled when they fill it). 1 bytes came, 0 end of
 * file, or an error code. */
static int reader_fill(io_reader *r) {
  if (r->pos > 0) {
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->base += (int64_t)r->pos;
    r->len -= r->pos;
    r->nul -= r->pos;
    r->pos = 0;
  }
  if (r->cap - r->len < 4096) {
    size_t cap = r->cap ? 2 * r->cap : (size_t)1 << 18;
    char *nb = realloc(r->buf, cap);
    if (nb == NULL)
      return core_error(MINEX_ENOMEM, "%s:%lld: out of memory", r->path,
                        (long long)r->lineno + 1);
    r->buf = nb;
    r->cap = cap;
  }
  ssize_t got;
  do /* IO_READER_PAD bytes kept: the NUL after a last line without
        newline, and the bytes io_parse_i64_line may load past it */
    got = read(fileno(r->fp), r->buf + r->len, r->cap - r->len - IO_READER_PAD);
  while (got < 0 && errno == EINTR);
  if (got < 0)
    return core_error(MINEX_EIO, "%s:%lld: read error: %s", r->path,
                      (long long)r->lineno + 1, strerror(errno));
  if (got == 0) {
    r->eof = 1;
    memset(r->buf + r->len, 0, IO_READER_PAD);
    return 0;
  }
  /* NUL bytes are looked for once per read, not once per line */
  if (r->nul == r->len) {
    const char *z = memchr(r->buf + r->len, '\0', (size_t)got);
    r->nul = z ? (size_t)(z - r->buf) : r->len + (size_t)got;
  }
  r->len += (size_t)got;
  memset(r->buf + r->len, 0, IO_READER_PAD); /* defined bytes to load */
  return 1;
}

/* Lines are cut in place in a buffer filled by read(2) (getline copied
 * each line out of stdio's buffer: a tenth of an ASCII mesh's read time). */
int io_reader_next(io_reader *r) {
  char *nl = NULL;
  size_t seen = 0; /* bytes after pos already searched */
  for (;;) {
    if (r->pos + seen < r->len && (nl = memchr(r->buf + r->pos + seen, '\n',
                                               r->len - r->pos - seen)) != NULL)
      break;
    seen = r->len - r->pos;
    if (r->eof)
      break;
    int rc = reader_fill(r);
    if (rc < 0)
      return rc;
  }
  if (nl == NULL && r->pos == r->len)
    return 0;
  char *line = r->buf + r->pos;
  size_t len = nl ? (size_t)(nl - line) : r->len - r->pos;
  r->lineno++;
  r->line = line;
  /* a NUL byte would silently end the line for every parser */
  if (r->nul < r->pos + len) {
    size_t col = r->nul - r->pos + 1;
    const char *z = memchr(line + col, '\0', r->len - r->pos - col);
    r->nul = z ? (size_t)(z - r->buf) : r->len;
    r->pos += len + (nl != NULL);
    return core_error(MINEX_EPARSE, "%s:%lld: NUL byte at column %zu", r->path,
                      (long long)r->lineno, col);
  }
  r->pos += len + (nl != NULL);
  line[len] = '\0'; /* the newline, or the byte kept after the data */
  while (len > 0 && line[len - 1] == '\r')
    line[--len] = '\0';
  return 1;
}

int64_t io_reader_tell(const io_reader *r) {
  return r->base + (int64_t)r->pos;
}

void io_reader_close(io_reader *r) {
  if (r->fp)
    fclose(r->fp);
  free(r->buf);
  memset(r, 0, sizeof *r);
}

/* The "C" locale, made once: newlocale is not cheap, uselocale is. */
static locale_t c_locale = (locale_t)0;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void c_locale_make(void) {
  c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

locale_t io_locale_c(void) {
  pthread_once(&c_locale_once, c_locale_make);
  if (c_locale == (locale_t)0)
    return (locale_t)0;
  return uselocale(c_locale);
}

void io_locale_restore(locale_t prev) {
  if (prev != (locale_t)0)
    uselocale(prev);
}

/* Length of the decimal token at s: [-]digits for an integer, or
 * [+-]digits[.digits][(e|E)[+-]digits] (digits on at least one side of the
 * point) for a real; 0 when s does not start with one. strtoll and strtod
 * alone would also take "+2", "0x10", "inf" and "nan". */
static size_t decimal_span(const char *s, int real) {
  const char *t = s;
  if (*t == '-' || (real && *t == '+'))
    t++;
  size_t digits = 0;
  while (isdigit((unsigned char)*t))
    t++, digits++;
  if (!real)
    return digits ? (size_t)(t - s) : 0;
  if (*t == '.')
    for (t++; isdigit((unsigned char)*t); t++)
      digits++;
  if (digits == 0)
    return 0;
  if (*t == 'e' || *t == 'E') {
    const char *x = t + 1;
    if (*x == '+' || *x == '-')
      x++;
    if (isdigit((unsigned char)*x)) {
      while (isdigit((unsigned char)*x))
        x++;
      t = x;
    }
  }
  return (size_t)(t - s);
}

/* The digits at t (at least one) as the value of a token starting at s
 * ([-]digits): v holds the value of the digits before t, n their count. */
static int i64_rest(const char *s, const char *t, uint64_t v, int n, char **end,
                    int64_t *out) {
  /* 18 digits cannot overflow; after them, |value| <= lim: INT64_MAX, or
     INT64_MAX + 1 when negative */
  uint64_t lim = (uint64_t)INT64_MAX + (*s == '-');
  for (; n < 18 && (unsigned)(*t - '0') < 10; n++, t++)
    v = 10 * v + (unsigned)(*t - '0');
  for (; *t >= '0' && *t <= '9'; t++) {
    unsigned d = (unsigned)(*t - '0');
    if (v >= lim / 10 && (v > lim / 10 || d > lim % 10))
      return -1;
    v = 10 * v + d;
  }
  if (*t != '\0' && *t != ' ' && !isspace((unsigned char)*t))
    return -1;
  if (*s != '-')
    *out = (int64_t)v;
  else
    *out = v > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)v;
  if (end)
    *end = (char *)t;
  return 0;
}

/* [-]digits in one pass (what decimal_span and strtoll accept together,
 * without strtoll's locale and errno: a third of an ASCII mesh's read
 * time); a value outside int64_t is refused, as strtoll's ERANGE was.
 * line: s is in an io_reader line, 8 bytes may be loaded at once. */
static int parse_i64(const char *s, char **end, int64_t *out, int line) {
  while (*s == ' ' || *s == '\t')
    s++;
  const char *t = s + (*s == '-');
  if (*t < '0' || *t > '9')
    return -1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ &&    \
    (defined(__GNUC__) || defined(__clang__))
  /* the first 8 bytes at once: a byte is a digit when its high nibble is 3
     and stays 3 after adding 6 (a carry out of a byte >= 0xfa reaches only
     bytes after it, past the first non-digit); the digits, moved to the
     top of the word behind zeros, make their number in three multiplies */
  if (line) {
    const uint64_t ones = 0x0101010101010101ULL;
    uint64_t w;
    memcpy(&w, t, 8);
    uint64_t bad = ((w & 0xF0 * ones) ^ 0x30 * ones) |
                   (((w + 0x06 * ones) & 0xF0 * ones) ^ 0x30 * ones);
    int n = bad ? __builtin_ctzll(bad) / 8 : 8; /* >= 1 */
    uint64_t v = (w - 0x30 * ones) << (8 * (8 - n));
    v = (v & 0x0F * ones) * 2561 >> 8;
    v = (v & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
    v = (v & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
    return i64_rest(s, t + n, (uint32_t)v, n, end, out);
  }
#else
  (void)line;
#endif
  return i64_rest(s, t, 0, 0, end, out);
}

int io_parse_i64(const char *s, char **end, int64_t *out) {
  return parse_i64(s, end, out, 0);
}

int io_parse_i64_line(const char *s, char **end, int64_t *out) {
  return parse_i64(s, end, out, 1);
}

/* m * 10^q by Clinger's fast path: m <= 2^53 and |q| <= 22 are exact
 * doubles, so the one IEEE operation m * 10^q or m / 10^-q is the
 * correctly rounded value, strtod's. 0 done, -1 not applicable. */
static int clinger(uint64_t m, int64_t q, int neg, double *out) {
#if FLT_EVAL_METHOD == 0
  static const double p10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (m > (uint64_t)1 << 53 || q < -22 || q > 22)
    return -1;
  double v = q < 0 ? (double)m / p10[-q] : (double)m * p10[q];
  *out = neg ? -v : v;
  return 0;
#else
  (void)m, (void)q, (void)neg, (void)out;
  return -1;
#endif
}

/* m * 10^n plus the number of the n digits at p (all digits): eight at a
 * time on a little-endian machine (a 64-bit load and three multiplies,
 * as in fast_float), then one by one. */
static uint64_t add_digits(uint64_t m, const char *p, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; n >= 8; n -= 8, p += 8) {
    uint64_t v;
    memcpy(&v, p, 8);
    v = (v & 0x0F0F0F0F0F0F0F0FULL) * 2561 >> 8;
    v = (v & 0x00FF00FF00FF00FFULL) * 6553601 >> 16;
    v = (v & 0x0000FFFF0000FFFFULL) * 42949672960001ULL >> 32;
    m = 100000000 * m + (uint32_t)v;
  }
#endif
  for (; n > 0; n--, p++)
    m = 10 * m + (uint64_t)(*p - '0');
  return m;
}

static int any_nonzero(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != '0')
      return 1;
  return 0;
}

/* The number of the token s (no leading blanks), as strtod
 * reads it, when one of the exact fast ways decides it: zero, Clinger's
 * fast path, Eisel-Lemire (eisel_lemire.c). The token is what
 * decimal_span(s, 1) accepts; its first 19 significant digits make m (<
 * 10^19 < 2^64), the others are dropped, so that the value lies in [m, m
 * + 1) * 10^q; when some dropped digit is not 0, m and m + 1 must give the
 * same double. Returns 0 done (*end after the token), 1 for strtod (*end
 * after the token too), -1 when s is not such a token followed by the end
 * or a blank. */
static int fast_double(const char *s, const char **end, double *out) {
  const char *t = s;
  int neg = *t == '-', trunc = 0;
  int64_t q = 0;
  if (*t == '-' || *t == '+')
    t++;
  /* integer part: leading zeros, then the significant digits */
  const char *p0 = t;
  while (*t == '0')
    t++;
  const char *ds = t;
  while ((unsigned)(*t - '0') < 10)
    t++;
  size_t nd = (size_t)(t - ds), ndig = (size_t)(t - p0),
         take = nd < 19 ? nd : 19;
  uint64_t m = add_digits(0, ds, take);
  if (nd > take) {
    q += (int64_t)(nd - take);
    trunc = any_nonzero(ds + take, nd - take);
    nd = take;
  }
  if (*t == '.') {
    const char *f0 = ++t;
    if (nd == 0) { /* zeros after the point, before any significant one */
      while (*t == '0')
        t++;
      q -= t - f0;
    }
    const char *fs = t;
    while ((unsigned)(*t - '0') < 10)
      t++;
    size_t nf = (size_t)(t - fs);
    ndig += (size_t)(t - f0);
    take = nf < 19 - nd ? nf : 19 - nd;
    m = add_digits(m, fs, take);
    q -= (int64_t)take;
    if (nf > take)
      trunc |= any_nonzero(fs + take, nf - take);
  }
  if (ndig == 0)
    return -1;
  if (*t == 'e' || *t == 'E') { /* an exponent only when digits follow */
    const char *x = t + 1;
    int eneg = *x == '-';
    if (*x == '-' || *x == '+')
      x++;
    if (*x >= '0' && *x <= '9') {
      int64_t e = 0;
      for (; *x >= '0' && *x <= '9'; x++)
        if (e < 1000000) /* beyond any double either way */
          e = 10 * e + (*x - '0');
      q += eneg ? -e : e;
      t = x;
    }
  }
  if (*t != '\0' && *t != ' ' && !isspace((unsigned char)*t))
    return -1;
  *end = t;
  if (m == 0) {
    *out = neg ? -0.0 : 0.0;
    return 0;
  }
  if (!trunc && clinger(m, q, neg, out) == 0)
    return 0;
  double lo, hi;
  if (io_eisel_lemire(m, q, neg, &lo) != 0)
    return 1;
  if (trunc && (io_eisel_lemire(m + 1, q, neg, &hi) != 0 || hi != lo))
    return 1;
  *out = lo;
  return 0;
}

int io_parse_double(const char *s, char **end, double *out) {
  while (*s == ' ' || *s == '\t')
    s++;
  const char *stop;
  int fast = fast_double(s, &stop, out);
  if (fast <= 0) {
    if (fast == 0 && end)
      *end = (char *)stop;
    return fast;
  }
  char *e;
  locale_t prev = io_locale_c();
  errno = 0;
  double v = strtod(s, &e);
  int err = errno;
  io_locale_restore(prev);
  /* ERANGE: overflow, or underflow to a subnormal or zero; subnormals
     are finite doubles and kept, a non-zero token read as 0 is not */
  if (e != stop || !isfinite(v) ||
      (err == ERANGE && (v == 0 || fabs(v) >= DBL_MIN)))
    return -1;
  *out = v;
  if (end)
    *end = e;
  return 0;
}

const char *io_number_problem(const char *s, int real) {
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s == '+' && !real)
    return "has a '+' sign";
  const char *d = s + (*s == '-' || *s == '+');
  if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
    return "is hexadecimal (only decimal numbers are read)";
  size_t span = decimal_span(s, real);
  if (span == 0)
    return real ? "is not a decimal number" : "is not a decimal integer";
  if (s[span] != '\0' && !isspace((unsigned char)s[span]))
    return "has trailing characters";
  locale_t prev = io_locale_c();
  errno = 0;
  double v = strtod(s, NULL);
  int err = errno;
  io_locale_restore(prev);
  if (!isfinite(v) || (err == ERANGE && fabs(v) >= DBL_MIN))
    return "is out of range";
  if (!real && err == 0 && fabs(v) > 9.2e18)
    return "is out of range";
  if (err == ERANGE)
    return "underflows to zero";
  return "is malformed";
}

int io_rest_blank(const char *s) {
  while (*s)
    if (!isspace((unsigned char)*s++))
      return 0;
  return 1;
}

int io_format_double(char *buf, size_t cap, double w) {
  /* integers take the fast path: METIS weights are nearly always integral */
  if (w == floor(w) && fabs(w) <= 9007199254740992.0) {
    char tmp[24];
    int n = 0, len = 0;
    long long v = (long long)w;
    unsigned long long u =
        v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
      tmp[n++] = (char)('0' + (int)(u % 10));
      u /= 10;
    } while (u > 0);
    if (v < 0)
      buf[len++] = '-';
    while (n > 0)
      buf[len++] = tmp[--n];
    buf[len] = '\0';
    return len;
  }
  int len = 0;
  locale_t prev = io_locale_c();
  for (int prec = 15; prec <= 17; prec++) {
    len = snprintf(buf, cap, "%.*g", prec, w);
    if (prec == 17 || strtod(buf, NULL) == w)
      break;
  }
  io_locale_restore(prev);
  return len;
}
