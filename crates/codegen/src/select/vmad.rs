//! `vmad` without `.sat` and `.shr7/.shr15`, on the integer rows (the table has no `VMAD` row:
//! envydis' entry has product signs, `.PO` and a result shift whose bit patterns no listing
//! shows). Without scaling and saturation `d` is the low word of `ta·tb (+ c)` with the
//! negation applied (PTX ISA §9.7.18.1.3, `ops::video::vmad`), and low words of sums and
//! products depend only on the operands' low words: `ta`/`tb` are the selected parts,
//! sign- or zero-extended (`BFE`/`BFE.U32`, or the register itself for the whole word), then
//! - no negation: `IMAD d, ta, tb, c`; `.po`: `IMAD` then `+ 1`;
//! - product negated (`-a` xor `-b`; `~p + c + 1` is `c − p`): `IMUL R0`, `IADD d, c, −R0`;
//! - `c` negated (`p + ~c + 1` is `p − c`): `IMUL R0`, `IADD d, R0, −c`.
//!
//! `.sat` and the shifts read the whole product: `vmad_wide.rs` computes it in 96 bits.

use super::{hex, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR};
use ir::{Flag, Inst, Operand, SelectorKind};

/// The selected, extended sources (register names), their negations and signedness.
pub(super) struct Sources {
    pub(super) regs: [String; 3],
    pub(super) negs: [bool; 3],
    pub(super) signed: [bool; 2],
}

impl Selector<'_> {
    pub(super) fn vmad(&mut self, inst: &Inst, g: &str) -> R<()> {
        let d = match inst.operands.first() {
            Some(Operand::Reg(r)) => self.gpr(*r)?,
            _ => return Err("an unsupported vmad destination".into()),
        };
        if needs_whole_product(inst) {
            let src = self.vmad_sources(inst, g, [4, 5, 6])?;
            return self.vmad_wide(inst, g, &d, &src);
        }
        let src = self.vmad_sources(inst, g, [SCRATCH, SCRATCH_PAIR, SCRATCH_PAIR + 1])?;
        self.vmad_low_word(g, &d, &src, inst.mods.has(Flag::Po));
        Ok(())
    }

    /// `a`, `b` (selected parts `BFE`d into their scratch register) and `c`, without negation.
    fn vmad_sources(&mut self, inst: &Inst, g: &str, scratches: [u8; 3]) -> R<Sources> {
        let mut negs = [false; 3];
        let mut signed_ab = [false; 2];
        let mut srcs: Vec<String> = Vec::with_capacity(3);
        for (k, scratch) in scratches.into_iter().enumerate() {
            let (o, neg) = match Self::opnd(inst, k + 1)? {
                Operand::Neg(r) => (Operand::Reg(*r), true),
                Operand::NegSelected { reg, sel } => (
                    Operand::Selected {
                        reg: *reg,
                        sel: *sel,
                    },
                    true,
                ),
                o => (o.clone(), false),
            };
            negs[k] = neg;
            let signed = k < 2 && inst.type_slot(k + 1).is_some_and(|t| t.is_signed());
            if k < 2 {
                signed_ab[k] = signed;
            }
            let r = match &o {
                Operand::Selected { reg, sel } if k < 2 => {
                    let (pos, len) = match (sel.kind, sel.lanes[0]) {
                        (SelectorKind::Byte, b @ 0..=3) => (8 * u32::from(b), 8u32),
                        (SelectorKind::Half, h @ 0..=1) => (16 * u32::from(h), 16),
                        _ => return Err("a vmad selector beyond the word".into()),
                    };
                    let a = self.gpr(*reg)?;
                    let u = if signed { "" } else { ".U32" };
                    let packed = hex(i64::from(pos | len << 8));
                    self.emit(g, format!("BFE{u} R{scratch}, {a}, {packed};"));
                    format!("R{scratch}")
                }
                Operand::Reg(_) | Operand::Imm(_) => self.reg32(&o, g, scratch)?,
                _ => return Err("an unsupported vmad source".into()),
            };
            srcs.push(r);
        }
        let regs: [String; 3] = srcs.try_into().map_err(|_| "vmad has three sources")?;
        Ok(Sources {
            regs,
            negs,
            signed: signed_ab,
        })
    }
}

/// `.sat` and `.shr7/.shr15` read bits beyond the low word: the 96-bit sequence, whose
/// temporaries are R4–R12 (`select::needs_f64_scratch`) and P6 (`needs_scratch_pred`).
pub fn needs_whole_product(inst: &Inst) -> bool {
    inst.op == ir::Opcode::Vmad && (inst.mods.has(Flag::Sat) || inst.mods.video_scale.is_some())
}

impl Selector<'_> {
    fn vmad_low_word(&mut self, g: &str, d: &str, src: &Sources, po: bool) {
        let negs = src.negs;
        let [a, b, c] = &src.regs;
        // The pseudo-code's order: `.po`, then a negated product, then a negated `c` (`-a, -b`
        // cancel), as the PTX executor's lowering reads it.
        if po {
            self.emit(g, format!("IMAD {d}, {a}, {b}, {c};"));
            self.emit(g, format!("IADD {d}, {d}, 0x1;"));
        } else if negs[0] != negs[1] {
            self.emit(g, format!("IMUL R{SCRATCH}, {a}, {b};"));
            self.emit(g, format!("IADD {d}, {c}, -R{SCRATCH};"));
        } else if negs[2] && c != "RZ" {
            self.emit(g, format!("IMUL R{SCRATCH}, {a}, {b};"));
            self.emit(g, format!("IADD {d}, R{SCRATCH}, -{c};"));
        } else {
            self.emit(g, format!("IMAD {d}, {a}, {b}, {c};"));
        }
    }
}
