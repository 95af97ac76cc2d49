//! Fast paths for the common memory accesses: scalar 32/64-bit `ld`/`st` whose active lanes
//! all hit one global allocation (or shared memory) at aligned addresses, and uniform
//! parameter loads. Anything else (or any lane that would fault) takes the general per-lane
//! path in `mem_ops`, which reports the exact fault.

use crate::lanes::{write, LANES};
use crate::memory::{load_bytes, store_bytes};
use crate::program::{Addr, AddrBase, Op, Reg, Scalar, Space, Src};
use crate::warp::{Ctx, Warp, FULL};

impl Warp {
    /// Per-lane addresses of a register-based address operand.
    #[inline(always)]
    fn addr_row(&self, addr: &Addr, addr64: bool) -> Option<[u64; LANES]> {
        if addr.frame_relative {
            return None;
        }
        let off = addr.offset as u64;
        let mut out = [0u64; LANES];
        match addr.base {
            AddrBase::R64(r) => {
                let row = &self.r64[r.0 as usize];
                for (o, &b) in out.iter_mut().zip(row.iter()) {
                    *o = b.wrapping_add(off);
                }
            }
            AddrBase::R32(r) => {
                let row = &self.r32[r.0 as usize];
                for (o, &b) in out.iter_mut().zip(row.iter()) {
                    *o = (b as u64).wrapping_add(off);
                }
            }
            AddrBase::None => out = [off; LANES],
        }
        if !addr64 {
            for o in &mut out {
                *o &= 0xffff_ffff;
            }
        }
        Some(out)
    }

    /// Try the fast path; `false` means the caller must run the general path.
    pub(crate) fn mem_fast(
        &mut self,
        ctx: &Ctx<'_>,
        shared: &mut [u8],
        op: &Op,
        mask: u32,
    ) -> bool {
        let all = (mask | self.dead) == FULL;
        match *op {
            Op::Ld {
                space,
                ty,
                d: [Some(d), None, None, None],
                n: 1,
                ref addr,
                ..
            } if matches!(
                ty,
                Scalar::U32 | Scalar::S32 | Scalar::F32 | Scalar::U64 | Scalar::S64 | Scalar::F64
            ) && matches!((d, ty.bytes()), (Reg::R32(_), 4) | (Reg::R64(_), 8)) =>
            {
                let size = ty.bytes() as u64;
                if space == Space::Param && addr.base == AddrBase::None {
                    let Some(v) = load_bytes(ctx.params, addr.offset as u64, size) else {
                        return false;
                    };
                    match d {
                        Reg::R32(r) => {
                            write(&mut self.r32[r.0 as usize], &[v as u32; LANES], mask, all)
                        }
                        Reg::R64(r) => write(&mut self.r64[r.0 as usize], &[v; LANES], mask, all),
                        Reg::Pred(_) => return false,
                    }
                    return true;
                }
                let Some(a) = self.addr_row(addr, ctx.prog.addr64) else {
                    return false;
                };
                let first = mask.trailing_zeros() as usize % LANES;
                let mut vals = [0u64; LANES];
                match space {
                    Space::Global => {
                        let Some(al) = ctx.global.find(a[first], size) else {
                            return false;
                        };
                        let (lo, hi) = (al.base, al.base + al.len);
                        let mut ok = true;
                        for (i, &x) in a.iter().enumerate() {
                            let active = mask >> i & 1 != 0;
                            ok &= !active || (x >= lo && x + size <= hi && x % size == 0);
                        }
                        if !ok {
                            return false;
                        }
                        for (i, v) in vals.iter_mut().enumerate() {
                            if mask >> i & 1 != 0 {
                                *v = al.load(a[i] - lo, size);
                            }
                        }
                    }
                    Space::Shared => {
                        let len = shared.len() as u64;
                        for (i, v) in vals.iter_mut().enumerate() {
                            if mask >> i & 1 != 0 {
                                let x = a[i];
                                if x % size != 0 || x.checked_add(size).is_none_or(|e| e > len) {
                                    return false;
                                }
                                *v = load_bytes(shared, x, size).unwrap_or(0);
                            }
                        }
                    }
                    _ => return false,
                }
                match d {
                    Reg::R32(r) => {
                        let mut out = [0u32; LANES];
                        for (o, v) in out.iter_mut().zip(vals.iter()) {
                            *o = *v as u32;
                        }
                        write(&mut self.r32[r.0 as usize], &out, mask, all);
                    }
                    Reg::R64(r) => write(&mut self.r64[r.0 as usize], &vals, mask, all),
                    Reg::Pred(_) => return false,
                }
                true
            }
            Op::St {
                space,
                ty,
                a: [s, _, _, _],
                n: 1,
                ref addr,
                ..
            } if matches!(ty.bytes(), 4 | 8) => {
                let size = ty.bytes() as u64;
                let Some(a) = self.addr_row(addr, ctx.prog.addr64) else {
                    return false;
                };
                let vals: [u64; LANES] = match s {
                    Src::Reg(Reg::R32(r)) if size == 4 => {
                        let row = &self.r32[r.0 as usize];
                        std::array::from_fn(|i| row[i] as u64)
                    }
                    Src::Reg(Reg::R64(r)) if size == 8 => self.r64[r.0 as usize],
                    Src::Imm(v) => [v; LANES],
                    _ => return false,
                };
                let first = mask.trailing_zeros() as usize % LANES;
                match space {
                    Space::Global => {
                        let Some(al) = ctx.global.find(a[first], size) else {
                            return false;
                        };
                        let (lo, hi) = (al.base, al.base + al.len);
                        let mut ok = true;
                        for (i, &x) in a.iter().enumerate() {
                            let active = mask >> i & 1 != 0;
                            ok &= !active || (x >= lo && x + size <= hi && x % size == 0);
                        }
                        if !ok {
                            return false;
                        }
                        for (i, v) in vals.iter().enumerate() {
                            if mask >> i & 1 != 0 {
                                al.store(a[i] - lo, size, *v);
                            }
                        }
                        true
                    }
                    Space::Shared => {
                        let len = shared.len() as u64;
                        for (i, &x) in a.iter().enumerate() {
                            if mask >> i & 1 != 0
                                && (x % size != 0 || x.checked_add(size).is_none_or(|e| e > len))
                            {
                                return false;
                            }
                        }
                        for (i, v) in vals.iter().enumerate() {
                            if mask >> i & 1 != 0 {
                                store_bytes(shared, a[i], size, *v);
                            }
                        }
                        true
                    }
                    _ => false,
                }
            }
            Op::Cvta {
                to,
                space,
                d: Reg::R64(d),
                a: Src::Reg(Reg::R64(s)),
            } if ctx.prog.addr64 => {
                let window = crate::memory::generic_window(space);
                let row = self.r64[s.0 as usize];
                let out: [u64; LANES] = std::array::from_fn(|i| {
                    if to {
                        row[i].wrapping_sub(window)
                    } else {
                        row[i].wrapping_add(window)
                    }
                });
                write(&mut self.r64[d.0 as usize], &out, mask, all);
                true
            }
            _ => false,
        }
    }
}
