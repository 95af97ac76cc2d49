//! `mbarrier.*` and `cp.async.bulk` on one thread, straight from the IR; the object's
//! semantics are `ops::mbarrier`'s. A wait that finds its phase incomplete yields the thread
//! (`State::Yielded`), so the threads it waits for run before it tries again.

use crate::alu::Cx;
use crate::memops::{resolve, CtaMem, Loc};
use crate::memory::{load_from, store_to};
use crate::thread::State;
use crate::Fault;
use ir::{AddrBase, Address, Flag, Opcode as Oc, Operand, Space, Type};
use ops::mbarrier as mb;

fn oob_shared(addr: u64) -> Fault {
    Fault::OutOfBounds {
        space: "shared",
        addr,
    }
}

fn misaligned(addr: u64, size: u64) -> Result<(), Fault> {
    if addr.is_multiple_of(size) {
        Ok(())
    } else {
        Err(Fault::Misaligned { addr, size })
    }
}

/// The location of an address operand in `space` (a variable's own space wins).
fn locate(cx: &Cx<'_, '_, '_>, a: &Address, space: Space) -> Result<Loc, Fault> {
    let addr64 = cx.env.layout.module.address_size.bits() == 64;
    let wrap = |x: u64| if addr64 { x } else { x & 0xffff_ffff };
    let at = match a.base {
        AddrBase::Var(_) => return resolve(cx, a),
        AddrBase::Reg(r) => wrap(cx.t.reg(r).wrapping_add(a.offset as u64)),
        AddrBase::Absolute => wrap(a.offset as u64),
    };
    Ok(match space {
        Space::Global => Loc::Global(at),
        _ => Loc::Shared(at),
    })
}

fn raw(l: Loc) -> u64 {
    match l {
        Loc::Global(a)
        | Loc::Shared(a)
        | Loc::Local(a)
        | Loc::Const(a)
        | Loc::KernelParam(a)
        | Loc::FrameParam(_, a) => a,
    }
}

/// The shared-memory offset of the 8-byte object an address operand names.
fn object(cx: &Cx<'_, '_, '_>, op: &Operand, mbar_of_copy: bool) -> Result<u64, Fault> {
    let Operand::Address(a) = op else {
        return Err(crate::fault::unsupported(cx.i));
    };
    let l = if mbar_of_copy {
        locate(cx, a, Space::Shared)?
    } else {
        resolve(cx, a)?
    };
    let at = raw(l);
    misaligned(at, 8)?;
    match l {
        Loc::Shared(off) => Ok(off),
        _ => Err(oob_shared(at)),
    }
}

pub(crate) fn exec(cx: &mut Cx<'_, '_, '_>, m: &mut CtaMem<'_>) -> Result<bool, Fault> {
    let i = cx.i;
    match i.op {
        Oc::Mbarrier => mbarrier(cx, m).map(|_| true),
        Oc::Cp if i.mods.has(Flag::Bulk) => {
            if !(i.mods.has(Flag::CommitGroup) || i.mods.has(Flag::WaitGroup)) {
                bulk(cx, m)?;
            }
            // The group operations: each copy completed at issue.
            Ok(true)
        }
        _ => Ok(false),
    }
}

fn mbarrier(cx: &mut Cx<'_, '_, '_>, m: &mut CtaMem<'_>) -> Result<(), Fault> {
    let has = |f: Flag| cx.i.mods.has(f);
    if has(Flag::PendingCount) {
        let s = cx.a_as(1, Type::B64)?;
        return cx.put_as(0, Type::U32, u64::from(mb::pending_count(s)));
    }
    let first = has(Flag::Init)
        || has(Flag::Inval)
        || has(Flag::CompleteTx)
        || (has(Flag::ExpectTx) && !has(Flag::Arrive) && !has(Flag::ArriveDrop));
    let at = if first { 0 } else { 1 };
    let off = object(cx, cx.op(at), false)?;
    let obj = load_from(m.shared, "shared", off, 8)? as u64;
    let operand = |cx: &Cx<'_, '_, '_>, ty: Type| -> Result<u64, Fault> {
        match cx.op(at + 1) {
            Operand::Omitted => Ok(1),
            _ => cx.a_as(at + 1, ty),
        }
    };
    let new = if has(Flag::Init) {
        mb::init(operand(cx, Type::U32)? as u32)
    } else if has(Flag::Inval) {
        mb::inval(obj)
    } else if has(Flag::CompleteTx) {
        mb::complete_tx(obj, operand(cx, Type::U32)? as u32)
    } else if first {
        mb::expect_tx(obj, operand(cx, Type::U32)? as u32)
    } else if has(Flag::TestWait) || has(Flag::TryWait) {
        let done = if has(Flag::Parity) {
            mb::test_wait_parity(obj, operand(cx, Type::U32)? as u32)
        } else {
            mb::test_wait(obj, operand(cx, Type::B64)?)
        };
        cx.put_as(0, Type::Pred, u64::from(done))?;
        if !done {
            cx.t.state = State::Yielded;
        }
        obj
    } else {
        let n = operand(cx, Type::U32)? as u32;
        let mut how = mb::Arrive {
            drop: has(Flag::ArriveDrop),
            no_complete: has(Flag::NoComplete),
            expect_tx: None,
        };
        // `.expect_tx`: the operand is the byte count; the thread arrives once.
        let n = if has(Flag::ExpectTx) {
            how.expect_tx = Some(n);
            1
        } else {
            n
        };
        let (new, state) = mb::arrive(obj, n, how);
        cx.put_as(0, Type::B64, state)?;
        new
    };
    if new != obj {
        store_to(m.shared, "shared", off, 8, u128::from(new))?;
    }
    Ok(())
}

/// `cp.async.bulk`: 16-byte units from the source to the destination, complete at issue; the
/// bytes then complete on the mbarrier object of the `.mbarrier::complete_tx::bytes` form.
fn bulk(cx: &mut Cx<'_, '_, '_>, m: &mut CtaMem<'_>) -> Result<(), Fault> {
    let i = cx.i;
    let (Operand::Address(d), Operand::Address(s)) = (cx.op(0).clone(), cx.op(1).clone()) else {
        return Err(crate::fault::unsupported(i));
    };
    let (dst_space, src_space) = match i.mods.src_space {
        Some(isa::SrcSpace::SharedCta) => (Space::Global, Space::Shared),
        _ => (Space::Shared, Space::Global),
    };
    let n = cx.a_as(2, Type::U32)?;
    let sl = locate(cx, &s, src_space)?;
    let dl = locate(cx, &d, dst_space)?;
    if !n.is_multiple_of(16) {
        return Err(Fault::Misaligned {
            addr: raw(sl),
            size: n,
        });
    }
    let mbar = match cx.op(3) {
        Operand::Omitted => None,
        op => Some(object(cx, &op.clone(), true)?),
    };
    for k in 0..n / 16 {
        let (sa, da) = (raw(sl).wrapping_add(16 * k), raw(dl).wrapping_add(16 * k));
        misaligned(sa, 16)?;
        let v = match sl {
            Loc::Global(_) => m.global.load(sa, 16)?,
            _ => load_from(m.shared, "shared", sa, 16)?,
        };
        misaligned(da, 16)?;
        match dl {
            Loc::Global(_) => m.global.store(da, 16, v)?,
            _ => store_to(m.shared, "shared", da, 16, v)?,
        }
    }
    if let Some(off) = mbar {
        let obj = load_from(m.shared, "shared", off, 8)? as u64;
        store_to(
            m.shared,
            "shared",
            off,
            8,
            u128::from(mb::complete_tx(obj, n as u32)),
        )?;
    }
    Ok(())
}
