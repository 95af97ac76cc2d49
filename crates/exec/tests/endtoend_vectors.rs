//! End-to-end: whole-vector registers, swizzles and the scalar/vector conversions of
//! ptx-isa-1.1 §6.4.3 and §6.5.3 Table 10 (`tests/kernels/vectors_ptx11.ptx`). Expected records
//! are computed here from the input floats, lane by lane, as the kernel's header describes.

mod endtoend_common;
use endtoend_common::*;

fn gt(a: f32, b: f32) -> f32 {
    if a > b {
        1.0
    } else {
        0.0
    }
}

#[test]
fn ptx11_vector_moves_swizzles_and_conversions() {
    let threads = 40usize;
    let mut rng = Rng(77);
    // Small integers keep every sum/product exact and make ties (x == y) common.
    let input: Vec<f32> = (0..4 * threads)
        .map(|_| (rng.next_u32() % 7) as f32 - 3.0)
        .collect();
    let out = run_all_threads(
        "vectors_ptx11.ptx",
        "vec_moves",
        &cfg([1, 1, 1], [threads as u32, 1, 1]),
        &[buf(&input), buf(&vec![f32::NAN; 40 * threads])],
    );
    let got: Vec<f32> = decode(&out[1]);
    for t in 0..threads {
        let v: [f32; 4] = input[4 * t..4 * t + 4].try_into().unwrap();
        let [x, y, z, w] = v;
        let swapped = [y, x, w, z];
        let u = if t < 5 { [swapped[0]; 4] } else { v };
        let qq = [gt(u[3], u[2]), gt(u[1], u[0])];
        let want: [[f32; 4]; 10] = [
            [w, z, y, x],
            [x, x, y, w],
            [y, w, x, z],
            [z; 4],
            [y, w, 0.0, 0.0],
            [2.5; 4],
            [x + y, z * w, x, w],
            swapped,
            u,
            [qq[0], qq[1], qq[0], qq[1]],
        ];
        for (r, rec) in want.iter().enumerate() {
            let at = 40 * t + 4 * r;
            let have = &got[at..at + 4];
            assert_eq!(
                have.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
                rec.iter().map(|f| f.to_bits()).collect::<Vec<_>>(),
                "thread {t}, record {r}: got {have:?}, want {rec:?} (input {v:?})"
            );
        }
    }
}

#[test]
fn four_part_pack_and_unpack_of_b64() {
    let threads = 33usize;
    let mut rng = Rng(78);
    let mut input: Vec<u16> = (0..4 * threads).map(|_| rng.next_u32() as u16).collect();
    // Carries across every part boundary when 1 is added.
    input[0..4].copy_from_slice(&[0xFFFF, 0xFFFF, 0xFFFF, 0x1234]);
    input[4..8].copy_from_slice(&[0xFFFF; 4]);
    let out = run_all_threads(
        "vectors_ptx11.ptx",
        "pack4",
        &cfg([1, 1, 1], [threads as u32, 1, 1]),
        &[buf(&input), zbuf::<u64>(threads), zbuf::<u16>(4 * threads)],
    );
    let words: Vec<u64> = decode(&out[1]);
    let parts: Vec<u16> = decode(&out[2]);
    for t in 0..threads {
        let want: u64 = (0..4)
            .map(|k| u64::from(input[4 * t + k]) << (16 * k))
            .sum();
        assert_eq!(words[t], want, "thread {t} packed");
        let next = want.wrapping_add(1);
        let want_parts: Vec<u16> = (0..4).map(|k| (next >> (16 * k)) as u16).collect();
        assert_eq!(
            &parts[4 * t..4 * t + 4],
            &want_parts[..],
            "thread {t} unpacked"
        );
    }
}
