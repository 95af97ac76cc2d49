// Volta's quad-pair mma: m8n8k4 with f16 inputs and f32 accumulators.
extern "C" __global__ void volta_mma(const unsigned* a, const unsigned* b, float* c) {
    unsigned lane = threadIdx.x;
    float d[8];
    for (int i = 0; i < 8; i++) d[i] = c[lane * 8 + i];
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9}, {%10,%11}, {%0,%1,%2,%3,%4,%5,%6,%7};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[lane * 2]), "r"(a[lane * 2 + 1]), "r"(b[lane * 2]), "r"(b[lane * 2 + 1]));
    for (int i = 0; i < 8; i++) c[lane * 8 + i] = d[i];
}
