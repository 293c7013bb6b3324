// Exercise: tex1Dfetch — integer-index fetches from linear memory, through a texture
// reference of int2 texels (`pairs`, bound by the host with cudaBindTexture) and a texture
// object of float4 texels (`quads`). Thread i reads pair i - 3 (an index below 0 for the
// first three threads) and quad i + n, and writes p.x - p.y and q.x + 2 q.y + 4 q.z + 8 q.w.
#include <cuda_runtime.h>

texture<int2, 1, cudaReadModeElementType> pairs;

__global__ void tex1d_fetch(int *diff, float *dot, cudaTextureObject_t quads, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int2 p = tex1Dfetch(pairs, i - 3);
    float4 q = tex1Dfetch<float4>(quads, i + n);
    diff[i] = p.x - p.y;
    dot[i] = q.x + 2.0f * q.y + 4.0f * q.z + 8.0f * q.w;
}
