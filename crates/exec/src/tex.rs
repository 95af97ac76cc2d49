//! `tex`: point sampling with unnormalised coordinates and clamp addressing.

use crate::error::FaultKind;
use crate::program::{Op, TexQuery, R32};
use crate::step::for_lanes;
use crate::warp::{Ctx, LaneFault, Texture, Warp};

/// `txq` answers. Textures hold raw 32-bit elements that `tex` returns unconverted, with
/// unnormalised coordinates and no mipmaps or arrays (see the spec notes).
fn txq_value(t: &Texture, q: TexQuery) -> u32 {
    match q {
        TexQuery::Extent(k) => t.dims.get(k as usize).copied().unwrap_or(1),
        // cudaChannelFormatKindUnsigned: the elements are returned as raw 32-bit values.
        TexQuery::ChannelDataType => 1,
        TexQuery::ChannelOrder => t.channels,
        TexQuery::NormalizedCoords => 0,
        TexQuery::ArraySize => 0,
        TexQuery::NumMipmapLevels => 1,
        TexQuery::NumSamples => 1,
    }
}

/// Cube-map face and face coordinates `(s, t)` in `[0, 1]` of direction `(x, y, z)`: the
/// major axis picks the face (+x, -x, +y, -y, +z, -z = 0..5; ties prefer x, then y), and
/// `s = (sc/|ma| + 1)/2`, `t = (tc/|ma| + 1)/2` with `sc, tc` from the cube-map table of the
/// CUDA programming guide (the OpenGL convention).
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

/// Texel index of `(s, t)` in `[0, 1]` on a face of width `n` (nearest, clamped).
fn cube_texel(s: f32, n: u32) -> u64 {
    let x = (s * n as f32).floor();
    if x.is_nan() || x < 0.0 {
        0
    } else if x >= n as f32 {
        u64::from(n - 1)
    } else {
        x as u64
    }
}

/// The texture bound to `tex`; an unbound one faults at the first lane of `mask`.
fn bound<'c>(ctx: &'c Ctx<'_>, tex: u32, mask: u32) -> Result<&'c Texture, LaneFault> {
    match ctx.textures.get(tex as usize) {
        Some(Some(t)) => Ok(t),
        _ => Err(LaneFault {
            lane: Warp::first_lane(mask),
            kind: FaultKind::UnboundTexture { tex },
        }),
    }
}

/// The channels of texel number `idx` (0 beyond the data, which the clamped indices never reach).
fn fetch_texel(t: &Texture, idx: u64, out: &mut [u32; 4]) {
    let base = idx * u64::from(t.channels);
    for (ch, o) in out.iter_mut().enumerate().take(t.channels as usize) {
        *o = t
            .data
            .get((base + ch as u64) as usize)
            .copied()
            .unwrap_or(0);
    }
}

impl Warp {
    pub(crate) fn exec_tex(&mut self, ctx: &Ctx<'_>, op: &Op, mask: u32) -> Result<(), LaneFault> {
        if let Op::TexCube {
            tex,
            d,
            coords,
            float_coords,
            array,
        } = *op
        {
            if mask == 0 {
                return Ok(());
            }
            let t = bound(ctx, tex, mask)?;
            let rows = coords.map(|c| self.row32(c));
            let w = t.dims[0].max(1);
            let cubes = (t.dims[2] / 6).max(1);
            let mut texels = [[0u32; 4]; 32];
            for_lanes(mask, |lane| {
                let f = |k: usize| {
                    let raw = rows[k][lane];
                    if float_coords {
                        f32::from_bits(raw)
                    } else {
                        raw as i32 as f32
                    }
                };
                let (face, s, tt) = cube_face(f(0), f(1), f(2));
                let cube = if array {
                    u64::from(rows[3][lane].min(cubes - 1))
                } else {
                    0
                };
                let layer = cube * 6 + u64::from(face);
                let idx =
                    cube_texel(s, w) + u64::from(w) * (cube_texel(tt, w) + u64::from(w) * layer);
                fetch_texel(t, idx, &mut texels[lane]);
            });
            self.write_texels(&d, &texels, mask);
            return Ok(());
        }
        if let Op::Txq { tex, query, d } = *op {
            if mask == 0 {
                return Ok(());
            }
            let t = bound(ctx, tex, mask)?;
            let v = txq_value(t, query);
            let row = &mut self.r32[d.0 as usize];
            for_lanes(mask, |lane| row[lane] = v);
            return Ok(());
        }
        let Op::Tex {
            tex,
            dim,
            d,
            coords,
            float_coords,
        } = *op
        else {
            return Ok(());
        };
        if mask == 0 {
            return Ok(());
        }
        let t = bound(ctx, tex, mask)?;
        let rows = [
            self.row32(coords[0]),
            self.row32(coords[1]),
            self.row32(coords[2]),
        ];
        let mut texels = [[0u32; 4]; 32];
        for_lanes(mask, |lane| {
            let mut idx = 0u64;
            let mut stride = 1u64;
            for (k, row) in rows.iter().enumerate().take(dim.min(3) as usize) {
                let n = t.dims.get(k).copied().unwrap_or(1).max(1);
                let raw = row[lane];
                let c = if float_coords >> k & 1 == 1 {
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
                };
                idx += c as u64 * stride;
                stride *= n as u64;
            }
            fetch_texel(t, idx, &mut texels[lane]);
        });
        self.write_texels(&d, &texels, mask);
        Ok(())
    }

    /// Channel `ch` of every lane's texel into destination register `d[ch]`.
    fn write_texels(&mut self, d: &[R32; 4], texels: &[[u32; 4]; 32], mask: u32) {
        for (ch, dr) in d.iter().enumerate() {
            let row = &mut self.r32[dr.0 as usize];
            for_lanes(mask, |lane| row[lane] = texels[lane][ch]);
        }
    }
}
