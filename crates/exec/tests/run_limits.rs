//! Limits that hold: device memory checked before allocating, sizes that cannot wrap, a grid
//! thread cap, a fast stop after the first fault, and `file` buffers that must be regular.

mod common;

use common::{cfg, load, read_u32};
use exec::{Arg, ExecError, LaunchSpec, ParamSpec, RunOptions};
use std::path::Path;

const HEADER: &str = ".version 7.0\n.target sm_61\n.address_size 64\n";

fn module(text: &str) -> (ir::Module, diag::SourceFile) {
    let src = diag::SourceFile::new("t.ptx", text);
    let (m, diags) = check::check_source(&src);
    assert!(!diag::has_errors(&diags), "{}", diag::render(&src, &diags));
    (m.unwrap(), src)
}

/// `k(p)`: does nothing with its buffer.
fn nop_kernel() -> String {
    format!("{HEADER}.visible .entry k(.param .u64 p)\n{{\n\tret;\n}}\n")
}

#[test]
fn device_memory_is_checked_before_allocating() {
    let (m, src) = module(&nop_kernel());
    let spec = LaunchSpec::from_json(
        r#"{"params": [{"buffer": {"type": "u32", "len": 1000}}]}"#,
        Path::new("."),
    )
    .unwrap();
    let opts = RunOptions {
        mem_limit: 3999,
        ..RunOptions::default()
    };
    let e = exec::run(&m, &src, &spec, &opts).unwrap_err();
    let ExecError::Launch(msg) = &e else {
        panic!("{e}")
    };
    assert!(msg.contains("need 4000 bytes"), "{msg}");
    // Exactly enough is enough.
    let opts = RunOptions {
        mem_limit: 4000,
        ..RunOptions::default()
    };
    let r = exec::run(&m, &src, &spec, &opts).unwrap();
    assert_eq!(r.buffers[0].bytes(), vec![0u8; 4000]);
}

#[test]
fn a_huge_len_is_no_allocation_until_launch() {
    // 2^30 u32 elements = 4 GiB: accepted by the spec (nothing allocated), refused at launch
    // by the default 2 GiB device budget without touching host memory.
    let spec = LaunchSpec::from_json(
        r#"{"params": [{"buffer": {"type": "u32", "len": 1073741824}}]}"#,
        Path::new("."),
    )
    .unwrap();
    assert_eq!(
        spec.params[0],
        ParamSpec::Zeros {
            ty: exec::ElemType::U32,
            len: 1 << 30
        }
    );
    let (m, src) = module(&nop_kernel());
    let e = exec::run(&m, &src, &spec, &RunOptions::default()).unwrap_err();
    assert!(e.to_string().contains("need 4294967296 bytes"), "{e}");
    // Past the 4 GiB address space the spec itself is refused, naming the field.
    let e = LaunchSpec::from_json(
        r#"{"params": [{"buffer": {"type": "u64", "len": 1073741824}}]}"#,
        Path::new("."),
    )
    .unwrap_err();
    assert_eq!(e.field, "params[0].buffer.len");
}

#[test]
fn file_buffers_must_be_regular_files() {
    for (path, what) in [
        ("/dev/urandom", "not a regular file"),
        ("/", "not a regular file"),
    ] {
        let text = format!(r#"{{"params": [{{"buffer": {{"type": "u8", "file": "{path}"}}}}]}}"#);
        let e = LaunchSpec::from_json(&text, Path::new(".")).unwrap_err();
        assert_eq!(e.field, "params[0].buffer.file");
        assert!(e.message.contains(what), "{e}");
    }
}

#[test]
fn file_buffers_stream_into_device_memory() {
    let dir = std::env::temp_dir().join(format!("ptxvm-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // 3 MiB + 3 bytes: several 1 MiB pieces and an unaligned tail.
    let data: Vec<u8> = (0..(3u32 << 20) + 3).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(dir.join("in.bin"), &data).unwrap();
    let spec = LaunchSpec::from_json(
        r#"{"params": [{"buffer": {"type": "u8", "file": "in.bin"}}]}"#,
        &dir,
    )
    .unwrap();
    let (m, src) = module(&nop_kernel());
    let r = exec::run(&m, &src, &spec, &RunOptions::default()).unwrap();
    assert!(r.buffers[0].bytes() == data);
}

#[test]
fn data_arrays_parse_straight_into_bytes_and_name_the_element() {
    let s = LaunchSpec::from_json(
        r#"{"params": [{"buffer": {"type": "s16", "data": [-1, 2, 32767]}}]}"#,
        Path::new("."),
    )
    .unwrap();
    assert_eq!(
        s.params[0],
        ParamSpec::Buffer {
            ty: exec::ElemType::S16,
            bytes: vec![0xff, 0xff, 2, 0, 0xff, 0x7f]
        }
    );
    let e = |t: &str| {
        LaunchSpec::from_json(t, Path::new("."))
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e(r#"{"params": [{"buffer": {"type": "u8", "data": [1, 2, 256]}}]}"#),
        "params[0].buffer.data[2]: 256 does not fit in .u8"
    );
    assert_eq!(
        e(r#"{"params": [{"buffer": {"type": "u8", "data": [1, [2]]}}]}"#),
        "params[0].buffer.data[1]: expected an integer, found an array"
    );
    assert_eq!(
        e(r#"{"params": [{"buffer": {"type": "u8", "data": "abc"}}]}"#),
        "params[0].buffer.data: expected an array, found a string"
    );
}

#[test]
fn grid_threads_are_capped() {
    let (dev, m) = load("t.ptx", &nop_kernel());
    let p = Arg::u64(0);
    // 65536 * 65536 * 1 CTAs of 1024 threads = 2^42 threads.
    let e = dev
        .launch(
            &m,
            "k",
            &cfg([65536, 65536, 1], [1024, 1, 1]),
            std::slice::from_ref(&p),
            &RunOptions::default(),
        )
        .unwrap_err();
    assert!(e.to_string().contains("2^40"), "{e}");
}

#[test]
fn shared_and_local_sizes_of_4_gib_do_not_wrap() {
    // 2^32 + 16 bytes of .shared would be 16 bytes modulo 2^32.
    let text = format!(
        "{HEADER}.visible .entry k(.param .u64 p)\n{{\n\t.shared .align 4 .b8 s[4294967312];\n\tret;\n}}\n"
    );
    let (dev, m) = load("t.ptx", &text);
    let e = dev
        .launch(
            &m,
            "k",
            &cfg([1, 1, 1], [1, 1, 1]),
            &[Arg::u64(0)],
            &RunOptions::default(),
        )
        .unwrap_err();
    assert!(matches!(e, ExecError::Launch(_)), "{e}");
    assert!(e.to_string().contains("shared memory"), "{e}");

    let text = format!(
        "{HEADER}.visible .entry k(.param .u64 p)\n{{\n\t.local .align 4 .b8 l[4294967312];\n\tret;\n}}\n"
    );
    let src = diag::SourceFile::new("t.ptx", text.as_str());
    let (m, _) = check::check_source(&src);
    let mut dev = exec::Device::new();
    let e = dev.load(&m.unwrap(), &src).unwrap_err();
    assert!(e.message.contains(".local memory per thread"), "{e}");
}

#[test]
fn ctas_after_the_first_fault_are_not_run() {
    // Every CTA marks out[ctaid] = 1; CTA 0 then traps. Of 2^20 CTAs, only those already
    // claimed by a worker when the fault happened may run.
    let text = format!(
        "{HEADER}.visible .entry k(.param .u64 p)\n{{\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<3>;\n\t.reg .pred %q;\n\
         \tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %ctaid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n\
         \tadd.s64 %rd3, %rd1, %rd2;\n\tmov.u32 %r2, 1;\n\tst.global.u32 [%rd3], %r2;\n\
         \tsetp.eq.u32 %q, %r1, 0;\n\t@%q trap;\n\tret;\n}}\n"
    );
    let (mut dev, m) = load("t.ptx", &text);
    let n = 1u32 << 20;
    let out = dev.alloc(n as u64 * 4).unwrap();
    let opts = RunOptions {
        threads: 2,
        ..RunOptions::default()
    };
    let e = dev
        .launch(&m, "k", &cfg([n, 1, 1], [1, 1, 1]), &[Arg::ptr(out)], &opts)
        .unwrap_err();
    let f = e.fault().expect("a fault");
    assert_eq!(f.ctaid, [0, 0, 0]);
    let ran = read_u32(&dev, out, n as usize)
        .iter()
        .filter(|&&x| x == 1)
        .count();
    assert!(
        (1..=64).contains(&ran),
        "{ran} CTAs ran after a fault in CTA 0"
    );
}

#[test]
fn sub_word_buffers_read_back_exactly() {
    // 7 s16 elements = 14 bytes: the last device word is half padding.
    let spec = LaunchSpec::from_json(
        r#"{"params": [{"buffer": {"type": "s16", "data": [-1, 2, -3, 4, -5, 6, -32768]}}]}"#,
        Path::new("."),
    )
    .unwrap();
    let (m, src) = module(&nop_kernel());
    let r = exec::run(&m, &src, &spec, &RunOptions::default()).unwrap();
    let b = &r.buffers[0];
    assert_eq!(b.len(), 14);
    let want: Vec<u8> = [-1i16, 2, -3, 4, -5, 6, -32768]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    assert_eq!(b.bytes(), want);
    let j: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(
        j["buffers"][0]["data"],
        serde_json::json!([-1, 2, -3, 4, -5, 6, -32768])
    );
    assert!(
        r.summary().contains("[-1, 2, -3, 4, -5, 6, -32768]"),
        "{}",
        r.summary()
    );
}
