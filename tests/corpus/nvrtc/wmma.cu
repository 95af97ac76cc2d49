// wmma kernels (nvcuda::wmma, CUDA C), one warp each: D = A·B + C with the fragments moved
// only by load_matrix_sync/store_matrix_sync (the portable use), leading dimensions larger
// than the tile (strided loads and stores) and every layout combination between them.
// Compiled by NVRTC 12.9 for sm_70 (the .f16 kernels) and for sm_80 (all of them, with
// -DSM80): tests/corpus/nvrtc_wmma_sm70.ptx, tests/corpus/nvrtc_wmma_sm80.ptx.
#include <mma.h>
using namespace nvcuda;

// f16 A (row-major, lda) x B (col-major, ldb) + C (f32, row-major, ldc) -> D (f32,
// column-major, ldd).
extern "C" __global__ void wmma_f16_m16n16k16(const __half* A, const __half* B, const float* C,
                                              float* D, int lda, int ldb, int ldc, int ldd) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, ldd, wmma::mem_col_major);
}

// m32n8k16: A column-major, B row-major, C and D f32 column-major / row-major.
extern "C" __global__ void wmma_f16_m32n8k16(const __half* A, const __half* B, const float* C,
                                             float* D, int lda, int ldb, int ldc, int ldd) {
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __half, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, ldd, wmma::mem_row_major);
}

// m8n32k16 with f16 accumulators, A and B row-major, C row-major, D column-major; the
// operands go through shared memory first.
extern "C" __global__ void wmma_f16acc_m8n32k16(const __half* A, const __half* B, const __half* C,
                                                __half* D, int lda, int ldb, int ldc, int ldd) {
    __shared__ __align__(32) __half sa[8 * 16];
    for (int i = threadIdx.x; i < 8 * 16; i += 32) sa[i] = A[(i / 16) * lda + i % 16];
    __syncwarp();
    wmma::fragment<wmma::matrix_a, 8, 32, 16, __half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, __half, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 8, 32, 16, __half> c;
    wmma::load_matrix_sync(a, sa, 16);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, ldd, wmma::mem_col_major);
}

#ifdef SM80
// u8 A (row) x u8 B (col) + s32 C -> s32 D, m16n16k16 (the C++ API pairs equal types).
extern "C" __global__ void wmma_u8_m16n16k16(const unsigned char* A, const unsigned char* B,
                                               const int* C, int* D, int lda, int ldb, int ldc, int ldd) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, unsigned char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, unsigned char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, ldd, wmma::mem_row_major);
}

// bf16 m32n8k16, A row-major, B col-major, f32 accumulators.
extern "C" __global__ void wmma_bf16_m32n8k16(const __nv_bfloat16* A, const __nv_bfloat16* B,
                                              const float* C, float* D, int lda, int ldb, int ldc, int ldd) {
    wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, float> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, ldd, wmma::mem_row_major);
}

// tf32 m16n16k8 (A row-major, B row-major): the f32 inputs are truncated to tf32 by the
// instruction itself (no __float_to_tf32 here).
extern "C" __global__ void wmma_tf32_m16n16k8(const float* A, const float* B, const float* C,
                                              float* D, int lda, int ldb, int ldc, int ldd) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, ldd, wmma::mem_row_major);
}

// s8 m32n8k16 (A column-major, B row-major), s32 accumulators, saturating.
extern "C" __global__ void wmma_s8_m32n8k16_sat(const signed char* A, const signed char* B,
                                                const int* C, int* D, int lda, int ldb, int ldc, int ldd) {
    wmma::fragment<wmma::matrix_a, 32, 8, 16, signed char, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, signed char, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 32, 8, 16, int> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, wmma::mem_row_major);
    wmma::mma_sync(c, a, b, c, true);
    wmma::store_matrix_sync(D, c, ldd, wmma::mem_col_major);
}

// f64 m8n8k4, A column-major, B row-major.
extern "C" __global__ void wmma_f64_m8n8k4(const double* A, const double* B, const double* C,
                                           double* D, int lda, int ldb, int ldc, int ldd) {
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::col_major> a;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::row_major> b;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> c;
    wmma::load_matrix_sync(a, A, lda);
    wmma::load_matrix_sync(b, B, ldb);
    wmma::load_matrix_sync(c, C, ldc, wmma::mem_col_major);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(D, c, ldd, wmma::mem_col_major);
}
#endif
