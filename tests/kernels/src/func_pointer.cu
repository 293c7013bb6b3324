// Exercise: a (recursion-free) function pointer call.
// The operation is chosen per thread from a table of device functions and called
// through a pointer.
typedef float (*unary_op)(float);

__device__ float op_square(float x) { return x * x; }
__device__ float op_negate(float x) { return -x; }
__device__ float op_half(float x) { return 0.5f * x; }

__device__ unary_op ops[3] = {op_square, op_negate, op_half};

__global__ void func_pointer(const float *x, float *y, const int *which, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unary_op f = ops[which[i] % 3];
        y[i] = f(x[i]);
    }
}
