// Hopper forms: elect.sync picks one lane, fence.proxy.async orders generic-proxy shared
// writes before async-proxy reads, stmatrix stores fragments, movmatrix transposes one.
extern "C" __global__ void hopper_forms(unsigned* out) {
    __shared__ __align__(16) unsigned short tile[8 * 8 * 4];
    unsigned lane = threadIdx.x;
    unsigned leader, is_leader;
    asm volatile("{\n\t.reg .pred p;\n\telect.sync %0|p, 0xffffffff;\n\tselp.u32 %1, 1, 0, p;\n\t}\n"
                 : "=r"(leader), "=r"(is_leader));
    unsigned frag = lane * 0x00010001u + 0x00000100u;
    unsigned t;
    asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n" : "=r"(t) : "r"(frag));
    unsigned base = (unsigned)__cvta_generic_to_shared(&tile[(lane % 8) * 8 + (lane / 8) * 64]);
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :: "r"(base), "r"(t), "r"(frag), "r"(t ^ frag), "r"(leader));
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncwarp();
    out[lane] = tile[lane] + is_leader;
}
