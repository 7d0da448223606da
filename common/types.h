/*
 * types.h - the element types (--type), made from the one list in
 * types.def: the enum wb_type, WB_NTYPES, each type's name, size and
 * traits (the exact integers it holds, the uniform input's step, its unit
 * roundoff); for CUDA code wb_traits<T> (the 16-byte vector type) and
 * wb_with_type, where the run's type becomes T.
 */
#ifndef WB_TYPES_H
#define WB_TYPES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
#define WB_TYPE(e, ...) e,
#include "types.def"
#undef WB_TYPE
    WB_NTYPES /* how many there are */
} wb_type;

#define WB_TYPE_BIT(t) (1u << (t))
#define WB_ALL_TYPES ((1u << WB_NTYPES) - 1)

/* What the host code needs of a type. */
typedef struct {
    const char *name;   /* "int" */
    size_t size;        /* bytes per element */
    long long exact_max; /* the largest integer it holds with every smaller one exact */
    int step_bits;      /* the uniform input is on a grid of 2^-step_bits (0: int, no such input) */
    int roundoff_bits;  /* unit roundoff u = 2^-roundoff_bits; 0: its sums are exact (int) */
} wb_type_traits;
extern const wb_type_traits wb_types[WB_NTYPES];

/* "int", "float", "double" */
const char *wb_type_name(wb_type t);

/* The types of a mask of WB_TYPE_BIT()s, in words, into buf: "int",
 * "int or float", "int, float or double" (a mask of 0 is int alone). */
void wb_type_names(unsigned types, char *buf, size_t len);

/* Bytes per element of type t. */
static inline size_t wb_type_size(wb_type t) { return wb_types[t].size; }

/* C code that calls a function per type: the expression for int, float or
 * double, only that one evaluated (CUDA code calls wb_with_type below).
 * It names each type: a new type in types.def adds an argument here, and
 * the line after it stops the build until it does. */
#define WB_BY_TYPE(t, for_int, for_float, for_double) \
    ((t) == WB_FLOAT ? (for_float) : (t) == WB_DOUBLE ? (for_double) : (for_int))
typedef char wb_by_type_names_every_type[WB_NTYPES == 3 ? 1 : -1];

#ifdef __cplusplus
} /* extern "C" */
#endif

#ifdef __CUDACC__
/* The type T's traits: its wb_type; its 16-byte vector (int4, float4,
 * double2: one load instruction); whether its sums are exact (the order of
 * the additions changes nothing), and the type the host adds its partial
 * sums in (long long for an exact type, so that no sum overflows; else T,
 * as a program in T would). */
template <bool exact, typename T> struct wb_host_sum_of { typedef T type; };
template <typename T> struct wb_host_sum_of<true, T> { typedef long long type; };
template <typename T> struct wb_traits;
#define WB_TYPE(e, T, name, bytes, V, exact_max, step_bits, roundoff_bits)    \
    template <> struct wb_traits<T> {                                         \
        typedef V vec16;                                                      \
        static constexpr wb_type type = e;                                    \
        static constexpr bool exact = (roundoff_bits) == 0;                   \
        typedef wb_host_sum_of<(roundoff_bits) == 0, T>::type host_sum;       \
    };
#include "types.def"
#undef WB_TYPE

/* f(T()) with T the C type of the run's element type t: the type becomes T
 * here, and everything below it is a template. f is a generic lambda that
 * returns the same type for every T (or nothing):
 *     wb_with_type(type, [&](auto z) {
 *         using T = decltype(z);
 *         kernel<T><<<grid, block>>>((T *)data, (T *)partial, n);
 *     });                                                                    */
template <typename F>
static inline auto wb_with_type(wb_type t, F f)
{
    switch (t) {
#define WB_TYPE(e, T, ...) \
    case e:                \
        return f(T());
#include "types.def"
#undef WB_TYPE
    default:
        return f(int());
    }
}
#endif /* __CUDACC__ */

#endif /* WB_TYPES_H */
