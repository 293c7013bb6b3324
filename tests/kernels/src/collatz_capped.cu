// Exercise: a loop that exits on data or on a counter (the Collatz step count, capped).
// Each thread follows the Collatz sequence of its start value until it reaches 1 or has
// taken 1000 steps; the trip count depends on the data, the cap does not.
__global__ void collatz_capped(const unsigned *start, unsigned *steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = start[i];
    int c = 0;
    while (x != 1 && c < 1000) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        c++;
    }
    steps[i] = c;
}
