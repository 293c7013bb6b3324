// Exercise: a __noinline__ device function called in a divergent branch.
// The callee has a loop of its own; only threads with a positive input call it.
__device__ __noinline__ float poly(float x, int degree)
{
    float r = 1.0f;
    for (int k = 0; k < degree; ++k)
        r = r * x + 1.0f;
    return r;
}

__global__ void noinline_call(const float *x, float *y, int degree)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = x[i];
    if (v > 0.0f)
        v = poly(v, degree);
    y[i] = v;
}
