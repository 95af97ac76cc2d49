/*
 * A client of the CUDA driver API, built with gcc against crates/libcuda/include/cuda.h and
 * linked to ptxvm's libcuda.so. It calls every tier-1 function and its error paths and
 * checks each result against a value computed here on the host or given by the API's
 * documentation. Usage: driver_test KERNELS.ptx SCRATCH_DIR. Prints one line per failed
 * check and "ok N checks"; exits 1 if any check failed.
 */
#include "cuda.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define EXPECT(call, want)                                                                 \
    do {                                                                                   \
        CUresult r_ = (call);                                                              \
        checks++;                                                                          \
        if (r_ != (want)) {                                                                \
            const char *n_ = NULL;                                                         \
            cuGetErrorName(r_, &n_);                                                       \
            printf("FAIL %s:%d: %s returned %d (%s), expected %s\n", __FILE__, __LINE__,   \
                   #call, (int)r_, n_ ? n_ : "?", #want);                                  \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)
#define OK(call) EXPECT(call, CUDA_SUCCESS)
#define TRUE(cond)                                                                         \
    do {                                                                                   \
        checks++;                                                                          \
        if (!(cond)) {                                                                     \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                         \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

static char *read_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (fread(s, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(s); return NULL; }
    s[n] = 0;
    fclose(f);
    return s;
}

enum { N = 1000 };

static CUcontext primary;

static int host_calls = 0;
static void host_fn(void *data) { host_calls += *(int *)data; }
static void stream_cb(CUstream s, CUresult status, void *data) {
    (void)s;
    if (status == CUDA_SUCCESS) host_calls += *(int *)data;
}
static CUfunction vadd;

/* One host thread's share of the thread-safety check: its own buffers and launch. */
static void *worker(void *arg) {
    int k = (int)(size_t)arg;
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) { a[i] = (float)(i * k); b[i] = 0.5f * (float)k; }
    CUdeviceptr da, db, dc;
    unsigned int n = N;
    OK(cuCtxSetCurrent(primary));
    OK(cuMemAlloc(&da, sizeof a));
    OK(cuMemAlloc(&db, sizeof b));
    OK(cuMemAlloc(&dc, sizeof c));
    OK(cuMemcpyHtoD(da, a, sizeof a));
    OK(cuMemcpyHtoD(db, b, sizeof b));
    void *params[] = {&da, &db, &dc, &n};
    OK(cuLaunchKernel(vadd, (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, params, NULL));
    OK(cuMemcpyDtoH(c, dc, sizeof c));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
    TRUE(bad == 0);
    OK(cuMemFree(da));
    OK(cuMemFree(db));
    OK(cuMemFree(dc));
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: driver_test KERNELS.ptx SCRATCH_DIR\n");
        return 2;
    }
    char *ptx = read_file(argv[1]);
    if (!ptx) { fprintf(stderr, "cannot read %s\n", argv[1]); return 2; }

    /* Before cuInit. */
    int count = -1;
    EXPECT(cuDeviceGetCount(&count), CUDA_ERROR_NOT_INITIALIZED);
    EXPECT(cuInit(1), CUDA_ERROR_INVALID_VALUE);
    OK(cuInit(0));
    OK(cuInit(0));

    /* Version and error strings. */
    int version = 0;
    OK(cuDriverGetVersion(&version));
    TRUE(version == 13000);
    const char *s = NULL;
    OK(cuGetErrorName(CUDA_ERROR_INVALID_PTX, &s));
    TRUE(s && strcmp(s, "CUDA_ERROR_INVALID_PTX") == 0);
    OK(cuGetErrorString(CUDA_ERROR_OUT_OF_MEMORY, &s));
    TRUE(s && strcmp(s, "out of memory") == 0);
    EXPECT(cuGetErrorName((CUresult)12345, &s), CUDA_ERROR_INVALID_VALUE);
    TRUE(s == NULL);

    /* Devices. */
    OK(cuDeviceGetCount(&count));
    TRUE(count == 1);
    CUdevice dev = -1;
    EXPECT(cuDeviceGet(&dev, 1), CUDA_ERROR_INVALID_DEVICE);
    OK(cuDeviceGet(&dev, 0));
    TRUE(dev == 0);
    char name[64];
    OK(cuDeviceGetName(name, sizeof name, dev));
    TRUE(strstr(name, "ptxvm") != NULL);
    int v = 0;
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
    TRUE(v == 8);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
    TRUE(v == 6);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev));
    TRUE(v == 1024);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev));
    TRUE(v == 32);
    OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, dev));
    TRUE(v == 48 * 1024);
    EXPECT(cuDeviceGetAttribute(&v, (CUdevice_attribute)9999, dev), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_WARP_SIZE, 3), CUDA_ERROR_INVALID_DEVICE);
    size_t total = 0;
    OK(cuDeviceTotalMem(&total, dev));
    TRUE(total > 0);
    CUuuid uuid;
    OK(cuDeviceGetUuid(&uuid, dev));

    /* Without a context. */
    CUdeviceptr p = 0;
    EXPECT(cuMemAlloc(&p, 16), CUDA_ERROR_INVALID_CONTEXT);

    /* Primary context. */
    OK(cuDevicePrimaryCtxRetain(&primary, dev));
    unsigned int flags = 99;
    int active = 0;
    OK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    TRUE(active == 1 && flags == 0);
    OK(cuCtxSetCurrent(primary));
    CUcontext cur = NULL;
    OK(cuCtxGetCurrent(&cur));
    TRUE(cur == primary);
    OK(cuCtxGetDevice(&dev));
    TRUE(dev == 0);

    /* Explicit context: create (made current), pop, push, destroy (popped). */
    CUcontext ctx = NULL, popped = NULL;
    OK(cuCtxCreate(&ctx, 0, dev));
    OK(cuCtxGetCurrent(&cur));
    TRUE(cur == ctx && ctx != primary);
    OK(cuCtxPopCurrent(&popped));
    TRUE(popped == ctx);
    OK(cuCtxGetCurrent(&cur));
    TRUE(cur == primary);
    OK(cuCtxPushCurrent(ctx));
    OK(cuCtxSynchronize());
    CUdeviceptr owned;
    OK(cuMemAlloc(&owned, 64));
    OK(cuCtxDestroy(ctx));
    OK(cuCtxGetCurrent(&cur));
    TRUE(cur == primary);
    EXPECT(cuCtxDestroy(ctx), CUDA_ERROR_INVALID_CONTEXT);
    EXPECT(cuCtxPushCurrent(ctx), CUDA_ERROR_INVALID_CONTEXT);
    /* The destroyed context's allocation went with it. */
    EXPECT(cuMemFree(owned), CUDA_ERROR_INVALID_VALUE);

    /* Device memory. */
    size_t freeb = 0, totalb = 0;
    OK(cuMemGetInfo(&freeb, &totalb));
    TRUE(freeb > 0 && freeb <= totalb);
    CUdeviceptr da, db, dc;
    OK(cuMemAlloc(&da, N * 4));
    OK(cuMemAlloc(&db, N * 4));
    OK(cuMemAlloc(&dc, N * 4));
    EXPECT(cuMemAlloc(&p, 0), CUDA_ERROR_INVALID_VALUE);
    size_t free2 = 0;
    OK(cuMemGetInfo(&free2, &totalb));
    TRUE(free2 + 3 * N * 4 <= freeb);
    CUdeviceptr base = 0;
    size_t size = 0;
    OK(cuMemGetAddressRange(&base, &size, da + 40));
    TRUE(base == da && size == N * 4);

    /* Device pointers never alias host memory. */
    void *host = malloc(N * 4);
    TRUE((CUdeviceptr)(size_t)host + N * 4 <= da || (CUdeviceptr)(size_t)host >= da + N * 4);
    unsigned int mt = 0;
    OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, da));
    TRUE(mt == CU_MEMORYTYPE_DEVICE);
    EXPECT(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(size_t)host),
           CUDA_ERROR_INVALID_VALUE);

    /* Copies and memsets. */
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) { a[i] = (float)i; b[i] = 2.0f * (float)i + 0.25f; }
    OK(cuMemcpyHtoD(da, a, sizeof a));
    OK(cuMemcpyHtoD(db, b, sizeof b));
    memset(c, 0, sizeof c);
    OK(cuMemcpyDtoH(c, da, sizeof c));
    TRUE(memcmp(a, c, sizeof a) == 0);
    OK(cuMemcpyDtoD(dc, db, sizeof b));
    OK(cuMemcpyDtoH(c, dc, sizeof c));
    TRUE(memcmp(b, c, sizeof b) == 0);
    EXPECT(cuMemcpyHtoD(da, a, N * 4 + 4), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemcpyDtoH(c, da + N * 4 - 4, 8), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemcpyHtoD(0x10, a, 4), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemcpy((CUdeviceptr)(size_t)c, da, sizeof c)); /* unified: device to host */
    TRUE(memcmp(a, c, sizeof a) == 0);

    unsigned char bytes[16];
    OK(cuMemsetD8(dc, 0xab, 16));
    OK(cuMemcpyDtoH(bytes, dc, 16));
    TRUE(bytes[0] == 0xab && bytes[15] == 0xab);
    unsigned short halves[8];
    OK(cuMemsetD16(dc, 0x1234, 8));
    OK(cuMemcpyDtoH(halves, dc, 16));
    TRUE(halves[0] == 0x1234 && halves[7] == 0x1234);
    unsigned int words[4];
    OK(cuMemsetD32(dc, 0xdeadbeef, 4));
    OK(cuMemcpyDtoH(words, dc, 16));
    TRUE(words[0] == 0xdeadbeefu && words[3] == 0xdeadbeefu);
    EXPECT(cuMemsetD32(dc + 2, 0, 1), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuMemsetD8(dc, 0, N * 4 + 1), CUDA_ERROR_INVALID_VALUE);

    /* Page-locked host memory. */
    float *pinned = NULL, *pinned2 = NULL;
    OK(cuMemAllocHost((void **)&pinned, N * 4));
    OK(cuMemHostAlloc((void **)&pinned2, N * 4, CU_MEMHOSTALLOC_PORTABLE));
    for (int i = 0; i < N; i++) pinned[i] = (float)(N - i);
    OK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)(size_t)pinned));
    TRUE(mt == CU_MEMORYTYPE_HOST);
    unsigned int hflags = 99;
    OK(cuMemHostGetFlags(&hflags, pinned2));
    TRUE(hflags == CU_MEMHOSTALLOC_PORTABLE);

    /* Streams and the async forms. */
    CUstream st = NULL;
    OK(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
    OK(cuMemcpyHtoDAsync(dc, pinned, N * 4, st));
    OK(cuMemcpyDtoHAsync(pinned2, dc, N * 4, CU_STREAM_LEGACY));
    OK(cuStreamSynchronize(st));
    TRUE(memcmp(pinned, pinned2, N * 4) == 0);
    OK(cuMemcpyDtoDAsync(dc, da, N * 4, CU_STREAM_PER_THREAD));
    OK(cuMemsetD8Async(dc, 1, 4, st));
    OK(cuMemsetD16Async(dc + 4, 2, 2, st));
    OK(cuMemsetD32Async(dc + 8, 3, 1, st));
    OK(cuMemcpyDtoH(words, dc, 16));
    {
        float a3;
        memcpy(&a3, &words[3], 4);
        TRUE(words[0] == 0x01010101u && words[1] == 0x00020002u && words[2] == 3 && a3 == a[3]);
    }
    OK(cuStreamQuery(st));
    int prio = 1;
    OK(cuStreamGetPriority(st, &prio));
    TRUE(prio == 0);
    EXPECT(cuStreamSynchronize((CUstream)0x12345), CUDA_ERROR_INVALID_HANDLE);

    /* Events. */
    CUevent e0, e1, enotime;
    OK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    OK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    OK(cuEventCreate(&enotime, CU_EVENT_DISABLE_TIMING));
    float ms = -1;
    EXPECT(cuEventElapsedTime(&ms, e0, e1), CUDA_ERROR_INVALID_HANDLE); /* not recorded */
    OK(cuEventRecord(e0, st));
    OK(cuEventRecord(enotime, st));
    OK(cuStreamWaitEvent(st, enotime, 0));
    OK(cuEventRecord(e1, st));
    OK(cuEventSynchronize(e1));
    OK(cuEventQuery(e1));
    OK(cuEventElapsedTime(&ms, e0, e1));
    TRUE(ms >= 0.0f);
    EXPECT(cuEventElapsedTime(&ms, e0, enotime), CUDA_ERROR_INVALID_HANDLE);

    /* Modules: invalid PTX fails with the diagnostics in the error log. */
    CUmodule bad = NULL;
    char log[4096] = {0};
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(size_t)sizeof log};
    EXPECT(cuModuleLoadDataEx(&bad, ".version 7.0\n.target sm_80\n.address_size 64\n"
                                    ".visible .entry k() { frobnicate.u32 %r1; ret; }\n",
                              2, opts, vals),
           CUDA_ERROR_INVALID_PTX);
    TRUE(strstr(log, "error") != NULL);
    TRUE((size_t)vals[1] == strlen(log) + 1);
    EXPECT(cuModuleLoadData(&bad, "this is not PTX"), CUDA_ERROR_INVALID_PTX);
    /* Valid PTX that ptxvm checks but does not execute (the sm_90a warpgroup tensor cores)
       fails as a JIT failure does on a driver, with the reason in the error log. */
    memset(log, 0, sizeof log);
    vals[1] = (void *)(size_t)sizeof log;
    EXPECT(cuModuleLoadDataEx(&bad, ".version 8.0\n.target sm_90a\n.address_size 64\n"
                                    ".visible .entry k() { wgmma.fence.sync.aligned; ret; }\n",
                              2, opts, vals),
           CUDA_ERROR_INVALID_PTX);
    TRUE(strstr(log, "`wgmma.fence.sync.aligned` is checked but not executed") != NULL);

    CUmodule mod = NULL, mod2 = NULL;
    OK(cuModuleLoadData(&mod, ptx));
    OK(cuModuleLoad(&mod2, argv[1]));
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/no-such-module.ptx", argv[2]);
    EXPECT(cuModuleLoad(&bad, missing), CUDA_ERROR_FILE_NOT_FOUND);
    CUfunction bump, oob, rev, fnone;
    OK(cuModuleGetFunction(&vadd, mod, "vadd"));
    OK(cuModuleGetFunction(&bump, mod, "bump"));
    OK(cuModuleGetFunction(&oob, mod, "oob"));
    OK(cuModuleGetFunction(&rev, mod, "rev"));
    EXPECT(cuModuleGetFunction(&fnone, mod, "nope"), CUDA_ERROR_NOT_FOUND);
    CUdeviceptr counter = 0, table = 0;
    size_t csize = 0;
    OK(cuModuleGetGlobal(&counter, &csize, mod, "counter"));
    TRUE(counter != 0 && csize == 4);
    OK(cuModuleGetGlobal(&table, &csize, mod, "table"));
    TRUE(csize == 16);
    EXPECT(cuModuleGetGlobal(&counter, &csize, mod, "nope"), CUDA_ERROR_NOT_FOUND);

    /* Function attributes. */
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, vadd));
    TRUE(v == 1024);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, vadd));
    TRUE(v == 0);
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PTX_VERSION, vadd));
    TRUE(v == 70);
    OK(cuFuncSetAttribute(rev, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 64 * 1024));
    OK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, rev));
    TRUE(v == 64 * 1024);
    EXPECT(cuFuncSetAttribute(rev, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 200 * 1024),
           CUDA_ERROR_INVALID_VALUE);

    /* Launch with kernelParams. */
    unsigned int n = N;
    void *params[] = {&da, &db, &dc, &n};
    OK(cuLaunchKernel(vadd, (N + 255) / 256, 1, 1, 256, 1, 1, 0, st, params, NULL));
    OK(cuMemcpyDtoH(c, dc, sizeof c));
    {
        int wrong = 0;
        for (int i = 0; i < N; i++) wrong += c[i] != a[i] + b[i];
        TRUE(wrong == 0);
    }
    /* Launch with the packed `extra` buffer (c = b + a, n = 500 so the tail keeps its old
       value). */
    struct { CUdeviceptr a, b, c; unsigned int n; unsigned int pad; } buf = {db, da, dc, 500, 0};
    size_t bufsize = sizeof buf;
    OK(cuMemsetD32(dc, 0, N));
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufsize,
                     CU_LAUNCH_PARAM_END};
    OK(cuLaunchKernel(vadd, 4, 1, 1, 256, 1, 1, 0, NULL, NULL, extra));
    OK(cuMemcpyDtoH(c, dc, sizeof c));
    {
        int wrong = 0;
        for (int i = 0; i < N; i++) wrong += c[i] != (i < 500 ? b[i] + a[i] : 0.0f);
        TRUE(wrong == 0);
    }
    size_t small = 8;
    void *extra_short[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, &buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &small,
                           CU_LAUNCH_PARAM_END};
    EXPECT(cuLaunchKernel(vadd, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra_short), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(vadd, 1, 1, 1, 2048, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel(vadd, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL), CUDA_ERROR_INVALID_VALUE);
    EXPECT(cuLaunchKernel((CUfunction)0x999, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL),
           CUDA_ERROR_INVALID_HANDLE);

    /* Module variables: the kernel adds table[0..4] = 1+2+3+4 into counter. */
    OK(cuMemsetD32(counter, 5, 1));
    void *bparams[] = {&dc};
    OK(cuLaunchKernel(bump, 1, 1, 1, 4, 1, 1, 0, NULL, bparams, NULL));
    unsigned int cval = 0;
    OK(cuMemcpyDtoH(&cval, counter, 4));
    TRUE(cval == 5 + 1 + 2 + 3 + 4);
    OK(cuMemcpyDtoH(words, dc, 16));
    TRUE(words[0] == 1 && words[1] == 2 && words[2] == 3 && words[3] == 4);
    /* The second load of the same text has its own variables. */
    CUdeviceptr counter2 = 0;
    OK(cuModuleGetGlobal(&counter2, NULL, mod2, "counter"));
    TRUE(counter2 != counter);

    /* Dynamic shared memory. */
    unsigned int seq[64];
    for (int i = 0; i < 64; i++) seq[i] = (unsigned int)(i * 7 + 1);
    OK(cuMemcpyHtoD(dc, seq, sizeof seq));
    void *rparams[] = {&dc};
    OK(cuLaunchKernel(rev, 1, 1, 1, 64, 1, 1, 64 * 4, NULL, rparams, NULL));
    unsigned int out[64];
    OK(cuMemcpyDtoH(out, dc, sizeof out));
    {
        int wrong = 0;
        for (int i = 0; i < 64; i++) wrong += out[i] != seq[63 - i];
        TRUE(wrong == 0);
    }
    EXPECT(cuLaunchKernel(rev, 1, 1, 1, 64, 1, 1, 128 * 1024, NULL, rparams, NULL),
           CUDA_ERROR_INVALID_VALUE);

    /* A faulting kernel: the launch reports it, and the context stays usable. */
    CUdeviceptr tiny;
    OK(cuMemAlloc(&tiny, 16));
    void *oparams[] = {&tiny};
    EXPECT(cuLaunchKernel(oob, 1, 1, 1, 1, 1, 1, 0, NULL, oparams, NULL), CUDA_ERROR_ILLEGAL_ADDRESS);
    OK(cuLaunchKernel(vadd, (N + 255) / 256, 1, 1, 256, 1, 1, 0, NULL, params, NULL));

    /* Occupancy. */
    int blocks = 0, mingrid = 0, bs = 0;
    OK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, vadd, 256, 0));
    TRUE(blocks == 6); /* 1536 threads per multiprocessor / 256 */
    OK(cuOccupancyMaxPotentialBlockSize(&mingrid, &bs, vadd, NULL, 0, 0));
    TRUE(bs > 0 && bs <= 1024 && mingrid > 0);

    /* Several attributes at once. */
    CUpointer_attribute attrs[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                   CU_POINTER_ATTRIBUTE_RANGE_SIZE};
    unsigned int ty = 0;
    CUdeviceptr start = 0;
    size_t range = 0;
    void *data[] = {&ty, &start, &range};
    OK(cuPointerGetAttributes(3, attrs, data, da + 8));
    TRUE(ty == CU_MEMORYTYPE_DEVICE && start == da && range == N * 4);

    /* cuGetProcAddress by name, version and flags. */
    void *fn = NULL;
    CUdriverProcAddressQueryResult qr = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    OK(cuGetProcAddress_v2("cuMemAlloc", &fn, 3020, CU_GET_PROC_ADDRESS_DEFAULT, &qr));
    TRUE(fn == (void *)&cuMemAlloc_v2 && qr == CU_GET_PROC_ADDRESS_SUCCESS);
    OK(cuGetProcAddress_v2("cuCtxCreate", &fn, 11040, CU_GET_PROC_ADDRESS_DEFAULT, &qr));
    TRUE(fn == (void *)&cuCtxCreate_v3);
    OK(cuGetProcAddress_v2("cuCtxCreate", &fn, 11030, CU_GET_PROC_ADDRESS_DEFAULT, &qr));
    TRUE(fn == (void *)&cuCtxCreate_v2);
    /* The per-thread flag answers with the `_ptsz` entry point, the legacy flag with the
       function itself; a build with CUDA_API_PER_THREAD_DEFAULT_STREAM calls the former. */
    void *legacy = NULL;
    OK(cuGetProcAddress("cuLaunchKernel", &fn, 13000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM));
    OK(cuGetProcAddress("cuLaunchKernel", &legacy, 13000, CU_GET_PROC_ADDRESS_LEGACY_STREAM));
    TRUE(fn != NULL && legacy != NULL && fn != legacy);
#if defined(CUDA_API_PER_THREAD_DEFAULT_STREAM)
    TRUE(fn == (void *)&cuLaunchKernel);
#else
    TRUE(legacy == (void *)&cuLaunchKernel);
#endif
    EXPECT(cuGetProcAddress_v2("cuMemAlloc", &fn, 2000, 0, &qr), CUDA_ERROR_NOT_FOUND);
    TRUE(qr == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT && fn == NULL);
    EXPECT(cuGetProcAddress_v2("cuNoSuchFunction", &fn, 13000, 0, &qr), CUDA_ERROR_NOT_FOUND);
    TRUE(qr == CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND);

    /* The rest of the context, stream, event and function queries. */
    unsigned int cflags = 99, api = 0;
    OK(cuCtxGetFlags(&cflags));
    TRUE(cflags == 0);
    OK(cuCtxGetApiVersion(primary, &api));
    TRUE(api >= 12000);
    size_t limit = 0;
    OK(cuCtxGetLimit(&limit, CU_LIMIT_STACK_SIZE));
    TRUE(limit > 0);
    OK(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
    EXPECT(cuCtxGetLimit(&limit, (CUlimit)99), CUDA_ERROR_UNSUPPORTED_LIMIT);
    int least = 1, greatest = 1;
    OK(cuCtxGetStreamPriorityRange(&least, &greatest));
    TRUE(least == 0 && greatest < 0);
    CUstream sp;
    OK(cuStreamCreateWithPriority(&sp, CU_STREAM_DEFAULT, greatest));
    OK(cuStreamGetPriority(sp, &prio));
    TRUE(prio == greatest);
    unsigned int sflags = 99;
    OK(cuStreamGetFlags(sp, &sflags));
    TRUE(sflags == CU_STREAM_DEFAULT);
    CUcontext sctx = NULL;
    OK(cuStreamGetCtx(sp, &sctx));
    TRUE(sctx == primary);
    OK(cuMemcpyAsync(dc, da, 16, sp));
    OK(cuMemcpyDtoH(words, dc, 16));
    {
        float a0;
        memcpy(&a0, &words[0], 4);
        TRUE(a0 == a[0]);
    }
    OK(cuEventRecordWithFlags(e1, sp, 0));
    int one = 1, ten = 10;
    OK(cuLaunchHostFunc(sp, host_fn, &one));
    OK(cuStreamAddCallback(sp, stream_cb, &ten, 0));
    EXPECT(cuStreamAddCallback(sp, stream_cb, &ten, 1), CUDA_ERROR_INVALID_VALUE);
    TRUE(host_calls == 11);
    OK(cuStreamDestroy(sp));
    int major = 0, minor = 0;
    OK(cuDeviceComputeCapability(&major, &minor, dev));
    TRUE(major == 8 && minor == 6);
    CUmodule owner = NULL;
    OK(cuFuncGetModule(&owner, vadd));
    TRUE(owner == mod);
    const char *fname = NULL;
    OK(cuFuncGetName(&fname, vadd));
    TRUE(fname && strcmp(fname, "vadd") == 0);
    size_t avail = 0;
    OK(cuOccupancyAvailableDynamicSMemPerBlock(&avail, rev, 2, 64));
    TRUE(avail > 0 && avail <= 99 * 1024);
    OK(cuDevicePrimaryCtxSetFlags(dev, CU_CTX_SCHED_YIELD));
    OK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    TRUE(flags == CU_CTX_SCHED_YIELD && active == 1);
    OK(cuDevicePrimaryCtxSetFlags(dev, 0));

    /* An exported function the library does not implement. */
    CUgraph g;
    EXPECT(cuGraphCreate(&g, 0), CUDA_ERROR_NOT_SUPPORTED);
    EXPECT(cuGraphCreate(&g, 0), CUDA_ERROR_NOT_SUPPORTED); /* logged once, not twice */

    /* Several host threads at once on the primary context. */
    pthread_t th[4];
    for (int k = 0; k < 4; k++) pthread_create(&th[k], NULL, worker, (void *)(size_t)(k + 1));
    for (int k = 0; k < 4; k++) pthread_join(th[k], NULL);

    /* Tear-down and its error paths. */
    OK(cuStreamDestroy(st));
    EXPECT(cuStreamDestroy(st), CUDA_ERROR_INVALID_HANDLE);
    OK(cuEventDestroy(e0));
    OK(cuEventDestroy(e1));
    OK(cuEventDestroy(enotime));
    EXPECT(cuEventDestroy(e0), CUDA_ERROR_INVALID_HANDLE);
    OK(cuModuleUnload(mod));
    OK(cuModuleUnload(mod2));
    EXPECT(cuModuleUnload(mod), CUDA_ERROR_INVALID_HANDLE);
    EXPECT(cuLaunchKernel(vadd, 1, 1, 1, 32, 1, 1, 0, NULL, params, NULL), CUDA_ERROR_INVALID_HANDLE);
    OK(cuMemFreeHost(pinned));
    OK(cuMemFreeHost(pinned2));
    EXPECT(cuMemFreeHost(pinned), CUDA_ERROR_INVALID_VALUE);
    OK(cuMemFree(da));
    OK(cuMemFree(db));
    OK(cuMemFree(dc));
    OK(cuMemFree(tiny));
    EXPECT(cuMemFree(da), CUDA_ERROR_INVALID_VALUE);
    /* Reset frees what the primary context owned. */
    CUdeviceptr leftover;
    OK(cuMemAlloc(&leftover, 16));
    OK(cuDevicePrimaryCtxReset(dev));
    EXPECT(cuMemFree(leftover), CUDA_ERROR_INVALID_VALUE);
    OK(cuDevicePrimaryCtxRelease(dev));
    EXPECT(cuDevicePrimaryCtxRelease(dev), CUDA_ERROR_INVALID_CONTEXT);
    free(host);
    free(ptx);

    printf("%s %d checks, %d failed\n", failures ? "FAILED" : "ok", checks, failures);
    return failures ? 1 : 0;
}
