// A TMA-less producer/consumer pipeline in the style of CUTLASS's and cuda::ptx's Hopper
// code: warp 0 (one elected thread) streams tiles of `in` into a two-stage shared ring with
// cp.async.bulk, each stage's "full" mbarrier counting the bytes (arrive.expect_tx); warps
// 1..2 wait on the full barrier's phase parity, sum the tile into `out`, and release the
// stage on its "empty" mbarrier. Compiled with NVRTC 12.9 for sm_90 (nvrtc.py).
#define TILE 256            // floats per tile (1 KiB)
#define STAGES 2

__device__ static inline unsigned smem(const void* p) {
    return (unsigned)__cvta_generic_to_shared(p);
}
__device__ static inline void mbar_init(unsigned long long* b, unsigned n) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(smem(b)), "r"(n) : "memory");
}
__device__ static inline void mbar_expect_tx_arrive(unsigned long long* b, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [%0], %1;"
                 :: "r"(smem(b)), "r"(bytes) : "memory");
}
__device__ static inline void mbar_arrive(unsigned long long* b) {
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" :: "r"(smem(b)) : "memory");
}
__device__ static inline void mbar_wait(unsigned long long* b, unsigned parity) {
    asm volatile("{\n\t.reg .pred P1;\n"
                 "WAIT:\n\t"
                 "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@!P1 bra WAIT;\n}"
                 :: "r"(smem(b)), "r"(parity) : "memory");
}
__device__ static inline void bulk_load(void* dst, const void* src, unsigned bytes,
                                        unsigned long long* b) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1], %2, [%3];"
                 :: "r"(smem(dst)), "l"(src), "r"(bytes), "r"(smem(b)) : "memory");
}

extern "C" __global__ void pipeline(const float* in, float* out, int tiles) {
    __shared__ __align__(128) float ring[STAGES][TILE];
    __shared__ __align__(8) unsigned long long full[STAGES], empty[STAGES];
    unsigned warp = threadIdx.x / 32;
    unsigned consumers = blockDim.x - 32;   // every thread past warp 0
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(&full[s], 1);
            mbar_init(&empty[s], consumers);
        }
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (warp == 0) {
        if (threadIdx.x == 0) {
            for (int t = 0; t < tiles; ++t) {
                int s = t % STAGES;
                // Wait until the consumers released this stage's previous use.
                if (t >= STAGES) mbar_wait(&empty[s], ((t / STAGES) - 1) & 1);
                mbar_expect_tx_arrive(&full[s], TILE * sizeof(float));
                bulk_load(ring[s], in + (size_t)t * TILE, TILE * sizeof(float), &full[s]);
            }
        }
    } else {
        unsigned c = threadIdx.x - 32;
        float acc = 0.0f;
        for (int t = 0; t < tiles; ++t) {
            int s = t % STAGES;
            mbar_wait(&full[s], (t / STAGES) & 1);
            for (int k = c; k < TILE; k += consumers) acc += ring[s][k] * (float)(t + 1);
            mbar_arrive(&empty[s]);
        }
        out[c] = acc;
    }
}
