/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The progress line of the long commands on a terminal (tool_progress.h).
 * One state for the process: the commands are single-threaded, and the
 * sweep calls its progress callback under a lock. */
#include "tool_progress.h"
#include "tool.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static struct {
  int on;          /* 1: lines are shown                          */
  int shown;       /* 1: a line is on the terminal, not erased    */
  const char *cmd; /* subcommand name, for the line's prefix      */
  double t0;       /* tool_wtime() at tool_progress_begin         */
} progress;

int tool_progress_begin(const char *cmd, int verbose) {
  const char *term = getenv("TERM");
  progress.on = !verbose && isatty(STDERR_FILENO) &&
                (term == NULL || strcmp(term, "dumb") != 0);
  progress.shown = 0;
  progress.cmd = cmd;
  progress.t0 = tool_wtime();
  return progress.on;
}

/* Columns of the terminal on stderr; 80 when it does not say. */
static int columns(void) {
  struct winsize ws;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
    return ws.ws_col;
  return 80;
}

static void show(const char *message) {
  char line[512];
  int n = snprintf(line, sizeof line, "minex %s: [%.1f s] %s", progress.cmd,
                   tool_wtime() - progress.t0, message);
  if (n < 0)
    return;
  /* one column short of the width: a line that wraps cannot be rewritten */
  size_t width = (size_t)columns() - 1;
  if (width >= sizeof line)
    width = sizeof line - 1;
  if (strlen(line) > width)
    line[width] = '\0';
  /* back to the line's start, the message, erase the rest of the line */
  fprintf(stderr, "\r%s\033[K", line);
  fflush(stderr);
  progress.shown = 1;
}

void tool_progress(const char *fmt, ...) {
  if (!progress.on)
    return;
  char message[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  show(message);
}

void tool_progress_log(const char *message, void *ctx) {
  (void)ctx;
  if (progress.on)
    show(message);
}

void tool_progress_clear(void) {
  if (!progress.shown)
    return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  progress.shown = 0;
}
