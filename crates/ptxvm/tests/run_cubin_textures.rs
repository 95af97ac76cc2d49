//! Textures on the Fermi executor: `TEX`, `TLD` (1D array, 2D, 3D, cube) and `TXQ` in a
//! hand-assembled sm_20 kernel (`tests/kernels/textures_sm20.sass`) run with a launch spec's
//! `"textures"`, against the same kernel in PTX (`textures_sm20.ptx`) run with the same spec:
//! the two buffers must be identical, and equal to the texels computed here (element
//! `x + W*(y + H*z)`, coordinates clamped to the edges; the cube face from the CUDA
//! programming guide's cube-map table).

mod common;
use common::{ptxvm, repo_root, scratch_dir};

use serde_json::Value;
use std::path::{Path, PathBuf};

const THREADS: i32 = 64;

/// Word `c` of texel `i` of texture `tag`: distinct everywhere.
fn word(tag: u32, i: u32, channels: u32, c: u32) -> u32 {
    (tag << 24) ^ (i * channels + c).wrapping_mul(0x9e37_79b9) >> 8
}

fn data(tag: u32, texels: u32, channels: u32) -> String {
    let w: Vec<String> = (0..texels * channels)
        .map(|k| word(tag, k / channels, channels, k % channels).to_string())
        .collect();
    format!("[{}]", w.join(", "))
}

// Extents: t0 2D 5x3 (4 channels), t1 1D array 4 wide x 2 layers (3 channels),
// t2 3D 3x2x2 (2 channels), t3 a cube map 2 texels wide (1 channel).
const T0: [u32; 2] = [5, 3];
const T1: u32 = 4;
const T2: [u32; 3] = [3, 2, 2];
const T3: u32 = 2;

fn spec_text(textures: &str) -> String {
    format!(
        r#"{{"kernel": "tex_sm20", "grid": 1, "block": {THREADS},
            "params": [{{"buffer": {{"type": "u32", "len": {len}}}}}],
            "textures": {textures}}}"#,
        len = 16 * THREADS
    )
}

fn all_textures() -> String {
    format!(
        r#"[{{"unit": 0, "geometry": "2d", "type": "u32", "channels": 4, "width": 5,
              "height": 3, "data": {d0}}},
            {{"unit": 1, "geometry": "a1d", "type": "u32", "channels": 3, "width": 4,
              "layers": 2, "data": {d1}}},
            {{"unit": 2, "geometry": "3d", "type": "u32", "channels": 2, "width": 3,
              "height": 2, "depth": 2, "data": {d2}}},
            {{"unit": 3, "geometry": "cube", "type": "u32", "width": 2, "data": {d3}}}]"#,
        d0 = data(0, 15, 4),
        d1 = data(1, 8, 3),
        d2 = data(2, 12, 2),
        d3 = data(3, 24, 1),
    )
}

fn clamp(c: i32, n: u32) -> u32 {
    c.clamp(0, n as i32 - 1) as u32
}

/// The cube-map table: face and (s, t) in [0, 1] of direction (x, y, z); ties go to x,
/// then y.
fn cube(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x >= 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z >= 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    (face, (sc / ma + 1.0) / 2.0, (tc / ma + 1.0) / 2.0)
}

/// What thread `g` writes (see the kernel's header comment).
fn expected(g: i32) -> [u32; 16] {
    let (x, y, layer) = (g - 4, g >> 3, g & 1);
    let mut r = [0u32; 16];
    let i0 = clamp(x, T0[0]) + T0[0] * clamp(y, T0[1]);
    for c in 0..4 {
        r[c as usize] = word(0, i0, 4, c);
        r[4 + c as usize] = word(0, i0, 4, c);
    }
    let i1 = clamp(x, T1) + T1 * layer as u32;
    r[8] = word(1, i1, 3, 0);
    r[9] = word(1, i1, 3, 2);
    r[10..14].copy_from_slice(&[T0[0], T0[1], 1, 1]);
    let i2 = clamp(x, T2[0]) + T2[0] * (clamp(y, T2[1]) + T2[1] * clamp(layer, T2[2]));
    r[14] = word(2, i2, 2, 1);
    let (face, s, t) = cube(x as f32 + 0.5, y as f32 + 0.25, -0.5);
    let texel = |u: f32| clamp((u * T3 as f32).floor() as i32, T3);
    r[15] = word(3, texel(s) + T3 * (texel(t) + T3 * face), 1, 0);
    r
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let p = scratch_dir("run-cubin-textures").join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn cubin() -> PathBuf {
    let out = scratch_dir("run-cubin-textures").join("textures_sm20.cubin");
    let src = repo_root().join("tests/kernels/textures_sm20.sass");
    let o = ptxvm(&["asm", src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

fn run(kernel: &Path, spec: &Path) -> std::process::Output {
    ptxvm(&[
        "run",
        kernel.to_str().unwrap(),
        "--launch",
        spec.to_str().unwrap(),
        "--json",
    ])
}

fn words(o: &std::process::Output) -> Vec<u32> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    v["buffers"][0]["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as u32)
        .collect()
}

#[test]
fn the_cubin_and_the_ptx_fetch_the_same_texels() {
    let spec = scratch("all.json", &spec_text(&all_textures()));
    let sass = words(&run(&cubin(), &spec));
    let ptx = words(&run(
        &repo_root().join("tests/kernels/textures_sm20.ptx"),
        &spec,
    ));
    assert_eq!(
        sass, ptx,
        "the Fermi executor and the PTX executor disagree"
    );
    for g in 0..THREADS {
        let u = g as usize;
        assert_eq!(sass[16 * u..16 * u + 16], expected(g), "thread {g}");
    }
}

#[test]
fn cubin_texture_faults_and_launch_errors() {
    let k = cubin();
    // Unit 2 left unbound: the TLD of unit 2 faults, naming the unit and the instruction.
    let partial = all_textures().replace(r#""unit": 2,"#, r#""unit": 9,"#);
    let o = run(&k, &scratch("unbound.json", &spec_text(&partial)));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("texture unit 2 has no texture bound"), "{err}");
    assert!(err.contains("TLD.LZ.T R35, R32, 0x2, 3D, 0x2"), "{err}");
    // A cubin's textures are bound by unit; a name is refused, naming the field.
    let named = all_textures().replace(r#""unit": 0,"#, r#""name": "t0","#);
    let o = run(&k, &scratch("named.json", &spec_text(&named)));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("textures[0].name: a cubin's textures are bound by \"unit\""),
        "{err}"
    );
}

/// Assembles `body` as kernel `tex_sm20` (one 32-bit parameter) and runs it with every
/// texture bound; returns the exit code and stderr.
fn run_body(name: &str, body: &str) -> (Option<i32>, String) {
    let src = format!("!Machine 32\n!Kernel tex_sm20\n!Param 4\n{body}\nEXIT;\n!EndKernel\n");
    let sass = scratch(&format!("{name}.sass"), &src);
    let out = scratch_dir("run-cubin-textures").join(format!("{name}.cubin"));
    let o = ptxvm(&["asm", sass.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(
        &out,
        &scratch(&format!("{name}.json"), &spec_text(&all_textures())),
    );
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn forms_outside_the_texture_model_fault_by_name() {
    let cases = [
        (
            "txq_type",
            "TXQ.T R0, RZ, 0x0, TEX_HEADER_TEXTURE_TYPE, 0x1;",
            "TXQ query 1",
        ),
        (
            "aoffi",
            "TLD.LZ.AOFFI.T R0, R2, R3, 0x0, 2D, 0x1;",
            "TLD with modifier .AOFFI",
        ),
        (
            "level",
            "MOV32I R4, 0x1;\nTLD.LL.T R0, R2, R4, 0x0, 2D, 0x1;",
            "TLD.LL of level 1",
        ),
    ];
    for (name, body, needle) in cases {
        let (code, err) = run_body(name, body);
        assert_eq!(code, Some(3), "{name}: {err}");
        assert!(
            err.contains(needle),
            "{name}: `{needle}` missing from {err}"
        );
    }
    // Level 0 through .LL is the one level a bound texture has.
    let (code, err) = run_body("level0", "TLD.LL.T R0, R2, RZ, 0x0, 2D, 0x1;");
    assert_eq!(code, Some(0), "{err}");
}
