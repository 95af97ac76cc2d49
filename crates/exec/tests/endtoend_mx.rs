//! The sm_100a forms run: `redux.sync.{min,max}{.abs}{.NaN}.f32` and `cvt` to and from the
//! narrow pairs (`.e2m1x2`, `.e2m3x2`, `.e3m2x2`, `.ue8m0x2`). Expected values are computed
//! here from the format definitions (PTX ISA 8.8 §5.2.5.1) and `redux`'s definition
//! (§9.7.13.13), not by `ops`.

mod common;
use common::*;
use exec::Arg;

/// The value of a narrow code: `e_bits` exponent bits of bias `bias`, `m_bits` fraction bits.
fn value(code: u32, e_bits: u32, m_bits: u32, bias: i32) -> f64 {
    let neg = code >> (e_bits + m_bits) & 1 == 1;
    let e = (code >> m_bits) & ((1 << e_bits) - 1);
    let m = f64::from(code & ((1 << m_bits) - 1)) / f64::from(1u32 << m_bits);
    let mag = if e == 0 {
        m * 2f64.powi(1 - bias)
    } else {
        (1.0 + m) * 2f64.powi(e as i32 - bias)
    };
    if neg {
        -mag
    } else {
        mag
    }
}

/// The `.f16` encoding of zero or a normal `.f16` value.
fn f16_bits(v: f64) -> u32 {
    let sign = if v.is_sign_negative() { 0x8000 } else { 0 };
    let a = v.abs();
    if a == 0.0 {
        return sign;
    }
    let e = a.log2().floor() as i32;
    sign | ((e + 15) as u32) << 10 | ((a / 2f64.powi(e) - 1.0) * 1024.0) as u32
}

#[test]
fn narrow_pairs_convert_every_encoding_on_the_executor() {
    let text = r#"
.version 8.6
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 pout)
{
	.reg .b8 %c<2>;
	.reg .b16 %h<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [pout];
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.lo.u32 %r4, %r1, %r2, %r3;
	cvt.u8.u32 %c1, %r4;
	cvt.rn.f16x2.e2m1x2 %r5, %c1;
	and.b32 %r6, %r4, 63;
	shr.u32 %r7, %r4, 6;
	shl.b32 %r7, %r7, 8;
	or.b32 %r6, %r6, %r7;
	cvt.u16.u32 %h1, %r6;
	cvt.rn.f16x2.e2m3x2 %r8, %h1;
	cvt.rn.relu.f16x2.e3m2x2 %r9, %h1;
	cvt.u16.u32 %h2, %r4;
	cvt.rn.bf16x2.ue8m0x2 %r10, %h2;
	mul.wide.u32 %rd2, %r4, 16;
	add.u64 %rd2, %rd1, %rd2;
	st.global.v4.u32 [%rd2], {%r5, %r8, %r9, %r10};
	ret;
}
"#;
    let (mut dev, m) = load("mx.ptx", text);
    let n = 4096usize;
    let pout = upload_u32(&mut dev, &vec![0; 4 * n]);
    launch(
        &dev,
        &m,
        "k",
        &cfg([16, 1, 1], [256, 1, 1]),
        &[Arg::ptr(pout)],
    )
    .unwrap();
    let out = read_u32(&dev, pout, 4 * n);
    let pair = |hi: f64, lo: f64| f16_bits(hi) << 16 | f16_bits(lo);
    let relu = |v: f64| if v.is_sign_negative() { 0.0 } else { v };
    for t in 0..n as u32 {
        let row = &out[4 * t as usize..4 * t as usize + 4];
        let b = t & 0xff;
        let e2m1 = |c| value(c, 2, 1, 1);
        assert_eq!(row[0], pair(e2m1(b >> 4), e2m1(b & 15)), "e2m1x2 {b:#x}");
        let (hi, lo) = (t >> 6 & 63, t & 63);
        let e2m3 = |c| value(c, 2, 3, 1);
        assert_eq!(row[1], pair(e2m3(hi), e2m3(lo)), "e2m3x2 {hi:#x} {lo:#x}");
        let e3m2 = |c| relu(value(c, 3, 2, 3));
        assert_eq!(
            row[2],
            pair(e3m2(hi), e3m2(lo)),
            "relu e3m2x2 {hi:#x} {lo:#x}"
        );
        // ue8m0 codes (t >> 8, t & 0xff) as bf16: 2^(c-127), the upper half of an f32.
        // Code 0xff is the NaN: the canonical bf16 NaN 0x7fff (docs/spec-notes.md).
        let bf = |c: u32| match c {
            0xff => 0x7fff,
            c => (2f64.powi(c as i32 - 127) as f32).to_bits() >> 16,
        };
        assert_eq!(
            row[3],
            bf(t >> 8 & 0xff) << 16 | bf(t & 0xff),
            "ue8m0x2 {t:#x}"
        );
    }
}

#[test]
fn f32_sources_round_to_the_narrow_pairs() {
    let text = r#"
.version 8.6
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
	.reg .b8 %c<2>;
	.reg .b16 %h<4>;
	.reg .b32 %r<8>;
	.reg .f32 %f<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd2, [pout];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd1, %rd1, %rd3;
	ld.global.f32 %f1, [%rd1];
	neg.f32 %f2, %f1;
	cvt.rn.satfinite.e2m1x2.f32 %c1, %f1, %f2;
	cvt.u32.u8 %r2, %c1;
	cvt.rn.satfinite.relu.e3m2x2.f32 %h1, %f2, %f1;
	cvt.u32.u16 %r3, %h1;
	cvt.rp.satfinite.ue8m0x2.f32 %h2, %f1, %f2;
	cvt.u32.u16 %r4, %h2;
	mul.wide.u32 %rd3, %r1, 16;
	add.u64 %rd2, %rd2, %rd3;
	st.global.v4.u32 [%rd2], {%r2, %r3, %r4, %r1};
	ret;
}
"#;
    // 0.25 is a tie in e2m1 between 0 and 0.5 (to the even 0); 5 a tie between 4 and 6
    // (to the even 4 = 0b110... code 6, even); 7 saturates to 6; 0.75 rounds up to 1.0.
    let xs: [f32; 8] = [0.25, 5.0, 7.0, 0.75, 1.5, 30.0, 0.1, 3.0];
    let (mut dev, m) = load("mx_f32.ptx", text);
    let pin = upload_u32(&mut dev, &xs.map(f32::to_bits));
    let pout = upload_u32(&mut dev, &[0; 32]);
    launch(
        &dev,
        &m,
        "k",
        &cfg([1, 1, 1], [8, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let out = read_u32(&dev, pout, 32);
    // Worked by hand from the formats. e2m1 codes: 0 0.5 1 1.5 2 3 4 6 = 0..7, sign bit 8.
    let e2m1 = [0x08, 0x6e, 0x7f, 0x2a, 0x3b, 0x7f, 0x08, 0x5d];
    // e3m2 (bias 3; 0x1f = 28) of (-x, x) with .relu: the high byte is +0.
    // 0.25 = 2^-2 → e=1, m=0 → 0x04; 5 = 1.25·2^2 → e=5, m=1 → 0x15; 7 = 1.75·2^2 → 0x17;
    // 0.75 = 1.5·2^-1 → e=2, m=2 → 0x0a; 1.5 → e=3, m=2 → 0x0e; 30 saturates to 0x1f;
    // 0.1 = 1.6·2^-4 lies between the subnormals 1/16 (0x01) and 2/16 (0x02): nearer 0x02;
    // 3 = 1.5·2^1 → e=4, m=2 → 0x12.
    let e3m2 = [0x04, 0x15, 0x17, 0x0a, 0x0e, 0x1f, 0x02, 0x12];
    // ue8m0 rounding up of x (high byte) and of -x (low byte: negative gives 0x00).
    // 0.25 = 2^-2 → 125; 5 → 2^3 → 130; 7 → 130; 0.75 → 2^0 → 127; 1.5 → 128; 30 → 2^5 → 132;
    // 0.1 → 2^-3 → 124; 3 → 2^2 → 129.
    let ue8m0 = [125, 130, 130, 127, 128, 132, 124, 129];
    for t in 0..8 {
        let row = &out[4 * t..4 * t + 4];
        assert_eq!(row[0], e2m1[t], "e2m1x2 of {}", xs[t]);
        assert_eq!(row[1], e3m2[t], "relu e3m2x2 of {}", xs[t]);
        assert_eq!(row[2], ue8m0[t] << 8, "ue8m0x2 of {}", xs[t]);
    }
}

#[test]
fn f32_redux_runs_each_modifier() {
    let text = r#"
.version 8.6
.target sm_100a
.address_size 64
.visible .entry k(.param .u64 pin, .param .u64 pout)
{
	.reg .b32 %r<4>;
	.reg .f32 %f<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [pin];
	ld.param.u64 %rd2, [pout];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd3, %r1, 4;
	add.u64 %rd1, %rd1, %rd3;
	ld.global.f32 %f1, [%rd1];
	redux.sync.min.f32 %f2, %f1, 0xffffffff;
	redux.sync.max.f32 %f3, %f1, 0xffffffff;
	redux.sync.min.abs.f32 %f4, %f1, 0xffffffff;
	redux.sync.max.abs.f32 %f5, %f1, 0xffffffff;
	redux.sync.max.NaN.f32 %f6, %f1, 0xffffffff;
	redux.sync.min.abs.NaN.f32 %f7, %f1, 0xffffffff;
	mul.wide.u32 %rd3, %r1, 32;
	add.u64 %rd2, %rd2, %rd3;
	st.global.v2.f32 [%rd2], {%f2, %f3};
	st.global.v4.f32 [%rd2+16], {%f4, %f5, %f6, %f7};
	ret;
}
"#;
    let run = |vals: &[f32]| {
        let (mut dev, m) = load("redux_f32.ptx", text);
        let pin = upload_u32(
            &mut dev,
            &vals.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        );
        let pout = upload_u32(&mut dev, &[0; 32 * 8]);
        launch(
            &dev,
            &m,
            "k",
            &cfg([1, 1, 1], [32, 1, 1]),
            &[Arg::ptr(pin), Arg::ptr(pout)],
        )
        .unwrap();
        read_u32(&dev, pout, 32 * 8)
    };
    // Lane values: -3.5 .. 12 in steps, a NaN in lane 7, -0.0 and +0.0.
    let mut vals: Vec<f32> = (0..32).map(|l| l as f32 * 0.5 - 3.5).collect();
    vals[7] = f32::NAN;
    vals[9] = -0.0;
    let out = run(&vals);
    let nan = 0x7fff_ffffu32;
    // Without .NaN the NaN is ignored: min -3.5, max 12.0 (lane 31: 15.5 - 3.5);
    // |x|: min 0 (lane 9 is -0.0, |−0| = +0; lane 7 of 0.0 is the NaN), max 12.0.
    let want = [
        (-3.5f32).to_bits(),
        12.0f32.to_bits(),
        0,
        0,
        0.0f32.to_bits(),
        12.0f32.to_bits(),
        nan,
        nan,
    ];
    for l in 0..32 {
        assert_eq!(&out[8 * l..8 * l + 8], want, "lane {l}");
    }
    // Zeros of both signs only: min -0, max +0, whichever lane holds which.
    let zeros: Vec<f32> = (0..32)
        .map(|l| if l % 3 == 0 { 0.0 } else { -0.0 })
        .collect();
    let out = run(&zeros);
    assert_eq!(out[0], 0x8000_0000, "min of ±0");
    assert_eq!(out[1], 0, "max of ±0");
}

/// `wgmma` and `tcgen05` check (as ptxas accepts them) but loading a kernel that uses one
/// fails, naming the instruction as written and saying it is checked but not executed.
#[test]
fn tensor_core_forms_are_refused_at_load_by_name() {
    // Register declarations on lines 6–8, so the instruction is on line 9.
    const REGS: &str = ".reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n\t";
    let cases = [
        (
            "sm_90a",
            "8.0",
            "wgmma.fence.sync.aligned;",
            "`wgmma.fence.sync.aligned` is checked but not executed",
        ),
        (
            "sm_100a",
            "8.6",
            "tcgen05.wait::st.sync.aligned;",
            "`tcgen05.wait::st.sync.aligned` is checked but not executed",
        ),
        (
            "sm_100a",
            "8.8",
            "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;",
            "`tcgen05.mma.cta_group::1.kind::f16` is checked but not executed",
        ),
        (
            "sm_100a",
            "8.8",
            "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r3, %r4}, [%r1];",
            "`tcgen05.ld.sync.aligned.32x32b.x2.b32` is checked but not executed",
        ),
        (
            "sm_90",
            "8.0",
            "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
            "`cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes` is checked but not executed",
        ),
        (
            "sm_90",
            "8.0",
            "mbarrier.arrive.shared::cluster.b64 _, [%r1];",
            "`mbarrier.arrive.shared::cluster.b64` is checked but not executed",
        ),
    ];
    for (target, version, inst, want) in cases {
        let text = format!(
            ".version {version}\n.target {target}\n.address_size 64\n.visible .entry k()\n{{\n\t{REGS}{inst}\n\tret;\n}}\n"
        );
        let src = diag::SourceFile::new("tc.ptx", text.as_str());
        let (m, diags) = check::check_source(&src);
        assert!(!diags.iter().any(|d| d.is_error()), "{inst} checks");
        let m = m.expect("module");
        let err = exec::Device::new()
            .load(&m, &src)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains(want), "{inst}: {err}");
        assert!(err.contains("tc.ptx:9:"), "{inst}: {err}");
    }
}
