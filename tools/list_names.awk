# tools/list_names.awk - the kernel names in a lab's --list, one per line.
#
#   ./lab05 --list | awk -v which=kernels -f tools/list_names.awk
#
# which = kernels (the first block of lines), exercises (the lines after
# "exercises in ..."), matrix or matrix-exercises (the same of lab05's part
# after "matrix mode"). A line that starts with a blank is a description
# wrapped onto the next line, not a name. Used by tools/sanitize.sh and
# tools/profile.sh.
/^matrix mode/ { matrix = 1; blank = 0; next }
/^$/ { blank = 1; next }
/^exercises in / { next }
/^[ \t]/ { next }
{ w = matrix ? (blank ? "matrix-exercises" : "matrix") : (blank ? "exercises" : "kernels") }
w == which { print $1 }
