#!/usr/bin/env python3
"""Writes the timing experiments of step 12's copies into lab/exp/ (git ignores it;
lab/exp_step12_copies.sh runs them, lab12 has the result), each step 12's kernel with one change:
  hoisted   where each work-item's vectors of every tile come from, and how many of their floats lie
            inside M (A) and N (B), worked out once, before the first tile (findSources()); a tile's
            copy then adds the tile's offset to each source and checks K's bound alone. Right at any
            size (the tests' awkward sizes verify it).
  vector1   (not run) the kernel with `vector` taken as 1 for A and B, whatever K and N: no test of it in the
            copies. Right only where K and N are multiples of WIDTH (2048, 4096, 8192): what the
            test costs at most.
  nobounds  vector1 with every copy a whole vector, no bound computed: right only where every tile
            lies inside the matrices; what the bounds and the test cost together, at most.
    lab/exp_step12_copies.py KERNEL OUT_DIR"""
import os
import sys


def swap(text, old, new, who):
    if text.count(old) != 1:
        sys.exit(f"{who}: expected once in the kernel, found {text.count(old)} times:\n{old}")
    return text.replace(old, new)


HOISTED_FUNCS = '''// Copy WIDTH floats of a row of a matrix, from src, into local memory at dst; of them the first
// `inside` (at most WIDTH; fewer than 1: none) lie inside the matrix, the others become 0 and are
// never read. `vector`: the row's length is a multiple of WIDTH, so the copy may move WIDTH floats
// at once (COPY = 1: in pieces of at most 16 bytes, each with its own source size).
inline void copyRow(__local float *dst, const __global float *src, const int inside, const int vector)
{
#if COPY == 1
    if (vector) {
        #pragma unroll
        for (int h = 0; h < (WIDTH + 3)/4; h++) {
            const int piece = min(WIDTH - 4*h, 4);          // floats in this piece: 4, or WIDTH < 4
            const int have = clamp(inside - 4*h, 0, piece);  // of which inside
            copyPredicated(dst + 4*h, src + 4*h, piece, (uint)(4*have));
        }
    } else {
        #pragma unroll
        for (int i = 0; i < WIDTH; i++)
            copyPredicated(dst + i, src + i, 1, i < inside ? 4u : 0u);
    }
#else
    (void)vector;
    #pragma unroll
    for (int i = 0; i < WIDTH; i++)
        dst[i] = i < inside ? src[i] : 0.0f;
#endif
}

// Where a work-item's vectors of every tile come from, worked out once, before the first tile
typedef struct {
    const __global float *a[LPTA], *b[LPTB];  // the vector's first float in tile 0 of K
    int insideA[LPTA], insideB[LPTB];         // its floats inside M (A: WIDTH or 0), inside N (B: 0 to WIDTH)
    int kA[LPTA], kB[LPTB];                   // its column of the tile of A, its row of the tile of B
    int toA[LPTA], toB[LPTB];                 // where it goes in the tile: row*ROWA + column, row*ROWB + column
} Sources;

inline Sources findSources(const int tid, const int M, const int N, const int K, const int firstRow,
                           const int firstCol, const __global float *A, const __global float *B)
{
    Sources s;
    #pragma unroll
    for (int l = 0; l < LPTA; l++) {
        const int i = tid + l*THREADS, m = i / (TSK/WIDTH), k = (i % (TSK/WIDTH))*WIDTH;
        const int row = firstRow + m;
        s.insideA[l] = row < M ? WIDTH : 0;
        s.a[l] = row < M ? &A[row*K + k] : A;
        s.kA[l] = k;
        s.toA[l] = m*ROWA + k;
    }
    #pragma unroll
    for (int l = 0; l < LPTB; l++) {
        const int i = tid + l*THREADS, k = i / (TSN/WIDTH), n = (i % (TSN/WIDTH))*WIDTH;
        const int col = firstCol + n;
        s.insideB[l] = clamp(N - col, 0, WIDTH);
        s.b[l] = col < N ? &B[k*N + col] : B;
        s.kB[l] = k;
        s.toB[l] = k*ROWB + n;
    }
    return s;
}

// Start copying tile t of A and of B into one buffer of the ring: only K's bound is checked here
inline void copyTiles(const int t, const int N, const int K, const Sources *s, const int vectorA,
                      const int vectorB, __local float *Asub, __local float *Bsub)
{
    #pragma unroll
    for (int l = 0; l < LPTA; l++)
        copyRow(Asub + s->toA[l], s->a[l] + t*TSK, min(s->insideA[l], K - (t*TSK + s->kA[l])), vectorA);
    #pragma unroll
    for (int l = 0; l < LPTB; l++)
        copyRow(Bsub + s->toB[l], s->b[l] + t*TSK*N, t*TSK + s->kB[l] < K ? s->insideB[l] : 0, vectorB);
}

'''


def hoisted(text):
    a = text.index('// Copy `count` floats (WIDTH or fewer)')
    b = text.index('// COPY = 1: close the commit group')
    text = text[:a] + HOISTED_FUNCS + text[b:]
    text = swap(text, '''            copyTiles(firstTile + s, tid, M, N, K, firstRow, firstCol, A, B, Asub[s], Bsub[s]);''',
                '''            copyTiles(firstTile + s, N, K, &sources, vectorA, vectorB, &Asub[s][0][0], &Bsub[s][0][0]);''',
                "hoisted")
    text = swap(text, '''            copyTiles(firstTile + ahead, tid, M, N, K, firstRow, firstCol, A, B, Asub[ahead % STAGES],
                      Bsub[ahead % STAGES]);''',
                '''            copyTiles(firstTile + ahead, N, K, &sources, vectorA, vectorB, &Asub[ahead % STAGES][0][0],
                      &Bsub[ahead % STAGES][0][0]);''', "hoisted")
    return swap(text, '''    // Start the copies of the slice's first STAGES-1 tiles''',
                '''    const Sources sources = findSources(tid, M, N, K, firstRow, firstCol, A, B);
    const int vectorA = K % WIDTH == 0, vectorB = N % WIDTH == 0;

    // Start the copies of the slice's first STAGES-1 tiles''', "hoisted")


def vector1(text):
    return swap(text, "const int vectorA = K % WIDTH == 0, vectorB = N % WIDTH == 0;",
                "const int vectorA = 1, vectorB = 1;  // right only where K and N are multiples of WIDTH",
                "vector1")


def nobounds(text):
    return swap(vector1(text), "const int inside = row < rows ? min(max(cols - col, 0), WIDTH) : 0;",
                "const int inside = WIDTH;  // right only where every tile is inside", "nobounds")


def write_variants(doc, variants):
    """lab/exp_step12_*.py KERNEL OUT_DIR: each (name, make) of variants written to OUT_DIR/step12_<name>.cl"""
    if len(sys.argv) != 3:
        sys.exit(doc)
    kernel = open(sys.argv[1]).read()
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, make in variants:
        path = os.path.join(sys.argv[2], f"step12_{name}.cl")
        with open(path, "w") as f:
            f.write(make(kernel))
        print(path)


def main():
    write_variants(__doc__, (("hoisted", hoisted), ("vector1", vector1), ("nobounds", nobounds)))


if __name__ == "__main__":
    main()
