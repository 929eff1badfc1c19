// A kernel file with a kernel named sgemm that takes other arguments than the step passes (three
// instead of eight): the harness must refuse it (exit 2), as it refuses a wrong kernel name.
__kernel void sgemm(const int M, const int N, __global float* C)
{
    const int i = get_global_id(1) * N + get_global_id(0);
    if (i < M * N)
        C[i] = 0.0f;
}
