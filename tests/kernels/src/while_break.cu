// Exercise: while loop with a break on data.
// Each thread scans forward from its index until it finds a zero (a sentinel) or
// runs out of input; the trip count depends on the data.
__global__ void while_break(const int *data, int *pos, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int j = i;
    while (j < n) {
        if (data[j] == 0)
            break;
        ++j;
    }
    pos[i] = j;
}
