/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Progress of the long commands (sim, sweep, repart) on a terminal: one
 * line on stderr, rewritten in place. Shown only when stderr is a terminal
 * (isatty), TERM is not "dumb" and -v is off (-v prints its own lines), so
 * that pipes, files, logs and the tests see nothing of it. */
#ifndef MINEX_TOOL_PROGRESS_H
#define MINEX_TOOL_PROGRESS_H

/* Turns the progress line on for command cmd (a string that outlives the
 * run) when stderr is a terminal and verbose is 0; 1 when on. The clock of
 * the line starts here. */
int tool_progress_begin(const char *cmd, int verbose);

/* Shows "minex CMD: [T s] message" (printf format) in place of the
 * previous line, cut to the terminal's width; nothing when off. */
void tool_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* log_fn of the library (minex_options.log_fn): its messages as the
 * progress line. */
void tool_progress_log(const char *message, void *ctx);

/* Erases the line, if one is shown, so that other output starts on a
 * clean line; the progress stays on. Call before printing results or
 * messages. */
void tool_progress_clear(void);

#endif
