//! A guarded `call` (`CAL` takes no guard: the lanes whose guard fails branch around the
//! argument stores, `CAL` and result loads, inside an `SSY` so they go on together after
//! it) and a guarded `ret` in a `.func` (the lanes that do not return branch around the
//! epilogue). Run on both executors bit for bit, lanes of one warp taking both sides, and
//! checked against the kernel's meaning written here.

mod common;
use common::*;

const GUARDED: &str = "
.version 7.0
.target sm_20
.address_size 64
.func (.reg .u32 r) f(.reg .u32 a)
{
  .reg .pred %p<3>;
  .reg .b32 %q<3>;
  mov.u32 r, a;
  setp.lt.u32 %p1, a, 10;
  @%p1 ret;
  mul.lo.u32 r, a, 3;
  and.b32 %q1, a, 4;
  setp.ne.u32 %p2, %q1, 0;
  @!%p2 ret;
  add.u32 r, r, 1000;
  ret;
}
.visible .entry k(.param .u64 pout)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, 7;
  and.b32 %r3, %r1, 1;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 call (%r2), f, (%r1);
  setp.ne.u32 %p2, %r3, 0;
  @!%p2 bra SKIP;
  add.u32 %r4, %r1, 20;
  @%p2 call (%r2), f, (%r4);
SKIP:
  add.u32 %r2, %r2, %r1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
";

fn f(a: u32) -> u32 {
    if a < 10 {
        a
    } else if a & 4 == 0 {
        3 * a
    } else {
        3 * a + 1000
    }
}

#[test]
fn guarded_calls_and_guarded_returns_agree_and_mean_what_they_say() {
    let s = spec("k", 1, 64, vec![zeros32(64)]);
    let out = words(&run_both("guarded.ptx", GUARDED, &s)[0]);
    for t in 0..64u32 {
        let r = if t % 2 == 0 { f(t) } else { f(t + 20) };
        assert_eq!(out[t as usize], r + t, "thread {t}");
    }
}
