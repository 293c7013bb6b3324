// Exercise: surface reads and writes (surf2Dread / surf2Dwrite, byte-addressed x).
// Thread x of block y adds its right-hand neighbour to its own element, in place; the
// neighbour read past the right edge returns zero (cudaBoundaryModeZero).
#include <cuda_runtime.h>

__global__ void surface_rw(cudaSurfaceObject_t s, int w)
{
    int x = threadIdx.x;
    int y = blockIdx.x;
    unsigned v;
    surf2Dread(&v, s, x * 4, y);
    unsigned r = 0;
    if (x < w)
        surf2Dread(&r, s, (x + 1) * 4, y, cudaBoundaryModeZero);
    surf2Dwrite(v + r, s, x * 4, y);
}
