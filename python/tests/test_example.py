# SPDX-License-Identifier: GPL-3.0-or-later
"""examples/python/adaptive_loop.py runs (two steps here) and writes its
plot; each step's repartition is no worse than the partition it starts
from (SPEC §3's guarantee) and beats the partition kept from the start."""

import importlib.util
import io
import os

from conftest import ROOT


def load_example():
    path = os.path.join(ROOT, "examples", "python", "adaptive_loop.py")
    spec = importlib.util.spec_from_file_location("adaptive_loop", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_adaptive_loop_two_steps(tmp_path):
    ex = load_example()
    png = tmp_path / "loads.png"
    text = io.StringIO()
    records = ex.run(steps=2, iters=4, png=str(png), out=text)
    with open(png, "rb") as f:
        head = f.read(8)
    assert head == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10000
    assert [r["step"] for r in records] == [1, 2]
    for r in records:
        assert r["refined"] > 0 and r["moved"] > 0
        assert r["new"] <= r["old"]
        assert r["new"] < r["kept"]
        assert r["new"] >= 4 * r["lower_bound"]  # k * LB bounds MaxQwgt
    lines = text.getvalue().splitlines()
    assert len(lines) == 3 and lines[0].startswith("step")
