//! 64-bit `atom`/`red` on `.shared`: NVIDIA's lock loop of the 32-bit forms (`atomic.rs`)
//! with 8-byte accesses, `LDSLK.64` (load the pair and take the lock of its first word) and
//! `STSUL.64` (store the pair and release it):
//!
//! ```text
//!         SSY after
//! top:    LDSLK.64 P6, old, [a]
//!   @P6   new = op(old, b)            R2:R3
//!   @P6   STSUL.64 [a], new
//!   @!P6  BRA top
//!         NOP.S
//! after:
//! ```
//!
//! No listing in `../shared/fermi/` shows a shared atomic at all, and Mesa's
//! `handleSharedATOM` only ever builds 32-bit ones; the 64-bit size is the size field every
//! Fermi load/store has (the row's `MEM_TYPE`, bits 5–7, Mesa's `emitLOAD`), which the Fermi
//! executor runs as one 8-byte access under the lock of the first word (docs/spec-notes.md,
//! "64-bit shared atomics"). Every access to the pair takes that one lock, so an update is
//! atomic against every other.
//!
//! Operations: `add .u64/.s64` (`IADD.CC` + `IADD.X`), `add .f64` (`DADD`, round to nearest
//! as `ops`), `exch`, `cas` (the halves' XORs ORed, then `ICMP.EQ` picks), `and/or/xor .b64`
//! (two `LOP`s), `min/max .u64/.s64` (an `ISET` mask of `old < b` from the halves, then
//! `ICMP.EQ` picks). Registers: `old` is `atom`'s destination pair or, for `red`, R4:R5; an
//! immediate `b` goes to R8:R9 and `c` to R10:R11 (R4–R13 kept free: `needs_f64_scratch`).

use super::{hex, Line, Selector, R};
use crate::regs::{SCRATCH, SCRATCH_PAIR, SCRATCH_PRED};
use ir::{Inst, Opcode, Operand, Type};
use isa::AtomOp;

impl Selector<'_> {
    /// A 64-bit operand as an aligned pair; an immediate into the pair at `scratch`.
    fn pair_operand(&mut self, o: &Operand, scratch: u8) -> R<(String, String)> {
        match o {
            Operand::Reg(r) => self.pair(*r),
            Operand::Imm(v) => {
                let (lo, hi) = (format!("R{scratch}"), format!("R{}", scratch + 1));
                for (reg, x) in [(&lo, *v as u32), (&hi, (*v >> 32) as u32)] {
                    self.emit("", format!("MOV32I {reg}, {};", hex(x as i32 as i64)));
                }
                Ok((lo, hi))
            }
            _ => Err("an unsupported 64-bit atomic operand".into()),
        }
    }

    pub(super) fn shared_atomic64(&mut self, inst: &Inst, op: AtomOp, ty: Type, at: &str) -> R<()> {
        let red = inst.op == Opcode::Red;
        let bi = if red { 1 } else { 2 };
        let (ol, oh) = if red {
            ("R4".to_string(), "R5".to_string())
        } else {
            self.pair(self.dst(inst)?)?
        };
        let (b_lo, b_hi) = self.pair_operand(Self::opnd(inst, bi)?, 8)?;
        let (nl, nh) = (format!("R{SCRATCH_PAIR}"), format!("R{}", SCRATCH_PAIR + 1));
        let t = format!("R{SCRATCH}");
        let p = format!("P{SCRATCH_PRED}");
        let mut new = nl.clone();
        let apply: Vec<String> = match (op, ty) {
            (AtomOp::Add, Type::U64 | Type::S64) => vec![
                format!("IADD {nl}.CC, {ol}, {b_lo};"),
                format!("IADD.X {nh}, {oh}, {b_hi};"),
            ],
            (AtomOp::Add, Type::F64) => vec![format!("DADD {nl}, {ol}, {b_lo};")],
            (AtomOp::And | AtomOp::Or | AtomOp::Xor, Type::B64) => {
                let name = op.spelling().trim_start_matches('.').to_uppercase();
                vec![
                    format!("LOP.{name} {nl}, {ol}, {b_lo};"),
                    format!("LOP.{name} {nh}, {oh}, {b_hi};"),
                ]
            }
            // The pair b itself is stored (an aligned pair: a register pair or R8:R9).
            (AtomOp::Exch, Type::B64 | Type::U64 | Type::S64) => {
                new = b_lo.clone();
                Vec::new()
            }
            (AtomOp::Cas, Type::B64 | Type::U64 | Type::S64) if !red => {
                let (c_lo, c_hi) = self.pair_operand(Self::opnd(inst, 3)?, 10)?;
                // t = (old ^ b) over both halves, zero exactly when old == b; then
                // ICMP.EQ d, c, old, t = (t == 0) ? c : old.
                vec![
                    format!("LOP.XOR {t}, {ol}, {b_lo};"),
                    format!("LOP.XOR {nh}, {oh}, {b_hi};"),
                    format!("LOP.OR {t}, {t}, {nh};"),
                    format!("ICMP.EQ.U32 {nl}, {c_lo}, {ol}, {t};"),
                    format!("ICMP.EQ.U32 {nh}, {c_hi}, {oh}, {t};"),
                ]
            }
            (AtomOp::Min | AtomOp::Max, Type::U64 | Type::S64) => {
                let s = if ty == Type::S64 { "" } else { ".U32" };
                // t = all ones when old < b: hi(old) < hi(b), or equal highs and
                // lo(old) < lo(b) unsigned.
                let mut v = vec![
                    format!("ISET.LT{s}.AND {nh}, {oh}, {b_hi}, pt;"),
                    format!("ISET.EQ.U32.AND {nl}, {oh}, {b_hi}, pt;"),
                    format!("ISET.LT.U32.AND {t}, {ol}, {b_lo}, pt;"),
                    format!("LOP.AND {t}, {t}, {nl};"),
                    format!("LOP.OR {t}, {t}, {nh};"),
                ];
                // ICMP.EQ d, x, y, t = (t == 0) ? x : y: min keeps old when old < b.
                let (x, y, xh, yh) = if op == AtomOp::Min {
                    (&b_lo, &ol, &b_hi, &oh)
                } else {
                    (&ol, &b_lo, &oh, &b_hi)
                };
                v.push(format!("ICMP.EQ.U32 {nl}, {x}, {y}, {t};"));
                v.push(format!("ICMP.EQ.U32 {nh}, {xh}, {yh}, {t};"));
                v
            }
            _ => {
                return Err(
                    "this 64-bit shared atomic operation and type have no selection rule".into(),
                )
            }
        };
        let k = self.out.len();
        let (top, after) = (
            format!("{}A{k}L", self.label_prefix),
            format!("{}A{k}T", self.label_prefix),
        );
        self.emit("", format!("SSY {after};"));
        self.out.push(Line::Label(top.clone()));
        self.emit("", format!("LDSLK.64 {p}, {ol}, {at};"));
        for l in apply {
            self.emit("", format!("@{p} {l}"));
        }
        self.emit("", format!("@{p} STSUL.64 {at}, {new};"));
        self.emit("", format!("@!{p} BRA {top};"));
        self.emit("", "NOP.S CC.T;".into());
        self.out.push(Line::Label(after));
        Ok(())
    }
}
