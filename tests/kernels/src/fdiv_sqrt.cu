// Exercise: float division and sqrt (IEEE-exact, so with slow paths).
// Without -use_fast_math, '/' and sqrtf compile to a fast sequence plus a call to
// a slow-path subroutine taken for denormals and special values.
__global__ void fdiv_sqrt(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = sqrtf(a[i]) / b[i];
}
