// control_chain — the compiler's own schedule, as the SASS control bits carry it (issue #42).
// One global load whose consumer must wait for it (the load sets a scoreboard barrier, the
// consumer's wait mask names it), independent work issued while the load is in flight, and
// a chain of dependent multiply-adds that ptxas spaces by stall counts alone (fixed latency,
// no barrier). Straight-line: the cost=control bound is the run.
__global__ void control_chain(const float *in, float *out, float a, float b) {
    unsigned i = threadIdx.x;
    float x = in[i];
    float y = a * b + 1.0f;
    y = y * a + b;
    y = y * a + b;
    float z = x * y + a;
    z = z * z + b;
    z = z * z + b;
    out[i] = z;
}
