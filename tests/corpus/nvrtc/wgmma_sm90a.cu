// A Hopper warpgroup GEMM step as CUTLASS writes it: shared-memory matrix descriptors for A
// and B, wgmma.fence / mma_async / commit_group / wait_group around an m64n64k16 f16 -> f32
// product, the accumulators scaled by a predicate (compiled with NVRTC for compute_90a).
__device__ unsigned long long make_desc(const void* smem) {
    unsigned addr = (unsigned)__cvta_generic_to_shared(smem);
    unsigned long long d = 0;
    d |= (unsigned long long)((addr & 0x3FFFF) >> 4);       // start address
    d |= (unsigned long long)(16 >> 4) << 16;               // leading byte offset
    d |= (unsigned long long)(1024 >> 4) << 32;             // stride byte offset
    d |= 1ull << 62;                                        // 128-byte swizzle
    return d;
}

extern "C" __global__ void wgmma_m64n64k16(const unsigned short* a, const unsigned short* b, float* c, int accumulate) {
    __shared__ __align__(1024) unsigned short sa[64 * 16];
    __shared__ __align__(1024) unsigned short sb[64 * 16];
    for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) {
        sa[i] = a[i];
        sb[i] = b[i];
    }
    __syncthreads();
    float d[32];
    for (int i = 0; i < 32; ++i) d[i] = c[threadIdx.x * 32 + i];
    unsigned long long da = make_desc(sa), db = make_desc(sb);
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    asm volatile(
        "{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %34, 0;\n\t"
        "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
        "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
        "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
        "%32, %33, p, 1, 1, 0, 1;\n\t}\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]),
          "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]),
          "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]),
          "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
          "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]),
          "+f"(d[31])
        : "l"(da), "l"(db), "r"(accumulate));
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    for (int i = 0; i < 32; ++i) c[threadIdx.x * 32 + i] = d[i];
}
