//! Loops with several exits, run on both executors bit for bit and checked
//! against the kernels' meaning written here.

mod common;
use common::*;

/// tests/kernels/divergent_loops.ptx as its header comment defines it.
fn divergent_loops_meaning(gid: u32) -> Option<(u32, u32)> {
    if gid % 5 == 4 {
        return None;
    }
    let mut acc = gid;
    let trips = gid.wrapping_mul(7).wrapping_add(3) % 37;
    for i in 0..trips {
        if i % 3 == 0 {
            acc = acc.wrapping_mul(3).wrapping_add(1);
        } else if acc & 1 == 1 {
            acc ^= i << 5;
            if acc > 0x8000_0000 {
                break;
            }
        } else {
            acc = acc.wrapping_add(i);
            for j in 0..(i & 3) {
                acc = acc.wrapping_add(j.wrapping_mul(acc >> 3));
            }
        }
    }
    let (mut c, mut steps) = (gid % 1000 + 1, 0u32);
    while c != 1 && steps < 500 {
        c = if c % 2 == 0 {
            c / 2
        } else {
            c.wrapping_mul(3).wrapping_add(1)
        };
        steps += 1;
    }
    Some((acc, steps))
}

#[test]
fn divergent_loops_with_a_break_agree_and_mean_what_they_say() {
    let path = "tests/kernels/divergent_loops.ptx";
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    let (threads, n) = (3 * 64u32, 180u32);
    let s = spec(
        "divergent_loops",
        3,
        64,
        vec![zeros32(2 * threads as usize), value_u32(n)],
    );
    let out = words(&run_both(path, &text, &s)[0]);
    for gid in 0..threads {
        let want = match divergent_loops_meaning(gid) {
            Some((acc, steps)) if gid < n => [acc, steps],
            _ => [0xdead_beef; 2],
        };
        let at = 2 * gid as usize;
        assert_eq!(out[at..at + 2], want, "thread {gid}");
    }
}

/// Three exits to one block: the trip count, a found key, a running sum over a limit.
const SEARCH: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry search(.param .u64 pa, .param .u64 pout, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pa];
  ld.param.u64 %rd2, [pout];
  ld.param.u32 %r9, [n];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r3, -1;
  mov.u32 %r8, 0;
LOOP:
  setp.ge.u32 %p1, %r2, %r9;
  @%p1 bra END;
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r4, [%rd4];
  add.u32 %r8, %r8, %r4;
  setp.eq.u32 %p2, %r4, %r1;
  @%p2 mov.u32 %r3, %r2;
  @%p2 bra END;
  setp.gt.u32 %p3, %r8, 3000;
  @%p3 bra END;
  add.u32 %r2, %r2, 1;
  bra LOOP;
END:
  mul.wide.u32 %rd5, %r1, 8;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v2.u32 [%rd6], {%r3, %r8};
  ret;
}
";

#[test]
fn a_search_loop_with_three_exits_agrees_and_finds_what_it_should() {
    let a: Vec<u32> = (0..200u32).map(|i| (i * 37 + 11) % 89).collect();
    for n in [200u32, 50, 0] {
        let s = spec("search", 1, 64, vec![u32s(&a), zeros32(128), value_u32(n)]);
        let out = words(&run_both("search.ptx", SEARCH, &s)[1]);
        for key in 0..64u32 {
            let (mut found, mut sum) = (u32::MAX, 0u32);
            for (i, &v) in a.iter().enumerate().take(n as usize) {
                sum = sum.wrapping_add(v);
                if v == key {
                    found = i as u32;
                    break;
                }
                if sum > 3000 {
                    break;
                }
            }
            let at = 2 * key as usize;
            assert_eq!(out[at..at + 2], [found, sum], "n = {n}, key {key}");
        }
    }
}

#[test]
fn divergent_loops_and_the_search_loop_reconverge_with_ssys_alone() {
    // The outer loop of divergent_loops leaves at its test and at the data-dependent break;
    // a branch inside it reconverges outside the loop. Its SSY sits at the top of the loop
    // header, which only lanes entering the loop pass (the back edges land after it), so no
    // PBK is needed: one `.S` per SSY. (PBK/BRK and PCNT/CONT: tests/continue_loops.rs.)
    let listing = |name: &str, text: &str| -> Vec<String> {
        let (_, _, cubin) = compile(name, text);
        disassembly(&cubin.kernels[0])
    };
    let count = |l: &[String], m: &str| l.iter().filter(|t| t.contains(m)).count();
    let path = "tests/kernels/divergent_loops.ptx";
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    let dl = listing(path, &text);
    assert_eq!(count(&dl, "PBK"), 0, "{dl:#?}");
    assert_eq!(count(&dl, "BRK"), 0, "{dl:#?}");
    assert_eq!(count(&dl, "SSY"), count(&dl, "NOP.S"), "{dl:#?}");
    let search = listing("search.ptx", SEARCH);
    assert_eq!(count(&search, "PBK"), 0, "{search:#?}");
    assert_eq!(count(&search, "SSY"), 1, "{search:#?}");
}

/// `nest` of tests/kernels/func_nested_join.ptx as its header comment defines it.
fn nest_meaning(a: u32) -> u32 {
    let x = if a & 1 != 0 {
        a.wrapping_mul(3)
    } else if a & 2 != 0 {
        10
    } else {
        10u32.wrapping_add(a.wrapping_mul(a.max(1)))
    };
    x.wrapping_add(7)
}

/// A block of only the outer region falling through into a join that the inner region also
/// reaches must branch to the outer region's `.S`, in a `.func` as in a kernel (the labels of
/// a `.func` body carry its prefix).
#[test]
fn func_fall_through_into_a_shared_join_reconverges_the_outer_region() {
    let path = "tests/kernels/func_nested_join.ptx";
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    let s = spec("k", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both(path, &text, &s)[0]);
    for tid in 0..64 {
        assert_eq!(out[tid as usize], nest_meaning(tid), "thread {tid}");
    }
    // The `else` block (`x = 3a`, the only IMUL by 3) ends in a branch past the inner
    // region's `NOP.S` to the outer one's, as the same body does in a kernel.
    let (_, _, cubin) = compile(path, &text);
    let listing: Vec<String> = disassembly(&cubin.kernels[0]);
    let at = listing
        .iter()
        .position(|t| t.contains("IMUL") && t.contains("0x3;"))
        .unwrap_or_else(|| panic!("no IMUL by 3 in {listing:#?}"));
    let (next, after) = (&listing[at + 1], &listing[at + 2]);
    assert!(
        next.starts_with("BRA ") && after.starts_with("NOP.S"),
        "{listing:#?}"
    );
}
