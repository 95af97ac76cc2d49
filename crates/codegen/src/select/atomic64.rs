//! 64-bit atomics sm_20 has no `ATOM` form for (`min/max .s64/.u64`, `and/or/xor .b64`,
//! `add .f64`) on global or generic addresses: a compare-and-swap loop, as NVIDIA's compilers
//! emit for atomics a target lacks.
//!
//! ```text
//!         LD.E.64 d, [a]              first guess of the old value (any value is correct)
//!         SSY after
//! top:    R2:R3 = op(d, b)
//!         ATOM.E.CAS.U64 R2, [a], d, R2   R2:R3 = the memory value the CAS found
//!         P6 = R2:R3 != d             the CAS failed: memory held another value
//!         d = R2:R3                   the value found: the result if it succeeded
//!   @P6   BRA top
//!         NOP.S
//! after:
//! ```
//!
//! Each lane loops until its own CAS succeeds (the Fermi executor, like the GPU, serializes a
//! warp's atomics to one address, so at least one lane of a colliding group succeeds each
//! round); lanes that are done wait at the `NOP.S` for the others, so the warp reconverges.
//! The loop needs a pair for the old value: `atom`'s destination, or for `red` (which has
//! none) R4:R5, which the allocator keeps free in bodies with such a `red`
//! (`select::needs_f64_scratch`).

use super::{Selector, R};
use crate::regs::{Loc, SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand, Space, Type};
use isa::AtomOp;

/// Whether `atom` with `op` and `ty` is one this module emulates.
pub(super) fn emulated(op: AtomOp, ty: Type) -> bool {
    matches!(
        (op, ty),
        (AtomOp::Min | AtomOp::Max, Type::S64 | Type::U64)
            | (AtomOp::And | AtomOp::Or | AtomOp::Xor, Type::B64)
            | (AtomOp::Add, Type::F64)
    )
}

/// Where an emulated atomic's immediate operand goes (R4:R5 hold `red`'s old value).
const IMM_PAIR: u8 = 6;

/// Whether `inst` is an emulated 64-bit atomic of global memory with an immediate operand,
/// which the loop reads from R6:R7.
pub(super) fn immediate_operand(inst: &Inst) -> bool {
    let b = if inst.op == Opcode::Red { 1 } else { 2 };
    matches!(inst.op, Opcode::Atom | Opcode::Red)
        && matches!(inst.mods.space, None | Some(Space::Global))
        && inst
            .mods
            .atom_op
            .zip(inst.ty())
            .is_some_and(|(op, t)| emulated(op, t))
        && matches!(inst.operands.get(b), Some(Operand::Imm(_)))
}

impl Selector<'_> {
    pub(super) fn atomic_cas_loop(
        &mut self,
        inst: &Inst,
        g: &str,
        op: AtomOp,
        ty: Type,
        base: &str,
        off: i64,
    ) -> R<()> {
        if !g.is_empty() {
            return Err("a guarded 64-bit atomic without an ATOM form".into());
        }
        let scratch = [SCRATCH, SCRATCH_PAIR, SCRATCH_PAIR + 1].map(|n| format!("R{n}"));
        if scratch.iter().any(|s| s == base) {
            return Err("an atomic address in a scratch register".into());
        }
        let red = inst.op == Opcode::Red;
        let (dl, dh) = if red {
            ("R4".to_string(), "R5".to_string())
        } else {
            self.pair(self.dst(inst)?)?
        };
        let (bl, bh) = match Self::opnd(inst, if red { 1 } else { 2 })? {
            Operand::Reg(r) => match self.loc(*r)? {
                Loc::Pair(n) => (format!("R{n}"), format!("R{}", n + 1)),
                _ => return Err("expected a 64-bit register".into()),
            },
            Operand::Imm(v) => {
                // R6:R7 are free here: `needs_f64_scratch` keeps R4–R13 out of allocation in
                // a body with such an atomic (`immediate_operand`).
                for (n, x) in [(IMM_PAIR, *v as u32), (IMM_PAIR + 1, (*v >> 32) as u32)] {
                    self.emit(
                        "",
                        format!("MOV32I R{n}, {};", super::hex(i64::from(x as i32))),
                    );
                }
                (format!("R{IMM_PAIR}"), format!("R{}", IMM_PAIR + 1))
            }
            _ => return Err("an unexpected operand of an emulated 64-bit atomic".into()),
        };
        // The value must not live in the destination: the loop overwrites it.
        if bl == dl || base == dl || base == dh {
            return Err("an atomic whose destination is also its source".into());
        }
        let (nl, nh) = (&scratch[1], &scratch[2]);
        let p = format!("P{SCRATCH_PRED}");
        let e = if self.a64 { ".E" } else { "" };
        let at = format!("[{base}+{}]", super::hex(off));
        let apply = match (op, ty) {
            (AtomOp::Min | AtomOp::Max, _) => {
                // P6 = d < b: (hi equal and lo below, unsigned) or hi below (in the type).
                let u = if ty == Type::U64 { ".U32" } else { "" };
                let (x, y) = if op == AtomOp::Min {
                    ((&dl, &dh), (&bl, &bh))
                } else {
                    ((&bl, &bh), (&dl, &dh))
                };
                vec![
                    format!("ISETP.LT.U32.AND {p}, pt, {dl}, {bl}, pt;"),
                    format!("ISETP.EQ.U32.AND {p}, pt, {dh}, {bh}, {p};"),
                    format!("ISETP.LT{u}.OR {p}, pt, {dh}, {bh}, {p};"),
                    format!("SEL {nl}, {}, {}, {p};", x.0, y.0),
                    format!("SEL {nh}, {}, {}, {p};", x.1, y.1),
                ]
            }
            (AtomOp::And | AtomOp::Or | AtomOp::Xor, _) => {
                let name = op.spelling().trim_start_matches('.').to_uppercase();
                vec![
                    format!("LOP.{name} {nl}, {dl}, {bl};"),
                    format!("LOP.{name} {nh}, {dh}, {bh};"),
                ]
            }
            // atom.add.f64 rounds to nearest even and keeps subnormals (ops::atom_add_f64).
            _ => vec![format!("DADD {nl}, {dl}, {bl};")],
        };
        let k = self.out.len();
        let (top, after) = (
            format!("{}C{k}L", self.label_prefix),
            format!("{}C{k}T", self.label_prefix),
        );
        self.emit("", format!("LD{e}.64 {dl}, {at};"));
        self.emit("", format!("SSY {after};"));
        self.out.push(super::Line::Label(top.clone()));
        for l in apply {
            self.emit("", l);
        }
        self.emit("", format!("ATOM{e}.CAS.U64 {nl}, {at}, {dl}, {nl};"));
        self.emit("", format!("ISETP.NE.U32.AND {p}, pt, {nl}, {dl}, pt;"));
        self.emit("", format!("ISETP.NE.U32.OR {p}, pt, {nh}, {dh}, {p};"));
        self.emit("", format!("MOV {dl}, {nl};"));
        self.emit("", format!("MOV {dh}, {nh};"));
        self.emit("", format!("@{p} BRA {top};"));
        self.emit("", "NOP.S CC.T;".into());
        self.out.push(super::Line::Label(after));
        Ok(())
    }
}
