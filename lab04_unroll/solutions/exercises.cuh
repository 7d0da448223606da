/*
 * solutions/exercises.cuh - the instructor's solutions to lab04's exercises,
 * in the shape of the student's exercises.cuh (same names, same contracts).
 * `make lab04 SOLUTIONS=1` builds the lab with this file instead; a run's
 * CSV then says `+solutions` in its build column. Not in the students' copy
 * (make handout).
 */
#ifndef LAB04_EXERCISES_CUH
#define LAB04_EXERCISES_CUH

#include "workbook.h"

/* Exercise 1 (write it): 16 independent loads per thread, the tail guarded. */
__global__ void reduceUnrolling16(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 16 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 16;

    if (idx + 15 * blockDim.x < n) {
        int a[16];
#pragma unroll
        for (int k = 0; k < 16; ++k) /* 16 loads, none waits for another */
            a[k] = g_idata[idx + k * blockDim.x];
        int sum = 0;
#pragma unroll
        for (int k = 0; k < 16; ++k)
            sum += a[k];
        g_idata[idx] = sum;
    } else {
        /* the last block: only the elements below n */
        int sum = 0;
        for (unsigned int k = 0; k < 16; ++k)
            if (idx + k * blockDim.x < n)
                sum += g_idata[idx + k * blockDim.x];
        g_idata[idx] = sum;
    }
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

/* Exercise 2 (fix it): round up. n / block / 8 leaves out the last
 * n % (8 * block) elements, and launches no block at all when n < 8 * block. */
static unsigned grid_reduceUnrolling8Grid(unsigned n, unsigned block)
{
    return (n + 8 * block - 1) / (8 * block);
}

/* Exercise 3 (fix it): a thread whose four elements are not all below n
 * adds those that are. The book has no else: such a thread keeps its first
 * element alone (dropping up to three), and a thread past n leaves its slot
 * as it was, which the tree then adds (here 0x55555555; with zero padding
 * the book gets away with it). Every thread must write its slot. */
__global__ void reduceUnrolling4Tail(int *g_idata, int *g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockIdx.x * blockDim.x * 4 + threadIdx.x;
    int *idata = g_idata + blockIdx.x * blockDim.x * 4;

    if (idx + 3 * blockDim.x < n) {
        int a1 = g_idata[idx];
        int a2 = g_idata[idx + blockDim.x];
        int a3 = g_idata[idx + 2 * blockDim.x];
        int a4 = g_idata[idx + 3 * blockDim.x];
        g_idata[idx] = a1 + a2 + a3 + a4;
    } else {
        int sum = 0;
        for (unsigned int k = 0; k < 4; ++k)
            if (idx + k * blockDim.x < n)
                sum += g_idata[idx + k * blockDim.x];
        g_idata[idx] = sum;
    }
    __syncthreads();

    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }

    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

#endif /* LAB04_EXERCISES_CUH */
