//! The f64 approximations, bit-exact with `ops::transcend` (the PTX executor's definitions),
//! built from the exact sequences of `ddiv.rs` (`rcp.rn.f64`) and `dsqrt.rs` (`sqrt.rn.f64`):
//!
//! - `rsqrt.approx.f64` (and PTX 1.x's `rsqrt.f64`) is `1/sqrt(a)` with two roundings (`ops::transcend::rsqrt_f64`):
//!   `sqrt.rn` into the destination, then `rcp.rn` of it.
//! - `rcp.approx.ftz.f64` and `rsqrt.approx.ftz.f64` are the manual's high-word definitions
//!   (`rcp_approx_ftz_f64`, `rsqrt_approx_ftz_f64`): `tmp` = `a` with its low word cleared,
//!   flushed; `1/tmp` (one rounding) or `1/sqrt(tmp)` (two) as above; a NaN becomes
//!   `0x7fffffff_00000000`; the high word rounded to nearest even at 20 fraction bits from
//!   the low word (`low + 0x7fffffff + (high & 1)` carries exactly when `low` is above half,
//!   or at half with an odd high word: `IADD RZ.CC` then `IADD.X`); the low word cleared;
//!   a subnormal result flushed to its signed zero.
//!
//! Not `MUFU.RCP64H`/`MUFU.RSQ64H`: the Fermi executor has neither, no listing shows their
//! result bits, and these definitions fix every bit, which only an exact sequence gives.
//! Temporaries: those of the two sequences (R0, R2:R3, R4–R13, P6).

use super::{Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand};
use isa::{Flag, Mods, Rounding};

impl Selector<'_> {
    pub(super) fn approx_f64(&mut self, inst: &Inst, g: &str) -> R<()> {
        let rsqrt = inst.op == Opcode::Rsqrt;
        let ftz = inst.mods.has(Flag::Ftz);
        if !(rsqrt || ftz && inst.mods.has(Flag::Approx)) {
            return Err(
                "only rcp.approx.ftz.f64 and rsqrt{.approx}{.ftz}.f64 are approximations".into(),
            );
        }
        let d = self.dst(inst)?;
        let (dl, dh) = self.pair(d)?;
        let p = format!("P{SCRATCH_PRED}");
        let guard = g.trim().trim_start_matches('@');
        let guard = if guard.is_empty() { "pt" } else { guard };
        let t = format!("R{SCRATCH}");
        // `@P6 =` "the value in d is subnormal (exponent field 0) and the guard holds": d
        // becomes its signed zero.
        let flush = |s: &mut Self| {
            s.emit(g, format!("LOP32I.AND {t}, {dh}, 0x7ff00000;"));
            s.emit("", format!("ISETP.EQ.U32.AND {p}, pt, {t}, RZ, {guard};"));
            s.emit("", format!("@{p} MOV {dl}, RZ;"));
            s.emit("", format!("@{p} LOP32I.AND {dh}, {dh}, 0x80000000;"));
        };
        let src = if ftz {
            // tmp = a[63:32] << 32, flushed, in d.
            match Self::opnd(inst, 1)? {
                Operand::Reg(r) => {
                    let ah = self.pair(*r)?.1;
                    self.emit(g, format!("MOV {dh}, {ah};"));
                }
                // An immediate's high word is known now.
                Operand::Imm(v) => {
                    let hi = (*v >> 32) as u32;
                    if hi == 0 {
                        self.emit(g, format!("MOV {dh}, RZ;"));
                    } else {
                        let hi = super::hex(i64::from(hi as i32));
                        self.emit(g, format!("MOV32I {dh}, {hi};"));
                    }
                }
                _ => return Err("an unsupported f64 operand".into()),
            }
            self.emit(g, format!("MOV {dl}, RZ;"));
            flush(self);
            Operand::Reg(d)
        } else {
            Self::opnd(inst, 1)?.clone()
        };
        // The sequences read their source before their final moves write d, so d may be
        // the source of each step.
        let step = |s: &mut Self, op: Opcode, from: Operand| {
            let mut i = inst.clone();
            i.op = op;
            i.mods = Mods::default();
            i.mods.rounding = Some(Rounding::Rn);
            i.operands = [Operand::Reg(d), from].into_iter().collect();
            if op == Opcode::Sqrt {
                s.sqrt_f64(&i, g)
            } else {
                s.div_f64(&i, g)
            }
        };
        if rsqrt {
            step(self, Opcode::Sqrt, src)?;
            step(self, Opcode::Rcp, Operand::Reg(d))?;
        } else {
            step(self, Opcode::Rcp, src)?;
        }
        if ftz {
            self.emit("", format!("DSETP.NAN.AND {p}, pt, {dl}, {dl}, {guard};"));
            self.emit("", format!("@{p} MOV32I {dh}, 0x7fffffff;"));
            self.emit("", format!("@{p} MOV {dl}, RZ;"));
            self.emit(g, format!("LOP32I.AND {t}, {dh}, 0x1;"));
            self.emit(g, format!("IADD32I {t}, {t}, 0x7fffffff;"));
            self.emit(g, format!("IADD RZ.CC, {dl}, {t};"));
            self.emit(g, format!("IADD.X {dh}, {dh}, RZ;"));
            self.emit(g, format!("MOV {dl}, RZ;"));
            flush(self);
        }
        Ok(())
    }
}

/// Whether `inst` is one of the f64 approximations this module selects: PTX 1.x's
/// `rsqrt.f64` (no `.approx`) is the same function (`ops::transcend::rsqrt_f64`, which the
/// executor runs for both spellings).
pub(super) fn is_approx_f64(inst: &Inst) -> bool {
    inst.ty() == Some(ir::Type::F64)
        && (inst.op == Opcode::Rsqrt || inst.op == Opcode::Rcp && inst.mods.has(Flag::Approx))
}
