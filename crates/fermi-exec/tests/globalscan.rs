//! NVIDIA's sm_20 build of mgpu's global scan (`mgpuscan-globalscan.cu`: GlobalScanUpsweep,
//! GlobalScanReduction, GlobalScanDownsweep) on the Fermi executor, the three passes chained
//! as the host code runs them, against a sequential scan written here.
//!
//! The build's constants, read from its code (kernelparams.h is not in the sources):
//! SCAN_NUM_THREADS 1024 (loads 0x1000 bytes apart), SCAN_VALUES_PER_THREAD 4 (a pass
//! advances 0x1000 values), REDUCTION_NUM_THREADS 256 (8 warp totals).

mod common;
use common::*;

const NUM_THREADS: u32 = 1024;
const NUM_VALUES: u32 = NUM_THREADS * 4;
const REDUCTION_THREADS: u32 = 256;

fn global_scan(inclusive: bool, seed: u32) {
    // Three blocks of two passes each (ranges are multiples of 2 * NUM_THREADS, which the
    // upsweep's paired loads assume).
    let blocks = 3u32;
    let per_block = 2 * NUM_VALUES;
    let n = (blocks * per_block) as usize;
    let values = xorshift(seed, n);
    let ranges: Vec<u32> = (0..blocks)
        .flat_map(|b| [b * per_block, (b + 1) * per_block])
        .collect();

    // Pass 1: each block's total.
    let r = run(
        "mgpuscan-mgpuscan.cubin",
        &spec(
            "GlobalScanUpsweep",
            blocks,
            NUM_THREADS,
            vec![u32s(&values), u32s(&[0; 3]), u32s(&ranges)],
        ),
    );
    let totals = words(&r, 1);
    for b in 0..blocks as usize {
        let want = values[b * per_block as usize..(b + 1) * per_block as usize]
            .iter()
            .fold(0u32, |s, &v| s.wrapping_add(v));
        assert_eq!(totals[b], want, "upsweep block {b}");
    }

    // Pass 2: exclusive scan of the totals in place, the grand total after them.
    let mut buf = totals.clone();
    buf.push(0xdead_beef);
    let r = run(
        "mgpuscan-mgpuscan.cubin",
        &spec(
            "GlobalScanReduction",
            1,
            REDUCTION_THREADS,
            vec![u32s(&buf), value_u32(blocks)],
        ),
    );
    let block_scan = words(&r, 0);
    let mut acc = 0u32;
    for b in 0..blocks as usize {
        assert_eq!(block_scan[b], acc, "reduction block {b}");
        acc = acc.wrapping_add(totals[b]);
    }
    assert_eq!(block_scan[blocks as usize], acc, "reduction total");

    // Pass 3: the scan of every value, offset by its block's scan.
    let r = run(
        "mgpuscan-mgpuscan.cubin",
        &spec(
            "GlobalScanDownsweep",
            blocks,
            NUM_THREADS,
            vec![
                u32s(&values),
                u32s(&vec![0; n]),
                u32s(&block_scan),
                u32s(&ranges),
                value_u32(n as u32),
                value_u32(u32::from(inclusive)),
            ],
        ),
    );
    let out = words(&r, 1);
    let mut sum = 0u32;
    for (i, &v) in values.iter().enumerate() {
        let exclusive = sum;
        sum = sum.wrapping_add(v);
        let want = if inclusive { sum } else { exclusive };
        assert_eq!(out[i], want, "downsweep value {i}");
    }
}

#[test]
fn global_scan_exclusive() {
    global_scan(false, 0x5eed);
}

#[test]
fn global_scan_inclusive() {
    global_scan(true, 0xfeed);
}
