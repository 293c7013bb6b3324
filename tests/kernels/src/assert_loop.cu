// Exercise: assert inside a loop.
// Each thread sums a row of n values and asserts every value is non-negative;
// the failing path calls the runtime function __assertfail.
#include <cassert>

__global__ void assert_loop(const int *a, int *sum, int n)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int s = 0;
    for (int j = 0; j < n; ++j) {
        int v = a[row * n + j];
        assert(v >= 0);
        s += v;
    }
    sum[row] = s;
}
