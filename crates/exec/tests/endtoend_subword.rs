//! End-to-end: 8- and 16-bit loads (sign and zero extension, `.v4.u16` vectors) and stores
//! (truncation), and 16-bit register arithmetic.

mod endtoend_common;
use endtoend_common::*;

#[test]
fn subword_loads_extend_and_stores_truncate() {
    let mut rng = Rng(71);
    let b: Vec<u8> = (0..128)
        .map(|i| match i % 5 {
            0 => 0x80,
            1 => 0x7F,
            2 => 0xFF,
            _ => rng.next_u32() as u8,
        })
        .collect();
    let out = run_all_threads(
        "subword.ptx",
        "subword",
        &cfg([1, 1, 1], [64, 1, 1]),
        &[buf(&b), zbuf::<u32>(8 * 64), zbuf::<u8>(64 + 128)],
    );
    let w: Vec<u32> = decode(&out[1]);
    let bout = &out[2];
    let half = |at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
    for t in 0..64usize {
        let s8 = b[t] as i8 as i32;
        let h = half(2 * (t % 32));
        let v = 8 * (t % 8);
        let want = [
            s8 as u32,
            u32::from(b[t]),
            h as i16 as i32 as u32,
            u32::from(h),
            u32::from(half(v)),
            u32::from(half(v + 2)),
            u32::from(half(v + 4)),
            u32::from(half(v + 6)),
        ];
        assert_eq!(
            &w[8 * t..8 * t + 8],
            want,
            "thread {t}: s8, u8, s16, u16, v4.u16"
        );
        assert_eq!(bout[t], (s8 * 3 + 1) as u8, "thread {t}: st.u8");
        let h2 = (h >> 3) ^ 0x8001;
        assert_eq!(
            [bout[64 + 2 * t], bout[65 + 2 * t]],
            h2.to_le_bytes(),
            "thread {t}: st.u16"
        );
    }
}

#[test]
fn ldu_volatile_nc_and_cache_hinted_loads_read_plain_values() {
    let p = [3u32, 50, 700, 9000, 10_000, 200_000, 3_000_000];
    let out = run_all_threads(
        "subword.ptx",
        "uniform_loads",
        &cfg([1, 1, 1], [40, 1, 1]),
        &[buf(&p), zbuf::<u32>(40)],
    );
    let want: Vec<u32> = (0..40).map(|t| 753 + p[3 + t % 4]).collect();
    assert_eq!(decode::<u32>(&out[1]), want);
}
