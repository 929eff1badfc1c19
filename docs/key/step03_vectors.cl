// Exercise 3.1 - solution: step 2's kernel with WIDTH-wide vectors, written from step 2 with
// vloadn/vstoren instead of vector-typed pointers (kernel03_vectorized/vectorized.cl is the other
// way: it declares A, B and C as arrays of floatN).
//
// Launch: kernel03_vectorized's host, global = (N/WIDTH, M), local = (TS/WIDTH, TS):
//   build/kernel03_vectorized/kernel03_vectorized --kernel-file docs/key/step03_vectors.cl -D WIDTH=4
//
// Changes to kernel02_tiled/tiled.cl:
//  1. dimension 0 counts vectors: a work-item computes the WIDTH elements of C at columns
//     col*WIDTH .. col*WIDTH + WIDTH-1, so the work-group is TS/WIDTH x TS work-items;
//  2. each work-item loads WIDTH floats of the A tile and WIDTH of the B tile with one vloadn
//     each (the tile is TS x TS floats, as before, now filled by TS/WIDTH work-items per row);
//  3. the dot product keeps WIDTH sums in one vector: each A element, a scalar, multiplies a
//     vector of B (an OpenCL scalar-times-vector product applies it to every lane);
//  4. the result is stored with one vstoren.
// vloadn(i, p) reads p[i*n] .. p[i*n + n-1]; unlike a floatN pointer, it needs p + i*n aligned
// only to a float (4 bytes), not to n floats (OpenCL C, "Vector Data Load and Store Functions").
// Here every vector also starts at a multiple of WIDTH floats (K, N and TS are multiples of WIDTH),
// but vloadn and vstoren do not rely on it.

#if WIDTH == 1
    typedef float floatX;
    #define vloadX(i, p) ((p)[i])
    #define vstoreX(v, i, p) ((p)[i] = (v))
#elif WIDTH == 2
    typedef float2 floatX;
    #define vloadX vload2
    #define vstoreX vstore2
#elif WIDTH == 4
    typedef float4 floatX;
    #define vloadX vload4
    #define vstoreX vstore4
#elif WIDTH == 8
    typedef float8 floatX;
    #define vloadX vload8
    #define vstoreX vstore8
#endif

__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int localCol = get_local_id(0);                   // vector column within the tile: 0..TS/WIDTH-1
    const int localRow = get_local_id(1);                   // row within the tile: 0..TS-1
    const int col = get_group_id(0)*(TS/WIDTH) + localCol;  // vector column of C: 0..N/WIDTH-1
    const int row = get_group_id(1)*TS + localRow;          // row of C: 0..M-1

    __local float Asub[TS][TS];
    __local float Bsub[TS][TS];

    floatX acc = 0.0f;
    for (int t = 0; t < K/TS; t++) {
        // One vector of each tile per work-item; vector localCol of a row is floats
        // localCol*WIDTH .. localCol*WIDTH + WIDTH-1
        vstoreX(vloadX(0, A + row*K + t*TS + localCol*WIDTH), localCol, Asub[localRow]);
        vstoreX(vloadX(0, B + (t*TS + localRow)*N + col*WIDTH), localCol, Bsub[localRow]);
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TS; k++)
            acc += Asub[localRow][k] * vloadX(localCol, Bsub[k]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    __global float* c = C + row*N + col*WIDTH;
    vstoreX((beta == 0.0f) ? alpha*acc : alpha*acc + beta*vloadX(0, c), 0, c);
}
