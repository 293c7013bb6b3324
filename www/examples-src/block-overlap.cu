// Gallery example of the `block` mode (Warpbound): every thread of the block loads one
// float, computes a short polynomial of it and stores it. Alone a warp mostly waits for its
// load; in a block the warps' loads are in flight together, so four warps take far less
// than four times one. (No `if (i < n)`: every warp of the block works.)
// Compiled with: nvcc -ccbin clang-14 -cubin -arch=sm_61 block-overlap.cu && cuobjdump -sass
__global__ void polynomial(const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = x[i];
  y[i] = (3.0f * v + 2.0f) * v + 0.5f;
}
