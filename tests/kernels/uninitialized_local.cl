// A deliberately wrong kernel: step 2's tiled kernel where the last column of work-items of a
// work-group never loads its element of the B tile, so one column of the local tile is read
// without ever having been written. Oclgrind's uninitialized-value checker must report it
// (test oclgrind.detects_uninitialized).
__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int localCol = get_local_id(0);
    const int localRow = get_local_id(1);
    const int col = get_group_id(0)*TS + localCol;
    const int row = get_group_id(1)*TS + localRow;
    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];
    float acc = 0.0f;
    for (int t = 0; t < K/TS; t++) {
        Asub[localRow][localCol] = A[row*K + t*TS + localCol];
        if (localCol < TS - 1)  // the bug
            Bsub[localRow][localCol] = B[(t*TS + localRow)*N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k] * Bsub[k][localCol];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
