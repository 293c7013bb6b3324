// Exercise: a 2D texture fetch through a texture object (tex2D with point filtering).
// Thread x of block y reads the texel at (x - 1.5, y + 1.25): with nearest-point sampling
// and clamp addressing that is column max(x - 2, 0) of row y + 1, written to out[y * w + x].
#include <cuda_runtime.h>

__global__ void tex_fetch(unsigned *out, cudaTextureObject_t t, int w)
{
    int x = threadIdx.x;
    int y = blockIdx.x;
    unsigned v = tex2D<unsigned>(t, x - 1.5f, y + 1.25f);
    out[y * w + x] = v;
}
