//! End-to-end: constants passed as call arguments arrive in the parameter's own type
//! (`tests/kernels/call_immediates.ptx`, ptx-isa-1.1 register parameters): an `.f32`
//! parameter receives the `f32` bits of the
//! literal, not the low half of its `f64` bits.

mod endtoend_common;
use endtoend_common::*;

#[test]
fn float_and_integer_constants_as_call_arguments() {
    let out = run_all_threads(
        "call_immediates.ptx",
        "imm_args",
        &cfg([1, 1, 1], [1, 1, 1]),
        &[zbuf::<u8>(22)],
    );
    let b = &out[0];
    let f = f32::from_le_bytes(b[0..4].try_into().unwrap());
    assert_eq!(f.to_bits(), (1.5f32 * 2.0 + -0.25f32).to_bits());
    let d = f64::from_le_bytes(b[8..16].try_into().unwrap());
    assert_eq!(d.to_bits(), (0.1f64 + 0.1f64).to_bits());
    let u = u32::from_le_bytes(b[16..20].try_into().unwrap());
    assert_eq!(u, (-7i32) as u32);
    assert_eq!(u16::from_le_bytes(b[20..22].try_into().unwrap()), 0xFFFF);
}
