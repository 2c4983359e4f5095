# SPDX-License-Identifier: GPL-3.0-or-later
# Rewrites a little-endian MEDIT binary .meshb file (libMeshb's format,
# versions 1 to 4) with every field byte-swapped: the file a big-endian
# machine's libMeshb writes. The header's int 1 and version, then for each
# keyword its code (int32), its next position (int32 in versions 1 and 2,
# int64 in 3 and 4) and its data: Dimension an int32; Vertices a count and
# records of dim reals (float32 in version 1, float64 after) and an integer
# reference; Edges and the element keywords a count and records of their
# node numbers and a reference (integers: int32 up to version 3, int64 in
# 4). Other keywords are refused, so that no field is left unswapped.
# Usage: python3 meshb_swap_endian.py IN OUT
import struct
import sys

data = open(sys.argv[1], 'rb').read()
out = bytearray()
pos = 0


def swap(fmt, n=1):
    global pos
    vals = struct.unpack_from('<' + fmt * n, data, pos)
    pos += struct.calcsize('<' + fmt * n)
    out.extend(struct.pack('>' + fmt * n, *vals))
    return vals


one, version = swap('i', 2)
assert one == 1 and 1 <= version <= 4, 'not a little-endian .meshb'
real = 'f' if version == 1 else 'd'
posf = 'q' if version >= 3 else 'i'
intf = 'q' if version == 4 else 'i'
# keyword code -> integers per record (node numbers and the reference)
RECORD = {5: 3, 25: 4, 6: 4, 24: 7, 7: 5, 27: 10, 8: 5, 30: 11, 9: 7,
          10: 9, 33: 28, 49: 6}
dim = 0
while pos < len(data):
    code = swap('i')[0]
    nxt = swap(posf)[0]
    if code == 54:  # End
        break
    if code == 3:  # Dimension
        dim = swap('i')[0]
    elif code == 4:  # Vertices
        n = swap(intf)[0]
        for _ in range(n):
            swap(real, dim)
            swap(intf)
    elif code in RECORD:
        n = swap(intf)[0]
        swap(intf, n * RECORD[code])
    else:
        sys.exit('keyword %d is not known to this script' % code)
    assert nxt == 0 or pos == nxt, 'keyword %d: next position %d' % (code, nxt)
    if nxt == 0:
        break
assert pos == len(data), 'bytes left after the last keyword'
open(sys.argv[2], 'wb').write(bytes(out))
