// A kernel file whose sgemm takes eight arguments, but a buffer where the step passes an int
// (M): the harness must refuse it (exit 2), as it refuses a wrong kernel name.
__kernel void sgemm(__global float* M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    C[get_global_id(0)] = M[0];
}
