// A deliberately wrong kernel: step 2's tiled kernel without its second barrier. A work-item
// that finishes its partial dot product first goes on to load the next tiles into local memory
// while others still read the current ones: a data race. On a real device it may or may not
// give wrong numbers, depending on timing; Oclgrind's race detector must report it every time
// (test oclgrind.detects_race).
__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int localCol = get_local_id(0);           // column within the tile: 0..TS-1
    const int localRow = get_local_id(1);           // row within the tile: 0..TS-1
    const int col = get_group_id(0)*TS + localCol;  // column of C: 0..N-1
    const int row = get_group_id(1)*TS + localRow;  // row of C: 0..M-1

    // One tile of A and one of B, shared by the whole work-group
    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];

    // Walk along K one tile at a time
    float acc = 0.0f;
    for (int t = 0; t < K/TS; t++) {

        // Each work-item loads one element of each tile (both loads are coalesced)
        Asub[localRow][localCol] = A[row*K + t*TS + localCol];
        Bsub[localRow][localCol] = B[(t*TS + localRow)*N + col];

        // Wait until the whole work-group has loaded its tiles
        barrier(CLK_LOCAL_MEM_FENCE);

        // Partial dot product from local memory
        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k] * Bsub[k][localCol];

    }

    // Store the result
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
