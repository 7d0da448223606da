#!/bin/sh
# callgraph.sh [DIR] - which common/ file calls a wb_ function defined in which
# other file, one line per pair of files: "common/a.c -> common/b.c  (wb_x) (wb_y)".
# A definition is a line at column 0 that names wb_x( and does not end in ';'.
# A function that a file defines itself is its own (device.h's three are
# defined in both gpu.cu and cpu_device.c, a program links one of them).
# tests/tools/layers.sh fails when a pair appears both ways (a circle).
cd "${1:-.}" || exit 2
defs=$(mktemp "${TMPDIR:-/tmp}/callgraph.XXXXXX") || exit 2
trap 'rm -f "$defs"' EXIT
for f in common/*.c common/*.cu; do
  grep -oE '^[a-z][^;]*\bwb_[a-z0-9_]+\(' "$f" | grep -oE 'wb_[a-z0-9_]+\($' | tr -d '(' | sed "s|^|$f |"
done | sort -u > "$defs"
for f in common/*.c common/*.cu; do
  sed -e 's|/\*.*\*/||' "$f" | grep -oE '\bwb_[a-z0-9_]+\(' | tr -d '(' | sort -u | while read -r fn; do
    grep -qx "$f $fn" "$defs" ||
      awk -v fn="$fn" -v f="$f" '$2 == fn && $1 != f { print f " -> " $1 " (" fn ")" }' "$defs"
  done
done | sort | awk '{ k = $1 " -> " $3; if (k != last) { if (last) print last "  " fns; fns = $4; last = k } else fns = fns " " $4 } END { if (last) print last "  " fns }'
