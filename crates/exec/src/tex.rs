//! `tex` and `txq` on textures bound at launch. Which texel a lane reads (point sampling,
//! unnormalised coordinates, clamp addressing) is `ops::tex`'s definition.

use crate::error::FaultKind;
use crate::program::{Op, R32, S64};
use crate::warp::{Ctx, LaneFault, Texture, Warp};
use ops::tex;

/// Each active lane's texture (`tex` is a unit, or per-lane handles that name one); a lane
/// whose unit has nothing bound faults, the lowest such lane first.
fn bound<'c>(
    warp: &Warp,
    ctx: &'c Ctx<'_>,
    tex: S64,
    mask: u32,
) -> Result<[Option<&'c Texture>; 32], LaneFault> {
    let units = warp.row64(tex);
    let mut out = [None; 32];
    for (lane, slot) in out.iter_mut().enumerate() {
        if mask >> lane & 1 == 0 {
            continue;
        }
        let unit = units[lane];
        match usize::try_from(unit).ok().and_then(|u| ctx.textures.get(u)) {
            Some(Some(t)) => *slot = Some(t),
            _ => {
                return Err(LaneFault {
                    lane: lane as u32,
                    kind: FaultKind::UnboundTexture { tex: unit },
                })
            }
        }
    }
    Ok(out)
}

impl Warp {
    pub(crate) fn exec_tex(&mut self, ctx: &Ctx<'_>, op: &Op, mask: u32) -> Result<(), LaneFault> {
        if mask == 0 {
            return Ok(());
        }
        let mut texels = [[0u32; 4]; 32];
        let d = match *op {
            Op::TexCube {
                tex,
                d,
                coords,
                float_coords,
                array,
            } => {
                let ts = bound(self, ctx, tex, mask)?;
                let rows = coords.map(|c| self.row32(c));
                for (lane, t) in ts.iter().enumerate() {
                    if let Some(t) = t {
                        let c = [0, 1, 2, 3].map(|k| rows[k][lane]);
                        let idx = tex::cube_texel_index(t.dims, c, float_coords, array);
                        texels[lane] = tex::texel(&t.data, t.channels, idx);
                    }
                }
                d
            }
            Op::Tex {
                tex,
                dim,
                d,
                coords,
                float_coords,
            } => {
                let ts = bound(self, ctx, tex, mask)?;
                let rows = coords.map(|c| self.row32(c));
                for (lane, t) in ts.iter().enumerate() {
                    if let Some(t) = t {
                        let c = [0, 1, 2].map(|k| rows[k][lane]);
                        let idx = tex::texel_index(t.dims, dim, c, float_coords);
                        texels[lane] = tex::texel(&t.data, t.channels, idx);
                    }
                }
                d
            }
            Op::Txq { tex, query, d } => {
                let ts = bound(self, ctx, tex, mask)?;
                let row = &mut self.r32[d.0 as usize];
                for (lane, t) in ts.iter().enumerate() {
                    if let Some(t) = t {
                        row[lane] = tex::query(t.dims, t.channels, query);
                    }
                }
                return Ok(());
            }
            _ => return Ok(()),
        };
        self.write_texels(&d, &texels, mask);
        Ok(())
    }

    /// Channel `ch` of every lane's texel into destination register `d[ch]`.
    fn write_texels(&mut self, d: &[R32; 4], texels: &[[u32; 4]; 32], mask: u32) {
        for (ch, dr) in d.iter().enumerate() {
            let row = &mut self.r32[dr.0 as usize];
            crate::step::for_lanes(mask, |lane| row[lane] = texels[lane][ch]);
        }
    }
}
