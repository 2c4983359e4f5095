# SPDX-License-Identifier: GPL-3.0-or-later
"""The loaded library, the error type, array conversion and the options."""

from __future__ import annotations

import ctypes
import enum
import math
import numbers
import operator
from ctypes import c_double, c_uint64
from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

from . import _lib
from ._metrics import CMetrics

lib, library_path, abi_values = _lib.load(CMetrics)


def _s(b: Optional[bytes]) -> str:
    return b.decode("utf-8", "replace") if b is not None else ""


# The error codes, from the library itself (minex_err_name): every code
# from 0 down to the first one the library does not know.
def _error_codes() -> Dict[str, int]:
    codes = {}
    code = 0
    while True:
        name = _s(lib.minex_err_name(code))
        if name == "MINEX_UNKNOWN":
            return codes
        codes[name[len("MINEX_"):]] = code
        code -= 1


ErrorCode = enum.IntEnum("ErrorCode", _error_codes())
ErrorCode.__doc__ = ("The library's error codes (minex_errno): OK = 0, "
                     "EINVAL = -1, ... by their names without MINEX_.")


class MinexError(Exception):
    """A failure reported by the library, or an argument the package
    refuses before calling it (a wrong length or type, an id that does not
    fit in 32 bits). ``code`` is the library's error code (an
    :class:`ErrorCode`), ``name`` its symbolic name (``"MINEX_EGRAPH"``,
    minex_err_name) and ``message`` what is at fault (minex_last_error:
    the argument, file and line, the vertex or edge)."""

    def __init__(self, code: int, name: str, message: str):
        super().__init__(code, name, message)
        self.code = code
        self.name = name
        self.message = message

    def __str__(self) -> str:
        return "%s: %s" % (self.name, self.message)


def error(code: int, message: str) -> MinexError:
    """A MinexError of a code, named by the library."""
    return MinexError(int(code), _s(lib.minex_err_name(int(code))), message)


def check(rc: int, what: str = "") -> None:
    """Raises the MinexError of a failed call (rc != MINEX_OK), with this
    thread's minex_last_error (or the code's description when the library
    set no message)."""
    if rc == 0:
        return
    msg = _s(lib.minex_last_error()) or _s(lib.minex_strerror(rc))
    if what and not msg.startswith(what):
        msg = "%s: %s" % (what, msg)
    raise error(rc, msg)


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1


def address(a: Optional[np.ndarray]) -> Optional[int]:
    """The address of a C-contiguous array's data, None for None."""
    return None if a is None else a.ctypes.data


def as_vector(a: Any, name: str) -> np.ndarray:
    arr = np.asarray(a)
    if arr.ndim != 1:
        raise error(ErrorCode.EINVAL, "%s must be one-dimensional, not of "
                    "shape %s" % (name, arr.shape))
    return arr


def check_length(arr: np.ndarray, name: str, n: int, what: str) -> None:
    if arr.shape[0] != n:
        raise error(ErrorCode.EINVAL, "%s has %d entries, %s %d" %
                    (name, arr.shape[0], what, n))


def int_array(a: Any, name: str, dtype, code: int = ErrorCode.EINVAL
              ) -> np.ndarray:
    """a as a C-contiguous array of dtype (int32 or int64): the array itself
    when it already is one (no copy), else converted once. Integer values
    the type cannot hold are refused with code (a bad id), naming the
    first one; other dtypes than integers are refused."""
    arr = as_vector(a, name)
    dt = np.dtype(dtype)
    if arr.dtype == dt:
        return np.ascontiguousarray(arr)
    if arr.dtype.kind not in "iu":
        if arr.size == 0:
            return np.zeros(0, dt)
        raise error(ErrorCode.EINVAL, "%s must hold integers, not %s" %
                    (name, arr.dtype))
    info = np.iinfo(dt)
    if arr.size and (arr.min() < info.min or arr.max() > info.max):
        bad = int(np.flatnonzero((arr < info.min) | (arr > info.max))[0])
        raise error(code, "%s[%d] = %d does not fit in %d bits" %
                    (name, bad, int(arr[bad]), dt.itemsize * 8))
    return np.ascontiguousarray(arr, dtype=dt)


def real_array(a: Any, name: str) -> np.ndarray:
    """a as a C-contiguous float64 array (no copy when it is one already).
    Integers and other floating types are converted; NaN and negative
    values are the library's to refuse."""
    arr = as_vector(a, name)
    if arr.dtype.kind not in "fiub":
        raise error(ErrorCode.EINVAL, "%s must hold real numbers, not %s" %
                    (name, arr.dtype))
    return np.ascontiguousarray(arr, dtype=np.float64)


def view(owner: Any, addr: Optional[int], count: int, ctype, dtype,
         shape: Optional[Tuple[int, ...]] = None) -> np.ndarray:
    """A read-only numpy view of count values at addr, memory that belongs
    to owner (a C object); the view keeps owner alive."""
    if not addr or count == 0:
        out = np.zeros(0 if shape is None else shape, dtype)
    else:
        buf = (ctype * count).from_address(addr)
        buf._minex_owner = owner
        out = np.frombuffer(buf, dtype=dtype)
        if shape is not None:
            out = out.reshape(shape)
    out.flags.writeable = False
    return out


# ------------------------------------------------------------- options

#: Values of the OFF/ON/AUTO options (refine, scratch, ladder, balance,
#: rounds, cluster_levels): MINEX_REFINE_OFF etc. of include/minex.h.
OFF, ON, AUTO = 0, 1, 2
#: Values of remap_mode (minex_remap_mode).
REMAP_RECEIVER, REMAP_SENDER, REMAP_BOTH = 0, 1, 2

# The keyword names the package adds to the library's own.
ALIASES = {"iters": "iterations", "threads": "nthreads"}

_OPTIONS_SIZE = abi_values["options_size"]
_OPTIONS_WORDS = (_OPTIONS_SIZE + 7) // 8


class OptionsBuffer:
    """An opaque minex_options: a buffer of the size the library reports,
    filled by minex_options_init and minex_options_set."""

    __slots__ = ("_buf",)

    def __init__(self) -> None:
        self._buf = (c_uint64 * _OPTIONS_WORDS)()
        lib.minex_options_init(self._buf)

    @property
    def ptr(self) -> int:
        return ctypes.addressof(self._buf)

    def set(self, name: str, value: float) -> None:
        check(lib.minex_options_set(self._buf, name.encode(), value))

    def get(self, name: str) -> float:
        v = c_double()
        check(lib.minex_options_get(self._buf, name.encode(),
                                    ctypes.byref(v)))
        return v.value


def _option_table() -> Dict[str, bool]:
    """The library's option names (minex_options_name), each with whether
    it holds an integer: minex_options_set refuses 0.5 for exactly those."""
    names = {}
    i = 0
    probe = OptionsBuffer()
    while True:
        n = lib.minex_options_name(i)
        if n is None:
            return names
        name = _s(n)
        names[name] = lib.minex_options_set(probe.ptr, n, 0.5) != 0
        i += 1


OPTION_INTEGER = _option_table()


def _option_value(name: str, value: Any) -> float:
    if isinstance(value, (bool, np.bool_)):
        return 1.0 if value else 0.0
    if isinstance(value, numbers.Integral):
        iv = operator.index(value)
        d = float(iv)
        if d != iv:
            raise error(ErrorCode.EINVAL, "options.%s = %d cannot be passed "
                        "exactly: minex_options_set takes a double, which "
                        "holds integers up to 2^53" % (name, iv))
        return d
    if isinstance(value, numbers.Real):
        return float(value)
    hint = ""
    if isinstance(value, str) and OPTION_INTEGER.get(name):
        hint = " (for a mode: minex.OFF, minex.ON or minex.AUTO)"
    raise error(ErrorCode.EINVAL, "options.%s takes a number, not %r%s" %
                (name, value, hint))


def make_options(kw: Mapping[str, Any]) -> OptionsBuffer:
    """minex_options with the defaults and the keyword values: each name
    is one of the library's (minex.options()) or an alias (iters,
    threads); None leaves the default."""
    opts = OptionsBuffer()
    seen: Dict[str, str] = {}
    for key, value in kw.items():
        if value is None:
            continue
        name = ALIASES.get(key, key)
        if name in seen:
            raise error(ErrorCode.EINVAL, "options.%s given twice (as %s and "
                        "%s)" % (name, seen[name], key))
        seen[name] = key
        if name not in OPTION_INTEGER:
            raise error(ErrorCode.EINVAL, "no option '%s' (minex.options() "
                        "lists them)" % key)
        opts.set(name, _option_value(name, value))
    return opts


def options() -> Dict[str, Any]:
    """Every option the library takes by name (minex_options_name), with
    its default (minex_options_init): an int for the integer fields, a
    float for the real ones (throttle, alpha). Each is a keyword argument
    of repartition, evaluate and loads; ``iters`` and ``threads`` are
    accepted for ``iterations`` and ``nthreads``. The callbacks (qwgt_fn,
    log_fn), the throttle_candidates array and the workspace are fields
    the library sets only directly in C, not by name."""
    o = OptionsBuffer()
    out: Dict[str, Any] = {}
    for name, integer in OPTION_INTEGER.items():
        v = o.get(name)
        out[name] = int(v) if integer and math.isfinite(v) else v
    return out


def metrics_struct() -> CMetrics:
    return CMetrics()
