/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A growable text buffer for the files the sweeps write: append with
 * printf formats; an allocation failure sets `failed` and later appends do
 * nothing, so callers check once at the end. */
#ifndef MINEX_SIM_STRBUF_H
#define MINEX_SIM_STRBUF_H

#include <stddef.h>

typedef struct strbuf {
  char *s;    /* NUL-terminated text (NULL while empty)   */
  size_t len; /* bytes used, without the NUL            */
  size_t cap; /* bytes allocated                        */
  int failed; /* an allocation failed                   */
} strbuf;

void strbuf_printf(strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void strbuf_free(strbuf *b);

#endif
