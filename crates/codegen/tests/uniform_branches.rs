//! `bra.uni` with a guard is Fermi's uniform branch, `BRA.U`: a loop whose trip count is a
//! parameter (every lane agrees) and a uniform skip, on both executors and against the
//! kernel's meaning written here; the code has no `SSY` for them.

mod common;
use common::*;

/// out[t] = t + sum(0..n), plus 1000 when n is odd (a uniform skip around the add).
const UNIFORM: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry uniform(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %tid.x;
	mov.u32 %r3, 0;
	mov.u32 %r4, %r2;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra.uni DONE;
LOOP:
	add.u32 %r4, %r4, %r3;
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p2, %r3, %r1;
	@%p2 bra.uni LOOP;
DONE:
	and.b32 %r5, %r1, 1;
	setp.eq.u32 %p1, %r5, 0;
	@%p1 bra.uni SKIP;
	add.u32 %r4, %r4, 1000;
SKIP:
	mul.wide.u32 %rd2, %r2, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r4;
	ret;
}
"#;

#[test]
fn guarded_uniform_branches_are_bra_u_and_agree_with_their_meaning() {
    for n in [0u32, 1, 2, 9, 30] {
        let s = spec("uniform", 1, 64, vec![zeros32(64), value_u32(n)]);
        let out = run_both("uniform.ptx", UNIFORM, &s);
        let want: Vec<u32> = (0..64)
            .map(|t| t + (0..n).sum::<u32>() + if n % 2 == 1 { 1000 } else { 0 })
            .collect();
        assert_eq!(words(&out[0]), want, "n = {n}");
    }
    let (_, _, cubin) = compile("uniform.ptx", UNIFORM);
    let listing: Vec<String> = cubin.kernels[0]
        .code
        .iter()
        .map(|&w| fermi::isa::disassemble_word(w, 0))
        .collect();
    let count = |m: &str| listing.iter().filter(|l| l.contains(m)).count();
    assert!(count("BRA.U") >= 2, "{listing:#?}");
    assert_eq!(count("SSY"), 0, "{listing:#?}");
}
