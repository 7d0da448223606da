#!/bin/sh
# tests/gpu/gpu_cheats.sh - the cheating students of tests/cheats/ on a GPU
# lab: lab02 graded from sources (make grade SOURCES=dir) with the solutions,
# the handout and six cheats; none may earn lab02's points, the honest
# students keep theirs, unflagged (tests/cheats/cheats.sh says how).
exec sh tests/cheats/cheats.sh lab02
