//! The warp loop: fetch a decoded instruction, select its operation once, run the lane loop.

use crate::arith::{self, with_int32, with_int64};
use crate::error::FaultKind;
use crate::lanes::{carry_lanes, map1, map2, map2s, map3, write, Row32, Row64, LANES};
use crate::program::{
    CarryOp, IntOp, Op, Pred, PredLogic, PredSrc, Reg, SimdOp, Space, Src, Width, S32, S64,
};
use crate::warp::{Ctx, LaneFault, Stop, Warp, FULL};

impl Warp {
    #[inline(always)]
    pub(crate) fn row32(&self, s: S32) -> Row32 {
        match s {
            S32::Reg(r) => self.r32[r.0 as usize],
            S32::Imm(v) => [v; LANES],
        }
    }
    #[inline(always)]
    pub(crate) fn row64(&self, s: S64) -> Row64 {
        match s {
            S64::Reg(r) => self.r64[r.0 as usize],
            S64::Imm(v) => [v; LANES],
        }
    }
    #[inline(always)]
    pub(crate) fn pred_bits(&self, p: Pred) -> u32 {
        self.pred[p.0 as usize]
    }
    #[inline(always)]
    pub(crate) fn set_pred(&mut self, p: Pred, v: u32, mask: u32) {
        let r = &mut self.pred[p.0 as usize];
        *r = (*r & !mask) | (v & mask);
    }
    /// One lane of any register, zero-extended.
    #[inline]
    pub(crate) fn get(&self, r: Reg, lane: usize) -> u64 {
        match r {
            Reg::R32(r) => self.r32[r.0 as usize][lane] as u64,
            Reg::R64(r) => self.r64[r.0 as usize][lane],
            Reg::Pred(p) => (self.pred[p.0 as usize] >> lane & 1) as u64,
        }
    }
    #[inline]
    pub(crate) fn src(&self, s: Src, lane: usize) -> u64 {
        match s {
            Src::Reg(r) => self.get(r, lane),
            Src::Imm(v) => v,
        }
    }
    /// Set one lane of any register (truncating to the bank; predicates take bit 0).
    #[inline]
    pub(crate) fn set(&mut self, r: Reg, lane: usize, v: u64) {
        match r {
            Reg::R32(r) => self.r32[r.0 as usize][lane] = v as u32,
            Reg::R64(r) => self.r64[r.0 as usize][lane] = v,
            Reg::Pred(p) => {
                let x = &mut self.pred[p.0 as usize];
                *x = (*x & !(1 << lane)) | (((v & 1) as u32) << lane);
            }
        }
    }

    /// Run until the warp exits or reaches a barrier.
    pub fn run(&mut self, ctx: &Ctx<'_>, shared: &mut [u8]) -> Result<Stop, LaneFault> {
        self.run_with(ctx, shared, &mut crate::sanitize::hook::NoHook)
    }

    /// [`Warp::run`] with `hook` called before each instruction (the sanitizer); with
    /// `NoHook` this is the plain warp loop.
    pub(crate) fn run_with<H: crate::sanitize::hook::StepHook>(
        &mut self,
        ctx: &Ctx<'_>,
        shared: &mut [u8],
        hook: &mut H,
    ) -> Result<Stop, LaneFault> {
        let insts = ctx.prog.insts.as_slice();
        loop {
            if self.pc >= self.min_wait || self.active == 0 {
                self.reschedule();
                if self.active == 0 {
                    return Ok(Stop::Exited);
                }
            }
            let Some(inst) = insts.get(self.pc as usize) else {
                // The loader ends every function with `ret`/`exit`; falling off is an exit.
                let m = self.active;
                self.exit_lanes(m);
                continue;
            };
            self.steps += 1;
            if self.steps > ctx.max_steps {
                return Err(LaneFault {
                    lane: Warp::first_lane(self.active),
                    kind: FaultKind::StepBudget {
                        max_steps: ctx.max_steps,
                    },
                });
            }
            self.thread_instrs += (self.active.count_ones() * inst.weight as u32) as u64;
            let mask = match inst.guard {
                None => self.active,
                Some((p, neg)) => {
                    let v = self.pred_bits(p);
                    self.active & if neg { !v } else { v }
                }
            };
            hook.before(self, ctx, inst, mask);
            let all = (mask | self.dead) == FULL;
            match &inst.op {
                &Op::IntRR { op, w, d, a, b } => {
                    let (av, bv) = (self.r32[a.0 as usize], self.r32[b.0 as usize]);
                    let out = int32_rows(op, w, &av, &bv);
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::IntRI { op, w, d, a, b } => {
                    let av = self.r32[a.0 as usize];
                    let out = if w == Width::W32 {
                        with_int32!(op, f => map2s(&av, b, f))
                    } else {
                        int32_rows(op, w, &av, &[b; LANES])
                    };
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::IntIR { op, w, d, a, b } => {
                    let bv = self.r32[b.0 as usize];
                    let out = int32_rows(op, w, &[a; LANES], &bv);
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::Int64 { op, d, a, b } => {
                    let (av, bv) = (self.row64(a), self.row64(b));
                    let out = with_int64!(op, f => map2(&av, &bv, f));
                    write(&mut self.r64[d.0 as usize], &out, mask, all);
                }
                &Op::Un32 { op, w, d, a } => {
                    let av = self.row32(a);
                    let bits = w.bits();
                    let m = w.mask();
                    let out = map1(&av, |x| arith::un32(op, x, bits) & m);
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::Un64 { op, d, a } => {
                    let av = self.row64(a);
                    let out = map1(&av, |x| arith::un64(op, x));
                    write(&mut self.r64[d.0 as usize], &out, mask, all);
                }
                &Op::Mad32 { mul, w, d, a, b, c } => {
                    let (av, bv, cv) = (self.row32(a), self.row32(b), self.row32(c));
                    let out = if w == Width::W32 {
                        with_int32!(mul, f => map3(&av, &bv, &cv, |x, y, z| f(x, y).wrapping_add(z)))
                    } else {
                        let p = int32_rows(mul, w, &av, &bv);
                        map2(&p, &cv, |x, z| x.wrapping_add(z) & w.mask())
                    };
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::Mad64 { mul, d, a, b, c } => {
                    let (av, bv, cv) = (self.row64(a), self.row64(b), self.row64(c));
                    let out = with_int64!(mul, f => map3(&av, &bv, &cv, |x, y, z| f(x, y).wrapping_add(z)));
                    write(&mut self.r64[d.0 as usize], &out, mask, all);
                }
                &Op::MulWide16 { signed, d, a, b, c } => {
                    let (av, bv) = (self.row32(a), self.row32(b));
                    let cv = c.map(|c| self.row32(c)).unwrap_or([0; LANES]);
                    let out = map3(&av, &bv, &cv, |x, y, z| {
                        if signed {
                            ops::int::mad_wide(x as u16 as i16, y as u16 as i16, z as i32) as u32
                        } else {
                            ops::int::mad_wide(x as u16, y as u16, z)
                        }
                    });
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::MulWide32 { signed, d, a, b, c } => {
                    let (av, bv) = (self.row32(a), self.row32(b));
                    let cv = c.map(|c| self.row64(c)).unwrap_or([0; LANES]);
                    let mut out = [0u64; LANES];
                    for i in 0..LANES {
                        out[i] = if signed {
                            ops::int::mad_wide(av[i] as i32, bv[i] as i32, cv[i] as i64) as u64
                        } else {
                            ops::int::mad_wide(av[i], bv[i], cv[i])
                        };
                    }
                    write(&mut self.r64[d.0 as usize], &out, mask, all);
                }
                &Op::Carry32 {
                    op,
                    cc_in,
                    cc_out,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let cin = if cc_in { self.carry } else { 0 };
                    let (out, cout) = carry_lanes(
                        &self.row32(a),
                        &self.row32(b),
                        &self.row32(c),
                        cin,
                        |a, b, c, ci| carry32(op, a, b, c, ci),
                    );
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                    if cc_out {
                        self.carry = (self.carry & !mask) | (cout & mask);
                    }
                }
                &Op::Carry64 {
                    op,
                    cc_in,
                    cc_out,
                    d,
                    a,
                    b,
                    c,
                } => {
                    let cin = if cc_in { self.carry } else { 0 };
                    let (out, cout) = carry_lanes(
                        &self.row64(a),
                        &self.row64(b),
                        &self.row64(c),
                        cin,
                        |a, b, c, ci| carry64(op, a, b, c, ci),
                    );
                    write(&mut self.r64[d.0 as usize], &out, mask, all);
                    if cc_out {
                        self.carry = (self.carry & !mask) | (cout & mask);
                    }
                }
                Op::F32 { .. }
                | Op::F64 { .. }
                | Op::FUn32 { .. }
                | Op::FUn64 { .. }
                | Op::Fma32 { .. }
                | Op::Fma64 { .. } => self.exec_float(&inst.op, mask, all),
                &Op::Setp32 {
                    cmp,
                    ty,
                    w,
                    p,
                    q,
                    a,
                    b,
                    comb,
                } => {
                    let (av, bv) = (self.row32(a), self.row32(b));
                    let r = crate::compare::setp32(cmp, ty, w, &av, &bv);
                    if let crate::program::CmpTy::Half2(f, ftz) = ty {
                        // p from the low halves, q from the high halves, each combined with c.
                        let hi = crate::compare::setp32_high(cmp, f, ftz, &av, &bv);
                        self.finish_setp(r, p, None, comb, mask);
                        if let Some(q) = q {
                            self.finish_setp(hi, q, None, comb, mask);
                        }
                    } else {
                        self.finish_setp(r, p, q, comb, mask);
                    }
                }
                &Op::Setp64 {
                    cmp,
                    ty,
                    p,
                    q,
                    a,
                    b,
                    comb,
                } => {
                    let (av, bv) = (self.row64(a), self.row64(b));
                    let r = crate::compare::setp64(cmp, ty, &av, &bv);
                    self.finish_setp(r, p, q, comb, mask);
                }
                &Op::Selp32 { d, a, b, p } => {
                    let (av, bv, pv) = (self.row32(a), self.row32(b), self.pred_bits(p));
                    let mut out = [0u32; LANES];
                    for i in 0..LANES {
                        out[i] = if pv >> i & 1 != 0 { av[i] } else { bv[i] };
                    }
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::Selp64 { d, a, b, p } => {
                    let (av, bv, pv) = (self.row64(a), self.row64(b), self.pred_bits(p));
                    let mut out = [0u64; LANES];
                    for i in 0..LANES {
                        out[i] = if pv >> i & 1 != 0 { av[i] } else { bv[i] };
                    }
                    write(&mut self.r64[d.0 as usize], &out, mask, all);
                }
                &Op::PredOp { op, d, a, b } => {
                    let pa = self.psrc(a);
                    let pb = self.psrc(b);
                    let v = match op {
                        PredLogic::And => pa & pb,
                        PredLogic::Or => pa | pb,
                        PredLogic::Xor => pa ^ pb,
                        PredLogic::Not => !pa,
                        PredLogic::Mov => pa,
                    };
                    self.set_pred(d, v, mask);
                }
                &Op::Cvt {
                    d,
                    dty,
                    a,
                    aty,
                    mode,
                } => {
                    for_lanes(mask, |i| {
                        let v = crate::convert::cvt(self.src(a, i), aty, dty, mode);
                        self.set(d, i, v);
                    });
                }
                &Op::Pack64 { d, lo, hi } => {
                    let (l, h) = (self.row32(lo), self.row32(hi));
                    let out = map2(&l, &h, |x, y| x as u64 | (y as u64) << 32);
                    write(&mut self.r64[d.0 as usize], &out, mask, all);
                }
                &Op::Unpack64 { lo, hi, a } => {
                    let av = self.r64[a.0 as usize];
                    if let Some(lo) = lo {
                        let out = map1(&av, |x| x as u32);
                        write(&mut self.r32[lo.0 as usize], &out, mask, all);
                    }
                    if let Some(hi) = hi {
                        let out = map1(&av, |x| (x >> 32) as u32);
                        write(&mut self.r32[hi.0 as usize], &out, mask, all);
                    }
                }
                &Op::Pack32 { d, lo, hi } => {
                    let (l, h) = (self.row32(lo), self.row32(hi));
                    let out = map2(&l, &h, |x, y| (x & 0xffff) | y << 16);
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::Unpack32 { lo, hi, a } => {
                    let av = self.r32[a.0 as usize];
                    if let Some(lo) = lo {
                        let out = map1(&av, |x| x & 0xffff);
                        write(&mut self.r32[lo.0 as usize], &out, mask, all);
                    }
                    if let Some(hi) = hi {
                        let out = map1(&av, |x| x >> 16);
                        write(&mut self.r32[hi.0 as usize], &out, mask, all);
                    }
                }
                &Op::FrameAddr { d, off } => {
                    for_lanes(mask, |i| {
                        let v = self.frame[i] as u64 + off as u64;
                        self.set(d, i, v);
                    });
                }
                &Op::Sreg { d, sreg } => self.exec_sreg(ctx, d, sreg, mask),
                &Op::Lanewise { f, d, srcs } => {
                    for_lanes(mask, |i| {
                        let v = [
                            self.src(srcs[0], i),
                            self.src(srcs[1], i),
                            self.src(srcs[2], i),
                            self.src(srcs[3], i),
                        ];
                        let r = f(&v);
                        self.set(d, i, r);
                    });
                }
                &Op::Lane { f, d, srcs } => {
                    for_lanes(mask, |i| {
                        let v = [
                            self.src(srcs[0], i),
                            self.src(srcs[1], i),
                            self.src(srcs[2], i),
                            self.src(srcs[3], i),
                        ];
                        let r = crate::lane_ops::eval(f, &v);
                        self.set(d, i, r);
                    });
                }
                &Op::Ld { space, .. } => {
                    // Counted for spin detection: other CTAs may change global memory.
                    if matches!(space, Space::Global | Space::Generic) {
                        self.global_loads += 1;
                    }
                    self.exec_mem(ctx, shared, &inst.op, mask)?;
                }
                Op::St { .. } | Op::Atom { .. } | Op::AtomCas128 { .. } => {
                    self.mem_writes += 1;
                    self.exec_mem(ctx, shared, &inst.op, mask)?;
                }
                Op::Cvta { .. } => {
                    self.exec_mem(ctx, shared, &inst.op, mask)?;
                }
                Op::Matrix(_) | Op::CpAsync { .. } => {
                    self.exec_matrix(ctx, shared, &inst.op, mask)?;
                }
                Op::Async(a) => self.exec_async(ctx, shared, a, mask)?,
                Op::Tex { .. } | Op::TexCube { .. } | Op::Txq { .. } => {
                    self.exec_tex(ctx, &inst.op, mask)?
                }
                &Op::Simd4 {
                    op,
                    mode,
                    d,
                    a,
                    b,
                    c,
                } => {
                    use ops::video as v;
                    let (av, bv, cv) = (self.row32(a), self.row32(b), self.row32(c));
                    let f: fn(u32, u32, u32, v::Simd4Mode) -> u32 = match op {
                        SimdOp::Add => v::vadd4,
                        SimdOp::Sub => v::vsub4,
                        SimdOp::Avrg => v::vavrg4,
                        SimdOp::Absdiff => v::vabsdiff4,
                        SimdOp::Min => v::vmin4,
                        SimdOp::Max => v::vmax4,
                    };
                    let out = map3(&av, &bv, &cv, |x, y, z| f(x, y, z, mode));
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::Simd2 {
                    op,
                    mode,
                    d,
                    a,
                    b,
                    c,
                } => {
                    use ops::video as v;
                    let (av, bv, cv) = (self.row32(a), self.row32(b), self.row32(c));
                    let f: fn(u32, u32, u32, v::Simd2Mode) -> u32 = match op {
                        SimdOp::Add => v::vadd2,
                        SimdOp::Sub => v::vsub2,
                        SimdOp::Avrg => v::vavrg2,
                        SimdOp::Absdiff => v::vabsdiff2,
                        SimdOp::Min => v::vmin2,
                        SimdOp::Max => v::vmax2,
                    };
                    let out = map3(&av, &bv, &cv, |x, y, z| f(x, y, z, mode));
                    write(&mut self.r32[d.0 as usize], &out, mask, all);
                }
                &Op::Bra { target } => {
                    let not_taken = self.active & !mask;
                    if not_taken == 0 {
                        // A loop that runs long (a spin-wait on another warp's store) lets the
                        // CTA's other warps run, as a GPU's warp scheduler would.
                        let backward = target <= self.pc;
                        self.pc = target;
                        if backward && self.steps >= self.yield_at {
                            return Ok(Stop::Yield);
                        }
                        continue;
                    }
                    if mask != 0 {
                        self.diverge(mask, target);
                    }
                }
                Op::BrxIdx { index, targets } => {
                    if mask != 0 {
                        self.exec_brx(*index, targets, mask)?;
                    }
                }
                Op::Call { .. } | Op::CallIndirect { .. } => {
                    self.mem_writes += 1;
                    if mask != 0 {
                        self.exec_call(ctx, &inst.op, mask)?;
                        continue;
                    }
                }
                Op::Ret => {
                    if mask != 0 {
                        self.exec_ret(ctx, mask);
                        continue;
                    }
                }
                Op::Exit => {
                    self.exit_lanes(mask);
                    if self.active == 0 {
                        continue;
                    }
                }
                Op::Trap => {
                    if mask != 0 {
                        return Err(LaneFault {
                            lane: Warp::first_lane(mask),
                            kind: FaultKind::Trap,
                        });
                    }
                }
                Op::Brkpt | Op::Nop => {}
                Op::Bar { .. } => {
                    if mask != 0 && self.exec_bar(&inst.op, mask) {
                        self.pc += 1;
                        return Ok(Stop::Barrier);
                    }
                }
                Op::Vote { .. }
                | Op::Shfl { .. }
                | Op::Activemask { .. }
                | Op::Redux { .. }
                | Op::Match { .. }
                | Op::Elect { .. }
                | Op::WarpSync { .. } => {
                    if !self.exec_collective(&inst.op, mask)? {
                        // Independent thread scheduling: the executing lanes wait here for the
                        // lanes of their membermask that run elsewhere; lanes the guard turned
                        // off go on.
                        let pc = self.pc;
                        let others = self.active & !mask;
                        if others != 0 {
                            self.diverge(others, pc + 1);
                        }
                        self.diverge(mask, pc);
                        self.coll_wait |= mask;
                        self.coll_pc = pc;
                        continue;
                    }
                }
            }
            self.pc += 1;
        }
    }

    #[inline]
    fn psrc(&self, s: PredSrc) -> u32 {
        match s {
            PredSrc::Reg(p, neg) => {
                let v = self.pred_bits(p);
                if neg {
                    !v
                } else {
                    v
                }
            }
            PredSrc::Imm(b) => {
                if b {
                    FULL
                } else {
                    0
                }
            }
        }
    }

    fn finish_setp(
        &mut self,
        r: u32,
        p: Pred,
        q: Option<Pred>,
        comb: Option<(crate::program::BoolOp, Pred, bool)>,
        mask: u32,
    ) {
        use crate::program::BoolOp;
        let (t, f) = match comb {
            None => (r, !r),
            Some((op, c, neg)) => {
                let cv = self.pred_bits(c);
                let cv = if neg { !cv } else { cv };
                match op {
                    BoolOp::And => (r & cv, !r & cv),
                    BoolOp::Or => (r | cv, !r | cv),
                    BoolOp::Xor => (r ^ cv, !r ^ cv),
                }
            }
        };
        self.set_pred(p, t, mask);
        if let Some(q) = q {
            self.set_pred(q, f, mask);
        }
    }
}

/// Call `f` for every lane of `mask`.
#[inline(always)]
pub(crate) fn for_lanes(mask: u32, mut f: impl FnMut(usize)) {
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        f(l);
    }
}

/// A 32-bit-bank integer op over whole rows, with narrow-width extension and truncation.
#[inline(always)]
fn int32_rows(op: IntOp, w: Width, av: &Row32, bv: &Row32) -> Row32 {
    if w == Width::W32 {
        return with_int32!(op, f => map2(av, bv, f));
    }
    let m = w.mask();
    map2(av, bv, |x, y| arith::int16(op, x, y) & m)
}

/// `add.cc addc sub.cc subc mad.cc madc` on one 32-bit lane, through `ops::carry`.
#[inline(always)]
fn carry32(op: CarryOp, a: u32, b: u32, c: u32, ci: bool) -> (u32, bool) {
    use ops::carry as k;
    match op {
        CarryOp::Add => k::addc_u32(a, b, ci),
        CarryOp::Sub => k::subc_u32(a, b, ci),
        CarryOp::MadLo => k::madc_lo(a, b, c, ci),
        CarryOp::MadHiU => k::madc_hi(a, b, c, ci),
        CarryOp::MadHiS => {
            let (d, co) = k::madc_hi(a as i32, b as i32, c as i32, ci);
            (d as u32, co)
        }
    }
}

/// The 64-bit counterpart of [`carry32`].
#[inline(always)]
fn carry64(op: CarryOp, a: u64, b: u64, c: u64, ci: bool) -> (u64, bool) {
    use ops::carry as k;
    match op {
        CarryOp::Add => k::addc_u64(a, b, ci),
        CarryOp::Sub => k::subc_u64(a, b, ci),
        CarryOp::MadLo => k::madc_lo(a, b, c, ci),
        CarryOp::MadHiU => k::madc_hi(a, b, c, ci),
        CarryOp::MadHiS => {
            let (d, co) = k::madc_hi(a as i64, b as i64, c as i64, ci);
            (d as u64, co)
        }
    }
}
