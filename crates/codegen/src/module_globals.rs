//! Module `.global` variables as NVIDIA's sm_20 toolchain lays them out (docs/cubin.md,
//! "Module globals and relocations"): initialized ones in `.nv.global.init`, the others in
//! the zero-filled `.nv.global`, each aligned to its `.align` (at least 4), in declaration
//! order. An initializer holding addresses (`.global .u64 p = g;`, `= {a, generic(b)+8}`)
//! gets a relocation per address (`R_CUDA_64`, or `R_CUDA_32` for a 4-byte slot) that the
//! loader resolves, as the driver does. Only addresses of module `.global` variables can be
//! relocated: sm_20's generic address of a global is its global address, so `generic(g)` is
//! the same value. A function's address needs no relocation: it is the constant
//! `ir::func_addr` (the PTX executor's value), written in place. A variable whose initializer
//! holds another address (a `.shared`/`.const` variable, or a variable that is itself left
//! out) is left out: code addressing it is refused by selection, naming it.

use fermi::cubin;
use ir::{Module, RelocTarget, Space, VarId};
use rustc_hash::FxHashMap as HashMap;

fn align_up(x: u32, a: u32) -> u32 {
    x.div_ceil(a.max(1)) * a.max(1)
}

/// The laid-out variables (their index among the cubin's global symbols) and the data.
pub fn global_data(module: &Module) -> (HashMap<VarId, u32>, cubin::GlobalData) {
    let global = |v: VarId| module.var(v).is_some_and(|x| x.space == Space::Global);
    // Variables whose every address target is a laid-out global (a fixpoint: a target left
    // out leaves out its referrers).
    let mut kept: Vec<VarId> = module
        .globals
        .iter()
        .copied()
        .filter(|&v| global(v))
        .collect();
    loop {
        let before = kept.len();
        let snapshot = kept.clone();
        kept.retain(|&v| {
            let Some(init) = module.var(v).and_then(|x| x.init.as_ref()) else {
                return true;
            };
            init.relocs.iter().all(|r| {
                matches!(r.width, 4 | 8)
                    && match r.target {
                        RelocTarget::Var(t) => snapshot.contains(&t),
                        // A function's address is a constant (`ir::func_addr`), written below.
                        RelocTarget::Func(_) => true,
                    }
            })
        });
        if kept.len() == before {
            break;
        }
    }
    let mut index = HashMap::default();
    let mut data = cubin::GlobalData::default();
    let mut pending = Vec::new();
    for &v in &kept {
        let Some(var) = module.var(v) else { continue };
        let Ok(size) = u32::try_from(var.size) else {
            continue;
        };
        let initialized = var.init.is_some();
        let used = if initialized {
            data.init.len() as u32
        } else {
            data.zero_size
        };
        let off = align_up(used, var.align.max(4));
        let Some(end) = off.checked_add(size).filter(|&e| e < 1 << 30) else {
            continue;
        };
        if let Some(init) = &var.init {
            data.init.resize(end as usize, 0);
            let n = init.bytes.len().min(size as usize);
            data.init[off as usize..off as usize + n].copy_from_slice(&init.bytes[..n]);
            for r in &init.relocs {
                match r.target {
                    RelocTarget::Var(t) => {
                        pending.push((off as u64 + r.offset, t, r.addend, r.width == 8, end))
                    }
                    RelocTarget::Func(f) => {
                        // The value the PTX executor gives (its initializers do the same).
                        let v = ir::func_addr(f).wrapping_add(r.addend as u64).to_le_bytes();
                        let at = off as usize + r.offset as usize;
                        let w = usize::from(r.width).min(8);
                        if let Some(dst) = data
                            .init
                            .get_mut(at..at + w)
                            .filter(|_| at + w <= end as usize)
                        {
                            dst.copy_from_slice(&v[..w]);
                        }
                    }
                }
            }
        } else {
            data.zero_size = end;
        }
        index.insert(v, data.vars.len() as u32);
        data.vars.push(cubin::GlobalVar {
            name: var.name.clone(),
            initialized,
            offset: off,
            size,
        });
    }
    for (at, target, addend, wide, end) in pending {
        // A target left out by the size limit, or a slot past its variable, is not written
        // (the checker gives initializers inside their variable; this only guards).
        let (Some(t), Ok(at)) = (index.get(&target), u32::try_from(at)) else {
            continue;
        };
        if u64::from(at) + if wide { 8 } else { 4 } > u64::from(end) {
            continue;
        }
        data.relocs.push(cubin::DataReloc {
            offset: at,
            symbol: data.vars[*t as usize].name.clone(),
            addend,
            wide,
        });
    }
    (index, data)
}
