//! `wmma.load`, `wmma.store` and `wmma.mma` over a warp. The fragment layout and the
//! arithmetic are `ops::wmma`'s; this file moves registers and memory.

use crate::error::FaultKind;
use crate::mem_ops::Loc;
use crate::memory::store_bytes;
use crate::program::{MatrixOp, Space};
use crate::step::for_lanes;
use crate::warp::{Ctx, LaneFault, Warp};
use ops::mma::Frag;

impl Warp {
    pub(crate) fn exec_wmma(
        &mut self,
        ctx: &Ctx<'_>,
        shared: &mut [u8],
        m: &MatrixOp,
        mask: u32,
    ) -> Result<(), LaneFault> {
        match m {
            MatrixOp::Wmma { spec, d, a, b, c } => {
                // `.aligned`: the whole warp executes it; a lane left out by the guard gives
                // its registers as they stand and receives nothing (as `mma.sync`).
                let fa: [Frag; 32] = std::array::from_fn(|l| self.frag(a, l));
                let fb: [Frag; 32] = std::array::from_fn(|l| self.frag(b, l));
                let fc: [Frag; 32] = std::array::from_fn(|l| self.frag(c, l));
                let out = ops::wmma::wmma_mma(*spec, &fa, &fb, &fc);
                for_lanes(mask, |lane| {
                    for (r, v) in d.iter().zip(out[lane]) {
                        self.set(*r, lane, v);
                    }
                });
                Ok(())
            }
            MatrixOp::WmmaLdSt {
                load,
                frag,
                space,
                addr,
                stride,
                regs,
            } => {
                let addr64 = ctx.prog.addr64;
                let strides = stride.map(|s| self.row32(s));
                let mut cache = None;
                let mut result = Ok(());
                for_lanes(mask, |lane| {
                    if result.is_err() {
                        return;
                    }
                    let base = self.lane_addr(addr, lane, addr64);
                    let list = ops::wmma::accesses(
                        frag.shape,
                        frag.operand,
                        frag.elem,
                        frag.col_major,
                        strides.map(|s| s[lane]),
                        lane,
                    );
                    let mut f = self.frag(regs, lane);
                    for acc in list {
                        let ea = base.wrapping_add(acc.offset);
                        let ea = if addr64 { ea } else { ea & 0xffff_ffff };
                        let size = u64::from(acc.bytes);
                        let fault = |kind| LaneFault {
                            lane: lane as u32,
                            kind,
                        };
                        let loc = match self.locate(ctx, *space, ea, size, shared.len(), &mut cache)
                        {
                            Ok(l) => l,
                            Err(kind) => {
                                result = Err(fault(kind));
                                return;
                            }
                        };
                        let field = if size == 8 {
                            u64::MAX
                        } else {
                            (1u64 << (8 * size)) - 1
                        };
                        let Some(reg) = f.get_mut(acc.reg) else {
                            continue;
                        };
                        if *load {
                            let v = self.read_loc(ctx, shared, &loc, lane, size);
                            *reg = (*reg & !(field << acc.shift)) | ((v & field) << acc.shift);
                        } else {
                            let v = (*reg >> acc.shift) & field;
                            let r = match loc {
                                Loc::Global(al, off) => {
                                    al.store(off, size, v);
                                    Ok(())
                                }
                                Loc::Shared(off) => {
                                    store_bytes(shared, off, size, v);
                                    Ok(())
                                }
                                Loc::Local(off) => {
                                    self.local_store(ctx.prog.local_bytes, lane, off, size, v);
                                    Ok(())
                                }
                                Loc::Const(_) => Err(FaultKind::ReadOnly {
                                    space: Space::Const,
                                    addr: ea,
                                }),
                                Loc::Param(_) => Err(FaultKind::ReadOnly {
                                    space: Space::Param,
                                    addr: ea,
                                }),
                            };
                            if let Err(kind) = r {
                                result = Err(fault(kind));
                                return;
                            }
                        }
                    }
                    if *load {
                        for (r, v) in regs.iter().zip(f) {
                            self.set(*r, lane, v);
                        }
                    }
                });
                result
            }
            _ => Ok(()),
        }
    }
}
