// A course exercise: a data-dependent if/else with a printf. The source of the gallery
// example warp-cfg-ptx-printf (www/examples/warp-cfg-ptx-printf.ptx: nvcc's PTX, verbatim).
// Made with CUDA 11.8:
//   nvcc -ccbin g++-11 -ptx -arch=sm_86 course-printf.cu -o warp-cfg-ptx-printf.ptx
// The tests never need the toolkit.
//
// Whether a thread doubles its element or prints depends on the element, so the 32 threads
// of a warp can take both sides: the warp runs one side, then the other, and meets again
// after the if/else.

#include <cstdio>

__global__ void double_positive(int *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (a[i] > 0)
            a[i] *= 2;
        else
            printf("a[%d] = %d is not positive\n", i, a[i]);
    }
}
