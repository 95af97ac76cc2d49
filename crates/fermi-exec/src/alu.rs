//! Integer, logic, predicate, move and video instructions. The arithmetic is the `ops`
//! crate's; this module only reads Fermi's operands and modifiers and writes the results.

use crate::error::{FaultKind, LaneFault};
use crate::image::Decoded;
use crate::warp::{
    dst_pred, dst_reg, flags, has, lanes, mod_named, only_mods, opd, src32, src_pred, CtaMem, Warp,
};
use fermi::isa::Operand;
use ops::carry::{add_cc_u32, addc_u32};
use ops::cmp::{self, BoolOp, CmpOp};
use ops::int::{self, Sign};
use ops::video::{self, ClampWrap, PartSel, VCmp, VideoScalar, VideoSecondary};

type R = Result<(), FaultKind>;

/// Runs `f` for every lane of `mask`, placing a fault at its lane.
pub fn each(
    w: &mut Warp,
    mask: u32,
    mut f: impl FnMut(&mut Warp, u32) -> R,
) -> Result<(), LaneFault> {
    for l in lanes(mask) {
        f(w, l).map_err(|k| LaneFault::at(l, k))?;
    }
    Ok(())
}

/// Executes one integer/logic/move/video instruction for the lanes of `mask`; `Ok(false)` if
/// `inst` is not one of them.
pub fn exec(w: &mut Warp, m: &CtaMem<'_>, inst: &Decoded, mask: u32) -> Result<bool, LaneFault> {
    let name = inst.mnemonic();
    let known = |k: &[&str]| only_mods(inst, k).map_err(LaneFault::warp);
    match name {
        "IADD" | "IADD32I" => {
            known(&[".SAT", ".X"])?;
            each(w, mask, |w, l| iadd(w, m, inst, l))?;
        }
        "ISCADD" => {
            known(&[])?;
            each(w, mask, |w, l| {
                let shift = src32(w, m, l, inst, 3)?;
                let a = ops::logic::shl_b32(src32(w, m, l, inst, 1)?, shift);
                let c = src32(w, m, l, inst, 2)?;
                let (na, nc) = (flags(&opd(inst, 1)).neg, flags(&opd(inst, 2)).neg);
                let (d, cf, of) = add_neg(a, na, c, nc, None);
                write_d_cc(w, inst, l, d, cf, of)
            })?;
        }
        "IMUL" | "IMUL32I" | "IMAD" => {
            known(&[".U32.U32", ".S32.U32", ".U32.S32", ".HI"])?;
            each(w, mask, |w, l| imad(w, m, inst, l))?;
        }
        "ISETP" | "ISET" | "ICMP" => {
            known(&[
                ".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".T", ".U32", ".AND", ".OR",
                ".XOR", ".X",
            ])?;
            let op = int_cmp(inst)?;
            let signed = !has(inst, ".U32");
            let x = has(inst, ".X");
            let always = has(inst, ".T");
            // ICMP has no boolean operation: its `bool_op` is never asked for.
            let bop = match name {
                "ICMP" => BoolOp::And,
                _ => bool_op(inst).map_err(LaneFault::warp)?,
            };
            let (pd, qd) = if name == "ISETP" {
                let p = |i| dst_pred(inst, i).map_err(LaneFault::warp);
                (p(0)?, p(1)?)
            } else {
                (fermi::isa::Pred::PT, fermi::isa::Pred::PT)
            };
            each(w, mask, |w, l| {
                // `.X`: the high words of a 64-bit compare whose low words were subtracted by
                // a `.CC` writer (`IADD RZ.CC, lo_a, -lo_b`): its carry says lo_a >= lo_b
                // (no borrow) and its zero flag lo_a == lo_b. The low-word order breaks ties
                // of the high words: each side becomes `4 * hi + rank(lo)`, compared by
                // `ops::cmp` with the high words' signedness.
                let (ra, rb) = match (x, w.carry(l), w.zero(l)) {
                    (false, _, _) => (0, 0),
                    (true, false, _) => (0, 1),
                    (true, true, true) => (0, 0),
                    (true, true, false) => (1, 0),
                };
                let cmp_of = |a: u32, b: u32| match op {
                    None => always,
                    Some(op) if signed => cmp::cmp_signed(
                        op,
                        4 * i64::from(a as i32) + ra,
                        4 * i64::from(b as i32) + rb,
                    ),
                    Some(op) => cmp::cmp_unsigned(
                        op,
                        4 * u64::from(a) + ra as u64,
                        4 * u64::from(b) + rb as u64,
                    ),
                };
                match name {
                    "ISETP" => {
                        let t = cmp_of(src32(w, m, l, inst, 2)?, src32(w, m, l, inst, 3)?);
                        let c = src_pred(w, l, inst, 4)?;
                        let (p, q) = cmp::setp(t, Some((bop, c)));
                        w.set_pred(l, pd, p);
                        w.set_pred(l, qd, q);
                        Ok(())
                    }
                    "ISET" => {
                        let t = cmp_of(src32(w, m, l, inst, 1)?, src32(w, m, l, inst, 2)?);
                        let c = src_pred(w, l, inst, 3)?;
                        let r = cmp::bool_op(bop, t, c);
                        // `.CC`: Tesla's `set` flags (no carry, no overflow; docs/spec-notes.md).
                        write_d_cc(w, inst, l, cmp::set_bits(r, false), false, false)
                    }
                    _ => {
                        // ICMP: d = (r3 cmp 0) ? a : b (asfermi OpcodeInteger, ICMP).
                        let t = cmp_of(src32(w, m, l, inst, 3)?, 0);
                        let a = src32(w, m, l, inst, 1)?;
                        let b = src32(w, m, l, inst, 2)?;
                        w.set_reg(l, dst_reg(inst, 0)?, cmp::selp(a, b, t));
                        Ok(())
                    }
                }
            })?;
        }
        "ISAD" => {
            known(&[".U32"])?;
            let signed = !has(inst, ".U32");
            each(w, mask, |w, l| {
                let (a, b) = (src32(w, m, l, inst, 1)?, src32(w, m, l, inst, 2)?);
                let c = src32(w, m, l, inst, 3)?;
                let d = if signed {
                    int::sad(a as i32, b as i32, c as i32) as u32
                } else {
                    int::sad(a, b, c)
                };
                w.set_reg(l, dst_reg(inst, 0)?, d);
                Ok(())
            })?;
        }
        "IMNMX" => {
            known(&[".U32"])?;
            let signed = !has(inst, ".U32");
            each(w, mask, |w, l| {
                let (a, b) = (src32(w, m, l, inst, 1)?, src32(w, m, l, inst, 2)?);
                // The predicate selects the minimum when true (`!pt`: maximum).
                let min = src_pred(w, l, inst, 3)?;
                let d = match (signed, min) {
                    (true, true) => int::min(a as i32, b as i32) as u32,
                    (true, false) => int::max(a as i32, b as i32) as u32,
                    (false, true) => int::min(a, b),
                    (false, false) => int::max(a, b),
                };
                write_d_cc(w, inst, l, d, false, false)
            })?;
        }
        "LOP" | "LOP32I" => {
            known(&[".AND", ".OR", ".XOR", ".PASS_B"])?;
            let op = mod_named(inst, "logic operation").unwrap_or("");
            each(w, mask, |w, l| {
                let a = not_if(src32(w, m, l, inst, 1)?, flags(&opd(inst, 1)).not);
                let b = not_if(src32(w, m, l, inst, 2)?, flags(&opd(inst, 2)).not);
                let d = match op {
                    ".AND" => ops::logic::and(a, b),
                    ".OR" => ops::logic::or(a, b),
                    ".XOR" => ops::logic::xor(a, b),
                    _ => b,
                };
                write_d_cc(w, inst, l, d, false, false)
            })?;
        }
        "SHL" | "SHR" => {
            known(&[".W", ".U32"])?;
            let wrap = has(inst, ".W");
            let signed = name == "SHR" && !has(inst, ".U32");
            each(w, mask, |w, l| {
                let a = src32(w, m, l, inst, 1)?;
                let b = src32(w, m, l, inst, 2)?;
                // `.W` takes the amount modulo 32; without it larger amounts saturate.
                let b = if wrap { b & 31 } else { b };
                let d = match (name, signed) {
                    ("SHL", _) => ops::logic::shl_b32(a, b),
                    (_, true) => ops::logic::shr_s32(a as i32, b) as u32,
                    (_, false) => ops::logic::shr_u32(a, b),
                };
                // `.CC`: Tesla's shift flags (envytools `tesla/cuda/int.rst`): the carry is
                // the last bit shifted out (none for amounts of 0 or 32 and more), the
                // overflow a sign change by a shift of one.
                let carry = match (name, b) {
                    (_, 0) | (_, 32..) => false,
                    ("SHL", b) => a >> (32 - b) & 1 == 1,
                    (_, b) => a >> (b - 1) & 1 == 1,
                };
                let overflow = b == 1 && (a ^ d) >> 31 == 1;
                write_d_cc(w, inst, l, d, carry, overflow)
            })?;
        }
        "BFE" => {
            known(&[".U32"])?;
            let signed = !has(inst, ".U32");
            each(w, mask, |w, l| {
                let a = src32(w, m, l, inst, 1)?;
                let pl = src32(w, m, l, inst, 2)?;
                // The second source packs the position (bits 0-7) and length (8-15).
                let (pos, len) = (pl & 0xff, pl >> 8 & 0xff);
                let d = if signed {
                    int::bfe(a as i32, pos, len) as u32
                } else {
                    int::bfe(a, pos, len)
                };
                w.set_reg(l, dst_reg(inst, 0)?, d);
                Ok(())
            })?;
        }
        "BFI" => {
            known(&[])?;
            each(w, mask, |w, l| {
                let ins = src32(w, m, l, inst, 1)?;
                let pl = src32(w, m, l, inst, 2)?;
                let base = src32(w, m, l, inst, 3)?;
                let d = int::bfi(ins, base, pl & 0xff, pl >> 8 & 0xff);
                w.set_reg(l, dst_reg(inst, 0)?, d);
                Ok(())
            })?;
        }
        "P2R" => {
            known(&[])?;
            each(w, mask, |w, l| {
                let (a, k) = (src32(w, m, l, inst, 2)?, src32(w, m, l, inst, 3)?);
                let f = w.flags_word(l) & k;
                // envydis reads `a | (flags & mask)`; later architectures merge,
                // `(a & !mask) | (flags & mask)`. They differ only where `a` has bits under the
                // mask, which no source settles for Fermi (docs/spec-notes.md, "P2R/R2P").
                if a & k != 0 {
                    return Err(FaultKind::Unsupported(format!(
                        "P2R with source bits under the mask ({a:#x} & {k:#x}): Fermi's \
                         behaviour there is unknown"
                    )));
                }
                w.set_reg(l, dst_reg(inst, 0)?, a | f);
                Ok(())
            })?;
        }
        "R2P" => {
            known(&[])?;
            each(w, mask, |w, l| {
                let (a, k) = (src32(w, m, l, inst, 1)?, src32(w, m, l, inst, 2)?);
                let v = (w.flags_word(l) & !k) | (a & k);
                w.set_flags_word(l, v);
                Ok(())
            })?;
        }
        "SEL" => {
            known(&[])?;
            each(w, mask, |w, l| {
                let (a, b) = (src32(w, m, l, inst, 1)?, src32(w, m, l, inst, 2)?);
                let p = src_pred(w, l, inst, 3)?;
                w.set_reg(l, dst_reg(inst, 0)?, cmp::selp(a, b, p));
                Ok(())
            })?;
        }
        "POPC" => {
            known(&[])?;
            each(w, mask, |w, l| {
                let a = not_if(src32(w, m, l, inst, 1)?, flags(&opd(inst, 1)).not);
                let b = not_if(src32(w, m, l, inst, 2)?, flags(&opd(inst, 2)).not);
                w.set_reg(l, dst_reg(inst, 0)?, int::popc_b32(ops::logic::and(a, b)));
                Ok(())
            })?;
        }
        "FLO" => {
            known(&[".U32"])?;
            let signed = !has(inst, ".U32");
            each(w, mask, |w, l| {
                let a = not_if(src32(w, m, l, inst, 1)?, flags(&opd(inst, 1)).not);
                let d = if signed {
                    int::bfind(a as i32)
                } else {
                    int::bfind(a)
                };
                w.set_reg(l, dst_reg(inst, 0)?, d);
                Ok(())
            })?;
        }
        "PRMT" => {
            known(&[".F4E", ".B4E", ".RC8", ".ECL", ".ECR", ".RC16"])?;
            let mode = prmt_mode(mod_named(inst, "permute mode").unwrap_or(""));
            // Mesa's emitPRMT: the selector is the composite operand, the second source R3.
            each(w, mask, |w, l| {
                let a = src32(w, m, l, inst, 1)?;
                let sel = src32(w, m, l, inst, 2)?;
                let b = src32(w, m, l, inst, 3)?;
                w.set_reg(l, dst_reg(inst, 0)?, ops::prmt::prmt(a, b, sel, mode));
                Ok(())
            })?;
        }
        "MOV" | "MOV32I" => {
            known(&[])?;
            if let Operand::Imm(mask4) = opd(inst, 2) {
                if mask4 != 0xf {
                    return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                        "MOV with byte mask {mask4:#x} (only 0xf, all bytes)"
                    ))));
                }
            }
            each(w, mask, |w, l| {
                let v = src32(w, m, l, inst, 1)?;
                w.set_reg(l, dst_reg(inst, 0)?, v);
                Ok(())
            })?;
        }
        "PSETP" | "PSET" => {
            known(&[".AND", ".OR", ".XOR"])?;
            let op1 = logic(mod_named(inst, "first boolean operation"))?;
            let op2 = bool_op(inst)?;
            let first = if name == "PSETP" { 2 } else { 1 };
            each(w, mask, |w, l| {
                // asfermi OpcodeMiscellaneous: (p2 Mainop p3) Logicop p4, in print order.
                let a = src_pred(w, l, inst, first)?;
                let b = src_pred(w, l, inst, first + 1)?;
                let c = src_pred(w, l, inst, first + 2)?;
                let t = cmp::bool_op(op1, a, b);
                if name == "PSETP" {
                    let (p, q) = cmp::setp(t, Some((op2, c)));
                    w.set_pred(l, dst_pred(inst, 0)?, p);
                    w.set_pred(l, dst_pred(inst, 1)?, q);
                } else {
                    let r = cmp::bool_op(op2, t, c);
                    w.set_reg(l, dst_reg(inst, 0)?, cmp::set_bits(r, false));
                }
                Ok(())
            })?;
        }
        "VADD" | "VMNMX" | "VSHL" | "VSHR" | "VABSDIFF" | "VSET" => {
            let mode = video_mode(inst).map_err(LaneFault::warp)?;
            // VSET's comparison (bits 7–9); `.F`/`.T` have no PTX `vset` form to define them.
            let vcmp = if name == "VSET" {
                Some(match mod_named(inst, "comparison").unwrap_or("") {
                    ".LT" => VCmp::Lt,
                    ".EQ" => VCmp::Eq,
                    ".LE" => VCmp::Le,
                    ".GT" => VCmp::Gt,
                    ".NE" => VCmp::Ne,
                    ".GE" => VCmp::Ge,
                    other => {
                        return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                            "VSET with comparison {other}"
                        ))))
                    }
                })
            } else {
                None
            };
            let wrap = if has(inst, ".W") {
                ClampWrap::Wrap
            } else {
                ClampWrap::Clamp
            };
            let (na, nb) = (flags(&opd(inst, 1)).neg, flags(&opd(inst, 2)).neg);
            if flags(&opd(inst, 0)).cc || na {
                return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                    "{name} with .CC or a negated first source"
                ))));
            }
            each(w, mask, |w, l| {
                let a = src32(w, m, l, inst, 1)?;
                let b = src32(w, m, l, inst, 2)?;
                let c = src32(w, m, l, inst, 3)?;
                let d = match name {
                    "VADD" if nb => video::vsub(a, b, c, mode),
                    "VADD" => video::vadd(a, b, c, mode),
                    // `.MX` selects the maximum (VMNMX.MX.MAX is the running maximum of
                    // mgpuscan's max-scan).
                    "VMNMX" if has(inst, ".MX") => video::vmax(a, b, c, mode),
                    "VMNMX" => video::vmin(a, b, c, mode),
                    "VSHL" => video::vshl(a, b, c, mode, wrap),
                    "VABSDIFF" => video::vabsdiff(a, b, c, mode),
                    "VSET" => video::vset(a, b, c, mode, vcmp.unwrap_or(VCmp::Eq)),
                    _ => video::vshr(a, b, c, mode, wrap),
                };
                w.set_reg(l, dst_reg(inst, 0)?, d);
                Ok(())
            })?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn not_if(v: u32, not: bool) -> u32 {
    if not {
        ops::logic::not(v)
    } else {
        v
    }
}

/// `a' + b'` where a negated operand counts as its two's complement; with `.X` (`cin`) a
/// negated operand is its one's complement and the carry-in supplies the `+1` of a multiword
/// subtraction. Returns the sum, the carry out of bit 31 and the signed overflow (the exact
/// sum of the operands as signed numbers does not fit in 32 bits: the `O` flag, `cc.rs`).
fn add_neg(a: u32, na: bool, b: u32, nb: bool, cin: Option<bool>) -> (u32, bool, bool) {
    let (a1, b1) = (not_if(a, na), not_if(b, nb));
    let signed = |v: u32, neg: bool| {
        let v = i64::from(v as i32);
        if neg {
            -v
        } else {
            v
        }
    };
    let exact = match cin {
        Some(c) => i64::from(a1 as i32) + i64::from(b1 as i32) + i64::from(c),
        None => signed(a, na) + signed(b, nb),
    };
    let overflow = exact != i64::from(exact as i32);
    let (d, carry) = match (cin, na, nb) {
        (Some(c), _, _) => addc_u32(a1, b1, c),
        (None, false, false) => add_cc_u32(a, b),
        (None, true, false) | (None, false, true) => addc_u32(a1, b1, true),
        (None, true, true) => {
            let (r, c1) = addc_u32(a1, b1, true);
            let (r, c2) = add_cc_u32(r, 1);
            (r, c1 | c2)
        }
    };
    (d, carry, overflow)
}

/// Writes operand 0 and, when it carries `.CC`, the condition-code flags of `d` with the
/// operation's carry and signed overflow.
fn write_d_cc(w: &mut Warp, inst: &Decoded, l: u32, d: u32, carry: bool, overflow: bool) -> R {
    w.set_reg(l, dst_reg(inst, 0)?, d);
    if flags(&opd(inst, 0)).cc {
        w.set_cc(l, crate::cc::Flags::of(d, carry, overflow));
    }
    Ok(())
}

fn iadd(w: &mut Warp, m: &CtaMem<'_>, inst: &Decoded, l: u32) -> R {
    let a = src32(w, m, l, inst, 1)?;
    let b = src32(w, m, l, inst, 2)?;
    let (na, nb) = (flags(&opd(inst, 1)).neg, flags(&opd(inst, 2)).neg);
    let x = has(inst, ".X");
    if has(inst, ".SAT") {
        if x {
            return Err(FaultKind::Unsupported("IADD.SAT.X".into()));
        }
        let a = if na { int::neg(a as i32) } else { a as i32 };
        let b = if nb { int::neg(b as i32) } else { b as i32 };
        // Saturated: the result always fits, nothing carries out of the clamp.
        return write_d_cc(w, inst, l, int::add_sat_s32(a, b) as u32, false, false);
    }
    let (d, cf, of) = add_neg(a, na, b, nb, x.then(|| w.carry(l)));
    write_d_cc(w, inst, l, d, cf, of)
}

/// IMUL/IMAD: the product of the two sources (each `.U32` or `.S32`), its low or `.HI` word,
/// plus the third source for IMAD.
fn imad(w: &mut Warp, m: &CtaMem<'_>, inst: &Decoded, l: u32) -> R {
    let types = mod_named(inst, "operand types").unwrap_or("");
    let (sa, sb) = match types {
        ".U32.U32" => (Sign::Unsigned, Sign::Unsigned),
        ".S32.U32" => (Sign::Signed, Sign::Unsigned),
        ".U32.S32" => (Sign::Unsigned, Sign::Signed),
        _ => (Sign::Signed, Sign::Signed),
    };
    let a = src32(w, m, l, inst, 1)?;
    let b = src32(w, m, l, inst, 2)?;
    let wide = int::mul_wide_mixed(a, sa, b, sb);
    let p = if has(inst, ".HI") {
        (wide >> 32) as u32
    } else {
        wide as u32
    };
    if inst.mnemonic() != "IMAD" {
        // IMUL.CC: no addition, so no carry or overflow (docs/spec-notes.md).
        return write_d_cc(w, inst, l, p, false, false);
    }
    let c = src32(w, m, l, inst, 3)?;
    let (np, nc) = (flags(&opd(inst, 1)).neg, flags(&opd(inst, 3)).neg);
    let (d, cf, of) = add_neg(p, np, c, nc, None);
    write_d_cc(w, inst, l, d, cf, of)
}

/// The integer comparison; `None` for `.F`/`.T` (constant results).
pub fn int_cmp(inst: &Decoded) -> Result<Option<CmpOp>, LaneFault> {
    Ok(match mod_named(inst, "comparison").unwrap_or("") {
        ".LT" => Some(CmpOp::Lt),
        ".EQ" => Some(CmpOp::Eq),
        ".LE" => Some(CmpOp::Le),
        ".GT" => Some(CmpOp::Gt),
        ".NE" => Some(CmpOp::Ne),
        ".GE" => Some(CmpOp::Ge),
        ".F" | ".T" => None,
        other => {
            return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                "{} comparison {other}",
                inst.mnemonic()
            ))))
        }
    })
}

fn logic(name: Option<&str>) -> Result<BoolOp, FaultKind> {
    match name.unwrap_or(".AND") {
        ".AND" => Ok(BoolOp::And),
        ".OR" => Ok(BoolOp::Or),
        ".XOR" => Ok(BoolOp::Xor),
        other => Err(FaultKind::Unsupported(format!("boolean operation {other}"))),
    }
}

/// The boolean operation that combines a compare with its last predicate.
pub fn bool_op(inst: &Decoded) -> Result<BoolOp, FaultKind> {
    logic(mod_named(inst, "boolean operation"))
}

fn prmt_mode(name: &str) -> ops::prmt::PrmtMode {
    use ops::prmt::PrmtMode;
    match name {
        ".F4E" => PrmtMode::F4e,
        ".B4E" => PrmtMode::B4e,
        ".RC8" => PrmtMode::Rc8,
        ".ECL" => PrmtMode::Ecl,
        ".ECR" => PrmtMode::Ecr,
        ".RC16" => PrmtMode::Rc16,
        _ => PrmtMode::Default,
    }
}

/// One source type of a video instruction (`U8:B1`, `S16`, `U32`): signedness and part.
fn video_part(s: &str) -> Option<(Sign, PartSel)> {
    let (ty, sel) = match s.split_once(':') {
        Some((t, sel)) => (t, Some(sel)),
        None => (s, None),
    };
    let sign = match ty.get(..1)? {
        "U" => Sign::Unsigned,
        "S" => Sign::Signed,
        _ => return None,
    };
    let n = |p: &str| {
        sel.and_then(|x| x.strip_prefix(p))
            .and_then(|d| d.parse::<u8>().ok())
    };
    let part = match ty.get(1..)? {
        "8" => PartSel::byte(n("B").unwrap_or(0))?,
        "16" => PartSel::half(n("H").unwrap_or(0))?,
        "32" => PartSel::Word,
        _ => return None,
    };
    Some((sign, part))
}

/// The modifiers of a scalar video instruction as `ops::video` takes them.
fn video_mode(inst: &Decoded) -> Result<VideoScalar, FaultKind> {
    let bad = |what: &str| FaultKind::Unsupported(format!("{} with {what}", inst.mnemonic()));
    let types = mod_named(inst, "source types").unwrap_or("");
    let (a, b) = if types.is_empty() {
        ((Sign::Signed, PartSel::Word), (Sign::Signed, PartSel::Word))
    } else {
        let mut it = types.trim_start_matches('.').split('.');
        let a = it.next().and_then(video_part);
        let b = it.next().and_then(video_part);
        match (a, b) {
            (Some(a), Some(b)) => (a, b),
            _ => return Err(bad(&format!("source types {types}"))),
        }
    };
    let secondary = match mod_named(inst, "secondary operation").unwrap_or("") {
        "" => VideoSecondary::None,
        ".ACC" => VideoSecondary::Add,
        ".MIN" => VideoSecondary::Min,
        ".MAX" => VideoSecondary::Max,
        ".MRG_16H" => VideoSecondary::Merge(PartSel::H1),
        ".MRG_16L" => VideoSecondary::Merge(PartSel::H0),
        ".MRG_8B0" => VideoSecondary::Merge(PartSel::B0),
        ".MRG_8B2" => VideoSecondary::Merge(PartSel::B2),
        other => return Err(bad(other)),
    };
    let dtype = if has(inst, ".UD") {
        Sign::Unsigned
    } else {
        Sign::Signed
    };
    Ok(VideoScalar {
        dtype,
        atype: a.0,
        btype: b.0,
        asel: a.1,
        bsel: b.1,
        sat: has(inst, ".SAT"),
        secondary,
    })
}
