/*
 * reduce_cpu.c - lab01's reductions in int, float and double. The code is in
 * reduce_cpu_t.h, written once; contracts in reduce_cpu.h.
 *
 * Differs from well-known versions: their interleaved recursion assumed a power
 * of two (an odd length silently dropped an element), and one version took a
 * std::vector by value, copying the whole array at every level. Here odd
 * lengths carry their unpaired element over, and nothing is copied.
 */
#include "reduce_cpu.h"

#define T int
#define NAME(f) f
#define T_IS_FLOATING 0
#include "reduce_cpu_t.h"
#undef T
#undef NAME
#undef T_IS_FLOATING

#define T float
#define NAME(f) f##_float
#define T_IS_FLOATING 1
#include "reduce_cpu_t.h"
#undef T
#undef NAME

#define T double
#define NAME(f) f##_double
#include "reduce_cpu_t.h"
