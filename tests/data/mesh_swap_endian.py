# SPDX-License-Identifier: GPL-3.0-or-later
# Rewrites a binary Gmsh 2.2 file (as `gmsh -bin -format msh22` writes it,
# little-endian) with every binary int and double byte-swapped: the file a
# big-endian machine's Gmsh writes. Usage: python3 mesh_swap_endian.py IN OUT
import struct
import sys

data = open(sys.argv[1], 'rb').read()
out = bytearray()
pos = 0


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


while pos < len(data):
    s = line()
    out.extend(s)
    key = s.strip()
    if key == b'$MeshFormat':
        out.extend(line())
        swap('i', 1)
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
            nn = {1: 2, 2: 3, 3: 4, 4: 4, 5: 8, 6: 6, 7: 5, 15: 1}[etype]
            for _ in range(cnt):
                swap('i', 1 + ntags + nn)
            left -= cnt
open(sys.argv[2], 'wb').write(out)
