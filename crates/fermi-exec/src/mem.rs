//! Loads and stores: `LD`/`ST`/`LDU` on generic addresses (32-bit, or 64-bit register pairs
//! with `.E`), `LDS`/`STS` on shared offsets, `LDL`/`STL` on the thread's local offsets, `LDC`
//! on constant banks.

use crate::alu::each;
use crate::error::{FaultKind, LaneFault, Space};
use crate::image::Decoded;
use crate::memory::{check_aligned, classify, window_range, Generic, Global};
use crate::warp::{dst_pred, dst_reg, has, mod_named, only_mods, opd, CtaMem, Warp};
use fermi::isa::{Gpr, Operand};

type R = Result<(), FaultKind>;

/// Width and extension of an access (`.U8` … `.128`).
#[derive(Clone, Copy)]
struct Access {
    bytes: u32,
    signed: bool,
}

fn access(inst: &Decoded) -> Result<Access, FaultKind> {
    let (bytes, signed) = match mod_named(inst, "access type").unwrap_or("") {
        ".U8" => (1, false),
        ".S8" => (1, true),
        ".U16" => (2, false),
        ".S16" => (2, true),
        "" | ".32" => (4, false),
        ".64" => (8, false),
        ".128" => (16, false),
        other => {
            return Err(FaultKind::Unsupported(format!(
                "{} access type {other}",
                inst.mnemonic()
            )))
        }
    };
    Ok(Access { bytes, signed })
}

const CACHE_OPS: &[&str] = &[
    ".CG", ".CS", ".CV", ".CA", ".LU", ".WT", ".WB", ".U8", ".S8", ".U16", ".S16", ".32", ".64",
    ".128", ".E",
];

/// Executes one memory instruction for the lanes of `mask`; `Ok(false)` if `inst` is not one.
pub fn exec(
    w: &mut Warp,
    m: &mut CtaMem<'_>,
    inst: &Decoded,
    mask: u32,
) -> Result<bool, LaneFault> {
    let name = inst.mnemonic();
    if !matches!(
        name,
        "LD" | "LDU"
            | "LDL"
            | "LDS"
            | "ST"
            | "STL"
            | "STS"
            | "LDC"
            | "LDSLK"
            | "STSUL"
            | "LDLK"
            | "STUL"
    ) {
        return Ok(false);
    }
    only_mods(inst, CACHE_OPS).map_err(LaneFault::warp)?;
    let acc = access(inst).map_err(LaneFault::warp)?;
    let wide = has(inst, ".E");
    let store = name.starts_with("ST");
    // Loads name the register first, stores the address first; LDSLK names its lock
    // predicate before both.
    let (ri, ai) = match (name, store) {
        ("LDSLK" | "LDLK", _) => (1, 2),
        (_, true) => (1, 0),
        (_, false) => (0, 1),
    };
    let reg = dst_reg(inst, ri).map_err(LaneFault::warp)?;
    let lock_pred = if name == "LDSLK" || name == "LDLK" {
        Some(dst_pred(inst, 0).map_err(LaneFault::warp)?)
    } else {
        None
    };
    each(w, mask, |w, l| {
        let mut buf = [0u8; 16];
        let data = buf.get_mut(..acc.bytes as usize).unwrap_or(&mut []);
        if store {
            for (k, chunk) in data.chunks_mut(4).enumerate() {
                let v = w.reg_at(l, reg, k as u8).to_le_bytes();
                chunk.copy_from_slice(v.get(..chunk.len()).unwrap_or(&[]));
            }
        }
        match name {
            "LDC" => {
                let Operand::CMem { bank, base, offset } = opd(inst, ai) else {
                    return Err(FaultKind::Unsupported("LDC operand".into()));
                };
                let off = u64::from(w.reg(l, base).wrapping_add(u32::from(offset)));
                for (k, chunk) in data.chunks_mut(4).enumerate() {
                    let n = chunk.len() as u32;
                    if k == 0 {
                        check_aligned(Space::Constant { bank }, off, acc.bytes)?;
                    }
                    let v = m.cread(bank, off + 4 * k as u64, n)?;
                    chunk.copy_from_slice(v.to_le_bytes().get(..chunk.len()).unwrap_or(&[]));
                }
            }
            _ => {
                let (base, offset) = mem_operand(inst, ai)?;
                let addr = address(w, l, base, offset, wide, m.img.addr64);
                let space = match name {
                    "LDS" | "STS" | "LDSLK" | "STSUL" => Generic::Shared(addr),
                    "LDL" | "STL" => Generic::Local(addr),
                    _ => classify(addr),
                };
                let thread = w.id * 32 + l;
                if let ("LDLK" | "STUL", p) = (name, lock_pred) {
                    // LDLK/STUL: the same lock protocol on a global word, across CTAs
                    // (asfermi OpcodeDataMovement; docs/spec-notes.md, "LDLK/STUL").
                    let Generic::Global(a) = space else {
                        return Err(FaultKind::Unsupported(format!(
                            "{name} on the non-global address {addr:#x}"
                        )));
                    };
                    check_aligned(Space::Global, a, acc.bytes)?;
                    let owner = Global::owner(m.cta_index(), thread);
                    if let Some(p) = p {
                        let held = m.global.load_locked(a, data, owner)?;
                        w.set_pred(l, p, held);
                    } else {
                        m.global.store_unlock(a, data, owner)?;
                    }
                    if !store {
                        write_loaded(w, l, reg, data, acc);
                    }
                    return Ok(());
                }
                access_space(m, thread, space, addr, data, store)?;
                // LDSLK/STSUL: the lock that sm_20 code takes around a shared atomic
                // (asfermi OpcodeDataMovement; docs/spec-notes.md, "LDSLK/STSUL").
                if let Some(p) = lock_pred {
                    let held = m.lock_shared(addr, thread);
                    w.set_pred(l, p, held);
                } else if name == "STSUL" {
                    m.unlock_shared(addr, thread);
                }
            }
        }
        if !store {
            write_loaded(w, l, reg, data, acc);
        }
        Ok(())
    })?;
    Ok(true)
}

pub(crate) fn mem_operand(inst: &Decoded, i: usize) -> Result<(Gpr, i32), FaultKind> {
    match opd(inst, i) {
        Operand::Mem { base, offset } => Ok((base, offset)),
        other => Err(FaultKind::Unsupported(format!(
            "{} address operand {other:?}",
            inst.mnemonic()
        ))),
    }
}

/// `[Rn+offset]`: 32-bit arithmetic (`-m32` pointers wrap at 4 GiB, which 2011 code relies
/// on), or a 64-bit register pair with `.E`.
pub(crate) fn address(w: &Warp, l: u32, base: Gpr, offset: i32, wide: bool, addr64: bool) -> u64 {
    if wide && addr64 {
        let b = u64::from(w.reg_at(l, base, 0)) | u64::from(w.reg_at(l, base, 1)) << 32;
        b.wrapping_add(i64::from(offset) as u64)
    } else {
        u64::from(w.reg(l, base).wrapping_add(offset as u32))
    }
}

/// Loads into or stores from `data` at `addr` of `space`.
fn access_space(
    m: &mut CtaMem<'_>,
    thread: u32,
    space: Generic,
    generic: u64,
    data: &mut [u8],
    store: bool,
) -> R {
    let n = data.len() as u32;
    match space {
        Generic::Global(a) => {
            check_aligned(Space::Global, a, n)?;
            if store {
                m.global.store(a, data)
            } else {
                m.global.load(a, data)
            }
        }
        Generic::Shared(off) => {
            check_aligned(Space::Shared, off, n)?;
            let r = window_range(Space::Shared, off, n, m.shared.len())?;
            window_copy(&mut m.shared, r, data, store);
            Ok(())
        }
        Generic::Local(off) => {
            check_aligned(Space::Local, off, n)?;
            let len = m.local_bytes;
            let Some(mem) = m.local.get_mut(thread as usize) else {
                return Err(FaultKind::OutOfBounds {
                    space: Space::Local,
                    addr: generic,
                    size: n,
                });
            };
            let r = window_range(Space::Local, off, n, len)?;
            if mem.is_empty() {
                mem.resize(len, 0);
            }
            window_copy(mem, r, data, store);
            Ok(())
        }
    }
}

fn window_copy(mem: &mut [u8], r: std::ops::Range<usize>, data: &mut [u8], store: bool) {
    if let Some(win) = mem.get_mut(r) {
        if store {
            win.copy_from_slice(data);
        } else {
            data.copy_from_slice(win);
        }
    }
}

/// Writes a loaded value: sub-word loads zero- or sign-extend into one register, wider ones
/// fill consecutive registers.
fn write_loaded(w: &mut Warp, l: u32, reg: Gpr, data: &[u8], acc: Access) {
    let byte = |i: usize| data.get(i).copied().unwrap_or(0);
    match acc.bytes {
        1 => {
            let v = if acc.signed {
                byte(0) as i8 as i32 as u32
            } else {
                u32::from(byte(0))
            };
            w.set_reg(l, reg, v);
        }
        2 => {
            let h = u16::from_le_bytes([byte(0), byte(1)]);
            let v = if acc.signed {
                h as i16 as i32 as u32
            } else {
                u32::from(h)
            };
            w.set_reg(l, reg, v);
        }
        _ => {
            for (k, c) in data.chunks(4).enumerate() {
                let v = u32::from_le_bytes([
                    c.first().copied().unwrap_or(0),
                    c.get(1).copied().unwrap_or(0),
                    c.get(2).copied().unwrap_or(0),
                    c.get(3).copied().unwrap_or(0),
                ]);
                w.set_reg_at(l, reg, k as u8, v);
            }
        }
    }
}
