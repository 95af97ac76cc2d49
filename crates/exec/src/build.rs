//! Building decoded programs by hand: for tests, benchmarks and the documentation example
//! (PTX text goes through `check` and [`crate::Device::load`] instead).

use crate::program::*;

/// Appends instructions and allocates register slots.
#[derive(Debug)]
pub struct ProgramBuilder {
    prog: Program,
    line: u32,
}

impl ProgramBuilder {
    pub fn new(file: &str) -> ProgramBuilder {
        ProgramBuilder {
            prog: Program {
                file: file.to_string(),
                insts: Vec::new(),
                funcs: Vec::new(),
                kernels: Vec::new(),
                n_r32: 0,
                n_r64: 0,
                n_pred: 0,
                addr64: true,
                const_bank: Vec::new(),
                local_bytes: 0,
                frame0: 0,
                sanitize: Default::default(),
            },
            line: 1,
        }
    }
    pub fn r32(&mut self) -> R32 {
        self.prog.n_r32 += 1;
        R32(self.prog.n_r32 - 1)
    }
    pub fn r64(&mut self) -> R64 {
        self.prog.n_r64 += 1;
        R64(self.prog.n_r64 - 1)
    }
    pub fn pred(&mut self) -> Pred {
        self.prog.n_pred += 1;
        Pred(self.prog.n_pred - 1)
    }
    /// Start a kernel here with parameters of the given sizes (packed with natural alignment).
    pub fn kernel(&mut self, name: &str, param_sizes: &[u32]) -> Vec<u32> {
        let mut off = 0u32;
        let mut params = Vec::new();
        let mut offs = Vec::new();
        for (i, &s) in param_sizes.iter().enumerate() {
            off = off.next_multiple_of(s.max(1));
            params.push(ParamInfo {
                name: format!("{name}_param_{i}"),
                offset: off,
                size: s,
                ty: None,
            });
            offs.push(off);
            off += s;
        }
        self.prog.funcs.push(FuncInfo {
            name: name.to_string(),
            entry: self.prog.insts.len() as u32,
            is_kernel: true,
            frame_bytes: 0,
            regs32: Vec::new(),
            regs64: Vec::new(),
            preds: Vec::new(),
            recursive: false,
        });
        self.prog.kernels.push(KernelInfo {
            func: self.prog.funcs.len() as u32 - 1,
            params,
            param_bytes: off,
            shared_bytes: 0,
            maxntid: None,
            cta_dims: None,
            reqntid: None,
        });
        offs
    }
    pub fn set_shared_bytes(&mut self, n: u32) {
        if let Some(k) = self.prog.kernels.last_mut() {
            k.shared_bytes = n;
        }
    }
    /// Index the next instruction will get.
    pub fn here(&self) -> u32 {
        self.prog.insts.len() as u32
    }
    pub fn push(&mut self, op: Op) -> u32 {
        self.guarded(None, op)
    }
    pub fn guarded(&mut self, guard: Option<(Pred, bool)>, op: Op) -> u32 {
        self.prog.insts.push(Inst {
            guard,
            op,
            line: self.line,
            weight: 1,
        });
        self.line += 1;
        self.here() - 1
    }
    /// Point the branch at `at` to `target`.
    pub fn patch(&mut self, at: u32, target: u32) {
        if let Some(Inst {
            op: Op::Bra { target: t },
            ..
        }) = self.prog.insts.get_mut(at as usize)
        {
            *t = target;
        }
    }
    pub fn finish(self) -> Program {
        self.prog
    }
}

/// `ld.param.u64 rd, [p0]` as a decoded instruction.
pub fn ld_param64(d: R64, offset: u32) -> Op {
    Op::Ld {
        space: Space::Param,
        ty: Scalar::U64,
        w: Width::W32,
        d: [Some(Reg::R64(d)), None, None, None],
        n: 1,
        align: 0,
        addr: Addr {
            base: AddrBase::None,
            offset: offset as i64,
            frame_relative: false,
        },
    }
}

/// The kernel of the crate documentation: `out[tid.x] = tid.x * 3` (one pointer parameter).
pub fn demo_triple_kernel() -> Program {
    let mut b = ProgramBuilder::new("demo.ptx");
    let p = b.kernel("triple", &[8]);
    let (out, addr, off) = (b.r64(), b.r64(), b.r64());
    let (t, v) = (b.r32(), b.r32());
    b.push(ld_param64(out, p[0]));
    b.push(Op::Sreg {
        d: Reg::R32(t),
        sreg: Sreg::Tid(0),
    });
    b.push(Op::IntRI {
        op: IntOp::MulLo,
        w: Width::W32,
        d: v,
        a: t,
        b: 3,
    });
    b.push(Op::MulWide32 {
        signed: false,
        d: off,
        a: S32::Reg(t),
        b: S32::Imm(4),
        c: None,
    });
    b.push(Op::Int64 {
        op: IntOp::Add,
        d: addr,
        a: S64::Reg(out),
        b: S64::Reg(off),
    });
    b.push(Op::St {
        space: Space::Global,
        ty: Scalar::U32,
        a: [Src::Reg(Reg::R32(v)), Src::Imm(0), Src::Imm(0), Src::Imm(0)],
        n: 1,
        align: 0,
        addr: Addr {
            base: AddrBase::R64(addr),
            offset: 0,
            frame_relative: false,
        },
    });
    b.push(Op::Exit);
    b.finish()
}

/// The benchmark hash kernel: each thread iterates `x = x*1664525 + 1013904223; x ^= x >> 13`
/// from `x = global id`, 256 times (or `128 + (gid & 255)` times when `divergent`), and
/// stores `x` to `out[gid]`.
pub fn hash_kernel(divergent: bool) -> Program {
    let mut b = ProgramBuilder::new("hash.ptx");
    let p = b.kernel("hash", &[8]);
    let (out, off, addr) = (b.r64(), b.r64(), b.r64());
    let (cta, ntid, tid, gid, x, i, t, n) = (
        b.r32(),
        b.r32(),
        b.r32(),
        b.r32(),
        b.r32(),
        b.r32(),
        b.r32(),
        b.r32(),
    );
    let pr = b.pred();
    let w = Width::W32;
    b.push(ld_param64(out, p[0]));
    for (d, s) in [
        (cta, Sreg::Ctaid(0)),
        (ntid, Sreg::Ntid(0)),
        (tid, Sreg::Tid(0)),
    ] {
        b.push(Op::Sreg {
            d: Reg::R32(d),
            sreg: s,
        });
    }
    b.push(Op::Mad32 {
        mul: IntOp::MulLo,
        w,
        d: gid,
        a: S32::Reg(cta),
        b: S32::Reg(ntid),
        c: S32::Reg(tid),
    });
    b.push(Op::Un32 {
        op: UnOp::Mov,
        w,
        d: x,
        a: S32::Reg(gid),
    });
    b.push(Op::Un32 {
        op: UnOp::Mov,
        w,
        d: i,
        a: S32::Imm(0),
    });
    if divergent {
        b.push(Op::IntRI {
            op: IntOp::And,
            w,
            d: t,
            a: gid,
            b: 255,
        });
        b.push(Op::IntRI {
            op: IntOp::Add,
            w,
            d: n,
            a: t,
            b: 128,
        });
    } else {
        b.push(Op::Un32 {
            op: UnOp::Mov,
            w,
            d: n,
            a: S32::Imm(256),
        });
    }
    let top = b.here();
    b.push(Op::Mad32 {
        mul: IntOp::MulLo,
        w,
        d: x,
        a: S32::Reg(x),
        b: S32::Imm(1664525),
        c: S32::Imm(1013904223),
    });
    b.push(Op::IntRI {
        op: IntOp::ShrU,
        w,
        d: t,
        a: x,
        b: 13,
    });
    b.push(Op::IntRR {
        op: IntOp::Xor,
        w,
        d: x,
        a: x,
        b: t,
    });
    b.push(Op::IntRI {
        op: IntOp::Add,
        w,
        d: i,
        a: i,
        b: 1,
    });
    b.push(Op::Setp32 {
        cmp: CmpOp::Lt,
        ty: CmpTy::U,
        w,
        p: pr,
        q: None,
        a: S32::Reg(i),
        b: S32::Reg(n),
        comb: None,
    });
    b.guarded(Some((pr, false)), Op::Bra { target: top });
    b.push(Op::MulWide32 {
        signed: false,
        d: off,
        a: S32::Reg(gid),
        b: S32::Imm(4),
        c: None,
    });
    b.push(Op::Int64 {
        op: IntOp::Add,
        d: addr,
        a: S64::Reg(out),
        b: S64::Reg(off),
    });
    b.push(Op::St {
        space: Space::Global,
        ty: Scalar::U32,
        a: [Src::Reg(Reg::R32(x)), Src::Imm(0), Src::Imm(0), Src::Imm(0)],
        n: 1,
        align: 0,
        addr: Addr {
            base: AddrBase::R64(addr),
            offset: 0,
            frame_relative: false,
        },
    });
    b.push(Op::Exit);
    b.finish()
}
