//! `ptxvm run k.ptx --launch spec.json` with the spec's `"textures"`: bound by a `.texref`'s
//! name or by unit (texture objects), texels inline or from a file, and the errors that name
//! the field. Expected texels are computed here: element `x + W*(y + H*z)` of the data, the
//! coordinates clamped to the edges (PTX ISA §9.7.10.3 with ptxvm's sampler,
//! docs/spec-notes.md "textures").

mod common;
use common::{ptxvm, scratch_dir};

use serde_json::Value;
use std::path::{Path, PathBuf};

/// Four channels of texel `i` of a texture tagged `tag`: distinct words everywhere.
fn texel(tag: u32, i: u32) -> [u32; 4] {
    [0, 1, 2, 3].map(|c| tag.wrapping_mul(0x9e37_79b9) ^ (i * 4 + c).wrapping_mul(0x85eb_ca6b))
}

fn texels(tag: u32, n: u32) -> Vec<u32> {
    (0..n).flat_map(|i| texel(tag, i)).collect()
}

/// Texel of `dims` at `c`, each coordinate clamped to its axis (integer coordinates).
fn fetch(tag: u32, dims: [u32; 3], c: [i32; 3], used: usize) -> [u32; 4] {
    let mut idx = 0u32;
    let mut stride = 1u32;
    for k in 0..used {
        let n = dims[k] as i32;
        idx += c[k].clamp(0, n - 1) as u32 * stride;
        stride *= dims[k];
    }
    texel(tag, idx)
}

fn list(v: &[u32]) -> String {
    let s: Vec<String> = v.iter().map(u32::to_string).collect();
    format!("[{}]", s.join(", "))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run_json(kernel: &str, spec: &Path, extra: &[&str]) -> Value {
    let mut args = vec!["run", kernel, "--launch", spec.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let o = ptxvm(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

fn buffer(v: &Value, param: u64) -> Vec<u32> {
    let b = v["buffers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["param"] == param)
        .unwrap();
    b["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

const COORDS: [[i32; 3]; 8] = [
    [0, 0, 0],
    [1, 2, 1],
    [-5, 3, 2],
    [36, 6, 2],
    [40, 9, -1],
    [4, -1, 7],
    [8, 1, 0],
    [2, 5, 1],
];

#[test]
fn texrefs_bound_by_name_inline_and_from_a_file() {
    let dir = scratch_dir("run-textures");
    let (d1, d2, d3) = ([37u32, 1, 1], [9u32, 7, 1], [5u32, 4, 3]);
    // tex3d's texels come from a file (little-endian u32 words).
    let t3: Vec<u8> = texels(3, 60).iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(dir.join("tex3d.bin"), t3).unwrap();
    let coords: Vec<i32> = COORDS.iter().flatten().copied().collect();
    let n = COORDS.len() as u32;
    // The spec lists the textures out of declaration order: names, not positions, bind.
    let spec = format!(
        r#"{{"kernel": "tex_fetch", "grid": 1, "block": 32,
            "params": [{{"buffer": {{"type": "s32", "data": {coords:?}}}}},
                       {{"buffer": {{"type": "u32", "len": {out}}}}},
                       {{"value": {n}, "type": "u32"}}],
            "textures": [
              {{"name": "tex3d", "geometry": "3d", "type": "u32", "channels": 4,
                "width": 5, "height": 4, "depth": 3, "file": "tex3d.bin"}},
              {{"name": "tex1d", "geometry": "1d", "type": "u32", "channels": 4,
                "width": 37, "address": "clamp", "filter": "point", "normalized": false,
                "data": {t1}}},
              {{"name": "tex2d", "geometry": "2d", "type": "u32", "channels": 4,
                "width": 9, "height": 7, "data": {t2}}}]}}"#,
        out = 16 * n,
        t1 = list(&texels(1, 37)),
        t2 = list(&texels(2, 63)),
    );
    let p = write(&dir, "spec.json", &spec);
    let out = run_json("tests/kernels/textures.ptx", &p, &[]);
    let got = buffer(&out, 1);
    for (g, c) in COORDS.iter().enumerate() {
        let rec = &got[16 * g..16 * g + 16];
        assert_eq!(rec[0..4], fetch(1, d1, *c, 1), "tex1d at {c:?}");
        assert_eq!(rec[4..8], fetch(2, d2, *c, 2), "tex2d at {c:?}");
        assert_eq!(rec[8..12], fetch(3, d3, *c, 3), "tex3d at {c:?}");
        // Float coordinates x + 0.75, y + 0.25 floor to (x, y).
        assert_eq!(
            rec[12..16],
            fetch(2, d2, *c, 2),
            "tex2d at {c:?} + (0.75, 0.25)"
        );
    }
}

#[test]
fn texture_objects_bound_by_unit() {
    let dir = scratch_dir("run-textures");
    let coords: Vec<i32> = COORDS.iter().flat_map(|c| [c[0], c[1]]).collect();
    let n = COORDS.len();
    let units: Vec<String> = (0..3)
        .map(|u| {
            format!(
                r#"{{"unit": {u}, "type": "u32", "channels": 4, "width": {w}, "data": {d}}}"#,
                w = 5 + u,
                d = list(&texels(10 + u, 5 + u))
            )
        })
        .collect();
    let spec = format!(
        r#"{{"kernel": "tex_objects", "grid": 1, "block": 32,
            "params": [{{"buffer": {{"type": "s32", "data": {coords:?}}}}},
                       {{"buffer": {{"type": "u32", "len": {out}}}}},
                       {{"value": {n}, "type": "u32"}},
                       {{"value": 7, "type": "u64"}}],
            "textures": [{units},
              {{"unit": 7, "geometry": "2d", "type": "f32", "channels": 4, "width": 3,
                "height": 2, "data": {t2}}}]}}"#,
        out = 12 * n,
        units = units.join(", "),
        t2 = list(
            &texels(20, 6)
                .iter()
                .map(|&w| w & 0xffff)
                .collect::<Vec<_>>()
        ),
    );
    let p = write(&dir, "objects.json", &spec);
    let got = buffer(&run_json("tests/kernels/texture_objects.ptx", &p, &[]), 1);
    for (g, c) in COORDS.iter().enumerate() {
        let rec = &got[12 * g..12 * g + 12];
        // An f32 texture's data given as integers is their f32 bits, returned unconverted.
        let want2: [u32; 4] = fetch(20, [3, 2, 1], *c, 2).map(|w| ((w & 0xffff) as f32).to_bits());
        assert_eq!(rec[0..4], want2, "unit 7 at {c:?}");
        let u = g as u32 % 3;
        assert_eq!(rec[4..8], fetch(10 + u, [5 + u, 1, 1], *c, 1), "unit {u}");
        assert_eq!(rec[8..12], [3, 2, 5 + u, 0], "txq");
    }
}

#[test]
fn texture_errors_name_the_field() {
    let dir = scratch_dir("run-textures");
    let base = r#""kernel": "tex_fetch", "grid": 1, "block": 1,
        "params": [{"buffer": {"type": "s32", "data": [0, 0, 0]}},
                   {"buffer": {"type": "u32", "len": 16}}, {"value": 1, "type": "u32"}]"#;
    let run = |name: &str, textures: &str, extra: &[&str]| {
        let p = write(&dir, name, &format!("{{{base}, \"textures\": {textures}}}"));
        let mut args = vec!["run", "tests/kernels/textures.ptx", "--launch"];
        args.push(p.to_str().unwrap());
        args.extend_from_slice(extra);
        let o = ptxvm(&args);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, err) = run(
        "no-such.json",
        r#"[{"name": "texture9", "type": "u32", "width": 1, "data": [1]}]"#,
        &[],
    );
    assert_ne!(code, Some(0));
    assert!(
        err.contains("textures[0].name: the module has no .tex/.texref variable `texture9`"),
        "{err}"
    );
    let (code, err) = run(
        "wrap.json",
        r#"[{"name": "tex1d", "type": "u32", "width": 1, "address": "wrap", "data": [1]}]"#,
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("textures[0].address: \"wrap\" is not supported"),
        "{err}"
    );
    let (code, err) = run(
        "dir.json",
        r#"[{"name": "tex1d", "type": "u32", "width": 1, "file": "."}]"#,
        &[],
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("textures[0].file:") && err.contains("not a regular file"),
        "{err}"
    );
    // 4 Mi texels of 4 bytes are 16 MiB: over a 1 MiB device memory limit before any read.
    let (code, err) = run(
        "big.json",
        r#"[{"name": "tex1d", "type": "u32", "width": 4194304, "file": "big.bin"}]"#,
        &[],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("textures[0].file:"), "{err}");
    let f = std::fs::File::create(dir.join("big.bin")).unwrap();
    f.set_len(16 << 20).unwrap();
    let (code, err) = run(
        "big2.json",
        r#"[{"name": "tex1d", "type": "u32", "width": 4194304, "file": "big.bin"}]"#,
        &["--mem-limit", "1M"],
    );
    assert_ne!(code, Some(0));
    assert!(err.contains("need 16777292 bytes"), "{err}");
}
