/*
 * atomiclab_exercises.cuh - the exercise of the atomicAdd example lab
 * (tests/example/atomiclab.cu), handed out as its lab's exercises.cuh.
 */
/* Write it: each block's sum with atomicAdd on a __shared__ total (cleared
 * by thread 0, a barrier before and after the additions), then thread 0
 * writes it to g_odata[blockIdx.x]. Elements at n and past it are poison. */
__global__ void reduceSmemAtomic(int *g_idata, int *g_odata, unsigned int n) { WB_TODO(); }
