//! Video instructions (ptx-video.md): the modifiers and operand selectors read from the IR
//! into `ops::video`'s modes, and the result computed there.

use crate::alu::Cx;
use crate::Fault;
use ir::{Opcode as Oc, Operand, Selector, SelectorKind, Type};
use ops::video::{
    self as v, ByteLanes, ClampWrap, HalfLanes, Mask2, Mask4, PartSel, Sign, Simd2Mode, Simd4Mode,
    VCmp, VideoScalar, VideoSecondary, VmadMode, VmadNeg, VmadScale,
};

/// A source operand: its register value, selector and negation.
struct Src {
    val: u32,
    sel: Option<Selector>,
    neg: bool,
}

fn src(cx: &Cx<'_, '_, '_>, k: usize) -> Result<Src, Fault> {
    let (op, sel, neg) = match cx.op(k) {
        Operand::Selected { reg, sel } => (Operand::Reg(*reg), Some(*sel), false),
        Operand::NegSelected { reg, sel } => (Operand::Reg(*reg), Some(*sel), true),
        Operand::Neg(r) => (Operand::Reg(*r), None, true),
        o => (o.clone(), None, false),
    };
    let val = cx.t.src(cx.env, &op, Type::B32)? as u32;
    Ok(Src { val, sel, neg })
}

fn sign(t: Option<Type>) -> Sign {
    if t.is_some_and(|t| t.is_signed()) {
        Sign::Signed
    } else {
        Sign::Unsigned
    }
}

fn part(s: Option<Selector>) -> Option<PartSel> {
    match s {
        None => Some(PartSel::Word),
        Some(s) if s.kind == SelectorKind::Byte => PartSel::byte(s.lanes[0]),
        Some(s) => PartSel::half(s.lanes[0]),
    }
}

fn lanes(s: &Selector) -> &[u8] {
    &s.lanes[..usize::from(s.len).min(4)]
}

fn vcmp(i: &ir::Inst) -> Option<VCmp> {
    Some(match i.mods.cmp? {
        isa::CmpOp::Eq => VCmp::Eq,
        isa::CmpOp::Ne => VCmp::Ne,
        isa::CmpOp::Lt => VCmp::Lt,
        isa::CmpOp::Le => VCmp::Le,
        isa::CmpOp::Gt => VCmp::Gt,
        isa::CmpOp::Ge => VCmp::Ge,
        _ => return None,
    })
}

fn simd4(
    i: &ir::Inst,
    dt: Sign,
    at: Sign,
    bt: Sign,
    a: &Src,
    b: &Src,
    d: Option<Selector>,
) -> Option<Simd4Mode> {
    let mut m = Simd4Mode::new(dt, at, bt);
    m.sat = i.mods.has(ir::Flag::Sat);
    m.add = i.mods.video_op2.is_some();
    if let Some(s) = a.sel {
        m.asel = ByteLanes::from_ptx_digits([s.lanes[0], s.lanes[1], s.lanes[2], s.lanes[3]])?;
    }
    if let Some(s) = b.sel {
        m.bsel = ByteLanes::from_ptx_digits([s.lanes[0], s.lanes[1], s.lanes[2], s.lanes[3]])?;
    }
    if let Some(s) = d {
        m.mask = Mask4::from_lanes(lanes(&s))?;
    }
    Some(m)
}

fn simd2(
    i: &ir::Inst,
    dt: Sign,
    at: Sign,
    bt: Sign,
    a: &Src,
    b: &Src,
    d: Option<Selector>,
) -> Option<Simd2Mode> {
    let mut m = Simd2Mode::new(dt, at, bt);
    m.sat = i.mods.has(ir::Flag::Sat);
    m.add = i.mods.video_op2.is_some();
    if let Some(s) = a.sel {
        m.asel = HalfLanes::from_ptx_digits([s.lanes[0], s.lanes[1]])?;
    }
    if let Some(s) = b.sel {
        m.bsel = HalfLanes::from_ptx_digits([s.lanes[0], s.lanes[1]])?;
    }
    if let Some(s) = d {
        m.mask = Mask2::from_lanes(lanes(&s))?;
    }
    Some(m)
}

/// Video instructions; `Ok(false)` when `i` is not one.
pub(crate) fn exec(cx: &mut Cx<'_, '_, '_>) -> Result<bool, Fault> {
    let i = cx.i;
    let bad = || crate::fault::unsupported(i);
    let video = matches!(
        i.op,
        Oc::Vadd
            | Oc::Vsub
            | Oc::Vabsdiff
            | Oc::Vmin
            | Oc::Vmax
            | Oc::Vshl
            | Oc::Vshr
            | Oc::Vset
            | Oc::Vmad
            | Oc::Vadd2
            | Oc::Vsub2
            | Oc::Vavrg2
            | Oc::Vabsdiff2
            | Oc::Vmin2
            | Oc::Vmax2
            | Oc::Vset2
            | Oc::Vadd4
            | Oc::Vsub4
            | Oc::Vavrg4
            | Oc::Vabsdiff4
            | Oc::Vmin4
            | Oc::Vmax4
            | Oc::Vset4
    );
    if !video {
        return Ok(false);
    }
    let (d, dsel) = match cx.op(0) {
        Operand::Selected { reg, sel } => (*reg, Some(*sel)),
        Operand::Reg(r) => (*r, None),
        _ => return Err(bad()),
    };
    let (a, b) = (src(cx, 1)?, src(cx, 2)?);
    let c = match cx.op(3) {
        Operand::Omitted => Src {
            val: 0,
            sel: None,
            neg: false,
        },
        _ => src(cx, 3)?,
    };
    let (s0, s1, s2) = (
        sign(i.type_slot(0)),
        sign(i.type_slot(1)),
        sign(i.type_slot(2)),
    );
    let r = match i.op {
        Oc::Vmad => {
            let mut m = VmadMode::new(s1, s2);
            m.asel = part(a.sel).ok_or_else(bad)?;
            m.bsel = part(b.sel).ok_or_else(bad)?;
            m.sat = i.mods.has(ir::Flag::Sat);
            m.scale = match i.mods.video_scale {
                Some(isa::VideoScale::Shr7) => VmadScale::Shr7,
                Some(isa::VideoScale::Shr15) => VmadScale::Shr15,
                None => VmadScale::None,
            };
            // ptx-video.md vmad pseudo-code: `.po`, else a negated product (`-a` xor `-b`),
            // else a negated `c`.
            m.neg = if i.mods.has(ir::Flag::Po) {
                VmadNeg::PlusOne
            } else if a.neg != b.neg {
                VmadNeg::Product
            } else if c.neg {
                VmadNeg::C
            } else {
                VmadNeg::None
            };
            v::vmad(a.val, b.val, c.val, m)
        }
        Oc::Vset4 => {
            let m = simd4(i, Sign::Unsigned, s0, s1, &a, &b, dsel).ok_or_else(bad)?;
            v::vset4(a.val, b.val, c.val, m, vcmp(i).ok_or_else(bad)?)
        }
        Oc::Vset2 => {
            let m = simd2(i, Sign::Unsigned, s0, s1, &a, &b, dsel).ok_or_else(bad)?;
            v::vset2(a.val, b.val, c.val, m, vcmp(i).ok_or_else(bad)?)
        }
        Oc::Vadd4 | Oc::Vsub4 | Oc::Vavrg4 | Oc::Vabsdiff4 | Oc::Vmin4 | Oc::Vmax4 => {
            let m = simd4(i, s0, s1, s2, &a, &b, dsel).ok_or_else(bad)?;
            let f = match i.op {
                Oc::Vadd4 => v::vadd4,
                Oc::Vsub4 => v::vsub4,
                Oc::Vavrg4 => v::vavrg4,
                Oc::Vabsdiff4 => v::vabsdiff4,
                Oc::Vmin4 => v::vmin4,
                _ => v::vmax4,
            };
            f(a.val, b.val, c.val, m)
        }
        Oc::Vadd2 | Oc::Vsub2 | Oc::Vavrg2 | Oc::Vabsdiff2 | Oc::Vmin2 | Oc::Vmax2 => {
            let m = simd2(i, s0, s1, s2, &a, &b, dsel).ok_or_else(bad)?;
            let f = match i.op {
                Oc::Vadd2 => v::vadd2,
                Oc::Vsub2 => v::vsub2,
                Oc::Vavrg2 => v::vavrg2,
                Oc::Vabsdiff2 => v::vabsdiff2,
                Oc::Vmin2 => v::vmin2,
                _ => v::vmax2,
            };
            f(a.val, b.val, c.val, m)
        }
        _ => {
            let (dt, at, bt) = if i.op == Oc::Vset {
                (Sign::Unsigned, s0, s1)
            } else {
                (s0, s1, s2)
            };
            let mut m = VideoScalar::new(dt, at, bt);
            m.sat = i.mods.has(ir::Flag::Sat);
            m.asel = part(a.sel).ok_or_else(bad)?;
            m.bsel = part(b.sel).ok_or_else(bad)?;
            m.secondary = match (i.mods.video_op2, dsel) {
                (Some(isa::VideoOp2::Add), _) => VideoSecondary::Add,
                (Some(isa::VideoOp2::Min), _) => VideoSecondary::Min,
                (Some(isa::VideoOp2::Max), _) => VideoSecondary::Max,
                (None, Some(s)) => VideoSecondary::Merge(part(Some(s)).ok_or_else(bad)?),
                (None, None) => VideoSecondary::None,
            };
            let cw = match i.mods.clamp {
                Some(isa::ClampMode::Clamp) => ClampWrap::Clamp,
                _ => ClampWrap::Wrap,
            };
            let (x, y, z) = (a.val, b.val, c.val);
            match i.op {
                Oc::Vadd => v::vadd(x, y, z, m),
                Oc::Vsub => v::vsub(x, y, z, m),
                Oc::Vabsdiff => v::vabsdiff(x, y, z, m),
                Oc::Vmin => v::vmin(x, y, z, m),
                Oc::Vmax => v::vmax(x, y, z, m),
                Oc::Vshl => v::vshl(x, y, z, m, cw),
                Oc::Vshr => v::vshr(x, y, z, m, cw),
                _ => v::vset(x, y, z, m, vcmp(i).ok_or_else(bad)?),
            }
        }
    };
    cx.t.set_reg(cx.env, d, Type::B32, u64::from(r));
    Ok(true)
}
