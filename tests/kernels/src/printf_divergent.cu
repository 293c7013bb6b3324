// Exercise: printf in a divergent branch.
// Only odd threads print; the branch condition depends on threadIdx, so the warp
// diverges around a call to the runtime function vprintf.
#include <cstdio>

__global__ void printf_divergent(const int *in, int *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (threadIdx.x & 1) {
        printf("thread %d of block %d sees %d\n", threadIdx.x, blockIdx.x, v);
        v = -v;
    }
    out[i] = v * 2;
}
