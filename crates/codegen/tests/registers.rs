//! Register allocation corner cases, run on both executors and against their meaning.

mod common;
use common::*;

/// `%r3`'s only definition is guarded and inside a loop: lanes whose guard is false keep the
/// previous iteration's value, so no temporary defined earlier in the loop may take its
/// register (`%r6`, `%r7` are defined before it in each iteration).
const GUARDED_IN_LOOP: &str = "
.version 7.0
.target sm_20
.address_size 64
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 0;
  mov.u32 %r9, 0;
LOOP:
  mul.lo.u32 %r6, %r2, 7;
  xor.b32 %r7, %r6, %r1;
  add.u32 %r9, %r9, %r7;
  and.b32 %r5, %r2, 3;
  setp.eq.u32 %p1, %r5, 0;
  @%p1 mul.lo.u32 %r3, %r2, %r1;
  add.u32 %r9, %r9, %r3;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 10;
  @%p2 bra LOOP;
  ld.param.u64 %rd1, [pout];
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r9;
  ret;
}
";

#[test]
fn a_guarded_only_definition_in_a_loop_keeps_its_register_across_iterations() {
    let s = spec("k", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both("guarded.ptx", GUARDED_IN_LOOP, &s)[0]);
    for tid in 0..64u32 {
        let (mut acc, mut r3) = (0u32, 0u32);
        for i in 0..10u32 {
            acc = acc.wrapping_add(i.wrapping_mul(7) ^ tid);
            if i % 4 == 0 {
                r3 = i.wrapping_mul(tid);
            }
            acc = acc.wrapping_add(r3);
        }
        assert_eq!(out[tid as usize], acc, "thread {tid}");
    }
}
