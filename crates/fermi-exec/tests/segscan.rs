//! NVIDIA's sm_20 build of mgpu's segmented scan over packed values
//! (`mgpuscan-segscanpacked.cu`: SegScanUpsweepPacked, then `mgpuscan-segscanreduction.cu`'s
//! SegScanReduction, then SegScanDownsweepPacked) on the Fermi executor, each pass checked
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

fn chain(seed: u32, one_in: u32, inclusive: bool) {
    let blocks = 4u32;
    let per_block = 2 * NUM_VALUES;
    let n = (blocks * per_block) as usize;
    // Block 1 has no head flag at all, so its carry runs through from block 0.
    let pb = per_block as usize;
    let data = packed(n, seed, one_in, pb..2 * pb);
    let ranges: Vec<u32> = (0..blocks)
        .flat_map(|b| [b * per_block, (b + 1) * per_block])
        .collect();

    // Upsweep: the sum of each block's last segment, and whether the block has a head flag.
    let r = run(
        "mgpuscan-mgpuscan.cubin",
        &spec(
            "SegScanUpsweepPacked",
            blocks,
            THREADS,
            vec![u32s(&data), u32s(&[0; 4]), u32s(&[9; 4]), u32s(&ranges)],
        ),
    );
    let last = words(&r, 1);
    let has_head = words(&r, 2);
    for b in 0..blocks as usize {
        let block = &data[b * pb..(b + 1) * pb];
        let start = block.iter().rposition(|&v| v & HEAD != 0);
        let want: u32 = block[start.unwrap_or(0)..]
            .iter()
            .fold(0u32, |s, &v| s.wrapping_add(v & !HEAD));
        assert_eq!(last[b], want, "upsweep block {b} last-segment sum");
        assert_eq!(
            has_head[b],
            u32::from(start.is_some()),
            "upsweep block {b} flag"
        );
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
    for b in 0..blocks as usize {
        let mut want = 0u32;
        for j in (0..b).rev() {
            want = want.wrapping_add(last[j]);
            if has_head[j] != 0 {
                break;
            }
        }
        assert_eq!(carry[b], want, "reduction carry into block {b}");
    }

    // Downsweep: the segmented scan of every value.
    let r = run(
        "mgpuscan-mgpuscan.cubin",
        &spec(
            "SegScanDownsweepPacked",
            blocks,
            THREADS,
            vec![
                u32s(&data),
                u32s(&vec![0; n]),
                u32s(&carry),
                u32s(&ranges),
                value_u32(n as u32),
                value_u32(u32::from(inclusive)),
            ],
        ),
    );
    let out = words(&r, 1);
    let want = seg_scan(&data, inclusive);
    for i in 0..n {
        assert_eq!(
            out[i], want[i],
            "downsweep value {i} (input {:#x})",
            data[i]
        );
    }
}

#[test]
fn packed_segmented_scan_exclusive() {
    chain(0x2468, 3000, false);
}

#[test]
fn packed_segmented_scan_inclusive_with_many_segments() {
    chain(0x1357, 40, true);
}
