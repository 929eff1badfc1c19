/**
 * @file gemm_cl.h
 * @brief OpenCL plumbing: finding and choosing a device, building a program (with its log on
 * failure), guarded buffers, and profiling events.
 *
 * Every OpenCL call is checked; a failure becomes one line naming the call and the error
 * (e.g. "clCreateBuffer failed: CL_MEM_OBJECT_ALLOCATION_FAILURE") and exit code
 * #GEMM_EXIT_RUNTIME, after every resource acquired so far has been released.
 */
#ifndef GEMM_CL_H
#define GEMM_CL_H

#ifndef CL_TARGET_OPENCL_VERSION
/** @brief The OpenCL API version the harness is written against: 1.2, which every driver offers. */
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>
#include <stdio.h>

#include "gemm_common.h"
#include "gemm_memory.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Device classes that get their own default kernel parameters (see gemm_params.h). */
typedef enum gemm_device_class {
    GEMM_DEVICE_CPU = 0,    /**< a CPU device, such as PoCL's */
    GEMM_DEVICE_NVIDIA_GPU, /**< an NVIDIA GPU through NVIDIA's OpenCL */
    GEMM_DEVICE_GPU,        /**< any other GPU (AMD, Intel, Apple, Mali, ...) */
    GEMM_DEVICE_OTHER       /**< accelerators and anything else; uses the CPU defaults */
} gemm_device_class;

/** @brief Short name of a device class: "cpu", "nvidia-gpu", "gpu", "other". */
const char *gemm_device_class_name(gemm_device_class cls);

/** @brief What the harness knows about the chosen device. */
typedef struct gemm_device_info {
    cl_platform_id platform;  /**< the platform */
    cl_device_id device;      /**< the device */
    int index;                /**< position in --list-devices (all platforms, in order) */
    int platform_index;       /**< position of the platform */
    int device_index;         /**< position of the device within its platform */
    char platform_name[128];  /**< CL_PLATFORM_NAME */
    char name[128];           /**< CL_DEVICE_NAME */
    char vendor[128];         /**< CL_DEVICE_VENDOR */
    char driver[64];          /**< CL_DRIVER_VERSION */
    char version[64];         /**< CL_DEVICE_VERSION */
    cl_device_type type;      /**< CL_DEVICE_TYPE */
    gemm_device_class cls;    /**< derived from type and vendor */
    size_t max_work_group;    /**< CL_DEVICE_MAX_WORK_GROUP_SIZE */
    size_t max_item[3];       /**< CL_DEVICE_MAX_WORK_ITEM_SIZES */
    cl_ulong local_mem;       /**< CL_DEVICE_LOCAL_MEM_SIZE, bytes */
    cl_ulong global_mem;      /**< CL_DEVICE_GLOBAL_MEM_SIZE, bytes */
    cl_ulong max_alloc;       /**< CL_DEVICE_MAX_MEM_ALLOC_SIZE, bytes */
    cl_uint base_align;       /**< CL_DEVICE_MEM_BASE_ADDR_ALIGN, in bytes (the query gives bits) */
    cl_uint compute_units;    /**< CL_DEVICE_MAX_COMPUTE_UNITS */
    cl_uint clock_mhz;        /**< CL_DEVICE_MAX_CLOCK_FREQUENCY */
    cl_bool host_unified;     /**< CL_DEVICE_HOST_UNIFIED_MEMORY: the device's memory is the host's */
    cl_uint nv_compute_capability; /**< NVIDIA's compute capability as major*10 + minor (cl_nv_device_attribute_query),
                                        0 where the device does not report one */
} gemm_device_info;

/** @brief Name of an OpenCL error code, e.g. "CL_OUT_OF_RESOURCES". */
const char *gemm_cl_error_name(cl_int err);

/**
 * @brief Prints every platform and device with the index that `--device` accepts.
 * @return 0, or #GEMM_EXIT_RUNTIME (no platform at all) with @p msg filled.
 */
int gemm_list_devices(FILE *out, gemm_msg *msg);

/**
 * @brief Chooses a device. Selectors are an index or a case-insensitive part of the name;
 * NULL means: the first GPU of any (selected) platform, else the first device.
 *
 * A device index counts across all platforms, as --list-devices prints it, unless a platform is
 * also selected, in which case it counts within that platform.
 * @return 0; #GEMM_EXIT_BAD_INPUT if nothing matches; #GEMM_EXIT_RUNTIME if there is no platform.
 */
int gemm_select_device(const char *platform_sel, const char *device_sel, gemm_device_info *info, gemm_msg *msg);

/**
 * @brief If NVIDIA's OpenCL library is on disk but no ICD file registers it, writes its path
 * to @p path and returns 1 (the README explains the one-line fix). Returns 0 otherwise.
 */
int gemm_nvidia_unregistered(char *path, size_t len);

/** @brief A context, a profiling-enabled in-order queue and (once built) a program on one device. */
typedef struct gemm_cl {
    gemm_device_info dev;     /**< the device */
    cl_context context;       /**< context on that device only */
    cl_command_queue queue;   /**< in-order, CL_QUEUE_PROFILING_ENABLE */
    cl_program program;       /**< the built program, or NULL */
} gemm_cl;

/** @brief Creates the context and queue. @return 0 or #GEMM_EXIT_RUNTIME. */
int gemm_cl_open(gemm_cl *cl, const gemm_device_info *dev, gemm_msg *msg);

/**
 * @brief Builds @p source with @p options (the step's -D defines). On a build failure the build
 * log is printed on stderr, once, and #GEMM_EXIT_RUNTIME returned.
 *
 * @p source_name (NULL: none) is the file the source came from, as the reader knows it (the
 * path given to `--kernel-file`, or the step's kernel file): the log's positions are then
 * given in it, `my.cl:83:16: error: ...`, in place of the name the compiler gave the source
 * (`<kernel>`, `input.cl`, PoCL's temporary file in its cache: gemm_cl_name_log()).
 */
int gemm_cl_build(gemm_cl *cl, const char *source, const char *source_name, const char *options, gemm_msg *msg);

/**
 * @brief A copy of the build log @p log (to free()) in which every diagnostic that starts with
 * the compiler's name for the source and a position (`<kernel>:83:16: error: ...`, or PoCL 3's
 * `error: /.../tempfile_x.cl:83:16: ...`) starts with @p source_name and that position instead:
 * `my.cl:83:16: error: ...`. Other lines are copied as they are. NULL if out of memory.
 */
char *gemm_cl_name_log(const char *log, const char *source_name);

/**
 * @brief Creates kernel @p name from the built program.
 * @return 0; #GEMM_EXIT_BAD_INPUT if the program has no such kernel; #GEMM_EXIT_RUNTIME otherwise.
 */
int gemm_cl_kernel(gemm_cl *cl, const char *name, cl_kernel *kernel, gemm_msg *msg);

/**
 * @brief Checks that kernel @p name takes @p nargs arguments, as @p step passes them.
 * @return 0; #GEMM_EXIT_BAD_INPUT if it takes another number (a kernel file with the wrong
 * signature); #GEMM_EXIT_RUNTIME if the query fails.
 */
int gemm_cl_kernel_args(cl_kernel kernel, const char *name, int nargs, const char *step, gemm_msg *msg);

/** @brief Releases everything gemm_cl_open() and gemm_cl_build() created (safe on a zeroed struct). */
void gemm_cl_close(gemm_cl *cl);

/** @brief Bit pattern written into guard regions: a NaN no arithmetic produces. */
#define GEMM_GUARD_PATTERN 0x7FA5A5A5u
/** @brief Bit pattern used to poison outputs before a run (a quiet NaN). */
#define GEMM_POISON_PATTERN 0x7FC00000u
/** @brief Minimum guard size in bytes on each side (16384 floats). */
#define GEMM_GUARD_MIN_BYTES 65536
/**
 * @brief Inaccessible pages on each side of a fenced buffer: 16 GiB, 2^32 floats, as far as a
 * 32-bit element index, signed (the kernels' int) or unsigned, can reach from the buffer's start,
 * so that every such access that misses the buffer lands in a guard region or in these pages, and
 * nearer to its own buffer than to any other (the fault handler names the nearest, gemm_memory.h).
 */
#define GEMM_FENCE_BYTES ((size_t)1 << 34)
/** @brief The inaccessible pages of a fenced buffer under an address-space limit (`ulimit -v`). */
#define GEMM_FENCE_BYTES_LIMITED ((size_t)65536)

/**
 * @brief A device buffer with sentinel-filled margins (guard regions): the kernels see only
 * gemm_buffer::view, a sub-buffer of gemm_buffer::parent that starts after the front guard.
 *
 * Each guard holds at least one full row of the matrix and 64 KiB (gemm_guard_elems()), filled
 * with #GEMM_GUARD_PATTERN; a write into it is caught by gemm_buffer_check_guards() after the
 * runs. Where the device's buffers are host memory (gemm_device_fenced()), the harness makes the
 * buffer itself (`CL_MEM_USE_HOST_PTR`) between inaccessible pages (gemm_memory.h): an access
 * beyond the guards faults and is reported as an out-of-bounds access.
 */
typedef struct gemm_buffer {
    const char *label;   /**< "A", "B", "C", or what a helper buffer holds */
    cl_mem parent;       /**< guard + matrix + guard */
    cl_mem view;         /**< the matrix itself (sub-buffer) */
    size_t elems;        /**< floats in the matrix */
    size_t guard;        /**< floats in the front guard */
    size_t guard_back;   /**< floats in the back guard (at least #guard) */
    gemm_fenced host;    /**< the host memory of a fenced buffer (else unused) */
    int watch;           /**< its slot with the fault handler, or -1 */
} gemm_buffer;

/**
 * @brief Floats in each guard of a buffer whose rows hold @p row floats: the larger of one row
 * and #GEMM_GUARD_MIN_BYTES, rounded up so that the view starts at a multiple of the device's
 * base address alignment; 0 on a device that checks every access itself
 * (gemm_device_checks_accesses()).
 */
size_t gemm_guard_elems(const gemm_device_info *dev, size_t row);

/**
 * @brief True on Oclgrind, the simulator whose memory checker reports every access outside a
 * buffer object: there the buffers get no guards, since an access into a guard is inside the
 * parent buffer and the checker would not see it (a read there would go unreported).
 */
int gemm_device_checks_accesses(const gemm_device_info *dev);

/** @brief Bytes one guarded buffer of @p elems floats in rows of @p row takes on @p dev. */
size_t gemm_buffer_bytes(const gemm_device_info *dev, size_t elems, size_t row);

/** @brief 1 if @p dev keeps its buffers in host memory (a CPU device with unified memory). */
int gemm_device_host_memory(const gemm_device_info *dev);

/**
 * @brief Bytes of inaccessible pages on each side of the buffers on @p dev: #GEMM_FENCE_BYTES
 * where its buffers are host memory (#GEMM_FENCE_BYTES_LIMITED under an address-space limit),
 * 0 elsewhere (no fences: a GPU's memory is not the host's).
 */
size_t gemm_device_fenced(const gemm_device_info *dev);

/**
 * @brief Creates a guarded buffer of @p elems floats in rows of @p row floats, holding @p init
 * (@p elems floats), or the poison pattern (NaN) if @p init is NULL, between its guards.
 *
 * An unfenced buffer is filled with one blocking write of the whole parent (guard, contents,
 * guard), rather than fills of the margins and a write of the view, on purpose: Oclgrind
 * 21.10's uninitialized-value checker (tests/oclgrind.sh) loses track of a buffer after any
 * host-side write, fill or copy that does not cover it entirely, and then reports every read of
 * it as uninitialized. A fenced buffer is filled in host memory before it is created.
 */
int gemm_buffer_create(gemm_cl *cl, gemm_buffer *buf, const char *label, size_t elems, size_t row, const float *init,
                       gemm_msg *msg);

/**
 * @brief Reads the guards back. @return 0 if intact; 1 with @p msg saying where the first
 * overwritten element is (as an index into the matrix: -1 is the element just before it,
 * @c elems the one just after it); #GEMM_EXIT_RUNTIME on an OpenCL error.
 */
int gemm_buffer_check_guards(gemm_cl *cl, const gemm_buffer *buf, gemm_msg *msg);

/** @brief Releases a buffer (safe on a zeroed struct). */
void gemm_buffer_release(gemm_buffer *buf);

/** @brief Kernel execution time of a completed event (END - START), in milliseconds. */
int gemm_event_ms(cl_event ev, double *ms, gemm_msg *msg);

/** @brief A profiling timestamp (CL_PROFILING_COMMAND_START or _END) of a completed event, in ns. */
int gemm_event_time(cl_event ev, cl_profiling_info which, cl_ulong *ns, gemm_msg *msg);

/**
 * @brief end - start of two profiling timestamps, in milliseconds; #GEMM_EXIT_RUNTIME, with @p msg
 * saying so, where the driver's end comes before its start (no time can be measured there).
 */
int gemm_elapsed_ms(cl_ulong start, cl_ulong end, double *ms, gemm_msg *msg);

/** @brief Fills a message "<what> failed: <error name>" and returns #GEMM_EXIT_RUNTIME. */
int gemm_cl_fail(gemm_msg *msg, const char *what, cl_int err);

#ifdef __cplusplus
}
#endif

#endif /* GEMM_CL_H */
