//! `ptxvm run` on sm_20 cubins (the Fermi executor): outputs, every fault kind with its
//! report, and clear errors for malformed cubins and launches.

mod common;
use common::scratch_dir;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn ptxvm(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ptxvm"))
        .args(args)
        .output()
        .expect("the ptxvm binary runs")
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let p = scratch_dir("run-cubin").join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Assembles a one-parameter 32-bit kernel `k` whose body is `body` into `name.cubin`.
fn kernel(name: &str, body: &str) -> PathBuf {
    let src = format!("!Machine 32\n!Kernel k\n!Param 4\n{body}\n!EndKernel\n");
    let sass = write(&format!("{name}.sass"), src.as_bytes());
    let cubin = scratch_dir("run-cubin").join(format!("{name}.cubin"));
    let o = ptxvm(&[
        "asm",
        "--arch",
        "sm_20",
        sass.to_str().unwrap(),
        "-o",
        cubin.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "asm: {}", stderr(&o));
    cubin
}

/// A launch of `k` with `threads` threads and one buffer of eight u32.
fn launch(name: &str, threads: u32) -> PathBuf {
    let spec = format!(
        r#"{{"kernel": "k", "grid": [1, 1, 1], "block": [{threads}, 1, 1],
            "params": [{{"buffer": {{"type": "u32", "data": [1, 2, 3, 4, 5, 6, 7, 8]}}}}]}}"#
    );
    write(&format!("{name}.json"), spec.as_bytes())
}

fn run(cubin: &Path, spec: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        cubin.to_str().unwrap(),
        "--launch",
        spec.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    ptxvm(&args)
}

/// Runs `body` and expects a kernel fault (exit 3) whose report holds every `needle`.
fn faults(name: &str, body: &str, threads: u32, extra: &[&str], needles: &[&str]) {
    let o = run(&kernel(name, body), &launch(name, threads), extra);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(3), "{name}: stderr:\n{err}");
    for n in needles {
        assert!(err.contains(n), "{name}: `{n}` missing from:\n{err}");
    }
}

const PROLOGUE: &str =
    "MOV R1, c [0x1] [0x100];\nMOV R2, c [0x0] [0x20];\nS2R R0, SR_Tid_X;\nISCADD R2, R0, R2, 0x2;";

#[test]
fn runs_a_kernel_with_json_and_out() {
    // Each of four threads copies the element four places on; the buffer is data[4..8]
    // twice (threads read before anyone's later store is visible: they run as one warp).
    let cubin = kernel(
        "copy",
        &format!("{PROLOGUE}\nLD R3, [R2+0x10];\nST [R2], R3;\nEXIT;"),
    );
    let out = scratch_dir("run-cubin").join("copy-out");
    let o = run(
        &cubin,
        &launch("copy", 4),
        &["--json", "--out", out.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(json["kernel"], "k");
    let data: Vec<u64> = json["buffers"][0]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(data, [5, 6, 7, 8, 5, 6, 7, 8]);
    // `--out` writes numpy files: "\x93NUMPY", version 1.0, a little-endian u16 header length,
    // the header, then the data.
    let npy = std::fs::read(out.join("param0.npy")).unwrap();
    assert_eq!(&npy[..8], b"\x93NUMPY\x01\x00");
    let header = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    let words: Vec<u32> = npy[10 + header..]
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    assert_eq!(words, [5, 6, 7, 8, 5, 6, 7, 8]);
}

#[test]
fn runs_nvidia_code_from_a_launch_spec() {
    // FindMaxIndexReduce over three candidates: the largest value and its index.
    let cubin = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fermi/mgpu-sources/maxindex.cubin");
    let spec = write(
        "maxindex.json",
        br#"{"kernel": "FindMaxIndexReduce", "grid": [1], "block": [256],
            "params": [{"buffer": {"type": "f32", "data": [1.5, 9.25, -3.0]}},
                       {"buffer": {"type": "u32", "data": [10, 20, 30]}},
                       {"value": 3, "type": "u32"}]}"#,
    );
    let o = run(&cubin, &spec, &["--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(json["buffers"][0]["data"][0].as_f64(), Some(9.25));
    assert_eq!(json["buffers"][1]["data"][0].as_u64(), Some(20));
}

#[test]
fn out_of_bounds_global_access() {
    // Thread 4 reads element 8 of an eight-element buffer.
    faults(
        "oob",
        &format!("{PROLOGUE}\nLD R3, [R2+0x10];\nST [R2], R3;\nEXIT;"),
        8,
        &[],
        &[
            "kernel `k`",
            "/*0020*/ `LD R3, [R2+0x10];`",
            "tid=(4,0,0)",
            "out-of-bounds 4-byte access to global address 0x10000020",
        ],
    );
}

#[test]
fn out_of_bounds_shared_access() {
    faults(
        "oob-shared",
        "STS [RZ+0x40], RZ;\nEXIT;",
        1,
        &[],
        &[
            "`STS [0x40], RZ;`",
            "out-of-bounds 4-byte access to shared address 0x40",
        ],
    );
}

#[test]
fn misaligned_access() {
    faults(
        "misaligned",
        &format!("{PROLOGUE}\nLD R3, [R2+0x2];\nEXIT;"),
        1,
        &[],
        &[
            "misaligned 4-byte access to global address 0x10000002",
            "tid=(0,0,0)",
        ],
    );
}

#[test]
fn breakpoint_trap() {
    faults(
        "trap",
        "BPT.TRAP 0x1;\nEXIT;",
        1,
        &[],
        &["/*0000*/ `BPT.TRAP 0x1;`", "BPT.TRAP executed"],
    );
}

#[test]
fn reconvergence_discipline_violations() {
    faults(
        "sync-without-ssy",
        "NOP.S CC.T;\nEXIT;",
        2,
        &[],
        &[
            "`NOP.S CC.T;`",
            "reconvergence discipline violated",
            "stack is empty",
        ],
    );
    faults(
        "brk-without-pbk",
        "BRK;\nEXIT;",
        2,
        &[],
        &["`BRK;`", "BRK with no PBK entry"],
    );
    faults(
        "ret-without-cal",
        "RET;\nEXIT;",
        2,
        &[],
        &["`RET;`", "RET with no CAL/PRET entry"],
    );
    // Lanes arriving at a .S whose stack top is a PBK entry.
    faults(
        "sync-onto-pbk",
        "PBK 0x10;\nNOP.S CC.T;\nEXIT;",
        2,
        &[],
        &["`NOP.S CC.T;`", "not SSY"],
    );
    // A diverged warp at a barrier: lane 0 branches to the BAR while lane 1 waits.
    faults(
        "divergent-bar",
        "S2R R0, SR_Tid_X;\nISETP.EQ.U32.AND P0, pt, R0, RZ, pt;\n@P0 BRA 0x20;\nEXIT;\nBAR.RED.POPC RZ, RZ;\nEXIT;",
        2,
        &[],
        &["BAR executed by a diverged warp"],
    );
}

#[test]
fn step_budget() {
    faults(
        "loop",
        "BRA 0x0;",
        1,
        &["--max-steps", "100"],
        &[
            "`BRA 0x0;`",
            "step budget of 100 instructions per warp exceeded",
        ],
    );
}

#[test]
fn atomics_run_and_a_local_atomic_faults() {
    // Eight threads add their index to word 0 (1 + 0 + 1 + ... + 7 = 29); `RED` adds 100 to
    // word 1 per thread (2 + 800).
    let cubin = kernel(
        "atom-add",
        "MOV R2, c [0x0] [0x20];\nS2R R0, SR_Tid_X;\nATOM.ADD R3, [R2], R0;\n\
         MOV32I R4, 0x64;\nRED.ADD [R2+0x4], R4;\nEXIT;",
    );
    let o = run(&cubin, &launch("atom-add", 8), &["--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(json["buffers"][0]["data"][0], 29);
    assert_eq!(json["buffers"][0]["data"][1], 802);
    faults(
        "atom-local",
        "MOV32I R4, 0x2000000;\nATOM.ADD R0, [R4], R3;\nEXIT;",
        1,
        &[],
        &["`ATOM.ADD R0, [R4], R3;`", "no local atomics"],
    );
}

#[test]
fn a_partial_barrier_that_cannot_complete_is_a_deadlock() {
    // Warp 1 exits; warp 0 waits at barrier 1 for all 64 threads.
    faults(
        "deadlock",
        &format!(
            "{PROLOGUE}\nISETP.GE.U32.AND P0, pt, R0, 0x20, pt;\n@P0 EXIT;\n\
             BAR.RED.POPC 0x1, 0x40;\nEXIT;"
        ),
        64,
        &[],
        &[
            "`BAR.RED.POPC 0x1, 0x40;`",
            "tid=(0,0,0)",
            "barrier deadlock: barrier 1 waits for 64 threads, 32 arrived",
        ],
    );
}

#[test]
fn unsupported_instructions_fault_with_their_text() {
    faults(
        "longjmp",
        &format!("{PROLOGUE}\nLONGJMP;\nEXIT;"),
        1,
        &[],
        &["`LONGJMP", "not implemented by the Fermi executor"],
    );
    faults(
        "invalid-word",
        "!RawInstruction 0xffffffffffffffff\nEXIT;",
        1,
        &[],
        &["INVALID 0xffffffffffffffff", "does not decode"],
    );
}

#[test]
fn malformed_cubins_are_invalid_input() {
    let spec = launch("junk", 1);
    for (name, bytes) in [
        ("empty.cubin", &b""[..]),
        ("text.cubin", &b"not an elf file at all"[..]),
        ("elf-head.cubin", &b"\x7fELF\x01\x01\x01\x33\x04"[..]),
    ] {
        let o = run(&write(name, bytes), &spec, &[]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("invalid cubin"),
            "{name}: {}",
            stderr(&o)
        );
    }
    // A truncated NVIDIA cubin.
    let real = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/fermi/mgpu-sources/maxindex.cubin"),
    )
    .unwrap();
    for cut in [16, 52, 500] {
        let o = run(&write("cut.cubin", &real[..cut]), &spec, &[]);
        assert_eq!(o.status.code(), Some(1), "cut at {cut}: {}", stderr(&o));
    }
    // Every other length: a clear error (1 invalid cubin, 2 no kernel `k` in what is left),
    // never a panic.
    for cut in (0..real.len()).step_by(97) {
        let o = run(&write("cut.cubin", &real[..cut]), &spec, &[]);
        assert!(
            matches!(o.status.code(), Some(1 | 2)) && stderr(&o).starts_with("ptxvm: error: "),
            "cut at {cut}: {:?} {}",
            o.status.code(),
            stderr(&o)
        );
    }
}

#[test]
fn malformed_launches_are_usage_errors() {
    let cubin = kernel("launch", "EXIT;");
    let cases: [(&str, &[u8], &str); 5] = [
        ("no-kernel", br#"{"kernel": "nope", "grid": [1], "block": [1], "params": []}"#, "no kernel named `nope`"),
        ("too-few", br#"{"kernel": "k", "grid": [1], "block": [1], "params": []}"#, "takes 1 parameters"),
        ("value-size", br#"{"kernel": "k", "grid": [1], "block": [1], "params": [{"value": 1, "type": "u64"}]}"#, "8 bytes"),
        ("big-block", br#"{"kernel": "k", "grid": [1], "block": [2048], "params": [{"value": 1, "type": "u32"}]}"#, "threads per CTA"),
        ("bad-json", br#"{"kernel": "k", "grid": "#, ""),
    ];
    for (name, spec, needle) in cases {
        let o = run(&cubin, &write(&format!("{name}.json"), spec), &[]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{name}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{name}: {}", stderr(&o));
    }
}
