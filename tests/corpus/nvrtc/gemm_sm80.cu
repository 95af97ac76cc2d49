// A 16x8 output tile per warp: C[16x8] (f32) += A[16xK] (f16, row-major) * B[Kx8] (f16,
// column-major), K a multiple of 16. A and B tiles pass through shared memory with cp.async,
// are loaded into fragments with ldmatrix and multiplied with mma.sync.m16n8k16.
typedef unsigned short __half;
extern "C" __global__ void hgemm_16x8(const __half* A, const __half* B, float* C, int K) {
    __shared__ __align__(16) __half sa[16 * 16];
    __shared__ __align__(16) __half sb[8 * 16];
    int lane = threadIdx.x;
    float c[4] = {0.f, 0.f, 0.f, 0.f};
    for (int k0 = 0; k0 < K; k0 += 16) {
        // 16 rows x 16 halves of A = 32 chunks of 16 bytes: one per lane.
        {
            int row = lane / 2, part = lane % 2;
            unsigned dst = (unsigned)__cvta_generic_to_shared(&sa[row * 16 + part * 8]);
            const __half* src = A + row * K + k0 + part * 8;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src));
        }
        // 8 columns x 16 halves of B = 16 chunks: lanes 0..15.
        if (lane < 16) {
            int col = lane / 2, part = lane % 2;
            unsigned dst = (unsigned)__cvta_generic_to_shared(&sb[col * 16 + part * 8]);
            const __half* src = B + col * K + k0 + part * 8;
            asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src));
        }
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 0;\n" ::);
        __syncwarp();
        unsigned a[4], b[2];
        {
            unsigned addr = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                         : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(addr));
        }
        {
            unsigned addr = (unsigned)__cvta_generic_to_shared(&sb[(lane % 8) * 16 + ((lane / 8) % 2) * 8]);
            asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n"
                         : "=r"(b[0]), "=r"(b[1]) : "r"(addr));
        }
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        __syncwarp();
    }
    int group = lane / 4, t = lane % 4;
    C[group * 8 + t * 2] = c[0];
    C[group * 8 + t * 2 + 1] = c[1];
    C[(group + 8) * 8 + t * 2] = c[2];
    C[(group + 8) * 8 + t * 2 + 1] = c[3];
}

extern "C" __global__ void i8gemm_16x8(const int* A, const int* B, int* C) {
    // One m16n8k32 s8 product: A fragments and B fragments read straight from global memory
    // in the PTX fragment order (four and two 32-bit registers per lane).
    int lane = threadIdx.x;
    int a0 = A[lane * 4], a1 = A[lane * 4 + 1], a2 = A[lane * 4 + 2], a3 = A[lane * 4 + 3];
    int b0 = B[lane * 2], b1 = B[lane * 2 + 1];
    int c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+r"(c0), "+r"(c1), "+r"(c2), "+r"(c3)
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    C[lane * 4] = c0; C[lane * 4 + 1] = c1; C[lane * 4 + 2] = c2; C[lane * 4 + 3] = c3;
}
