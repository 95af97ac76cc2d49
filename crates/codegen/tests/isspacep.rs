//! `isspacep.global/.shared/.local` on `tests/kernels/isspacep.ptx`'s generic pointers into
//! global, shared and local memory, on both executors and against the file's documented
//! meaning (each pointer is in exactly the space it was made from).

mod common;
use common::*;

#[test]
fn generic_pointers_are_in_the_space_they_came_from() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/isspacep.ptx"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let s = spec("isspacep", 1, 96, vec![zeros32(4), zeros32(4 * 96)]);
    let out = run_both("isspacep.ptx", &text, &s);
    let got = words(&out[1]);
    for t in 0..96usize {
        let mut want = [0u32; 4];
        want[t % 3] = 1;
        assert_eq!(&got[4 * t..4 * t + 4], want, "thread {t}");
    }
}
