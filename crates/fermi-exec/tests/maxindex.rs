//! NVIDIA's sm_20 build of `maxindex.cu` (FindMaxIndexLoop, FindMaxIndexReduce) on the Fermi
//! executor, against the CUDA source's result computed here.

mod common;
use common::*;

const NUM_THREADS: u32 = 256;

/// Distinct floats, so that `>` (the source) and `>=` (the build, see the README) agree.
fn distinct_floats(n: usize, seed: u32) -> Vec<f32> {
    let mut v: Vec<f32> = (0..n).map(|i| i as f32 * 0.75 - 1000.0).collect();
    // Fisher-Yates with a fixed sequence: every value once, in scrambled order.
    let r = xorshift(seed, n);
    for i in (1..n).rev() {
        v.swap(i, r[i] as usize % (i + 1));
    }
    v
}

/// What FindMaxIndexLoop computes for one block: the largest value of `data[lo..hi]` and its
/// index (`-FLT_MAX` and 0 for an empty range).
fn max_index(data: &[f32], lo: usize, hi: usize) -> (f32, u32) {
    let mut best = (-1.0e37f32, 0u32);
    for (i, &x) in data.iter().enumerate().take(hi).skip(lo) {
        if x > best.0 {
            best = (x, i as u32);
        }
    }
    best
}

#[test]
fn find_max_index_loop_and_reduce_agree_with_the_source() {
    let n = 5000;
    let data = distinct_floats(n, 0x1234_5678);
    // Four blocks of uneven ranges, one shorter than a block of threads and one empty.
    let bounds = [
        (0u32, 1700u32),
        (1700, 1900),
        (1900, 1900),
        (1900, n as u32),
    ];
    let ranges: Vec<u32> = bounds.iter().flat_map(|&(a, b)| [a, b]).collect();
    let blocks = bounds.len() as u32;
    let r = run(
        "maxindex.cubin",
        &spec(
            "FindMaxIndexLoop",
            blocks,
            NUM_THREADS,
            vec![f32s(&data), f32s(&[0.0; 4]), u32s(&[0; 4]), u32s(&ranges)],
        ),
    );
    let maxes = words(&r, 1);
    let indices = words(&r, 2);
    for (b, &(lo, hi)) in bounds.iter().enumerate() {
        let (x, i) = max_index(&data, lo as usize, hi as usize);
        assert_eq!(maxes[b], x.to_bits(), "block {b} max");
        assert_eq!(indices[b], i, "block {b} index");
    }

    // The reduce kernel over the four block results.
    let block_max: Vec<f32> = maxes.iter().map(|&b| f32::from_bits(b)).collect();
    let r2 = run(
        "maxindex.cubin",
        &spec(
            "FindMaxIndexReduce",
            1,
            NUM_THREADS,
            vec![f32s(&block_max), u32s(&indices), value_u32(blocks)],
        ),
    );
    let (x, i) = max_index(&data, 0, n);
    assert_eq!(words(&r2, 0)[0], x.to_bits());
    assert_eq!(words(&r2, 1)[0], i);
}

#[test]
fn find_max_index_reduce_with_more_blocks_than_warps() {
    // 200 candidates: every thread below numBlocks loads one, the rest start at -FLT_MAX.
    let vals = distinct_floats(200, 99);
    let idx: Vec<u32> = (0..200).map(|i| 1000 + 7 * i).collect();
    let r = run(
        "maxindex.cubin",
        &spec(
            "FindMaxIndexReduce",
            1,
            NUM_THREADS,
            vec![f32s(&vals), u32s(&idx), value_u32(200)],
        ),
    );
    let (x, i) = max_index(&vals, 0, 200);
    assert_eq!(words(&r, 0)[0], x.to_bits());
    assert_eq!(words(&r, 1)[0], idx[i as usize]);
}
