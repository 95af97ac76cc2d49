//! End-to-end: kernels in PTX 1.1 syntax (`.version 1.1`, `.target sm_10`, parameters inside
//! the entry, 32-bit addresses, 16-bit special registers, register-parameter `.func` calls).

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

#[test]
fn ptx11_scale_mix_with_register_call_and_u16_math() {
    let (block, ctas) = (128u32, 3u32);
    let n = 350usize;
    let mut rng = Rng(51);
    let x: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
    let a = 0x1234_5679u32;
    let out = run_all_threads(
        "legacy_ptx11.ptx",
        "scale_mix",
        &cfg([ctas, 1, 1], [block, 1, 1]),
        &[
            buf(&x),
            buf(&vec![0xDEAD_BEEFu32; 2 * (block * ctas) as usize]),
            Param::Scalar(Arg::u32(n as u32)),
            Param::Scalar(Arg::u32(a)),
        ],
    );
    let w: Vec<u32> = decode(&out[1]);
    for i in 0..(block * ctas) as usize {
        let got = [w[2 * i], w[2 * i + 1]];
        let want = if i < n {
            let tid = (i % block as usize) as u32;
            [
                a.wrapping_mul(x[i]).wrapping_add(17),
                (tid * 300 + 40000) % 65536,
            ]
        } else {
            [0xDEAD_BEEF; 2]
        };
        assert_eq!(got, want, "thread {i}");
    }
}

#[test]
fn ptx11_transpose_through_shared_tile_in_2d_grid() {
    let (width, height) = (48usize, 32usize);
    let m: Vec<u32> = (0..(width * height) as u32)
        .map(|v| v.wrapping_mul(2_654_435_761))
        .collect();
    let out = run_all_threads(
        "legacy_ptx11.ptx",
        "transpose16",
        &cfg([(width / 16) as u32, (height / 16) as u32, 1], [16, 16, 1]),
        &[
            buf(&m),
            zbuf::<u32>(width * height),
            Param::Scalar(Arg::u32(width as u32)),
            Param::Scalar(Arg::u32(height as u32)),
        ],
    );
    let t: Vec<u32> = decode(&out[1]);
    for y in 0..height {
        for x in 0..width {
            assert_eq!(t[x * height + y], m[y * width + x], "element ({x},{y})");
        }
    }
}

#[test]
fn ptx11_legacy_integer_instructions() {
    let n = 64usize;
    let mut rng = Rng(52);
    let mut a: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
    let mut b: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
    a[0] = 0;
    b[1] = 0xFFFF_FFFF; // -1
    a[2] = 0x8000_0000; // i32::MIN / -1 avoided below
    b[2] = 3;
    a[3] = 5;
    b[3] = 5;
    for x in &mut b {
        if *x == 0 {
            *x = 1;
        }
    }
    let out = run_all_threads(
        "legacy_ptx11.ptx",
        "legacy_ops",
        &cfg([1, 1, 1], [n as u32, 1, 1]),
        &[buf(&a), buf(&b), zbuf::<u32>(10 * n)],
    );
    let w: Vec<u32> = decode(&out[2]);
    for t in 0..n {
        let (x, y) = (a[t], b[t]);
        let (sx, sy) = (x as i32, y as i32);
        let want = [
            if x < y { u32::MAX } else { 0 },
            if sy >= 0 { x } else { y },
            u32::from(x == 0),
            (x & 0xFF_FFFF).wrapping_mul(y & 0xFF_FFFF),
            (x & 0xFF_FFFF)
                .wrapping_mul(y & 0xFF_FFFF)
                .wrapping_add(t as u32),
            7 + x.abs_diff(y),
            sx.wrapping_div(sy) as u32,
            sx.wrapping_rem(sy) as u32,
            (sx >> (y % 40).min(31)) as u32,
            sx.max(sy) as u32,
        ];
        assert_eq!(
            &w[10 * t..10 * t + 10],
            want,
            "thread {t} (x = {x:#x}, y = {y:#x}): set, slct, cnot, mul24, mad24, sad, div, rem, shr, max"
        );
    }
}
