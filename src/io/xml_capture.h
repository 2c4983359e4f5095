/* libxml2 errors captured instead of printed: the first error of a call,
 * with its line, for messages that name the file and line. Shared by the
 * configuration reader (config_xml.c) and the DRUM model reader
 * (costmodel/drum_xml.c). */
#ifndef MINEX_IO_XML_CAPTURE_H
#define MINEX_IO_XML_CAPTURE_H

#include <libxml/xmlerror.h>

typedef struct xml_capture {
  int count;     /* errors seen                                    */
  int line;      /* line of the first one (0: unknown)             */
  char msg[512]; /* its message, trailing newline removed          */
} xml_capture;

/* A libxml2 structured error handler; ctx is an xml_capture. */
#if LIBXML_VERSION >= 21200
void xml_capture_error(void *ctx, const xmlError *err);
#else
void xml_capture_error(void *ctx, xmlErrorPtr err);
#endif

#endif
