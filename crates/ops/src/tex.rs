//! Texture addressing: which texel `tex` reads and what `txq` answers.
//!
//! ptxvm's textures are point-sampled with unnormalised coordinates and clamp addressing, and
//! hold raw 32-bit elements that `tex` returns unconverted (docs/spec-notes.md, "textures").
//! A texture of extents `dims = [W, H, D]` stores element `x + W*(y + H*z)`; array textures
//! have the layer as their last dimension and cube maps are `[w, w, 6 * cubes]` with faces
//! +x, -x, +y, -y, +z, -z.

/// What `txq` asks about a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    /// `.width`, `.height`, `.depth`: the extent of dimension 0, 1 or 2.
    Extent(u8),
    ChannelDataType,
    ChannelOrder,
    NormalizedCoords,
    ArraySize,
    NumMipmapLevels,
    NumSamples,
}

impl Query {
    /// The query a `txq` modifier spells (`.width` …), if ptxvm's textures can answer it: the
    /// sampler queries (`.filter_mode`, `.addr_mode_N`, `.force_unnormalized_coords`) have no
    /// answer because textures are bound without samplers.
    pub fn from_spelling(s: &str) -> Option<Query> {
        Some(match s {
            ".width" => Query::Extent(0),
            ".height" => Query::Extent(1),
            ".depth" => Query::Extent(2),
            ".channel_data_type" => Query::ChannelDataType,
            ".channel_order" => Query::ChannelOrder,
            ".normalized_coords" => Query::NormalizedCoords,
            ".array_size" => Query::ArraySize,
            ".num_mipmap_levels" => Query::NumMipmapLevels,
            ".num_samples" => Query::NumSamples,
            _ => return None,
        })
    }
}

/// `txq`'s answer for a texture of extents `dims` with `channels` 32-bit words per texel.
pub fn query(dims: [u32; 3], channels: u32, q: Query) -> u32 {
    match (q, constant_answer(q)) {
        (_, Some(v)) => v,
        (Query::Extent(k), None) => dims.get(k as usize).copied().unwrap_or(1),
        // `.channel_order`: the binding's channel count.
        (_, None) => channels,
    }
}

/// The answer of a query that is the same for every binding (ptxvm's textures are raw,
/// unnormalised, unlayered, single-level and single-sample), or `None` for the extents and
/// the channel order, which the binding decides.
pub fn constant_answer(q: Query) -> Option<u32> {
    match q {
        Query::Extent(_) | Query::ChannelOrder => None,
        // cudaChannelFormatKindUnsigned: the elements are returned as raw 32-bit values.
        Query::ChannelDataType => Some(1),
        Query::NormalizedCoords | Query::ArraySize => Some(0),
        Query::NumMipmapLevels | Query::NumSamples => Some(1),
    }
}

/// The texel coordinate of one raw coordinate register on an axis of `n` texels: an f32
/// coordinate is floored (NaN and negatives give 0), an s32 one taken as is, both clamped to
/// `[0, n - 1]`.
pub fn axis(raw: u32, float: bool, n: u32) -> u32 {
    let n = n.max(1);
    if float {
        let x = f32::from_bits(raw).floor();
        if x.is_nan() || x < 0.0 {
            0
        } else if x >= n as f32 {
            n - 1
        } else {
            x as u32
        }
    } else {
        (raw as i32).clamp(0, n as i32 - 1) as u32
    }
}

/// The element index `tex` reads for a texture of `dim` (1–3) addressed dimensions: `coords`
/// are the raw coordinate registers in storage order (x, y, z; the layer last for arrays) and
/// bit `k` of `float_coords` says coordinate `k` is an f32.
pub fn texel_index(dims: [u32; 3], dim: u8, coords: [u32; 3], float_coords: u8) -> u64 {
    let mut idx = 0u64;
    let mut stride = 1u64;
    for (k, &raw) in coords.iter().enumerate().take(dim.min(3) as usize) {
        let n = dims[k].max(1);
        idx += u64::from(axis(raw, float_coords >> k & 1 == 1, n)) * stride;
        stride *= u64::from(n);
    }
    idx
}

/// Cube-map face and face coordinates `(s, t)` in `[0, 1]` of direction `(x, y, z)`: the
/// major axis picks the face (+x, -x, +y, -y, +z, -z = 0..5; ties prefer x, then y), and
/// `s = (sc/|ma| + 1)/2`, `t = (tc/|ma| + 1)/2` with `sc, tc` from the cube-map table of the
/// CUDA programming guide (the OpenGL convention). A zero or NaN major axis reads the centre of
/// face 0.
pub fn cube_face(x: f32, y: f32, z: f32) -> (u32, f32, f32) {
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
    if ma == 0.0 || ma.is_nan() {
        return (0, 0.5, 0.5);
    }
    (face, (sc / ma + 1.0) * 0.5, (tc / ma + 1.0) * 0.5)
}

/// Texel of face coordinate `s` in `[0, 1]` on a face `n` texels wide (nearest, clamped).
fn face_texel(s: f32, n: u32) -> u64 {
    let x = (s * n as f32).floor();
    if x.is_nan() || x < 0.0 {
        0
    } else if x >= n as f32 {
        u64::from(n - 1)
    } else {
        x as u64
    }
}

/// The element index `tex.cube`/`tex.acube` reads: `coords` are the direction x, y, z (f32
/// bits, or s32 when `float` is false) and, for a cube array, the cube index.
pub fn cube_texel_index(dims: [u32; 3], coords: [u32; 4], float: bool, array: bool) -> u64 {
    let f = |raw: u32| {
        if float {
            f32::from_bits(raw)
        } else {
            raw as i32 as f32
        }
    };
    let w = dims[0].max(1);
    let cubes = (dims[2] / 6).max(1);
    let (face, s, t) = cube_face(f(coords[0]), f(coords[1]), f(coords[2]));
    let cube = if array {
        u64::from(coords[3].min(cubes - 1))
    } else {
        0
    };
    let layer = cube * 6 + u64::from(face);
    face_texel(s, w) + u64::from(w) * (face_texel(t, w) + u64::from(w) * layer)
}

/// The channels of element `idx` of `data` (`channels` words per texel, at most 4): channels
/// past the texture's count, and elements past the data, read 0.
pub fn texel(data: &[u32], channels: u32, idx: u64) -> [u32; 4] {
    let mut out = [0u32; 4];
    let base = idx.saturating_mul(u64::from(channels));
    for (ch, o) in out.iter_mut().enumerate().take(channels.min(4) as usize) {
        *o = base
            .checked_add(ch as u64)
            .and_then(|i| usize::try_from(i).ok())
            .and_then(|i| data.get(i))
            .copied()
            .unwrap_or(0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_clamp_and_floor() {
        assert_eq!(axis(2.75f32.to_bits(), true, 4), 2);
        assert_eq!(axis((-0.5f32).to_bits(), true, 4), 0);
        assert_eq!(axis(f32::NAN.to_bits(), true, 4), 0);
        assert_eq!(axis(f32::INFINITY.to_bits(), true, 4), 3);
        assert_eq!(axis(-7i32 as u32, false, 4), 0);
        assert_eq!(axis(9, false, 4), 3);
        // x + W*(y + H*z) for W=5, H=4: (3, 2, 1) is 3 + 5*(2 + 4*1).
        assert_eq!(texel_index([5, 4, 3], 3, [3, 2, 1], 0), 3 + 5 * (2 + 4));
        // Only `dim` coordinates address.
        assert_eq!(texel_index([5, 4, 3], 1, [3, 2, 1], 0), 3);
    }

    #[test]
    fn cube_faces_follow_the_major_axis() {
        // The programming guide's table: +x face, sc = -z, tc = -y.
        assert_eq!(cube_face(1.0, 0.0, 0.0), (0, 0.5, 0.5));
        assert_eq!(cube_face(0.0, -2.0, 1.0).0, 3);
        assert_eq!(cube_face(0.0, 0.0, -1.0), (5, 0.5, 0.5));
        // +z face, s = (x/|z| + 1)/2.
        assert_eq!(cube_face(0.5, 0.0, 1.0), (4, 0.75, 0.5));
    }

    #[test]
    fn texels_past_the_data_read_zero() {
        let data = [1, 2, 3, 4, 5, 6];
        assert_eq!(texel(&data, 2, 1), [3, 4, 0, 0]);
        assert_eq!(texel(&data, 2, 3), [0, 0, 0, 0]);
        assert_eq!(texel(&data, 2, u64::MAX), [0, 0, 0, 0]);
    }
}
