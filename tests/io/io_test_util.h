/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the tests of src/io: data paths, scratch directories,
 * error-message checks. */
#ifndef MINEX_IO_TEST_UTIL_H
#define MINEX_IO_TEST_UTIL_H

#include "minex.h"

/* MINEX_TEST_DATA/name (static buffer, valid until the next call). */
const char *io_data(const char *name);
/* Fresh scratch directory under the system temp dir; dir has >= 256 bytes. */
void io_tmpdir(char *dir);
/* dir/name into buf (>= 512 bytes); returns buf. */
char *io_join(char *buf, const char *dir, const char *name);
/* Removes every file in dir, then dir. */
void io_rmdir(const char *dir);
/* Number of entries in dir besides . and .. */
int io_count_entries(const char *dir);
/* Writes text to path (test setup). */
void io_write_text(const char *path, const char *text);
/* Asserts rc == want and that minex_last_error() contains each of up to
 * two substrings (NULL to skip). */
void io_expect_error(int rc, int want, const char *sub1, const char *sub2);

#endif
