//! Joins the reconvergence plan once refused: a uniform branch out of a divergent region
//! into its join, a join also reached from outside the regions that meet there, and a loop
//! header that is the join of the code before it (its divergent exit's `SSY` then sits at
//! the top of the header, passed only on entry). Each runs on both executors bit for bit,
//! with lanes of one warp taking different paths and trip counts, and is checked against
//! its meaning written here.

mod common;
use common::*;

fn read_kernel(path: &str) -> String {
    std::fs::read_to_string(format!("../../{path}")).expect(path)
}

fn listing(name: &str, text: &str, kernel: &str) -> Vec<String> {
    let (_, _, cubin) = compile(name, text);
    let k = cubin
        .kernels
        .iter()
        .find(|k| k.name == kernel)
        .unwrap_or_else(|| panic!("no kernel {kernel}"));
    disassembly(k)
}

fn count(l: &[String], m: &str) -> usize {
    l.iter()
        .filter(|t| t.starts_with(m) || t.contains(&format!(" {m}")))
        .count()
}

#[test]
fn spin_wait_producer_and_consumer_warps_agree_and_see_the_data() {
    let path = "tests/kernels/spin_wait.ptx";
    let text = read_kernel(path);
    // spin_shared: out[t] = data[t] + t, data[t] = 7 * (t + 32) + 1 (written by warp 1).
    let s = spec("spin_shared", 1, 64, vec![zeros32(32)]);
    let out = words(&run_both(path, &text, &s)[0]);
    let want: Vec<u32> = (0..32u32).map(|t| 7 * (t + 32) + 1 + t).collect();
    assert_eq!(out, want);
    // spin_global: warp 1 writes out[t] = 7t + 1, warp 0 out[t] = out[t + 32] + t.
    let s = spec("spin_global", 1, 64, vec![zeros32(64), u32s(&[0])]);
    let bufs = run_both(path, &text, &s);
    let want: Vec<u32> = (0..64u32)
        .map(|t| {
            if t < 32 {
                7 * (t + 32) + 1 + t
            } else {
                7 * t + 1
            }
        })
        .collect();
    assert_eq!(words(&bufs[0]), want);
    assert_eq!(words(&bufs[1]), [1]);
    // The producer's inner region ends in `bra.uni DONE`: the join of both regions. One SSY
    // per divergent branch (the spin loop's at the top of its header), one `.S` each.
    let l = listing(path, &text, "spin_shared");
    assert_eq!(count(&l, "SSY"), 3, "{l:#?}");
    assert_eq!(count(&l, "NOP.S"), 3, "{l:#?}");
}

#[test]
fn issue16_back_to_back_loops_agree_and_count_what_they_should() {
    let path = "tests/corpus/issue16_constructs.ptx";
    let text = read_kernel(path);
    // Two CTAs of 64 threads, each thread its own 8 bytes: [x + 1, 33] (the counter runs
    // 1, 2, 3, then 13, 23, 33).
    let input: Vec<u32> = (0..256u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let mut s = spec("issue16_constructs", 2, 64, vec![u32s(&input)]);
    s.grid = [2, 1, 1];
    let out = words(&run_both(path, &text, &s)[0]);
    for t in 0..128 {
        assert_eq!(out[2 * t], input[2 * t].wrapping_add(1), "thread {t}");
        assert_eq!(out[2 * t + 1], 33, "thread {t}");
    }
}

/// Per-thread trip counts: the second loop's header is the first loop's join, and a
/// uniform branch (on a parameter) jumps from before both straight to the second loop's exit.
const LOOPS: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry loops(.param .u64 pout, .param .u32 skip)
{
  .reg .pred %p<5>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];
  ld.param.u32 %r9, [skip];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 7;
  shr.u32 %r3, %r1, 2;
  mov.u32 %r4, %r1;
  setp.ne.u32 %p4, %r9, 0;
  @%p4 bra.uni OUT;
A:
  mad.lo.u32 %r4, %r4, 3, 1;
  sub.u32 %r2, %r2, 1;
  setp.ne.u32 %p1, %r2, -1;
  @%p1 bra A;
B:
  and.b32 %r5, %r4, 1;
  setp.eq.u32 %p2, %r5, 0;
  @%p2 bra EVEN;
  add.u32 %r4, %r4, %r3;
  bra.uni NEXT;
EVEN:
  shr.u32 %r4, %r4, 1;
NEXT:
  sub.u32 %r3, %r3, 1;
  setp.lt.s32 %p3, %r3, 0;
  @!%p3 bra B;
OUT:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
";

fn loops_meaning(t: u32, skip: bool) -> u32 {
    let mut x = t;
    if skip {
        return x;
    }
    // Loop A runs (t & 7) + 1 times, loop B (t >> 2) + 1 times.
    for _ in 0..(t & 7) + 1 {
        x = x.wrapping_mul(3).wrapping_add(1);
    }
    let mut k = t >> 2;
    loop {
        x = if x & 1 == 0 {
            x >> 1
        } else {
            x.wrapping_add(k)
        };
        if k == 0 {
            break;
        }
        k -= 1;
    }
    x
}

#[test]
fn a_loop_header_that_joins_the_loop_before_it_and_a_uniform_skip_agree() {
    for skip in [0u32, 1] {
        let s = spec("loops", 1, 64, vec![zeros32(64), value_u32(skip)]);
        let out = words(&run_both("loops.ptx", LOOPS, &s)[0]);
        for t in 0..64 {
            assert_eq!(
                out[t as usize],
                loops_meaning(t, skip != 0),
                "thread {t}, skip {skip}"
            );
        }
    }
}

/// A divergent if/else whose join a uniform branch from before it also reaches, and a loop
/// whose `continue` (back to the header, in a divergent branch) makes the header the join of
/// a region inside the loop, while the loop's own divergent exit has its SSY at the top.
const JOINS: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry joins(.param .u64 pout, .param .u32 bypass)
{
  .reg .pred %p<6>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];
  ld.param.u32 %r9, [bypass];
  mov.u32 %r1, %tid.x;
  mov.u32 %r4, 100;
  setp.eq.u32 %p1, %r9, 1;
  @%p1 bra.uni JOIN;
  and.b32 %r2, %r1, 1;
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra ELSE;
  mul.lo.u32 %r4, %r1, 5;
  bra JOIN;
ELSE:
  add.u32 %r4, %r1, 1000;
JOIN:
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
  and.b32 %r7, %r1, 15;
LOOP:
  add.u32 %r5, %r5, 1;
  setp.gt.u32 %p3, %r5, %r7;
  @%p3 bra DONE;
  and.b32 %r8, %r5, %r1;
  and.b32 %r8, %r8, 3;
  setp.ne.u32 %p4, %r8, 0;
  @%p4 bra LOOP;
  add.u32 %r6, %r6, %r5;
  bra LOOP;
DONE:
  add.u32 %r4, %r4, %r6;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
";

fn joins_meaning(t: u32, bypass: bool) -> u32 {
    let x = if bypass {
        100
    } else if t & 1 == 0 {
        t + 1000
    } else {
        t * 5
    };
    let mut sum = 0u32;
    for i in 1..=(t & 15) {
        if i & t & 3 != 0 {
            continue;
        }
        sum += i;
    }
    x + sum
}

#[test]
fn a_join_reached_from_outside_and_a_divergent_continue_agree() {
    for bypass in [0u32, 1] {
        let s = spec("joins", 1, 64, vec![zeros32(64), value_u32(bypass)]);
        let out = words(&run_both("joins.ptx", JOINS, &s)[0]);
        for t in 0..64 {
            assert_eq!(
                out[t as usize],
                joins_meaning(t, bypass == 1),
                "thread {t}, bypass {bypass}"
            );
        }
    }
    let l = listing("joins.ptx", JOINS, "joins");
    // The if/else, the loop's exit (SSY at the top of the header) and the continue.
    assert_eq!(count(&l, "SSY"), 3, "{l:#?}");
}

/// Block C is in the region of the branch at B1 and also entered from B0's divergent branch:
/// the lanes from B0 arrive at the B1 region's `.S` without its SSY, wait, and B0's SSY
/// (same join) brings them back after its own `.S`.
const SIDE_ENTRY: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry side(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r3, %r1, 3;
  setp.eq.u32 %p1, %r3, 0;
  setp.eq.u32 %p2, %r3, 1;
  mov.u32 %r2, 1;
  @%p1 bra C;
  @%p2 bra D;
  add.u32 %r2, %r2, 5;
C:
  mul.lo.u32 %r2, %r2, 6;
D:
  add.u32 %r2, %r2, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
";

#[test]
fn a_side_entry_into_a_region_covered_by_the_enclosing_region_agrees() {
    let s = spec("side", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both("side.ptx", SIDE_ENTRY, &s)[0]);
    for t in 0..64u32 {
        let r = match t & 3 {
            0 => 6,
            1 => 1,
            _ => 36,
        };
        assert_eq!(out[t as usize], r + t, "thread {t}");
    }
    let l = listing("side.ptx", SIDE_ENTRY, "side");
    assert_eq!(count(&l, "SSY"), 2, "{l:#?}");
    assert_eq!(count(&l, "NOP.S"), 2, "{l:#?}");
}

/// The same side entry from a uniform branch: no enclosing region brings those lanes back,
/// so the edge itself pushes the SSY of the region it enters (a stub after the body).
const UNIFORM_SIDE_ENTRY: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry side(.param .u64 out, .param .u32 u)
{
  .reg .pred %p<4>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [u];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r5, 0;
  and.b32 %r3, %r1, 3;
  setp.eq.u32 %p2, %r3, 1;
  setp.eq.u32 %p3, %r3, 2;
  mov.u32 %r2, 1;
  @%p1 bra.uni C;
  @%p2 bra D;
  add.u32 %r2, %r2, 5;
C:
  mul.lo.u32 %r2, %r2, 6;
  @%p3 bra D;
  add.u32 %r2, %r2, 100;
D:
  add.u32 %r2, %r2, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
";

#[test]
fn a_side_entry_from_a_uniform_branch_pushes_the_regions_ssy_on_its_edge() {
    for u in [0u32, 1] {
        let s = spec("side", 1, 64, vec![zeros32(64), value_u32(u)]);
        let out = words(&run_both("uside.ptx", UNIFORM_SIDE_ENTRY, &s)[0]);
        for t in 0..64u32 {
            let mut r = 1u32;
            let skip_to_c = u != 0;
            if skip_to_c || t & 3 != 1 {
                if !skip_to_c {
                    r += 5;
                }
                r *= 6;
                if t & 3 != 2 {
                    r += 100;
                }
            }
            assert_eq!(out[t as usize], r + t, "thread {t}, u {u}");
        }
    }
    // The branch at the second block's and the edge's own (C's short branch is predicated);
    // one `.S` serves both.
    let l = listing("uside.ptx", UNIFORM_SIDE_ENTRY, "side");
    assert_eq!(count(&l, "SSY"), 2, "{l:#?}");
    assert_eq!(count(&l, "NOP.S"), 1, "{l:#?}");
}

/// A uniform side entry into two nested regions: the edge pushes both regions' SSYs, the
/// outer first, and its lanes reconverge at each `.S` under their own entries.
const NESTED_SIDE_ENTRY: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry side(.param .u64 out, .param .u32 u)
{
  .reg .pred %p<4>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [u];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p3, %r5, 0;
  and.b32 %r3, %r1, 3;
  setp.eq.u32 %p1, %r3, 1;
  setp.eq.u32 %p2, %r3, 2;
  mov.u32 %r2, 1;
  @%p3 bra.uni Z;
  @%p1 bra D;
  @%p2 bra C;
  add.u32 %r2, %r2, 5;
Z:
  mul.lo.u32 %r2, %r2, 3;
C:
  add.u32 %r2, %r2, 7;
D:
  add.u32 %r2, %r2, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
";

#[test]
fn a_side_entry_into_two_nested_regions_pushes_both_ssys() {
    for u in [0u32, 7] {
        let s = spec("side", 1, 64, vec![zeros32(64), value_u32(u)]);
        let out = words(&run_both("nside.ptx", NESTED_SIDE_ENTRY, &s)[0]);
        for t in 0..64u32 {
            let r = match (u != 0, t & 3) {
                (true, _) => 3 + 7,
                (false, 1) => 1,
                (false, 2) => 1 + 7,
                _ => (1 + 5) * 3 + 7,
            };
            assert_eq!(out[t as usize], r + t, "thread {t}, u {u}");
        }
    }
    // Two branches' SSYs and the edge's two.
    let l = listing("nside.ptx", NESTED_SIDE_ENTRY, "side");
    assert_eq!(count(&l, "SSY"), 4, "{l:#?}");
}

/// A uniform side entry into a block that is itself a divergent branch: the edge pushes
/// the enclosing region's SSY only; the block pushes its own.
const SIDE_INTO_BRANCH: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry side(.param .u64 out, .param .u32 u)
{
  .reg .pred %p<5>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [u];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p3, %r5, 0;
  and.b32 %r3, %r1, 3;
  setp.eq.u32 %p1, %r3, 1;
  setp.eq.u32 %p2, %r3, 2;
  mov.u32 %r2, 1;
  @%p3 bra.uni Z;
  @%p1 bra D;
  add.u32 %r2, %r2, 5;
Z:
  mul.lo.u32 %r2, %r2, 3;
  @%p2 bra C;
  add.u32 %r2, %r2, 11;
  mul.lo.u32 %r2, %r2, %r2;
  xor.b32 %r2, %r2, %r1;
  add.u32 %r2, %r2, 13;
  mul.lo.u32 %r2, %r2, 5;
  xor.b32 %r2, %r2, 99;
  add.u32 %r2, %r2, 1;
C:
  add.u32 %r2, %r2, 7;
D:
  add.u32 %r2, %r2, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
";

#[test]
fn a_side_entry_into_a_branching_block_pushes_only_the_enclosing_ssy() {
    for u in [0u32, 1] {
        let s = spec("side", 1, 64, vec![zeros32(64), value_u32(u)]);
        let out = words(&run_both("bside.ptx", SIDE_INTO_BRANCH, &s)[0]);
        for t in 0..64u32 {
            let k = t & 3;
            let mut r = 1u32;
            if u != 0 || k != 1 {
                if u == 0 {
                    r += 5;
                }
                r = r.wrapping_mul(3);
                if k != 2 {
                    r = r.wrapping_add(11);
                    r = r.wrapping_mul(r);
                    r ^= t;
                    r = r.wrapping_add(13).wrapping_mul(5);
                    r ^= 99;
                    r = r.wrapping_add(1);
                }
                r = r.wrapping_add(7);
            }
            assert_eq!(out[t as usize], r.wrapping_add(t), "thread {t}, u {u}");
        }
    }
    // The two branches' SSYs and one on the edge.
    let l = listing("bside.ptx", SIDE_INTO_BRANCH, "side");
    assert_eq!(count(&l, "SSY"), 3, "{l:#?}");
}
