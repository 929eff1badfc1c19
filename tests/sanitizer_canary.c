// Proof that a GEMM_SANITIZE build really is sanitized: each mode commits one bug that the
// sanitizers must report (tests sanitize.catches_*, registered only in such a build). Without
// them, a suite that "passes under the sanitizers" could be a suite that ran without them.
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    const int n = argc > 2 ? atoi(argv[2]) : 8; // from the command line, so no compiler sees the bug coming
    if (strcmp(mode, "heap-overflow") == 0) {
        char *p = malloc((size_t)n);
        if (!p)
            return 2;
        memset(p, 0, (size_t)n + 1); // one byte too many
        free(p);
    } else if (strcmp(mode, "leak") == 0) {
        char *p = malloc((size_t)n);
        if (!p)
            return 2;
        p[0] = 1;
        printf("%d\n", p[0]);
        p = NULL; // the only pointer to the block is lost
    } else if (strcmp(mode, "signed-overflow") == 0) {
        int x = INT_MAX - 8 + n; // n = 9 overflows
        printf("%d\n", x);
    } else {
        fprintf(stderr, "usage: sanitizer_canary heap-overflow|leak|signed-overflow [n]\n");
        return 2;
    }
    return 0;
}
