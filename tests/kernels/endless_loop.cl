// A deliberately wrong kernel for the watchdog (tests/robustness.cmake): every work-item spins on
// a loop whose condition never changes. The two loads are volatile, so the compiler must keep
// them and cannot prove the loop away: clFinish would wait forever, and --timeout ends the run.
// With -D ONLY_ON_INTEGERS (GEMM_CL_OPTIONS) it spins only where A[0] is a whole number: in the
// exact check's run (gemm_exact.h), not in the runs on random data before it; with
// -D ONLY_ON_PRECISION only where |A[0]| < 2^-12: in the precision check's run (its A[0] is below
// 2^-13, the random data's at least 2^-8, the integers' at least 1).
__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    volatile const __global int* spin = (volatile const __global int*)A;
#if defined(ONLY_ON_INTEGERS)
    const bool spins = A[0] == rint(A[0]);
#elif defined(ONLY_ON_PRECISION)
    const bool spins = fabs(A[0]) < 0x1p-12f;
#else
    const bool spins = true;
#endif
    while (spins && K > 0 && spin[0] == spin[0])  // the bug: nothing in the loop changes its condition
        ;
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row < M && col < N)
        C[row*N + col] = 0.0f;
}
