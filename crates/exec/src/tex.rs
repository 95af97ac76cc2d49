//! `tex`: point sampling with unnormalised coordinates and clamp addressing.

use crate::error::FaultKind;
use crate::program::{Op, TexQuery};
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

impl Warp {
    pub(crate) fn exec_tex(&mut self, ctx: &Ctx<'_>, op: &Op, mask: u32) -> Result<(), LaneFault> {
        if let Op::Txq { tex, query, d } = *op {
            if mask == 0 {
                return Ok(());
            }
            let Some(Some(t)) = ctx.textures.get(tex as usize) else {
                return Err(LaneFault {
                    lane: Warp::first_lane(mask),
                    kind: FaultKind::UnboundTexture { tex },
                });
            };
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
        let Some(Some(t)) = ctx.textures.get(tex as usize) else {
            return Err(LaneFault {
                lane: Warp::first_lane(mask),
                kind: FaultKind::UnboundTexture { tex },
            });
        };
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
            let base = idx * t.channels as u64;
            for (ch, out) in texels[lane]
                .iter_mut()
                .enumerate()
                .take(t.channels as usize)
            {
                *out = t
                    .data
                    .get((base + ch as u64) as usize)
                    .copied()
                    .unwrap_or(0);
            }
        });
        for (ch, dr) in d.iter().enumerate() {
            let row = &mut self.r32[dr.0 as usize];
            for_lanes(mask, |lane| row[lane] = texels[lane][ch]);
        }
        Ok(())
    }
}
