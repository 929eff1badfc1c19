// What the unit-test programs share (test_harness.c, test_robustness.c): the CHECK macro, which
// counts failures and goes on, and the runner of named groups ("prog group" runs one group,
// "prog" all of them).
#ifndef TEST_GROUPS_H
#define TEST_GROUPS_H

#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(cond)                                                                \
    do {                                                                           \
        if (!(cond)) {                                                             \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                            \
        }                                                                          \
    } while (0)

typedef struct test_group {
    const char *name;
    void (*fn)(void);
} test_group;

// Runs the group named by argv[1] (all without one). Returns main()'s exit code.
static int run_groups(const test_group *groups, size_t count, int argc, char **argv)
{
    int ran = 0;
    for (size_t i = 0; i < count; i++) {
        if (argc > 1 && strcmp(argv[1], groups[i].name) != 0)
            continue;
        groups[i].fn();
        ran++;
    }
    if (!ran) {
        fprintf(stderr, "unknown test group '%s'\n", argv[1]);
        return 2;
    }
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}

#endif
