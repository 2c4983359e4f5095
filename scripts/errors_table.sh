#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Feeds every class of bad input that the command line reaches to the
# `minex` tool and prints a Markdown table row per case: the input, the exit
# status and the message. docs/reference/errors.md holds its output (the rows for
# inputs only the C API can give follow it there, each backed by a test).
# The last column is the command's peak resident memory (GNU time).
# Needs GNU time (Debian package time) for the memory column.
# Usage: bash scripts/errors_table.sh path/to/minex
set -euo pipefail
minex=${1:?usage: errors_table.sh MINEX}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="$root/tests/data"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"

# a small valid graph (4 vertices in a path) and partition
printf '4 3\n2\n1 3\n2 4\n3\n' > ok.graph
printf '0\n0\n1\n1\n' > ok.part
printf '0\n1\n' > two.part
printf '0\n0\n' > one.part
: > zero.part
printf '<minex-config version="1">\n<cluster name="a" procs="2"/>\n</minex-config>\n' > ok.xml

row() { # class command...
  local class=$1
  shift
  local out rc=0 rss
  out=$(/usr/bin/time -o rss.txt -f '%M' "$@" 2>&1 >/dev/null) || rc=$?
  rss=$(tail -n 1 rss.txt)
  out=$(printf '%s\n' "$out" | grep -v -e '^Command exited' -e "^Try '" || true)
  out=${out//$work\//}
  out=${out//$data\//}
  out=${out//|/\\|}
  out=$(printf '%s' "$out" | tail -n 1)
  local cmd="${*:2}"
  cmd=${cmd//$data\//}
  printf '| %s | `%s` | %d | %s | %d |\n' "$class" "$cmd" "$rc" "$out" \
    $(((rss + 512) / 1024))
}

g() { printf "$2" > "$1"; }
g asym.graph '3 2\n2\n1 3\n1\n'
g dup.graph '3 3\n2 2\n1 1 3\n2\n'
g loop.graph '2 1\n1 2\n1\n'
g nan.graph '2 1 010\nnan 2\n1 1\n'
g inf.graph '2 1 010\ninf 2\n1 1\n'
g neg.graph '2 1 010\n-1 2\n1 1\n'
g range.graph '2 1\n3\n1\n'
g count.graph '3 5\n2\n1 3\n2\n'
g extra.graph '2 1\n2\n1\n1\n'
g huge.graph '1000000000 5\n2\n1\n'
g trunc.graph '4 3\n2\n1 3\n'
: > empty.graph
g zero.graph '0 0\n'
g nul.graph '2 1\n2\x00 1\n1\n'
g hex.graph '2 1 010\n0x10 2\n1 1\n'
g plus.graph '2 1\n+2\n1\n'
g big.graph '2 1 010\n1e308 2\n1e308 1\n'
g sq.graph '2 1 010\n1e160 2\n1e160 1\n'
g sqk.graph '2 1 010\n1e150 2\n1e150 1\n'
g bigid.part '1073741822\n0\n0\n0\n'
g short.part '0\n1\n'
g neg.part '0\n-1\n0\n0\n'
g p0.xml '<minex-config version="1">\n<cluster name="a" procs="0"/>\n</minex-config>\n'
g procs.xml '<minex-config version="1">\n<cluster name="a" procs="1073741823"/>\n</minex-config>\n'
g unavail.xml '<minex-config version="1">\n<cluster name="a" procs="2"/>\n<unavailable proc="0"/>\n<unavailable proc="1"/>\n</minex-config>\n'
g empty_cluster.xml '<minex-config version="1" default-link-slowdown="2">\n<cluster name="a" procs="2"/>\n<cluster name="b" procs="0"/>\n</minex-config>\n'
g sub.xml '<minex-config version="1">\n<cluster name="a" procs="2" proc-slowdown="1e-320"/>\n</minex-config>\n'
{
  printf '<minex-config version="1" default-link-slowdown="1">\n'
  for c in $(seq 0 4096); do printf '<cluster name="c%d" procs="1"/>\n' "$c"; done
  printf '</minex-config>\n'
} > many.xml
sed 's/bandwidth="10"/bandwidth="1e-320"/' "$data/drum_table54.xml" > drum_sub.xml
sed 's/bandwidth="10"/bandwidth="0x10"/' "$data/drum_table54.xml" > drum_hex.xml
printf '<MachineModel>\n<node type="network" nodenum="1" name="root" parent="-1"/>\n<node type="single_computing" nodenum="2" name="a" parent="1" processes="1000000000"/>\n</MachineModel>\n' > drum_procs.xml

echo '| input | command | exit | message | peak RSS (MB) |'
echo '|---|---|---|---|---|'
row 'asymmetric edge' "$minex" info asym.graph
row 'duplicate edge' "$minex" info dup.graph
row 'self loop' "$minex" info loop.graph
row 'NaN weight' "$minex" info nan.graph
row 'infinite weight' "$minex" info inf.graph
row 'negative weight' "$minex" info neg.graph
row 'hexadecimal weight' "$minex" info hex.graph
row "'+2' as a neighbour id" "$minex" info plus.graph
row 'NUL byte inside a line' "$minex" info nul.graph
row 'neighbour id out of range' "$minex" info range.graph
row 'header edge count disagrees with the body' "$minex" info count.graph
row 'more lines than the header declares' "$minex" info extra.graph
row 'declared size far beyond the file (10^9 vertices in 20 bytes)' "$minex" info huge.graph
row 'truncated file' "$minex" info trunc.graph
row 'empty file' "$minex" info empty.graph
row 'empty graph (0 vertices)' "$minex" repart zero.graph --old zero.part --nparts 2
row 'weights whose sums overflow' "$minex" repart big.graph --old one.part --nparts 2
row 'weights whose squared loads overflow MinVar' "$minex" repart sq.graph --old two.part --nparts 2
row 'weights whose squared loads overflow MinVar under the horizon only' "$minex" repart sqk.graph --old two.part --nparts 2 --iters 100000
row 'partition id 1073741822 (P inferred)' "$minex" repart ok.graph --old bigid.part
row 'partition shorter than the graph' "$minex" repart ok.graph --old short.part --nparts 2
row 'negative partition id' "$minex" repart ok.graph --old neg.part --nparts 2
row 'partition id >= P' "$minex" repart ok.graph --old ok.part --nparts 1
row 'P = 0 (--nparts 0)' "$minex" repart ok.graph --old ok.part --nparts 0
row 'P = 0 (configuration)' "$minex" repart ok.graph --old ok.part --config p0.xml
row 'procs="1073741823" (102 bytes)' "$minex" repart ok.graph --old ok.part --config procs.xml
row '4,097 clusters' "$minex" repart ok.graph --old ok.part --config many.xml
row 'every processor unavailable' "$minex" repart ok.graph --old ok.part --config unavail.xml
row 'partition: every processor unavailable' "$minex" partition "$data/mesh_gmsh_hex_v41.msh" --config unavail.xml -o x.part
row 'a cluster with no processors (legal)' "$minex" repart ok.graph --old ok.part --config empty_cluster.xml
row 'more processors than vertices (legal)' "$minex" repart ok.graph --old ok.part --nparts 64
row 'asymmetric Conn' "$minex" repart ok.graph --old ok.part --config "$data/io_link_conflict.xml"
row 'missing link, no default' "$minex" repart ok.graph --old ok.part --config "$data/io_missing_link.xml"
row 'subnormal slowdown' "$minex" repart ok.graph --old ok.part --config sub.xml
row 'XML not well formed' "$minex" repart ok.graph --old ok.part --config "$data/io_malformed.xml"
row 'XML schema violation' "$minex" repart ok.graph --old ok.part --config "$data/io_bad_schema.xml"
row 'alpha outside [0,1]' "$minex" repart ok.graph --old ok.part --alpha 1.5
row 'horizon below 1' "$minex" repart ok.graph --old ok.part --iters 0
row 'horizon above 10^9' "$minex" eval ok.graph --old ok.part --new ok.part --iters 2000000000
row 'negative ThroTTle' "$minex" repart ok.graph --old ok.part --throttle -1
row 'NaN ThroTTle' "$minex" repart ok.graph --old ok.part --throttle nan
row 'a value given to a flag' "$minex" repart ok.graph --old ok.part --paper-exact=0
row 'DRUM: subnormal bandwidth' "$minex" drum config drum_sub.xml
row 'DRUM: hexadecimal bandwidth' "$minex" drum config drum_hex.xml
row 'DRUM: processes="1000000000"' "$minex" drum config drum_procs.xml
row 'DRUM: cycle in the tree' "$minex" drum config "$data/drum_bad_cycle.xml"
row 'MEDIT: long non-integer after MeshVersionFormatted' "$minex" mesh2dual "$data/mesh_bad_version_long.mesh" -o x.graph
row 'MEDIT: huge declared count' "$minex" mesh2dual "$data/mesh_bad_hugecount.mesh" -o x.graph
row 'MEDIT: degenerate hexahedron (a node twice)' "$minex" mesh2dual "$data/mesh_mixed_hex.mesh" -o x.graph
row 'MEDIT: file cut between two sections (no End)' "$minex" mesh2dual "$data/mesh_bad_no_end.mesh" -o x.graph
row 'Gmsh: tetrahedra beside a hexahedron, a mixed mesh (legal)' "$minex" mesh2dual "$data/mesh_mixed_hex.msh" -o x.graph
row 'Gmsh: mixed kinds with --kind tet (legal)' "$minex" mesh2dual "$data/mesh_mixed_hex.msh" --kind tet -o x.graph
row 'Gmsh: high-order hexahedra and prisms beside tetrahedra (legal)' "$minex" mesh2dual "$data/mesh_mixed_highorder_hex.msh" -o x.graph
row 'Gmsh: polygon (type 34, not read)' "$minex" mesh2dual "$data/mesh_bad_polygon.msh" -o x.graph
row 'VTK: polygon cell (type 7, not read)' "$minex" mesh2dual "$data/mesh_bad_polygon.vtk" -o x.graph
row 'partition: --method metis (not linked)' "$minex" partition "$data/mesh_gmsh_hex_v41.msh" --nparts 2 --method metis -o x.part
row 'Gmsh: element type 999 (not a Gmsh type)' "$minex" mesh2dual "$data/mesh_unknown_type.msh" -o x.graph
row 'Gmsh: negative node tag' "$minex" mesh2dual "$data/mesh_bad_negative_tag.msh" -o x.graph
row 'Gmsh: binary file without elements' "$minex" mesh2dual "$data/mesh_bad_binary.msh" -o x.graph
row 'Gmsh: counts disagree' "$minex" mesh2dual "$data/mesh_bad_count.msh" -o x.graph
