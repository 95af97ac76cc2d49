//! The warp-wide matrix instructions (`mma.sync`, `ldmatrix`, `stmatrix`, `movmatrix`) on the
//! threads of one warp, straight from the IR; the arithmetic and the fragment layouts are
//! `ops::mma`'s.

use crate::alu::Cx;
use crate::memops::{resolve, CtaMem, Loc};
use crate::memory::{load_from, store_to};
use crate::thread::{Env, Thread};
use crate::Fault;
use ir::{Flag, Opcode as Oc, Operand, Type};
use ops::half::HalfFormat;
use ops::mma::{Frag, MmaKind};

fn elems(op: Option<&Operand>) -> Vec<Operand> {
    match op {
        Some(Operand::Vector(v)) => v.to_vec(),
        Some(o) => vec![o.clone()],
        None => Vec::new(),
    }
}

/// The `ops::mma` kind of an `mma` instruction, from its shape modifier and types.
fn kind_of(i: &ir::Inst) -> Option<MmaKind> {
    let shape = [Flag::M16n8k16, Flag::M16n8k8, Flag::M8n8k4, Flag::M16n8k32]
        .into_iter()
        .find(|f| i.mods.has(*f))?;
    let (d, a, b) = (i.type_slot(0)?, i.type_slot(1)?, i.type_slot(2)?);
    let half = if a == Type::Bf16 {
        HalfFormat::Bf16
    } else {
        HalfFormat::F16
    };
    let fp8 = |t: Type| match t {
        Type::E5m2 => Some(ops::fp8::Fp8::E5m2),
        Type::E4m3 => Some(ops::fp8::Fp8::E4m3),
        _ => None,
    };
    if let (Some(fa), Some(fb)) = (fp8(a), fp8(b)) {
        return Some(MmaKind::F8 {
            k32: shape == Flag::M16n8k32,
            a: fa,
            b: fb,
            f16_acc: d == Type::F16,
        });
    }
    Some(match (shape, d, a) {
        (Flag::M16n8k16, Type::F16, _) => MmaKind::M16n8k16F16,
        (Flag::M16n8k16, Type::F32, _) => MmaKind::M16n8k16F32(half),
        (Flag::M16n8k8, Type::F32, Type::Tf32) => MmaKind::M16n8k8Tf32,
        (Flag::M16n8k8, Type::F32, _) => MmaKind::M16n8k8F32(half),
        (Flag::M8n8k4, Type::F64, _) => MmaKind::M8n8k4F64,
        (Flag::M8n8k4, Type::F16 | Type::F32, Type::F16) => {
            let col = |l: Option<&str>| l == Some(".col");
            MmaKind::M8n8k4F16 {
                a_col: col(i.mods.a_layout.map(|l| l.spelling())),
                b_col: col(i.mods.b_layout.map(|l| l.spelling())),
                c_f32: i.type_slot(3)? == Type::F32,
                d_f32: d == Type::F32,
            }
        }
        (Flag::M16n8k16 | Flag::M16n8k32, Type::S32, _) => MmaKind::I8 {
            k32: shape == Flag::M16n8k32,
            a_signed: a == Type::S8,
            b_signed: b == Type::S8,
        },
        _ => return None,
    })
}

/// Each lane's values of a vector operand, read from the threads of the warp that runs the
/// instruction (a thread of the warp outside the group gives its registers as they stand).
fn gather(
    threads: &[Thread],
    warp: &[usize],
    env: &Env<'_, '_>,
    op: Option<&Operand>,
    ty: Type,
) -> Result<[Frag; 32], Fault> {
    let es = elems(op);
    let mut out = [[0u64; 8]; 32];
    for &j in warp {
        let t = &threads[j];
        let lane = t.lane() as usize % 32;
        for (k, e) in es.iter().enumerate().take(8) {
            out[lane][k] = t.src(env, e, ty)?;
        }
    }
    Ok(out)
}

pub(crate) fn run_matrix(
    threads: &mut [Thread],
    group: &[usize],
    env: &Env<'_, '_>,
    m: &mut CtaMem<'_>,
    i: &ir::Inst,
) -> Result<(), Fault> {
    let unsupported = || crate::fault::unsupported(i);
    let Some(&first) = group.first() else {
        return Ok(());
    };
    let (w, func) = (threads[first].warp(), threads[first].frame().func);
    let warp: Vec<usize> = (0..threads.len())
        .filter(|&j| {
            threads[j].warp() == w && threads[j].frames.last().is_some_and(|f| f.func == func)
        })
        .collect();
    match i.op {
        Oc::Mma => {
            let kind = kind_of(i).ok_or_else(unsupported)?;
            let ty = if kind == MmaKind::M8n8k4F64 {
                Type::B64
            } else {
                Type::B32
            };
            let a = gather(threads, &warp, env, i.operands.get(1), ty)?;
            let b = gather(threads, &warp, env, i.operands.get(2), ty)?;
            let c = gather(threads, &warp, env, i.operands.get(3), ty)?;
            let d = ops::mma::mma_sync(kind, i.mods.has(Flag::Satfinite), &a, &b, &c);
            let ds = elems(i.operands.first());
            for &j in group {
                let t = &mut threads[j];
                let lane = t.lane() as usize % 32;
                for (e, v) in ds.iter().zip(d[lane]) {
                    t.dst(env, e, ty, v)?;
                }
            }
            Ok(())
        }
        Oc::Movmatrix => {
            let a = gather(threads, &warp, env, i.operands.get(1), Type::B32)?;
            let regs: [u32; 32] = std::array::from_fn(|l| a[l][0] as u32);
            let out = ops::mma::movmatrix_trans(&regs);
            for &j in group {
                let t = &mut threads[j];
                let v = out[t.lane() as usize % 32];
                if let Some(d) = i.operands.first() {
                    t.dst(env, d, Type::B32, u64::from(v))?;
                }
            }
            Ok(())
        }
        Oc::Ldmatrix | Oc::Stmatrix => {
            let load = i.op == Oc::Ldmatrix;
            let (ak, rk) = if load { (1, 0) } else { (0, 1) };
            let Some(Operand::Address(a)) = i.operands.get(ak).cloned() else {
                return Err(unsupported());
            };
            let n = elems(i.operands.get(rk)).len();
            // Row r of matrix k is at the address lane 8k + r gives: 16 aligned bytes.
            let mut rows = vec![0u64; 8 * n];
            for &j in &warp {
                let lane = threads[j].lane() as usize;
                if lane >= 8 * n {
                    continue;
                }
                let cx = Cx {
                    t: &mut threads[j],
                    env,
                    i,
                };
                // 16 aligned bytes in shared memory: a generic address elsewhere faults.
                let (off, shared) = match resolve(&cx, &a)? {
                    Loc::Shared(x) => (x, true),
                    Loc::Global(x)
                    | Loc::Local(x)
                    | Loc::Const(x)
                    | Loc::KernelParam(x)
                    | Loc::FrameParam(_, x) => (x, false),
                };
                if !off.is_multiple_of(16) {
                    return Err(Fault::Misaligned {
                        addr: off,
                        size: 16,
                    });
                }
                if !shared {
                    return Err(Fault::OutOfBounds {
                        space: "shared",
                        addr: off,
                    });
                }
                rows[lane] = off;
            }
            let trans = i.mods.has(Flag::Trans);
            let regs = gather(threads, &warp, env, i.operands.get(rk), Type::B32)?;
            for k in 0..n {
                if load {
                    let mut mat: ops::mma::Mat8 = [[0; 8]; 8];
                    for (r, row) in mat.iter_mut().enumerate() {
                        for (c, x) in row.iter_mut().enumerate() {
                            *x = load_from(m.shared, "shared", rows[8 * k + r] + 2 * c as u64, 2)?
                                as u16;
                        }
                    }
                    let ds = elems(i.operands.first());
                    for &j in group {
                        let t = &mut threads[j];
                        let v = ops::mma::fragment_of(&mat, t.lane() as usize % 32, trans);
                        if let Some(d) = ds.get(k) {
                            t.dst(env, d, Type::B32, u64::from(v))?;
                        }
                    }
                } else {
                    let vals: [u32; 32] = std::array::from_fn(|l| regs[l][k] as u32);
                    let mat = ops::mma::matrix_of(&vals, trans);
                    for (r, row) in mat.iter().enumerate() {
                        for (c, x) in row.iter().enumerate() {
                            let at = rows[8 * k + r] + 2 * c as u64;
                            store_to(m.shared, "shared", at, 2, u128::from(*x))?;
                        }
                    }
                }
            }
            Ok(())
        }
        _ => Err(unsupported()),
    }
}
