//! Lowering of `mbarrier.*` and `cp.async.bulk` (crate::mbarrier executes them).

use super::operand::{Emit, LResult};
use super::Lowerer;
use crate::program::*;
use ir::{Flag, Operand as O};
use ops::mbarrier::Arrive;

/// The `Arrive` flags of an arrive-on instruction.
fn arrive_of(i: &ir::Inst) -> Arrive {
    Arrive {
        drop: i.mods.has(Flag::ArriveDrop),
        no_complete: i.mods.has(Flag::NoComplete),
        expect_tx: None,
    }
}

impl Lowerer<'_> {
    pub(crate) fn mbarrier(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let o = |k: usize| ops.get(k).unwrap_or(&O::Omitted);
        let has = |f: Flag| i.mods.has(f);
        if has(Flag::PendingCount) {
            let d = self.dst32(e, o(0))?;
            let state = self.src(e, o(1), true)?;
            e.push(Op::Async(Box::new(AsyncOp::PendingCount { d, state })));
            return Ok(());
        }
        // Operand positions: [a] first for init/expect_tx/complete_tx/inval, second after the
        // state or predicate destination of the arrive and wait forms.
        let (kind, addr_at) = if has(Flag::Init) {
            (MbarKind::Init, 0)
        } else if has(Flag::Inval) {
            (MbarKind::Inval, 0)
        } else if has(Flag::ExpectTx) && !(has(Flag::Arrive) || has(Flag::ArriveDrop)) {
            (MbarKind::ExpectTx, 0)
        } else if has(Flag::CompleteTx) {
            (MbarKind::CompleteTx, 0)
        } else if has(Flag::TestWait) || has(Flag::TryWait) {
            (
                MbarKind::Wait {
                    parity: has(Flag::Parity),
                },
                1,
            )
        } else {
            (MbarKind::Arrive(arrive_of(i)), 1)
        };
        let (space, addr) = self.addr(e, o(addr_at), i.mods.space)?;
        let a = match o(addr_at + 1) {
            O::Omitted => Src::Imm(1),
            other => self.src(e, other, matches!(kind, MbarKind::Wait { parity: false }))?,
        };
        let (mut d, mut p) = (None, None);
        if addr_at == 1 {
            match self.dst(e, o(0))? {
                Some(Reg::Pred(r)) => p = Some(r),
                other => d = other,
            }
        }
        let kind = match kind {
            MbarKind::Arrive(mut how) if has(Flag::ExpectTx) => {
                // `arrive.expect_tx state, [a], txCount` arrives once, owing txCount bytes;
                // the byte count is the `a` operand and the arrival count 1.
                how.expect_tx = Some(0);
                MbarKind::Arrive(how)
            }
            k => k,
        };
        e.push(Op::Async(Box::new(AsyncOp::Mbarrier {
            kind,
            space,
            addr,
            a,
            d,
            p,
        })));
        Ok(())
    }

    pub(crate) fn bulk_copy(&mut self, e: &mut Emit<'_>, i: &ir::Inst) -> LResult<()> {
        let ops = &i.operands;
        let o = |k: usize| ops.get(k).unwrap_or(&O::Omitted);
        // The group operations: copies complete at issue, so there is nothing to wait for.
        if i.mods.has(Flag::CommitGroup) || i.mods.has(Flag::WaitGroup) {
            e.push(Op::Nop);
            return Ok(());
        }
        let src_space = match i.mods.src_space {
            Some(isa::SrcSpace::SharedCta) => ir::Space::Shared,
            _ => ir::Space::Global,
        };
        let (dst_space, dst) = self.addr(e, o(0), i.mods.space)?;
        let (src_space, src) = self.addr(e, o(1), Some(src_space))?;
        let size = self.s32(e, o(2))?;
        let mbar = match o(3) {
            O::Omitted => None,
            other => Some(self.addr(e, other, Some(ir::Space::Shared))?.1),
        };
        e.push(Op::Async(Box::new(AsyncOp::Bulk {
            dst,
            dst_space,
            src,
            src_space,
            size,
            mbar,
        })));
        Ok(())
    }
}
