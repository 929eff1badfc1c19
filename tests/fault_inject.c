// Fault injection for the OpenCL calls the programs make (tests/fault_injection.py): loaded with
// LD_PRELOAD, this library defines the OpenCL entry points the harness, peak and CLBlast call,
// counts every call to them (across all of them, in the order made) and makes call number
// $GEMM_FAULT_AT fail as a driver could: a cl_int function returns $GEMM_FAULT_ERROR (default
// CL_OUT_OF_HOST_MEMORY) without calling the driver, a create function returns NULL and the error
// in *errcode_ret. Every other call goes on to the ICD loader (dlsym(RTLD_NEXT)). With
// GEMM_FAULT_NAME=FUNCTION, $GEMM_FAULT_AT counts the calls of that function only (the second
// platform's clGetDeviceIDs: GEMM_FAULT_NAME=clGetDeviceIDs GEMM_FAULT_AT=2).
//
// GEMM_FAULT_DISCRETE=1 makes the device's memory look separate from the host's (below);
// GEMM_FAULT_BACKWARDS=1 makes every command's profiled start come after its end (below).
//
// It also counts the OpenCL objects the program holds (created or retained, less released; events
// returned by the enqueue calls included), so that a path that forgets one is seen without a
// sanitizer. With GEMM_FAULT_LOG=FILE it appends to FILE, one line each:
//   call N NAME DETAIL SITE     every wrapped call (DETAIL: the query, argument index or kernel
//                               name, else -; SITE: the calling object and the offset of the
//                               return address in it, e.g. kernel01_naive+0x1f2a4)
//   fail N NAME DETAIL SITE     the call made to fail
//   live mem=.. kernel=.. program=.. queue=.. context=.. event=..   at exit: objects not released
// Built only with the tests (tests/CMakeLists.txt), never with the sanitizers: it must not be the
// first library ASan sees, and it has nothing of its own to check.
#define _GNU_SOURCE /* dladdr, RTLD_NEXT */
#include <CL/cl.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OBJ_MEM, OBJ_KERNEL, OBJ_PROGRAM, OBJ_QUEUE, OBJ_CONTEXT, OBJ_EVENT, OBJ_KINDS };
static const char *const obj_names[OBJ_KINDS] = {"mem", "kernel", "program", "queue", "context", "event"};
static atomic_long live[OBJ_KINDS];
static atomic_long calls;
static long fail_at;                       /* 0: none */
static const char *fail_name;              /* GEMM_FAULT_NAME: count this function's calls only */
static atomic_long named_calls;
static cl_int fault_error = CL_OUT_OF_HOST_MEMORY;
static const char *log_path;
static int discrete; /* GEMM_FAULT_DISCRETE */
static int backwards; /* GEMM_FAULT_BACKWARDS */

static void log_line(const char *fmt, ...)
{
    if (!log_path)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line)
        n = (int)sizeof line - 1;
    const int fd = open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    if (write(fd, line, (size_t)n) != n)
        fprintf(stderr, "fault_inject: cannot write to %s\n", log_path);
    close(fd);
}

__attribute__((constructor)) static void fault_init(void)
{
    const char *at = getenv("GEMM_FAULT_AT"), *err = getenv("GEMM_FAULT_ERROR");
    fail_at = at ? strtol(at, NULL, 10) : 0;
    if (err && *err)
        fault_error = (cl_int)strtol(err, NULL, 10);
    const char *d = getenv("GEMM_FAULT_DISCRETE");
    discrete = d && strcmp(d, "1") == 0;
    const char *b = getenv("GEMM_FAULT_BACKWARDS");
    backwards = b && strcmp(b, "1") == 0;
    fail_name = getenv("GEMM_FAULT_NAME");
    if (fail_name && !*fail_name)
        fail_name = NULL;
    log_path = getenv("GEMM_FAULT_LOG");
    if (log_path && !*log_path)
        log_path = NULL;
}

__attribute__((destructor)) static void fault_fini(void)
{
    log_line("live %s=%ld %s=%ld %s=%ld %s=%ld %s=%ld %s=%ld\n", obj_names[0], atomic_load(&live[0]), obj_names[1],
             atomic_load(&live[1]), obj_names[2], atomic_load(&live[2]), obj_names[3], atomic_load(&live[3]),
             obj_names[4], atomic_load(&live[4]), obj_names[5], atomic_load(&live[5]));
}

static void *next_symbol(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "fault_inject: %s not found after this library (is the program linked to libOpenCL?)\n", name);
        abort();
    }
    return f;
}

/* Counts the call; 1 if it is the one to fail. `site` is the caller's return address. */
static int inject(const char *name, const char *detail, const void *site)
{
    const long n = atomic_fetch_add(&calls, 1) + 1;
    Dl_info info;
    const char *object = "?";
    unsigned long offset = (unsigned long)site;
    if (dladdr(site, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        object = slash ? slash + 1 : info.dli_fname;
        offset = (unsigned long)((const char *)site - (const char *)info.dli_fbase);
    }
    const int fail = fail_name ? strcmp(name, fail_name) == 0 && atomic_fetch_add(&named_calls, 1) + 1 == fail_at
                               : n == fail_at;
    log_line("%s %ld %s %s %s+0x%lx\n", fail ? "fail" : "call", n, name, detail && *detail ? detail : "-", object,
             offset);
    return fail;
}

static const char *hex(char *buf, size_t len, unsigned long v)
{
    snprintf(buf, len, "0x%lx", v);
    return buf;
}

static const char *dec(char *buf, size_t len, unsigned long v)
{
    snprintf(buf, len, "%lu", v);
    return buf;
}

#define SITE __builtin_return_address(0)
/* The driver's function of the same name, found once */
#define REAL(name)                                                                         \
    static __typeof__(&name) real_##name;                                                   \
    if (!real_##name)                                                                       \
        real_##name = (__typeof__(&name))next_symbol(#name)
/* A function that returns cl_int; DETAIL is a string for the log */
#define WRAP_INT(name, detail, params, args)                                               \
    CL_API_ENTRY cl_int CL_API_CALL name params                                            \
    {                                                                                      \
        char d_[64] = "";                                                                  \
        (void)d_;                                                                          \
        REAL(name);                                                                        \
        if (inject(#name, detail, SITE))                                                   \
            return fault_error;                                                            \
        return real_##name args;                                                           \
    }
/* clGet*Info(object, query, ...) and clGet*Info(object, device, query, ...): the query in the log */
#define WRAP_INFO(name, type, info_type)                                                   \
    WRAP_INT(name, hex(d_, sizeof d_, param_name),                                         \
             (type obj, info_type param_name, size_t size, void *value, size_t *size_ret), \
             (obj, param_name, size, value, size_ret))
#define WRAP_INFO_DEVICE(name, type, info_type)                                                                 \
    WRAP_INT(name, hex(d_, sizeof d_, param_name),                                                              \
             (type obj, cl_device_id device, info_type param_name, size_t size, void *value, size_t *size_ret), \
             (obj, device, param_name, size, value, size_ret))
/* clGet*Info(object, query, ...) whose answer ADJUST changes where WHEN holds (the test asked) */
#define WRAP_INFO_ADJUSTED(name, type, info_type, when, adjust)                                        \
    CL_API_ENTRY cl_int CL_API_CALL name(type obj, info_type param_name, size_t size, void *value,      \
                                         size_t *size_ret)                                             \
    {                                                                                                  \
        char d_[64];                                                                                   \
        REAL(name);                                                                                    \
        if (inject(#name, hex(d_, sizeof d_, param_name), SITE))                                      \
            return fault_error;                                                                        \
        const cl_int e_ = real_##name(obj, param_name, size, value, size_ret);                        \
        if (e_ == CL_SUCCESS && value && (when))                                                       \
            adjust;                                                                                    \
        return e_;                                                                                     \
    }
/* An enqueue call that may return an event: one more object to release */
#define WRAP_ENQUEUE(name, params, args)                                                   \
    CL_API_ENTRY cl_int CL_API_CALL name params                                            \
    {                                                                                      \
        REAL(name);                                                                        \
        if (inject(#name, NULL, SITE))                                                     \
            return fault_error;                                                            \
        const cl_int e_ = real_##name args;                                                \
        if (e_ == CL_SUCCESS && event && *event)                                           \
            atomic_fetch_add(&live[OBJ_EVENT], 1);                                         \
        return e_;                                                                         \
    }
/* A create function: NULL and the error in *errcode_ret */
#define WRAP_CREATE(type, kind, name, detail, params, args)                                \
    CL_API_ENTRY type CL_API_CALL name params                                              \
    {                                                                                      \
        REAL(name);                                                                        \
        if (inject(#name, detail, SITE)) {                                                 \
            if (errcode_ret)                                                               \
                *errcode_ret = fault_error;                                                \
            return NULL;                                                                   \
        }                                                                                  \
        type obj_ = real_##name args;                                                      \
        if (obj_)                                                                          \
            atomic_fetch_add(&live[kind], 1);                                              \
        return obj_;                                                                       \
    }
/* Retain and release: never made to fail, only counted */
#define WRAP_COUNT(name, type, kind, delta)                                                \
    CL_API_ENTRY cl_int CL_API_CALL name(type obj)                                         \
    {                                                                                      \
        REAL(name);                                                                        \
        const cl_int e_ = real_##name(obj);                                                \
        if (e_ == CL_SUCCESS)                                                              \
            atomic_fetch_add(&live[kind], delta);                                          \
        return e_;                                                                         \
    }
#define WRAP_OBJECT(what, type, kind)                                                      \
    WRAP_COUNT(clRetain##what, type, kind, 1)                                              \
    WRAP_COUNT(clRelease##what, type, kind, -1)

/* Platforms and devices */
WRAP_INT(clGetPlatformIDs, NULL, (cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms),
         (num_entries, platforms, num_platforms))
WRAP_INFO(clGetPlatformInfo, cl_platform_id, cl_platform_info)
WRAP_INT(clGetDeviceIDs, NULL,
         (cl_platform_id platform, cl_device_type type, cl_uint num_entries, cl_device_id *devices, cl_uint *num_devices),
         (platform, type, num_entries, devices, num_devices))
/* GEMM_FAULT_DISCRETE=1: the device says its memory is not the host's (CL_DEVICE_HOST_UNIFIED_MEMORY
 * false), so that the harness takes a discrete GPU's path on PoCL: buffers filled from a staging copy
 * (clEnqueueWriteBuffer), no inaccessible pages around them */
WRAP_INFO_ADJUSTED(clGetDeviceInfo, cl_device_id, cl_device_info,
                   discrete && param_name == CL_DEVICE_HOST_UNIFIED_MEMORY && size >= sizeof(cl_bool),
                   *(cl_bool *)value = CL_FALSE)

/* Context and queue */
WRAP_CREATE(cl_context, OBJ_CONTEXT, clCreateContext, NULL,
            (const cl_context_properties *properties, cl_uint num_devices, const cl_device_id *devices,
             void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *), void *user_data,
             cl_int *errcode_ret),
            (properties, num_devices, devices, pfn_notify, user_data, errcode_ret))
WRAP_CREATE(cl_command_queue, OBJ_QUEUE, clCreateCommandQueue, NULL,
            (cl_context context, cl_device_id device, cl_command_queue_properties properties, cl_int *errcode_ret),
            (context, device, properties, errcode_ret))
WRAP_INFO(clGetCommandQueueInfo, cl_command_queue, cl_command_queue_info)
WRAP_INT(clFinish, NULL, (cl_command_queue queue), (queue))

/* Programs and kernels */
WRAP_CREATE(cl_program, OBJ_PROGRAM, clCreateProgramWithSource, NULL,
            (cl_context context, cl_uint count, const char **strings, const size_t *lengths, cl_int *errcode_ret),
            (context, count, strings, lengths, errcode_ret))
WRAP_CREATE(cl_program, OBJ_PROGRAM, clCreateProgramWithBinary, NULL,
            (cl_context context, cl_uint num_devices, const cl_device_id *devices, const size_t *lengths,
             const unsigned char **binaries, cl_int *binary_status, cl_int *errcode_ret),
            (context, num_devices, devices, lengths, binaries, binary_status, errcode_ret))
WRAP_INT(clBuildProgram, NULL,
         (cl_program program, cl_uint num_devices, const cl_device_id *devices, const char *options,
          void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data),
         (program, num_devices, devices, options, pfn_notify, user_data))
WRAP_INFO(clGetProgramInfo, cl_program, cl_program_info)
WRAP_INFO_DEVICE(clGetProgramBuildInfo, cl_program, cl_program_build_info)
WRAP_CREATE(cl_kernel, OBJ_KERNEL, clCreateKernel, kernel_name,
            (cl_program program, const char *kernel_name, cl_int *errcode_ret), (program, kernel_name, errcode_ret))
WRAP_INFO(clGetKernelInfo, cl_kernel, cl_kernel_info)
WRAP_INFO_DEVICE(clGetKernelWorkGroupInfo, cl_kernel, cl_kernel_work_group_info)
WRAP_INT(clSetKernelArg, dec(d_, sizeof d_, arg_index),
         (cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void *arg_value),
         (kernel, arg_index, arg_size, arg_value))

/* Buffers */
WRAP_CREATE(cl_mem, OBJ_MEM, clCreateBuffer, NULL,
            (cl_context context, cl_mem_flags flags, size_t size, void *host_ptr, cl_int *errcode_ret),
            (context, flags, size, host_ptr, errcode_ret))
WRAP_CREATE(cl_mem, OBJ_MEM, clCreateSubBuffer, NULL,
            (cl_mem buffer, cl_mem_flags flags, cl_buffer_create_type type, const void *info, cl_int *errcode_ret),
            (buffer, flags, type, info, errcode_ret))
WRAP_INFO(clGetMemObjectInfo, cl_mem, cl_mem_info)

/* Commands */
WRAP_ENQUEUE(clEnqueueReadBuffer,
             (cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size, void *ptr,
              cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, buffer, blocking, offset, size, ptr, num_events, wait_list, event))
WRAP_ENQUEUE(clEnqueueWriteBuffer,
             (cl_command_queue queue, cl_mem buffer, cl_bool blocking, size_t offset, size_t size, const void *ptr,
              cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, buffer, blocking, offset, size, ptr, num_events, wait_list, event))
WRAP_ENQUEUE(clEnqueueFillBuffer,
             (cl_command_queue queue, cl_mem buffer, const void *pattern, size_t pattern_size, size_t offset,
              size_t size, cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, buffer, pattern, pattern_size, offset, size, num_events, wait_list, event))
WRAP_ENQUEUE(clEnqueueCopyBuffer,
             (cl_command_queue queue, cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset, size_t size,
              cl_uint num_events, const cl_event *wait_list, cl_event *event),
             (queue, src, dst, src_offset, dst_offset, size, num_events, wait_list, event))
WRAP_ENQUEUE(clEnqueueNDRangeKernel,
             (cl_command_queue queue, cl_kernel kernel, cl_uint work_dim, const size_t *global_offset,
              const size_t *global_size, const size_t *local_size, cl_uint num_events, const cl_event *wait_list,
              cl_event *event),
             (queue, kernel, work_dim, global_offset, global_size, local_size, num_events, wait_list, event))
WRAP_INT(clWaitForEvents, NULL, (cl_uint num_events, const cl_event *events), (num_events, events))
/* GEMM_FAULT_BACKWARDS=1: every command "starts" 1000 s after the driver says, so that it ends
 * before it starts, as a driver with a broken clock could report */
WRAP_INFO_ADJUSTED(clGetEventProfilingInfo, cl_event, cl_profiling_info,
                   backwards && param_name == CL_PROFILING_COMMAND_START && size >= sizeof(cl_ulong),
                   *(cl_ulong *)value += 1000000000000ull)

/* Objects: counted, never failed */
WRAP_OBJECT(MemObject, cl_mem, OBJ_MEM)
WRAP_OBJECT(Kernel, cl_kernel, OBJ_KERNEL)
WRAP_OBJECT(Program, cl_program, OBJ_PROGRAM)
WRAP_OBJECT(CommandQueue, cl_command_queue, OBJ_QUEUE)
WRAP_OBJECT(Context, cl_context, OBJ_CONTEXT)
WRAP_OBJECT(Event, cl_event, OBJ_EVENT)
