//! Scalar video instructions onto Fermi's video rows: `vadd`/`vsub` → `VADD` (a negated
//! second source subtracts), `vmin`/`vmax` → `VMNMX` (`.MX` for the maximum), `vshl`/`vshr`
//! → `VSHL`/`VSHR` (`.W` for `.wrap`). The PTX types and selectors map one to one onto the
//! rows' source types (`.b1` of a 32-bit source is an 8-bit source with byte select 1,
//! printed on the operand as `R2.B1`), the destination type onto `.UD`, `.sat` onto `.SAT`,
//! the secondary operation onto `.ACC`/`.MIN`/`.MAX` and a destination selector onto the
//! merges `.MRG_16L/16H/8B0/8B2` (the only ones the rows have). `vabsdiff` → `VABSDIFF` (the
//! same fields, `.SAT`), `vset.cmp` → `VSET.CMP` (types only from the sources: the result is
//! unsigned). The Fermi executor runs these rows through the same `ops::video` functions as
//! the PTX executor. `vmad` stays unselected: the table has no `VMAD` row (envydis'
//! entry has fields — product signs, `.PO`, a shift of the result — not yet encoded).

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Inst, Opcode, Operand, SelectorKind};
use isa::{ClampMode, Flag, VideoOp2};

/// A source's part: its Fermi type spelling and the operand suffix.
fn part(signed: bool, sel: Option<&ir::Selector>) -> R<(String, &'static str)> {
    let s = if signed { "S" } else { "U" };
    Ok(match sel.map(|x| (x.kind, x.lanes[0])) {
        None => (format!("{s}32"), ""),
        Some((SelectorKind::Byte, k)) => (
            format!("{s}8"),
            match k {
                0 => "",
                1 => ".B1",
                2 => ".B2",
                3 => ".B3",
                _ => return Err("a byte selector above .b3".into()),
            },
        ),
        Some((SelectorKind::Half, 0)) => (format!("{s}16"), ""),
        Some((SelectorKind::Half, 1)) => (format!("{s}16"), ".H1"),
        Some(_) => return Err("a half-word selector above .h1".into()),
    })
}

impl Selector<'_> {
    pub(super) fn video(&mut self, inst: &Inst, g: &str) -> R<()> {
        // vset has no destination type: its type slots are the sources'.
        let first = usize::from(inst.op != Opcode::Vset);
        let signed = |k: usize| {
            let slot = if k == 0 { 0 } else { k - 1 + first };
            (k > 0 || first == 1) && inst.type_slot(slot).is_some_and(|t| t.is_signed())
        };
        let (d, dsel) = match inst.operands.first() {
            Some(Operand::Selected { reg, sel }) => (*reg, Some(*sel)),
            Some(Operand::Reg(r)) => (*r, None),
            _ => return Err("an unsupported video destination".into()),
        };
        let d = self.gpr(d)?;
        let src = |s: &mut Self, k: usize, scratch: u8| -> R<(String, Option<ir::Selector>)> {
            match Self::opnd(inst, k)? {
                Operand::Selected { reg, sel } => Ok((s.gpr(*reg)?, Some(*sel))),
                o @ (Operand::Reg(_) | Operand::Imm(_)) => Ok((s.reg32(o, g, scratch)?, None)),
                _ => Err("an unsupported video source".into()),
            }
        };
        let (a, asel) = src(self, 1, SCRATCH)?;
        let (b, bsel) = src(self, 2, SCRATCH_PAIR)?;
        let (at, asuf) = part(signed(1), asel.as_ref())?;
        let (bt, bsuf) = part(signed(2), bsel.as_ref())?;
        let types = if at == "S32" && bt == "S32" {
            String::new()
        } else {
            format!(".{at}.{bt}")
        };
        let ud = if signed(0) || inst.op == Opcode::Vset {
            ""
        } else {
            ".UD"
        };
        let sat = if inst.mods.has(Flag::Sat) { ".SAT" } else { "" };
        let op2 = match (inst.mods.video_op2, dsel) {
            (Some(VideoOp2::Add), _) => ".ACC",
            (Some(VideoOp2::Min), _) => ".MIN",
            (Some(VideoOp2::Max), _) => ".MAX",
            (None, Some(s)) => match (s.kind, s.lanes[0]) {
                (SelectorKind::Half, 0) => ".MRG_16L",
                (SelectorKind::Half, 1) => ".MRG_16H",
                (SelectorKind::Byte, 0) => ".MRG_8B0",
                (SelectorKind::Byte, 2) => ".MRG_8B2",
                _ => return Err("a destination selector Fermi's video merges do not have".into()),
            },
            (None, None) => "",
        };
        let c = match inst.operands.get(3) {
            None | Some(Operand::Omitted) => "RZ".to_string(),
            Some(o) => self.reg32(o, g, SCRATCH_PAIR + 1)?,
        };
        let wrap = inst.mods.clamp != Some(ClampMode::Clamp);
        let (name, mid, neg) = match inst.op {
            Opcode::Vadd => ("VADD", sat.to_string(), ""),
            Opcode::Vsub => ("VADD", sat.to_string(), "-"),
            Opcode::Vabsdiff => ("VABSDIFF", sat.to_string(), ""),
            Opcode::Vset => {
                let cmp = match inst.mods.cmp {
                    Some(isa::CmpOp::Eq) => ".EQ",
                    Some(isa::CmpOp::Ne) => ".NE",
                    Some(isa::CmpOp::Lt) => ".LT",
                    Some(isa::CmpOp::Le) => ".LE",
                    Some(isa::CmpOp::Gt) => ".GT",
                    Some(isa::CmpOp::Ge) => ".GE",
                    _ => return Err("a comparison vset does not have".into()),
                };
                ("VSET", cmp.to_string(), "")
            }
            Opcode::Vmin => ("VMNMX", String::new(), ""),
            Opcode::Vmax => ("VMNMX", ".MX".to_string(), ""),
            Opcode::Vshl | Opcode::Vshr => {
                let name = if inst.op == Opcode::Vshl {
                    "VSHL"
                } else {
                    "VSHR"
                };
                (name, if wrap { ".W".into() } else { String::new() }, "")
            }
            _ => return Err("this video instruction has no selection rule".into()),
        };
        if sat == ".SAT"
            && matches!(
                inst.op,
                Opcode::Vmin | Opcode::Vmax | Opcode::Vshl | Opcode::Vshr
            )
        {
            let parts = super::video_sat::Parts {
                d,
                a: format!("{a}{asuf}"),
                b: format!("{b}{bsuf}"),
                b_reg: b.clone(),
                b_sel: bsel,
                at,
                bt,
                d_signed: signed(0),
                a_signed: signed(1),
                dsel: dsel.map(|s| s.kind),
                mid,
                op2,
                c,
            };
            return self.video_sat(inst, g, parts);
        }
        if sat == ".SAT" && !matches!(inst.op, Opcode::Vadd | Opcode::Vsub | Opcode::Vabsdiff) {
            return Err(".sat on this video instruction has no Fermi form in the table".into());
        }
        self.emit(
            g,
            format!("{name}{ud}{types}{mid}{op2} {d}, {a}{asuf}, {neg}{b}{bsuf}, {c};"),
        );
        Ok(())
    }
}
