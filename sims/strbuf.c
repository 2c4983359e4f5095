/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Growable text buffer (see strbuf.h). */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void strbuf_printf(strbuf *b, const char *fmt, ...) {
  if (b->failed)
    return;
  for (;;) {
    size_t room = b->cap - b->len;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? room : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
      b->failed = 1;
      return;
    }
    if (b->s != NULL && (size_t)k < room) {
      b->len += (size_t)k;
      return;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len <= (size_t)k)
      cap *= 2;
    char *s = realloc(b->s, cap);
    if (s == NULL) {
      b->failed = 1;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
}

void strbuf_free(strbuf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
  b->failed = 0;
}
