/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared I/O helpers: atomic output files (temp file + rename, so a failure
 * never leaves a truncated target; a FIFO or a device is written in place)
 * and a line reader that counts lines for "path:line: what" messages. Used
 * by src/io and src/mesh. */
#ifndef MINEX_IO_UTIL_H
#define MINEX_IO_UTIL_H

#include "core/rename.h"

#include <locale.h>
#include <stdint.h>
#include <stdio.h>

typedef struct io_atomic {
  FILE *fp;   /* write here                                    */
  char *path; /* final path                                    */
  char *tmp;  /* temporary path in the same directory; NULL when
                 path is written in place                      */
} io_atomic;

/* Opens a temporary file beside path, "<path>.tmp.<host>.<pid>.<n>", after
 * removing the temporaries of path that processes of this host which no
 * longer exist left behind (a writer killed mid-write). When path exists
 * and is not a regular file (a FIFO, a character or block device such as
 * /dev/null or /dev/stdout), it is opened for writing in place instead:
 * renaming onto it would replace the FIFO or device node with a regular
 * file. A directory is refused. MINEX_OK or MINEX_EIO (message). */
int io_atomic_open(io_atomic *af, const char *path);
/* Flushes, closes and renames onto the final path (in place: flushes and
 * closes); on any failure removes the temporary and returns MINEX_EIO. */
int io_atomic_commit(io_atomic *af);
/* Closes and removes the temporary (after a failed write). */
void io_atomic_abort(io_atomic *af);

#define IO_READER_PAD 16
typedef struct io_reader {
  FILE *fp;         /* input, read through its descriptor (read(2))  */
  const char *path; /* for messages                                  */
  char *line;       /* current line (inside buf), NUL-terminated     */
  int64_t lineno;   /* 1-based number of the current line            */
  char *buf;        /* bytes read: buf[pos, len) not yet returned    */
  size_t cap, pos, len;
  size_t nul;   /* index of the first NUL byte in buf[pos, len), or len */
  int64_t base; /* file offset of buf[0] */
  int eof;
} io_reader;

/* Opens path for reading. MINEX_OK or MINEX_EIO. */
int io_reader_open(io_reader *r, const char *path);
/* Reads the next line into r->line (newline stripped). Returns 1 when a
 * line was read, 0 at end of file, MINEX_EIO on a read error, MINEX_EPARSE
 * when the line holds a NUL byte (which would silently cut it short). */
int io_reader_next(io_reader *r);
/* File offset of the byte after the current line (its newline included). */
int64_t io_reader_tell(const io_reader *r);
void io_reader_close(io_reader *r);

/* Number text is locale-independent: the library reads and writes '.' as
 * the decimal point even when the host program has called setlocale with a
 * decimal-comma locale. io_locale_c switches the calling thread (only) to
 * the "C" locale, made once per process, and returns the thread's previous
 * locale for io_locale_restore; pairs nest. Wrap every printf/strtod of a
 * number that goes into or comes from a file in such a pair (the helpers
 * below already are). Should the "C" locale object not be made (out of
 * memory), both are no-ops and numbers follow LC_NUMERIC. */
locale_t io_locale_c(void);
void io_locale_restore(locale_t prev);

/* Strict decimal number parsing: the whole token must be consumed; no
 * hexadecimal, no inf/nan words, no '+' on integers. Each returns 0 on
 * success, -1 on a malformed or out-of-range token (subnormal doubles are
 * in range); *end (may be NULL) receives the position after the token.
 * Leading blanks are skipped. */
int io_parse_i64(const char *s, char **end, int64_t *out);
/* io_parse_i64 for s inside the current line of an io_reader, which may
 * load up to 8 bytes at once past the token (the reader keeps
 * IO_READER_PAD defined bytes after the end of its data). */
int io_parse_i64_line(const char *s, char **end, int64_t *out);
int io_parse_double(const char *s, char **end, double *out);
/* m * 10^q (q an integer, m < 2^64), negated when neg, as the correctly
 * rounded double, by the Eisel-Lemire algorithm (eisel_lemire.c): 0 done,
 * -1 when it cannot decide or the result would not be a normal double or
 * zero (then strtod's is the answer). */
int io_eisel_lemire(uint64_t m, int64_t q, int neg, double *out);
/* Why the token at s is not a number that io_parse_i64 (real = 0) or
 * io_parse_double (real = 1) accepts: a static phrase for messages ("is
 * hexadecimal (only decimal numbers are read)", "is out of range", ...). */
const char *io_number_problem(const char *s, int real);
/* 1 when only blanks remain from s on. */
int io_rest_blank(const char *s);

/* Writes w into buf (cap >= 32) as the shortest text that reads back to
 * the same double: integral values up to 2^53 as plain integers, others
 * with the fewest of 15..17 significant digits ('.' as decimal point
 * whatever the locale). Returns the length. */
int io_format_double(char *buf, size_t cap, double w);

#endif
