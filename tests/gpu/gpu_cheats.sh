#!/bin/sh
# tests/gpu/gpu_cheats.sh - the cheating students of tests/cheats/ on a GPU
# lab: lab02 graded from sources (make grade SOURCES=dir) with the solutions,
# the handout, the six forgers and, in the sandbox (tools/grader/sandbox.sh, with
# the GPU's /dev/nvidia* nodes), the cheats that go after the machine (an
# escape that edits the grader's records, a reader, a writer, a fork bomb,
# a flood, a disk filler, a network call, an includer of the solution):
# none may earn more than the stub, none reaches what it went for, the
# honest students keep their points, unflagged (tests/cheats/cheats.sh).
exec sh tests/cheats/cheats.sh lab02
