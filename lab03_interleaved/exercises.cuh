/*
 * exercises.cuh - YOUR exercises for lab03 (interleaved pairing). This is the file you edit.
 *
 *   make lab03 && ./lab03 --exercises     each exercise's row right under the row of the
 *                                         kernel it is measured against: todo, PASS or FAIL
 *   ./lab03 -k reduceInterleaved2         one exercise (and its reference row)
 *   ./lab03 --exercises -n 1000003 -b 128 other sizes and blocks: a correct kernel passes them all
 *
 * The first three are *write it* exercises: a stub whose body is WB_TODO().
 * Until you delete that line the row says `todo` (not run, not timed). Then
 * it is checked exactly against the CPU sum like every kernel, and timed the
 * same way; its speedup is against reduceInterleaved, the row above it. The
 * fourth is a *fix it*: a kernel that runs, and FAILs until you fix it; its
 * speedup is against gpuRecursiveReduce.
 * --exercises runs at n = 16777213 (2^24 - 3) unless you give -n: that length
 * is no multiple of any block, so the last block is a partial one and a
 * mistake at the end of the input shows. Test small n too (-n 1, -n 33).
 *
 * The contract is the one of common/kernels/reduce_interleaved.cuh, except
 * where an exercise says otherwise: g_idata holds the n inputs, then zeros up to
 * gridDim.x * blockDim.x * U (U: the elements each thread adds first, 1
 * unless the exercise says so); block b works in place on its slice and
 * writes its partial sum to g_odata[b]; the host adds the partial sums.
 * blockDim.x is a power of two from 32 to 1024. Before each kernel runs, the
 * harness fills g_odata with poison, so a partial sum nobody writes shows.
 *
 * Handing in: `make handin NAME=yourname` writes the CSV of every lab's
 * --exercises run. The chapter's Exercises section: docs/lab03.md.
 */
#ifndef LAB03_EXERCISES_CUH
#define LAB03_EXERCISES_CUH

#include "workbook.h"

/* -------------------------------------------------------------------------- */
/* Exercise 1 (write it): reduceInterleaved2                                  */
/* -------------------------------------------------------------------------- */
/*
 * Two elements per thread. Block b covers 2 * blockDim.x elements starting at
 * b * 2 * blockDim.x, and the grid is ceil(n / (2 * blockDim.x)): half the
 * blocks of reduceInterleaved. Each thread first adds the element one block
 * width after its own into its own slot,
 *     g_idata[idx] += g_idata[idx + blockDim.x]   (idx = b * 2 * blockDim.x + tid)
 * then, after a barrier, the block runs reduceInterleaved's tree on the first
 * blockDim.x slots of its slice. The zeros run up to the end of the last
 * block's 2 * blockDim.x slots, but add the second element only when it is
 * below n (a habit that pays off in the next exercise).
 *
 * Why should it be faster? Every warp has two independent loads in flight
 * at the start instead of one, and there are half as many trees, each with
 * its 9 barriers at -b 512. Both loads of a warp are coalesced: 32
 * consecutive ints each.
 *
 * Hint: the tree's idata points at the block's slice, now
 * g_idata + blockIdx.x * blockDim.x * 2. Forget the barrier between the
 * first additions and the tree and the result depends on timing.
 *
 * Measured against reduceInterleaved. PASS: the exact sum at every n and
 * block. Speed to aim for: at least 1.1x reduceInterleaved.
 */
__global__ void reduceInterleaved2(int *g_idata, int *g_odata, unsigned int n)
{
    WB_TODO(); /* delete this line, then write the kernel */
}

/* -------------------------------------------------------------------------- */
/* Exercise 2 (write it): reduceInterleavedAnyN                               */
/* -------------------------------------------------------------------------- */
/*
 * reduceInterleaved (one element per thread, grid ceil(n / blockDim.x)) for
 * an input with no zero padding: in this exercise the slots after the n
 * inputs hold 0x55555555, so the kernel must look at n itself and never
 * read a slot at or past n. A kernel that reads one such slot FAILs.
 *
 * The book's answer, `if (idx >= n) return;` before the loop, is wrong twice:
 * the threads that stay still read past n (thread 0 of the last block adds
 * idata[stride] at the first steps, whatever n is), and a thread that
 * returns never reaches the __syncthreads() the others wait at, which CUDA
 * leaves undefined. Every thread must run every step of the loop and reach
 * every barrier; only the reads need a test.
 *
 * Hint: which global element does thread tid read at step `stride`? Add it
 * only if that element is below n. Convince yourself that a slot past n is
 * then never read, not even one that an earlier step would have filled.
 *
 * Measured against reduceInterleaved. PASS: the exact sum at every n and
 * block, from the inputs alone. Speed to aim for: at least 0.9x
 * reduceInterleaved. The test costs two instructions per step, yet the row
 * shows it: this tree waits on memory at every step, and whatever sits
 * between the barrier and the next load lengthens every wait.
 */
__global__ void reduceInterleavedAnyN(int *g_idata, int *g_odata, unsigned int n)
{
    WB_TODO(); /* delete this line, then write the kernel */
}

/* -------------------------------------------------------------------------- */
/* Exercise 3 (write it): reduceInterleavedGridStride                         */
/* -------------------------------------------------------------------------- */
/*
 * A grid sized to the GPU, not to n: lab03.cu launches as many blocks as fit
 * on the GPU at once (grid_reduceInterleavedGridStride; never more than
 * ceil(n / blockDim.x)), whatever n is, so each thread has many elements to
 * add, not one. The slots after the n inputs hold 0x55555555 here too.
 *
 * 1. Each thread adds its elements in a grid-stride loop:
 *        for (i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
 *    At each turn of the loop a warp reads 32 consecutive ints: coalesced,
 *    and every element is read by exactly one thread.
 * 2. The thread writes its sum to one slot, then the block runs
 *    reduceInterleaved's tree on its blockDim.x slots and thread 0 writes
 *    the block's partial sum to g_odata[blockIdx.x].
 *
 * Hint: where may the per-thread sums go? They must not overwrite an
 * element that some thread, of any block, has still to read, since blocks
 * do not wait for each other. Which thread reads g_idata[i] for
 * i < gridDim.x * blockDim.x, and when? The answer gives you a slot that is
 * safe to use in place. (lab05 keeps such sums in shared memory instead.)
 * And keep every thread at every __syncthreads(): a thread with no element
 * at all still writes its slot (a 0) and joins the tree.
 *
 * Measured against reduceInterleaved. PASS: the exact sum at every n and
 * block, from the inputs alone. Speed to aim for: at least 1.2x
 * reduceInterleaved: the loads stream through the whole input once, and
 * there are few blocks, so few trees.
 */
__global__ void reduceInterleavedGridStride(int *g_idata, int *g_odata, unsigned int n)
{
    WB_TODO(); /* delete this line, then write the kernel */
}

/* -------------------------------------------------------------------------- */
/* Exercise 4 (fix it): gpuRecursiveReduceNosync                              */
/* -------------------------------------------------------------------------- */
/*
 * Recursion on the GPU (the chapter's last section; gpuRecursiveReduce in
 * reduce_recursive.cuh is the shipped version). This kernel is a straight
 * port of a CUDA 11 recursion that used the book's pairing (element i adds
 * element i + n/2, the book's `istride = isize >> 1`) and handled an odd n
 * the way a recursive function usually does: recurse on the pairs, wait for
 * the result, then add the odd one out:
 *
 *     child<<<...>>>(g_idata, g_odata, n / 2);
 *     cudaDeviceSynchronize();          // CUDA 11: wait for the child's sum
 *     if (n % 2 == 1) g_odata[0] += g_idata[n - 1];
 *
 * CUDA 12 has no cudaDeviceSynchronize() in device code, so the port
 * launches the child into cudaStreamTailLaunch (which waits for the whole
 * grid before the child starts, as the next level needs) and deletes the
 * wait. It compiles, it PASSes at every power of two, and it FAILs at
 * n = 16777213, every time, not by chance.
 *
 * Why? When does the child run, relative to the line after the launch? Who
 * writes g_odata[0] last? Fix it so that nothing the parent does depends on
 * the child having run: whatever came after the wait must happen before the
 * launch (or in the child). Keep the book's pairing (i with i + n/2).
 *
 * Hint: thread 0 is the only thread that touches g_idata[0] and
 * g_idata[n - 1] at this level; anything it writes before the launch, the
 * child sees. One line moves, and changes the array it adds into.
 *
 * The contract of gpuRecursiveReduce: any n >= 1, grid ceil(n / (2 *
 * blockDim.x)) (one thread per pair), nothing at or past n is read (the
 * slots after the n inputs hold 0x55555555 here), the sum goes to
 * g_odata[0]. Measured against gpuRecursiveReduce. PASS: the exact sum at
 * every n and block. Speed: that of gpuRecursiveReduce.
 */
#ifndef WB_NO_CDP /* make sanitize also builds lab03 without dynamic parallelism (NOCDP=1) for
                   * racecheck, synccheck and initcheck, which cannot follow a launch from the
                   * device: this kernel is left out of that build */
__global__ void gpuRecursiveReduceNosync(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int istride = n / 2; /* the book's pairing: i with i + n/2 */

    /* stop condition */
    if (n == 1) {
        if (i == 0)
            g_odata[0] = g_idata[0];
        return;
    }

    /* in place reduction: the pairs (i, i + istride); an odd n leaves
     * g_idata[n - 1] unpaired */
    if (i < istride)
        g_idata[i] += g_idata[i + istride];

    /* nested invocation: one child grid, on the first istride elements, after
     * every block of this grid (the tail launch) */
    if (i == 0) {
        unsigned int grid = (istride / 2 + blockDim.x - 1) / blockDim.x;
        gpuRecursiveReduceNosync<<<grid > 0 ? grid : 1, blockDim.x, 0, cudaStreamTailLaunch>>>(
            g_idata, g_odata, istride);
        /* here CUDA 11 waited: cudaDeviceSynchronize(); */
        if (n % 2 == 1) /* the odd one out, added to the child's sum */
            g_odata[0] += g_idata[n - 1];
    }
}
#endif /* WB_NO_CDP */

#endif /* LAB03_EXERCISES_CUH */
