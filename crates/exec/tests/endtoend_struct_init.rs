//! End-to-end: `.struct`/`.union` initializers (ptx-isa-1.1 §5.3.4-§5.3.5) reach device memory
//! (`tests/kernels/struct_init_ptx11.ptx`). The expected bytes are laid out here by hand with
//! C's rules (natural alignment of each field, unions through their first member).

mod endtoend_common;
use endtoend_common::*;

fn put(bytes: &mut [u8], at: usize, v: &[u8]) {
    bytes[at..at + v.len()].copy_from_slice(v);
}

#[test]
fn struct_and_union_initializers_are_in_memory() {
    // struct pt { .s32 i; .f32 x; }: i at 0, x at 4, 8 bytes.
    let mut tbl = vec![0u8; 24];
    for (k, (i, x)) in [(1i32, 2.0f32), (3, 0.0), (-4, 1.0)].iter().enumerate() {
        put(&mut tbl, 8 * k, &i.to_le_bytes());
        put(&mut tbl, 8 * k + 4, &x.to_le_bytes());
    }
    // struct big { .u8 c; pt p; .f32[2] v; .v2 .u16 w; iof u; }:
    // c at 0, p at 4 (align 4), v at 12, w at 20 (a .v2 .u16 is aligned to its 4 bytes),
    // u at 24; 28 bytes.
    let mut cb = vec![0u8; 28];
    put(&mut cb, 0, &[7]);
    put(&mut cb, 4, &8i32.to_le_bytes());
    put(&mut cb, 8, &1.5f32.to_le_bytes());
    put(&mut cb, 12, &2.5f32.to_le_bytes());
    put(&mut cb, 16, &3.5f32.to_le_bytes());
    put(&mut cb, 20, &9u16.to_le_bytes());
    put(&mut cb, 22, &10u16.to_le_bytes());
    put(&mut cb, 24, &(-11i32).to_le_bytes());
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let mut want = words(&tbl);
    want.extend(words(&cb));
    want.push((-0.5f32).to_bits());
    want.push(0x1234_5678);
    let out = run_all_threads(
        "struct_init_ptx11.ptx",
        "dump",
        &cfg([1, 1, 1], [15, 1, 1]),
        &[buf(&[0xDEAD_BEEFu32; 15])],
    );
    let got: Vec<u32> = decode(&out[0]);
    assert_eq!(got, want);
}
