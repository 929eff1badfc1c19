// A deliberately wrong kernel for the guard tests (tests/robustness.cmake): step 1's naive
// kernel whose first work-item also touches one element outside a buffer. The test chooses which
// and where through GEMM_CL_OPTIONS (the harness adds it to the build options):
//   -D OOB_BUFFER=0, 1 or 2   A, B or C
//   -D OOB_DISTANCE=d         d < 0: index d (-1 is the element just before the buffer);
//                             d > 0: the d-th element past its end (1 is the first one after it)
//   -D OOB_READ               read that element instead of writing it
//   -D OOB_NULL               write through a null pointer instead (OOB_BUFFER and OOB_DISTANCE
//                             unused): a crash, which the fault handler names (gemm_memory.h)
//   -D OOB_TRAP               reach an illegal instruction instead, the trap a compiler leaves
//                             where it proved undefined behaviour: a crash too
// The values of C stay right: only the guards (a write) or the inaccessible pages around a
// buffer in host memory (any access) can tell. A pointer the compiler cannot know to be null,
// and a condition it cannot know to be true, come from the data, which are in [-1, 1).
#ifndef OOB_DISTANCE
#define OOB_BUFFER 2
#define OOB_DISTANCE 1
#endif
#if OOB_BUFFER == 0
#define TARGET ((__global float*)A)
#define COUNT ((long)M*K)
#elif OOB_BUFFER == 1
#define TARGET ((__global float*)B)
#define COUNT ((long)K*N)
#else
#define TARGET C
#define COUNT ((long)M*N)
#endif

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
    const long stray = OOB_DISTANCE < 0 ? (long)OOB_DISTANCE : COUNT - 1 + OOB_DISTANCE;
#if defined(OOB_NULL)
    __global float* null = (__global float*)((ulong)C * (ulong)(A[0] > 2.0f));
    if (idx == 0)
        null[0] = 0.0f;  // the bug: a write through a null pointer
#elif defined(OOB_TRAP)
    if (idx == 0 && A[0] < 2.0f)
        __builtin_trap();  // the bug: an illegal instruction
#elif defined(OOB_READ)
    if (idx == 0 && TARGET[stray] == 1234.5f)  // the bug: a read outside the buffer
        acc = 0.0f;
#else
    if (idx == 0)
        TARGET[stray] = 0.0f;  // the bug: a write outside the buffer
#endif
    C[idx] = (beta == 0.0f) ? alpha*acc : alpha*acc + beta*C[idx];
}
