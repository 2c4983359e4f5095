# SPDX-License-Identifier: GPL-3.0-or-later
"""Every option of the library is reachable by keyword: minex.options()
lists exactly the library's names (minex_options_name) with the defaults
of minex_options_init, a keyword's value lands in the field of that name
(read back with minex_options_get), and the call uses it."""

import math

import numpy as np

import minex
from minex import _core


def library_names():
    names, i = [], 0
    while _core.lib.minex_options_name(i) is not None:
        names.append(_core.lib.minex_options_name(i).decode())
        i += 1
    return names


def test_options_lists_the_library_names_with_their_defaults():
    opts = minex.options()
    assert list(opts) == library_names()
    assert len(opts) >= 20
    fresh = _core.OptionsBuffer()
    for name, value in opts.items():
        assert fresh.get(name) == value, name
    # the integer fields give ints, the real ones floats
    assert isinstance(opts["iterations"], int) and opts["iterations"] == 1
    assert isinstance(opts["alpha"], float) and opts["alpha"] == 0.0
    assert opts["throttle"] == math.inf and opts["nthreads"] == 1


def test_each_keyword_reaches_its_field():
    for name, default in minex.options().items():
        if isinstance(default, float):
            value = 0.5
        else:
            value = 1 if default != 1 else 0
        buf = _core.make_options({name: value})
        assert buf.get(name) == value, name
        # every other field keeps its default
        for other, d in minex.options().items():
            if other != name:
                assert buf.get(other) == d, (name, other)


def test_aliases_and_seed_range():
    buf = _core.make_options(dict(iters=7, threads=3, seed=2**53))
    assert buf.get("iterations") == 7 and buf.get("nthreads") == 3
    assert buf.get("seed") == 2.0**53
    buf = _core.make_options(dict(paper_exact=True, global_candidates=False))
    assert buf.get("paper_exact") == 1 and buf.get("global_candidates") == 0


def test_the_call_uses_the_options(elt4):
    g, old = elt4
    _, m = minex.repartition(g, old, 8, throttle=0.25, threads=2, iters=3)
    assert m.throttle_used == 0.25
    assert m.threads_used == 2
    assert m.candidates >= 2  # the ladder: on from iterations 2
    _, m = minex.repartition(g, old, 8, paper_exact=True, iters=3)
    assert m.candidates == 1  # paper_exact: the ladder off
    new1, _ = minex.repartition(g, old, 8, seed=1)
    new2, _ = minex.repartition(g, old, 8, seed=2)
    new1b, _ = minex.repartition(g, old, 8, seed=1)
    assert np.array_equal(new1, new1b) and not np.array_equal(new1, new2)
