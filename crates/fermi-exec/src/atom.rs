//! `ATOM` and `RED`: read-modify-writes on a generic address (global, or the shared window).
//! The new value is `ops::atom`'s; this module reads Fermi's operands, makes the access
//! atomic (a lock across CTAs for global memory; a CTA's warps run one at a time, so shared
//! memory needs none) and returns the old value to `ATOM`'s destination.
//!
//! Operands (Mesa 22.3.6 `emitATOM`): `ATOM.op.T Rd, [Ra+off], Rb, Rc` (`Rc` only for `CAS`,
//! the value stored when the old one equals `Rb`); `RED.op.T [Ra+off], Rb`. `.U64` reads
//! register pairs and writes one.

use crate::alu::each;
use crate::error::{FaultKind, LaneFault, Space};
use crate::image::Decoded;
use crate::mem::{address, mem_operand};
use crate::memory::{check_aligned, classify, window_range, Generic};
use crate::warp::{dst_reg, has, mod_named, opd, CtaMem, Warp};
use fermi::isa::Operand;
use ops::atom::{atom_add_f32, atom_int, AtomOp};

/// The operand type of an atomic: it fixes the width and the meaning of `MIN`/`MAX`/`ADD`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AtomType {
    U32,
    S32,
    U64,
    F32,
}

impl AtomType {
    fn bytes(self) -> u32 {
        if self == AtomType::U64 {
            8
        } else {
            4
        }
    }
}

fn atom_type(inst: &Decoded) -> Result<AtomType, FaultKind> {
    Ok(match mod_named(inst, "type").unwrap_or("") {
        "" | ".U32" => AtomType::U32,
        ".S32" => AtomType::S32,
        ".U64" => AtomType::U64,
        ".F32.FTZ.RN" => AtomType::F32,
        other => {
            return Err(FaultKind::Unsupported(format!(
                "{} of type {other}",
                inst.mnemonic()
            )))
        }
    })
}

fn atom_op(inst: &Decoded) -> Result<AtomOp, FaultKind> {
    Ok(match mod_named(inst, "atomic operation").unwrap_or("") {
        ".ADD" => AtomOp::Add,
        ".MIN" => AtomOp::Min,
        ".MAX" => AtomOp::Max,
        ".INC" => AtomOp::Inc,
        ".DEC" => AtomOp::Dec,
        ".AND" => AtomOp::And,
        ".OR" => AtomOp::Or,
        ".XOR" => AtomOp::Xor,
        ".EXCH" => AtomOp::Exch,
        ".CAS" => AtomOp::Cas,
        other => {
            return Err(FaultKind::Unsupported(format!(
                "{} operation {other}",
                inst.mnemonic()
            )))
        }
    })
}

/// The value a register operand holds, as `bytes` wide (a pair for 8); an omitted operand
/// (`RZ`) reads zero.
fn value(w: &Warp, l: u32, op: Operand, bytes: u32) -> u64 {
    match op {
        Operand::Reg(r, _) if bytes == 8 => {
            u64::from(w.reg_at(l, r, 0)) | u64::from(w.reg_at(l, r, 1)) << 32
        }
        Operand::Reg(r, _) => u64::from(w.reg(l, r)),
        _ => 0,
    }
}

/// The new value given the old one, all as raw bits of the type's width.
fn apply(t: AtomType, op: AtomOp, old: u64, b: u64, c: u64) -> Result<u64, FaultKind> {
    Ok(match t {
        AtomType::U32 => u64::from(atom_int(op, old as u32, b as u32, c as u32)),
        AtomType::S32 => u64::from(atom_int(op, old as i32, b as i32, c as i32) as u32),
        AtomType::U64 => atom_int(op, old, b, c),
        AtomType::F32 if op == AtomOp::Add => {
            u64::from(atom_add_f32(f32::from_bits(old as u32), f32::from_bits(b as u32)).to_bits())
        }
        AtomType::F32 => {
            return Err(FaultKind::Unsupported(
                "a floating-point atomic other than ADD".into(),
            ))
        }
    })
}

fn from_le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |acc, &b| acc << 8 | u64::from(b))
}

/// Executes `ATOM` or `RED` for the lanes of `mask`, lowest lane first (the order of a
/// warp's atomics to one address is unspecified on the GPU); `Ok(false)` if `inst` is
/// neither.
pub fn exec(
    w: &mut Warp,
    m: &mut CtaMem<'_>,
    inst: &Decoded,
    mask: u32,
) -> Result<bool, LaneFault> {
    let name = inst.mnemonic();
    let is_atom = match name {
        "ATOM" => true,
        "RED" => false,
        _ => return Ok(false),
    };
    crate::warp::only_mods(
        inst,
        &[
            ".E",
            ".U32",
            ".S32",
            ".U64",
            ".F32.FTZ.RN",
            ".ADD",
            ".MIN",
            ".MAX",
            ".INC",
            ".DEC",
            ".AND",
            ".OR",
            ".XOR",
            ".EXCH",
            ".CAS",
        ],
    )
    .map_err(LaneFault::warp)?;
    let t = atom_type(inst).map_err(LaneFault::warp)?;
    let op = atom_op(inst).map_err(LaneFault::warp)?;
    apply(t, op, 0, 0, 0).map_err(LaneFault::warp)?;
    let wide = has(inst, ".E");
    let n = t.bytes();
    // ATOM: Rd, [Ra+off], Rb, Rc; RED: [Ra+off], Rb.
    let (ai, bi) = if is_atom { (1, 2) } else { (0, 1) };
    let rd = if is_atom {
        Some(dst_reg(inst, 0).map_err(LaneFault::warp)?)
    } else {
        None
    };
    let (bop, cop) = (opd(inst, bi), opd(inst, 3));
    each(w, mask, |w, l| {
        let (base, offset) = mem_operand(inst, ai)?;
        let addr = address(w, l, base, offset, wide, m.img.addr64);
        let (b, c) = (value(w, l, bop, n), value(w, l, cop, n));
        let mut old = [0u8; 8];
        let old = old.get_mut(..n as usize).unwrap_or(&mut []);
        // `apply` was checked for this type and operation above: it cannot fail here.
        let new_bytes = |o: &[u8]| {
            let v = apply(t, op, from_le(o), b, c).unwrap_or(from_le(o));
            v.to_le_bytes().get(..o.len()).unwrap_or(&[]).to_vec()
        };
        match classify(addr) {
            Generic::Global(a) => {
                check_aligned(Space::Global, a, n)?;
                m.global.rmw(a, old, new_bytes)?;
            }
            Generic::Shared(off) => {
                check_aligned(Space::Shared, off, n)?;
                let r = window_range(Space::Shared, off, n, m.shared.len())?;
                if let Some(win) = m.shared.get_mut(r) {
                    old.copy_from_slice(win);
                    let new = new_bytes(old);
                    win.copy_from_slice(new.get(..win.len()).unwrap_or(&[]));
                }
            }
            Generic::Local(_) => {
                return Err(FaultKind::Unsupported(format!(
                    "{name} on local address {addr:#x} (Fermi has no local atomics)"
                )))
            }
        }
        if let Some(rd) = rd {
            let v = from_le(old);
            w.set_reg(l, rd, v as u32);
            if n == 8 {
                w.set_reg_at(l, rd, 1, (v >> 32) as u32);
            }
        }
        Ok(())
    })?;
    Ok(true)
}
