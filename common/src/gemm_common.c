#include "gemm_common.h"

#include <stdarg.h>
#include <stdio.h>

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
    /* A message quotes what the user typed, which may hold a newline, a tab or a terminal escape:
     * replace control characters so that a message stays one printable line. */
    for (char *p = msg->text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return code;
}
