// Exercise 2.3 - solution: step 2 for any M, N and K.
//
// Launch: the geometry of kernel01_naive's host, global = (N rounded up to TS, M rounded up to
// TS), local = (TS, TS), so run it as
//   build/kernel01_naive/kernel01_naive --kernel-file docs/key/step02_bounds.cl -m 1000 -n 999 -k 77
// (kernel02_tiled's own host refuses sizes that are not multiples of TS before it launches.)
//
// Three changes to kernel02_tiled/tiled.cl:
//  1. the loop runs over every tile that touches K, the last one possibly partial;
//  2. a load outside A or B stores 0 in the tile instead of reading past the matrix, and a zero
//     adds nothing to the dot product;
//  3. only the store is skipped for work-items outside C. They must not return early: every
//     work-item of the work-group has to reach every barrier, and they also load tile elements
//     that the others need.

__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int localCol = get_local_id(0);
    const int localRow = get_local_id(1);
    const int col = get_group_id(0)*TS + localCol;  // may be >= N in the last column of work-groups
    const int row = get_group_id(1)*TS + localRow;  // may be >= M in the last row of work-groups

    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];

    float acc = 0.0f;
    const int numTiles = (K + TS - 1) / TS;
    for (int t = 0; t < numTiles; t++) {
        const int aCol = t*TS + localCol;  // column of A this work-item loads
        const int bRow = t*TS + localRow;  // row of B this work-item loads
        Asub[localRow][localCol] = (row < M && aCol < K) ? A[row*K + aCol] : 0.0f;
        Bsub[localRow][localCol] = (bRow < K && col < N) ? B[bRow*N + col] : 0.0f;

        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k] * Bsub[k][localCol];

        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < M && col < N) {
        const int idx = row*N + col;
        C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
    }
}
