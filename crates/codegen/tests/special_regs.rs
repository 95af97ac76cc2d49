//! `%clock`, `%clock64`, `%warpid`, `%nwarpid` and the lane masks on both executors, and the
//! cubin's barrier count for named barriers.
//!
//! The clocks count the warp's executed instructions (docs/spec-notes.md) on each executor,
//! so their values differ between the PTX program and the Fermi program; what is checked is
//! that definition on each: two back-to-back reads differ by the reads' own length, a loop of
//! `n` iterations between two reads advances the clock by a fixed amount per iteration, and
//! a later read is never below an earlier one. The ids and masks are the same on both,
//! bit for bit, and equal to the definitions computed here from the thread's position.

mod common;
use common::*;
use exec::LaunchSpec;

const IDS: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry ids(.param .u64 out)
{
	.reg .b32 %r<16>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %tid.y;
	mov.u32 %r3, %tid.z;
	mov.u32 %r4, %ntid.x;
	mov.u32 %r5, %ntid.y;
	mad.lo.u32 %r6, %r3, %r5, %r2;
	mad.lo.u32 %r6, %r6, %r4, %r1;
	mov.u32 %r7, %warpid;
	mov.u32 %r8, %nwarpid;
	mov.u32 %r9, %laneid;
	mov.u32 %r10, %lanemask_eq;
	mov.u32 %r11, %lanemask_lt;
	mov.u32 %r12, %lanemask_le;
	mov.u32 %r13, %lanemask_gt;
	mov.u32 %r14, %lanemask_ge;
	ld.param.u64 %rd1, [out];
	mul.wide.u32 %rd2, %r6, 32;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.u32 [%rd3], {%r7, %r8, %r9, %r10};
	st.global.v4.u32 [%rd3+16], {%r11, %r12, %r13, %r14};
	ret;
}
"#;

#[test]
fn warp_ids_and_lane_masks_match_their_definitions_on_both_executors() {
    // Shapes whose last warp is partial, 1-D and 3-D.
    for block in [[7u32, 5, 3], [64, 1, 1], [33, 2, 1], [1, 1, 1]] {
        let n = (block[0] * block[1] * block[2]) as usize;
        let spec = LaunchSpec {
            kernel: Some("ids".into()),
            grid: [2, 1, 1],
            block,
            shared_bytes: 0,
            params: vec![zeros32(8 * n)],
            textures: Vec::new(),
        };
        let out = run_both("ids.ptx", IDS, &spec);
        let w = words(&out[0]);
        for t in 0..n as u32 {
            let lane = t % 32;
            let le = ((1u64 << (lane + 1)) - 1) as u32;
            let want = [
                t / 32,
                n.div_ceil(32) as u32,
                lane,
                1 << lane,
                (1 << lane) - 1,
                le,
                !le,
                !((1u32 << lane) - 1),
            ];
            let row = &w[8 * t as usize..8 * t as usize + 8];
            assert_eq!(row, want, "block {block:?}, thread {t}");
        }
    }
}

/// Reads `%clock` twice back to back, `%clock64` twice back to back, then `%clock64` around a
/// loop of `n` iterations (`n` a parameter); writes the three differences and whether each
/// later read is at least the earlier one.
const CLOCKS: &str = r#".version 7.0
.target sm_20
.address_size 64
.visible .entry clocks(.param .u64 out, .param .u32 n)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<12>;
	ld.param.u32 %r9, [n];
	ld.param.u64 %rd9, [out];
	mov.u32 %r1, %clock;
	mov.u32 %r2, %clock;
	mov.u64 %rd1, %clock64;
	mov.u64 %rd2, %clock64;
	mov.u64 %rd3, %clock64;
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
	setp.eq.u32 %p1, %r9, 0;
	@%p1 bra DONE;
LOOP:
	add.u32 %r4, %r4, %r3;
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p2, %r3, %r9;
	@%p2 bra LOOP;
DONE:
	mov.u64 %rd4, %clock64;
	sub.u32 %r5, %r2, %r1;
	sub.s64 %rd5, %rd2, %rd1;
	sub.s64 %rd6, %rd4, %rd3;
	setp.ge.u64 %p3, %rd4, %rd3;
	selp.u32 %r6, 1, 0, %p3;
	setp.ge.u64 %p3, %rd2, %rd1;
	selp.u32 %r7, 1, 0, %p3;
	mov.u32 %r8, %tid.x;
	mul.wide.u32 %rd7, %r8, 32;
	add.s64 %rd8, %rd9, %rd7;
	st.global.u32 [%rd8], %r5;
	st.global.u32 [%rd8+4], %r6;
	st.global.u64 [%rd8+8], %rd5;
	st.global.u64 [%rd8+16], %rd6;
	st.global.u32 [%rd8+24], %r7;
	st.global.u32 [%rd8+28], %r4;
	ret;
}
"#;

/// (back-to-back `%clock` difference, back-to-back `%clock64` difference, loop difference)
/// of thread 0, after checking every thread agrees, the later reads are not below the
/// earlier ones and the loop computed its sum.
fn clock_row(w: &[u32], n: u32, threads: usize) -> (u32, u64, u64) {
    let at = |t: usize| &w[8 * t..8 * t + 8];
    for t in 0..threads {
        let r = at(t);
        assert_eq!(r, at(0), "thread {t}: a uniform warp reads one clock");
        assert_eq!(r[1], 1, "%clock64 after the loop below the one before it");
        assert_eq!(r[6], 1, "a later %clock64 below an earlier one");
        assert_eq!(r[7], (0..n).sum::<u32>(), "the loop's sum");
    }
    let r = at(0);
    let d64 = |i: usize| u64::from(r[i]) | u64::from(r[i + 1]) << 32;
    (r[0], d64(2), d64(4))
}

#[test]
fn clocks_count_each_executors_instructions_and_are_monotone() {
    let (m, file, cubin) = compile("clocks.ptx", CLOCKS);
    let trips = [0u32, 1, 2, 5, 17];
    let (mut ptx, mut sass) = (Vec::new(), Vec::new());
    for &n in &trips {
        let s = spec("clocks", 1, 64, vec![zeros32(8 * 64), value_u32(n)]);
        let p = exec::run(&m, &file, &s, &exec::RunOptions::default()).expect("PTX run");
        let f =
            fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default()).expect("Fermi run");
        ptx.push(clock_row(&words(&p.buffers[0].bytes()), n, 64));
        sass.push(clock_row(&words(&f.buffers[0].bytes()), n, 64));
    }
    // Back to back: on Fermi `%clock` is one S2R, `%clock64` a 7-instruction sequence whose
    // low-half read is its second. The PTX executor runs each `mov` of a special register as
    // its lowered form (the same for both clocks), so only equality and progress are fixed.
    for (i, &n) in trips.iter().enumerate() {
        assert!(
            ptx[i].0 >= 1 && u64::from(ptx[i].0) == ptx[i].1,
            "PTX executor, n = {n}"
        );
        assert_eq!((sass[i].0, sass[i].1), (1, 7), "Fermi executor, n = {n}");
    }
    // Around the loop: a fixed cost plus a fixed amount per iteration, which is positive.
    for rows in [&ptx, &sass] {
        let per = rows[2].2 - rows[1].2;
        assert!(per > 0);
        for (i, &n) in trips.iter().enumerate().skip(1) {
            assert_eq!(rows[i].2, rows[1].2 + per * u64::from(n - 1), "n = {n}");
        }
        assert!(rows[0].2 < rows[1].2, "the loop costs something");
    }
    // The loop is 4 instructions an iteration in PTX (add, add, setp, bra) and in the
    // Fermi code (IADD, IADD, ISETP, BRA).
    assert_eq!(ptx[2].2 - ptx[1].2, 4);
    assert_eq!(sass[2].2 - sass[1].2, 4);
}

fn bar_count(body: &str) -> u8 {
    let text = format!(
        ".version 7.0\n.target sm_70\n.address_size 64\n\
         .visible .entry k(.param .u32 b)\n{{\n\t.reg .b32 %r<4>;\n\
         \tld.param.u32 %r1, [b];\n{body}\tret;\n}}\n"
    );
    let (_, _, cubin) = compile("bar.ptx", &text);
    cubin.kernels[0].bar_count
}

#[test]
fn the_cubin_counts_the_barriers_a_kernel_names() {
    // NVIDIA's text-section flags: the highest barrier number plus one; all 16 when the
    // number is in a register; none without barriers.
    assert_eq!(bar_count(""), 0);
    assert_eq!(bar_count("\tbar.sync 0;\n"), 1);
    assert_eq!(bar_count("\tbar.sync 3;\n\tbar.sync 0;\n"), 4);
    assert_eq!(bar_count("\tbar.arrive 1, 64;\n"), 2);
    assert_eq!(bar_count("\tbarrier.sync 15;\n"), 16);
    assert_eq!(bar_count("\tbar.sync %r1;\n"), 16);
    assert_eq!(bar_count("\tbar.red.popc.u32 %r2, 5, 1;\n"), 6);
}

/// `tests/kernels/special_regs.ptx`: lane masks, `%nwarpid ≥ 1`, `%warpid < %nwarpid` with a
/// monotone `%clock64`, and `%gridid` (0: a run's only launch), against its documented meaning.
#[test]
fn the_special_regs_kernel_agrees_with_its_meaning() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/kernels/special_regs.ptx"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let s = spec("special_regs", 2, 80, vec![zeros32(8 * 160)]);
    let out = run_both("special_regs.ptx", &text, &s);
    let w = words(&out[0]);
    for g in 0..160usize {
        let lane = (g % 80 % 32) as u32;
        let le = ((1u64 << (lane + 1)) - 1) as u32;
        let want = [
            1 << lane,
            le,
            (1 << lane) - 1,
            !((1u32 << lane) - 1),
            !le,
            1,
            1,
            0,
        ];
        assert_eq!(&w[8 * g..8 * g + 8], want, "thread {g}");
    }
}
