// One kernel, two GPU generations: the source of the gallery examples its-sm61 and its-sm86
// (www/examples/its-sm61.sass, its-sm86.sass: cuobjdump output, verbatim). Made with CUDA 11.8:
//   nvcc -ccbin g++-11 -cubin -O3 -arch=sm_61 its.cu -o its61.cubin && cuobjdump -sass its61.cubin
//   nvcc -ccbin g++-11 -cubin -O3 -arch=sm_86 its.cu -o its86.cubin && cuobjdump -sass its86.cubin
// (with -cubin the host compiler only preprocesses). The tests never need the toolkit.
//
// Each thread takes one number. The if/else on its sign and the loop's break both
// depend on the thread's own data, so the 32 threads of a warp can disagree.

#define MAX_STEPS 16  // the loop runs at most 16 times: its loop bound

__global__ void collatz_steps(const int *in, int *steps, int *done_at, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[i];

    // A data-dependent if/else: negative and non-negative inputs take different paths.
    if (x < 0)
        x = (-x) % m + 1;
    else
        x = x / m + 2;

    // A loop with a data-dependent break: each thread stops when its number reaches 1.
    int n = 0;
    done_at[i] = -1;
#pragma unroll 1
    for (int k = 0; k < MAX_STEPS; ++k) {
        if (x <= 1) {
            done_at[i] = k;
            break;
        }
        x = (x & 1) ? 3 * x + 1 : x / 2;
        ++n;
    }
    steps[i] = n;
}
