/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The options (SPEC §3 "Defaults"): defaults, ranges, access by name, the
 * formatted list and the hash, all generated from MINEX_OPTIONS_LIST. */
#include "core.h"
#include "core/options_list.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

void minex_options_init(minex_options *o) {
  if (o == NULL)
    return;
  memset(o, 0, sizeof *o);
#define INIT(name, kind, def, lo, hi, checked, note) o->name = def;
  MINEX_OPTIONS_LIST(INIT)
#undef INIT
}

/* One field's range check, by kind; note ends the message. */
static int check_real(const char *name, double v, double lo, double hi,
                      const char *note) {
  if (v >= lo && v <= hi)
    return MINEX_OK;
  if (note[0] != '\0')
    return core_error(MINEX_EINVAL, "options.%s = %g (%s)", name, v, note);
  return core_error(MINEX_EINVAL, "options.%s = %g (must be in [%g, %g])", name,
                    v, lo, hi);
}

static int check_int(const char *name, long long v, long long lo, long long hi,
                     const char *note) {
  if (v >= lo && v <= hi)
    return MINEX_OK;
  return core_error(MINEX_EINVAL,
                    "options.%s = %lld (must be in [%lld, %lld]%s%s)", name, v,
                    lo, hi, note[0] ? "; " : "", note);
}

static int check_mode(const char *name, int v, const char *prefix) {
  if (v == 0 || v == 1 || v == 2)
    return MINEX_OK;
  return core_error(MINEX_EINVAL,
                    "options.%s = %d (must be MINEX_%s_OFF, _ON or _AUTO)",
                    name, v, prefix);
}

#define CHECK_REAL(name, lo, hi, note) check_real(#name, o->name, lo, hi, note)
#define CHECK_I32(name, lo, hi, note) check_int(#name, o->name, lo, hi, note)
#define CHECK_FLAG(name, lo, hi, note) check_int(#name, o->name, 0, 1, note)
#define CHECK_ENUM(name, lo, hi, note)                                         \
  check_int(#name, (long long)o->name, lo, hi, note)
#define CHECK_MODE(name, lo, hi, note) check_mode(#name, o->name, note)
#define CHECK_U64(name, lo, hi, note) MINEX_OK

int core_check_options(const minex_options *o) {
  int rc;
#define CHECK(name, kind, def, lo, hi, checked, note)                          \
  if ((checked) && (rc = CHECK_##kind(name, lo, hi, note)) != MINEX_OK)        \
    return rc;
  MINEX_OPTIONS_LIST(CHECK)
#undef CHECK
  if (o->throttle_auto && o->throttle_candidates != NULL)
    for (int32_t i = 0; i < o->nthrottle_candidates; i++)
      if (!(o->throttle_candidates[i] >= 0))
        return core_error(MINEX_EINVAL,
                          "options.throttle_candidates[%d] = "
                          "%g (must be >= 0 or INFINITY)",
                          (int)i, o->throttle_candidates[i]);
  return MINEX_OK;
}

/* ------------------------------------------------------------ by name */

typedef enum { K_REAL, K_I32, K_FLAG, K_MODE, K_ENUM, K_U64 } field_kind;

typedef struct field {
  const char *name;
  field_kind kind;
  size_t offset;
} field;

static const field fields[] = {
#define FIELD(name, kind, def, lo, hi, checked, note)                          \
  {#name, K_##kind, offsetof(minex_options, name)},
    MINEX_OPTIONS_LIST(FIELD)
#undef FIELD
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

const char *minex_options_name(int i) {
  return i >= 0 && i < NFIELDS ? fields[i].name : NULL;
}

static const field *field_find(const char *name) {
  for (int i = 0; name != NULL && i < NFIELDS; i++)
    if (strcmp(fields[i].name, name) == 0)
      return &fields[i];
  return NULL;
}

int minex_options_set(minex_options *o, const char *name, double value) {
  core_error_clear();
  if (o == NULL)
    return core_error(MINEX_EINVAL, "minex_options_set: options is NULL");
  const field *f = field_find(name);
  if (f == NULL)
    return core_error(MINEX_EINVAL, "minex_options_set: no option '%s'",
                      name != NULL ? name : "(null)");
  char *at = (char *)o + f->offset;
  if (f->kind == K_REAL) {
    memcpy(at, &value, sizeof value);
    return MINEX_OK;
  }
  /* integer fields: an integer value within the field's type; the range
     is the call's to check (core_check_options), as for a field set
     directly */
  if (!(value == floor(value)))
    return core_error(MINEX_EINVAL,
                      "minex_options_set: options.%s takes an integer, not %g",
                      f->name, value);
  if (f->kind == K_U64) {
    if (!(value >= 0 && value < 18446744073709551616.0))
      return core_error(MINEX_EINVAL,
                        "minex_options_set: options.%s = %g is not in [0, "
                        "2^64)",
                        f->name, value);
    uint64_t u = (uint64_t)value;
    memcpy(at, &u, sizeof u);
    return MINEX_OK;
  }
  if (!(value >= INT32_MIN && value <= INT32_MAX))
    return core_error(MINEX_EINVAL,
                      "minex_options_set: options.%s = %g is not a 32-bit "
                      "integer",
                      f->name, value);
  if (f->kind == K_I32) {
    int32_t v = (int32_t)value;
    memcpy(at, &v, sizeof v);
  } else if (f->kind == K_ENUM) {
    minex_remap_mode v = (minex_remap_mode)(int)value;
    memcpy(at, &v, sizeof v);
  } else {
    int v = (int)value;
    memcpy(at, &v, sizeof v);
  }
  return MINEX_OK;
}

/* A field's value as a double (a seed above 2^53 rounded). */
static double field_get(const minex_options *o, const field *f) {
  const char *at = (const char *)o + f->offset;
  double d;
  int32_t i32;
  int i;
  uint64_t u;
  minex_remap_mode e;
  switch (f->kind) {
  case K_REAL:
    memcpy(&d, at, sizeof d);
    return d;
  case K_I32:
    memcpy(&i32, at, sizeof i32);
    return i32;
  case K_U64:
    memcpy(&u, at, sizeof u);
    return (double)u;
  case K_ENUM:
    memcpy(&e, at, sizeof e);
    return (double)(int)e;
  default:
    memcpy(&i, at, sizeof i);
    return i;
  }
}

int minex_options_get(const minex_options *o, const char *name, double *value) {
  core_error_clear();
  if (o == NULL || value == NULL)
    return core_error(MINEX_EINVAL, "minex_options_get: %s is NULL",
                      o == NULL ? "options" : "value");
  const field *f = field_find(name);
  if (f == NULL)
    return core_error(MINEX_EINVAL, "minex_options_get: no option '%s'",
                      name != NULL ? name : "(null)");
  *value = field_get(o, f);
  return MINEX_OK;
}

size_t core_options_format(const minex_options *o, char *buf, size_t len) {
  size_t used = 0;
  for (int i = 0; i < NFIELDS; i++) {
    const field *f = &fields[i];
    char one[96];
    if (f->kind == K_U64) {
      uint64_t u;
      memcpy(&u, (const char *)o + f->offset, sizeof u);
      snprintf(one, sizeof one, "%s%s=%" PRIu64, i ? " " : "", f->name, u);
    } else {
      snprintf(one, sizeof one, "%s%s=%.17g", i ? " " : "", f->name,
               field_get(o, f));
    }
    size_t m = strlen(one);
    if (used + m < len)
      memcpy(buf + used, one, m + 1);
    used += m;
  }
  if (len > 0 && used >= len)
    buf[len - 1] = '\0';
  return used;
}

/* FNV-1a over bytes. */
static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

uint64_t core_options_hash(const minex_options *o) {
  uint64_t h = 14695981039346656037ull;
#define HASH(name, kind, def, lo, hi, checked, note)                           \
  h = fnv(h, &o->name, sizeof o->name);
  MINEX_OPTIONS_LIST(HASH)
#undef HASH
  /* of qwgt_fn only whether it is set: addresses differ between
     processes; the candidates by value */
  int has_fn = o->qwgt_fn != NULL;
  h = fnv(h, &has_fn, sizeof has_fn);
  if (o->throttle_candidates != NULL && o->nthrottle_candidates > 0)
    h = fnv(h, o->throttle_candidates,
            sizeof(double) * (size_t)o->nthrottle_candidates);
  return h;
}
