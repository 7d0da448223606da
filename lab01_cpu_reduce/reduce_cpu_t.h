/*
 * reduce_cpu_t.h - lab01's reductions, written once for an element type T.
 * Read it as if T were int: reduce_cpu.c includes this file three times,
 * with T = int (reduce_sequential, ...), float (reduce_sequential_float, ...)
 * and double (reduce_sequential_double, ...); NAME(f) gives f its type's
 * name. C has no templates: this is the C way to write a function once for
 * several types. Contracts in reduce_cpu.h.
 */
T NAME(reduce_sequential)(T *a, size_t n)
{
    T s = 0;
    size_t i;
    for (i = 0; i < n; ++i)
        s += a[i];
    return s;
}

void NAME(neighbored_level)(T *a, size_t n, size_t stride)
{
    size_t i;
    for (i = 0; i + stride < n; i += 2 * stride)
        a[i] += a[i + stride];
}

size_t NAME(interleaved_level)(T *a, size_t n)
{
    size_t half = (n + 1) / 2, i; /* live elements after this level */
    for (i = 0; i + half < n; ++i)
        a[i] += a[i + half];
    return half;
}

/* a[0], a[2s], a[4s], ... hold the partial sums at stride s. */
static T NAME(neighbored_from)(T *a, size_t n, size_t stride)
{
    if (stride >= n)
        return a[0];
    NAME(neighbored_level)(a, n, stride);
    return NAME(neighbored_from)(a, n, 2 * stride);
}

T NAME(reduce_recursive_neighbored)(T *a, size_t n)
{
    return NAME(neighbored_from)(a, n, 1);
}

T NAME(reduce_iterative_neighbored)(T *a, size_t n)
{
    size_t stride;
    for (stride = 1; stride < n; stride *= 2)
        NAME(neighbored_level)(a, n, stride);
    return a[0];
}

T NAME(reduce_recursive_interleaved)(T *a, size_t n)
{
    if (n == 1)
        return a[0];
    return NAME(reduce_recursive_interleaved)(a, NAME(interleaved_level)(a, n));
}

T NAME(reduce_iterative_interleaved)(T *a, size_t n)
{
    while (n > 1)
        n = NAME(interleaved_level)(a, n);
    return a[0];
}

#if T_IS_FLOATING
/* Kahan's compensated sum: c holds what the last addition rounded away (with
 * its sign flipped), and the next element gets it back. In exact arithmetic
 * c is always 0; a compiler allowed to assume that (-ffast-math) deletes it. */
T NAME(reduce_kahan)(const T *a, size_t n)
{
    T s = 0, c = 0, y, t;
    size_t i;
    for (i = 0; i < n; ++i) {
        y = a[i] - c;
        t = s + y;
        c = (t - s) - y; /* (s + y rounded) - s - y: minus the rounding error */
        s = t;
    }
    return s;
}
#endif
