//! End-to-end: array elements indexed by registers, `a[r]`, `a[r+c]`, `a[r-c]`
//! (ptx-isa-1.1 §6.4.2), in loads, stores, `mov` of an element's address and a loop whose label
//! sits on an indexed load (`tests/kernels/array_index_ptx11.ptx`). Expected values are
//! computed here from the table's definition.

mod endtoend_common;
use endtoend_common::*;

#[test]
fn register_indexed_array_elements() {
    let table: Vec<u32> = (0..32u32).map(|i| (i * i * 7 + 3) % 1000).collect();
    let threads = 31usize;
    let out = run_all_threads(
        "array_index_ptx11.ptx",
        "gather",
        &cfg([1, 1, 1], [threads as u32, 1, 1]),
        &[buf(&vec![0xDEAD_BEEFu32; 5 * threads])],
    );
    let got: Vec<u32> = decode(&out[0]);
    for t in 0..threads {
        let want = [
            table[t],
            table[t + 1],
            (4 * (t as i64 - 1)) as u32,
            table[..=t].iter().sum(),
            table[30 - t],
        ];
        assert_eq!(&got[5 * t..5 * t + 5], &want[..], "thread {t}");
    }
}

#[test]
fn register_indexed_shared_array_in_a_64_bit_module() {
    let out = run_all_threads(
        "array_index_64.ptx",
        "idx64",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[zbuf::<u32>(64)],
    );
    let got: Vec<u32> = decode(&out[0]);
    for t in 0..32u32 {
        let i = 2 * t as usize;
        assert_eq!(
            [got[i], got[i + 1]],
            [3 * (t ^ 1), 4 * (t + 1)],
            "thread {t}"
        );
    }
}
