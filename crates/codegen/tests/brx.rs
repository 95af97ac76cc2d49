//! `brx.idx` through a `.branchtargets` list: `tests/kernels/brx_idx.ptx`'s switch in a loop
//! (lanes of one warp taking different cases every round and reconverging) on both executors
//! and against the switch written here; an index past the list faults both executors; a
//! switch whose cases nest a divergent `if` and one of whose targets is the join itself.

mod common;
use common::*;

fn switch_table(t: u32, rounds: u32) -> u32 {
    let mut acc = t;
    for k in 0..rounds {
        match acc.wrapping_add(k) % 5 {
            0 => acc = acc.wrapping_mul(3).wrapping_add(1),
            1 => acc ^= 0x55,
            2 => acc = acc.wrapping_add(7),
            3 => acc >>= 1,
            _ => acc = acc.wrapping_sub(k),
        }
    }
    acc
}

#[test]
fn the_switch_table_kernel_agrees_with_its_meaning() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/brx_idx.ptx"
    );
    let text = std::fs::read_to_string(path).unwrap();
    for rounds in [0u32, 1, 2, 7, 40] {
        let s = spec("switch_table", 1, 96, vec![zeros32(96), value_u32(rounds)]);
        let out = run_both("brx_idx.ptx", &text, &s);
        let want: Vec<u32> = (0..96).map(|t| switch_table(t, rounds)).collect();
        assert_eq!(words(&out[0]), want, "rounds = {rounds}");
    }
    let (_, _, cubin) = compile("brx_idx.ptx", &text);
    let k = cubin
        .kernels
        .iter()
        .find(|k| k.name == "switch_table")
        .unwrap();
    let listing: Vec<String> = k
        .code
        .iter()
        .map(|&w| fermi::isa::disassemble_word(w, 0))
        .collect();
    assert_eq!(listing.iter().filter(|l| l.starts_with("BRX")).count(), 1);
    assert!(listing.iter().any(|l| l.starts_with("SSY")), "{listing:#?}");
}

#[test]
fn an_index_past_the_list_faults_both_executors() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/brx_idx.ptx"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let (m, file, cubin) = compile("brx_idx.ptx", &text);
    for (i, faults) in [(0u32, false), (1, false), (2, true), (0xffff_ffff, true)] {
        let s = spec("bad_index", 1, 32, vec![value_u32(i)]);
        let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
        let sass = fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default());
        assert_eq!(ptx.is_err(), faults, "PTX executor, index {i}");
        assert_eq!(sass.is_err(), faults, "Fermi executor, index {i}: {sass:?}");
    }
}

/// Per thread t: case t % 4 of 0: an `if` on bit 2 inside the case; 1: straight to the join
/// (a target that is the join block); 2, 3: one case body shared by two list entries.
const NESTED: &str = r#".version 7.0
.target sm_30
.address_size 64
.visible .entry nested(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 100;
	and.b32 %r3, %r1, 3;
	$T: .branchtargets C0, JOIN, C2, C2;
	brx.idx %r3, $T;
C0:
	and.b32 %r4, %r1, 4;
	setp.ne.u32 %p1, %r4, 0;
	@%p1 bra C0B;
	add.u32 %r2, %r2, 10;
	bra.uni JOIN;
C0B:
	add.u32 %r2, %r2, 20;
	bra.uni JOIN;
C2:
	mul.lo.u32 %r2, %r1, %r3;
JOIN:
	add.u32 %r2, %r2, %r1;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r2;
	ret;
}
"#;

#[test]
fn cases_with_nested_branches_and_a_target_at_the_join() {
    let s = spec("nested", 1, 128, vec![zeros32(128)]);
    let out = run_both("nested.ptx", NESTED, &s);
    let want: Vec<u32> = (0..128)
        .map(|t: u32| {
            let v = match t % 4 {
                0 if t & 4 != 0 => 120,
                0 => 110,
                1 => 100,
                r => t * r,
            };
            v + t
        })
        .collect();
    assert_eq!(words(&out[0]), want);
}
