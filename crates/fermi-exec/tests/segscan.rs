//! NVIDIA's sm_20 build of mgpu's segmented scans, packed (`mgpuscan-segscanpacked.cu`), with
//! flags (`…flags.cu`) and with keys (`…keys.cu`): upsweep, then `mgpuscan-segscanreduction.cu`'s
//! SegScanReduction, then downsweep, on the Fermi executor, each pass checked
//! against what its CUDA source computes and the chain against a sequential segmented scan.
//!
//! Constants read from the build's code: PACKED_NUM_THREADS 256 (upsweep tiles of 0x400
//! values, 8 warp totals), PACKED_VALUES_PER_THREAD 16 (lanes 16 values apart in the
//! transpose), REDUCTION_NUM_THREADS 256.

mod common;
use common::*;

const THREADS: u32 = 256;
const NUM_VALUES: u32 = THREADS * 16;
const HEAD: u32 = 0x8000_0000;

/// Packed inputs: bit 31 a head flag (a segment starts there), bits 0-30 the value.
fn packed(n: usize, seed: u32, one_in: u32, unflagged: std::ops::Range<usize>) -> Vec<u32> {
    xorshift(seed, n)
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let flag = r % one_in == 0 && !unflagged.contains(&i);
            (r >> 3 & 0xffff) | if flag { HEAD } else { 0 }
        })
        .collect()
}

fn seg_scan(p: &[u32], inclusive: bool) -> Vec<u32> {
    let mut run = 0u32;
    p.iter()
        .map(|&v| {
            let x = v & !HEAD;
            if v & HEAD != 0 {
                run = 0;
            }
            let exclusive = run;
            run = run.wrapping_add(x);
            if inclusive {
                run
            } else {
                exclusive
            }
        })
        .collect()
}

/// How a variant marks segment starts: bit 31 of the value (packed), a separate flag array
/// (flags), or a change of key (keys).
#[derive(Clone, Copy, PartialEq)]
enum Variant {
    Packed,
    Flags,
    Keys,
}

/// The inputs of one variant for `n` elements: values (packed values for `Packed`), the flag
/// or key array (none for `Packed`), and the head flag of every element.
fn inputs(
    v: Variant,
    n: usize,
    seed: u32,
    one_in: u32,
    quiet: std::ops::Range<usize>,
) -> (Vec<u32>, Option<Vec<u32>>, Vec<bool>) {
    let p = packed(n, seed, one_in, quiet);
    let heads: Vec<bool> = p.iter().map(|&x| x & HEAD != 0).collect();
    let values: Vec<u32> = p.iter().map(|&x| x & !HEAD).collect();
    match v {
        Variant::Packed => (p, None, heads),
        Variant::Flags => {
            // Any non-zero word is a head flag.
            let flags = heads
                .iter()
                .zip(xorshift(seed ^ 0x55, n))
                .map(|(&h, r)| if h { r | 1 } else { 0 })
                .collect();
            (values, Some(flags), heads)
        }
        Variant::Keys => {
            // Non-decreasing keys, starting at 0: a new key starts a segment.
            let mut key = 0u32;
            let keys = heads
                .iter()
                .zip(xorshift(seed ^ 0xaa, n))
                .map(|(&h, r)| {
                    if h {
                        key += 1 + r % 5;
                    }
                    key
                })
                .collect();
            (values, Some(keys), heads)
        }
    }
}

fn chain(v: Variant, seed: u32, one_in: u32, inclusive: bool) {
    let (up, down) = match v {
        Variant::Packed => ("SegScanUpsweepPacked", "SegScanDownsweepPacked"),
        Variant::Flags => ("SegScanUpsweepFlags", "SegScanDownsweepFlags"),
        Variant::Keys => ("SegScanUpsweepKeys", "SegScanDownsweepKeys"),
    };
    let blocks = 4u32;
    let per_block = 2 * NUM_VALUES;
    let n = (blocks * per_block) as usize;
    // Block 1 has no segment start at all, so its carry runs through from block 0.
    let pb = per_block as usize;
    let (values, side, heads) = inputs(v, n, seed, one_in, pb..2 * pb);
    let xs: Vec<u32> = values.iter().map(|&x| x & !HEAD).collect();
    let ranges: Vec<u32> = (0..blocks)
        .flat_map(|b| [b * per_block, (b + 1) * per_block])
        .collect();
    let mut ins = vec![u32s(&values)];
    if let Some(side) = &side {
        ins.push(u32s(side));
    }
    let k = ins.len();

    // Upsweep: the sum of each block's last segment, and whether that segment starts inside
    // the block.
    let mut params = ins.clone();
    params.extend([u32s(&[0; 4]), u32s(&[9; 4]), u32s(&ranges)]);
    let r = run(
        "mgpuscan-mgpuscan.cubin",
        &spec(up, blocks, THREADS, params),
    );
    let last = words(&r, k);
    let has_head = words(&r, k + 1);
    for b in 0..blocks as usize {
        let start = heads[b * pb..(b + 1) * pb].iter().rposition(|&h| h);
        let want: u32 = xs[b * pb + start.unwrap_or(0)..(b + 1) * pb]
            .iter()
            .fold(0u32, |s, &x| s.wrapping_add(x));
        assert_eq!(last[b], want, "{up}: block {b} last-segment sum");
        // The keys kernel compares the block's last key with the key before the block
        // (block 0: no flag); the others report any head flag in the block.
        let flag = match (v, side.as_ref()) {
            (Variant::Keys, Some(keys)) => b > 0 && keys[b * pb - 1] != keys[(b + 1) * pb - 1],
            _ => start.is_some(),
        };
        assert_eq!(has_head[b], u32::from(flag), "{up}: block {b} flag");
    }

    // Reduction: each block's carry-in, the sum of the segment running into it.
    let r = run(
        "mgpuscan-mgpuscan.cubin",
        &spec(
            "SegScanReduction",
            1,
            THREADS,
            vec![u32s(&has_head), u32s(&last), value_u32(blocks)],
        ),
    );
    let carry = words(&r, 1);
    for (b, &got) in carry.iter().enumerate() {
        let mut want = 0u32;
        for j in (0..b).rev() {
            want = want.wrapping_add(last[j]);
            if has_head[j] != 0 {
                break;
            }
        }
        assert_eq!(got, want, "reduction carry into block {b}");
    }

    // Downsweep: the segmented scan of every value.
    let mut params = ins;
    params.extend([
        u32s(&vec![0; n]),
        u32s(&carry),
        u32s(&ranges),
        value_u32(n as u32),
        value_u32(u32::from(inclusive)),
    ]);
    let r = run(
        "mgpuscan-mgpuscan.cubin",
        &spec(down, blocks, THREADS, params),
    );
    let out = words(&r, k);
    let flagged: Vec<u32> = xs
        .iter()
        .zip(&heads)
        .map(|(&x, &h)| if h { x | HEAD } else { x })
        .collect();
    let want = seg_scan(&flagged, inclusive);
    for i in 0..n {
        assert_eq!(out[i], want[i], "{down}: value {i}");
    }
}

#[test]
fn packed_segmented_scan() {
    chain(Variant::Packed, 0x2468, 3000, false);
    chain(Variant::Packed, 0x1357, 40, true);
}

#[test]
fn flags_segmented_scan() {
    chain(Variant::Flags, 0x2468, 3000, true);
    chain(Variant::Flags, 0x1357, 40, false);
}

#[test]
fn keys_segmented_scan() {
    chain(Variant::Keys, 0x2468, 3000, false);
    chain(Variant::Keys, 0x1357, 40, true);
}
