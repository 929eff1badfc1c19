#define _GNU_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "gemm_memory.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "gemm_verify.h"

static double gib(double bytes) { return bytes / 1073741824.0; }

/* ---------------------------------------------------------------------------------------------
 * What the system allows
 * ------------------------------------------------------------------------------------------- */

/* The value of "key" in a "key: value [kB]" file (/proc/meminfo, /proc/self/status), in bytes. */
static double proc_field(const char *path, const char *key)
{
    char line[256];
    double value = NAN;
    const size_t len = strlen(key);
    FILE *f = fopen(path, "r");
    if (!f)
        return NAN;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, key, len) == 0 && line[len] == ':') {
            double v = 0;
            char unit[8] = "";
            if (sscanf(line + len + 1, "%lf %7s", &v, unit) >= 1)
                value = strcmp(unit, "kB") == 0 ? v * 1024.0 : v;
            break;
        }
    }
    fclose(f);
    return value;
}

/* A number alone in a file (cgroup files); NAN if absent, INFINITY for "max" or v1's "no limit". */
static double file_number(const char *path)
{
    char text[64] = "";
    FILE *f = fopen(path, "r");
    if (!f)
        return NAN;
    const int ok = fgets(text, sizeof text, f) != NULL;
    fclose(f);
    if (!ok)
        return NAN;
    if (strncmp(text, "max", 3) == 0)
        return INFINITY;
    char *end = NULL;
    const double v = strtod(text, &end);
    if (end == text)
        return NAN;
    return v >= 4611686018427387904.0 ? INFINITY : v; /* v1 says "no limit" with ~2^63 */
}

/* "key value" lines (memory.stat) */
static double stat_field(const char *path, const char *key)
{
    char line[256];
    const size_t len = strlen(key);
    double value = 0.0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0.0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && line[len] == ' ')
            value = strtod(line + len + 1, NULL);
    fclose(f);
    return value;
}

/* The memory cgroup's headroom: over the process's group and its ancestors, the least of limit -
 * usage + reclaimable page cache. Returns INFINITY without a limit; sets *limit to the binding one. */
static double cgroup_headroom(double *limit)
{
    char line[512], group[400] = "", dir[512];
    const char *base = NULL, *max_file = NULL, *use_file = NULL, *stat_key = NULL;
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return INFINITY;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *controllers = c1 + 1, *path = c2 + 1;
        if (strcmp(line, "0") == 0 && *controllers == '\0') { /* v2: "0::/path" */
            snprintf(dir, sizeof dir, "/sys/fs/cgroup%s/memory.max", path);
            FILE *probe = fopen(dir, "r");
            if (probe || strcmp(path, "/") == 0) {
                if (probe)
                    fclose(probe);
                snprintf(group, sizeof group, "%s", path);
                base = "/sys/fs/cgroup";
                max_file = "memory.max";
                use_file = "memory.current";
                stat_key = "inactive_file";
            }
        } else if (strstr(controllers, "memory")) { /* v1: "N:memory:/path" */
            snprintf(group, sizeof group, "%s", path);
            base = "/sys/fs/cgroup/memory";
            max_file = "memory.limit_in_bytes";
            use_file = "memory.usage_in_bytes";
            stat_key = "total_inactive_file";
            break;
        }
    }
    fclose(f);
    double best = INFINITY;
    *limit = INFINITY;
    if (!base)
        return best;
    for (;;) { /* the group, then each ancestor */
        char file[600];
        snprintf(file, sizeof file, "%s%s/%s", base, group, max_file);
        const double max = file_number(file);
        if (isfinite(max)) {
            snprintf(file, sizeof file, "%s%s/%s", base, group, use_file);
            double used = file_number(file);
            snprintf(file, sizeof file, "%s%s/memory.stat", base, group);
            used = isfinite(used) ? used - stat_field(file, stat_key) : 0.0;
            const double room = max - (used > 0.0 ? used : 0.0);
            if (room < best) {
                best = room > 0.0 ? room : 0.0;
                *limit = max;
            }
        }
        char *slash = strrchr(group, '/');
        if (!slash || group[0] == '\0' || strcmp(group, "/") == 0)
            break;
        if (slash == group)
            slash[1] = '\0', group[0] = '\0'; /* up to the root: "" */
        else
            *slash = '\0';
    }
    return best;
}

int gemm_memory_address_limited(void)
{
    struct rlimit as, data;
    return (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) ||
           (getrlimit(RLIMIT_DATA, &data) == 0 && data.rlim_cur != RLIM_INFINITY);
}

void gemm_memory_read_limits(gemm_memory_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->physical = proc_field("/proc/meminfo", "MemAvailable");
    if (isnan(lim->physical))
        lim->physical = INFINITY;
    snprintf(lim->physical_from, sizeof lim->physical_from, "MemAvailable");
    double cg_limit = INFINITY;
    const double cg = cgroup_headroom(&cg_limit);
    if (cg < lim->physical) {
        lim->physical = cg;
        snprintf(lim->physical_from, sizeof lim->physical_from, "the memory cgroup (limit %.2f GiB, less its use)",
                 gib(cg_limit));
    }
    /* The address-space limit that leaves the least room */
    lim->address_limit = INFINITY;
    double room = INFINITY;
    struct rlimit rl;
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        const double used = proc_field("/proc/self/status", "VmSize");
        lim->address_limit = (double)rl.rlim_cur;
        lim->address_used = isnan(used) ? 0.0 : used;
        room = lim->address_limit - lim->address_used;
        snprintf(lim->address_from, sizeof lim->address_from, "RLIMIT_AS (ulimit -v)");
    }
    if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        const double used = proc_field("/proc/self/status", "VmData");
        if ((double)rl.rlim_cur - (isnan(used) ? 0.0 : used) < room) {
            lim->address_limit = (double)rl.rlim_cur;
            lim->address_used = isnan(used) ? 0.0 : used;
            snprintf(lim->address_from, sizeof lim->address_from, "RLIMIT_DATA (ulimit -d)");
        }
    }
}

/* ---------------------------------------------------------------------------------------------
 * The plan
 * ------------------------------------------------------------------------------------------- */

double gemm_memory_driver_reserve(void)
{
    long threads = sysconf(_SC_NPROCESSORS_ONLN);
    const char *pocl = getenv("POCL_MAX_PTHREAD_COUNT");
    if (pocl && atol(pocl) > 0)
        threads = atol(pocl);
    return (320.0 + 80.0 * (double)(threads > 0 ? threads : 1)) * 1048576.0;
}

int gemm_memory_plan(const gemm_memory_limits *lim, const gemm_memory_use *use, long m, long n, long k, int verify,
                     long *sample, char *why, size_t why_len, gemm_msg *msg)
{
    const double blas = verify && use->blas ? GEMM_MEM_BLAS : 0.0;
    const double resident = use->host + use->device + GEMM_MEM_DRIVER_RESIDENT + blas;
    const double libs_mapped = blas + (use->driver_loaded ? GEMM_MEM_RUN_RESERVE : gemm_memory_driver_reserve());
    const double mapped = lim->address_used + use->host + use->device + use->reserved + libs_mapped;
    const double full = verify ? gemm_reference_bytes(m, n, k, 0) : 0.0;
    const double part = verify ? gemm_reference_bytes(m, n, k, GEMM_SAMPLE_LINES) : 0.0;
    const int full_fits = resident + full <= lim->physical && mapped + full <= lim->address_limit;
    const int too_long = (double)m * (double)n * (double)k > GEMM_FULL_REFERENCE_MAX_MNK;
    *sample = 0;
    if (why_len)
        why[0] = '\0';
    if (full_fits && !too_long)
        return 0;
    if (part < full && resident + part <= lim->physical && mapped + part <= lim->address_limit) {
        *sample = GEMM_SAMPLE_LINES;
        if (!full_fits && mapped + full > lim->address_limit)
            snprintf(why, why_len, "a full reference needs %.2f GiB more, beyond %s of %.2f GiB", gib(full),
                     lim->address_from, gib(lim->address_limit));
        else if (!full_fits)
            snprintf(why, why_len, "a full reference needs %.2f GiB more than %s leaves", gib(full),
                     lim->physical_from);
        else
            snprintf(why, why_len, "a full reference would take too long: M*N*K = %.3g multiply-adds, more than 2^40",
                     (double)m * (double)n * (double)k);
        return 0;
    }
    if (full_fits) /* too long, but no smaller sample exists: verify everything */
        return 0;
    /* Refuse, naming the limit that is exceeded and the parts of the need. */
    const double ref = part < full ? part : full;
    const char *ref_kind = part < full ? "reference (sampled)" : "reference";
    if (mapped + ref > lim->address_limit)
        return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                         "not enough memory for %ldx%ldx%ld: the run needs about %.2f GiB of address space (mapped "
                         "already %.2f, matrices and result %.2f, device buffers and their guard pages %.2f, %s %.2f, "
                         "libraries (OpenCL driver, compiler, BLAS) %.2f) but %s allows %.2f GiB; use smaller sizes or a "
                         "higher limit",
                         m, n, k, gib(mapped + ref), gib(lim->address_used), gib(use->host),
                         gib(use->device + use->reserved), ref_kind, gib(ref), gib(libs_mapped), lim->address_from,
                         gib(lim->address_limit));
    return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                     "not enough memory for %ldx%ldx%ld: the run needs about %.2f GiB (matrices and result %.2f, device "
                     "buffers in host memory %.2f, %s %.2f, libraries (OpenCL driver, compiler, BLAS) %.2f) but %s leaves "
                     "%.2f GiB; use smaller sizes",
                     m, n, k, gib(resident + ref), gib(use->host), gib(use->device), ref_kind, gib(ref),
                     gib(GEMM_MEM_DRIVER_RESIDENT + blas), lim->physical_from, gib(lim->physical));
}

int gemm_memory_check_host(long m, long n, long k, int verify, int driver_loaded, long *sample, char *why,
                           size_t why_len, gemm_msg *msg)
{
    gemm_memory_use use = {0};
    use.host = ((double)m * (double)k + (double)k * (double)n + 2.0 * (double)m * (double)n) * sizeof(float);
    use.driver_loaded = driver_loaded;
    use.blas = gemm_reference_blas();
    gemm_memory_limits lim;
    gemm_memory_read_limits(&lim);
    return gemm_memory_plan(&lim, &use, m, n, k, verify, sample, why, why_len, msg);
}

int gemm_memory_check_driver(gemm_msg *msg)
{
    gemm_memory_limits lim;
    gemm_memory_read_limits(&lim);
    const double need = lim.address_used + gemm_memory_driver_reserve();
    if (need <= lim.address_limit)
        return 0;
    return gemm_msgf(msg, GEMM_EXIT_BAD_INPUT,
                     "not enough address space to load the OpenCL driver: about %.2f GiB needed (mapped already %.2f, "
                     "PoCL 320 MiB and 80 MiB per worker thread) but %s allows %.2f GiB; raise the limit",
                     gib(need), gib(lim.address_used), lim.address_from, gib(lim.address_limit));
}
