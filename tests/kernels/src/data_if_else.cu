// Exercise: data-dependent if/else.
// Threads take different arms depending on the loaded value (a classic "clamp or
// scale" exercise); both arms are long enough not to be predicated away entirely.
__global__ void data_if_else(const float *x, float *y, float lo, float hi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    if (v < lo) {
        v = lo + (lo - v) * 0.5f;
        y[i] = v * v;
    } else if (v > hi) {
        v = hi - (v - hi) * 0.25f;
        y[i] = v * v * v;
    } else {
        y[i] = v;
    }
}
