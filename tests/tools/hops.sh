#!/bin/sh
# tests/tools/hops.sh [DIR] - how often common/ calls through a pointer: the
# callbacks (function-pointer fields) of its structs, found by
# tests/tools/fields.awk, and the call sites through a pointer in its .c and
# .cu files, one per line. docs/maintainers.md ("Hops") states both figures
# and how many of them one row passes; tests/tools/layers.sh fails when the
# figures there and these differ. POSIX sh.
dir=${1:-.}
here=$(cd "$(dirname "$0")/../.." && pwd)
awk -f "$here/tests/tools/fields.awk" "$dir"/common/*.h "$dir"/common/*.h |
    awk '{ n += $(NF - 1); s = s sprintf(" %s %d,", $2, $(NF - 1)) }
         END { sub(/,$/, "", s); printf "callbacks %d:%s\n", n, s }'
grep -nE '[a-z_]+->[a-z_]+\(|\)\(ctx\)|\b(work|reset|lab_notes)\(' "$dir"/common/*.c "$dir"/common/*.cu |
    grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)' | sed 's|^.*/common/|common/|' | cut -d: -f1 | sort | uniq -c |
    awk '{ n += $1; s = s sprintf(" %s %d,", $2, $1) } END { sub(/,$/, "", s); printf "call sites %d:%s\n", n, s }'
