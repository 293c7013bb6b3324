// Exercise: grid-stride loop with integer division and modulo.
// Converts a linear index into (row, column) of a width-wide matrix with / and %,
// which the compiler expands into a multiply-high sequence plus a fix-up branch.
__global__ void grid_stride_divmod(const float *in, float *out, int n, int width)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        int r = i / width;
        int c = i % width;
        out[c * (n / width) + r] = in[i];
    }
}
