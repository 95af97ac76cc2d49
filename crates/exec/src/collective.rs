//! Special registers, warp collectives (`vote`, `shfl`, `activemask`, `redux`) and barrier
//! arrival.

use crate::error::{FaultKind, MemberProblem};
use crate::lanes::LANES;
use crate::program::{BarKind, Op, ReduxOp, Reg, ShflMode, Sreg, VoteMode, S32};
use crate::step::for_lanes;
use crate::warp::{BarrierWait, Ctx, LaneFault, Warp};

impl Warp {
    pub(crate) fn exec_sreg(&mut self, ctx: &Ctx<'_>, d: Reg, sreg: Sreg, mask: u32) {
        let steps = self.steps;
        // The common 32-bit thread/CTA ids as whole rows.
        if let Reg::R32(r) = d {
            let all = (mask | self.dead) == crate::warp::FULL;
            let row = match sreg {
                Sreg::Tid(k) => Some(self.tid[k as usize % 3]),
                Sreg::Ntid(k) => Some([ctx.ntid[k as usize % 3]; LANES]),
                Sreg::Ctaid(k) => Some([self.ctaid[k as usize % 3]; LANES]),
                Sreg::Nctaid(k) => Some([ctx.nctaid[k as usize % 3]; LANES]),
                _ => None,
            };
            if let Some(row) = row {
                crate::lanes::write(&mut self.r32[r.0 as usize], &row, mask, all);
                return;
            }
        }
        for_lanes(mask, |lane| {
            let l = lane as u32;
            let v: u64 = match sreg {
                Sreg::Tid(k) => self.tid[k as usize % 3][lane] as u64,
                Sreg::Ntid(k) => ctx.ntid[k as usize % 3] as u64,
                Sreg::Ctaid(k) => self.ctaid_of(k),
                Sreg::Nctaid(k) => ctx.nctaid[k as usize % 3] as u64,
                Sreg::Gridid => ctx.gridid as u64,
                Sreg::Clock => steps & 0xffff_ffff,
                Sreg::Clock64 => steps,
                Sreg::Laneid => l as u64,
                Sreg::Warpid => self.warp_id as u64,
                Sreg::Nwarpid => {
                    let n = ctx.ntid[0] as u64 * ctx.ntid[1] as u64 * ctx.ntid[2] as u64;
                    n.div_ceil(LANES as u64)
                }
                Sreg::Smid => 0,
                Sreg::Nsmid => 1,
                Sreg::LanemaskEq => 1u64 << l,
                Sreg::LanemaskLe => (1u64 << (l + 1)) - 1,
                Sreg::LanemaskLt => (1u64 << l) - 1,
                Sreg::LanemaskGe => (u32::MAX << l) as u64,
                Sreg::LanemaskGt => ((u32::MAX << l) << 1) as u64 & 0xffff_ffff,
            };
            self.set(d, lane, v);
        });
    }

    fn ctaid_of(&self, k: u8) -> u64 {
        self.ctaid[k as usize % 3] as u64
    }

    /// The membermask rules of the `.sync` warp instructions (PTX ISA 8.x §9.7.13.8–13,
    /// §9.7.13.3): every executing thread is in its membermask, all give the same mask, and
    /// every non-exited thread the mask names executes the instruction with them. The spec
    /// leaves a violation undefined; here it is a fault naming the instruction, thread and mask.
    ///
    /// `Ok(false)`: a live lane of the mask is on another path; the executing lanes must wait
    /// for it (PTX ISA: each thread waits "until all non-exited threads corresponding to
    /// membermask have executed" the instruction), which the caller arranges.
    fn check_members(&self, member: S32, mask: u32, inst: &'static str) -> Result<bool, LaneFault> {
        if mask == 0 {
            return Ok(true);
        }
        let row = self.row32(member);
        let first = Warp::first_lane(mask);
        let m0 = row[first as usize];
        let mut bad: Option<LaneFault> = None;
        for_lanes(mask, |lane| {
            if bad.is_some() {
                return;
            }
            let m = row[lane];
            let problem = if m >> lane & 1 == 0 {
                MemberProblem::NotAMember
            } else if m != m0 {
                MemberProblem::Differs { other: m0 }
            } else {
                return;
            };
            bad = Some(LaneFault {
                lane: lane as u32,
                kind: FaultKind::Membermask {
                    inst,
                    mask: m,
                    problem,
                },
            });
        });
        if let Some(f) = bad {
            return Err(f);
        }
        let absent = m0 & !mask & !self.dead;
        // Wait for absent lanes unless one of them already waits at another collective: then
        // neither group can ever arrive.
        if absent != 0
            && (self.coll_wait == 0 || self.coll_pc == self.pc)
            && absent & self.coll_wait == 0
        {
            return Ok(false);
        }
        if absent != 0 {
            return Err(LaneFault {
                lane: first,
                kind: FaultKind::Membermask {
                    inst,
                    mask: m0,
                    problem: MemberProblem::Absent {
                        lane: absent.trailing_zeros(),
                    },
                },
            });
        }
        Ok(true)
    }

    /// Run a warp collective over the lanes of `mask`; `Ok(false)` when they must first wait
    /// for lanes of their membermask that run elsewhere (nothing was written).
    pub(crate) fn exec_collective(&mut self, op: &Op, mask: u32) -> Result<bool, LaneFault> {
        match *op {
            Op::Vote {
                mode,
                a,
                neg,
                d,
                member,
            } => {
                if let Some(m) = member {
                    if !self.check_members(m, mask, "vote.sync")? {
                        return Ok(false);
                    }
                }
                let v = self.pred_bits(a);
                let v = (if neg { !v } else { v }) & mask;
                match mode {
                    VoteMode::Ballot => for_lanes(mask, |l| self.set(d, l, v as u64)),
                    VoteMode::All | VoteMode::Any | VoteMode::Uni => {
                        let r = match mode {
                            VoteMode::All => v == mask,
                            VoteMode::Any => v != 0,
                            _ => v == mask || v == 0,
                        };
                        for_lanes(mask, |l| self.set(d, l, r as u64));
                    }
                }
            }
            Op::Shfl {
                mode,
                d,
                p,
                a,
                b,
                c,
                member,
            } => {
                if let Some(m) = member {
                    if !self.check_members(m, mask, "shfl.sync")? {
                        return Ok(false);
                    }
                }
                let src = self.r32_or_imm(a);
                let bv = self.r32_or_imm(b);
                let cv = self.r32_or_imm(c);
                let mut out = [0u32; LANES];
                let mut pv = 0u32;
                let m = match mode {
                    ShflMode::Up => ops::warp::ShflMode::Up,
                    ShflMode::Down => ops::warp::ShflMode::Down,
                    ShflMode::Bfly => ops::warp::ShflMode::Bfly,
                    ShflMode::Idx => ops::warp::ShflMode::Idx,
                };
                for_lanes(mask, |lane| {
                    let (j, ok) = ops::warp::shfl_source(m, lane as u32, bv[lane], cv[lane]);
                    out[lane] = src[(j as usize) % LANES];
                    pv |= (ok as u32) << lane;
                });
                let row = &mut self.r32[d.0 as usize];
                for_lanes(mask, |lane| row[lane] = out[lane]);
                if let Some(p) = p {
                    self.set_pred(p, pv, mask);
                }
            }
            Op::Activemask { d } => {
                let row = &mut self.r32[d.0 as usize];
                for_lanes(mask, |lane| row[lane] = mask);
            }
            Op::Redux { op, d, a, member } => {
                if !self.check_members(member, mask, "redux.sync")? {
                    return Ok(false);
                }
                let v = self.r32[a.0 as usize];
                let op = match op {
                    ReduxOp::Add => ops::warp::ReduxOp::Add,
                    ReduxOp::MinU => ops::warp::ReduxOp::MinU,
                    ReduxOp::MaxU => ops::warp::ReduxOp::MaxU,
                    ReduxOp::MinS => ops::warp::ReduxOp::MinS,
                    ReduxOp::MaxS => ops::warp::ReduxOp::MaxS,
                    ReduxOp::And => ops::warp::ReduxOp::And,
                    ReduxOp::Or => ops::warp::ReduxOp::Or,
                    ReduxOp::Xor => ops::warp::ReduxOp::Xor,
                    ReduxOp::MinF32 { abs, nan } => ops::warp::ReduxOp::MinF32 { abs, nan },
                    ReduxOp::MaxF32 { abs, nan } => ops::warp::ReduxOp::MaxF32 { abs, nan },
                };
                // The members' values in lane order, without allocating.
                let (mut buf, mut n) = ([0u32; 32], 0);
                for_lanes(mask, |lane| {
                    buf[n] = v[lane];
                    n += 1;
                });
                let acc = ops::warp::redux(op, buf.iter().take(n).copied());
                let r = acc.unwrap_or(0);
                let row = &mut self.r32[d.0 as usize];
                for_lanes(mask, |lane| row[lane] = r);
            }
            Op::Match {
                all,
                d,
                p,
                a,
                member,
            } => {
                if !self.check_members(member, mask, "match.sync")? {
                    return Ok(false);
                }
                // Every named thread executes it (checked above), so the threads to compare
                // with are exactly the executing ones.
                let mut vals = [0u64; LANES];
                for_lanes(mask, |lane| vals[lane] = self.src(a, lane));
                let mut same = [0u32; LANES];
                for_lanes(mask, |lane| {
                    let mut s = 0;
                    for_lanes(mask, |k| s |= u32::from(vals[k] == vals[lane]) << k);
                    same[lane] = s;
                });
                let uniform = same[Warp::first_lane(mask) as usize % LANES] == mask;
                let row = &mut self.r32[d.0 as usize];
                for_lanes(mask, |lane| {
                    row[lane] = match (all, uniform) {
                        (false, _) => same[lane],
                        (true, true) => mask,
                        (true, false) => 0,
                    }
                });
                if let Some(p) = p {
                    self.set_pred(p, if uniform { mask } else { 0 }, mask);
                }
            }
            Op::WarpSync { member } => return self.check_members(member, mask, "bar.warp.sync"),
            Op::Elect { d, p, member } => {
                if !self.check_members(member, mask, "elect.sync")? {
                    return Ok(false);
                }
                self.exec_elect(d, p, mask);
            }
            _ => {}
        }
        Ok(true)
    }

    fn r32_or_imm(&self, s: S32) -> [u32; LANES] {
        self.row32(s)
    }

    /// Record a barrier arrival; returns whether the warp must stop and wait.
    pub(crate) fn exec_bar(&mut self, op: &Op, mask: u32) -> bool {
        let Op::Bar {
            kind,
            id,
            count,
            red_src,
            red_dst,
        } = *op
        else {
            return false;
        };
        let first = Warp::first_lane(mask) as usize;
        let id = self.row32(id)[first];
        let count = count.map(|c| self.row32(c)[first]);
        let red_true = match red_src {
            Some((p, neg)) => {
                let v = self.pred_bits(p);
                (if neg { !v } else { v }) & mask
            }
            None => 0,
        };
        self.barrier = Some(BarrierWait {
            id,
            count,
            mask,
            waits: kind != BarKind::Arrive,
            red_true,
        });
        self.red_dst = red_dst.map(|d| (d, kind));
        true
    }
}
