/* libxml2 errors captured instead of printed: the first error of a call,
 * with its line, for messages that name the file and line. Shared by the
 * configuration reader (config_xml.c) and the DRUM model reader
 * (drum/drum_xml.c). */
#ifndef MINEX_IO_XML_CAPTURE_H
#define MINEX_IO_XML_CAPTURE_H

#include <libxml/xmlerror.h>

typedef struct xml_capture {
  int count;     /* errors seen                                    */
  int line;      /* line of the first one (0: unknown)             */
  char msg[512]; /* its message, trailing newline removed          */
  xmlStructuredErrorFunc saved_fn; /* the caller's handler, restored */
  void *saved_ctx;                 /* by xml_capture_end            */
} xml_capture;

/* Clears cap and routes libxml2's global (thread-local) structured errors
 * into it, remembering the caller's handler. */
void xml_capture_begin(xml_capture *cap);
/* Puts the caller's handler back. */
void xml_capture_end(const xml_capture *cap);

/* A libxml2 structured error handler; ctx is an xml_capture. */
#if LIBXML_VERSION >= 21200
void xml_capture_error(void *ctx, const xmlError *err);
#else
void xml_capture_error(void *ctx, xmlErrorPtr err);
#endif

#endif
