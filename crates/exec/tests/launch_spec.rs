//! The SPEC.json format and flag sugar: accepted forms, exact integers, and one error per
//! field naming the field.

use exec::{ElemType, LaunchSpec, ParamSpec, RunOptions};
use std::path::Path;

fn parse(t: &str) -> Result<LaunchSpec, String> {
    LaunchSpec::from_json(t, Path::new(".")).map_err(|e| e.to_string())
}

fn err(t: &str) -> String {
    parse(t).expect_err("should fail")
}

#[test]
fn full_spec_parses() {
    let dir = std::env::temp_dir().join(format!("ptxvm-exec-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("in.bin"), [1u8, 2, 3]).unwrap();
    let s = LaunchSpec::from_json(
        r#"{"kernel": "k", "grid": [2, 3], "block": [64, 1, 1], "shared_bytes": 128,
            "params": [{"buffer": {"type": "u32", "data": [1, 2, 3]}},
                       {"buffer": {"type": "f32", "len": 4}},
                       {"buffer": {"type": "u8", "file": "in.bin"}},
                       {"value": 7, "type": "u32"}]}"#,
        &dir,
    )
    .unwrap();
    assert_eq!(s.kernel.as_deref(), Some("k"));
    assert_eq!(s.grid, [2, 3, 1]);
    assert_eq!(s.block, [64, 1, 1]);
    assert_eq!(s.shared_bytes, 128);
    assert_eq!(
        s.params,
        vec![
            ParamSpec::Buffer {
                ty: ElemType::U32,
                bytes: vec![1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0]
            },
            ParamSpec::Zeros {
                ty: ElemType::F32,
                len: 4
            },
            ParamSpec::File {
                ty: ElemType::U8,
                path: dir.join("in.bin"),
                bytes: 3
            },
            ParamSpec::Value {
                ty: ElemType::U32,
                bytes: vec![7, 0, 0, 0]
            },
        ]
    );
}

#[test]
fn integers_are_exact_to_64_bits() {
    let s = parse(
        r#"{"params": [{"value": 18446744073709551615, "type": "u64"},
                                  {"value": -9223372036854775808, "type": "s64"},
                                  {"value": 9007199254740993, "type": "u64"},
                                  {"value": -1, "type": "b16"}]}"#,
    )
    .unwrap();
    let bytes: Vec<Vec<u8>> = s
        .params
        .iter()
        .map(|p| match p {
            ParamSpec::Value { bytes, .. } => bytes.clone(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(bytes[0], u64::MAX.to_le_bytes());
    assert_eq!(bytes[1], i64::MIN.to_le_bytes());
    // 2^53 + 1 is not representable in f64: exactness shows the value never went through it.
    assert_eq!(bytes[2], (9007199254740993u64).to_le_bytes());
    assert_eq!(bytes[3], [0xff, 0xff]);
}

#[test]
fn each_field_error_names_the_field() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"params": [{"buffer": {"type": "u33", "len": 1}}]}"#,
            "params[0].buffer.type: unknown type \"u33\"",
        ),
        (
            r#"{"params": [{"value": 1.5, "type": "u32"}]}"#,
            "params[0].value: expected an integer for .u32, found 1.5",
        ),
        (
            r#"{"params": [{"value": 256, "type": "u8"}]}"#,
            "params[0].value: 256 does not fit in .u8",
        ),
        (
            r#"{"params": [{"value": -1, "type": "u32"}]}"#,
            "params[0].value: -1 is negative but .u32 is unsigned",
        ),
        (
            r#"{"params": [{"value": -129, "type": "s8"}]}"#,
            "params[0].value: -129 does not fit in .s8",
        ),
        (r#"{"params": [{"value": 1}]}"#, "params[0].type: missing"),
        (
            r#"{"params": [{"buffer": {"type": "u32", "data": [1, "x"]}}]}"#,
            "params[0].buffer.data[1]: expected an integer, found a string",
        ),
        (
            r#"{"params": [{"buffer": {"type": "u32"}}]}"#,
            "params[0].buffer: give exactly one of",
        ),
        (
            r#"{"params": [{"buffer": {"type": "u32", "len": 1, "data": []}}]}"#,
            "params[0].buffer: give exactly one of",
        ),
        (
            r#"{"params": [{"buffer": {"type": "u8", "file": "no/such/file.bin"}}]}"#,
            "params[0].buffer.file: cannot read",
        ),
        (
            r#"{"params": [{"buffer": {"type": "u8", "len": -3}}]}"#,
            "params[0].buffer.len: expected a non-negative integer",
        ),
        (
            r#"{"params": [{"buffer": {"type": "u64", "len": 4294967296}}]}"#,
            "params[0].buffer.len: 4294967296 elements exceed",
        ),
        (
            r#"{"params": [{"buffer": {"type": "u8", "len": 1, "colour": 1}}]}"#,
            "params[0].buffer.colour: unknown field",
        ),
        (
            r#"{"params": [{"nothing": 1}]}"#,
            "params[0]: expected \"buffer\" or \"value\"",
        ),
        (
            r#"{"params": [3]}"#,
            "params[0]: expected an object, found a number",
        ),
        (
            r#"{"params": {}}"#,
            "params: expected an array, found an object",
        ),
        (r#"{"grid": [0, 1, 1]}"#, "grid[0]: must be at least 1"),
        (
            r#"{"grid": [1, 1, 1, 1]}"#,
            "grid: expected an array of 1 to 3 positive integers",
        ),
        (
            r#"{"block": [1.5]}"#,
            "block[0]: expected a non-negative integer, found 1.5",
        ),
        (
            r#"{"block": [4294967296]}"#,
            "block[0]: 4294967296 is too large",
        ),
        (
            r#"{"shared_bytes": "lots"}"#,
            "shared_bytes: expected a non-negative integer",
        ),
        (
            r#"{"kernel": 5}"#,
            "kernel: expected a string, found a number",
        ),
        (r#"{"kernal": "k"}"#, "kernal: unknown field"),
        (r#"[1, 2]"#, "the launch spec must be a JSON object"),
        (r#"{"grid": "#, "invalid JSON"),
        (
            r#"{"params": [{"value": "fast", "type": "f32"}]}"#,
            "params[0].value: expected a number, \"nan\"",
        ),
    ];
    for (text, want) in cases {
        let got = err(text);
        assert!(
            got.starts_with(want),
            "for {text}\n got: {got}\nwant: {want}"
        );
    }
}

#[test]
fn floats_and_special_values() {
    let s = parse(
        r#"{"params": [{"buffer": {"type": "f32", "data": [0.1, "nan", "-inf", 3]}},
                                  {"buffer": {"type": "f16", "data": [1.0, 65504, 0.5]}},
                                  {"value": 2.5, "type": "f64"}]}"#,
    )
    .unwrap();
    let ParamSpec::Buffer { bytes, .. } = &s.params[0] else {
        panic!()
    };
    let f: Vec<f32> = bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(f[0], 0.1f32);
    assert!(f[1].is_nan());
    assert_eq!(f[2], f32::NEG_INFINITY);
    assert_eq!(f[3], 3.0);
    let ParamSpec::Buffer { bytes, .. } = &s.params[1] else {
        panic!()
    };
    // IEEE binary16: 1.0 = 0x3c00, 65504 = 0x7bff, 0.5 = 0x3800.
    assert_eq!(bytes, &[0x00, 0x3c, 0xff, 0x7b, 0x00, 0x38]);
    assert_eq!(
        s.params[2],
        ParamSpec::Value {
            ty: ElemType::F64,
            bytes: 2.5f64.to_le_bytes().to_vec()
        }
    );
}

#[test]
fn flag_sugar() {
    let s = LaunchSpec::from_flags(
        Some("k"),
        Some("4,2"),
        Some("256"),
        None,
        &[
            "u32:7".into(),
            "buf:s16:1,-2,3".into(),
            "zeros:f32:3".into(),
            "f32:1.5".into(),
        ],
    )
    .unwrap();
    assert_eq!(s.grid, [4, 2, 1]);
    assert_eq!(s.block, [256, 1, 1]);
    assert_eq!(
        s.params,
        vec![
            ParamSpec::Value {
                ty: ElemType::U32,
                bytes: vec![7, 0, 0, 0]
            },
            ParamSpec::Buffer {
                ty: ElemType::S16,
                bytes: vec![1, 0, 0xfe, 0xff, 3, 0]
            },
            ParamSpec::Zeros {
                ty: ElemType::F32,
                len: 3
            },
            ParamSpec::Value {
                ty: ElemType::F32,
                bytes: 1.5f32.to_le_bytes().to_vec()
            },
        ]
    );
    let e = |g: Option<&str>, b: Option<&str>, a: &[&str]| {
        let a: Vec<String> = a.iter().map(|s| s.to_string()).collect();
        LaunchSpec::from_flags(None, g, b, None, &a)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        e(Some("0"), None, &[]),
        "--grid: \"0\" is not a positive integer"
    );
    assert_eq!(
        e(None, Some("1,2,3,4"), &[]),
        "--block: expected 1 to 3 comma-separated numbers"
    );
    assert_eq!(e(None, None, &["u33:1"]), "--arg[0]: unknown type \"u33\"");
    assert_eq!(
        e(None, None, &["u8:300"]),
        "--arg[0]: 300 does not fit in .u8"
    );
    assert!(e(None, None, &["nonsense"]).starts_with("--arg[0]: expected TYPE:VALUE"));
    assert_eq!(
        e(None, None, &["zeros:u8:x"]),
        "--arg[0]: \"x\" is not a length"
    );
}

#[test]
fn run_vector_add_example_and_json_output() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"));
    let text = std::fs::read_to_string(root.join("vector_add.ptx")).unwrap();
    let src = diag::SourceFile::new("vector_add.ptx", text);
    let (m, _) = check::check_source(&src);
    let spec_text = std::fs::read_to_string(root.join("vector_add.json")).unwrap();
    let spec = LaunchSpec::from_json(&spec_text, root).unwrap();
    let r = exec::run(&m.unwrap(), &src, &spec, &RunOptions::default()).unwrap();
    assert_eq!(r.kernel, "vector_add");
    assert_eq!(r.buffers.len(), 3);
    let c: Vec<f32> = r.buffers[2]
        .bytes()
        .chunks(4)
        .map(|x| f32::from_le_bytes(x.try_into().unwrap()))
        .collect();
    for (i, v) in c.iter().enumerate() {
        assert_eq!(*v, i as f32 * 0.5 + i as f32 * 2.0);
    }
    let j: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(j["kernel"], "vector_add");
    assert_eq!(j["buffers"][2]["param"], 2);
    assert_eq!(j["buffers"][2]["type"], "f32");
    assert_eq!(j["buffers"][2]["data"][3], 7.5);
    assert_eq!(j["buffers"][2]["data"].as_array().unwrap().len(), 1000);
    assert!(j["stats"]["instructions"].as_u64().unwrap() > 0);
    assert!(j["stats"]["seconds"].as_f64().is_some());
    assert_eq!(j.as_object().unwrap().len(), 3);
    let dir = std::env::temp_dir().join(format!("ptxvm-exec-out-{}", std::process::id()));
    r.write_out(&dir).unwrap();
    // numpy's .npy 1.0: magic, version, header length, the dict padded to 64 bytes, the data.
    let npy = std::fs::read(dir.join("param2.npy")).unwrap();
    assert_eq!(&npy[..8], b"\x93NUMPY\x01\x00");
    let hlen = u16::from_le_bytes([npy[8], npy[9]]) as usize;
    assert_eq!((10 + hlen) % 64, 0);
    let dict = std::str::from_utf8(&npy[10..10 + hlen]).unwrap();
    assert!(dict.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }"));
    assert!(dict.ends_with('\n'));
    assert_eq!(&npy[10 + hlen..], &r.buffers[2].bytes()[..]);
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("tmp")), "{names:?}");
}

#[test]
fn json_output_of_u64_and_special_floats_is_exact() {
    let r = exec::RunResult {
        kernel: "k\"q".into(),
        buffers: vec![
            exec::BufferResult::new(0, ElemType::U64, &u64::MAX.to_le_bytes()),
            exec::BufferResult::new(1, ElemType::S32, &(-5i32).to_le_bytes()),
            exec::BufferResult::new(
                3,
                ElemType::F32,
                &[f32::NAN, f32::INFINITY, 0.1]
                    .iter()
                    .flat_map(|x| x.to_le_bytes())
                    .collect::<Vec<u8>>(),
            ),
        ],
        instructions: 42,
        seconds: 0.5,
    };
    let j: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(j["kernel"], "k\"q");
    assert_eq!(j["buffers"][0]["data"][0].as_u64(), Some(u64::MAX));
    assert_eq!(j["buffers"][1]["data"][0].as_i64(), Some(-5));
    assert_eq!(j["buffers"][2]["data"][0], "nan");
    assert_eq!(j["buffers"][2]["data"][1], "inf");
    assert_eq!(
        j["buffers"][2]["data"][2].as_f64().map(|x| x as f32),
        Some(0.1f32)
    );
    assert_eq!(j["stats"]["instructions"], 42);
}

#[test]
fn malformed_specs_never_panic() {
    // A deterministic mini-fuzzer: mutations of a valid spec (byte flips, truncations, token
    // splices) must each give a spec or an error, never a panic.
    let base = r#"{"kernel": "k", "grid": [2, 3], "block": [64, 1, 1], "shared_bytes": 128,
        "params": [{"buffer": {"type": "u32", "data": [1, 2, 3]}},
                   {"buffer": {"type": "f16", "len": 4}},
                   {"value": -7, "type": "s8"}, {"value": "nan", "type": "f32"}]}"#;
    let tokens = [
        "",
        "-",
        "1e400",
        "18446744073709551616",
        "-9223372036854775809",
        "null",
        "[]",
        "{}",
        "\"u64\"",
        "\"f16\"",
        "0.5",
        "\"len\"",
        "\"file\"",
        "\"/\"",
        "[0]",
        "4294967295",
    ];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let bytes = base.as_bytes();
    for _ in 0..4000 {
        let mut v = bytes.to_vec();
        match next() % 3 {
            0 => {
                let i = (next() as usize) % v.len();
                v[i] = next() as u8;
            }
            1 => v.truncate((next() as usize) % v.len()),
            _ => {
                let i = (next() as usize) % v.len();
                let t = tokens[(next() as usize) % tokens.len()];
                v.splice(i..i, t.bytes());
            }
        }
        let text = String::from_utf8_lossy(&v);
        let _ = LaunchSpec::from_json(&text, Path::new("/nonexistent-dir"));
        let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        let _ = LaunchSpec::from_flags(
            None,
            words.first().map(String::as_str),
            words.get(1).map(String::as_str),
            None,
            &words,
        );
    }
}
