//! `ld`, `st`, `atom`/`red` and `cvta` over a warp.

use crate::error::FaultKind;
use crate::memory::{
    load_bytes, store_bytes, Allocation, CONST_WINDOW, LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW,
    WINDOW_BYTES,
};
use crate::program::{Addr, AddrBase, AtomOp, Op, Reg, Scalar, Space, R64};
use crate::step::for_lanes;
use crate::warp::{Ctx, LaneFault, Warp};

/// A resolved location of one lane's access.
pub(crate) enum Loc<'m> {
    Global(&'m Allocation, u64),
    Shared(u64),
    Local(u64),
    Const(u64),
    Param(u64),
}

impl Warp {
    #[inline(always)]
    pub(crate) fn lane_addr(&self, addr: &Addr, lane: usize, addr64: bool) -> u64 {
        let base = match addr.base {
            AddrBase::None => 0,
            AddrBase::R32(r) => self.r32[r.0 as usize][lane] as u64,
            AddrBase::R64(r) => self.r64[r.0 as usize][lane],
        };
        let mut a = base.wrapping_add(addr.offset as u64);
        if addr.frame_relative {
            a = a.wrapping_add(self.frame[lane] as u64);
        }
        if addr64 {
            a
        } else {
            a & 0xffff_ffff
        }
    }

    /// Resolve `[addr, addr+size)` in `space` for one lane, checking bounds and alignment.
    #[inline]
    pub(crate) fn locate<'m>(
        &self,
        ctx: &Ctx<'m>,
        space: Space,
        addr: u64,
        size: u64,
        shared_len: usize,
        cache: &mut Option<&'m Allocation>,
    ) -> Result<Loc<'m>, FaultKind> {
        let fault = |space: Space| FaultKind::OutOfBounds {
            space,
            addr,
            size: size as u32,
        };
        if !addr.is_multiple_of(size) {
            return Err(FaultKind::Misaligned {
                space,
                addr,
                size: size as u32,
            });
        }
        let (space, off) = match space {
            Space::Generic => {
                if (SHARED_WINDOW..SHARED_WINDOW + WINDOW_BYTES).contains(&addr) {
                    (Space::Shared, addr - SHARED_WINDOW)
                } else if (LOCAL_WINDOW..LOCAL_WINDOW + WINDOW_BYTES).contains(&addr) {
                    (Space::Local, addr - LOCAL_WINDOW)
                } else if (CONST_WINDOW..CONST_WINDOW + WINDOW_BYTES).contains(&addr) {
                    (Space::Const, addr - CONST_WINDOW)
                } else if (PARAM_WINDOW..PARAM_WINDOW + WINDOW_BYTES).contains(&addr) {
                    (Space::Param, addr - PARAM_WINDOW)
                } else {
                    (Space::Global, addr)
                }
            }
            s => (s, addr),
        };
        let in_range = |len: usize| off.checked_add(size).is_some_and(|e| e <= len as u64);
        match space {
            Space::Global | Space::Generic => {
                if let Some(a) = *cache {
                    if a.contains(off, size) {
                        return Ok(Loc::Global(a, off - a.base));
                    }
                }
                let a = ctx.global.find(off, size).ok_or(fault(Space::Global))?;
                *cache = Some(a);
                Ok(Loc::Global(a, off - a.base))
            }
            Space::Shared if in_range(shared_len) => Ok(Loc::Shared(off)),
            Space::Local if in_range(ctx.prog.local_bytes as usize) => Ok(Loc::Local(off)),
            Space::Const if in_range(ctx.prog.const_bank.len()) => Ok(Loc::Const(off)),
            Space::Param if in_range(ctx.params.len()) => Ok(Loc::Param(off)),
            s => Err(fault(s)),
        }
    }

    pub(crate) fn read_loc(
        &self,
        ctx: &Ctx<'_>,
        shared: &[u8],
        loc: &Loc<'_>,
        lane: usize,
        size: u64,
    ) -> u64 {
        match *loc {
            Loc::Global(a, off) => a.load(off, size),
            Loc::Shared(off) => load_bytes(shared, off, size).unwrap_or(0),
            Loc::Local(off) => load_bytes(self.local_of(ctx, lane), off, size).unwrap_or(0),
            Loc::Const(off) => load_bytes(&ctx.prog.const_bank, off, size).unwrap_or(0),
            Loc::Param(off) => load_bytes(ctx.params, off, size).unwrap_or(0),
        }
    }

    fn local_of<'s>(&'s self, ctx: &Ctx<'_>, lane: usize) -> &'s [u8] {
        let n = ctx.prog.local_bytes as usize;
        self.local.get(lane * n..(lane + 1) * n).unwrap_or(&[])
    }

    pub(crate) fn local_store(
        &mut self,
        local_bytes: u32,
        lane: usize,
        off: u64,
        size: u64,
        v: u64,
    ) -> bool {
        let n = local_bytes as usize;
        self.local
            .get_mut(lane * n..(lane + 1) * n)
            .and_then(|m| store_bytes(m, off, size, v))
            .is_some()
    }

    pub(crate) fn local_load(&self, local_bytes: u32, lane: usize, off: u64, size: u64) -> u64 {
        let n = local_bytes as usize;
        self.local
            .get(lane * n..(lane + 1) * n)
            .and_then(|m| load_bytes(m, off, size))
            .unwrap_or(0)
    }

    pub(crate) fn exec_mem(
        &mut self,
        ctx: &Ctx<'_>,
        shared: &mut [u8],
        op: &Op,
        mask: u32,
    ) -> Result<(), LaneFault> {
        if self.mem_fast(ctx, shared, op, mask) {
            return Ok(());
        }
        let addr64 = ctx.prog.addr64;
        let mut cache = None;
        let mut result = Ok(());
        match *op {
            Op::Ld {
                space,
                ty,
                w,
                d,
                n,
                align,
                ref addr,
            } => {
                let size = ty.bytes() as u64;
                // A vector is aligned to its size rounded up to a power of two (a `.v3` like a
                // `.v4`, docs/spec-notes.md); the lowering computed it.
                let total = u64::from(align);
                let wmask = w.mask();
                for_lanes(mask, |lane| {
                    if result.is_err() {
                        return;
                    }
                    let a = self.lane_addr(addr, lane, addr64);
                    if total > 1 && !a.is_multiple_of(total) {
                        result = Err(LaneFault {
                            lane: lane as u32,
                            kind: FaultKind::Misaligned {
                                space,
                                addr: a,
                                size: total as u32,
                            },
                        });
                        return;
                    }
                    for (k, dst) in d.iter().enumerate().take(n as usize) {
                        let ea = a.wrapping_add(k as u64 * size);
                        match self.locate(ctx, space, ea, size, shared.len(), &mut cache) {
                            Ok(loc) => {
                                let raw = self.read_loc(ctx, shared, &loc, lane, size);
                                if let Some(r) = *dst {
                                    let v = extend(raw, ty, r, wmask);
                                    self.set(r, lane, v);
                                }
                            }
                            Err(kind) => {
                                result = Err(LaneFault {
                                    lane: lane as u32,
                                    kind,
                                });
                                return;
                            }
                        }
                    }
                });
            }
            Op::St {
                space,
                ty,
                a: srcs,
                n,
                align,
                ref addr,
            } => {
                let size = ty.bytes() as u64;
                // A vector is aligned to its size rounded up to a power of two (a `.v3` like a
                // `.v4`, docs/spec-notes.md); the lowering computed it.
                let total = u64::from(align);
                for_lanes(mask, |lane| {
                    if result.is_err() {
                        return;
                    }
                    let a = self.lane_addr(addr, lane, addr64);
                    if total > 1 && !a.is_multiple_of(total) {
                        result = Err(LaneFault {
                            lane: lane as u32,
                            kind: FaultKind::Misaligned {
                                space,
                                addr: a,
                                size: total as u32,
                            },
                        });
                        return;
                    }
                    for (k, s) in srcs.iter().enumerate().take(n as usize) {
                        let ea = a.wrapping_add(k as u64 * size);
                        let v = self.src(*s, lane);
                        let r = match self.locate(ctx, space, ea, size, shared.len(), &mut cache) {
                            Ok(Loc::Global(al, off)) => {
                                al.store(off, size, v);
                                Ok(())
                            }
                            Ok(Loc::Shared(off)) => {
                                store_bytes(shared, off, size, v);
                                Ok(())
                            }
                            Ok(Loc::Local(off)) => {
                                self.local_store(ctx.prog.local_bytes, lane, off, size, v);
                                Ok(())
                            }
                            Ok(Loc::Const(_)) => Err(FaultKind::ReadOnly {
                                space: Space::Const,
                                addr: ea,
                            }),
                            Ok(Loc::Param(_)) => Err(FaultKind::ReadOnly {
                                space: Space::Param,
                                addr: ea,
                            }),
                            Err(k) => Err(k),
                        };
                        if let Err(kind) = r {
                            result = Err(LaneFault {
                                lane: lane as u32,
                                kind,
                            });
                            return;
                        }
                    }
                });
            }
            Op::Atom {
                space,
                op,
                ty,
                d,
                ref addr,
                b,
                c,
            } => {
                let size = ty.bytes() as u64;
                for_lanes(mask, |lane| {
                    if result.is_err() {
                        return;
                    }
                    let a = self.lane_addr(addr, lane, addr64);
                    let (bv, cv) = (self.src(b, lane), self.src(c, lane));
                    let f = |old: u64| atom_apply(op, ty, old, bv, cv);
                    let r = match self.locate(ctx, space, a, size, shared.len(), &mut cache) {
                        Ok(Loc::Global(al, off)) => Ok(match size {
                            8 => ctx.global.rmw64(al, off, f),
                            2 => {
                                // A 16-bit atomic is a 32-bit one on the word holding it that
                                // leaves the other half alone.
                                let shift = (off & 2) * 8;
                                let old = al.rmw32(off & !3, |w| {
                                    let new = f(u64::from(w >> shift) & 0xffff) as u32 & 0xffff;
                                    (w & !(0xffff << shift)) | new << shift
                                });
                                u64::from(old >> shift) & 0xffff
                            }
                            _ => al.rmw32(off, |o| f(o as u64) as u32) as u64,
                        }),
                        Ok(Loc::Shared(off)) => {
                            // Warps of a CTA run on one host thread, so shared memory atomics
                            // are plain read-modify-writes.
                            let old = load_bytes(shared, off, size).unwrap_or(0);
                            store_bytes(shared, off, size, f(old));
                            Ok(old)
                        }
                        Ok(Loc::Local(off)) => {
                            let lb = ctx.prog.local_bytes;
                            let old = self.local_load(lb, lane, off, size);
                            self.local_store(lb, lane, off, size, f(old));
                            Ok(old)
                        }
                        Ok(_) => Err(FaultKind::ReadOnly { space, addr: a }),
                        Err(k) => Err(k),
                    };
                    match r {
                        Ok(old) => {
                            if let Some(d) = d {
                                self.set(d, lane, old);
                            }
                        }
                        Err(kind) => {
                            result = Err(LaneFault {
                                lane: lane as u32,
                                kind,
                            })
                        }
                    }
                });
            }
            Op::AtomCas128 {
                space,
                d,
                ref addr,
                b,
                c,
            } => {
                let pair = |w: &Warp, r: R64, lane: usize| {
                    let lo = w.r64[r.0 as usize][lane];
                    let hi = w.r64[r.0 as usize + 1][lane];
                    u128::from(lo) | u128::from(hi) << 64
                };
                for_lanes(mask, |lane| {
                    if result.is_err() {
                        return;
                    }
                    let a = self.lane_addr(addr, lane, addr64);
                    let (bv, cv) = (pair(self, b, lane), pair(self, c, lane));
                    let f = |old: u128| if old == bv { cv } else { old };
                    let r = match self.locate(ctx, space, a, 16, shared.len(), &mut cache) {
                        Ok(Loc::Global(al, off)) => Ok(ctx.global.rmw128(al, off, f)),
                        Ok(Loc::Shared(off)) => {
                            let lo = load_bytes(shared, off, 8).unwrap_or(0);
                            let hi = load_bytes(shared, off + 8, 8).unwrap_or(0);
                            let old = u128::from(lo) | u128::from(hi) << 64;
                            let new = f(old);
                            store_bytes(shared, off, 8, new as u64);
                            store_bytes(shared, off + 8, 8, (new >> 64) as u64);
                            Ok(old)
                        }
                        Ok(Loc::Local(off)) => {
                            let lb = ctx.prog.local_bytes;
                            let lo = self.local_load(lb, lane, off, 8);
                            let hi = self.local_load(lb, lane, off + 8, 8);
                            let old = u128::from(lo) | u128::from(hi) << 64;
                            let new = f(old);
                            self.local_store(lb, lane, off, 8, new as u64);
                            self.local_store(lb, lane, off + 8, 8, (new >> 64) as u64);
                            Ok(old)
                        }
                        Ok(_) => Err(FaultKind::ReadOnly { space, addr: a }),
                        Err(k) => Err(k),
                    };
                    match r {
                        Ok(old) => {
                            self.set(Reg::R64(d), lane, old as u64);
                            self.set(Reg::R64(R64(d.0 + 1)), lane, (old >> 64) as u64);
                        }
                        Err(kind) => {
                            result = Err(LaneFault {
                                lane: lane as u32,
                                kind,
                            })
                        }
                    }
                });
            }
            Op::Cvta { to, space, d, a } => {
                let window = crate::memory::generic_window(space);
                for_lanes(mask, |lane| {
                    let v = self.src(a, lane);
                    let r = if to {
                        v.wrapping_sub(window)
                    } else {
                        v.wrapping_add(window)
                    };
                    let r = if addr64 { r } else { r & 0xffff_ffff };
                    self.set(d, lane, r);
                });
            }
            _ => {}
        }
        result
    }
}

/// Sign- or zero-extend a loaded value for its destination register.
#[inline]
fn extend(raw: u64, ty: Scalar, r: Reg, wmask: u32) -> u64 {
    let bits = ty.bytes() * 8;
    let v = if ty.is_signed() && bits < 64 {
        let s = 64 - bits;
        (((raw << s) as i64) >> s) as u64
    } else {
        raw
    };
    match r {
        Reg::R32(_) => v & wmask as u64,
        _ => v,
    }
}

/// The new value of an atomic, given the old: `ops::atom` at the instruction's type.
pub fn atom_apply(op: AtomOp, ty: Scalar, old: u64, b: u64, c: u64) -> u64 {
    use ops::atom::{atom_int, AtomOp as A};
    macro_rules! int {
        ($a:expr) => {
            match (ty.bytes(), ty.is_signed()) {
                (8, false) => atom_int($a, old, b, c),
                (8, true) => atom_int($a, old as i64, b as i64, c as i64) as u64,
                (2, _) => u64::from(atom_int($a, old as u16, b as u16, c as u16)),
                (_, false) => u64::from(atom_int($a, old as u32, b as u32, c as u32)),
                (_, true) => u64::from(atom_int($a, old as i32, b as i32, c as i32) as u32),
            }
        };
    }
    match op {
        AtomOp::And => int!(A::And),
        AtomOp::Or => int!(A::Or),
        AtomOp::Xor => int!(A::Xor),
        AtomOp::Cas => int!(A::Cas),
        AtomOp::Exch => int!(A::Exch),
        AtomOp::Add => int!(A::Add),
        AtomOp::Inc => int!(A::Inc),
        AtomOp::Dec => int!(A::Dec),
        AtomOp::MinU | AtomOp::MinS => int!(A::Min),
        AtomOp::MaxU | AtomOp::MaxS => int!(A::Max),
        AtomOp::AddF32 => u64::from(
            ops::atom::atom_add_f32(f32::from_bits(old as u32), f32::from_bits(b as u32)).to_bits(),
        ),
        AtomOp::AddF64 => ops::atom::atom_add_f64(f64::from_bits(old), f64::from_bits(b)).to_bits(),
        AtomOp::AddHalf { f, x2 } => u64::from(ops::atom::atom_add_h(old as u32, b as u32, f, x2)),
    }
}
