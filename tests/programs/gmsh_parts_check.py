# SPDX-License-Identifier: GPL-3.0-or-later
"""The partitioned Gmsh files MinEX writes open in Gmsh with MinEX's parts.

Usage: gmsh_parts_check.py MINEX GMSH DATA_DIR WORK_DIR

For a tetrahedral, a mixed 3D and a 2D mesh: `minex partition` and
`minex repart` write OUT.msh (--out-mesh) and the partition file; then
  - `gmsh -check OUT.msh` reads it and reports the number of partitions;
  - Gmsh's Python API (when importable) lists each partitioned entity's
    partition and elements: every element (tag = MinEX number + 1) is in
    the entity of its part + 1, exactly once, and the view "partition"
    holds the part ids;
  - `gmsh OUT.msh -0 -o RE.msh -format msh41` re-writes it, and MinEX reads
    Gmsh's file back (repart --write-old writes the partition stored in
    it): each element, matched by its tag, has its part.
Exits 1 on any mismatch, 77 (skipped) when GMSH is not an executable.
"""
import os
import re
import subprocess
import sys

MINEX, GMSH, DATA, WORK = sys.argv[1:5]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(args):
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        fail("%s exited %d:\n%s%s" % (" ".join(args), r.returncode, r.stdout,
                                      r.stderr))
    return r.stdout + r.stderr


def read_part(path):
    with open(path) as f:
        return [int(x) for x in f.read().split()]


def element_tags(path):
    """Element tags of an ASCII MSH 4.1 file in file order, by dimension."""
    with open(path) as f:
        lines = f.read().split("\n")
    i = lines.index("$Elements")
    nblocks = int(lines[i + 1].split()[0])
    i += 2
    tags = {}
    for _ in range(nblocks):
        dim, _tag, _type, n = (int(x) for x in lines[i].split())
        tags.setdefault(dim, []).extend(
            int(lines[i + 1 + j].split()[0]) for j in range(n))
        i += 1 + n
    return tags


def check_api(path, part):
    try:
        import gmsh
    except ImportError:
        sys.path.append("/usr/lib/python3/dist-packages")
        try:
            import gmsh
        except ImportError:
            print("note: no gmsh Python module; the API check is left out")
            return False
    gmsh.initialize(["gmsh", "-v", "0"])
    try:
        gmsh.open(path)
        seen = [0] * len(part)
        dim = max(d for d, _ in gmsh.model.getEntities())
        # Gmsh 4.8 has no getNumberOfPartitions: the entities' partitions
        found = set()
        for d, tag in gmsh.model.getEntities(dim):
            found.update(gmsh.model.getPartitions(d, tag))
        if found != set(p + 1 for p in part):
            fail("%s: Gmsh sees partitions %s, MinEX made %s" %
                 (path, sorted(found), sorted(set(p + 1 for p in part))))
        for d, tag in gmsh.model.getEntities(dim):
            parts = list(gmsh.model.getPartitions(d, tag))
            _types, etags, _nodes = gmsh.model.mesh.getElements(d, tag)
            if not parts and sum(len(b) for b in etags) == 0:
                continue  # the model's entity: its elements are the parts'
            if len(parts) != 1:
                fail("%s: entity (%d, %d) in partitions %s" %
                     (path, d, tag, parts))
            for block in etags:
                for t in block:
                    e = int(t) - 1
                    if part[e] != parts[0] - 1:
                        fail("%s: Gmsh has element %d in partition %d "
                             "(part %d), MinEX in part %d" %
                             (path, t, parts[0], parts[0] - 1, part[e]))
                    seen[e] += 1
        if seen != [1] * len(part):
            fail("%s: not every element in exactly one partitioned entity" %
                 path)
        views = gmsh.view.getTags()
        names = [gmsh.option.getString("View[%d].Name" % i)
                 for i in range(len(views))]
        if "partition" not in names:
            fail("%s: no view 'partition' (views: %s)" % (path, names))
        v = views[names.index("partition")]
        _dtype, vtags, data, _time, _ncomp = gmsh.view.getModelData(v, 0)
        for t, x in zip(vtags, data):
            if int(x[0]) != part[int(t) - 1]:
                fail("%s: view 'partition' has %g for element %d, MinEX %d" %
                     (path, x[0], t, part[int(t) - 1]))
        if len(vtags) != len(part):
            fail("%s: view 'partition' holds %d values for %d elements" %
                 (path, len(vtags), len(part)))
    finally:
        gmsh.finalize()
    return True


def check(name, out, part):
    log = run([GMSH, "-check", out])
    m = re.search(r"(\d+) partitions", log)
    if m is None or int(m.group(1)) != max(part) + 1:
        fail("gmsh -check %s: expected '%d partitions' in:\n%s" %
             (out, max(part) + 1, log))
    api = check_api(out, part)
    # Gmsh re-writes the file; MinEX reads Gmsh's partitioned file back
    re_msh = os.path.join(WORK, name + "_gmsh.msh")
    run([GMSH, out, "-0", "-o", re_msh, "-format", "msh41"])
    stored = os.path.join(WORK, name + "_stored.part")
    run([MINEX, "repart", "--mesh", re_msh, "--iters", "1", "--write-old",
         stored])
    got = read_part(stored)
    tags = element_tags(re_msh)
    order = tags[max(tags)]
    if len(order) != len(part) or len(got) != len(part):
        fail("%s: %d elements in Gmsh's file, %d read, %d written" %
             (re_msh, len(order), len(got), len(part)))
    for i, t in enumerate(order):
        if got[i] != part[t - 1]:
            fail("%s: element %d read in partition %d, written in %d" %
                 (re_msh, t, got[i], part[t - 1]))
    print("ok: %s: %d elements in %d partitions (gmsh -check%s, Gmsh's "
          "re-written file read back)" %
          (out, len(part), max(part) + 1, ", Gmsh API" if api else ""))


def main():
    if not (os.path.isfile(GMSH) and os.access(GMSH, os.X_OK)):
        print("skipped: no gmsh executable (Debian package gmsh)")
        sys.exit(77)
    os.makedirs(WORK, exist_ok=True)
    cases = [("mixed", "mesh_gmsh_mixed_v41.msh", "4"),
             ("vtu", "mesh_meshio_mixed_ascii.vtu", "3"),
             ("quadtri", "mesh_gmsh_quadtri_v41.msh", "5")]
    for name, mesh, nparts in cases:
        src = os.path.join(DATA, mesh)
        out = os.path.join(WORK, name + ".msh")
        p = os.path.join(WORK, name + ".part")
        run([MINEX, "partition", src, "--nparts", nparts, "-o", p,
             "--out-mesh", out])
        check(name, out, read_part(p))
        # repart: the new partition in the file, from the one just made
        out2 = os.path.join(WORK, name + "_repart.msh")
        p2 = os.path.join(WORK, name + "_repart.part")
        run([MINEX, "repart", "--mesh", src, "--old", p, "--nparts",
             str(int(nparts) + 1), "-o", p2, "--out-mesh", out2])
        check(name + "_repart", out2, read_part(p2))


main()
