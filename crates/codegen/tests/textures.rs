//! `tex`/`txq` → `TEX`/`TLD`/`TXQ`: the repository's texture kernels and an edge kernel run on
//! both executors with one launch spec (textures bound by unit, the unit being the variable's
//! `texture_slot`), buffers identical bit for bit; the edge kernel's buffer is also checked
//! against texels computed here (element `x + W*(y + H*layer)`, coordinates and layers clamped
//! to the edges, ptx-isa §9.7.10.3 with ptxvm's clamp-to-edge sampler).

mod common;
use common::{compile, disassembly, run_both, words};
use exec::LaunchSpec;

/// Word `c` of texel `i` of texture `tag`: distinct everywhere.
fn word(tag: u32, i: u32, channels: u32, c: u32) -> u32 {
    (tag << 24) ^ ((i * channels + c).wrapping_mul(0x9e37_79b9) >> 8)
}

fn data(tag: u32, texels: u32, channels: u32) -> String {
    let w: Vec<String> = (0..texels * channels)
        .map(|k| word(tag, k / channels, channels, k % channels).to_string())
        .collect();
    format!("[{}]", w.join(", "))
}

fn launch(kernel: &str, threads: u32, params: &str, textures: &str) -> LaunchSpec {
    let text = format!(
        r#"{{"kernel": "{kernel}", "grid": 1, "block": {threads}, "params": [{params}],
            "textures": [{textures}]}}"#
    );
    LaunchSpec::from_json(&text, std::path::Path::new("."))
        .unwrap_or_else(|e| panic!("{kernel}: bad launch spec: {e:?}"))
}

fn kernel(name: &str) -> String {
    let p = format!("{}/../../tests/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

/// Integer coordinates around and past every edge (and the extremes of s32).
const EDGES: [i32; 12] = [0, 1, 2, -1, 3, 4, 5, 7, -7, 0x1_0000, i32::MIN, i32::MAX];

fn coords(n: usize, per: usize) -> String {
    let v: Vec<String> = (0..n * per)
        .map(|k| EDGES[(k * 7 + k / per) % EDGES.len()].to_string())
        .collect();
    format!(
        r#"{{"buffer": {{"type": "s32", "data": [{}]}}}}"#,
        v.join(", ")
    )
}

fn out(len: usize) -> String {
    format!(r#"{{"buffer": {{"type": "u32", "len": {len}}}}}"#)
}

#[test]
fn repository_texture_kernels_agree() {
    const N: usize = 48;
    let t2d = |unit: u32, tag: u32| {
        format!(
            r#"{{"unit": {unit}, "geometry": "2d", "type": "u32", "channels": 4, "width": 5,
                "height": 3, "data": {}}}"#,
            data(tag, 15, 4)
        )
    };
    let t1d = format!(
        r#"{{"unit": 0, "geometry": "1d", "type": "u32", "channels": 4, "width": 6,
            "data": {}}}"#,
        data(7, 6, 4)
    );
    let t3d = format!(
        r#"{{"unit": 2, "geometry": "3d", "type": "u32", "channels": 4, "width": 3, "height": 2,
            "depth": 4, "data": {}}}"#,
        data(9, 24, 4)
    );
    let n = format!(r#"{{"value": {N}, "type": "u32"}}"#);
    // textures.ptx and textures_ptx11.ptx: 1D, 2D, 3D by integer coordinates, 2D by float.
    let three = [t1d.clone(), t2d(1, 8), t3d.clone()].join(", ");
    for (file, name, per) in [
        ("textures.ptx", "tex_fetch", 16),
        ("textures_ptx11.ptx", "tex_fetch11", 12),
    ] {
        let spec = launch(
            name,
            N as u32,
            &[coords(N, 3), out(per * N), n.clone()].join(", "),
            &three,
        );
        run_both(file, &kernel(file), &spec);
    }
    // textures_array.ptx: 1D and 2D arrays, integer and float coordinates.
    let arrays = format!(
        r#"{{"unit": 0, "geometry": "a1d", "type": "u32", "channels": 4, "width": 4, "layers": 3,
            "data": {}}},
           {{"unit": 1, "geometry": "a2d", "type": "u32", "channels": 4, "width": 3,
            "height": 2, "layers": 3, "data": {}}}"#,
        data(3, 12, 4),
        data(4, 18, 4)
    );
    let spec = launch(
        "tex_array",
        N as u32,
        &[coords(N, 3), out(12 * N), n.clone()].join(", "),
        &arrays,
    );
    run_both("textures_array.ptx", &kernel("textures_array.ptx"), &spec);
    // textures_cube.ptx: a cube map and a cube-map array by direction.
    let dirs: Vec<String> = (0..3 * N)
        .map(|k| {
            let v = [
                0.5f32, -0.5, 1.0, -1.0, 0.25, 2.0, -3.0, 0.0, -0.0, 0.75, -0.125, 5.0, 1e-3,
            ];
            format!("{:?}", v[(k * 5 + k / 3) % v.len()])
        })
        .collect();
    let cubes = format!(
        r#"{{"unit": 0, "geometry": "cube", "type": "u32", "channels": 4, "width": 2,
            "data": {}}},
           {{"unit": 1, "geometry": "acube", "type": "u32", "channels": 4, "width": 2,
            "layers": 3, "data": {}}}"#,
        data(5, 24, 4),
        data(6, 72, 4)
    );
    let spec = launch(
        "tex_cube",
        N as u32,
        &[
            format!(
                r#"{{"buffer": {{"type": "f32", "data": [{}]}}}}"#,
                dirs.join(", ")
            ),
            out(8 * N),
            n,
        ]
        .join(", "),
        &cubes,
    );
    run_both("textures_cube.ptx", &kernel("textures_cube.ptx"), &spec);
    // textures_sm20.ptx: the PTX twin of the hand-assembled Fermi texture kernel.
    let sm20 = format!(
        r#"{{"unit": 0, "geometry": "2d", "type": "u32", "channels": 4, "width": 5,
            "height": 3, "data": {}}},
           {{"unit": 1, "geometry": "a1d", "type": "u32", "channels": 3, "width": 4,
            "layers": 2, "data": {}}},
           {{"unit": 2, "geometry": "3d", "type": "u32", "channels": 2, "width": 3,
            "height": 2, "depth": 2, "data": {}}},
           {{"unit": 3, "geometry": "cube", "type": "u32", "width": 2, "data": {}}}"#,
        data(0, 15, 4),
        data(1, 8, 3),
        data(2, 12, 2),
        data(3, 24, 1)
    );
    let spec = launch("tex_sm20", 64, &out(16 * 64), &sm20);
    run_both("textures_sm20.ptx", &kernel("textures_sm20.ptx"), &spec);
    // tests/run/texture.ptx: PTX 1.5 `.tex` variables, 32-bit addresses.
    let run = format!(
        r#"{{"unit": 0, "geometry": "1d", "type": "u32", "width": 30, "data": {}}},
           {{"unit": 1, "geometry": "2d", "type": "u32", "channels": 2, "width": 20,
            "height": 10, "data": {}}}"#,
        data(10, 30, 1),
        data(11, 200, 2)
    );
    let p = format!("{}/../../tests/run/texture.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let spec = launch("fetch", N as u32, &out(8 * N), &run);
    run_both("texture.ptx", &text, &spec);
}

/// Layers outside 16 bits, negative layers, discarded channels (`_`), a guarded fetch and the
/// four dimension queries; every thread `g` uses `layer = L[g]`, `x = X[g]`.
const EDGE_KERNEL: &str = r#"
.version 7.0
.target sm_20
.address_size 64
.global .texref a1;
.global .texref a2;
.global .texref ac;
.visible .entry tex_edges(.param .u64 pl, .param .u64 px, .param .u64 pout)
{
    .reg .b32 %r<40>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<8>;
    .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    ld.param.u64 %rd1, [pl];
    ld.param.u64 %rd2, [px];
    ld.param.u64 %rd3, [pout];
    mul.wide.u32 %rd4, %r1, 4;
    add.s64 %rd5, %rd1, %rd4;
    ld.global.u32 %r2, [%rd5];
    add.s64 %rd5, %rd2, %rd4;
    ld.global.u32 %r3, [%rd5];
    mul.wide.u32 %rd4, %r1, 40;
    add.s64 %rd6, %rd3, %rd4;
    tex.a1d.v4.u32.s32 {%r10, _, %r11, _}, [a1, {%r2, %r3}];
    st.global.u32 [%rd6], %r10;
    st.global.u32 [%rd6+4], %r11;
    tex.a2d.v4.u32.s32 {_, %r12, _, _}, [a2, {%r2, %r3, 1, 0}];
    st.global.u32 [%rd6+8], %r12;
    cvt.rn.f32.s32 %f1, %r3;
    add.f32 %f1, %f1, 0f3F400000;
    tex.a2d.v4.u32.f32 {%r13, _, _, %r14}, [a2, {%r2, %f1, 0f3F800000, 0f00000000}];
    st.global.u32 [%rd6+12], %r13;
    st.global.u32 [%rd6+16], %r14;
    tex.acube.v4.u32.f32 {%r15, _, _, _}, [ac, {%r2, %f1, 0f3F000000, 0fBF800000}];
    st.global.u32 [%rd6+20], %r15;
    mov.u32 %r16, 77;
    setp.lt.s32 %p1, %r3, 2;
    @%p1 tex.a1d.v4.u32.s32 {_, %r16, _, _}, [a1, {%r3, %r2}];
    st.global.u32 [%rd6+24], %r16;
    txq.width.b32 %r17, [a2];
    txq.height.b32 %r18, [a2];
    txq.depth.b32 %r19, [a2];
    txq.num_mipmap_levels.b32 %r20, [ac];
    add.s32 %r17, %r17, %r18;
    st.global.u32 [%rd6+28], %r17;
    st.global.u32 [%rd6+32], %r19;
    st.global.u32 [%rd6+36], %r20;
    ret;
}
"#;

#[test]
fn layers_channels_guards_and_queries_at_the_edges() {
    let layers = [
        0,
        1,
        2,
        3,
        -1,
        0xffff,
        0x1_0000,
        0x1_0001,
        i32::MIN,
        i32::MAX,
        -0x1_0000,
        7,
    ];
    let xs = [0, 1, 2, 3, 4, -1, 1, i32::MIN, i32::MAX, 0x1_0000, 2, -5];
    let n = layers.len();
    let list = |v: &[i32]| {
        let s: Vec<String> = v.iter().map(i32::to_string).collect();
        format!(
            r#"{{"buffer": {{"type": "s32", "data": [{}]}}}}"#,
            s.join(", ")
        )
    };
    // a1: 1D array 4 wide, 3 layers, 3 channels; a2: 2D array 3x2, 3 layers, 4 channels;
    // ac: a cube-map array 2 wide, 2 cubes, 1 channel.
    let textures = format!(
        r#"{{"unit": 0, "geometry": "a1d", "type": "u32", "channels": 3, "width": 4, "layers": 3,
            "data": {}}},
           {{"unit": 1, "geometry": "a2d", "type": "u32", "channels": 4, "width": 3,
            "height": 2, "layers": 3, "data": {}}},
           {{"unit": 2, "geometry": "acube", "type": "u32", "width": 2, "layers": 2,
            "data": {}}}"#,
        data(1, 12, 3),
        data(2, 18, 4),
        data(3, 48, 1)
    );
    let spec = launch(
        "tex_edges",
        n as u32,
        &[list(&layers), list(&xs), out(10 * n)].join(", "),
        &textures,
    );
    let bufs = run_both("tex_edges.ptx", EDGE_KERNEL, &spec);
    let got = words(&bufs[2]);
    let clamp = |c: i32, n: u32| c.clamp(0, n as i32 - 1) as u32;
    for g in 0..n {
        let (l, x) = (layers[g], xs[g]);
        let a1 = clamp(x, 4) + 4 * clamp(l, 3);
        let a2 = |x: u32, y: u32| x + 3 * (y + 2 * clamp(l, 3));
        let fx = (x as f32 + 0.75).floor();
        let fx = if fx.is_nan() || fx < 0.0 {
            0
        } else {
            (fx as i64).min(2) as u32
        };
        let guarded = if x < 2 {
            word(1, clamp(l, 4) + 4 * clamp(x, 3), 3, 1)
        } else {
            77
        };
        let want = [
            word(1, a1, 3, 0),
            word(1, a1, 3, 2),
            word(2, a2(clamp(x, 3), 1), 4, 1),
            word(2, a2(fx, 1), 4, 0),
            word(2, a2(fx, 1), 4, 3),
        ];
        assert_eq!(&got[10 * g..10 * g + 5], &want, "thread {g}");
        assert_eq!(got[10 * g + 6], guarded, "thread {g}: guarded fetch");
        assert_eq!(
            &got[10 * g + 7..10 * g + 10],
            &[3 + 2, 3, 1],
            "thread {g}: txq"
        );
    }
}

#[test]
fn what_sm20_cannot_name_is_refused_with_the_reason() {
    for (body, why) in [
        (
            "txq.channel_order.b32 %r1, [t];",
            "no Fermi TXQ query is known",
        ),
        (
            "tex.2d.v4.u32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r5, %r5}];",
            "bindless textures",
        ),
    ] {
        let text = format!(
            ".version 7.0\n.target sm_20\n.address_size 64\n.global .texref t;\n\
             .visible .entry k(.param .u64 h)\n{{\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n\
             ld.param.u64 %rd1, [h];\nmov.u32 %r5, 1;\n{body}\nret;\n}}\n"
        );
        let (m, file) = common::checked("refused.ptx", &text);
        let e = match codegen::compile_module(&m, &file) {
            Ok(_) => panic!("`{body}` compiled"),
            Err(e) => diag::render(&file, &e),
        };
        assert!(e.contains(why), "`{body}`: {e}");
    }
    // The unit in the code is the texref's position among the module's texture references.
    let (_, _, cubin) = compile(
        "units.ptx",
        ".version 7.0\n.target sm_20\n.address_size 64\n.global .texref t0;\n\
         .global .texref t1;\n.global .texref t2;\n.visible .entry k(.param .u64 o)\n{\n\
         .reg .b32 %r<2>;\n.reg .b64 %rd<2>;\ntxq.width.b32 %r1, [t2];\n\
         ld.param.u64 %rd1, [o];\nst.global.u32 [%rd1], %r1;\nret;\n}\n",
    );
    let text: Vec<String> = disassembly(&cubin.kernels[0]);
    assert!(
        text.iter()
            .any(|t| t.starts_with("TXQ") && t.contains(", 0x2, TEX_HEADER_DIMENSION, 0x1")),
        "{text:?}"
    );
}
