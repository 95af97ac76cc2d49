// A tiled int8 GEMM for sm_80: D[M x N] (s32) = A[M x K] (s8, row-major) x B[K x N] (u8,
// given as Bt[N x K], row-major), M, N multiples of 32, K a multiple of 32. A CTA of four warps
// computes a 32x32 tile; per 32-wide k step the A and Bt tiles are copied to shared memory
// with cp.async (16 bytes per thread), loaded into fragments with ldmatrix.x4 and multiplied
// with two mma.sync.m16n8k32.s32.s8.u8.s32 per warp. Compiled by NVRTC 12.9 for sm_80:
// tests/corpus/nvrtc_igemm_sm80.ptx.
extern "C" __global__ void igemm_s8u8(const signed char* A, const unsigned char* Bt, int* D,
                                      int M, int N, int K) {
    __shared__ __align__(16) unsigned char sa[32 * 32];
    __shared__ __align__(16) unsigned char sb[32 * 32];
    int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    int row0 = blockIdx.y * 32, col0 = blockIdx.x * 32;
    int wr = (warp / 2) * 16, wc = (warp % 2) * 16;
    int acc[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int k0 = 0; k0 < K; k0 += 32) {
        // 32 rows x 32 bytes = 64 chunks of 16 bytes for each of A and Bt.
        int c = tid % 64, r = c / 2, part = c % 2;
        if (tid < 64) {
            unsigned dst = (unsigned)__cvta_generic_to_shared(&sa[r * 32 + part * 16]);
            const signed char* src = A + (size_t)(row0 + r) * K + k0 + part * 16;
            asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src));
        } else {
            unsigned dst = (unsigned)__cvta_generic_to_shared(&sb[r * 32 + part * 16]);
            const unsigned char* src = Bt + (size_t)(col0 + r) * K + k0 + part * 16;
            asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(src));
        }
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 0;\n" ::);
        __syncthreads();
        unsigned a[4], b[4];
        {
            // Matrices: rows 0-7 / 8-15 of the warp's 16 rows, bytes 0-15 / 16-31.
            int row = wr + (lane % 8) + 8 * ((lane / 8) % 2), byte = 16 * (lane / 16);
            unsigned addr = (unsigned)__cvta_generic_to_shared(&sa[row * 32 + byte]);
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                         : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(addr));
        }
        {
            // Matrices: columns 0-7 bytes 0-15, 0-7 bytes 16-31, 8-15 bytes 0-15, 8-15 16-31.
            int col = wc + (lane % 8) + 8 * (lane / 16), byte = 16 * ((lane / 8) % 2);
            unsigned addr = (unsigned)__cvta_generic_to_shared(&sb[col * 32 + byte]);
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                         : "=r"(b[0]), "=r"(b[1]), "=r"(b[2]), "=r"(b[3]) : "r"(addr));
        }
        for (int h = 0; h < 2; ++h) {
            asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                         : "+r"(acc[h][0]), "+r"(acc[h][1]), "+r"(acc[h][2]), "+r"(acc[h][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[2 * h]), "r"(b[2 * h + 1]));
        }
        __syncthreads();
    }
    int g = lane / 4, t = lane % 4;
    for (int h = 0; h < 2; ++h) {
        int col = col0 + wc + 8 * h + t * 2;
        int row = row0 + wr + g;
        D[row * N + col] = acc[h][0];
        D[row * N + col + 1] = acc[h][1];
        D[(row + 8) * N + col] = acc[h][2];
        D[(row + 8) * N + col + 1] = acc[h][3];
    }
}
