//! Cube-map textures (`tex.cube`, `tex.acube`): the face from the direction's major axis and
//! the face coordinates by the cube-map table (CUDA programming guide / OpenGL), transcribed
//! here in f64, nearest texel. Directions are random and kept away from face edges and texel
//! boundaries, where f32 and f64 evaluation could legitimately pick different texels.

mod endtoend_common;
use endtoend_common::*;
use exec::{Arg, LaunchConfig, Texture};

const W: u32 = 8;

/// (face, s, t) per the table: major axis +x: sc = -z, tc = -y; -x: sc = z, tc = -y;
/// +y: sc = x, tc = z; -y: sc = x, tc = -z; +z: sc = x, tc = -y; -z: sc = -x, tc = -y.
fn face_st(d: [f64; 3]) -> (usize, f64, f64) {
    let [x, y, z] = d;
    let (face, sc, tc, ma) = if x.abs() >= y.abs() && x.abs() >= z.abs() {
        if x >= 0.0 {
            (0, -z, -y, x.abs())
        } else {
            (1, z, -y, x.abs())
        }
    } else if y.abs() >= z.abs() {
        if y >= 0.0 {
            (2, x, z, y.abs())
        } else {
            (3, x, -z, y.abs())
        }
    } else if z >= 0.0 {
        (4, x, -y, z.abs())
    } else {
        (5, -x, -y, z.abs())
    };
    (face, (sc / ma + 1.0) / 2.0, (tc / ma + 1.0) / 2.0)
}

fn texel(t: &Texture, layer: usize, s: f64, tt: f64) -> [u32; 4] {
    let w = W as f64;
    let i = ((s * w).floor().clamp(0.0, w - 1.0)) as usize;
    let j = ((tt * w).floor().clamp(0.0, w - 1.0)) as usize;
    let k = 4 * (i + W as usize * (j + W as usize * layer));
    [t.data[k], t.data[k + 1], t.data[k + 2], t.data[k + 3]]
}

#[test]
fn cube_and_cube_array_fetch_by_face() {
    let cube = hashed_texture([W, W, 6], 0xc0be);
    let acube = hashed_texture([W, W, 24], 0xacbe);
    let mut rng = Rng(0xc0b3);
    let mut dirs: Vec<[f32; 3]> = Vec::new();
    while dirs.len() < 300 {
        let mut c = || (rng.next_u32() % 2001) as f32 / 1000.0 - 1.0;
        let d = [c(), c(), c()];
        let d64 = d.map(f64::from);
        let mut a = d64.map(f64::abs);
        a.sort_by(f64::total_cmp);
        // Clear major axis, and face coordinates away from texel boundaries.
        if a[2] < 0.05 || a[2] - a[1] < 1e-3 {
            continue;
        }
        let (_, s, t) = face_st(d64);
        let off = |v: f64| ((v * W as f64) - (v * W as f64).round()).abs();
        if off(s) < 1e-3 || off(t) < 1e-3 {
            continue;
        }
        dirs.push(d);
    }
    // The six axis directions land in the middle of their faces.
    let axes = [
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ];
    for (f, a) in axes.iter().enumerate() {
        assert_eq!(face_st(*a), (f, 0.5, 0.5));
    }
    let n = dirs.len();
    let flat: Vec<f32> = dirs.iter().flatten().copied().collect();
    let (mut dev, m) = load_kernel("textures_cube.ptx");
    let pd = upload(&mut dev, &flat);
    let out = zeros::<u32>(&mut dev, 8 * n);
    let cfg = LaunchConfig {
        textures: vec![Some(cube.clone()), Some(acube.clone())],
        ..cfg([n.div_ceil(64) as u32, 1, 1], [64, 1, 1])
    };
    dev.launch(
        &m,
        "tex_cube",
        &cfg,
        &[Arg::ptr(pd), Arg::ptr(out), Arg::u32(n as u32)],
        &opts(2),
    )
    .unwrap();
    let got: Vec<u32> = download(&dev, out, 8 * n);
    for (g, d) in dirs.iter().enumerate() {
        let (face, s, t) = face_st(d.map(f64::from));
        assert_eq!(
            &got[8 * g..8 * g + 4],
            &texel(&cube, face, s, t),
            "cube {d:?}"
        );
        let layer = (g % 4) * 6 + face;
        assert_eq!(
            &got[8 * g + 4..8 * g + 8],
            &texel(&acube, layer, s, t),
            "acube {d:?}"
        );
    }
}
