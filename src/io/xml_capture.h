/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libxml2 errors captured instead of printed: the first error of a call,
 * with its line, for messages that name the file and line. Shared by the
 * configuration reader (config_xml.c) and the DRUM model reader
 * (drum/drum_xml.c). */
#ifndef MINEX_IO_XML_CAPTURE_H
#define MINEX_IO_XML_CAPTURE_H

#include "core/rename.h"

#include <libxml/xmlerror.h>

typedef struct io_xml_capture {
  int count;     /* errors seen                                    */
  int line;      /* line of the first one (0: unknown)             */
  char msg[512]; /* its message, trailing newline removed          */
  xmlStructuredErrorFunc saved_fn; /* the caller's handler, restored */
  void *saved_ctx;                 /* by io_xml_capture_end            */
} io_xml_capture;

/* Clears cap and routes libxml2's global (thread-local) structured errors
 * into it, remembering the caller's handler. */
void io_xml_capture_begin(io_xml_capture *cap);
/* Puts the caller's handler back. */
void io_xml_capture_end(const io_xml_capture *cap);

/* A libxml2 structured error handler; ctx is an io_xml_capture. */
#if LIBXML_VERSION >= 21200
void io_xml_capture_error(void *ctx, const xmlError *err);
#else
void io_xml_capture_error(void *ctx, xmlErrorPtr err);
#endif

#endif
