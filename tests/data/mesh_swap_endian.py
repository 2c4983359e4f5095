# SPDX-License-Identifier: GPL-3.0-or-later
# Rewrites a binary Gmsh 2.2 or 4.1 file (as `gmsh -bin -format msh22` or
# `msh41` writes it, little-endian) with every binary int, size_t and
# double byte-swapped: the file a big-endian machine's Gmsh writes.
# Usage: python3 mesh_swap_endian.py IN OUT
import struct
import sys

data = open(sys.argv[1], 'rb').read()
out = bytearray()
pos = 0
version = None
# nodes of the element types of the mixed mesh (GmshDefines.h)
NN = {1: 2, 2: 3, 3: 4, 4: 4, 5: 8, 6: 6, 7: 5, 15: 1}


def line():
    global pos
    e = data.index(b'\n', pos)
    s = data[pos:e + 1]
    pos = e + 1
    return s


def swap(fmt, n):
    global pos
    size = struct.calcsize('<' + fmt)
    vals = struct.unpack_from('<' + fmt * n, data, pos)
    pos += size * n
    out.extend(struct.pack('>' + fmt * n, *vals))
    return vals


def entities41():
    counts = swap('Q', 4)
    for dim in range(4):
        for _ in range(counts[dim]):
            swap('i', 1)
            swap('d', 3 if dim == 0 else 6)
            swap('i', swap('Q', 1)[0])  # physical tags
            if dim > 0:
                swap('i', swap('Q', 1)[0])  # bounding entities


def nodes41():
    nblocks = swap('Q', 4)[0]
    for _ in range(nblocks):
        dim, _tag, param = swap('i', 3)
        cnt = swap('Q', 1)[0]
        swap('Q', cnt)
        swap('d', cnt * (3 + (dim if param else 0)))


def elements41():
    nblocks = swap('Q', 4)[0]
    for _ in range(nblocks):
        _dim, _tag, etype = swap('i', 3)
        cnt = swap('Q', 1)[0]
        swap('Q', cnt * (1 + NN[etype]))


while pos < len(data):
    s = line()
    out.extend(s)
    key = s.strip()
    if key == b'$MeshFormat':
        s = line()
        out.extend(s)
        version = s.split()[0]
        swap('i', 1)
    elif version == b'4.1' and key == b'$Entities':
        entities41()
    elif version == b'4.1' and key == b'$Nodes':
        nodes41()
    elif version == b'4.1' and key == b'$Elements':
        elements41()
    elif key == b'$Nodes':
        s = line()
        out.extend(s)
        for _ in range(int(s)):
            swap('i', 1)
            swap('d', 3)
    elif key == b'$Elements':
        s = line()
        out.extend(s)
        left = int(s)
        while left > 0:
            etype, cnt, ntags = swap('i', 3)
            for _ in range(cnt):
                swap('i', 1 + ntags + NN[etype])
            left -= cnt
    elif key.startswith(b'$') and not key.startswith(b'$End'):
        sys.exit('section %s: not known to this script' % key.decode())
open(sys.argv[2], 'wb').write(out)
