//! `mbarrier.*` and `cp.async.bulk` over a warp, lane by lane in lane order (each lane is its
//! own thread: arrivals of one warp land one after another). The object's semantics are
//! `ops::mbarrier`'s; this file finds the object in shared memory and moves bytes.

use crate::error::FaultKind;
use crate::mem_ops::Loc;
use crate::memory::{load_bytes, store_bytes};
use crate::program::{Addr, AsyncOp, MbarKind, Reg, Space};
use crate::step::for_lanes;
use crate::warp::{Ctx, LaneFault, Warp};
use ops::mbarrier as mb;

/// The fault of an mbarrier object (or a bulk copy's shared side) that is not in shared
/// memory: the object lives there (PTX ISA 8.x §9.7.13.15.1).
fn not_shared(addr: u64, size: u64) -> FaultKind {
    FaultKind::OutOfBounds {
        space: Space::Shared,
        addr,
        size: size as u32,
    }
}

impl Warp {
    /// The shared-memory offset of one lane's 8-byte object at `addr`.
    fn mbar_offset(
        &self,
        ctx: &Ctx<'_>,
        shared_len: usize,
        space: Space,
        addr: &Addr,
        lane: usize,
    ) -> Result<u64, FaultKind> {
        let a = self.lane_addr(addr, lane, ctx.prog.addr64);
        match self.locate(ctx, space, a, 8, shared_len, &mut None)? {
            Loc::Shared(off) => Ok(off),
            _ => Err(not_shared(a, 8)),
        }
    }

    pub(crate) fn exec_async(
        &mut self,
        ctx: &Ctx<'_>,
        shared: &mut [u8],
        op: &AsyncOp,
        mask: u32,
    ) -> Result<(), LaneFault> {
        let mut result = Ok(());
        for_lanes(mask, |lane| {
            if result.is_ok() {
                result = self
                    .async_lane(ctx, shared, op, lane)
                    .map_err(|kind| LaneFault {
                        lane: lane as u32,
                        kind,
                    });
            }
        });
        result
    }

    fn async_lane(
        &mut self,
        ctx: &Ctx<'_>,
        shared: &mut [u8],
        op: &AsyncOp,
        lane: usize,
    ) -> Result<(), FaultKind> {
        match op {
            AsyncOp::PendingCount { d, state } => {
                let s = self.src(*state, lane);
                self.set(Reg::R32(*d), lane, u64::from(mb::pending_count(s)));
                Ok(())
            }
            AsyncOp::Mbarrier {
                kind,
                space,
                addr,
                a,
                d,
                p,
            } => {
                let off = self.mbar_offset(ctx, shared.len(), *space, addr, lane)?;
                let obj = load_bytes(shared, off, 8).unwrap_or(0);
                let a = self.src(*a, lane);
                let (new, out) = match *kind {
                    MbarKind::Init => (mb::init(a as u32), None),
                    MbarKind::Inval => (mb::inval(obj), None),
                    MbarKind::ExpectTx => (mb::expect_tx(obj, a as u32), None),
                    MbarKind::CompleteTx => (mb::complete_tx(obj, a as u32), None),
                    MbarKind::Arrive(mut how) => {
                        // With `.expect_tx` the operand is the byte count and one thread
                        // arrives once.
                        let n = if how.expect_tx.is_some() {
                            how.expect_tx = Some(a as u32);
                            1
                        } else {
                            a as u32
                        };
                        let (new, state) = mb::arrive(obj, n, how);
                        (new, Some(state))
                    }
                    MbarKind::Wait { parity } => {
                        let done = if parity {
                            mb::test_wait_parity(obj, a as u32)
                        } else {
                            mb::test_wait(obj, a)
                        };
                        (obj, Some(u64::from(done)))
                    }
                };
                if new != obj {
                    store_bytes(shared, off, 8, new);
                    self.mem_writes += 1;
                }
                if let (Some(d), Some(v)) = (d, out) {
                    self.set(*d, lane, v);
                }
                if let (Some(p), Some(v)) = (p, out) {
                    self.set(Reg::Pred(*p), lane, v);
                }
                Ok(())
            }
            AsyncOp::Bulk {
                dst,
                dst_space,
                src,
                src_space,
                size,
                mbar,
            } => {
                let addr64 = ctx.prog.addr64;
                let n = u64::from(self.row32(*size)[lane]);
                let d = self.lane_addr(dst, lane, addr64);
                let s = self.lane_addr(src, lane, addr64);
                // Sizes and both addresses are multiples of 16 (PTX ISA 8.x §9.7.9.25.4.1).
                if !n.is_multiple_of(16) {
                    return Err(FaultKind::Misaligned {
                        space: *src_space,
                        addr: s,
                        size: n as u32,
                    });
                }
                let mbar_off = match mbar {
                    Some(m) => Some(self.mbar_offset(ctx, shared.len(), Space::Shared, m, lane)?),
                    None => None,
                };
                let mut cache = None;
                for k in 0..n / 16 {
                    let (sa, da) = (s.wrapping_add(16 * k), d.wrapping_add(16 * k));
                    let ls = self.locate(ctx, *src_space, sa, 16, shared.len(), &mut cache)?;
                    let ld = self.locate(ctx, *dst_space, da, 16, shared.len(), &mut cache)?;
                    for half in 0..2u64 {
                        let v = match &ls {
                            Loc::Global(a, off) => a.load(off + 8 * half, 8),
                            Loc::Shared(off) => load_bytes(shared, off + 8 * half, 8).unwrap_or(0),
                            _ => return Err(not_shared(sa, 16)),
                        };
                        match &ld {
                            Loc::Global(a, off) => a.store(off + 8 * half, 8, v),
                            Loc::Shared(off) => {
                                store_bytes(shared, off + 8 * half, 8, v);
                            }
                            _ => return Err(not_shared(da, 16)),
                        }
                    }
                }
                self.mem_writes += 1;
                self.global_loads += 1;
                // The copy is complete at issue: its bytes complete on the object now.
                if let Some(off) = mbar_off {
                    let obj = load_bytes(shared, off, 8).unwrap_or(0);
                    store_bytes(shared, off, 8, mb::complete_tx(obj, n as u32));
                }
                Ok(())
            }
        }
    }
}
