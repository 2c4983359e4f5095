#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The progress line of the long commands (programs/tool_progress.c):
`minex sim`, `minex sweep` and `minex repart` with stderr on a pseudo-
terminal show it without -v (rewritten in place with \\r, never wider than
the terminal, erased at the end), and show none of it when stderr is a pipe
(stderr stays empty), with -v (its own lines instead) or with TERM=dumb.
stdout never holds any of it.
Usage: progress_check.py MINEX WORK_DIR
"""

import fcntl
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import termios

COLS = 100
ERASE = b"\x1b[K"


def run(cmd, cwd, tty, env=None, cols=COLS):
    """Runs cmd with stdout to a file and stderr to a pseudo-terminal of
    cols columns (tty) or a pipe; returns (status, stdout, stderr)."""
    out_path = os.path.join(cwd, "stdout.txt")
    with open(out_path, "wb") as out:
        if not tty:
            p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL,
                               stdout=out, stderr=subprocess.PIPE, env=env,
                               timeout=300)
            rc, err = p.returncode, p.stderr
        else:
            master, slave = pty.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ,
                        struct.pack("HHHH", 24, cols, 0, 0))
            p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL,
                                 stdout=out, stderr=slave, env=env)
            os.close(slave)
            chunks = []
            while True:
                r, _, _ = select.select([master], [], [], 1.0)
                if r:
                    try:
                        data = os.read(master, 65536)
                    except OSError:  # EIO: the child closed its side
                        data = b""
                    if not data:
                        break
                    chunks.append(data)
                elif p.poll() is not None:
                    break
            rc = p.wait(timeout=300)
            os.close(master)
            err = b"".join(chunks)
    with open(out_path, "rb") as fp:
        return rc, fp.read(), err


failures = []


def check(what, cond):
    print(("ok: " if cond else "FAILED: ") + what)
    if not cond:
        failures.append(what)


def widest(err):
    """The widest line the terminal shows: the pty turns \n into \r\n, so
    split on \r and drop the erase sequences."""
    return max(len(seg.replace(ERASE, b""))
               for seg in err.replace(b"\n", b"\r").split(b"\r"))


def main():
    minex, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rc, _, err = run([minex, "gen", "--elements", "20000", "--refine",
                      "--part", "old.part", "--nparts", "8", "-o",
                      "g.graph"], work, False)
    if rc != 0:
        print(err.decode(errors="replace"))
        return 1

    cases = [
        ("sim", [minex, "sim", "--box", "6", "6", "6", "--steps", "3",
                 "--nprocs", "8", "--clusters", "2"],
         [b"no-partitioning baseline: 3 of 3 steps done",
          b"MinEX: 3 of 3 steps done"]),
        ("sweep", [minex, "sweep", "--table", "2", "--box", "3", "3", "3",
                   "--steps", "2", "--depth", "1", "--threads", "2",
                   "--no-plots", "-o", "sw"],
         [b"building the workload", b"table2: 64 of 64 configurations done"]),
        ("repart", [minex, "repart", "g.graph", "--old", "old.part",
                    "--nparts", "8", "-o", "new.part"],
         [b"reading g.graph", b"repartitioning", b"contract: "]),
    ]
    env = dict(os.environ)
    env["TERM"] = "xterm"
    for name, cmd, phrases in cases:
        prefix = b"\rminex " + name.encode() + b": ["
        rc, out, err = run(cmd, work, True, env)
        check(f"{name} on a terminal: exit 0", rc == 0)
        check(f"{name} on a terminal: progress lines on stderr",
              err.count(prefix) >= 2)
        for ph in phrases:
            check(f"{name} on a terminal: shows '{ph.decode()}'", ph in err)
        check(f"{name} on a terminal: the line is erased at the end",
              err.endswith(b"\r" + ERASE))
        w = widest(err)
        check(f"{name} on a terminal: no line wider than {COLS - 1} "
              f"columns (widest {w})", w <= COLS - 1)
        check(f"{name} on a terminal: nothing of it on stdout",
              b"\r" not in out and b"\x1b" not in out and len(out) > 0)

        rc, out2, err = run(cmd, work, False, env)
        check(f"{name} into a pipe: exit 0", rc == 0)
        check(f"{name} into a pipe: stderr empty (got {len(err)} bytes)",
              err == b"")
        check(f"{name}: stdout has the same lines on a terminal and in a "
              f"pipe", len(out2.splitlines()) == len(out.splitlines()))

        rc, _, err = run(cmd + ["-v"], work, True, env)
        check(f"{name} -v on a terminal: exit 0, its own lines, no "
              f"progress line", rc == 0 and b"\n" in err and
              prefix not in err and ERASE not in err)

        dumb = dict(env)
        dumb["TERM"] = "dumb"
        rc, _, err = run(cmd, work, True, dumb)
        check(f"{name} on a TERM=dumb terminal: no progress line",
              rc == 0 and prefix not in err and ERASE not in err)

    # a narrow terminal: the lines are cut to its width less one column
    rc, _, err = run(cases[0][1], work, True, env, cols=40)
    w = widest(err)
    check(f"sim on a 40-column terminal: lines cut to 39 columns (widest "
          f"{w})", rc == 0 and w == 39)
    # an error erases the line first: the message starts on a clean line
    rc, _, err = run([minex, "repart", "missing.graph", "--nparts", "8"],
                     work, True, env)
    check("repart of a missing graph on a terminal: exit 1, the message "
          "after an erased line", rc == 1 and b"] reading missing.graph" in err
          and b"\r" + ERASE + b"minex repart: " in err)

    if failures:
        print(f"{len(failures)} check(s) failed")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
