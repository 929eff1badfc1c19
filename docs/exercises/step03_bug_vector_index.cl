// Exercise 3.2 - find the bug: step 3's kernel with one line changed. Run it with the default
// WIDTH and with -D WIDTH=1:
//   build/kernel03_vectorized/kernel03_vectorized --kernel-file docs/exercises/step03_bug_vector_index.cl -m 64 -n 128 -k 192
//   build/kernel03_vectorized/kernel03_vectorized --kernel-file docs/exercises/step03_bug_vector_index.cl -m 64 -n 128 -k 192 -D WIDTH=1
// Launch, parameters and constraints: those of kernel03_vectorized/vectorized.cl.

#if WIDTH == 1
    typedef float floatX;
#elif WIDTH == 2
    typedef float2 floatX;
#elif WIDTH == 4
    typedef float4 floatX;
#elif WIDTH == 8
    typedef float8 floatX;
#endif

__kernel __attribute__((reqd_work_group_size(TS/WIDTH, TS, 1)))
void sgemm(const int M, const int N, const int K,
           const float alpha, const float beta,
           const __global floatX* A,
           const __global floatX* B,
           __global floatX* C)
{
    const int localCol = get_local_id(0);                   // vector column within the tile: 0..TS/WIDTH-1
    const int localRow = get_local_id(1);                   // row within the tile: 0..TS-1
    const int col = get_group_id(0)*(TS/WIDTH) + localCol;  // vector column of C: 0..N/WIDTH-1
    const int row = get_group_id(1)*TS + localRow;          // row of C: 0..M-1

    // One tile of A and one of B, shared by the whole work-group, stored as vectors
    __local floatX Asub[TS][TS/WIDTH];
    __local floatX Bsub[TS][TS/WIDTH];

    // Walk along K one tile at a time
    floatX acc = 0.0f;  // WIDTH neighbouring elements of a row of C
    for (int t = 0; t < K/TS; t++) {

        // Each work-item loads one vector of each tile (both loads are coalesced)
        Asub[localRow][localCol] = A[row*(K/WIDTH) + t*(TS/WIDTH) + localCol];
        Bsub[localRow][localCol] = B[(t*TS + localRow)*(N/WIDTH) + col];

        // Wait until the whole work-group has loaded its tiles
        barrier(CLK_LOCAL_MEM_FENCE);

        // Partial dot products from local memory: one element of A times a vector of B
        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k/WIDTH] * Bsub[k][localCol];

        // Wait until everyone is done with the tiles before the next loads overwrite them
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    // Store the result
    const int idx = row*(N/WIDTH) + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
