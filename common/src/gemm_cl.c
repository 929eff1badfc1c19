#define _POSIX_C_SOURCE 200809L /* strncasecmp, access, mkstemp */
#include "gemm_cl.h"

#include <ctype.h>
#include <math.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gemm_watchdog.h"

/* cl_nv_device_attribute_query's queries (cl_ext.h has them as CL_DEVICE_COMPUTE_CAPABILITY_*_NV,
 * but not every version of the headers does) */
#define GEMM_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV 0x4000
#define GEMM_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV 0x4001

const char *gemm_device_class_name(gemm_device_class cls)
{
    switch (cls) {
    case GEMM_DEVICE_CPU: return "cpu";
    case GEMM_DEVICE_NVIDIA_GPU: return "nvidia-gpu";
    case GEMM_DEVICE_GPU: return "gpu";
    default: return "other";
    }
}

const char *gemm_cl_error_name(cl_int err)
{
#define E(x) case x: return #x
    switch (err) {
    E(CL_SUCCESS); E(CL_DEVICE_NOT_FOUND); E(CL_DEVICE_NOT_AVAILABLE); E(CL_COMPILER_NOT_AVAILABLE);
    E(CL_MEM_OBJECT_ALLOCATION_FAILURE); E(CL_OUT_OF_RESOURCES); E(CL_OUT_OF_HOST_MEMORY);
    E(CL_PROFILING_INFO_NOT_AVAILABLE); E(CL_MEM_COPY_OVERLAP); E(CL_IMAGE_FORMAT_MISMATCH);
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED); E(CL_BUILD_PROGRAM_FAILURE); E(CL_MAP_FAILURE);
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET); E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    E(CL_COMPILE_PROGRAM_FAILURE); E(CL_LINKER_NOT_AVAILABLE); E(CL_LINK_PROGRAM_FAILURE);
    E(CL_DEVICE_PARTITION_FAILED); E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE); E(CL_INVALID_VALUE);
    E(CL_INVALID_DEVICE_TYPE); E(CL_INVALID_PLATFORM); E(CL_INVALID_DEVICE); E(CL_INVALID_CONTEXT);
    E(CL_INVALID_QUEUE_PROPERTIES); E(CL_INVALID_COMMAND_QUEUE); E(CL_INVALID_HOST_PTR);
    E(CL_INVALID_MEM_OBJECT); E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR); E(CL_INVALID_IMAGE_SIZE);
    E(CL_INVALID_SAMPLER); E(CL_INVALID_BINARY); E(CL_INVALID_BUILD_OPTIONS); E(CL_INVALID_PROGRAM);
    E(CL_INVALID_PROGRAM_EXECUTABLE); E(CL_INVALID_KERNEL_NAME); E(CL_INVALID_KERNEL_DEFINITION);
    E(CL_INVALID_KERNEL); E(CL_INVALID_ARG_INDEX); E(CL_INVALID_ARG_VALUE); E(CL_INVALID_ARG_SIZE);
    E(CL_INVALID_KERNEL_ARGS); E(CL_INVALID_WORK_DIMENSION); E(CL_INVALID_WORK_GROUP_SIZE);
    E(CL_INVALID_WORK_ITEM_SIZE); E(CL_INVALID_GLOBAL_OFFSET); E(CL_INVALID_EVENT_WAIT_LIST);
    E(CL_INVALID_EVENT); E(CL_INVALID_OPERATION); E(CL_INVALID_GL_OBJECT); E(CL_INVALID_BUFFER_SIZE);
    E(CL_INVALID_MIP_LEVEL); E(CL_INVALID_GLOBAL_WORK_SIZE); E(CL_INVALID_PROPERTY);
    E(CL_INVALID_IMAGE_DESCRIPTOR); E(CL_INVALID_COMPILER_OPTIONS); E(CL_INVALID_LINKER_OPTIONS);
    E(CL_INVALID_DEVICE_PARTITION_COUNT);
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL error";
    }
#undef E
}

int gemm_cl_fail(gemm_msg *msg, const char *what, cl_int err)
{
    const int memory = err == CL_OUT_OF_HOST_MEMORY || err == CL_OUT_OF_RESOURCES ||
                       err == CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "%s failed: %s (%d)%s", what, gemm_cl_error_name(err), (int)err,
                     memory && gemm_memory_address_limited()
                         ? "; an address-space limit is in force (ulimit -v or -d): the driver may need more"
                         : "");
}

/* ---------------------------------------------------------------------------------------------
 * Enumeration: every (platform, device) pair, in the order the ICD loader reports them.
 * ------------------------------------------------------------------------------------------- */

#define MAX_PLATFORMS 16
#define MAX_DEVICES 64

typedef struct device_list {
    int count;
    gemm_device_info dev[MAX_DEVICES];
    int nplatforms;
    cl_platform_id platforms[MAX_PLATFORMS];
    char platform_names[MAX_PLATFORMS][128];
    int duplicates; /* platforms the ICD loader reported twice (two .icd files naming one library) */
    int left_out;                         /* platforms and devices left out as a query about them failed */
    int left_out_code[MAX_PLATFORMS];     /* the first such failure of each platform: its exit code, */
    char left_out_why[MAX_PLATFORMS][704]; /* ... and what it was (a device, its platform's name, a gemm_msg) */
    int first_left_out;                   /* the platform of the first, -1 if none */
} device_list;

/* A platform or device whose query failed (code, msg) is left out. The first failure is kept: the
 * error where no device is left, a note where some are; and each platform's first: the error where
 * --platform chose that platform and none of its devices is left. */
static void left_out(device_list *list, int p, int code, const gemm_msg *msg, const char *what)
{
    if (list->left_out++ == 0)
        list->first_left_out = p;
    if (!list->left_out_code[p]) {
        list->left_out_code[p] = code;
        snprintf(list->left_out_why[p], sizeof list->left_out_why[p], "%s '%s': %s", what, list->platform_names[p],
                 msg->text);
    }
}

/* Strings longer than the field are cut, not lost (PoCL's version string is long). "?" and the
 * error where the query fails. */
static cl_int query_string_device(cl_device_id d, cl_device_info what, char *out, size_t len)
{
    size_t size = 0;
    char *full = NULL;
    snprintf(out, len, "?");
    cl_int err = clGetDeviceInfo(d, what, 0, NULL, &size);
    if (err == CL_SUCCESS && (full = malloc(size + 1)) == NULL)
        err = CL_OUT_OF_HOST_MEMORY;
    if (err == CL_SUCCESS)
        err = clGetDeviceInfo(d, what, size, full, NULL);
    if (err == CL_SUCCESS) {
        full[size] = '\0';
        snprintf(out, len, "%s", full);
    }
    free(full);
    return err;
}

static int describe_device(gemm_device_info *info, cl_platform_id p, cl_device_id d, gemm_msg *msg)
{
    cl_int err;
    cl_uint align_bits = 0;
    info->platform = p;
    info->device = d;
    /* the name and versions are only shown ("?" where the driver fails to give them); the vendor
     * chooses NVIDIA's parameters and the extensions the compute capability (below), so that a
     * failed query of either is a failure, not a guess that runs other code unsaid */
    query_string_device(d, CL_DEVICE_NAME, info->name, sizeof info->name);
    if ((err = query_string_device(d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor)) != CL_SUCCESS)
        return gemm_cl_fail(msg, "clGetDeviceInfo(CL_DEVICE_VENDOR)", err);
    query_string_device(d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
    query_string_device(d, CL_DEVICE_VERSION, info->version, sizeof info->version);
#define Q(what, var)                                                          \
    if ((err = clGetDeviceInfo(d, what, sizeof(var), &(var), NULL)) != CL_SUCCESS) \
        return gemm_cl_fail(msg, "clGetDeviceInfo(" #what ")", err);
    Q(CL_DEVICE_TYPE, info->type);
    Q(CL_DEVICE_MAX_WORK_GROUP_SIZE, info->max_work_group);
    Q(CL_DEVICE_MAX_WORK_ITEM_SIZES, info->max_item);
    Q(CL_DEVICE_LOCAL_MEM_SIZE, info->local_mem);
    Q(CL_DEVICE_GLOBAL_MEM_SIZE, info->global_mem);
    Q(CL_DEVICE_MAX_MEM_ALLOC_SIZE, info->max_alloc);
    Q(CL_DEVICE_MEM_BASE_ADDR_ALIGN, align_bits);
    Q(CL_DEVICE_MAX_COMPUTE_UNITS, info->compute_units);
    Q(CL_DEVICE_MAX_CLOCK_FREQUENCY, info->clock_mhz);
    Q(CL_DEVICE_HOST_UNIFIED_MEMORY, info->host_unified);
#undef Q
    /* NVIDIA's extension cl_nv_device_attribute_query: the compute capability, which says which
     * instructions the GPU has (step 10's cp.async needs 8.0); 0 where it is not reported */
    char extensions[4096];
    cl_uint cc_major = 0, cc_minor = 0;
    info->nv_compute_capability = 0;
    if ((err = query_string_device(d, CL_DEVICE_EXTENSIONS, extensions, sizeof extensions)) != CL_SUCCESS)
        return gemm_cl_fail(msg, "clGetDeviceInfo(CL_DEVICE_EXTENSIONS)", err);
    if (strstr(extensions, "cl_nv_device_attribute_query")) {
        /* a driver that offers the queries and then fails them is failing (a GPU taken for one
         * without cp.async would run step 10's slower copies unsaid) */
        err = clGetDeviceInfo(d, GEMM_CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof cc_major, &cc_major, NULL);
        if (err != CL_SUCCESS)
            return gemm_cl_fail(msg, "clGetDeviceInfo(CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV)", err);
        err = clGetDeviceInfo(d, GEMM_CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof cc_minor, &cc_minor, NULL);
        if (err != CL_SUCCESS)
            return gemm_cl_fail(msg, "clGetDeviceInfo(CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV)", err);
        info->nv_compute_capability = cc_major * 10 + cc_minor;
    }
    info->base_align = align_bits / 8 ? align_bits / 8 : 4;
    if (info->type & CL_DEVICE_TYPE_GPU)
        info->cls = strstr(info->vendor, "NVIDIA") ? GEMM_DEVICE_NVIDIA_GPU : GEMM_DEVICE_GPU;
    else if (info->type & CL_DEVICE_TYPE_CPU)
        info->cls = GEMM_DEVICE_CPU;
    else
        info->cls = GEMM_DEVICE_OTHER;
    return 0;
}

/* PoCL compiles into a cache directory and, where it cannot write there, fails without a word
 * (an empty build log) or finds no device at all. Finds whether that directory (POCL_CACHE_DIR,
 * else the one under $XDG_CACHE_HOME or $HOME) can be made and written, as PoCL would: 1 and a
 * description if not. */
static int pocl_cache_unusable(char *out, size_t len)
{
    char dir[1024];
    const char *env = getenv("POCL_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    const char *from = "POCL_CACHE_DIR";
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/pocl/kcache", xdg), from = "PoCL's default under XDG_CACHE_HOME";
    else if (home && *home)
        snprintf(dir, sizeof dir, "%s/.cache/pocl/kcache", home), from = "PoCL's default under HOME";
    else
        return 0;
    /* mkdir -p, then a file created and removed */
    for (char *p = dir + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            const char c = *p;
            *p = '\0';
            if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
                snprintf(out, len, "'%s' (%s) cannot be created: %s", dir, from, strerror(errno));
                return 1;
            }
            *p = c;
            if (c == '\0')
                break;
        }
    }
    char probe[1100];
    snprintf(probe, sizeof probe, "%s/.gemm-probe-XXXXXX", dir);
    const int fd = mkstemp(probe);
    if (fd < 0) {
        snprintf(out, len, "'%s' (%s) is not a writable directory: %s", dir, from, strerror(errno));
        return 1;
    }
    close(fd);
    unlink(probe);
    return 0;
}

static int is_pocl(const char *platform_name) { return strstr(platform_name, "Portable Computing Language") != NULL; }

/* Why PoCL found no device, where its environment says: 1 and the reason, or 0. */
static int pocl_problem(char *out, size_t len)
{
    const char *devices = getenv("POCL_DEVICES");
    char cache[1200];
    if (getenv("POCL_CACHE_DIR") && pocl_cache_unusable(cache, sizeof cache))
        snprintf(out, len, "PoCL cannot start, its cache directory %s", cache);
    else if (devices && *devices)
        snprintf(out, len, "POCL_DEVICES='%s' names no device PoCL has (e.g. pthread, basic; unset it to let PoCL "
                 "choose)", devices);
    else
        return 0;
    return 1;
}

static int no_platform(gemm_msg *msg)
{
    char path[512];
    gemm_memory_limits lim;
    gemm_memory_read_limits(&lim);
    if (lim.address_limit < INFINITY) /* a driver that cannot map what it needs does not load */
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME,
                         "no OpenCL platform could be loaded under the address-space limit %s = %.2f GiB: the "
                         "drivers need more (PoCL about %.2f GiB here); raise the limit",
                         lim.address_from, lim.address_limit / 1073741824.0, gemm_memory_driver_reserve() / 1073741824.0);
    if (gemm_nvidia_unregistered(path, sizeof path))
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME,
                         "no OpenCL platform found; NVIDIA's OpenCL library is installed (%s) but not registered: "
                         "run 'echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd' as root",
                         path);
    return gemm_msgf(msg, GEMM_EXIT_RUNTIME,
                     "no OpenCL platform found: install one (e.g. 'apt-get install pocl-opencl-icd' for the CPU) "
                     "or register your GPU driver in /etc/OpenCL/vendors (see the README)");
}

static int enumerate(device_list *list, gemm_msg *msg)
{
    cl_uint np = 0;
    memset(list, 0, sizeof *list);
    list->first_left_out = -1;
    int rc = gemm_memory_check_driver(msg); /* before the driver loads */
    if (rc)
        return rc;
    gemm_abort_install();
    cl_int err = clGetPlatformIDs(MAX_PLATFORMS, list->platforms, &np);
    if (err == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || (err == CL_SUCCESS && np == 0))
        return no_platform(msg);
    if (err != CL_SUCCESS)
        return gemm_cl_fail(msg, "clGetPlatformIDs", err);
    list->nplatforms = (int)(np < MAX_PLATFORMS ? np : MAX_PLATFORMS);
    /* Two .icd files naming the same library make the loader report the same platform (the same
     * cl_platform_id, with the same devices) twice: keep it once, so that an index or a name
     * never has to choose between a platform and itself. */
    int kept = 0;
    for (int p = 0; p < list->nplatforms; p++) {
        int seen = 0;
        for (int q = 0; q < kept; q++)
            seen |= list->platforms[q] == list->platforms[p];
        if (seen)
            list->duplicates++;
        else
            list->platforms[kept++] = list->platforms[p];
    }
    list->nplatforms = kept;
    for (int p = 0; p < list->nplatforms; p++) {
        char *pname = list->platform_names[p];
        if (clGetPlatformInfo(list->platforms[p], CL_PLATFORM_NAME, 128, pname, NULL) != CL_SUCCESS)
            snprintf(pname, 128, "?");
        pname[127] = '\0';
        cl_device_id ids[MAX_DEVICES];
        cl_uint nd = 0;
        err = clGetDeviceIDs(list->platforms[p], CL_DEVICE_TYPE_ALL, MAX_DEVICES, ids, &nd);
        if (err == CL_DEVICE_NOT_FOUND)
            continue; /* a platform without devices is not an error */
        /* A driver that fails to answer (a broken or half-installed one beside a working one) is
         * left out with a note, not allowed to stop every program: its failure is the error only
         * where it leaves no device at all (below). */
        if (err != CL_SUCCESS) {
            left_out(list, p, gemm_cl_fail(msg, "clGetDeviceIDs", err), msg, "platform");
            continue;
        }
        for (cl_uint d = 0; d < nd && list->count < MAX_DEVICES; d++) {
            gemm_device_info *info = &list->dev[list->count];
            int rc = describe_device(info, list->platforms[p], ids[d], msg);
            if (rc) {
                left_out(list, p, rc, msg, "a device of platform");
                continue;
            }
            info->index = list->count;
            info->platform_index = p;
            info->device_index = (int)d;
            snprintf(info->platform_name, sizeof info->platform_name, "%s", pname);
            list->count++;
        }
    }
    gemm_abort_install(); /* again: over the handler the driver installed as it loaded */
    const int first = list->first_left_out;
    if (list->count == 0 && list->left_out)
        return gemm_msgf(msg, list->left_out_code[first], "%s", list->left_out_why[first]);
    if (list->left_out)
        gemm_note("%d platform(s) or device(s) left out, as their driver failed to describe them; the first: %s",
                  list->left_out, list->left_out_why[first]);
    if (list->count == 0) {
        char why[1300];
        if (pocl_problem(why, sizeof why))
            return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "the OpenCL platforms found have no devices: %s", why);
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME,
                         "the OpenCL platforms found have no devices: install PoCL ('apt-get install "
                         "pocl-opencl-icd') or check your GPU driver");
    }
    return 0;
}

static const char *type_name(cl_device_type t)
{
    if (t & CL_DEVICE_TYPE_GPU)
        return "GPU";
    if (t & CL_DEVICE_TYPE_CPU)
        return "CPU";
    if (t & CL_DEVICE_TYPE_ACCELERATOR)
        return "accelerator";
    return "other";
}

int gemm_list_devices(FILE *out, gemm_msg *msg)
{
    device_list *list = malloc(sizeof *list);
    if (!list)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory");
    int rc = enumerate(list, msg);
    if (rc) {
        free(list);
        return rc;
    }
    int last_platform = -1;
    for (int i = 0; i < list->count; i++) {
        const gemm_device_info *d = &list->dev[i];
        if (d->platform_index != last_platform) {
            fprintf(out, "platform %d: %s\n", d->platform_index, d->platform_name);
            last_platform = d->platform_index;
        }
        fprintf(out,
                "  device %d: %s [%s, %s]\n"
                "      %s, driver %s; %u compute units at %u MHz; work-group <= %zu;\n"
                "      local memory %lu KiB; global memory %.1f GiB, largest buffer %.1f GiB\n",
                d->index, d->name, type_name(d->type), gemm_device_class_name(d->cls), d->version, d->driver,
                d->compute_units, d->clock_mhz, d->max_work_group, (unsigned long)(d->local_mem / 1024),
                (double)d->global_mem / 1073741824.0, (double)d->max_alloc / 1073741824.0);
    }
    if (list->duplicates)
        fprintf(out,
                "note: the ICD loader reported %d platform%s twice (two .icd files in /etc/OpenCL/vendors or "
                "OCL_ICD_VENDORS\n      name the same library); each is listed, and chosen, once\n",
                list->duplicates, list->duplicates == 1 ? "" : "s");
    char path[512];
    int has_nvidia = 0;
    for (int p = 0; p < list->nplatforms; p++)
        has_nvidia |= strstr(list->platform_names[p], "NVIDIA") != NULL;
    if (!has_nvidia && gemm_nvidia_unregistered(path, sizeof path))
        fprintf(out,
                "note: NVIDIA's OpenCL library is installed (%s) but not registered with the ICD loader,\n"
                "      so the GPU is not listed. Register it (as root):\n"
                "      mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd\n",
                path);
    free(list);
    return 0;
}

static int is_index(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return 1;
    return n == 0;
}

/* "0 (name), 1 (name)" for a refusal that lists the candidates */
static void append_candidate(char *out, size_t len, int index, const char *name, const char *where)
{
    const size_t used = strlen(out);
    if (used + 1 < len)
        snprintf(out + used, len - used, "%s%d (%s%s)", used ? ", " : "", index, name, where);
}

/* The platform --platform names: an index, or a part of the name of exactly one platform; -1
 * (any) without --platform */
static int choose_platform(const device_list *list, const char *platform_sel, int *platform, gemm_msg *msg)
{
    *platform = -1;
    if (!platform_sel)
        return 0;
    if (is_index(platform_sel)) {
        const long p = strtol(platform_sel, NULL, 10);
        *platform = (int)p;
        if (p >= list->nplatforms)
            return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "platform index %s does not exist (there %s %d; see --list-devices)",
                             platform_sel, list->nplatforms == 1 ? "is" : "are", list->nplatforms);
        return 0;
    }
    char names[384] = "";
    int matches = 0;
    for (int p = 0; p < list->nplatforms; p++) {
        if (contains_nocase(list->platform_names[p], platform_sel)) {
            *platform = matches++ ? *platform : p;
            append_candidate(names, sizeof names, p, list->platform_names[p], "");
        }
    }
    if (matches == 0)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "no OpenCL platform matches '%s' (see --list-devices)", platform_sel);
    if (matches > 1)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "'%s' matches %d OpenCL platforms: %s; choose one by its index (--platform N)", platform_sel,
                         matches, names);
    return 0;
}

/* Why no device was chosen, given the platform chosen and the devices on it (candidates) */
static int refuse_no_device(const device_list *list, int platform, int candidates, const char *platform_sel,
                            const char *device_sel, gemm_msg *msg)
{
    char why[1300];
    if (candidates == 0 && platform >= 0 && list->left_out_code[platform])
        return gemm_msgf(msg, list->left_out_code[platform], "%s", list->left_out_why[platform]);
    if (candidates == 0 && platform >= 0 && is_pocl(list->platform_names[platform]) && pocl_problem(why, sizeof why))
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "platform '%s' has no devices: %s", platform_sel, why);
    if (candidates == 0)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "platform '%s' has no devices (see --list-devices)",
                         platform_sel ? platform_sel : "?");
    if (is_index(device_sel))
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "device index %s does not exist (there %s %d; see --list-devices)",
                         device_sel, list->count == 1 ? "is" : "are", list->count);
    return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "no OpenCL device matches '%s' (see --list-devices)", device_sel);
}

int gemm_select_device(const char *platform_sel, const char *device_sel, gemm_device_info *info, gemm_msg *msg)
{
    device_list *list = malloc(sizeof *list);
    if (!list)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory");
    int rc = enumerate(list, msg);
    if (rc) {
        free(list);
        return rc;
    }
    int platform = -1; /* -1: any */
    rc = choose_platform(list, platform_sel, &platform, msg);
    /* The device: an index is the one --list-devices prints (across all platforms), whether or
     * not a platform is given; a name must match one device of the platform(s) chosen. */
    char names[384] = "";
    int chosen = -1, candidates = 0, matches = 0;
    for (int i = 0; i < list->count && !rc; i++) {
        const gemm_device_info *d = &list->dev[i];
        const int on_platform = platform < 0 || d->platform_index == platform;
        candidates += on_platform;
        if (!device_sel) {
            if (on_platform &&
                (chosen < 0 || (!(list->dev[chosen].type & CL_DEVICE_TYPE_GPU) && (d->type & CL_DEVICE_TYPE_GPU))))
                chosen = i;
        } else if (is_index(device_sel)) {
            if (strtol(device_sel, NULL, 10) == d->index && d->index == i) {
                chosen = i;
                if (!on_platform)
                    rc = gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                                   "device %d is on platform %d (%s), not on platform %d (%s): --device takes the "
                                   "index that --list-devices shows",
                                   d->index, d->platform_index, d->platform_name, platform,
                                   list->platform_names[platform]);
            }
        } else if (on_platform && contains_nocase(d->name, device_sel)) {
            char where[160];
            snprintf(where, sizeof where, " on platform %d", d->platform_index);
            append_candidate(names, sizeof names, d->index, d->name, where);
            chosen = matches++ ? chosen : i;
        }
    }
    if (!rc && device_sel && !is_index(device_sel) && matches > 1)
        rc = gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "'%s' matches %d OpenCL devices: %s; choose one by its index (--device N)",
                       device_sel, matches, names);
    if (!rc && chosen < 0)
        rc = refuse_no_device(list, platform, candidates, platform_sel, device_sel, msg);
    if (!rc)
        *info = list->dev[chosen];
    free(list);
    return rc;
}

int gemm_nvidia_unregistered(char *path, size_t len)
{
    static const char *const dirs[] = {"/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64",
                                       "/usr/lib", "/usr/local/nvidia/lib64", "/usr/local/nvidia/lib",
                                       "/usr/lib/aarch64-linux-gnu", "/usr/lib/wsl/lib"};
    int found = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0] && !found; i++) {
        snprintf(path, len, "%s/libnvidia-opencl.so.1", dirs[i]);
        found = access(path, F_OK) == 0;
    }
    if (!found)
        return 0;
    /* Registered if any .icd file in the vendors directory names it. */
    const char *vendors = getenv("OCL_ICD_VENDORS");
    if (!vendors || !*vendors)
        vendors = "/etc/OpenCL/vendors";
    DIR *dir = opendir(vendors);
    if (!dir)
        return 1;
    int registered = 0;
    struct dirent *e;
    while (!registered && (e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 4, ".icd") != 0)
            continue;
        char file[1024], line[512];
        snprintf(file, sizeof file, "%s/%s", vendors, e->d_name);
        FILE *f = fopen(file, "r");
        if (!f)
            continue;
        while (fgets(line, sizeof line, f))
            if (strstr(line, "nvidia-opencl") || strstr(line, "nvidia_opencl"))
                registered = 1;
        fclose(f);
    }
    closedir(dir);
    return !registered;
}

/* ---------------------------------------------------------------------------------------------
 * Context, queue, program, kernels
 * ------------------------------------------------------------------------------------------- */

int gemm_cl_open(gemm_cl *cl, const gemm_device_info *dev, gemm_msg *msg)
{
    cl_int err;
    memset(cl, 0, sizeof *cl);
    cl->dev = *dev;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)dev->platform, 0};
    cl->context = clCreateContext(props, 1, &dev->device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        cl->context = NULL;
        return gemm_cl_fail(msg, "clCreateContext", err);
    }
    /* In-order queue with profiling: events give each kernel's device start and end time. */
    cl->queue = clCreateCommandQueue(cl->context, dev->device, CL_QUEUE_PROFILING_ENABLE, &err);
    if (err != CL_SUCCESS) {
        cl->queue = NULL;
        gemm_cl_close(cl);
        return gemm_cl_fail(msg, "clCreateCommandQueue", err);
    }
    return 0;
}

/* GEMM_PROGRAM_BINARY=FILE writes the compiled program as the driver returns it (on NVIDIA, PTX
 * text: what the kernel became, before the driver assembles it for the GPU). */
static int save_binary(gemm_cl *cl, const char *path, gemm_msg *msg)
{
    if (!path || !*path)
        return 0;
    size_t size = 0;
    cl_int err = clGetProgramInfo(cl->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL);
    if (err != CL_SUCCESS)
        return gemm_cl_fail(msg, "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)", err);
    unsigned char *binary = malloc(size ? size : 1);
    if (!binary)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory for the program binary (%zu bytes)", size);
    err = clGetProgramInfo(cl->program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL);
    if (err != CL_SUCCESS) {
        free(binary);
        return gemm_cl_fail(msg, "clGetProgramInfo(CL_PROGRAM_BINARIES)", err);
    }
    FILE *f = fopen(path, "wb");
    const int ok = f && fwrite(binary, 1, size, f) == size;
    const int closed = f && fclose(f) == 0;
    free(binary);
    if (!ok || !closed)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "cannot write the program binary to '%s' (GEMM_PROGRAM_BINARY)", path);
    return 0;
}

/* Whether NAME (len bytes) is a compiler's name for the one source it was given: NVIDIA's, Apple's
 * and others' in angle brackets, Oclgrind's and Mesa's input.cl, ROCm's CompileSource, PoCL's
 * file in its kernel cache. Not <built-in> or <command line>: those are the -D defines. */
static int names_the_source(const char *name, size_t len)
{
    static const char *const whole[] = {"<kernel>", "<source>", "<program source>", "<stdin>"};
    static const char *const base_names[] = {"input.cl", "CompileSource", "program.cl"};
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        if (strlen(whole[i]) == len && memcmp(whole[i], name, len) == 0)
            return 1;
    if (len == 0 || memchr(name, ' ', len))
        return 0;
    const char *base = name;
    for (size_t i = 0; i < len; i++)
        if (name[i] == '/')
            base = name + i + 1;
    const size_t base_len = (size_t)(name + len - base);
    for (size_t i = 0; i < sizeof base_names / sizeof base_names[0]; i++)
        if (strlen(base_names[i]) == base_len && memcmp(base_names[i], base, base_len) == 0)
            return 1;
    return base_len > 11 && strncmp(base, "tempfile", 8) == 0 && memcmp(base + base_len - 3, ".cl", 3) == 0;
}

/* The digits at s (before end), as a count of characters */
static size_t digits_at(const char *s, const char *end)
{
    size_t n = 0;
    while (s + n < end && isdigit((unsigned char)s[n]))
        n++;
    return n;
}

/* After a position's column (at p, before end): ":" or, where a macro made the text, clang's
 * " <Spelling=<command line>:6:15>:". Returns the length up to that colon included, or 0. */
static size_t position_end(const char *p, const char *end)
{
    if (p < end && *p == ':')
        return 1;
    if (end - p < 3 || p[0] != ' ' || p[1] != '<')
        return 0;
    int depth = 0;
    for (const char *c = p + 1; c < end; c++) {
        depth += (*c == '<') - (*c == '>');
        if (depth == 0)
            return c + 1 < end && c[1] == ':' ? (size_t)(c + 2 - p) : 0;
    }
    return 0;
}

/* At the start of a line (before end): "NAME:LINE:COL:" with NAME the compiler's name for the
 * source. Returns the length of NAME, and in *position_len that of ":LINE:COL:"; 0 if none. */
static size_t source_position(const char *line, const char *end, size_t *position_len)
{
    for (const char *c = line; c < end; c++) {
        if (*c != ':')
            continue;
        const size_t row = digits_at(c + 1, end);
        const char *col = c + 1 + row + 1;
        if (row == 0 || col > end || col[-1] != ':')
            continue;
        const size_t col_len = digits_at(col, end);
        const size_t tail = col_len ? position_end(col + col_len, end) : 0;
        if (tail == 0)
            continue;
        if (!names_the_source(line, (size_t)(c - line)))
            return 0;
        *position_len = (size_t)(col + col_len + tail - c);
        return (size_t)(c - line);
    }
    return 0;
}

char *gemm_cl_name_log(const char *log, const char *source_name)
{
    static const char *const severities[] = {"fatal error: ", "error: ", "warning: ", "note: "};
    size_t lines = 1;
    for (const char *c = log; *c; c++)
        lines += *c == '\n';
    const size_t name_len = strlen(source_name);
    char *out = malloc(strlen(log) + lines * (name_len + 1) + 1);
    if (!out)
        return NULL;
    char *o = out;
    for (const char *line = log; *line;) {
        const char *end = line + strcspn(line, "\n");
        /* PoCL 3 puts the severity first: "error: NAME:8:12: msg" becomes "FILE:8:12: error: msg" */
        const char *severity = NULL, *at = line;
        for (size_t i = 0; i < sizeof severities / sizeof severities[0] && !severity; i++)
            if (strncmp(line, severities[i], strlen(severities[i])) == 0)
                severity = severities[i], at = line + strlen(severities[i]);
        size_t position_len = 0;
        const size_t compiler_name_len = source_position(at, end, &position_len);
        if (compiler_name_len) {
            memcpy(o, source_name, name_len);
            o += name_len;
            memcpy(o, at + compiler_name_len, position_len);
            o += position_len;
            if (severity) {
                const size_t word = strlen(severity) - 1; /* without its space */
                *o++ = ' ';
                memcpy(o, severity, word);
                o += word;
            }
            at += compiler_name_len + position_len;
        } else {
            at = line;
        }
        memcpy(o, at, (size_t)(end - at));
        o += end - at;
        if (*end == '\n')
            *o++ = '\n';
        line = *end ? end + 1 : end;
    }
    *o = '\0';
    return out;
}

/* Prints the build log (erasing a progress line first), its positions in source_name where one
 * is given; returns 1 if the driver gave one, else 0 */
static int print_build_log(gemm_cl *cl, const char *source_name, const char *options)
{
    size_t size = 0;
    char *log = NULL;
    int shown = 0;
    if (clGetProgramBuildInfo(cl->program, cl->dev.device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) == CL_SUCCESS &&
        (log = malloc(size + 1)) != NULL &&
        clGetProgramBuildInfo(cl->program, cl->dev.device, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
        log[size] = '\0';
        char *named = source_name ? gemm_cl_name_log(log, source_name) : NULL;
        gemm_message_begin();
        fprintf(stderr, "----- OpenCL build log (options: %s) -----\n%s\n----- end of build log -----\n", options,
                named ? named : log);
        gemm_message_end();
        free(named);
        shown = 1;
    }
    free(log);
    return shown;
}

int gemm_cl_build(gemm_cl *cl, const char *source, const char *source_name, const char *options, gemm_msg *msg)
{
    cl_int err;
    char cache[1200];
    if (is_pocl(cl->dev.platform_name) && pocl_cache_unusable(cache, sizeof cache))
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "PoCL cannot compile kernels: its cache directory %s", cache);
    cl->program = clCreateProgramWithSource(cl->context, 1, &source, NULL, &err);
    if (err != CL_SUCCESS) {
        cl->program = NULL;
        return gemm_cl_fail(msg, "clCreateProgramWithSource", err);
    }
    err = clBuildProgram(cl->program, 1, &cl->dev.device, options, NULL, NULL);
    /* Show the compiler's own words on a failure: they are what a learner needs to fix the kernel.
     * GEMM_BUILD_LOG=1 shows them after a success too (e.g. register use with -cl-nv-verbose). */
    const char *want = getenv("GEMM_BUILD_LOG");
    int shown = 0; /* a driver may give no log (an error other than the compiler's) */
    if (err != CL_SUCCESS || (want && *want && strcmp(want, "0") != 0))
        shown = print_build_log(cl, source_name, options);
    if (err == CL_SUCCESS)
        return save_binary(cl, getenv("GEMM_PROGRAM_BINARY"), msg);
    return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "the OpenCL program did not build: clBuildProgram failed: %s (%d); %s",
                     gemm_cl_error_name(err), (int)err, shown ? "build log above" : "the driver gave no build log");
}

int gemm_cl_kernel(gemm_cl *cl, const char *name, cl_kernel *kernel, gemm_msg *msg)
{
    cl_int err;
    *kernel = clCreateKernel(cl->program, name, &err);
    if (err == CL_SUCCESS)
        return 0;
    *kernel = NULL;
    if (err == CL_INVALID_KERNEL_NAME)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT, "the OpenCL program has no kernel named '%s'", name);
    return gemm_cl_fail(msg, "clCreateKernel", err);
}

int gemm_cl_kernel_args(cl_kernel kernel, const char *name, int nargs, const char *step, gemm_msg *msg)
{
    cl_uint have = 0;
    cl_int err = clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof have, &have, NULL);
    if (err != CL_SUCCESS)
        return gemm_cl_fail(msg, "clGetKernelInfo(CL_KERNEL_NUM_ARGS)", err);
    if ((int)have != nargs)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "kernel '%s' takes %u argument%s but %s passes %d%s; its signature must be the step's",
                         name, have, have == 1 ? "" : "s", step, nargs,
                         nargs == 8 ? " (int M, int N, int K, float alpha, float beta, A, B, C)" : "");
    return 0;
}

void gemm_cl_close(gemm_cl *cl)
{
    if (cl->program)
        clReleaseProgram(cl->program);
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->context)
        clReleaseContext(cl->context);
    cl->program = NULL;
    cl->queue = NULL;
    cl->context = NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Guarded buffers
 * ------------------------------------------------------------------------------------------- */

int gemm_device_checks_accesses(const gemm_device_info *dev)
{
    return strcmp(dev->platform_name, "Oclgrind") == 0;
}

size_t gemm_guard_elems(const gemm_device_info *dev, size_t row)
{
    if (gemm_device_checks_accesses(dev))
        return 0;
    /* The view must start at a multiple of the device's base alignment (sub-buffer rule), and
     * the guard must hold a full row of the matrix and GEMM_GUARD_MIN_BYTES. */
    const size_t align = dev->base_align ? dev->base_align : 1;
    size_t g = row > GEMM_GUARD_MIN_BYTES / sizeof(float) ? row : GEMM_GUARD_MIN_BYTES / sizeof(float);
    while ((g * sizeof(float)) % align != 0)
        g++;
    return g;
}

size_t gemm_buffer_bytes(const gemm_device_info *dev, size_t elems, size_t row)
{
    return (elems + 2 * gemm_guard_elems(dev, row)) * sizeof(float);
}

int gemm_device_host_memory(const gemm_device_info *dev)
{
    return (dev->type & CL_DEVICE_TYPE_CPU) && dev->host_unified;
}

size_t gemm_device_fenced(const gemm_device_info *dev)
{
    if (!gemm_device_host_memory(dev))
        return 0;
    return gemm_memory_address_limited() ? GEMM_FENCE_BYTES_LIMITED : GEMM_FENCE_BYTES;
}

void gemm_buffer_release(gemm_buffer *buf)
{
    if (buf->view)
        clReleaseMemObject(buf->view);
    if (buf->parent)
        clReleaseMemObject(buf->parent);
    buf->view = buf->parent = NULL;
    if (buf->host.map) {
        gemm_fault_unwatch(buf->watch);
        gemm_fenced_free(&buf->host);
    }
}

/* Slots of the fault handler, one per live fenced buffer. */
static int watch_slot(void)
{
    static int next;
    return next < GEMM_FAULT_WATCH_MAX ? next++ : -1;
}

int gemm_buffer_create(gemm_cl *cl, gemm_buffer *buf, const char *label, size_t elems, size_t row, const float *init,
                       gemm_msg *msg)
{
    cl_int err;
    memset(buf, 0, sizeof *buf);
    buf->label = label;
    buf->elems = elems;
    buf->watch = -1;
    buf->guard = buf->guard_back = gemm_guard_elems(&cl->dev, row);
    const size_t fence = gemm_device_fenced(&cl->dev);
    cl_uint *image = NULL;
    if (fence) {
        /* The buffer in our own host memory, its back guard running to the end of its last page. */
        int rc = gemm_fenced_alloc(&buf->host, (buf->guard + elems + buf->guard_back) * sizeof(float), fence, msg);
        if (rc)
            return rc;
        image = buf->host.usable;
        buf->guard_back = buf->host.usable_len / sizeof(float) - buf->guard - elems;
    } else {
        image = malloc((buf->guard + elems + buf->guard_back) * sizeof(cl_uint));
        if (!image)
            return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory for buffer %s", label);
    }
    const size_t total = buf->guard + elems + buf->guard_back;
    for (size_t i = 0; i < buf->guard; i++)
        image[i] = GEMM_GUARD_PATTERN;
    for (size_t i = buf->guard + elems; i < total; i++)
        image[i] = GEMM_GUARD_PATTERN;
    if (init)
        memcpy(image + buf->guard, init, elems * sizeof(float));
    else
        for (size_t i = 0; i < elems; i++)
            image[buf->guard + i] = GEMM_POISON_PATTERN;
    if (fence) {
        buf->parent = clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, total * sizeof(float), image,
                                     &err);
    } else {
        buf->parent = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, total * sizeof(float), NULL, &err);
        if (err == CL_SUCCESS) {
            err = clEnqueueWriteBuffer(cl->queue, buf->parent, CL_TRUE, 0, total * sizeof(float), image, 0, NULL, NULL);
            if (err != CL_SUCCESS) {
                free(image);
                gemm_buffer_release(buf);
                return gemm_cl_fail(msg, "clEnqueueWriteBuffer(guarded buffer)", err);
            }
        }
        free(image);
    }
    if (err != CL_SUCCESS) {
        buf->parent = NULL;
        gemm_buffer_release(buf);
        char what[96];
        snprintf(what, sizeof what, "clCreateBuffer(%s, %zu bytes)", label, total * sizeof(float));
        return gemm_cl_fail(msg, what, err);
    }
    cl_buffer_region region = {buf->guard * sizeof(float), elems * sizeof(float)};
    buf->view = clCreateSubBuffer(buf->parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    if (err != CL_SUCCESS) {
        buf->view = NULL;
        gemm_buffer_release(buf);
        return gemm_cl_fail(msg, "clCreateSubBuffer", err);
    }
    if (fence) {
        buf->watch = watch_slot();
        gemm_fault_watch(buf->watch, &buf->host, label, (const float *)buf->host.usable + buf->guard, elems);
        gemm_fault_install();
    }
    return 0;
}

int gemm_buffer_check_guards(gemm_cl *cl, const gemm_buffer *buf, gemm_msg *msg)
{
    const size_t g = buf->guard, gb = buf->guard_back;
    if (g + gb == 0) /* no guards (gemm_device_checks_accesses()) */
        return 0;
    cl_uint *front = malloc((g + gb) * sizeof(cl_uint));
    if (!front)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME, "out of host memory");
    cl_uint *back = front + g;
    gemm_running_set("reading the guards of %s back", buf->label);
    if (gemm_watchdog_arm(msg)) { /* blocking reads, watched like the runs (gemm_watchdog.h) */
        free(front);
        return GEMM_EXIT_RUNTIME;
    }
    cl_int err = clEnqueueReadBuffer(cl->queue, buf->parent, CL_TRUE, 0, g * sizeof(cl_uint), front, 0, NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(cl->queue, buf->parent, CL_TRUE, (g + buf->elems) * sizeof(cl_uint),
                                  gb * sizeof(cl_uint), back, 0, NULL, NULL);
    gemm_watchdog_disarm();
    if (err != CL_SUCCESS) {
        free(front);
        return gemm_cl_fail(msg, "clEnqueueReadBuffer(guard)", err);
    }
    int rc = 0;
    size_t bad = 0;
    long first = 0; /* element index relative to the matrix: negative = before it */
    for (size_t i = 0; i < g; i++) {
        if (front[i] != GEMM_GUARD_PATTERN && bad++ == 0)
            first = (long)i - (long)g;
    }
    for (size_t i = 0; i < gb; i++) {
        if (back[i] != GEMM_GUARD_PATTERN && bad++ == 0)
            first = (long)(buf->elems + i);
    }
    /* Distances count the adjacent element as 1: index -1 is 1 before the start, index elems
     * is 1 past the end. */
    if (bad) {
        if (first < 0)
            gemm_msgf(msg, 1, "out-of-bounds write: %zu guard element(s) of %s changed, the first at index %ld "
                      "(%ld before its start)", bad, buf->label, first, -first);
        else
            gemm_msgf(msg, 1, "out-of-bounds write: %zu guard element(s) of %s changed, the first at index %ld "
                      "(%ld past the end of its %zu elements)", bad, buf->label, first,
                      first - (long)buf->elems + 1, buf->elems);
        rc = 1;
    }
    free(front);
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * Events
 * ------------------------------------------------------------------------------------------- */

int gemm_event_time(cl_event ev, cl_profiling_info which, cl_ulong *ns, gemm_msg *msg)
{
    cl_int err = clGetEventProfilingInfo(ev, which, sizeof *ns, ns, NULL);
    if (err != CL_SUCCESS)
        return gemm_cl_fail(msg, "clGetEventProfilingInfo", err);
    return 0;
}

int gemm_event_ms(cl_event ev, double *ms, gemm_msg *msg)
{
    cl_ulong start = 0, end = 0;
    int rc = gemm_event_time(ev, CL_PROFILING_COMMAND_START, &start, msg);
    if (!rc)
        rc = gemm_event_time(ev, CL_PROFILING_COMMAND_END, &end, msg);
    return rc ? rc : gemm_elapsed_ms(start, end, ms, msg);
}

int gemm_elapsed_ms(cl_ulong start, cl_ulong end, double *ms, gemm_msg *msg)
{
    /* the timestamps are unsigned: a driver whose end came before its start would otherwise give
     * a time of centuries, reported as if measured */
    if (end < start)
        return gemm_msgf(msg, GEMM_EXIT_RUNTIME,
                         "the driver's profiling timestamps run backwards (a command ended %.6f ms before it "
                         "started): no time can be measured on this device",
                         (double)(start - end) * 1e-6);
    *ms = (double)(end - start) * 1e-6;
    return 0;
}
