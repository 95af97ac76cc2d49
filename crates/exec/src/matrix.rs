//! The warp-wide matrix instructions (`mma.sync`, `ldmatrix`, `stmatrix`, `movmatrix`),
//! `cp.async` and `elect.sync` over a warp. The arithmetic and the fragment layouts are
//! `ops::mma`'s; this file moves registers and memory.

use crate::error::FaultKind;
use crate::mem_ops::Loc;
use crate::memory::store_bytes;
use crate::program::{MatrixOp, Op, Reg, Space};
use crate::step::for_lanes;
use crate::warp::{Ctx, LaneFault, Warp};
use ops::mma::Frag;

impl Warp {
    /// One lane's registers of an operand, as an `ops::mma` fragment.
    pub(crate) fn frag(&self, regs: &[Reg], lane: usize) -> Frag {
        let mut f = [0u64; 8];
        for (x, r) in f.iter_mut().zip(regs) {
            *x = self.get(*r, lane);
        }
        f
    }

    pub(crate) fn exec_matrix(
        &mut self,
        ctx: &Ctx<'_>,
        shared: &mut [u8],
        op: &Op,
        mask: u32,
    ) -> Result<(), LaneFault> {
        match op {
            Op::Matrix(m) => match &**m {
                MatrixOp::Mma {
                    kind,
                    sat,
                    d,
                    a,
                    b,
                    c,
                } => {
                    // `.aligned`: every lane of the warp executes it; a lane the guard or
                    // divergence left out contributes its registers as they stand and
                    // receives nothing.
                    let fa: [Frag; 32] = std::array::from_fn(|l| self.frag(a, l));
                    let fb: [Frag; 32] = std::array::from_fn(|l| self.frag(b, l));
                    let fc: [Frag; 32] = std::array::from_fn(|l| self.frag(c, l));
                    let out = ops::mma::mma_sync(*kind, *sat, &fa, &fb, &fc);
                    for_lanes(mask, |lane| {
                        for (r, v) in d.iter().zip(out[lane]) {
                            self.set(*r, lane, v);
                        }
                    });
                    Ok(())
                }
                MatrixOp::Movmatrix { d, a } => {
                    let src: [u32; 32] = std::array::from_fn(|l| self.get(*a, l) as u32);
                    let out = ops::mma::movmatrix_trans(&src);
                    for_lanes(mask, |lane| self.set(*d, lane, u64::from(out[lane])));
                    Ok(())
                }
                MatrixOp::LdSt {
                    load,
                    trans,
                    space,
                    addr,
                    regs,
                } => self.exec_ldst_matrix(ctx, shared, *load, *trans, *space, addr, regs, mask),
                MatrixOp::WmmaLdSt { .. } | MatrixOp::Wmma { .. } => {
                    self.exec_wmma(ctx, shared, m, mask)
                }
            },
            Op::CpAsync {
                dst,
                dst_space,
                src,
                size,
                src_size,
            } => {
                let addr64 = ctx.prog.addr64;
                let size = u64::from(*size);
                let src_size = src_size.map(|s| self.row32(s));
                let mut cache = None;
                let mut result = Ok(());
                for_lanes(mask, |lane| {
                    if result.is_err() {
                        return;
                    }
                    let d = self.lane_addr(dst, lane, addr64);
                    let s = self.lane_addr(src, lane, addr64);
                    // The whole copy is checked first: the access is one `size`-byte unit,
                    // aligned to its size (PTX ISA 8.x §9.7.9.25.3.1).
                    let loc_s = self.locate(ctx, Space::Global, s, size, shared.len(), &mut cache);
                    let loc_d = self.locate(ctx, *dst_space, d, size, shared.len(), &mut cache);
                    let (ls, ld) = match (loc_s, loc_d) {
                        (Ok(a), Ok(b)) => (a, b),
                        (Err(kind), _) | (_, Err(kind)) => {
                            result = Err(LaneFault {
                                lane: lane as u32,
                                kind,
                            });
                            return;
                        }
                    };
                    let Loc::Shared(doff) = ld else {
                        result = Err(LaneFault {
                            lane: lane as u32,
                            kind: FaultKind::OutOfBounds {
                                space: Space::Shared,
                                addr: d,
                                size: size as u32,
                            },
                        });
                        return;
                    };
                    let keep = src_size.map_or(size, |r| u64::from(r[lane]).min(size));
                    let mut bytes = [0u8; 16];
                    for k in 0..size.div_ceil(8) {
                        let n = (size - 8 * k).min(8);
                        let v = match &ls {
                            Loc::Global(a, off) => a.load(off + 8 * k, n),
                            _ => 0,
                        };
                        let at = (8 * k) as usize;
                        if let Some(dst) = bytes.get_mut(at..at + n as usize) {
                            dst.copy_from_slice(&v.to_le_bytes()[..n as usize]);
                        }
                    }
                    // Bytes from `src-size` on are zeros (the source is not read for them
                    // on hardware; here it was read and is discarded).
                    for b in bytes.iter_mut().skip(keep as usize) {
                        *b = 0;
                    }
                    for k in 0..size.div_ceil(8) {
                        let n = (size - 8 * k).min(8);
                        let at = (8 * k) as usize;
                        let mut w = [0u8; 8];
                        w[..n as usize].copy_from_slice(&bytes[at..at + n as usize]);
                        store_bytes(shared, doff + 8 * k, n, u64::from_le_bytes(w));
                    }
                });
                result
            }
            _ => Ok(()),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn exec_ldst_matrix(
        &mut self,
        ctx: &Ctx<'_>,
        shared: &mut [u8],
        load: bool,
        trans: bool,
        space: Space,
        addr: &crate::program::Addr,
        regs: &[Reg],
        mask: u32,
    ) -> Result<(), LaneFault> {
        let addr64 = ctx.prog.addr64;
        let mut cache = None;
        // Matrix i's rows are at the addresses of lanes 8i..8i+7: 16 bytes each, aligned.
        let mut rows = [0u64; 32];
        for (lane, row) in rows.iter_mut().enumerate().take(8 * regs.len()) {
            let a = self.lane_addr(addr, lane, addr64);
            let shared_len = shared.len();
            match self.locate(ctx, space, a, 16, shared_len, &mut cache) {
                Ok(Loc::Shared(off)) => *row = off,
                Ok(_) => {
                    return Err(LaneFault {
                        lane: lane as u32,
                        kind: FaultKind::OutOfBounds {
                            space: Space::Shared,
                            addr: a,
                            size: 16,
                        },
                    })
                }
                Err(kind) => {
                    return Err(LaneFault {
                        lane: lane as u32,
                        kind,
                    })
                }
            }
        }
        for (i, r) in regs.iter().enumerate() {
            let mut m: ops::mma::Mat8 = [[0u16; 8]; 8];
            if load {
                for (j, row) in m.iter_mut().enumerate() {
                    let off = rows[8 * i + j];
                    for (c, x) in row.iter_mut().enumerate() {
                        *x = crate::memory::load_bytes(shared, off + 2 * c as u64, 2).unwrap_or(0)
                            as u16;
                    }
                }
                for_lanes(mask, |lane| {
                    let v = ops::mma::fragment_of(&m, lane, trans);
                    self.set(*r, lane, u64::from(v));
                });
            } else {
                let vals: [u32; 32] = std::array::from_fn(|l| self.get(*r, l) as u32);
                let m = ops::mma::matrix_of(&vals, trans);
                for (j, row) in m.iter().enumerate() {
                    let off = rows[8 * i + j];
                    for (c, x) in row.iter().enumerate() {
                        store_bytes(shared, off + 2 * c as u64, 2, u64::from(*x));
                    }
                }
            }
        }
        Ok(())
    }

    /// `elect.sync`: the leader is the lowest lane of the membermask that executes it
    /// (PTX ISA 8.x §9.7.13.14 leaves the choice to the implementation; docs/spec-notes.md).
    pub(crate) fn exec_elect(
        &mut self,
        d: Option<crate::program::R32>,
        p: Option<crate::program::Pred>,
        mask: u32,
    ) {
        if mask == 0 {
            return;
        }
        let leader = mask.trailing_zeros();
        if let Some(d) = d {
            for_lanes(mask, |lane| self.set(Reg::R32(d), lane, u64::from(leader)));
        }
        if let Some(p) = p {
            self.set_pred(p, 1 << leader, mask);
        }
    }
}
