//! `TEX`, `TLD` and `TXQ` on the textures a launch spec binds. Which texel a lane reads and
//! what a query answers is `ops::tex`'s (the PTX executor's definition); this module only
//! reads Fermi's operands (docs/fermi-exec.md, "Textures"):
//!
//! - the texture is the unit in the 8-bit field at bit 32 (the cubin's code names its texture
//!   by that number), the channel mask the 4-bit field at bit 46, the shape the field at 51;
//! - the coordinates are consecutive registers from `Ra` (f32 for `TEX`, s32 for `TLD`); an
//!   array texture's layer comes first, as an integer in the low 16 bits (Mesa's
//!   `NVC0LoweringPass::handleTEX`, "move array source to first slot, convert to u16");
//! - the enabled channels go to consecutive registers from `Rd` in channel order (Mesa's
//!   `texConstraintNVC0` condenses the definitions).

use crate::error::{FaultKind, LaneFault};
use crate::image::Decoded;
use crate::warp::{dst_reg, lanes, only_mods, opd, CtaMem, Warp};
use exec::Texture;
use fermi::isa::Operand;
use ops::tex;

/// Executes a texture instruction for the lanes of `mask`; `Ok(false)` if `inst` is not one.
pub fn exec(w: &mut Warp, m: &CtaMem<'_>, inst: &Decoded, mask: u32) -> Result<bool, LaneFault> {
    let name = inst.mnemonic();
    if !matches!(name, "TEX" | "TLD" | "TXQ") {
        return Ok(false);
    }
    // .T/.P (issue mode) and .NODEP (scheduling) do not change results; offsets, multisample
    // and depth compare have no counterpart in ops::tex and fault by name.
    only_mods(inst, &[".LZ", ".LL", ".T", ".P", ".NODEP"]).map_err(LaneFault::warp)?;
    if mask == 0 {
        return Ok(true);
    }
    let first = mask.trailing_zeros();
    let unit = imm(inst, 3);
    let t = m
        .textures
        .get(unit as usize)
        .and_then(Option::as_ref)
        .ok_or_else(|| LaneFault::at(first, FaultKind::UnboundTexture { unit }))?;
    let d = dst_reg(inst, 0).map_err(LaneFault::warp)?;
    let a = dst_reg(inst, 1).map_err(LaneFault::warp)?;
    let channels = imm(inst, 5) & 0xf;
    if name == "TXQ" {
        let q = imm(inst, 4);
        if q != 0 {
            return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                "TXQ query {q} (only TEX_HEADER_DIMENSION is modelled)"
            ))));
        }
        // Width, height, depth and levels: the answers of PTX's txq.width/.height/.depth
        // and .num_mipmap_levels.
        let answers = [
            tex::Query::Extent(0),
            tex::Query::Extent(1),
            tex::Query::Extent(2),
            tex::Query::NumMipmapLevels,
        ]
        .map(|q| tex::query(t.dims, t.channels, q));
        for l in lanes(mask) {
            write_channels(w, l, d, channels, answers);
        }
        return Ok(true);
    }
    let float = name == "TEX";
    if name == "TLD" && inst.mod_named("level of detail") == Some(".LL") {
        // The level is the first register of the second source; bound textures have one.
        let b = match opd(inst, 2) {
            Operand::Reg(r, _) => Some(r),
            _ => None,
        };
        for l in lanes(mask) {
            let level = b.map_or(0, |r| w.reg(l, r));
            if level != 0 {
                return Err(LaneFault::at(
                    l,
                    FaultKind::Unsupported(format!(
                        "TLD.LL of level {level}: a launch-spec texture has only level 0"
                    )),
                ));
            }
        }
    }
    let shape = imm(inst, 4);
    for l in lanes(mask) {
        let r = |k: u8| w.reg_at(l, a, k);
        let idx = index(t, shape, float, r).map_err(|k| LaneFault::at(l, k))?;
        let texel = tex::texel(&t.data, t.channels, idx);
        write_channels(w, l, d, channels, texel);
    }
    Ok(true)
}

/// The element index of the texel at the coordinates `r(0), r(1), …` for Fermi shape
/// `shape` (`TEX_DIMS`: 0 1D, 1 ARRAY_1D, 2 2D, 3 ARRAY_2D, 4 3D, 6 CUBE, 7 ARRAY_CUBE).
fn index(t: &Texture, shape: u32, float: bool, r: impl Fn(u8) -> u32) -> Result<u64, FaultKind> {
    let f = u8::from(float);
    // ops::tex takes coordinates in storage order, the layer last.
    let layer = || r(0) & 0xffff;
    Ok(match shape {
        0 => tex::texel_index(t.dims, 1, [r(0), 0, 0], f),
        1 => tex::texel_index(t.dims, 2, [r(1), layer(), 0], f),
        2 => tex::texel_index(t.dims, 2, [r(0), r(1), 0], f * 0b11),
        3 => tex::texel_index(t.dims, 3, [r(1), r(2), layer()], f * 0b11),
        4 => tex::texel_index(t.dims, 3, [r(0), r(1), r(2)], f * 0b111),
        6 => tex::cube_texel_index(t.dims, [r(0), r(1), r(2), 0], float, false),
        7 => tex::cube_texel_index(t.dims, [r(1), r(2), r(3), layer()], float, true),
        s => {
            return Err(FaultKind::Unsupported(format!(
                "texture shape {s}, which no source names"
            )))
        }
    })
}

/// Channel `c` of `v` for each set bit `c` of `mask`, into `d`, `d + 1`, … in channel order.
fn write_channels(w: &mut Warp, lane: u32, d: fermi::isa::Gpr, mask: u32, v: [u32; 4]) {
    let mut k = 0u8;
    for (c, x) in v.iter().enumerate() {
        if mask >> c & 1 == 1 {
            w.set_reg_at(lane, d, k, *x);
            k += 1;
        }
    }
}

fn imm(inst: &Decoded, i: usize) -> u32 {
    match opd(inst, i) {
        Operand::Imm(v) => v as u32,
        _ => 0,
    }
}
