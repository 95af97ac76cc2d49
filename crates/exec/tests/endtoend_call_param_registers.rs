//! End-to-end: registers and constants bound directly to `.param` parameters, and `.param`
//! results received into registers (`tests/kernels/call_param_registers.ptx`). Each value is
//! stored into the callee's parameter slot in the parameter's size and read back from the
//! result slot; the expected values are the callee bodies recomputed in Rust.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

#[test]
fn registers_and_constants_pass_through_param_parameters() {
    const X: u32 = 0x1234_5678;
    const THREADS: u32 = 64;
    let out = run_all_threads(
        "call_param_registers.ptx",
        "regs_to_params",
        &cfg([1, 1, 1], [THREADS, 1, 1]),
        &[
            zbuf::<u64>(4 * THREADS as usize),
            Param::Scalar(Arg::u32(X)),
        ],
    );
    let b = &out[0];
    for t in 0..THREADS {
        let w = &b[(t * 32) as usize..(t * 32 + 32) as usize];
        let mix = (t.wrapping_add(X)).wrapping_mul(1664525).wrapping_add(3);
        assert_eq!(
            u32::from_le_bytes(w[0..4].try_into().unwrap()),
            mix,
            "mix, thread {t}"
        );
        let scale = (t as f32).mul_add(2.0, 1.5);
        assert_eq!(
            f32::from_le_bytes(w[8..12].try_into().unwrap()).to_bits(),
            scale.to_bits(),
            "scale, thread {t}"
        );
        let wide = ((t as u64) << 40) ^ 0xFFFF_FFFF_0000_0001;
        assert_eq!(
            u64::from_le_bytes(w[16..24].try_into().unwrap()),
            wide,
            "wide, thread {t}"
        );
        let narrow = 0xBEEFu16.wrapping_add(t as u16);
        assert_eq!(
            u16::from_le_bytes(w[24..26].try_into().unwrap()),
            narrow,
            "narrow, thread {t}"
        );
    }
}
