//! Lowering of memory instructions, vector moves and texture fetches.

use super::operand::{Emit, LResult};
use super::{scalar_of, Lowerer};
use crate::program::*;
use ir::{Operand as O, Type as T};

fn elems(o: &O) -> Vec<&O> {
    match o {
        O::Vector(v) => v.iter().collect(),
        other => vec![other],
    }
}

/// The alignment a vector access of `n` elements of `size` bytes needs: its size rounded up
/// to a power of two (a `.v3` like a `.v4`, docs/spec-notes.md); 0 for a scalar.
fn vector_align(size: u32, n: usize) -> u8 {
    if n > 1 {
        u8::try_from(size as usize * n.next_power_of_two()).unwrap_or(u8::MAX)
    } else {
        0
    }
}

/// The address of the `k`-th group of four elements of a vector access.
fn part_addr(addr: Addr, k: usize, size: u32) -> Addr {
    Addr {
        offset: addr.offset + 4 * k as i64 * i64::from(size),
        ..addr
    }
}

impl Lowerer<'_> {
    /// The two 64-bit halves of each 128-bit register of a `.b128` access.
    fn halves128(&mut self, e: &mut Emit<'_>, regs: &[&O]) -> LResult<Vec<R64>> {
        let mut out = Vec::with_capacity(2 * regs.len());
        for x in regs {
            let O::Reg(r) = x else {
                return Err("a .b128 operand must be a 128-bit register".into());
            };
            if self.slot(e.fi, *r)?.ty.size_bits() != 128 {
                return Err("a .b128 operand must be a 128-bit register".into());
            }
            let Reg::R64(lo) = self.reg(e, *r)? else {
                return Err("a .b128 operand must be a 128-bit register".into());
            };
            out.push(lo);
            out.push(R64(lo.0 + 1));
        }
        Ok(out)
    }

    /// `ld`/`st` of `.b128` (scalar or vector): as `.u64` element pairs, at most four 64-bit
    /// elements per decoded access (a `.v4.b128` is two accesses 32 bytes apart).
    fn access128(&mut self, e: &mut Emit<'_>, i: &ir::Inst, store: bool) -> LResult<()> {
        let ops = &i.operands;
        let (addr_op, data_op) = if store {
            (ops.first(), ops.get(1))
        } else {
            (ops.get(1), ops.first())
        };
        let (space, addr) = self.addr(e, addr_op.ok_or("missing address")?, i.mods.space)?;
        let halves = self.halves128(e, &elems(data_op.ok_or("missing data operand")?))?;
        for (k, chunk) in halves.chunks(4).enumerate() {
            let addr = Addr {
                offset: addr.offset + 32 * k as i64,
                ..addr
            };
            let n = chunk.len() as u8;
            let align = vector_align(8, n as usize);
            if store {
                let mut a = [Src::Imm(0); 4];
                for (slot, r) in a.iter_mut().zip(chunk) {
                    *slot = Src::Reg(Reg::R64(*r));
                }
                e.push(Op::St {
                    space,
                    ty: Scalar::U64,
                    a,
                    n,
                    align,
                    addr,
                });
            } else {
                let mut d = [None; 4];
                for (slot, r) in d.iter_mut().zip(chunk) {
                    *slot = Some(Reg::R64(*r));
                }
                e.push(Op::Ld {
                    space,
                    ty: Scalar::U64,
                    w: Width::W32,
                    d,
                    n,
                    align,
                    addr,
                });
            }
        }
        Ok(())
    }

    /// `mov.b128 d, a` between 128-bit registers, `mov.b128 d, {lo, hi}` (pack two `.b64`)
    /// and `mov.b128 {lo, hi}, a` (unpack).
    pub(crate) fn mov128(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let half = |this: &mut Self, e: &mut Emit<'_>, o: &O| -> LResult<R64> {
            match o {
                O::Reg(r) => match this.reg(e, *r)? {
                    Reg::R64(x) => Ok(x),
                    _ => Err("a .b128 half must be a 64-bit register".into()),
                },
                O::Imm(v) => Ok(this.reg64_of(e, S64::Imm(*v))),
                _ => Err("a .b128 half must be a 64-bit register".into()),
            }
        };
        let (d, a) = match (ops.first(), ops.get(1)) {
            (Some(d @ O::Reg(_)), Some(O::Vector(v))) if v.len() == 2 => {
                let d = self.halves128(e, &[d])?;
                let a = vec![half(self, e, &v[0])?, half(self, e, &v[1])?];
                (d, a)
            }
            (Some(O::Vector(v)), Some(a @ O::Reg(_))) if v.len() == 2 => {
                let a = self.halves128(e, &[a])?;
                let d = vec![half(self, e, &v[0])?, half(self, e, &v[1])?];
                (d, a)
            }
            (Some(d), Some(a)) => (self.halves128(e, &[d])?, self.halves128(e, &[a])?),
            _ => return Err("mov.b128 needs two operands".into()),
        };
        for (d, a) in d.into_iter().zip(a) {
            e.push(Op::Un64 {
                op: UnOp::Mov,
                d,
                a: S64::Reg(a),
            });
        }
        Ok(())
    }

    pub(crate) fn load(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let ty = i.ty().ok_or("missing type")?;
        if ty.size_bits() == 128 {
            return self.access128(e, i, false);
        }
        let sty = scalar_of(ty).ok_or("unsupported type")?;
        let (space, addr) = self.addr(e, ops.get(1).ok_or("missing address")?, i.mods.space)?;
        let ds = elems(ops.first().ok_or("missing destination")?);
        let w = match ty.size_bits() {
            8 | 16 => {
                // The destination register's own width decides the narrow semantics.
                match ds.first() {
                    Some(O::Reg(r)) => match self.slot(e.fi, *r)?.ty.size_bits() {
                        16 => Width::W16,
                        8 => Width::W8,
                        _ => Width::W32,
                    },
                    _ => Width::W32,
                }
            }
            _ => Width::W32,
        };
        // A decoded access moves at most four elements: a `.v8` is two, the first carrying
        // the alignment of the whole vector.
        for (k, part) in ds.chunks(4).enumerate() {
            let mut d = [None; 4];
            for (slot, x) in d.iter_mut().zip(part) {
                *slot = self.dst(e, x)?;
            }
            e.push(Op::Ld {
                space,
                ty: sty,
                w,
                d,
                n: part.len() as u8,
                align: if k == 0 {
                    vector_align(sty.bytes(), ds.len())
                } else {
                    0
                },
                addr: part_addr(addr, k, sty.bytes()),
            });
        }
        Ok(())
    }

    pub(crate) fn store(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let ty = i.ty().ok_or("missing type")?;
        if ty.size_bits() == 128 {
            return self.access128(e, i, true);
        }
        let sty = scalar_of(ty).ok_or("unsupported type")?;
        let (space, addr) = self.addr(e, ops.first().ok_or("missing address")?, i.mods.space)?;
        let srcs = elems(ops.get(1).ok_or("missing source")?);
        for (k, part) in srcs.chunks(4).enumerate() {
            let mut a = [Src::Imm(0); 4];
            for (slot, x) in a.iter_mut().zip(part) {
                *slot = self.src(e, x, sty.bytes() == 8)?;
            }
            e.push(Op::St {
                space,
                ty: sty,
                a,
                n: part.len() as u8,
                align: if k == 0 {
                    vector_align(sty.bytes(), srcs.len())
                } else {
                    0
                },
                addr: part_addr(addr, k, sty.bytes()),
            });
        }
        Ok(())
    }

    pub(crate) fn atom(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let ty = i.ty().ok_or("missing type")?;
        let is_red = i.op == ir::Opcode::Red;
        let base = if is_red { 0 } else { 1 };
        let (space, addr) = self.addr(e, ops.get(base).ok_or("missing address")?, i.mods.space)?;
        let s = ty.is_signed();
        // `atom.add.noftz.htype` spells `.add` as part of the row, not as an `.op` slot.
        let atom_op = match i.mods.atom_op {
            Some(op) => op,
            None if i.mods.has(ir::Flag::NoFtz) => isa::AtomOp::Add,
            None => return Err("missing operation".into()),
        };
        let op = match (atom_op, ty) {
            (isa::AtomOp::Add, T::F16 | T::F16x2 | T::Bf16 | T::Bf16x2) => {
                let (f, x2) = super::control::half_format(ty).ok_or("not a half type")?;
                AtomOp::AddHalf { f, x2 }
            }
            (isa::AtomOp::Add, T::F32) => AtomOp::AddF32,
            (isa::AtomOp::Add, T::F64) => AtomOp::AddF64,
            (isa::AtomOp::Add, _) => AtomOp::Add,
            (isa::AtomOp::And, _) => AtomOp::And,
            (isa::AtomOp::Or, _) => AtomOp::Or,
            (isa::AtomOp::Xor, _) => AtomOp::Xor,
            (isa::AtomOp::Cas, _) => AtomOp::Cas,
            (isa::AtomOp::Exch, _) => AtomOp::Exch,
            (isa::AtomOp::Inc, _) => AtomOp::Inc,
            (isa::AtomOp::Dec, _) => AtomOp::Dec,
            (isa::AtomOp::Min, _) if s => AtomOp::MinS,
            (isa::AtomOp::Min, _) => AtomOp::MinU,
            (isa::AtomOp::Max, _) if s => AtomOp::MaxS,
            (isa::AtomOp::Max, _) => AtomOp::MaxU,
        };
        if ty.size_bits() < 16 {
            return Err(format!("{}-bit atomics are not supported", ty.size_bits()));
        }
        if ty.size_bits() == 128 {
            if op != AtomOp::Cas || is_red {
                return Err("only atom.cas has a .b128 form".into());
            }
            let regs: Vec<&O> = [0, 2, 3].iter().filter_map(|&k| ops.get(k)).collect();
            let h = self.halves128(e, &regs)?;
            let (Some(&d), Some(&b), Some(&c)) = (h.first(), h.get(2), h.get(4)) else {
                return Err("atom.cas.b128 needs d, b and c".into());
            };
            e.push(Op::AtomCas128 {
                space,
                d,
                addr,
                b,
                c,
            });
            return Ok(());
        }
        // 16-bit atomics move raw bits; `AddHalf` interprets them.
        let sty = if ty.size_bits() == 16 {
            Scalar::U16
        } else {
            scalar_of(ty).ok_or("unsupported type")?
        };
        let wide = sty.bytes() == 8;
        let b = self.src(e, ops.get(base + 1).ok_or("missing operand")?, wide)?;
        let c = match ops.get(base + 2) {
            Some(O::Omitted) | None => Src::Imm(0),
            Some(x) => self.src(e, x, wide)?,
        };
        let d = if is_red {
            None
        } else {
            self.dst(e, ops.first().ok_or("missing destination")?)?
        };
        e.push(Op::Atom {
            space,
            op,
            ty: sty,
            d,
            addr,
            b,
            c,
        });
        Ok(())
    }

    /// `mov d, {a, b}` (pack) and `mov {a, b}, d` (unpack).
    /// ptx-isa-1.1 §6.4.3 `mov.v4.f32 d, a`: the checker has resolved both sides (vector
    /// registers, brace lists, swizzles, Table 10 spreading and zero extension) to one element
    /// per lane, so this is one scalar move per lane. All lanes are read before any is written:
    /// sources that are also destinations go through scratch registers first.
    pub(crate) fn mov_whole_vector(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ty = i.ty().ok_or("missing type")?;
        let (Some(O::Vector(d)), Some(O::Vector(a))) = (i.operands.first(), i.operands.get(1))
        else {
            return Err("a vector mov needs vector operands".into());
        };
        if d.len() != a.len() || d.len() > 4 {
            return Err("vector mov operands differ in length".into());
        }
        let wide = ty.size_bits() == 64;
        let written: Vec<ir::RegId> = d.iter().filter_map(O::as_reg).collect();
        let mut srcs = Vec::with_capacity(a.len());
        for (k, s) in a.iter().enumerate() {
            let src = self.src(e, s, wide)?;
            let staged = match (s.as_reg().filter(|r| written.contains(r)), src) {
                (Some(_), Src::Reg(Reg::R32(_) | Reg::R64(_))) => {
                    self.copy_to_scratch(e, src, wide).map_or(src, Src::Reg)
                }
                (Some(_), Src::Reg(Reg::Pred(x))) => {
                    let t = self.scratch_pred(k);
                    e.setup(Op::PredOp {
                        op: PredLogic::Mov,
                        d: t,
                        a: PredSrc::Reg(x, false),
                        b: PredSrc::Imm(false),
                    });
                    Src::Reg(Reg::Pred(t))
                }
                (_, src) => src,
            };
            srcs.push(staged);
        }
        for (dst, src) in d.iter().zip(srcs) {
            let Some(dst) = self.dst(e, dst)? else {
                continue;
            };
            match (dst, src) {
                (Reg::R32(d), Src::Reg(Reg::R32(x))) => e.push(Op::Un32 {
                    op: UnOp::Mov,
                    w: super::inst::width_of(ty),
                    d,
                    a: S32::Reg(x),
                }),
                (Reg::R32(d), Src::Imm(v)) => e.push(Op::Un32 {
                    op: UnOp::Mov,
                    w: super::inst::width_of(ty),
                    d,
                    a: S32::Imm(v as u32),
                }),
                (Reg::R64(d), Src::Reg(Reg::R64(x))) => e.push(Op::Un64 {
                    op: UnOp::Mov,
                    d,
                    a: S64::Reg(x),
                }),
                (Reg::R64(d), Src::Imm(v)) => e.push(Op::Un64 {
                    op: UnOp::Mov,
                    d,
                    a: S64::Imm(v),
                }),
                (Reg::Pred(d), Src::Reg(Reg::Pred(x))) => e.push(Op::PredOp {
                    op: PredLogic::Mov,
                    d,
                    a: PredSrc::Reg(x, false),
                    b: PredSrc::Imm(false),
                }),
                (Reg::Pred(d), Src::Imm(v)) => e.push(Op::PredOp {
                    op: PredLogic::Mov,
                    d,
                    a: PredSrc::Imm(v != 0),
                    b: PredSrc::Imm(false),
                }),
                _ => return Err("vector mov elements differ in register size".into()),
            }
        }
        Ok(())
    }

    pub(crate) fn mov_vector(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let ty = i.ty().ok_or("missing type")?;
        match (ops.first(), ops.get(1)) {
            (Some(d), Some(O::Vector(v))) if v.len() == 2 => {
                let lo = self.s32(e, &v[0])?;
                let hi = self.s32(e, &v[1])?;
                match self.dst(e, d)? {
                    Some(Reg::R64(d)) => e.push(Op::Pack64 { d, lo, hi }),
                    Some(Reg::R32(d)) => e.push(Op::Pack32 { d, lo, hi }),
                    _ => return Err("bad pack destination".into()),
                }
            }
            (Some(O::Vector(v)), Some(a)) if v.len() == 2 => {
                let lo = match self.dst(e, &v[0])? {
                    Some(Reg::R32(r)) => Some(r),
                    _ => None,
                };
                let hi = match self.dst(e, &v[1])? {
                    Some(Reg::R32(r)) => Some(r),
                    _ => None,
                };
                if ty.size_bits() == 64 {
                    let a = self.s64(e, a)?;
                    let a = self.reg64_of(e, a);
                    e.push(Op::Unpack64 { lo, hi, a });
                } else {
                    let a = self.s32(e, a)?;
                    let a = self.reg32_of(e, a);
                    e.push(Op::Unpack32 { lo, hi, a });
                }
            }
            // `mov.b64 d, {a, b, c, e}`: four 16-bit parts, `a` lowest (PTX ISA 8.x §9.7.9.2).
            (Some(d), Some(O::Vector(v))) if v.len() == 4 => {
                let mut halves = [S32::Imm(0); 2];
                for (half, pair) in halves.iter_mut().zip(v.chunks(2)) {
                    let (Some(lo), Some(hi)) = (pair.first(), pair.get(1)) else {
                        return Err("four-part pack needs four parts".into());
                    };
                    let (lo, hi) = (self.s32(e, lo)?, self.s32(e, hi)?);
                    let t = self.scratch32(e);
                    e.setup(Op::Pack32 { d: t, lo, hi });
                    *half = S32::Reg(t);
                }
                let d = self.dst64(e, d)?;
                let [lo, hi] = halves;
                e.push(Op::Pack64 { d, lo, hi });
            }
            (Some(O::Vector(v)), Some(a)) if v.len() == 4 => {
                let a = self.s64(e, a)?;
                let a = self.reg64_of(e, a);
                let (t0, t1) = (self.scratch32(e), self.scratch32(e));
                e.setup(Op::Unpack64 {
                    lo: Some(t0),
                    hi: Some(t1),
                    a,
                });
                for (t, pair) in [t0, t1].into_iter().zip(v.chunks(2)) {
                    let part = |o: Option<&O>| -> LResult<Option<R32>> {
                        match o {
                            Some(o) => match self.dst(e, o)? {
                                Some(Reg::R32(r)) => Ok(Some(r)),
                                None => Ok(None),
                                _ => Err("four-part unpack needs 16-bit parts".into()),
                            },
                            None => Ok(None),
                        }
                    };
                    let (lo, hi) = (part(pair.first())?, part(pair.get(1))?);
                    e.push(Op::Unpack32 { lo, hi, a: t });
                }
            }
            _ => return Err("this form of mov is not supported".into()),
        }
        Ok(())
    }

    /// The texture unit an operand names: a `.tex`/`.texref` variable's binding, or a texture
    /// handle held in a register (a handle's value is the unit it names, docs/spec-notes.md).
    fn texture_unit(&mut self, e: &mut Emit<'_>, o: &O) -> LResult<S64> {
        match o {
            O::Address(ir::Address {
                base: ir::AddrBase::Var(v),
                ..
            })
            | O::VarAddr { var: v, .. } => self
                .m
                .texture_slot(*v)
                .map(|u| S64::Imm(u64::from(u)))
                .ok_or_else(|| "texture operand is not a .tex/.texref variable".into()),
            O::Address(ir::Address {
                base: ir::AddrBase::Reg(r),
                offset: 0,
            }) => self.s64(e, &O::Reg(*r)),
            O::Reg(_) => self.s64(e, o),
            _ => Err("unsupported texture operand".into()),
        }
    }

    /// `txq.tquery.b32 d, [tex]`.
    pub(crate) fn txq(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let tex = self.texture_unit(e, ops.get(1).ok_or("missing texture operand")?)?;
        let q = i.mods.query.ok_or("missing query")?;
        let query = TexQuery::from_spelling(q.spelling())
            .ok_or_else(|| format!("txq query {} is not supported", q.spelling()))?;
        let d = self.dst32(e, ops.first().ok_or("missing destination")?)?;
        e.push(Op::Txq { tex, query, d });
        Ok(())
    }

    pub(crate) fn tex(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        // Array textures are bound as one dimension more, the layer index last: a `.a1d`
        // texture of width W and L layers is a W x L texture, a `.a2d` one W x H x L. The
        // coordinate vector writes the layer first (`{layer, x}`, `{layer, x, y, _}`).
        let (dim, layer_first) = match i.mods.geom {
            Some(isa::Geom::D1) => (1, false),
            Some(isa::Geom::D2) => (2, false),
            Some(isa::Geom::D3) => (3, false),
            Some(isa::Geom::A1d) => (2, true),
            Some(isa::Geom::A2d) => (3, true),
            Some(isa::Geom::Cube) => (4, false),
            Some(isa::Geom::Acube) => (4, true),
            g => return Err(format!("texture geometry {g:?} is not supported")),
        };
        let ds = elems(ops.first().ok_or("missing destination")?);
        // Channels without a destination (a scalar or `_` destination) go to scratch; a 64-bit
        // destination (PTX 1.x allows `.b64/.u64/.s64/.f64` results) gets its channel's 32
        // bits zero-extended, after the lookup.
        let mut d = [R32(0); 4];
        let mut widen = Vec::new();
        for (k, slot) in d.iter_mut().enumerate() {
            *slot = match ds.get(k).map(|x| self.dst(e, x)).transpose()?.flatten() {
                Some(Reg::R32(r)) => r,
                Some(Reg::R64(r)) => {
                    let t = self.scratch32(e);
                    widen.push(Op::Pack64 {
                        d: r,
                        lo: S32::Reg(t),
                        hi: S32::Imm(0),
                    });
                    t
                }
                _ => self.scratch32(e),
            };
        }
        // `[tex, {coords}]` (one operand) or ptx-isa-1.1's `tex, {coords}` (two operands).
        // A texture handle in a register is `a, {coords}` too.
        let (tex, coords): (S64, Vec<O>) = match (ops.get(1), ops.get(2)) {
            (Some(O::Texture { tex, coords, .. }), _) => {
                let t = match *tex {
                    ir::TexRef::Var(var) => O::VarAddr { var, offset: 0 },
                    ir::TexRef::Reg(r) => O::Reg(r),
                };
                (self.texture_unit(e, &t)?, coords.to_vec())
            }
            (Some(a), Some(O::Vector(v))) => (self.texture_unit(e, a)?, v.to_vec()),
            (Some(a), Some(x)) => (self.texture_unit(e, a)?, vec![x.clone()]),
            _ => return Err("unsupported texture operand".into()),
        };
        if dim == 4 {
            // `.cube` {x, y, z, _}; `.acube` {index, x, y, z}: stored as x, y, z, index.
            let order: [usize; 4] = if layer_first {
                [1, 2, 3, 0]
            } else {
                [0, 1, 2, 3]
            };
            let mut coords4 = [S32::Imm(0); 4];
            for (k, &from) in order
                .iter()
                .enumerate()
                .take(if layer_first { 4 } else { 3 })
            {
                if let Some(x) = coords.get(from) {
                    coords4[k] = self.s32(e, x)?;
                }
            }
            e.push(Op::TexCube {
                tex,
                d,
                coords: coords4,
                float_coords: i.type_slot(1) == Some(T::F32),
                array: layer_first,
            });
            widen.into_iter().for_each(|op| e.push_more(op));
            return Ok(());
        }
        let mut c = [S32::Imm(0); 3];
        let order: &[usize] = match (layer_first, dim) {
            (true, 2) => &[1, 0],
            (true, _) => &[1, 2, 0],
            _ => &[0, 1, 2],
        };
        for (k, &from) in order.iter().enumerate() {
            if let Some(x) = coords.get(from) {
                c[k] = self.s32(e, x)?;
            }
        }
        let float_coords = if i.type_slot(1) != Some(T::F32) {
            0
        } else if layer_first {
            (1u8 << (dim - 1)) - 1
        } else {
            0b111
        };
        e.push(Op::Tex {
            tex,
            dim,
            d,
            coords: c,
            float_coords,
        });
        widen.into_iter().for_each(|op| e.push_more(op));
        Ok(())
    }
}

impl Lowerer<'_> {
    /// A register operand with an optional video selector.
    fn video_src(&self, e: &mut Emit<'_>, o: &O) -> LResult<(S32, Option<ir::Selector>)> {
        match o {
            O::Selected { reg, sel } => match self.reg(e, *reg)? {
                Reg::R32(r) => Ok((S32::Reg(r), Some(*sel))),
                _ => Err("video operands are 32-bit registers".into()),
            },
            other => Ok((self.s32(e, other)?, None)),
        }
    }

    pub(crate) fn simd_video(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        use ir::Opcode as Oc;
        use ops::video::{ByteLanes, HalfLanes, Mask2, Mask4, Sign, Simd2Mode, Simd4Mode};
        let ops = &i.operands;
        let sign = |k: usize| {
            if i.type_slot(k).is_some_and(|t| t.is_signed()) {
                Sign::Signed
            } else {
                Sign::Unsigned
            }
        };
        let op = match i.op {
            Oc::Vadd4 | Oc::Vadd2 => SimdOp::Add,
            Oc::Vsub4 | Oc::Vsub2 => SimdOp::Sub,
            Oc::Vavrg4 | Oc::Vavrg2 => SimdOp::Avrg,
            Oc::Vabsdiff4 | Oc::Vabsdiff2 => SimdOp::Absdiff,
            Oc::Vmin4 | Oc::Vmin2 => SimdOp::Min,
            _ => SimdOp::Max,
        };
        let four = matches!(
            i.op,
            Oc::Vadd4 | Oc::Vsub4 | Oc::Vavrg4 | Oc::Vabsdiff4 | Oc::Vmin4 | Oc::Vmax4
        );
        let (d, dsel) = match ops.first() {
            Some(O::Selected { reg, sel }) => (*reg, Some(*sel)),
            Some(O::Reg(r)) => (*r, None),
            _ => return Err("missing destination".into()),
        };
        let Reg::R32(d) = self.reg(e, d)? else {
            return Err("video destination must be 32-bit".into());
        };
        let (a, asel) = self.video_src(e, ops.get(1).ok_or("missing a")?)?;
        let (b, bsel) = self.video_src(e, ops.get(2).ok_or("missing b")?)?;
        let c = self.s32(e, ops.get(3).ok_or("missing c")?)?;
        let add = i.mods.video_op2.is_some();
        let sat = i.mods.has(ir::Flag::Sat);
        let lanes = |s: &ir::Selector| s.lanes[..(s.len as usize).min(4)].to_vec();
        if four {
            let mut m = Simd4Mode::new(sign(0), sign(1), sign(2));
            m.sat = sat;
            m.add = add;
            if let Some(s) = asel {
                let l = s.lanes;
                m.asel =
                    ByteLanes::from_ptx_digits([l[0], l[1], l[2], l[3]]).ok_or("bad selector")?;
            }
            if let Some(s) = bsel {
                let l = s.lanes;
                m.bsel =
                    ByteLanes::from_ptx_digits([l[0], l[1], l[2], l[3]]).ok_or("bad selector")?;
            }
            if let Some(s) = dsel {
                m.mask = Mask4::from_lanes(&lanes(&s)).ok_or("bad mask")?;
            }
            e.push(Op::Simd4 {
                op,
                mode: m,
                d,
                a,
                b,
                c,
            });
        } else {
            let mut m = Simd2Mode::new(sign(0), sign(1), sign(2));
            m.sat = sat;
            m.add = add;
            if let Some(s) = asel {
                let l = s.lanes;
                m.asel = HalfLanes::from_ptx_digits([l[0], l[1]]).ok_or("bad selector")?;
            }
            if let Some(s) = bsel {
                let l = s.lanes;
                m.bsel = HalfLanes::from_ptx_digits([l[0], l[1]]).ok_or("bad selector")?;
            }
            if let Some(s) = dsel {
                m.mask = Mask2::from_lanes(&lanes(&s)).ok_or("bad mask")?;
            }
            e.push(Op::Simd2 {
                op,
                mode: m,
                d,
                a,
                b,
                c,
            });
        }
        Ok(())
    }
}

impl Lowerer<'_> {
    /// Scalar video instructions and `vset2`/`vset4`, evaluated per lane through `ops::video`.
    /// `vmad`: `{-}a * {-}b + {-}c` with `.po`, `.shr7/.shr15` and `.sat`.
    pub(crate) fn vmad(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        use ops::video::{PartSel, Sign, VmadMode, VmadNeg, VmadScale};
        let ops_ = &i.operands;
        let sign = |k: usize| {
            if i.type_slot(k).is_some_and(|t| t.is_signed()) {
                Sign::Signed
            } else {
                Sign::Unsigned
            }
        };
        let mut negs = [false; 3];
        let mut srcs = [Src::Imm(0); 4];
        let mut sels = [None; 2];
        for k in 0..3 {
            let o = ops_.get(k + 1).ok_or("missing operand")?;
            let (o2, neg) = match o {
                O::Neg(r) => (O::Reg(*r), true),
                O::NegSelected { reg, sel } => (
                    O::Selected {
                        reg: *reg,
                        sel: *sel,
                    },
                    true,
                ),
                other => (other.clone(), false),
            };
            negs[k] = neg;
            let (v, sel) = self.video_src(e, &o2)?;
            if k < 2 {
                sels[k] = sel;
            }
            srcs[k] = match v {
                S32::Reg(r) => Src::Reg(Reg::R32(r)),
                S32::Imm(x) => Src::Imm(x as u64),
            };
        }
        let part = |s: &Option<ir::Selector>| -> LResult<PartSel> {
            match s {
                None => Ok(PartSel::Word),
                Some(s) => match s.kind {
                    ir::SelectorKind::Byte => PartSel::byte(s.lanes[0]),
                    ir::SelectorKind::Half => PartSel::half(s.lanes[0]),
                }
                .ok_or_else(|| "bad selector".to_string()),
            }
        };
        let mut m = VmadMode::new(sign(1), sign(2));
        m.asel = part(&sels[0])?;
        m.bsel = part(&sels[1])?;
        m.sat = i.mods.has(ir::Flag::Sat);
        m.scale = match i.mods.video_scale {
            Some(isa::VideoScale::Shr7) => VmadScale::Shr7,
            Some(isa::VideoScale::Shr15) => VmadScale::Shr15,
            None => VmadScale::None,
        };
        // The pseudo-code's `if (.po) … else if (a.negate ^ b.negate) … else if (c.negate)`:
        // `-a, -b` cancel, and a negated product takes precedence over `-c` (ptx-video.md
        // §9.7.18.1.3; the `.po` row admits no negation).
        m.neg = if i.mods.has(ir::Flag::Po) {
            VmadNeg::PlusOne
        } else if negs[0] != negs[1] {
            VmadNeg::Product
        } else if negs[2] {
            VmadNeg::C
        } else {
            VmadNeg::None
        };
        let d = self.reg(
            e,
            match ops_.first() {
                Some(O::Reg(r)) => *r,
                _ => return Err("missing destination".into()),
            },
        )?;
        e.push(Op::Lane {
            f: crate::lane_ops::LaneOp::Vmad(m),
            d,
            srcs,
        });
        Ok(())
    }

    pub(crate) fn scalar_video(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        use crate::lane_ops::{LaneOp, VideoKind};
        use ir::Opcode as Oc;
        use ops::video::{
            ByteLanes, ClampWrap, HalfLanes, Mask2, Mask4, PartSel, Sign, Simd2Mode, Simd4Mode,
            VCmp, VideoScalar, VideoSecondary,
        };
        let ops_ = &i.operands;
        let sign = |k: usize| {
            if i.type_slot(k).is_some_and(|t| t.is_signed()) {
                Sign::Signed
            } else {
                Sign::Unsigned
            }
        };
        let part = |s: &ir::Selector| match s.kind {
            ir::SelectorKind::Byte => PartSel::byte(s.lanes[0]),
            ir::SelectorKind::Half => PartSel::half(s.lanes[0]),
        };
        let vcmp = || -> LResult<VCmp> {
            Ok(match i.mods.cmp {
                Some(isa::CmpOp::Eq) => VCmp::Eq,
                Some(isa::CmpOp::Ne) => VCmp::Ne,
                Some(isa::CmpOp::Lt) => VCmp::Lt,
                Some(isa::CmpOp::Le) => VCmp::Le,
                Some(isa::CmpOp::Gt) => VCmp::Gt,
                Some(isa::CmpOp::Ge) => VCmp::Ge,
                c => return Err(format!("comparison {c:?} is not a video comparison")),
            })
        };
        let (d, dsel) = match ops_.first() {
            Some(O::Selected { reg, sel }) => (*reg, Some(*sel)),
            Some(O::Reg(r)) => (*r, None),
            _ => return Err("missing destination".into()),
        };
        let d = self.reg(e, d)?;
        let (a, asel) = self.video_src(e, ops_.get(1).ok_or("missing a")?)?;
        let (b, bsel) = self.video_src(e, ops_.get(2).ok_or("missing b")?)?;
        let c = match ops_.get(3) {
            Some(O::Omitted) | None => S32::Imm(0),
            Some(x) => self.s32(e, x)?,
        };
        let f = match i.op {
            Oc::Vset2 | Oc::Vset4 => {
                let cmp = vcmp()?;
                let add = i.mods.video_op2.is_some();
                if i.op == Oc::Vset4 {
                    let mut m = Simd4Mode::new(Sign::Unsigned, sign(0), sign(1));
                    m.add = add;
                    if let Some(s) = asel {
                        let l = s.lanes;
                        m.asel = ByteLanes::from_ptx_digits([l[0], l[1], l[2], l[3]])
                            .ok_or("bad selector")?;
                    }
                    if let Some(s) = bsel {
                        let l = s.lanes;
                        m.bsel = ByteLanes::from_ptx_digits([l[0], l[1], l[2], l[3]])
                            .ok_or("bad selector")?;
                    }
                    if let Some(s) = dsel {
                        m.mask = Mask4::from_lanes(&s.lanes[..(s.len as usize).min(4)])
                            .ok_or("bad mask")?;
                    }
                    LaneOp::Vset4(m, cmp)
                } else {
                    let mut m = Simd2Mode::new(Sign::Unsigned, sign(0), sign(1));
                    m.add = add;
                    if let Some(s) = asel {
                        m.asel = HalfLanes::from_ptx_digits([s.lanes[0], s.lanes[1]])
                            .ok_or("bad selector")?;
                    }
                    if let Some(s) = bsel {
                        m.bsel = HalfLanes::from_ptx_digits([s.lanes[0], s.lanes[1]])
                            .ok_or("bad selector")?;
                    }
                    if let Some(s) = dsel {
                        m.mask = Mask2::from_lanes(&s.lanes[..(s.len as usize).min(4)])
                            .ok_or("bad mask")?;
                    }
                    LaneOp::Vset2(m, cmp)
                }
            }
            _ => {
                let (dt, at, bt) = if i.op == Oc::Vset {
                    (Sign::Unsigned, sign(0), sign(1))
                } else {
                    (sign(0), sign(1), sign(2))
                };
                let mut m = VideoScalar::new(dt, at, bt);
                m.sat = i.mods.has(ir::Flag::Sat);
                if let Some(s) = asel {
                    m.asel = part(&s).ok_or("bad selector")?;
                }
                if let Some(s) = bsel {
                    m.bsel = part(&s).ok_or("bad selector")?;
                }
                m.secondary = match (i.mods.video_op2, dsel) {
                    (Some(isa::VideoOp2::Add), _) => VideoSecondary::Add,
                    (Some(isa::VideoOp2::Min), _) => VideoSecondary::Min,
                    (Some(isa::VideoOp2::Max), _) => VideoSecondary::Max,
                    (None, Some(s)) => VideoSecondary::Merge(part(&s).ok_or("bad selector")?),
                    (None, None) => VideoSecondary::None,
                };
                let cw = if i.mods.clamp == Some(isa::ClampMode::Clamp) {
                    ClampWrap::Clamp
                } else {
                    ClampWrap::Wrap
                };
                let k = match i.op {
                    Oc::Vadd => VideoKind::Add,
                    Oc::Vsub => VideoKind::Sub,
                    Oc::Vabsdiff => VideoKind::Absdiff,
                    Oc::Vmin => VideoKind::Min,
                    Oc::Vmax => VideoKind::Max,
                    Oc::Vshl => VideoKind::Shl(cw),
                    Oc::Vshr => VideoKind::Shr(cw),
                    _ => VideoKind::Set(vcmp()?),
                };
                LaneOp::Video(k, m)
            }
        };
        let to_src = |s: S32| match s {
            S32::Reg(r) => Src::Reg(Reg::R32(r)),
            S32::Imm(v) => Src::Imm(v as u64),
        };
        e.push(Op::Lane {
            f,
            d,
            srcs: [to_src(a), to_src(b), to_src(c), Src::Imm(0)],
        });
        Ok(())
    }
}
