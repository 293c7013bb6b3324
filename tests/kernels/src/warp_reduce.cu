// Exercise: warp vote and shuffle reduction with __syncwarp.
// Lanes vote on whether any value is negative, then a shuffle-down tree sums the
// warp's values; lane 0 writes the result.
__global__ void warp_reduce(const int *in, int *out, int *neg)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    unsigned any_neg = __any_sync(0xffffffffu, v < 0);
    unsigned ballot = __ballot_sync(0xffffffffu, v & 1);
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    __syncwarp();
    if ((threadIdx.x & 31) == 0) {
        out[i >> 5] = v + __popc(ballot);
        if (any_neg)
            neg[i >> 5] = 1;
    }
}
