//! End-to-end: warp vote (ballot/any/all/uni, also inside divergent branches and in partial
//! warps) and shuffle scans (shfl.sync up/down/bfly/idx), against per-warp Rust loops.

mod endtoend_common;
use endtoend_common::*;

fn run_vote(block: u32, ctas: u32, data: &[u32]) {
    let n = (block * ctas) as usize;
    assert_eq!(data.len(), n);
    let out = run_all_threads(
        "warp_collectives.ptx",
        "warp_vote",
        &cfg([ctas, 1, 1], [block, 1, 1]),
        &[buf(data), zbuf::<u32>(8 * n)],
    );
    let w: Vec<u32> = decode(&out[1]);
    for c in 0..ctas as usize {
        for t in 0..block as usize {
            let g = c * block as usize + t;
            let warp_start = t - t % 32;
            let warp_len = (block as usize - warp_start).min(32);
            let lanes = || (0..warp_len).map(|l| (l, data[c * block as usize + warp_start + l]));
            let active: u32 = lanes().fold(0, |m, (l, _)| m | 1 << l);
            let ballot: u32 = lanes()
                .filter(|&(_, v)| v & 1 == 1)
                .fold(0, |m, (l, _)| m | 1 << l);
            let any = u32::from(ballot != 0);
            let all = u32::from(ballot == active);
            let uni = u32::from(ballot == 0 || ballot == active);
            let lane = t % 32;
            let bit = if lane % 2 == 0 { 2 } else { 4 };
            let inner_active: u32 = lanes()
                .filter(|&(l, _)| l % 2 == lane % 2)
                .fold(0, |m, (l, _)| m | 1 << l);
            let inner_ballot: u32 = lanes()
                .filter(|&(l, v)| l % 2 == lane % 2 && v & bit != 0)
                .fold(0, |m, (l, _)| m | 1 << l);
            let want = [
                ballot,
                any,
                all,
                uni,
                active,
                inner_ballot,
                inner_active,
                lane as u32,
            ];
            assert_eq!(
                &w[8 * g..8 * g + 8],
                want,
                "block {block}: CTA {c} thread {t}"
            );
        }
    }
}

#[test]
fn vote_ballot_any_all_uni_full_warps() {
    let mut rng = Rng(41);
    let mut data: Vec<u32> = (0..256).map(|_| rng.next_u32()).collect();
    // Warp 1: all odd (all = 1); warp 2: all even (any = 0); warp 3: mixed.
    for x in &mut data[32..64] {
        *x |= 1;
    }
    for x in &mut data[64..96] {
        *x &= !1;
    }
    run_vote(128, 2, &data);
}

#[test]
fn vote_in_partial_warps() {
    let mut rng = Rng(42);
    let data: Vec<u32> = (0..3 * 45).map(|_| rng.next_u32()).collect();
    run_vote(45, 3, &data);
}

fn shfl_reference(v: &[u32]) -> Vec<[u32; 6]> {
    assert_eq!(v.len(), 32);
    let mut down = v.to_vec();
    for off in [16, 8, 4, 2, 1] {
        let prev = down.clone();
        for l in 0..32 {
            if l + off < 32 {
                down[l] = prev[l].wrapping_add(prev[l + off]);
            }
        }
    }
    let max = *v.iter().max().unwrap();
    let src = (v[0] % 32) as usize;
    (0..32)
        .map(|l| {
            let scan = v[..=l].iter().fold(0u32, |a, &x| a.wrapping_add(x));
            let seg = v[l - l % 8..=l]
                .iter()
                .fold(0u32, |a, &x| a.wrapping_add(x));
            [scan, down[l], max, v[src], v[(l + 5) % 32], seg]
        })
        .collect()
}

#[test]
fn shfl_scans_reductions_broadcast_rotate() {
    let (block, ctas) = (96usize, 3usize);
    let mut rng = Rng(43);
    let data: Vec<u32> = (0..block * ctas).map(|_| rng.next_u32() >> 4).collect();
    let out = run_all_threads(
        "warp_collectives.ptx",
        "warp_shfl",
        &cfg([ctas as u32, 1, 1], [block as u32, 1, 1]),
        &[buf(&data), zbuf::<u32>(6 * block * ctas)],
    );
    let w: Vec<u32> = decode(&out[1]);
    for (k, warp) in data.chunks(32).enumerate() {
        let want = shfl_reference(warp);
        for (l, want) in want.iter().enumerate() {
            let g = 32 * k + l;
            assert_eq!(
                &w[6 * g..6 * g + 6],
                want,
                "warp {k} lane {l}: scan, down-sum, max, broadcast, rotate, segmented scan"
            );
        }
    }
}

#[test]
fn activemask_in_divergent_loops_and_shfl_in_divergent_branches() {
    let (block, ctas) = (64usize, 2usize);
    let mut rng = Rng(44);
    let data: Vec<u32> = (0..block * ctas).map(|_| rng.next_u32()).collect();
    let out = run_all_threads(
        "warp_divergence.ptx",
        "warp_diverge",
        &cfg([ctas as u32, 1, 1], [block as u32, 1, 1]),
        &[buf(&data), zbuf::<u32>(3 * block * ctas)],
    );
    let w: Vec<u32> = decode(&out[1]);
    let trips = |l: usize| l % 5 + 1;
    for (k, v) in data.chunks(32).enumerate() {
        let ballot = (0..32)
            .filter(|&l| v[l] & 1 == 1)
            .fold(0u32, |m, l| m | 1 << l);
        for l in 0..32 {
            let acc: usize = (0..trips(l))
                .map(|i| (0..32).filter(|&m| trips(m) > i).count())
                .sum();
            let x = if l % 2 == 0 {
                v[(l + 2) % 32]
            } else {
                v[l ^ 2]
            };
            let g = 32 * k + l;
            assert_eq!(
                &w[3 * g..3 * g + 3],
                [acc as u32, x, ballot],
                "warp {k} lane {l}: active-lane sum, divergent shuffle, ballot after rejoin"
            );
        }
    }
}

#[test]
fn shfl_confined_to_segments_by_the_c_operand() {
    let (block, ctas) = (64usize, 2usize);
    let mut rng = Rng(45);
    let data: Vec<u32> = (0..block * ctas).map(|_| rng.next_u32() >> 4).collect();
    let out = run_all_threads(
        "warp_collectives.ptx",
        "warp_shfl_seg",
        &cfg([ctas as u32, 1, 1], [block as u32, 1, 1]),
        &[buf(&data), zbuf::<u32>(3 * block * ctas)],
    );
    let w: Vec<u32> = decode(&out[1]);
    for (k, v) in data.chunks(32).enumerate() {
        let mut down = v.to_vec();
        for off in [4, 2, 1] {
            let prev = down.clone();
            for l in 0..32 {
                if (l + off) / 8 == l / 8 {
                    down[l] = prev[l].wrapping_add(prev[l + off]);
                }
            }
        }
        for l in 0..32 {
            let seg16 = l - l % 16;
            let max16 = *v[seg16..seg16 + 16].iter().max().unwrap();
            let idx4 = v[l - l % 4 + 1];
            let g = 32 * k + l;
            assert_eq!(
                &w[3 * g..3 * g + 3],
                [down[l], max16, idx4],
                "warp {k} lane {l}: 8-lane down sum, 16-lane bfly max, 4-lane idx"
            );
        }
    }
}

#[test]
fn redux_sync_whole_warp_and_branch_groups() {
    let (block, ctas) = (96usize, 2usize);
    let mut rng = Rng(46);
    let data: Vec<u32> = (0..block * ctas).map(|_| rng.next_u32()).collect();
    let out = run_all_threads(
        "warp_redux.ptx",
        "warp_redux",
        &cfg([ctas as u32, 1, 1], [block as u32, 1, 1]),
        &[buf(&data), zbuf::<u32>(8 * block * ctas)],
    );
    let w: Vec<u32> = decode(&out[1]);
    for (k, v) in data.chunks(32).enumerate() {
        let add = v.iter().fold(0u32, |a, &x| a.wrapping_add(x));
        let min = *v.iter().min().unwrap();
        let max = v.iter().map(|&x| x as i32).max().unwrap() as u32;
        let and = v.iter().fold(u32::MAX, |a, &x| a & x);
        let or = v.iter().fold(0, |a, &x| a | x);
        let xor = v.iter().fold(0, |a, &x| a ^ x);
        for l in 0..32 {
            let group = |x: u32| (x & 3 == 0) == (v[l] & 3 == 0);
            let gsum = v
                .iter()
                .filter(|&&x| group(x))
                .fold(0u32, |a, &x| a.wrapping_add(x));
            let g = 32 * k + l;
            assert_eq!(
                &w[8 * g..8 * g + 8],
                [add, min, max, and, or, xor, gsum, 0],
                "warp {k} lane {l}: add, min.u32, max.s32, and, or, xor, branch-group add"
            );
        }
    }
}
