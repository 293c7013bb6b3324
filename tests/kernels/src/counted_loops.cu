// Exercise: counted loops whose trip counts follow from the code — a constant, a kernel
// parameter, a launch dimension — in the shapes nvcc -O3 gives them: a parameter-bounded
// loop unrolled with remainder loops, a shared-memory reduction halving blockDim.x, a
// triangular nest, a 64-bit counter, and a loop with a constant count and a data exit.
__global__ void sum_n(const float *a, float *out, int n)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    out[threadIdx.x] = s;
}

__global__ void reduce_tree(float *a)
{
    __shared__ float buf[1024];
    buf[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    a[threadIdx.x] = buf[0];
}

__global__ void triangle(float *a, int n)
{
    float s = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++)
            s += a[i * n + j];
    a[threadIdx.x] = s;
}

__global__ void stride64(const float *a, float *out, long n)
{
    float s = 0;
    for (long i = threadIdx.x; i < n; i += 7)
        s += a[i];
    out[threadIdx.x] = s;
}

__global__ void find_first(const int *a, int *out)
{
    int i = 0;
    for (; i < 100; i++)
        if (a[i * 32 + threadIdx.x] == 0)
            break;
    out[threadIdx.x] = i;
}
