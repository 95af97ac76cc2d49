//! `tex` and `txq` on the textures bound in [`crate::Launch::textures`]: which texel a thread
//! reads is `ops::tex`'s definition; this module only finds the operands.

use crate::alu::Cx;
use crate::Fault;
use ir::{Opcode as Oc, Operand, Type};
use isa::Geom;
use ops::tex;

/// A texture bound at launch: `channels` 32-bit words per texel, element `x + W*(y + H*z)`
/// for `dims = [W, H, D]` (array layers and cube faces last, as `ops::tex` describes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Texture {
    pub dims: [u32; 3],
    pub channels: u32,
    pub data: Vec<u32>,
}

/// Run `tex`/`txq`; `Ok(false)` for other instructions.
pub(crate) fn exec(cx: &mut Cx<'_, '_, '_>) -> Result<bool, Fault> {
    match cx.i.op {
        Oc::Txq => txq(cx).map(|_| true),
        Oc::Tex => sample(cx).map(|_| true),
        _ => Ok(false),
    }
}

/// The texture an operand names: a `.tex`/`.texref` variable's unit, or a texture handle in
/// a register, whose value is the unit (ptxvm's convention, docs/spec-notes.md); the fault of
/// an unbound unit.
fn bound<'c>(cx: &'c Cx<'_, '_, '_>, o: &Operand) -> Result<&'c Texture, Fault> {
    let unit = match o {
        Operand::Address(ir::Address {
            base: ir::AddrBase::Var(v),
            ..
        })
        | Operand::VarAddr { var: v, .. } => u64::from(
            cx.env
                .layout
                .module
                .texture_slot(*v)
                .ok_or_else(|| crate::fault::unsupported(cx.i))?,
        ),
        Operand::Address(ir::Address {
            base: ir::AddrBase::Reg(r),
            offset: 0,
        })
        | Operand::Reg(r) => cx.t.reg(*r),
        _ => return Err(crate::fault::unsupported(cx.i)),
    };
    usize::try_from(unit)
        .ok()
        .and_then(|u| cx.env.cfg.textures.get(u))
        .and_then(Option::as_ref)
        .ok_or(Fault::UnboundTexture(unit))
}

fn txq(cx: &mut Cx<'_, '_, '_>) -> Result<(), Fault> {
    let q =
        cx.i.mods
            .query
            .and_then(|q| tex::Query::from_spelling(q.spelling()))
            .ok_or_else(|| crate::fault::unsupported(cx.i))?;
    let t = bound(cx, cx.op(1))?;
    let v = tex::query(t.dims, t.channels, q);
    cx.put_as(0, Type::B32, u64::from(v))
}

fn sample(cx: &mut Cx<'_, '_, '_>) -> Result<(), Fault> {
    // `[tex, {coords}]`, `[tex, sampler, {coords}]` or ptx-isa-1.1's `tex, {coords}`.
    let (texture, coords): (Operand, Vec<Operand>) = match (cx.op(1), cx.op(2)) {
        (Operand::Texture { tex, coords, .. }, _) => (
            match *tex {
                ir::TexRef::Var(var) => Operand::VarAddr { var, offset: 0 },
                ir::TexRef::Reg(r) => Operand::Reg(r),
            },
            coords.to_vec(),
        ),
        (a, Operand::Vector(v)) => (a.clone(), v.to_vec()),
        (a, x) => (a.clone(), vec![x.clone()]),
    };
    let float = cx.i.type_slot(1) == Some(Type::F32);
    let c = |k: usize| -> Result<u32, Fault> {
        match coords.get(k) {
            Some(o) => Ok(cx.t.src(cx.env, o, Type::B32)? as u32),
            None => Ok(0),
        }
    };
    let t = bound(cx, &texture)?;
    // Array coordinates name the layer first (`{layer, x}`, `{layer, x, y, _}`,
    // `{cube, x, y, z}`); storage puts it last.
    let idx = match cx.i.mods.geom {
        Some(Geom::D1) => tex::texel_index(t.dims, 1, [c(0)?, 0, 0], u8::from(float)),
        Some(Geom::D2) => tex::texel_index(t.dims, 2, [c(0)?, c(1)?, 0], 0b11 * u8::from(float)),
        Some(Geom::D3) => {
            tex::texel_index(t.dims, 3, [c(0)?, c(1)?, c(2)?], 0b111 * u8::from(float))
        }
        Some(Geom::A1d) => tex::texel_index(t.dims, 2, [c(1)?, c(0)?, 0], u8::from(float)),
        Some(Geom::A2d) => {
            tex::texel_index(t.dims, 3, [c(1)?, c(2)?, c(0)?], 0b11 * u8::from(float))
        }
        Some(Geom::Cube) => tex::cube_texel_index(t.dims, [c(0)?, c(1)?, c(2)?, 0], float, false),
        Some(Geom::Acube) => {
            tex::cube_texel_index(t.dims, [c(1)?, c(2)?, c(3)?, c(0)?], float, true)
        }
        _ => return Err(crate::fault::unsupported(cx.i)),
    };
    let texel = tex::texel(&t.data, t.channels, idx);
    let dsts: Vec<Operand> = match cx.op(0) {
        Operand::Vector(v) => v.to_vec(),
        other => vec![other.clone()],
    };
    for (d, v) in dsts.iter().zip(texel) {
        cx.t.dst(cx.env, d, Type::B32, u64::from(v))?;
    }
    Ok(())
}
