/* Atomic output files and the counted line reader (see io_util.h). */
#include "io/io_util.h"

#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int io_atomic_open(io_atomic *af, const char *path) {
  memset(af, 0, sizeof *af);
  if (path == NULL || path[0] == '\0')
    return core_error(MINEX_EINVAL, "output path is empty");
  size_t n = strlen(path);
  af->path = malloc(n + 1);
  af->tmp = malloc(n + 40);
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
    snprintf(af->tmp, n + 40, "%s.tmp.%ld.%u", path, (long)getpid(),
             counter++);
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
    unlink(af->tmp);
    rc = core_error(MINEX_EIO, "%s: write failed: %s", af->path,
                    strerror(e));
  } else if (rename(af->tmp, af->path) != 0) {
    e = errno;
    unlink(af->tmp);
    rc = core_error(MINEX_EIO, "%s: cannot rename temporary file: %s",
                    af->path, strerror(e));
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
    return core_error(MINEX_EIO, "%s: cannot open: %s", path,
                      strerror(errno));
  return MINEX_OK;
}

int io_reader_next(io_reader *r) {
  errno = 0;
  ssize_t len = getline(&r->line, &r->cap, r->fp);
  if (len < 0) {
    /* getline reports a failed allocation of its buffer with ENOMEM and
       without setting the stream's error flag: not an end of file */
    if (errno == ENOMEM)
      return core_error(MINEX_ENOMEM, "%s:%lld: out of memory", r->path,
                        (long long)r->lineno + 1);
    if (ferror(r->fp))
      return core_error(MINEX_EIO, "%s:%lld: read error: %s", r->path,
                        (long long)r->lineno + 1, strerror(errno));
    return 0;
  }
  r->lineno++;
  while (len > 0 && (r->line[len - 1] == '\n' || r->line[len - 1] == '\r'))
    r->line[--len] = '\0';
  return 1;
}

void io_reader_close(io_reader *r) {
  if (r->fp)
    fclose(r->fp);
  free(r->line);
  memset(r, 0, sizeof *r);
}

int io_parse_i64(const char *s, char **end, int64_t *out) {
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s == '\0')
    return -1;
  char *e;
  errno = 0;
  long long v = strtoll(s, &e, 10);
  if (e == s || errno == ERANGE)
    return -1;
  if (*e != '\0' && !isspace((unsigned char)*e))
    return -1;
  *out = (int64_t)v;
  if (end)
    *end = e;
  return 0;
}

int io_parse_double(const char *s, char **end, double *out) {
  while (*s == ' ' || *s == '\t')
    s++;
  if (*s == '\0')
    return -1;
  char *e;
  errno = 0;
  double v = strtod(s, &e);
  if (e == s || errno == ERANGE || !isfinite(v))
    return -1;
  if (*e != '\0' && !isspace((unsigned char)*e))
    return -1;
  *out = v;
  if (end)
    *end = e;
  return 0;
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
  for (int prec = 15; prec <= 17; prec++) {
    len = snprintf(buf, cap, "%.*g", prec, w);
    if (prec == 17 || strtod(buf, NULL) == w)
      break;
  }
  return len;
}
