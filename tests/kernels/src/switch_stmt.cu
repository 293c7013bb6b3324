// Exercise: a switch statement.
// Each element carries an operation code; a dense switch may become a jump table
// (indirect branch) or a compare chain, depending on the compiler's choice.
__global__ void switch_stmt(const int *op, const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = x[i];
    switch (op[i]) {
    case 0: v = v + 1.0f; break;
    case 1: v = v * 3.0f; break;
    case 2: v = v - 7.0f; break;
    case 3: v = v * v; break;
    case 4: v = -v; break;
    case 5: v = v * 0.5f + 2.0f; break;
    case 6: v = v * v * v; break;
    default: v = 0.0f; break;
    }
    y[i] = v;
}
