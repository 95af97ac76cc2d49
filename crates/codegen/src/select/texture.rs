//! `tex` and `txq` on a `.tex`/`.texref` variable onto `TEX`/`TLD`/`TXQ`.
//!
//! - **Which texture.** Fermi's instructions name their texture by the 8-bit unit at bit 32;
//!   the unit is the variable's `ir::Module::texture_slot` (a `.tex` variable's id, a
//!   `.texref`'s position among the module's texture references), the number the PTX executor
//!   binds a launch spec's `"unit"` to. So one launch spec binds the same texels on both
//!   executors (docs/spec-notes.md, "Texture units in compiled code").
//! - **Integer or float coordinates.** `.s32` coordinates fetch with `TLD.LZ` (NVIDIA's
//!   `tex1Dfetch` in the SpMxV listings: `TLD.LZ.T R2, R2, 0x0, 1D, 0x3`), `.f32` ones sample
//!   with `TEX.LZ` (compute code has no derivatives: the level is 0, explicitly).
//! - **Registers.** `TEX`/`TLD` read their coordinates from consecutive registers and write
//!   the enabled channels to consecutive registers: the coordinates are copied to R4…R7
//!   (kept free by the allocator: `select::needs_f64_scratch`), the fetch writes its channels
//!   back over them, and they are copied to the destinations. An array's layer goes first as
//!   a 16-bit integer (Mesa's `NVC0LoweringPass::handleTEX`); PTX's layer is a 32-bit integer
//!   that `ops::tex` clamps, so it is clamped into 16 bits first the way `ops::tex` would
//!   treat it: a signed clamp to `[0, 0xffff]` for `.a1d`/`.a2d` (`axis` clamps signed), an
//!   unsigned minimum for `.acube` (`cube_texel_index` takes the minimum as unsigned).
//! - **Channels.** Only channels with a destination are enabled (NVIDIA's `0x3` masks for
//!   two-channel fetches); a 64-bit destination (PTX 1.x) gets the channel zero-extended.
//! - **`txq`** answers `.width`, `.height`, `.depth` and `.num_mipmap_levels` with one channel
//!   of `TXQ TEX_HEADER_DIMENSION` (level 0 in RZ), written straight to the destination;
//!   `.channel_data_type`, `.normalized_coords`, `.array_size` and `.num_samples`, which
//!   `ops::tex` answers alike for every binding, with that `TXQ` (for its fault on an unbound
//!   unit) and `MOV32I` of the answer. `.channel_order` (the binding's channel count) stays
//!   refused: no source says which `TXQ` query returns a header's format.

use super::{Selector, R};
use crate::regs::{Loc, SCRATCH};
use ir::{Inst, Operand, TexRef, Type};
use isa::{Geom, TexQuery};

/// The first of the consecutive registers a fetch reads and writes (`needs_f64_scratch`
/// keeps R4–R13 free where a `tex` occurs).
const BLOCK: u8 = 4;

/// How an array's PTX layer becomes Fermi's 16-bit one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Layer {
    None,
    /// `.a1d`/`.a2d`: `ops::tex::axis` clamps the s32 layer; clamp it to `[0, 0xffff]`.
    Signed,
    /// `.acube`: `ops::tex::cube_texel_index` takes an unsigned minimum.
    Unsigned,
}

impl Selector<'_> {
    /// The unit of a texture operand: a `.tex`/`.texref` variable's slot.
    fn texture_unit(&self, t: &Operand) -> R<u32> {
        let var = match t {
            Operand::Texture {
                tex: TexRef::Var(v),
                ..
            }
            | Operand::VarAddr { var: v, .. } => *v,
            Operand::Address(ir::Address {
                base: ir::AddrBase::Var(v),
                ..
            }) => *v,
            Operand::Texture {
                tex: TexRef::Reg(_),
                ..
            }
            | Operand::Reg(_)
            | Operand::Address(ir::Address {
                base: ir::AddrBase::Reg(_),
                ..
            }) => {
                return Err(
                    "a texture object (a handle in a register): sm_20's TEX/TLD/TXQ \
                            name their texture by an immediate unit (bindless textures \
                            need sm_30)"
                        .into(),
                )
            }
            _ => return Err("an unsupported texture operand".into()),
        };
        let unit = self
            .module
            .texture_slot(var)
            .ok_or("the texture operand is not a .tex/.texref variable")?;
        if unit > 0xff {
            return Err(format!(
                "texture unit {unit}: Fermi's texture field has 8 bits (units 0 to 255)"
            ));
        }
        Ok(unit)
    }

    pub(super) fn tex(&mut self, inst: &Inst, g: &str) -> R<()> {
        let (shape, n, layer) = match inst.mods.geom {
            Some(Geom::D1) => ("1D", 1, Layer::None),
            Some(Geom::D2) => ("2D", 2, Layer::None),
            Some(Geom::D3) => ("3D", 3, Layer::None),
            Some(Geom::A1d) => ("ARRAY_1D", 2, Layer::Signed),
            Some(Geom::A2d) => ("ARRAY_2D", 3, Layer::Signed),
            Some(Geom::Cube) => ("CUBE", 3, Layer::None),
            Some(Geom::Acube) => ("ARRAY_CUBE", 4, Layer::Unsigned),
            Some(other) => {
                return Err(format!(
                    "geometry {}: multisample textures need sm_30 or later",
                    other.spelling()
                ))
            }
            None => return Err("a tex without a geometry".into()),
        };
        // The texture first: a texture object (whose forms take other coordinate types)
        // is refused as such.
        let tex_op = Self::opnd(inst, 1)?;
        let unit = self.texture_unit(tex_op)?;
        let float = match inst.type_slot(1) {
            Some(Type::F32) => true,
            Some(Type::S32) => false,
            _ => return Err("coordinates other than .s32 or .f32".into()),
        };
        if !float && matches!(shape, "CUBE" | "ARRAY_CUBE") {
            return Err(
                "a cube map fetched with integer coordinates (TLD has no cube form)".into(),
            );
        }
        if inst.operands.iter().any(|o| {
            matches!(
                o,
                Operand::Texture {
                    sampler: Some(_),
                    ..
                }
            )
        }) {
            return Err("a separate sampler (independent texture mode) has no sm_20 form".into());
        }
        let coords: Vec<Operand> = match (tex_op, inst.operands.get(2)) {
            (Operand::Texture { coords, .. }, _) => coords.to_vec(),
            // PTX 1.x: `tex.1d.v4.u32.s32 d, t, {x}`.
            (_, Some(Operand::Vector(v))) => v.to_vec(),
            (_, Some(x)) => vec![x.clone()],
            _ => return Err("missing coordinates".into()),
        };
        if coords.len() < n {
            return Err(format!("{n} coordinates expected"));
        }
        for (k, c) in coords.iter().take(n).enumerate() {
            let r = BLOCK + k as u8;
            let src = self.reg32(c, g, SCRATCH)?;
            if k == 0 && layer == Layer::Signed {
                self.emit(g, format!("IMNMX R{r}, {src}, RZ, !pt;"));
                self.emit(g, format!("IMNMX R{r}, R{r}, 0xffff, pt;"));
            } else if k == 0 && layer == Layer::Unsigned {
                self.emit(g, format!("IMNMX.U32 R{r}, {src}, 0xffff, pt;"));
            } else {
                self.emit(g, format!("MOV R{r}, {src};"));
            }
        }
        let dsts: Vec<Operand> = match Self::opnd(inst, 0)? {
            Operand::Vector(v) => v.to_vec(),
            one => vec![one.clone()],
        };
        let mut mask = 0u32;
        let mut targets = Vec::new();
        for (c, d) in dsts.iter().take(4).enumerate() {
            match d {
                Operand::Reg(r) => {
                    mask |= 1 << c;
                    targets.push(self.loc(*r)?);
                }
                Operand::Sink => {}
                _ => return Err("a texture destination that is not a register".into()),
            }
        }
        if mask == 0 {
            return Err("a tex whose every channel is discarded".into());
        }
        let name = if float { "TEX" } else { "TLD" };
        self.emit(
            g,
            format!("{name}.LZ.T R{BLOCK}, R{BLOCK}, 0x{unit:x}, {shape}, 0x{mask:x};"),
        );
        for (k, t) in targets.into_iter().enumerate() {
            let from = BLOCK + k as u8;
            match t {
                Loc::Gpr(d) => self.emit(g, format!("MOV R{d}, R{from};")),
                Loc::Pair(d) => {
                    self.emit(g, format!("MOV R{d}, R{from};"));
                    self.emit(g, format!("MOV R{}, RZ;", d + 1));
                }
                Loc::Pred(_) => return Err("a predicate texture destination".into()),
            }
        }
        Ok(())
    }

    pub(super) fn txq(&mut self, inst: &Inst, g: &str) -> R<()> {
        let q = inst.mods.query.ok_or("a txq without a query")?;
        let channel =
            match q {
                TexQuery::Width => 0,
                TexQuery::Height => 1,
                TexQuery::Depth => 2,
                TexQuery::NumMipmapLevels => 3,
                TexQuery::ChannelOrder => return Err(
                    "txq.channel_order: the answer is the binding's channel count, and no Fermi \
                     TXQ query is known to return a texture header's format (Mesa's nvc0 code \
                     queries only dimensions, type and sample positions); not modelled"
                        .into(),
                ),
                _ => return self.txq_constant(inst, g, q),
            };
        let unit = self.texture_unit(Self::opnd(inst, 1)?)?;
        let d = self.gpr(self.dst(inst)?)?;
        self.emit(
            g,
            format!(
                "TXQ.T {d}, RZ, 0x{unit:x}, TEX_HEADER_DIMENSION, 0x{:x};",
                1u32 << channel
            ),
        );
        Ok(())
    }

    /// A query whose answer `ops::tex::query` gives the same for every binding
    /// (`.channel_data_type`, `.normalized_coords`, `.array_size`, `.num_samples`: ptxvm's
    /// textures are raw, unnormalised, single-sample; docs/spec-notes.md "txq"): a `TXQ` of
    /// the width first, so that an unbound unit faults as the PTX executor's `txq` does, then
    /// the constant.
    fn txq_constant(&mut self, inst: &Inst, g: &str, q: TexQuery) -> R<()> {
        let query = ops::tex::Query::from_spelling(q.spelling()).ok_or_else(|| {
            format!(
                "txq{}: a sampler query, which ptxvm's textures (bound without samplers) \
                 do not answer",
                q.spelling()
            )
        })?;
        let v = ops::tex::constant_answer(query).ok_or_else(|| {
            format!(
                "txq{}: the answer depends on the binding, and no TXQ query returns it",
                q.spelling()
            )
        })?;
        let unit = self.texture_unit(Self::opnd(inst, 1)?)?;
        let d = self.gpr(self.dst(inst)?)?;
        self.emit(
            g,
            format!("TXQ.T {d}, RZ, 0x{unit:x}, TEX_HEADER_DIMENSION, 0x1;"),
        );
        self.emit(g, format!("MOV32I {d}, 0x{v:x};"));
        Ok(())
    }
}
