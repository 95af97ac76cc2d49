//! `PCNT`/`CONT`: a loop whose lanes go back to the header from inside a divergent region
//! of the header's own branch (a divergent `continue`) cannot use an `SSY` at the header —
//! lanes would push it again before the region's other lanes reconverge. It becomes a
//! `PCNT` loop inside a `PBK`: `CONT` on the back edges, `BRK` on the exits, including a
//! break out of a loop nested in it. Each runs on both executors bit for bit, with lanes of
//! one warp taking different paths and trip counts, and is checked against its meaning.

mod common;
use common::*;

fn listing(name: &str, text: &str) -> Vec<String> {
    let (_, _, cubin) = compile(name, text);
    disassembly(&cubin.kernels[0])
}

/// Instructions whose mnemonic (after an optional guard) is `m`.
fn count(l: &[String], m: &str) -> usize {
    l.iter()
        .filter(|t| {
            let t = t.strip_prefix('@').map_or(t.as_str(), |g| {
                g.split_once(' ').map_or("", |(_, rest)| rest)
            });
            t.split([' ', ';']).next() == Some(m)
        })
        .count()
}

const CONT: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry cont(.param .u64 pout)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 15;
  add.u32 %r2, %r2, 1;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
LOOP:
  add.u32 %r3, %r3, 1;
  and.b32 %r5, %r3, %r1;
  and.b32 %r5, %r5, 1;
  setp.ne.u32 %p1, %r5, 0;
  @%p1 bra X;
  and.b32 %r6, %r3, %r1;
  and.b32 %r6, %r6, 6;
  setp.ne.u32 %p2, %r6, 0;
  setp.lt.u32 %p3, %r3, %r2;
  and.pred %p2, %p2, %p3;
  @%p2 bra LOOP;
X:
  mad.lo.u32 %r4, %r4, 3, %r3;
  setp.lt.u32 %p3, %r3, %r2;
  @%p3 bra LOOP;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
";

fn cont_meaning(t: u32) -> u32 {
    let n = (t & 15) + 1;
    let (mut i, mut acc) = (0u32, 0u32);
    loop {
        i += 1;
        if (i & t) & 1 == 0 && (i & t) & 6 != 0 && i < n {
            continue;
        }
        acc = acc.wrapping_mul(3).wrapping_add(i);
        if i >= n {
            break;
        }
    }
    acc
}

#[test]
fn a_divergent_continue_to_the_header_runs_as_a_pcnt_loop() {
    let s = spec("cont", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both("cont.ptx", CONT, &s)[0]);
    for t in 0..64 {
        assert_eq!(out[t as usize], cont_meaning(t), "thread {t}");
    }
    let l = listing("cont.ptx", CONT);
    assert_eq!(count(&l, "PCNT"), 1, "{l:#?}");
    assert_eq!(count(&l, "CONT"), 2, "{l:#?}");
    assert_eq!(count(&l, "PBK"), 1, "{l:#?}");
    assert_eq!(count(&l, "BRK"), 1, "{l:#?}");
}

/// The same divergent continue in an outer loop, and an inner loop whose data-dependent
/// break leaves both loops (a `BRK` from inside the inner loop to the outer `PBK`), while
/// its normal exit stays in the outer loop.
const NESTED: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry nested(.param .u64 pout)
{
  .reg .pred %p<8>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 15;
  add.u32 %r2, %r2, 1;
  shr.u32 %r10, %r1, 2;
  and.b32 %r10, %r10, 3;
  add.u32 %r10, %r10, 1;
  mul.lo.u32 %r11, %r1, 7;
  and.b32 %r11, %r11, 31;
  mov.u32 %r3, 0;
  mov.u32 %r4, %r1;
OUTER:
  add.u32 %r3, %r3, 1;
  xor.b32 %r5, %r3, %r1;
  and.b32 %r5, %r5, 1;
  setp.ne.u32 %p1, %r5, 0;
  @%p1 bra X;
  and.b32 %r6, %r3, %r1;
  and.b32 %r6, %r6, 2;
  setp.ne.u32 %p2, %r6, 0;
  setp.lt.u32 %p3, %r3, %r2;
  and.pred %p2, %p2, %p3;
  @%p2 bra OUTER;
X:
  mov.u32 %r7, 0;
INNER:
  add.u32 %r7, %r7, 1;
  mad.lo.u32 %r4, %r4, 5, %r7;
  add.u32 %r4, %r4, %r3;
  and.b32 %r8, %r4, 31;
  setp.eq.u32 %p4, %r8, %r11;
  @%p4 bra DONE;
  setp.lt.u32 %p5, %r7, %r10;
  @%p5 bra INNER;
  setp.lt.u32 %p6, %r3, %r2;
  @%p6 bra OUTER;
DONE:
  mul.wide.u32 %rd2, %r1, 8;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v2.u32 [%rd3], {%r4, %r3};
  ret;
}
";

fn nested_meaning(t: u32) -> [u32; 2] {
    let n = (t & 15) + 1;
    let inner_trips = ((t >> 2) & 3) + 1;
    let (mut i, mut acc) = (0u32, t);
    'outer: loop {
        i += 1;
        if (i ^ t) & 1 == 0 && (i & t) & 2 != 0 && i < n {
            continue;
        }
        let mut j = 0u32;
        loop {
            j += 1;
            acc = acc.wrapping_mul(5).wrapping_add(j).wrapping_add(i);
            if acc & 31 == t.wrapping_mul(7) & 31 {
                break 'outer;
            }
            if j >= inner_trips {
                break;
            }
        }
        if i >= n {
            break;
        }
    }
    [acc, i]
}

#[test]
fn a_break_out_of_a_loop_nested_in_a_pcnt_loop_leaves_both() {
    let s = spec("nested", 1, 64, vec![zeros32(128)]);
    let out = words(&run_both("nested.ptx", NESTED, &s)[0]);
    let mut broke_early = 0;
    for t in 0..64u32 {
        let want = nested_meaning(t);
        broke_early += usize::from(want[1] < (t & 15) + 1);
        assert_eq!(out[2 * t as usize..2 * t as usize + 2], want, "thread {t}");
    }
    // Some lanes leave both loops early by the inner break, the others by the outer test.
    assert!(
        (1..64).contains(&broke_early),
        "{broke_early} lanes broke early"
    );
    let l = listing("nested.ptx", NESTED);
    assert_eq!(count(&l, "PCNT"), 1, "{l:#?}");
    assert_eq!(count(&l, "PBK"), 1, "{l:#?}");
    // The inner loop's break and the outer loop's exit.
    assert_eq!(count(&l, "BRK"), 2, "{l:#?}");
}
