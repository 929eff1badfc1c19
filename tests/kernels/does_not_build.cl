// A kernel file with a syntax error: the harness must print the compiler's build log and exit 3.
__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    C[0] = undeclared_variable;
}
