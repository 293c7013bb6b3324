// Exercise: atomicAdd in a loop (a histogram).
// Each thread walks its share of the input and increments a global bin per element.
__global__ void atomic_loop(const unsigned char *in, unsigned int *bins, int n, int per_thread)
{
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * per_thread;
    for (int k = 0; k < per_thread; ++k) {
        int i = base + k;
        if (i < n)
            atomicAdd(&bins[in[i]], 1u);
    }
}
