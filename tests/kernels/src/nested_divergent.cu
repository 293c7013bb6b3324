// Exercise: nested loops with a divergent inner trip count.
// Triangular iteration: thread t's inner loop runs (t % 32) + 1 times, so lanes of a
// warp leave the inner loop at different times.
__global__ void nested_divergent(const float *a, float *out, int outer)
{
    int t = threadIdx.x;
    float s = 0.0f;
    for (int k = 0; k < outer; ++k) {
        int m = (t & 31) + 1;
        for (int j = 0; j < m; ++j)
            s += a[k * 32 + j];
    }
    out[blockIdx.x * blockDim.x + t] = s;
}
