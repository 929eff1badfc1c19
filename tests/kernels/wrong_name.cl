// A kernel file that builds but has no kernel named sgemm: the harness must refuse it (exit 2).
__kernel void matmul(__global float* C)
{
    C[get_global_id(0)] = 0.0f;
}
