// Kernels for the occupancy tests (issue #41): static and dynamic shared memory, 64- and
// 128-bit registers at the top of the register range, and a launch bound that caps the
// registers. Built by scripts/build-occupancy-kernels.sh; the dumps and listings next to this
// directory are the tools' unmodified output.

// 4 KiB of static shared memory: a block-wide tile summed through shared memory.
__global__ void tile_sum(const float *in, float *out) {
  __shared__ float tile[1024];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = tile[0];
}

// 256 bytes static plus whatever dynamic shared memory the launch gives.
__global__ void dyn_shared(const int *in, int *out, int n) {
  extern __shared__ int dyn[];
  __shared__ int counts[64];
  int t = threadIdx.x;
  if (t < 64) counts[t] = 0;
  dyn[t] = in[t];
  __syncthreads();
  atomicAdd(&counts[dyn[t] & 63], 1);
  __syncthreads();
  if (t < 64 && t < n) out[t] = counts[t];
}

// Doubles and float4 loads: the highest registers are halves of pairs and quads.
__global__ void wide_regs(const double *a, const float4 *b, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = a[i], y = a[i + 1], z = a[i + 2];
  float4 v = b[i];
  double acc = 0.0;
  for (int k = 0; k < 8; ++k) {
    acc = fma(acc, x, y) + z * (double)v.x;
    x = x * 0.5 + (double)v.y;
    y = y - (double)v.z * acc;
    z = z + (double)v.w;
  }
  out[i] = acc + x + y + z;
}

// 1024 threads per block at most: ptxas keeps the registers at 64 or fewer.
__global__ void __launch_bounds__(1024) bounded(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float r[16];
  for (int k = 0; k < 16; ++k) r[k] = a[i * 16 + k];
  float s = 0.0f;
  for (int k = 0; k < 16; ++k) s += r[k] * r[(k * 7) & 15];
  out[i] = s;
}
