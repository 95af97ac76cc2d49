//! Floating-point, conversion and `MUFU` instructions, through `ops::float`, `ops::cmp`,
//! `ops::cvt` and `ops::transcend`.

use crate::alu::{bool_op, each};
use crate::error::{FaultKind, LaneFault};
use crate::image::Decoded;
use crate::warp::{
    dst_pred, dst_reg, flags, has, mod_named, only_mods, opd, src32, src64, src_pred, CtaMem, Warp,
};
use ops::cmp::{self, CmpOp};
use ops::cvt::{cvt, CvtMode, CvtRounding, CvtType, IntRounding};
use ops::float::{self as fl, Rounding};
use ops::transcend::{self as tr, Precision};

type R = Result<(), FaultKind>;

const FCMP: &[&str] = &[
    ".F", ".LT", ".EQ", ".LE", ".GT", ".NE", ".GE", ".NUM", ".NAN", ".LTU", ".EQU", ".LEU", ".GTU",
    ".NEU", ".GEU", ".T",
];

/// Executes one float/conversion instruction for the lanes of `mask`; `Ok(false)` if `inst`
/// is not one of them.
pub fn exec(w: &mut Warp, m: &CtaMem<'_>, inst: &Decoded, mask: u32) -> Result<bool, LaneFault> {
    let name = inst.mnemonic();
    let known = |k: &[&str]| only_mods(inst, k).map_err(LaneFault::warp);
    let rnd = rounding(inst);
    let ftz = has(inst, ".FTZ");
    let sat = has(inst, ".SAT");
    match name {
        "FADD" | "FADD32I" => {
            known(&[".FTZ", ".RM", ".RP", ".RZ", ".SAT"])?;
            each(w, mask, |w, l| {
                let a = f32_src(w, m, inst, l, 1)?;
                let b = f32_src(w, m, inst, l, 2)?;
                set_f32(w, inst, l, fl::add_f32(a, b, rnd, ftz, sat))
            })?;
        }
        "FMUL" | "FMUL32I" => {
            known(&[".FTZ", ".RM", ".RP", ".RZ", ".SAT"])?;
            each(w, mask, |w, l| {
                let a = f32_src(w, m, inst, l, 1)?;
                let b = f32_src(w, m, inst, l, 2)?;
                set_f32(w, inst, l, fl::mul_f32(a, b, rnd, ftz, sat))
            })?;
        }
        "FFMA" => {
            known(&[".FTZ", ".RM", ".RP", ".RZ", ".SAT"])?;
            each(w, mask, |w, l| {
                // The negation bit of the first source negates the product.
                let a = f32_src(w, m, inst, l, 1)?;
                let b = f32_src(w, m, inst, l, 2)?;
                let c = f32_src(w, m, inst, l, 3)?;
                set_f32(w, inst, l, fl::fma_f32(a, b, c, rnd, ftz, sat))
            })?;
        }
        "FSETP" | "FCMP" => {
            let mut k = FCMP.to_vec();
            k.extend([".FTZ", ".AND", ".OR", ".XOR"]);
            known(&k)?;
            let op = float_cmp(inst)?;
            let bop = if name == "FSETP" {
                Some(bool_op(inst).map_err(LaneFault::warp)?)
            } else {
                None
            };
            each(w, mask, |w, l| {
                let test = |a: f32, b: f32| match op {
                    Ok(op) => cmp::cmp_f32(op, a, b, ftz),
                    Err(c) => c,
                };
                if let Some(bop) = bop {
                    let t = test(f32_src(w, m, inst, l, 2)?, f32_src(w, m, inst, l, 3)?);
                    let c = src_pred(w, l, inst, 4)?;
                    let (p, q) = cmp::setp(t, Some((bop, c)));
                    w.set_pred(l, dst_pred(inst, 0)?, p);
                    w.set_pred(l, dst_pred(inst, 1)?, q);
                } else {
                    // FCMP: d = (r3 cmp 0.0) ? a : b, like ICMP.
                    let t = test(f32::from_bits(src32(w, m, l, inst, 3)?), 0.0);
                    let a = src32(w, m, l, inst, 1)?;
                    let b = src32(w, m, l, inst, 2)?;
                    w.set_reg(l, dst_reg(inst, 0)?, cmp::selp(a, b, t));
                }
                Ok(())
            })?;
        }
        "DADD" | "DMUL" | "DFMA" => {
            known(&[".RM", ".RP", ".RZ"])?;
            each(w, mask, |w, l| {
                let a = f64_src(w, m, inst, l, 1)?;
                let b = f64_src(w, m, inst, l, 2)?;
                let d = match name {
                    "DADD" => fl::add_f64(a, b, rnd),
                    "DMUL" => fl::mul_f64(a, b, rnd),
                    _ => fl::fma_f64(a, b, f64_src(w, m, inst, l, 3)?, rnd),
                };
                set_pair(w, inst, l, d.to_bits())
            })?;
        }
        "DSETP" => {
            let mut k = FCMP.to_vec();
            k.extend([".AND", ".OR", ".XOR"]);
            known(&k)?;
            let op = float_cmp(inst)?;
            each(w, mask, |w, l| {
                let (a, b) = (f64_src(w, m, inst, l, 2)?, f64_src(w, m, inst, l, 3)?);
                let t = match op {
                    Ok(op) => cmp::cmp_f64(op, a, b),
                    Err(c) => c,
                };
                let c = src_pred(w, l, inst, 4)?;
                let (p, q) = cmp::setp(t, Some((bool_op(inst)?, c)));
                w.set_pred(l, dst_pred(inst, 0)?, p);
                w.set_pred(l, dst_pred(inst, 1)?, q);
                Ok(())
            })?;
        }
        "FMNMX" | "DMNMX" => {
            known(&[".FTZ"])?;
            each(w, mask, |w, l| {
                // The predicate selects the minimum when true (`!pt`: maximum), as IMNMX.
                let min = src_pred(w, l, inst, 3)?;
                if name == "FMNMX" {
                    let (a, b) = (f32_src(w, m, inst, l, 1)?, f32_src(w, m, inst, l, 2)?);
                    let d = if min {
                        fl::min_f32(a, b, ftz)
                    } else {
                        fl::max_f32(a, b, ftz)
                    };
                    set_f32(w, inst, l, d)
                } else {
                    let (a, b) = (f64_src(w, m, inst, l, 1)?, f64_src(w, m, inst, l, 2)?);
                    let d = if min {
                        fl::min_f64(a, b)
                    } else {
                        fl::max_f64(a, b)
                    };
                    set_pair(w, inst, l, d.to_bits())
                }
            })?;
        }
        "FSET" | "DSET" => {
            let mut k = FCMP.to_vec();
            k.extend([".FTZ", ".BF", ".AND", ".OR", ".XOR"]);
            known(&k)?;
            let op = float_cmp(inst)?;
            let bf = has(inst, ".BF");
            each(w, mask, |w, l| {
                let t = match (op, name) {
                    (Err(c), _) => c,
                    (Ok(op), "FSET") => cmp::cmp_f32(
                        op,
                        f32_src(w, m, inst, l, 1)?,
                        f32_src(w, m, inst, l, 2)?,
                        ftz,
                    ),
                    (Ok(op), _) => {
                        cmp::cmp_f64(op, f64_src(w, m, inst, l, 1)?, f64_src(w, m, inst, l, 2)?)
                    }
                };
                let r = cmp::bool_op(bool_op(inst)?, t, src_pred(w, l, inst, 3)?);
                w.set_reg(l, dst_reg(inst, 0)?, cmp::set_bits(r, bf));
                Ok(())
            })?;
        }
        "RRO" => {
            // The range reduction ahead of MUFU.SIN/COS/EX2. Its output format is the
            // hardware's own and only MUFU reads it; here it passes the value on (with its
            // |x| and -x), so `RRO; MUFU` computes the PTX `.approx` function of the input
            // (docs/spec-notes.md, "RRO").
            known(&[".SINCOS", ".EX2"])?;
            each(w, mask, |w, l| {
                let a = f32_src(w, m, inst, l, 1)?;
                set_f32(w, inst, l, a)
            })?;
        }
        "MUFU" => {
            known(&[".COS", ".SIN", ".EX2", ".LG2", ".RCP", ".RSQ", ".SAT"])?;
            let f = mod_named(inst, "function").unwrap_or("");
            each(w, mask, |w, l| {
                let a = f32_src(w, m, inst, l, 1)?;
                // MUFU computes what the PTX `.approx` functions compute (ops::transcend).
                let d = match f {
                    ".COS" => tr::cos_f32(a, false),
                    ".SIN" => tr::sin_f32(a, false),
                    ".EX2" => tr::ex2_f32(a, false),
                    ".LG2" => tr::lg2_f32(a, false),
                    ".RCP" => tr::rcp_f32(a, Precision::Approx, false),
                    ".RSQ" => tr::rsqrt_f32(a, false),
                    other => return Err(FaultKind::Unsupported(format!("MUFU{other}"))),
                };
                let d = if sat { fl::saturate_f32(d) } else { d };
                set_f32(w, inst, l, d)
            })?;
        }
        "I2F" | "I2I" | "F2F" | "F2I" => {
            let from = cvt_type(inst, "source type")?;
            let to = cvt_type(inst, "destination type")?;
            let mode = cvt_mode(inst, from, to)?;
            let flg = flags(&opd(inst, 1));
            let float_src = matches!(from, CvtType::F16 | CvtType::F32 | CvtType::F64);
            if (flg.neg || flg.abs) && !float_src && from.bits() < 32 {
                return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                    "{name} with a negated or absolute 8- or 16-bit source"
                ))));
            }
            each(w, mask, |w, l| {
                let mut bits = if from.bits() == 64 {
                    src64(w, m, l, inst, 1)?
                } else {
                    u64::from(src32(w, m, l, inst, 1)?)
                };
                if float_src {
                    bits = float_sign_ops(bits, from, flg.neg, flg.abs);
                } else if flg.neg || flg.abs {
                    bits = int_sign_ops(bits, from, flg.neg, flg.abs);
                }
                let d = cvt(bits, from, to, mode);
                let r = dst_reg(inst, 0)?;
                w.set_reg_at(l, r, 0, d as u32);
                if to.bits() == 64 {
                    w.set_reg_at(l, r, 1, (d >> 32) as u32);
                }
                Ok(())
            })?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// `|x|` then `-x` on a float source's bits, as `ops::float` defines them.
fn float_sign_ops(bits: u64, ty: CvtType, neg: bool, abs: bool) -> u64 {
    match ty {
        CvtType::F32 => {
            let mut x = f32::from_bits(bits as u32);
            if abs {
                x = fl::abs_f32(x, false);
            }
            if neg {
                x = fl::neg_f32(x, false);
            }
            u64::from(x.to_bits())
        }
        CvtType::F64 => {
            let mut x = f64::from_bits(bits);
            if abs {
                x = fl::abs_f64(x);
            }
            if neg {
                x = fl::neg_f64(x);
            }
            x.to_bits()
        }
        // The half's sign bit is bit 15.
        _ => {
            let mut h = bits & 0xffff;
            if abs {
                h &= 0x7fff;
            }
            if neg {
                h ^= 0x8000;
            }
            h
        }
    }
}

/// `|x|` then `-x` on a 32- or 64-bit integer source (`I2I.S32.S32 R0, -R0`), as `ops::int`
/// defines them (wrapping: `-INT_MIN` is `INT_MIN`).
fn int_sign_ops(bits: u64, ty: CvtType, neg: bool, abs: bool) -> u64 {
    use ops::int;
    match ty {
        CvtType::S32 | CvtType::U32 => {
            let mut x = bits as u32 as i32;
            if abs && ty == CvtType::S32 {
                x = int::abs(x);
            }
            if neg {
                x = int::neg(x);
            }
            u64::from(x as u32)
        }
        _ => {
            let mut x = bits as i64;
            if abs && ty == CvtType::S64 {
                x = int::abs(x);
            }
            if neg {
                x = int::neg(x);
            }
            x as u64
        }
    }
}

/// A single-precision source with its `|x|` and `-x` decorations applied.
fn f32_src(w: &Warp, m: &CtaMem<'_>, inst: &Decoded, l: u32, i: usize) -> Result<f32, FaultKind> {
    let f = flags(&opd(inst, i));
    let mut x = f32::from_bits(src32(w, m, l, inst, i)?);
    if f.abs {
        x = fl::abs_f32(x, false);
    }
    if f.neg {
        x = fl::neg_f32(x, false);
    }
    Ok(x)
}

fn f64_src(w: &Warp, m: &CtaMem<'_>, inst: &Decoded, l: u32, i: usize) -> Result<f64, FaultKind> {
    let f = flags(&opd(inst, i));
    let mut x = f64::from_bits(src64(w, m, l, inst, i)?);
    if f.abs {
        x = fl::abs_f64(x);
    }
    if f.neg {
        x = fl::neg_f64(x);
    }
    Ok(x)
}

fn set_f32(w: &mut Warp, inst: &Decoded, l: u32, d: f32) -> R {
    w.set_reg(l, dst_reg(inst, 0)?, d.to_bits());
    Ok(())
}

fn set_pair(w: &mut Warp, inst: &Decoded, l: u32, d: u64) -> R {
    let r = dst_reg(inst, 0)?;
    w.set_reg_at(l, r, 0, d as u32);
    w.set_reg_at(l, r, 1, (d >> 32) as u32);
    Ok(())
}

fn rounding(inst: &Decoded) -> Rounding {
    match mod_named(inst, "rounding").unwrap_or("") {
        ".RM" => Rounding::Rm,
        ".RP" => Rounding::Rp,
        ".RZ" => Rounding::Rz,
        _ => Rounding::Rn,
    }
}

/// The float comparison, or `Err(constant)` for `.F`/`.T`.
fn float_cmp(inst: &Decoded) -> Result<Result<CmpOp, bool>, LaneFault> {
    Ok(Ok(match mod_named(inst, "comparison").unwrap_or("") {
        ".LT" => CmpOp::Lt,
        ".EQ" => CmpOp::Eq,
        ".LE" => CmpOp::Le,
        ".GT" => CmpOp::Gt,
        ".NE" => CmpOp::Ne,
        ".GE" => CmpOp::Ge,
        ".NUM" => CmpOp::Num,
        ".NAN" => CmpOp::Nan,
        ".LTU" => CmpOp::Ltu,
        ".EQU" => CmpOp::Equ,
        ".LEU" => CmpOp::Leu,
        ".GTU" => CmpOp::Gtu,
        ".NEU" => CmpOp::Neu,
        ".GEU" => CmpOp::Geu,
        ".F" => return Ok(Err(false)),
        ".T" => return Ok(Err(true)),
        other => {
            return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                "{} comparison {other}",
                inst.mnemonic()
            ))))
        }
    }))
}

fn cvt_type(inst: &Decoded, what: &str) -> Result<CvtType, LaneFault> {
    Ok(match mod_named(inst, what).unwrap_or("") {
        ".U8" => CvtType::U8,
        ".U16" => CvtType::U16,
        ".U32" => CvtType::U32,
        ".U64" => CvtType::U64,
        ".S8" => CvtType::S8,
        ".S16" => CvtType::S16,
        ".S32" => CvtType::S32,
        ".S64" => CvtType::S64,
        ".F16" => CvtType::F16,
        ".F32" => CvtType::F32,
        ".F64" => CvtType::F64,
        other => {
            return Err(LaneFault::warp(FaultKind::Unsupported(format!(
                "{} {what} `{other}`",
                inst.mnemonic()
            ))))
        }
    })
}

/// Rounding, saturation and flushing of a conversion. Fermi's `F2I`/`F2F` integer roundings
/// are `.ROUND` (nearest even), `.FLOOR`, `.CEIL`, `.TRUNC`.
fn cvt_mode(inst: &Decoded, from: CvtType, to: CvtType) -> Result<CvtMode, LaneFault> {
    let is_float = |t: CvtType| matches!(t, CvtType::F16 | CvtType::F32 | CvtType::F64);
    let name = mod_named(inst, "rounding").unwrap_or("");
    let int_rnd = |n: &str| match n {
        ".FLOOR" => Some(IntRounding::Rmi),
        ".CEIL" => Some(IntRounding::Rpi),
        ".TRUNC" => Some(IntRounding::Rzi),
        ".ROUND" | "" => Some(IntRounding::Rni),
        _ => None,
    };
    let float_rnd = |n: &str| match n {
        ".RM" => Some(Rounding::Rm),
        ".RP" => Some(Rounding::Rp),
        ".RZ" => Some(Rounding::Rz),
        ".RN" | "" => Some(Rounding::Rn),
        _ => None,
    };
    let rnd = if is_float(to) && !is_float(from) {
        float_rnd(name).map(CvtRounding::Float)
    } else if !is_float(to) && is_float(from) {
        int_rnd(name).map(CvtRounding::Int)
    } else if is_float(to) {
        // F2F: an IEEE rounding, or an integer rounding of a float (`cvt.rni.f32.f32`).
        match float_rnd(name) {
            Some(r) => Some(CvtRounding::Float(r)),
            None => int_rnd(name).map(CvtRounding::Int),
        }
    } else {
        None
    };
    if rnd.is_none() && (is_float(to) || is_float(from)) {
        return Err(LaneFault::warp(FaultKind::Unsupported(format!(
            "{} rounding `{name}`",
            inst.mnemonic()
        ))));
    }
    Ok(CvtMode {
        rnd,
        sat: has(inst, ".SAT"),
        ftz: has(inst, ".FTZ"),
        f16: ops::cvt::F16Rules::Ieee,
    })
}
