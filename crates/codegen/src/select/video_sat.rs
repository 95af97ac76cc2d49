//! `.sat` of `vmin`/`vmax`/`vshr`/`vshl`, which Fermi's `VMNMX`/`VSHR` rows have no bit for (the
//! table's bit 9 of `VSHL`/`VSHR` is `.W`; `VADD`/`VABSDIFF` alone carry `.SAT`).
//! `optSaturate` (PTX ISA §9.7.18.1, `ops::video`) clamps the intermediate value to the range
//! of the destination type, or of the destination part for a merge (`-128..127`/`0..255`,
//! `-32768..32767`/`0..65535`, the `.s32`/`.u32` range), before the secondary operation:
//!
//! - `vmin`/`vmax`: clamping is monotone, so `clamp(min(a, b)) = min(clamp(a), clamp(b))`:
//!   each operand is clamped first (`VMNMX.MX.MIN t, x, lo, hi` = `min(max(x, lo), hi)`),
//!   then the plain `VMNMX` with the secondary operation or merge runs on values in range.
//! - `vshr`: the shift without saturation, typed by the source's sign (its result lies in the
//!   source's range, so the 32 bits are exact), clamped likewise, then `VADD t + 0` applies
//!   the secondary operation or merge.
//! - `vshl`: the shifted value needs up to 65 bits, so the operand is compared with the
//!   bounds shifted right instead (`vshl_sat`), then `VADD t + 0` as for `vshr`.
//!
//! Temporaries: R4 (lo), R5 (hi), R6 and R7; `vshl` also R8–R11 and P6 (`needs_scratch`: R4–R13
//! are kept free, `needs_scratch_pred`: P6).

use super::{Selector, R};
use ir::{Inst, Opcode, SelectorKind};
use isa::Flag;

const T: u8 = super::fdiv::F64_SCRATCH;

/// Whether `inst` is a saturating `vmin`/`vmax`/`vshr` (which uses R4–R7).
pub fn needs_scratch(inst: &Inst) -> bool {
    matches!(
        inst.op,
        Opcode::Vmin | Opcode::Vmax | Opcode::Vshl | Opcode::Vshr
    ) && inst.mods.has(Flag::Sat)
}

/// Whether `inst` uses the scratch predicate P6 (a saturating `vshl`).
pub fn needs_scratch_pred(inst: &Inst) -> bool {
    inst.op == Opcode::Vshl && inst.mods.has(Flag::Sat)
}

/// The pieces of a video instruction as `video.rs` spells them.
pub struct Parts {
    pub d: String,
    /// The sources with their selector suffixes.
    pub a: String,
    pub b: String,
    /// `b`'s register (or the scratch register holding an immediate) and selector.
    pub b_reg: String,
    pub b_sel: Option<ir::Selector>,
    /// Their Fermi types (`S32`, `U8`, ...).
    pub at: String,
    pub bt: String,
    pub d_signed: bool,
    pub a_signed: bool,
    pub dsel: Option<SelectorKind>,
    /// `.MX` (vmax) or `.W` (wrapping shift).
    pub mid: String,
    /// `.ACC`/`.MIN`/`.MAX` or a merge.
    pub op2: &'static str,
    pub c: String,
}

/// `VMNMX`/`VADD` type fields: none for `.S32.S32`.
fn types(a: &str, b: &str) -> String {
    if a == "S32" && b == "S32" {
        String::new()
    } else {
        format!(".{a}.{b}")
    }
}

fn ud(signed: bool) -> &'static str {
    if signed {
        ""
    } else {
        ".UD"
    }
}

impl Selector<'_> {
    /// `sat(ta << tb)` into R11: `ta` (R6, exact as the source's sign), `tb` (R7: `b.bsel`
    /// zero-extended, then `min(tb, 32)` or `tb & 31`), the bounds `H = hi >> tb` (R8) and
    /// `L = -((-lo) >> tb)` (R9: `ceil(lo / 2^tb)`), so that `ta << tb` is in range exactly
    /// when `L <= ta <= H`. `t = min(max(ta, L), H)` (R10, `VMNMX` compares the 33-bit
    /// values whatever their signs); `t != ta` (its bits differ then: both lie in
    /// `[-2^31, 2^32)` and one of them in `[L, H]`, which holds 0) means the shift
    /// overflows: to `hi` for a non-negative `ta` (it can only exceed `H`, as `L <= 0`), to
    /// `lo` for a negative one; else `t << tb`, in range.
    fn vshl_sat(&mut self, g: &str, p: &Parts, lo: i64, hi: i64) -> R<String> {
        let r = |k: u8| format!("R{}", T + k);
        let (ta, tb, bh, bl, t, out) = (r(2), r(3), r(4), r(5), r(6), r(7));
        let pr = format!("P{}", crate::regs::SCRATCH_PRED);
        let aud = ud(p.a_signed);
        let st = if p.a_signed { "S32" } else { "U32" };
        let at = types(&p.at, "U32");
        self.emit(g, format!("VSHR{aud}{at} {ta}, {}, RZ, RZ;", p.a));
        let b = &p.b_reg;
        match p.b_sel.map(|s| (s.kind, s.lanes[0])) {
            None => self.emit(g, format!("MOV {tb}, {b};")),
            Some((kind, k)) => {
                let (bits, mask) = match kind {
                    SelectorKind::Byte => (8, "0xff"),
                    _ => (16, "0xffff"),
                };
                let shift = bits * u32::from(k);
                self.emit(
                    g,
                    format!("SHR.U32 {tb}, {b}, {};", super::hex(i64::from(shift))),
                );
                self.emit(g, format!("LOP32I.AND {tb}, {tb}, {mask};"));
            }
        }
        if p.mid == ".W" {
            self.emit(g, format!("LOP32I.AND {tb}, {tb}, 0x1f;"));
        } else {
            self.emit(g, format!("IMNMX.U32 {tb}, {tb}, 0x20, pt;"));
        }
        let word = |x: i64| super::hex(i64::from(x as u32 as i32));
        self.emit(g, format!("MOV32I {bh}, {};", word(hi)));
        self.emit(g, format!("SHR.U32 {bh}, {bh}, {tb};"));
        if lo == 0 {
            self.emit(g, format!("MOV {bl}, RZ;"));
        } else {
            self.emit(g, format!("MOV32I {bl}, {};", word(-lo)));
            self.emit(g, format!("SHR.U32 {bl}, {bl}, {tb};"));
            self.emit(g, format!("IADD {bl}, RZ, -{bl};"));
        }
        // L typed signed (it is <= 0), H by the destination's sign (the c operand's).
        let dud = ud(p.d_signed);
        let ty = types(st, "S32");
        self.emit(g, format!("VMNMX{dud}{ty}.MX.MIN {t}, {ta}, {bl}, {bh};"));
        self.emit(g, format!("SHL {out}, {t}, {tb};"));
        self.emit(g, format!("ISETP.NE.U32.AND {pr}, pt, {t}, {ta}, pt;"));
        let (hi_w, lo_w) = (word(hi), word(lo));
        if p.a_signed {
            // Overflowing: hi, then lo where ta < 0.
            self.emit(g, format!("@{pr} MOV32I {out}, {hi_w};"));
            self.emit(g, format!("ISETP.LT.AND {pr}, pt, {ta}, RZ, {pr};"));
            self.emit(g, format!("@{pr} MOV32I {out}, {lo_w};"));
        } else {
            self.emit(g, format!("@{pr} MOV32I {out}, {hi_w};"));
        }
        Ok(out)
    }

    pub(super) fn video_sat(&mut self, inst: &Inst, g: &str, p: Parts) -> R<()> {
        let (lo, hi): (i64, i64) = match (p.dsel, p.d_signed) {
            (Some(SelectorKind::Byte), true) => (-128, 127),
            (Some(SelectorKind::Byte), false) => (0, 255),
            (Some(SelectorKind::Half), true) => (-32768, 32767),
            (Some(SelectorKind::Half), false) => (0, 65535),
            (None, true) => (i64::from(i32::MIN), i64::from(i32::MAX)),
            (None, false) => (0, i64::from(u32::MAX)),
        };
        let r = |k: u8| format!("R{}", T + k);
        for (k, v) in [(0, lo), (1, hi)] {
            let line = if v == 0 {
                format!("MOV {}, RZ;", r(k))
            } else {
                format!("MOV32I {}, {};", r(k), super::hex(i64::from(v as i32)))
            };
            self.emit(g, line);
        }
        // The range's values and the clamped results are typed by the destination's sign.
        let rt = if p.d_signed { "S32" } else { "U32" };
        let (rlo, rhi) = (r(0), r(1));
        let dud = ud(p.d_signed);
        let clamp = |s: &mut Self, into: &str, x: &str, xt: &str| {
            let ty = types(xt, rt);
            s.emit(
                g,
                format!("VMNMX{dud}{ty}.MX.MIN {into}, {x}, {rlo}, {rhi};"),
            );
        };
        let (d, c, op2) = (&p.d, &p.c, p.op2);
        let tt = types(rt, rt);
        match inst.op {
            Opcode::Vmin | Opcode::Vmax => {
                clamp(self, &r(2), &p.a, &p.at);
                clamp(self, &r(3), &p.b, &p.bt);
                let mid = &p.mid;
                self.emit(
                    g,
                    format!("VMNMX{dud}{tt}{mid}{op2} {d}, {}, {}, {c};", r(2), r(3)),
                );
            }
            Opcode::Vshl => {
                let t = self.vshl_sat(g, &p, lo, hi)?;
                self.emit(g, format!("VADD{dud}{tt}{op2} {d}, {t}, RZ, {c};"));
            }
            _ => {
                let (at, bt, mid) = (&p.at, &p.bt, &p.mid);
                let aud = ud(p.a_signed);
                let ty = types(at, bt);
                let (a, b) = (&p.a, &p.b);
                self.emit(g, format!("VSHR{aud}{ty}{mid} {}, {a}, {b}, RZ;", r(2)));
                let st = if p.a_signed { "S32" } else { "U32" };
                clamp(self, &r(2), &r(2), st);
                self.emit(g, format!("VADD{dud}{tt}{op2} {d}, {}, RZ, {c};", r(2)));
            }
        }
        Ok(())
    }
}
