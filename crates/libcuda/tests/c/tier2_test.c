/*
 * Tier 2 of ptxvm's libcuda.so, from C: link two PTX inputs (an .extern function in one,
 * its definition in the other), load the result as a library, take its kernel, read a
 * kernel attribute and launch with cuLaunchKernelEx. Usage: tier2_test. Prints one line
 * per failed check and "ok N checks"; exits 1 if any failed.
 */
#include "cuda.h"

#include <stdio.h>
#include <string.h>

static int failures = 0;
static int checks = 0;

#define EXPECT(call, want)                                                                 \
    do {                                                                                   \
        CUresult r_ = (call);                                                              \
        checks++;                                                                          \
        if (r_ != (want)) {                                                                \
            printf("FAIL %s:%d: %s returned %d, expected %s\n", __FILE__, __LINE__, #call, \
                   (int)r_, #want);                                                        \
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

static const char caller[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .u32 r) twice(.param .u32 x);\n"
    ".extern .global .u32 bias;\n"
    ".visible .entry apply(.param .u64 p)\n{\n"
    "  .reg .u32 %r<6>;\n  .reg .u64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n  ld.param.u64 %rd1, [p];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  ld.global.u32 %r2, [%rd3];\n"
    "  {\n  .param .u32 a;\n  .param .u32 r;\n  st.param.u32 [a], %r2;\n"
    "  call.uni (r), twice, (a);\n  ld.param.u32 %r3, [r];\n  }\n"
    "  ld.global.u32 %r4, [bias];\n  add.u32 %r5, %r3, %r4;\n"
    "  st.global.u32 [%rd3], %r5;\n  ret;\n}\n";

static const char callee[] =
    ".version 7.0\n.target sm_80\n.address_size 64\n"
    ".visible .global .u32 bias = 1000;\n"
    ".visible .func (.param .u32 r) twice(.param .u32 x)\n{\n"
    "  .reg .u32 %t<3>;\n  ld.param.u32 %t1, [x];\n  add.u32 %t2, %t1, %t1;\n"
    "  st.param.u32 [r], %t2;\n  ret;\n}\n";

int main(void) {
    CUdevice dev;
    CUcontext ctx;
    OK(cuInit(0));
    OK(cuDeviceGet(&dev, 0));
    OK(cuDevicePrimaryCtxRetain(&ctx, dev));
    OK(cuCtxSetCurrent(ctx));

    CUlinkState link;
    OK(cuLinkCreate(0, NULL, NULL, &link));
    OK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)caller, sizeof caller, "caller.ptx", 0, NULL, NULL));
    OK(cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)callee, sizeof callee, "callee.ptx", 0, NULL, NULL));
    EXPECT(cuLinkAddData(link, CU_JIT_INPUT_CUBIN, (void *)callee, sizeof callee, "x.cubin", 0, NULL, NULL),
           CUDA_ERROR_NOT_SUPPORTED);
    void *image = NULL;
    size_t size = 0;
    OK(cuLinkComplete(link, &image, &size));
    TRUE(image != NULL && size > sizeof caller);

    CUlibrary lib;
    char log[4096] = {0};
    CUjit_option o[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *ov[] = {log, (void *)(size_t)sizeof log};
    OK(cuLibraryLoadData(&lib, image, o, ov, 2, NULL, NULL, 0));
    if (log[0]) printf("link log: %s\n", log);
    OK(cuLinkDestroy(link));
    EXPECT(cuLinkDestroy(link), CUDA_ERROR_INVALID_HANDLE);

    unsigned int count = 0;
    OK(cuLibraryGetKernelCount(&count, lib));
    TRUE(count == 1);
    CUkernel k;
    OK(cuLibraryGetKernel(&k, lib, "apply"));
    int maxt = 0;
    OK(cuKernelGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k, dev));
    TRUE(maxt == 1024);
    const char *kname = NULL;
    OK(cuKernelGetName(&kname, k));
    TRUE(kname && strcmp(kname, "apply") == 0);
    CUfunction f;
    OK(cuKernelGetFunction(&f, k));

    enum { T = 96 };
    unsigned int host[T], out[T];
    for (unsigned int i = 0; i < T; i++) host[i] = i * 3 + 1;
    CUdeviceptr d;
    OK(cuMemAlloc(&d, sizeof host));
    OK(cuMemcpyHtoD(d, host, sizeof host));
    CUlaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
    attr.value.priority = 0;
    CUlaunchConfig cfg = {1, 1, 1, T, 1, 1, 0, CU_STREAM_LEGACY, &attr, 1};
    void *params[] = {&d};
    OK(cuLaunchKernelEx(&cfg, f, params, NULL));
    OK(cuMemcpyDtoH(out, d, sizeof out));
    int wrong = 0;
    for (unsigned int i = 0; i < T; i++) wrong += out[i] != 2 * host[i] + 1000;
    TRUE(wrong == 0);

    /* The library's variable, by name. */
    CUdeviceptr bias;
    size_t bsize = 0;
    OK(cuLibraryGetGlobal(&bias, &bsize, lib, "bias"));
    unsigned int bval = 0;
    OK(cuMemcpyDtoH(&bval, bias, 4));
    TRUE(bsize == 4 && bval == 1000);

    /* Managed memory: one pointer for the host and the kernel. */
    int managed_ok = 0;
    OK(cuDeviceGetAttribute(&managed_ok, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, dev));
    TRUE(managed_ok == 1);
    unsigned int *m = NULL;
    OK(cuMemAllocManaged((CUdeviceptr *)&m, sizeof host, CU_MEM_ATTACH_GLOBAL));
    TRUE(m != NULL && m[0] == 0);
    for (unsigned int i = 0; i < T; i++) m[i] = i + 7;
    CUdeviceptr mp = (CUdeviceptr)(size_t)m;
    void *mparams[] = {&mp};
    OK(cuLaunchKernelEx(&cfg, f, mparams, NULL));
    wrong = 0;
    for (unsigned int i = 0; i < T; i++) wrong += m[i] != 2 * (i + 7) + 1000;
    TRUE(wrong == 0);
    unsigned int is_managed = 0;
    OK(cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, mp));
    TRUE(is_managed == 1);
    OK(cuMemFree(mp));

    /* Host-registered memory: the kernel writes through its device pointer, the host reads
       its own array. */
    static unsigned int reg[T];
    for (unsigned int i = 0; i < T; i++) reg[i] = 3 * i;
    OK(cuMemHostRegister(reg, sizeof reg, CU_MEMHOSTREGISTER_DEVICEMAP));
    EXPECT(cuMemHostRegister(reg, sizeof reg, 0), CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    CUdeviceptr rp = 0;
    OK(cuMemHostGetDevicePointer(&rp, reg, 0));
    void *rparams[] = {&rp};
    OK(cuLaunchKernelEx(&cfg, f, rparams, NULL));
    wrong = 0;
    for (unsigned int i = 0; i < T; i++) wrong += reg[i] != 2 * (3 * i) + 1000;
    TRUE(wrong == 0);
    OK(cuMemHostUnregister(reg));
    EXPECT(cuMemHostUnregister(reg), CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);

    /* Mapped page-locked memory. */
    unsigned int *mapped = NULL;
    OK(cuMemHostAlloc((void **)&mapped, sizeof host, CU_MEMHOSTALLOC_DEVICEMAP));
    for (unsigned int i = 0; i < T; i++) mapped[i] = i;
    CUdeviceptr hp = 0;
    OK(cuMemHostGetDevicePointer(&hp, mapped, 0));
    void *hparams[] = {&hp};
    OK(cuLaunchKernelEx(&cfg, f, hparams, NULL));
    wrong = 0;
    for (unsigned int i = 0; i < T; i++) wrong += mapped[i] != 2 * i + 1000;
    TRUE(wrong == 0);
    OK(cuMemFreeHost(mapped));

    OK(cuMemFree(d));
    OK(cuLibraryUnload(lib));
    EXPECT(cuLibraryGetKernel(&k, lib, "apply"), CUDA_ERROR_INVALID_HANDLE);
    printf("%s %d checks, %d failed\n", failures ? "FAILED" : "ok", checks, failures);
    return failures ? 1 : 0;
}
