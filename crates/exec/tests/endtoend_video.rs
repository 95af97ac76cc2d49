//! End-to-end: sum of absolute differences over 8x8 image blocks with the SIMD video
//! instructions `vabsdiff4` and `vadd4`, against per-pixel Rust loops.

mod endtoend_common;
use endtoend_common::*;
use exec::Arg;

fn sad_reference(cur: &[u8], refi: &[u8], width: usize, height: usize, bias: u32) -> Vec<u32> {
    let (bw, bh) = (width / 8, height / 8);
    let mut out = vec![0u32; 3 * bw * bh];
    for by in 0..bh {
        for bx in 0..bw {
            let k = by * bw + bx;
            for y in 0..8 {
                for x in 0..8 {
                    let i = (by * 8 + y) * width + bx * 8 + x;
                    let (c, r) = (cur[i] as i32, refi[i] as i32);
                    let biased = (r + bias as i32).min(255);
                    out[3 * k] += (c - biased).unsigned_abs();
                    out[3 * k + 1] += c as u32;
                    out[3 * k + 2] += (cur[i] as i8 as i32 - refi[i] as i8 as i32).unsigned_abs();
                }
            }
        }
    }
    out
}

fn run_sad(width: usize, height: usize, bias: u32, block: [u32; 3], seed: u64) {
    let mut rng = Rng(seed);
    let cur: Vec<u8> = (0..width * height).map(|_| rng.next_u32() as u8).collect();
    // The reference frame: the current one, shifted, with noise and saturated patches.
    let refi: Vec<u8> = (0..width * height)
        .map(|i| match i % 11 {
            0 => 255,
            1 => 0,
            _ => cur[(i + 3) % cur.len()].wrapping_add((rng.next_u32() % 9) as u8),
        })
        .collect();
    let (bw, bh) = ((width / 8) as u32, (height / 8) as u32);
    let grid = [bw.div_ceil(block[0]), bh.div_ceil(block[1]), 1];
    let out = run_all_threads(
        "sad_video.ptx",
        "sad_blocks",
        &cfg(grid, block),
        &[
            buf(&cur),
            buf(&refi),
            zbuf::<u32>(3 * (bw * bh) as usize),
            Param::Scalar(Arg::u32(width as u32)),
            Param::Scalar(Arg::u32(height as u32)),
            Param::Scalar(Arg::u32(bias)),
        ],
    );
    let got: Vec<u32> = decode(&out[2]);
    let want = sad_reference(&cur, &refi, width, height, bias);
    for k in 0..want.len() / 3 {
        assert_eq!(
            &got[3 * k..3 * k + 3],
            &want[3 * k..3 * k + 3],
            "{width}x{height} bias {bias}: block {k} (sad, sum, signed sad)"
        );
    }
}

#[test]
fn sad_over_8x8_blocks_no_bias() {
    run_sad(64, 48, 0, [4, 2, 1], 31);
}

#[test]
fn sad_over_8x8_blocks_with_saturating_bias() {
    run_sad(96, 40, 77, [8, 4, 1], 32);
}

#[test]
fn sad_partial_ctas_at_image_edges() {
    // 13 x 7 blocks do not fill 4 x 4 CTAs: the edge threads must do nothing.
    run_sad(104, 56, 200, [4, 4, 1], 33);
}
