//! Hand-written `wmma` kernels for what the NVRTC kernels (endtoend_wmma.rs) do not reach: the
//! sub-byte forms (`.s4`/`.u4` m8n8k32, `.b1` m8n8k128 with `.xor.popc` and `.and.popc`),
//! `.shared::cta` and generic addresses, and an explicit stride on sub-byte operands. Each
//! runs load → mma → store against a reference GEMM computed here from the packed bytes
//! (element e of a row-major matrix at bit e·width, low bits first).

mod common;
use common::*;
use exec::Arg;

/// xorshift64*: test inputs.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// Element `e` of `width` bits (4 or 1) of a packed buffer, as an unsigned value.
fn field(bytes: &[u8], e: usize, width: usize) -> u32 {
    let bit = e * width;
    (u32::from(bytes[bit / 8]) >> (bit % 8)) & ((1 << width) - 1)
}

fn upload(dev: &mut exec::Device, bytes: &[u8]) -> exec::DevicePtr {
    let p = dev.alloc(bytes.len() as u64).unwrap();
    dev.write(p, bytes).unwrap();
    p
}

/// `.s4`/`.u4` A (8x32, row-major, packed) and B (32x8, column-major, packed) copied to
/// shared memory by the warp, loaded from `.shared::cta`; C (s32, row-major, stride 8) from
/// global; D stored column-major with stride 10 through a generic address.
const S4: &str = r#"
.version 7.8
.target sm_80
.address_size 64

.visible .entry sub4(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	.shared .align 16 .b8 sa[128];
	.shared .align 16 .b8 sb[128];
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pc];
	ld.param.u64 %rd4, [pd];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd5, %r1, 4;
	add.u64 %rd6, %rd1, %rd5;
	ld.global.u32 %r2, [%rd6];
	mov.u64 %rd7, sa;
	add.u64 %rd7, %rd7, %rd5;
	st.shared.u32 [%rd7], %r2;
	add.u64 %rd6, %rd2, %rd5;
	ld.global.u32 %r2, [%rd6];
	mov.u64 %rd7, sb;
	add.u64 %rd7, %rd7, %rd5;
	st.shared.u32 [%rd7], %r2;
	bar.warp.sync -1;
	wmma.load.a.sync.aligned.row.m8n8k32.shared::cta.TY {%r3}, [sa];
	wmma.load.b.sync.aligned.col.m8n8k32.shared.TY {%r4}, [sb], 32;
	wmma.load.c.sync.aligned.row.m8n8k32.global.s32 {%r5, %r6}, [%rd3], 8;
	wmma.mma.sync.aligned.row.col.m8n8k32.s32.TY.TY.s32SAT {%r7, %r8}, {%r3}, {%r4}, {%r5, %r6};
	wmma.store.d.sync.aligned.col.m8n8k32.s32 [%rd4], {%r7, %r8}, 10;
	ret;
}
"#;

fn run_s4(signed: bool, sat: bool) {
    let ty = if signed { ".s4" } else { ".u4" };
    let text = S4
        .replace(".TY", ty)
        .replace("SAT", if sat { ".satfinite" } else { "" });
    let (mut dev, m) = load("sub4.ptx", &text);
    let mut rng = Rng(0x5eed + u64::from(signed) + 2 * u64::from(sat));
    let a: Vec<u8> = (0..128).map(|_| rng.next() as u8).collect();
    let b: Vec<u8> = (0..128).map(|_| rng.next() as u8).collect();
    // Accumulators near both ends of the range: `.satfinite` clamps, plain wraps.
    let c: Vec<i32> = (0..64)
        .map(|e| match e % 3 {
            0 => i32::MAX - (rng.next() % 300) as i32,
            1 => i32::MIN + (rng.next() % 300) as i32,
            _ => rng.next() as i32,
        })
        .collect();
    let pa = upload(&mut dev, &a);
    let pb = upload(&mut dev, &b);
    let pc = upload_u32(&mut dev, &c.iter().map(|&x| x as u32).collect::<Vec<_>>());
    let pd = dev.alloc(10 * 8 * 4).unwrap();
    launch(
        &dev,
        &m,
        "sub4",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc), Arg::ptr(pd)],
    )
    .unwrap();
    let got = read_u32(&dev, pd, 80);
    let val = |x: u32| {
        if signed {
            ((x << 28) as i32 >> 28) as i64
        } else {
            i64::from(x)
        }
    };
    for i in 0..8 {
        for j in 0..8 {
            let mut s = i64::from(c[i * 8 + j]);
            for k in 0..32 {
                // A row-major: element i·32 + k; B column-major: element j·32 + k.
                s += val(field(&a, i * 32 + k, 4)) * val(field(&b, j * 32 + k, 4));
            }
            let want = if sat {
                s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
            } else {
                s as i32
            };
            assert_eq!(got[j * 10 + i] as i32, want, "{ty} sat {sat}: D[{i}][{j}]");
        }
    }
}

#[test]
fn s4_and_u4_m8n8k32_through_shared_memory_match_the_reference() {
    for signed in [true, false] {
        for sat in [false, true] {
            run_s4(signed, sat);
        }
    }
}

/// `.b1` A (8x128 bits, row-major, stride 256 bits: 32 bytes between rows) and B (128x8,
/// column-major, packed) from global memory; C and D row-major, packed.
const B1: &str = r#"
.version 7.1
.target sm_80
.address_size 64

.visible .entry bits(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [pa];
	ld.param.u64 %rd2, [pb];
	ld.param.u64 %rd3, [pc];
	ld.param.u64 %rd4, [pd];
	wmma.load.a.sync.aligned.row.m8n8k128.global.b1 {%r1}, [%rd1], 256;
	wmma.load.b.sync.aligned.col.m8n8k128.global.b1 {%r2}, [%rd2];
	wmma.load.c.sync.aligned.row.m8n8k128.s32 {%r3, %r4}, [%rd3];
	wmma.mma.OP.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r5, %r6}, {%r1}, {%r2}, {%r3, %r4};
	wmma.store.d.sync.aligned.row.m8n8k128.global.s32 [%rd4], {%r5, %r6};
	ret;
}
"#;

#[test]
fn b1_m8n8k128_xor_and_and_popc_match_the_reference() {
    for and in [false, true] {
        let text = B1.replace(".OP", if and { ".and" } else { ".xor" });
        let (mut dev, m) = load("bits.ptx", &text);
        let mut rng = Rng(0xb1 + u64::from(and));
        let a: Vec<u8> = (0..8 * 32).map(|_| rng.next() as u8).collect();
        let b: Vec<u8> = (0..128).map(|_| rng.next() as u8).collect();
        let c: Vec<u32> = (0..64).map(|_| (rng.next() % 1000) as u32).collect();
        let pa = upload(&mut dev, &a);
        let pb = upload(&mut dev, &b);
        let pc = upload_u32(&mut dev, &c);
        let pd = dev.alloc(64 * 4).unwrap();
        launch(
            &dev,
            &m,
            "bits",
            &cfg([1, 1, 1], [32, 1, 1]),
            &[Arg::ptr(pa), Arg::ptr(pb), Arg::ptr(pc), Arg::ptr(pd)],
        )
        .unwrap();
        let got = read_u32(&dev, pd, 64);
        for i in 0..8 {
            for j in 0..8 {
                let mut s = c[i * 8 + j];
                for k in 0..128 {
                    let (x, y) = (field(&a, i * 256 + k, 1), field(&b, j * 128 + k, 1));
                    s += if and { x & y } else { x ^ y };
                }
                assert_eq!(got[i * 8 + j], s, "and {and}: D[{i}][{j}]");
            }
        }
    }
}
