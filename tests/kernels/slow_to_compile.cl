// A correct kernel that takes a long time to compile (tests/robustness.cmake): step 1's, with 1024
// dependent sines written out by the preprocessor on a path the compiler cannot rule out. PoCL
// compiles a kernel at its first launch (the command submitted, not yet running): with half as many
// sines that took 9 s on a 2-core AMD EPYC, far past --timeout 2, and the watchdog must say that the
// time went to compiling the program, not to an endless loop.
#define S(i) x = x*1.0001f + sin(x*(i));
#define S4(i) S(i) S(i + 0.25f) S(i + 0.5f) S(i + 0.75f)
#define S16(i) S4(i) S4(i + 1.0f) S4(i + 2.0f) S4(i + 3.0f)
#define S64(i) S16(i) S16(i + 4.0f) S16(i + 8.0f) S16(i + 12.0f)
#define S256(i) S64(i) S64(i + 16.0f) S64(i + 32.0f) S64(i + 48.0f)

__kernel void sgemm(const int M, const int N, const int K,
                    const float alpha, const float beta,
                    const __global float* A,
                    const __global float* B,
                    __global float* C)
{
    const int col = get_global_id(0);
    const int row = get_global_id(1);
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc += A[row*K + k] * B[k*N + col];
    const int idx = row*N + col;
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
    if (K < 0) {  // never: K >= 1, which the compiler cannot know
        float x = A[0];
        S256(0.5f) S256(64.5f) S256(128.5f) S256(192.5f)
        C[0] = x;
    }
}
