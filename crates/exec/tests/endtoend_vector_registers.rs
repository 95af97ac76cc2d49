//! Vector registers in a PTX 6.5 file, as ptxas 12.9 takes them (tests/run/vector_registers.ptx):
//! parameterized vector declarations, whole-vector `mov`, element access, scalar and immediate
//! spreads, and vector `.reg` parameters and return values of `.func`. The expected buffers
//! follow the kernel's comments, computed here from the input.

mod common;
use common::*;
use exec::Arg;

fn kernel() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/run/vector_registers.ptx"
    );
    std::fs::read_to_string(path).expect("tests/run/vector_registers.ptx")
}

fn halves(w: u32) -> [u16; 2] {
    [w as u16, (w >> 16) as u16]
}

fn pack(lo: u16, hi: u16) -> u32 {
    u32::from(lo) | u32::from(hi) << 16
}

#[test]
fn vector_registers_move_call_and_return() {
    let (mut dev, m) = load("vector_registers.ptx", &kernel());
    // Thread 0: normal floats; thread 1: subnormal bit patterns (no flush: `add.f32` without
    // `.ftz` keeps them, and the sum of two subnormals is their integer sum).
    let f = |x: f32| x.to_bits();
    let inp: Vec<u32> = vec![
        0x0002_0001,
        0x0004_0003,
        10,
        20,
        f(1.5),
        f(2.25),
        f(3.0),
        f(4.0),
        0xbeef_1234,
        0x0000_ffff,
        0x8000_0000,
        1,
        5,
        6,
        7,
        8,
    ];
    let pin = upload_u32(&mut dev, &inp);
    let pout = upload_u32(&mut dev, &[0; 24]);
    launch(
        &dev,
        &m,
        "vregs",
        &cfg([1, 1, 1], [2, 1, 1]),
        &[Arg::ptr(pin), Arg::ptr(pout)],
    )
    .unwrap();
    let mut want = Vec::new();
    for t in 0..2usize {
        let w = &inp[8 * t..8 * t + 8];
        let ([_, e1], [e2, e3]) = (halves(w[0]), halves(w[1]));
        // mov.v4 then element 0 := element 3.
        want.push(pack(e3, e1));
        want.push(pack(e2, e3));
        // swap.
        want.push(w[3]);
        want.push(w[2]);
        // mix: {a.x + a.w, a.y, 3.0, a.z}.
        let (ax, aw) = (f32::from_bits(w[4]), f32::from_bits(w[7]));
        want.push((ax + aw).to_bits());
        want.push(w[5]);
        want.push(f(3.0));
        want.push(w[6]);
        // the thread index spread over four .u16, then 7 over two .u32.
        want.push(pack(t as u16, t as u16));
        want.push(pack(t as u16, t as u16));
        want.push(7);
        want.push(7);
    }
    assert_eq!(read_u32(&dev, pout, 24), want);
}
