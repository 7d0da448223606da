# tests/gpu/gpu_speed.sh - the checks that compare timings, run alone on the GPU
# after every correctness suite (tests/run's second phase; POSIX sh, from the
# repository root). Each solution to a write-it or fix-it exercise is timed
# against its reference row in the same run (--exercises --csv -r 20, the
# median) and must reach the speed its chapter asks for.
. tests/lib.sh

exercise_speed lab02 "reduceNeighboredMask=1.20 reduceNeighboredEarlyExit=0.90 reduceNeighboredLessOut=0.95"
exercise_speed lab03 "reduceInterleaved2=1.10 reduceInterleavedAnyN=0.90 reduceInterleavedGridStride=1.20"
exercise_speed lab04 "reduceUnrolling16=0.95 reduceUnrolling8Grid=0.95 reduceUnrolling4Tail=0.95"
exercise_speed lab05 "reduceSmemShfl=1.00 reduceMaxSmem=0.95 reduce2DNumba=0.95"
exercise_speed lab06 "transposeSmem32x8=0.95"
