//! `txq` queries past the dimensions: `.channel_data_type`, `.normalized_coords`,
//! `.array_size`, `.num_samples` on two bound textures, on both executors, against the values
//! docs/spec-notes.md ("`txq`") defines for ptxvm's textures (1, 0, 0, 1 whatever the
//! binding); an unbound texture faults both executors on every query.

mod common;
use common::{compile, run_both, words};
use exec::LaunchSpec;

const KERNEL: &str = r#".version 7.0
.target sm_20
.address_size 64
.global .texref ta;
.global .texref tb;
.visible .entry q(.param .u64 out)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<3>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r10, %tid.x;
	setp.eq.u32 %p1, %r10, 1;
	mov.u32 %r9, 99;
	txq.width.b32 %r1, [ta];
	txq.channel_data_type.b32 %r2, [ta];
	txq.normalized_coords.b32 %r3, [ta];
	txq.array_size.b32 %r4, [ta];
	txq.num_samples.b32 %r5, [ta];
	txq.height.b32 %r6, [tb];
	txq.channel_data_type.b32 %r7, [tb];
	txq.num_samples.b32 %r8, [tb];
	@%p1 txq.array_size.b32 %r9, [tb];
	mul.wide.u32 %rd2, %r10, 48;
	add.s64 %rd1, %rd1, %rd2;
	st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
	st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r8};
	st.global.u32 [%rd1+32], %r9;
	ret;
}
"#;

fn launch(textures: &str) -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "q", "grid": 1, "block": 2,
            "params": [{{"buffer": {{"type": "u32", "len": 24}}}}], "textures": [{textures}]}}"#
    );
    LaunchSpec::from_json(&text, std::path::Path::new(".")).unwrap()
}

#[test]
fn constant_queries_answer_as_the_spec_notes_define() {
    let data = |n: usize| {
        let v: Vec<String> = (0..n).map(|k| k.to_string()).collect();
        format!("[{}]", v.join(", "))
    };
    let textures = format!(
        r#"{{"unit": 0, "geometry": "2d", "type": "u32", "channels": 2, "width": 5, "height": 3,
            "data": {}}},
           {{"unit": 1, "geometry": "a2d", "type": "u32", "channels": 4, "width": 3,
            "height": 2, "layers": 3, "data": {}}}"#,
        data(30),
        data(72)
    );
    let bufs = run_both("q.ptx", KERNEL, &launch(&textures));
    let got = words(&bufs[0]);
    // ta: width 5; tb: height 2. channel_data_type 1, normalized_coords 0, array_size 0,
    // num_samples 1; thread 0's guarded query leaves 99.
    for t in 0..2 {
        let last = if t == 1 { 0 } else { 99 };
        assert_eq!(
            &got[12 * t..12 * t + 9],
            &[5, 1, 0, 0, 1, 2, 1, 1, last],
            "thread {t}"
        );
    }
}

#[test]
fn an_unbound_texture_faults_both_executors() {
    // Only constant queries on tb (its `.height` query removed), so the fault must come from
    // the `TXQ` the constant path emits for it.
    let text = KERNEL.replace("\ttxq.height.b32 %r6, [tb];\n", "\tmov.u32 %r6, 0;\n");
    assert_ne!(text, KERNEL);
    let (m, file, cubin) = compile("q.ptx", &text);
    // Only ta bound: the queries on tb fault.
    let s = launch(r#"{"unit": 0, "geometry": "1d", "type": "u32", "width": 2, "data": [1, 2]}"#);
    let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
    let sass = fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default());
    assert!(ptx.is_err(), "PTX executor ran");
    assert!(sass.is_err(), "Fermi executor ran: {sass:?}");
}
