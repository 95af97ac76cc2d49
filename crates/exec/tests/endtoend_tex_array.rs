//! Array textures (`tex.a1d`, `tex.a2d`): bound as one dimension more with the layer last,
//! fetched with the layer index first in the coordinate vector (an integer even with float
//! coordinates), point sampling, clamp addressing of coordinates and layer.

mod endtoend_common;
use endtoend_common::*;
use exec::{Arg, LaunchConfig, Texture};

/// Texel at (x, y, z), each clamped to its extent, computed independently.
fn fetch(t: &Texture, c: [i32; 3]) -> [u32; 4] {
    let [w, h, d] = t.dims.map(|v| v as i32);
    let (x, y, z) = (
        c[0].clamp(0, w - 1),
        c[1].clamp(0, h - 1),
        c[2].clamp(0, d - 1),
    );
    let i = 4 * (x + w * (y + h * z)) as usize;
    [t.data[i], t.data[i + 1], t.data[i + 2], t.data[i + 3]]
}

#[test]
fn array_textures_fetch_the_layer() {
    let a1 = hashed_texture([9, 5, 1], 0x1111); // width 9, 5 layers
    let a2 = hashed_texture([6, 4, 3], 0x2222); // 6 x 4, 3 layers
    let mut coords: Vec<[i32; 3]> = Vec::new();
    for layer in [-1, 0, 1, 2, 4, 9] {
        for x in [-3, 0, 2, 5, 8, 20] {
            for y in [-1, 0, 3, 7] {
                coords.push([layer, x, y]);
            }
        }
    }
    let n = coords.len();
    let flat: Vec<i32> = coords.iter().flatten().copied().collect();
    let flat: Vec<u32> = flat.iter().map(|&v| v as u32).collect();
    for threads in THREAD_COUNTS {
        let (mut dev, m) = load_kernel("textures_array.ptx");
        let pc = upload(&mut dev, &flat);
        let out = zeros::<u32>(&mut dev, 12 * n);
        let cfg = LaunchConfig {
            textures: vec![Some(a1.clone()), Some(a2.clone())],
            ..cfg([n.div_ceil(64) as u32, 1, 1], [64, 1, 1])
        };
        dev.launch(
            &m,
            "tex_array",
            &cfg,
            &[Arg::ptr(pc), Arg::ptr(out), Arg::u32(n as u32)],
            &opts(threads),
        )
        .unwrap();
        let got: Vec<u32> = download(&dev, out, 12 * n);
        for (g, &[layer, x, y]) in coords.iter().enumerate() {
            let want1 = fetch(&a1, [x, layer, 0]);
            let want2 = fetch(&a2, [x, y, layer]);
            assert_eq!(&got[12 * g..12 * g + 4], &want1, "a1d layer {layer} x {x}");
            assert_eq!(&got[12 * g + 4..12 * g + 8], &want2, "a2d {layer} {x} {y}");
            assert_eq!(
                &got[12 * g + 8..12 * g + 12],
                &want2,
                "a2d f32 {layer} {x} {y}"
            );
        }
    }
}
