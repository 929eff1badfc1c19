#define _POSIX_C_SOURCE 200809L /* fcntl, open */
#include "gemm_common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifndef GEMM_TUTORIAL_VERSION
#define GEMM_TUTORIAL_VERSION "unknown"
#endif

static const char *program_name = "gemm";

const char *gemm_version(void) { return GEMM_TUTORIAL_VERSION; }

void gemm_set_program_name(const char *name)
{
    if (name && *name)
        program_name = name;
}

const char *gemm_program_name(void) { return program_name; }

static void (*message_hook)(int before);

void gemm_set_message_hook(void (*hook)(int before)) { message_hook = hook; }

void gemm_message_begin(void)
{
    if (message_hook)
        message_hook(1);
}

void gemm_message_end(void)
{
    if (message_hook)
        message_hook(0);
}

static void vprint_line(const char *kind, const char *fmt, va_list ap)
{
    gemm_message_begin();
    fprintf(stderr, "%s: %s: ", program_name, kind);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    gemm_message_end();
}

void gemm_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint_line("error", fmt, ap);
    va_end(ap);
}

void gemm_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprint_line("note", fmt, ap);
    va_end(ap);
}

int gemm_msgf(gemm_msg *msg, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg->text, sizeof msg->text, fmt, ap);
    va_end(ap);
    gemm_printable(msg->text);
    return code;
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if there is none. */
static size_t utf8_length(const unsigned char *s)
{
    size_t len;
    unsigned min;
    unsigned code;
    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xC2 && s[0] <= 0xDF)
        len = 2, min = 0x80, code = s[0] & 0x1Fu;
    else if (s[0] >= 0xE0 && s[0] <= 0xEF)
        len = 3, min = 0x800, code = s[0] & 0x0Fu;
    else if (s[0] >= 0xF0 && s[0] <= 0xF4)
        len = 4, min = 0x10000, code = s[0] & 0x07u;
    else
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        code = code << 6 | (s[i] & 0x3Fu);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        return 0;
    return len;
}

void gemm_printable(char *text)
{
    /* A message quotes what the user typed, which may hold a newline, a tab or a terminal escape:
     * control characters (C0, DEL and the C1 range U+0080..U+009F, such as U+009B, the one-character
     * CSI) and bytes that are not UTF-8 each become '?', so that a message stays one printable line. */
    unsigned char *in = (unsigned char *)text, *out = in;
    while (*in) {
        const size_t len = utf8_length(in);
        const int c1 = len == 2 && in[0] == 0xC2 && in[1] < 0xA0;
        if (len == 0 || c1 || (len == 1 && (*in < 0x20 || *in == 0x7f))) {
            *out++ = '?';
            in += len ? len : 1;
            continue;
        }
        for (size_t i = 0; i < len; i++)
            *out++ = *in++;
    }
    *out = '\0';
}

static FILE *output_stream; /* standard output's writes, where not stdout (gemm_output_set_stream()) */

void gemm_output_set_stream(FILE *out) { output_stream = out; }

int gemm_output_finish(int rc)
{
    FILE *out = output_stream ? output_stream : stdout;
    errno = 0;
    if (out != stdout)
        fflush(stdout); /* what went to standard error in its place */
    if (fflush(out) == 0 && !ferror(out))
        return rc;
    const int e = errno;
    gemm_error("cannot write the output to standard output: %s", e ? strerror(e) : "write error");
    return rc == GEMM_EXIT_OK || rc == GEMM_EXIT_VERIFY_FAILED ? GEMM_EXIT_RUNTIME : rc;
}

int gemm_output_check(void)
{
    if (fcntl(STDOUT_FILENO, F_GETFD) != -1 || errno != EBADF)
        return 0;
    /* Keep descriptor 1 from being handed to a file the program or a library opens next (the
     * report would be written into it): /dev/null takes it until the program ends. */
    const int fd = open("/dev/null", O_WRONLY);
    if (fd >= 0 && fd != STDOUT_FILENO)
        close(fd);
    gemm_error("standard output is closed: the output would be lost");
    return GEMM_EXIT_RUNTIME;
}
