//! End-to-end: `tex` on 1D, 2D and 3D textures bound at launch (point sampling,
//! unnormalized integer and float coordinates, clamp addressing), in current PTX
//! (`.global .texref`, `[tex, {coords}]`) and in PTX 1.1 syntax (`.tex`); and the fault for
//! a texture that is not bound.

mod endtoend_common;
use endtoend_common::*;
use exec::{Arg, Texture};

/// Texel (x, y, z) of `t`, coordinates clamped to the edges, computed independently.
fn fetch(t: &Texture, c: [i32; 3], dim: usize) -> [u32; 4] {
    let mut idx = 0usize;
    let mut stride = 1usize;
    for (&ck, &dk) in c.iter().zip(&t.dims).take(dim) {
        let n = dk as i32;
        idx += ck.clamp(0, n - 1) as usize * stride;
        stride *= n as usize;
    }
    let s = &t.data[4 * idx..4 * idx + 4];
    [s[0], s[1], s[2], s[3]]
}

fn coordinates() -> Vec<[i32; 3]> {
    let mut coords = Vec::new();
    for x in [-40, -1, 0, 1, 4, 8, 9, 36, 37, 100] {
        for y in [-2, 0, 3, 6, 7, 50] {
            for z in [-1, 0, 2, 3] {
                coords.push([x, y, z]);
            }
        }
    }
    coords
}

/// Run `kernel` of `file` (words per thread: 4 per fetch) for every thread count; the
/// records of each thread, identical across thread counts.
fn run_tex(file: &str, kernel: &str, words: usize, textures: &[Texture]) -> Vec<Vec<u32>> {
    let coords = coordinates();
    let n = coords.len();
    let mut c = cfg([(n as u32).div_ceil(64), 1, 1], [64, 1, 1]);
    c.textures = textures.iter().cloned().map(Some).collect();
    let flat: Vec<i32> = coords.iter().flatten().copied().collect();
    let out = run_all_threads(
        file,
        kernel,
        &c,
        &[
            buf(&flat),
            zbuf::<u32>(words * n),
            Param::Scalar(Arg::u32(n as u32)),
        ],
    );
    decode::<u32>(&out[1])
        .chunks(words)
        .map(<[u32]>::to_vec)
        .collect()
}

fn textures() -> [Texture; 3] {
    [
        hashed_texture([37, 1, 1], 0x1111),
        hashed_texture([9, 7, 1], 0x2222),
        hashed_texture([5, 4, 3], 0x3333),
    ]
}

#[test]
fn tex_1d_2d_3d_point_sampling_with_clamp() {
    let [t1, t2, t3] = textures();
    let recs = run_tex(
        "textures.ptx",
        "tex_fetch",
        16,
        &[t1.clone(), t2.clone(), t3.clone()],
    );
    for (r, p) in recs.iter().zip(coordinates()) {
        assert_eq!(r[0..4], fetch(&t1, p, 1), "1d at {p:?}");
        assert_eq!(r[4..8], fetch(&t2, p, 2), "2d at {p:?}");
        assert_eq!(r[8..12], fetch(&t3, p, 3), "3d at {p:?}");
        assert_eq!(
            r[12..16],
            fetch(&t2, p, 2),
            "2d float coordinates at {p:?} + (0.75, 0.25)"
        );
    }
}

#[test]
fn tex_ptx11_syntax_1d_2d_3d() {
    let [t1, t2, t3] = textures();
    let recs = run_tex(
        "textures_ptx11.ptx",
        "tex_fetch11",
        12,
        &[t1.clone(), t2.clone(), t3.clone()],
    );
    for (r, p) in recs.iter().zip(coordinates()) {
        assert_eq!(r[0..4], fetch(&t1, p, 1), "1d at {p:?}");
        assert_eq!(r[4..8], fetch(&t2, p, 2), "2d at {p:?}");
        assert_eq!(r[8..12], fetch(&t3, p, 3), "3d at {p:?}");
    }
}

/// Texture objects: `[%rd, {coords}]` and `txq [%rd]` with the handle from a parameter and a
/// different handle per thread (`g % 3`).
#[test]
fn texture_objects_name_their_unit() {
    let ts = textures();
    let coords: Vec<[i32; 3]> = coordinates();
    let n = coords.len();
    let flat: Vec<i32> = coords.iter().flat_map(|c| [c[0], c[1]]).collect();
    let mut c = cfg([(n as u32).div_ceil(64), 1, 1], [64, 1, 1]);
    c.textures = ts.iter().cloned().map(Some).collect();
    let out = run_all_threads(
        "texture_objects.ptx",
        "tex_objects",
        &c,
        &[
            buf(&flat),
            zbuf::<u32>(12 * n),
            Param::Scalar(Arg::u32(n as u32)),
            // The 2D texture is unit 1.
            Param::Scalar(Arg::u64(1)),
        ],
    );
    let words = decode::<u32>(&out[1]);
    for (g, (r, p)) in words.chunks(12).zip(&coords).enumerate() {
        let own = &ts[g % 3];
        assert_eq!(r[0..4], fetch(&ts[1], *p, 2), "handle 1 at {p:?}");
        assert_eq!(
            r[4..8],
            fetch(own, [p[0], 0, 0], 1),
            "handle {} at {p:?}",
            g % 3
        );
        assert_eq!(
            r[8..12],
            [ts[1].dims[0], ts[1].dims[1], own.dims[0], 0],
            "txq"
        );
    }
}

#[test]
fn fault_unbound_texture() {
    let file = "textures_ptx11.ptx";
    let (mut dev, m) = load_kernel(file);
    let p = zeros::<u32>(&mut dev, 1);
    let err = dev
        .launch(
            &m,
            "tex_unbound",
            &cfg([1, 1, 1], [8, 1, 1]),
            &[Arg::ptr(p)],
            &opts(1),
        )
        .expect_err("reading an unbound texture must fault");
    let msg = err.to_string();
    assert_eq!(err.exit_code(), 3, "{msg}");
    let line = line_of(&kernel_text(file), "FAULT: tex");
    assert!(msg.contains("tex_unbound"), "{msg}");
    assert!(
        msg.contains(&format!("{}:{line}", kernel_path(file))),
        "{msg}"
    );
    assert!(msg.contains("texture"), "{msg}");
    let f = err.fault().expect("a fault");
    assert_eq!((f.ctaid, f.tid), ([0, 0, 0], [0, 0, 0]), "{msg}");
}
