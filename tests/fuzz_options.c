// Fuzz target for the option parser (gemm_options.c): every byte string a user could type.
//
// The input is a list of arguments separated by NUL bytes ("-m\0" "64\0" "--alpha=nan"). The target
// parses it as a command line with gemm_options_parse(), parses each argument alone as a `-D`
// value with gemm_define_parse(), and the whole input (NULs as spaces) as a defaults-table list
// with gemm_defines_apply_list(); then it checks what the parser promises (gemm_options.h):
//  - it never crashes or reads out of bounds (AddressSanitizer, UndefinedBehaviorSanitizer);
//  - a refusal comes with a message, every message is one printable line (no C0 or C1 control
//    character, nothing but UTF-8);
//  - what it accepts is in range: sizes in [1, 2^31-1] or 0 (not given), alpha and beta finite
//    floats, --repeat >= 1, --warmup >= 0, --timeout 0 to a year or -1 (not given), at most
//    GEMM_MAX_DEFINES parameters, each a C identifier of at most GEMM_DEFINE_NAME_MAX-1
//    characters with an int value, no name twice.
// A broken promise aborts, which libFuzzer reports as a crash.
//
// Built two ways (tests/CMakeLists.txt):
//  - fuzz_options (GEMM_FUZZ=ON, clang): with libFuzzer, run by the test fuzz.options (label fuzz);
//  - fuzz_options_replay (always): a main() that runs the target on files and directories given
//    on the command line; the test fuzz.replay runs it on tests/fuzz_corpus (seeds) and
//    tests/fuzz_regressions (every input that once broke the parser), in every build.
#define _POSIX_C_SOURCE 200809L /* strnlen, strdup, dirent */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gemm_options.h"

#define MAX_ARGS 64

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_options: broken promise: %s\n", what);
        abort();
    }
}

static void check_msg(const gemm_msg *msg)
{
    const size_t len = strnlen(msg->text, sizeof msg->text);
    check(len < sizeof msg->text, "message not NUL-terminated");
    for (size_t i = 0; i < len; i++) {
        const unsigned char c = (unsigned char)msg->text[i];
        check(c >= 0x20 && c != 0x7f, "control character (e.g. a newline) in a message");
        if (c < 0x80)
            continue;
        /* anything else must be well-formed UTF-8 and not a C1 control (U+0080..U+009F) */
        const size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        check(c >= 0xC2 && c <= 0xF4 && i + n <= len, "a byte that is not UTF-8 in a message");
        for (size_t j = 1; j < n; j++)
            check(((unsigned char)msg->text[i + j] & 0xC0) == 0x80, "a byte that is not UTF-8 in a message");
        check(!(c == 0xC2 && (unsigned char)msg->text[i + 1] < 0xA0), "a C1 control character (e.g. U+009B) in a message");
        i += n - 1;
    }
}

static int is_identifier(const char *s)
{
    if (!s[0] || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return 0;
    for (const char *p = s + 1; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return 0;
    return 1;
}

static void check_define(const gemm_define *d)
{
    check(strnlen(d->name, sizeof d->name) < sizeof d->name, "parameter name not NUL-terminated");
    check(is_identifier(d->name), "parameter name is not an identifier");
    check(d->value >= INT_MIN && d->value <= INT_MAX, "parameter value outside int");
}

static void check_defines(const gemm_defines *set)
{
    check(set->count >= 0 && set->count <= GEMM_MAX_DEFINES, "parameter count out of range");
    for (int i = 0; i < set->count; i++) {
        check_define(&set->item[i]);
        for (int j = 0; j < i; j++)
            check(strcmp(set->item[i].name, set->item[j].name) != 0, "parameter name twice");
    }
    char buf[48], tiny[1] = {'x'};
    gemm_defines_format(set, buf, sizeof buf);
    check(strnlen(buf, sizeof buf) < sizeof buf, "formatted parameters not NUL-terminated");
    gemm_defines_format(set, tiny, sizeof tiny);
    check(tiny[0] == '\0', "formatted parameters overflow a 1-byte buffer");
}

static void check_options(const gemm_options *opt)
{
    const long dims[3] = {opt->m, opt->n, opt->k};
    for (int i = 0; i < 3; i++)
        check(dims[i] >= 0 && dims[i] <= INT_MAX, "size out of range");
    check(isfinite(opt->alpha) && fabs(opt->alpha) <= FLT_MAX, "alpha not a finite float");
    check(isfinite(opt->beta) && fabs(opt->beta) <= FLT_MAX, "beta not a finite float");
    check(opt->repeat >= 0 && opt->repeat <= 1000000, "--repeat out of range");
    check(opt->warmup >= -1 && opt->warmup <= 1000000, "--warmup out of range");
    check(opt->timeout == -1.0 || (opt->timeout >= 0.0 && opt->timeout <= 31536000.0), "--timeout out of range");
    check(!opt->kernel_file || opt->kernel_file[0], "empty --kernel-file accepted");
    check(!opt->platform || opt->platform[0], "empty --platform accepted");
    check(!opt->device || opt->device[0], "empty --device accepted");
    check_defines(&opt->defines);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    // The arguments, each in its own allocation of exactly its length + 1, so that a read past
    // the end of one is an AddressSanitizer error rather than a read of the next.
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    argv[argc++] = strdup("fuzz_options");
    size_t start = 0;
    for (size_t i = 0; i <= size && argc < MAX_ARGS; i++) {
        if (i < size && data[i] != 0)
            continue;
        const size_t len = i - start;
        char *arg = malloc(len + 1);
        check(arg != NULL, "out of memory");
        memcpy(arg, data + start, len);
        arg[len] = '\0';
        argv[argc++] = arg;
        start = i + 1;
    }
    argv[argc] = NULL;

    // 1. The command line
    gemm_options opt;
    gemm_msg msg;
    memset(&msg, 'x', sizeof msg); // the parser must terminate the message itself
    const int rc = gemm_options_parse(&opt, argc, argv, &msg);
    check(rc == GEMM_PARSE_OK || rc == GEMM_PARSE_HELP || rc == GEMM_PARSE_VERSION || rc == GEMM_PARSE_ERROR,
          "unknown parse result");
    check_msg(&msg);
    if (rc == GEMM_PARSE_ERROR)
        check(msg.text[0] != '\0', "refusal without a message");
    if (rc == GEMM_PARSE_OK)
        check_options(&opt);

    // 2. Each argument as a -D value
    for (int i = 1; i < argc; i++) {
        gemm_define d;
        gemm_msg m = {{0}};
        const int r = gemm_define_parse(argv[i], &d, &m);
        check(r == 0 || r == GEMM_EXIT_BAD_INPUT, "unknown gemm_define_parse result");
        check_msg(&m);
        if (r == 0)
            check_define(&d);
        else
            check(m.text[0] != '\0', "refusal of a -D value without a message");
    }

    // 3. The whole input as a defaults-table list ("NAME=VALUE NAME=VALUE ...")
    char *list = malloc(size + 1);
    check(list != NULL, "out of memory");
    for (size_t i = 0; i < size; i++)
        list[i] = data[i] ? (char)data[i] : ' ';
    list[size] = '\0';
    gemm_defines set;
    memset(&set, 0, sizeof set);
    gemm_msg m = {{0}};
    const int r = gemm_defines_apply_list(&set, list, &m);
    check(r == 0 || r == GEMM_EXIT_BAD_INPUT, "unknown gemm_defines_apply_list result");
    check_msg(&m);
    check_defines(&set);
    free(list);

    for (int i = 0; i < argc; i++)
        free(argv[i]);
    return 0;
}

#ifdef GEMM_FUZZ_REPLAY
#include <dirent.h>
#include <sys/stat.h>

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *grown = realloc(buf, cap);
            check(grown != NULL, "out of memory");
            buf = grown;
        }
        const size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    const int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

// fuzz_options_replay FILE_OR_DIRECTORY...: runs the target on every file (directories: every
// regular file in them). Exits 0 if all ran; a broken promise aborts.
int main(int argc, char **argv)
{
    int errors = 0, files = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            perror(argv[a]);
            errors++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            errors += replay_file(argv[a]);
            files++;
            continue;
        }
        DIR *dir = opendir(argv[a]);
        if (!dir) {
            perror(argv[a]);
            errors++;
            continue;
        }
        const struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || e->d_name[0] == '.')
                continue;
            errors += replay_file(path);
            files++;
        }
        closedir(dir);
    }
    printf("replayed %d input(s), %d error(s)\n", files, errors);
    return errors || files == 0 ? 1 : 0;
}
#endif
