/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libxml2 error capture (io_xml_capture.h). */
#include "io/xml_capture.h"

#include <libxml/globals.h>
#include <stdio.h>
#include <string.h>

#if LIBXML_VERSION >= 21200
void io_xml_capture_error(void *ctx, const xmlError *err) {
#else
void io_xml_capture_error(void *ctx, xmlErrorPtr err) {
#endif
  io_xml_capture *cap = ctx;
  if (cap == NULL || err == NULL || cap->count++ > 0)
    return;
  cap->line = err->line;
  snprintf(cap->msg, sizeof cap->msg, "%s",
           err->message ? err->message : "unknown libxml2 error");
  size_t n = strlen(cap->msg);
  while (n > 0 && (cap->msg[n - 1] == '\n' || cap->msg[n - 1] == ' '))
    cap->msg[--n] = '\0';
}

void io_xml_capture_begin(io_xml_capture *cap) {
  memset(cap, 0, sizeof *cap);
#if LIBXML_VERSION >= 21200 /* the globals are deprecated, still work */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
  cap->saved_fn = xmlStructuredError;
  cap->saved_ctx = xmlStructuredErrorContext;
#if LIBXML_VERSION >= 21200
#pragma GCC diagnostic pop
#endif
  xmlSetStructuredErrorFunc(cap, io_xml_capture_error);
}

void io_xml_capture_end(const io_xml_capture *cap) {
  xmlSetStructuredErrorFunc(cap->saved_ctx, cap->saved_fn);
}
