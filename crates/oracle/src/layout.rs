//! Where every variable lives: an address in its own state space, decided once per launch.

use crate::{Fault, Launch, Memory};
use ir::{FuncId, Module, Param, RelocTarget, Space, VarId, VarScope};

/// The storage plan of one launch.
pub(crate) struct Layout<'m> {
    pub module: &'m Module,
    pub kernel: FuncId,
    /// Space address of each variable (`None` for opaque ones and per-activation `.param`s).
    pub addr: Vec<Option<u64>>,
    /// The kernel's parameter space.
    pub kparams: Vec<u8>,
    /// The constant space (bank 0; other banks follow it).
    pub constant: Vec<u8>,
    /// Static shared bytes per CTA; dynamic shared memory starts at `dynamic_base`.
    pub shared_static: Vec<u8>,
    pub dynamic_base: u64,
    /// Module-scope `.local` bytes per thread, with their initial contents. Each activation
    /// of a function gets its own `.local` variables above them (`frame_local`).
    pub local_init: Vec<u8>,
    /// For a `.local` variable declared in a function body: its offset in that function's
    /// frame (`None` for others).
    pub frame_local: Vec<Option<u64>>,
    /// Bytes of `.local` variables per activation of each function, with initial contents.
    pub frame_init: Vec<Vec<u8>>,
}

fn align_up(x: u64, a: u32) -> u64 {
    let a = u64::from(a.max(1));
    x.div_ceil(a) * a
}

impl<'m> Layout<'m> {
    pub fn new(
        module: &'m Module,
        kernel: &str,
        params: &[Vec<u8>],
        cfg: &Launch,
        mem: &mut Memory,
    ) -> Result<Layout<'m>, Fault> {
        let kernel = module
            .entries()
            .find(|(_, f)| f.name == kernel)
            .map(|(id, _)| id)
            .ok_or_else(|| Fault::Launch(format!("no kernel named `{kernel}`")))?;
        let mut addr = vec![None; module.vars.len()];
        let mut kparams = Vec::new();
        let mut constant = Vec::new();
        let mut shared = Vec::new();
        let mut local = Vec::new();
        let mut gnext = cfg.globals_base;
        let mut frame_local = vec![None; module.vars.len()];
        let mut frames: Vec<Vec<u8>> = vec![Vec::new(); module.functions.len()];
        let func = module
            .function(kernel)
            .ok_or_else(|| Fault::Launch("bad kernel id".into()))?;
        if func.params.len() != params.len() {
            return Err(Fault::Launch(format!(
                "kernel takes {} parameters, {} given",
                func.params.len(),
                params.len()
            )));
        }
        for (p, bytes) in func.params.iter().zip(params) {
            let Param::Var(v) = *p else {
                return Err(Fault::Launch("kernel parameter in a register".into()));
            };
            let var = &module.vars[v.index()];
            let off = align_up(kparams.len() as u64, var.align);
            kparams.resize(off as usize, 0);
            let mut b = bytes.clone();
            b.resize(var.size as usize, 0);
            kparams.extend_from_slice(&b);
            addr[v.index()] = Some(off);
        }
        let place = |buf: &mut Vec<u8>, var: &ir::Variable| -> u64 {
            let off = align_up(buf.len() as u64, var.align);
            buf.resize(off as usize, 0);
            match &var.init {
                Some(init) => buf.extend_from_slice(&init.bytes),
                None => buf.resize((off + var.size) as usize, 0),
            }
            off
        };
        for (i, var) in module.vars.iter().enumerate() {
            let per_activation = matches!(var.scope, VarScope::Param(f) if f != kernel)
                || matches!(var.scope, VarScope::Body(_)) && var.space == Space::Param;
            if per_activation || matches!(var.scope, VarScope::Param(_)) {
                continue;
            }
            addr[i] = match var.space {
                Space::Global => {
                    let base = align_up(gnext, var.align.max(16));
                    let bytes = var
                        .init
                        .as_ref()
                        .map(|x| x.bytes.clone())
                        .unwrap_or_else(|| vec![0; var.size as usize]);
                    gnext = base + var.size.max(1) + 256;
                    mem.map(base, bytes);
                    Some(base)
                }
                Space::Const => Some(place(&mut constant, var)),
                Space::Shared | Space::SharedCta => {
                    if var.linkage == ir::Linkage::Extern && var.size == 0 {
                        None
                    } else {
                        Some(place(&mut shared, var))
                    }
                }
                Space::Local => match var.scope {
                    VarScope::Body(f) => {
                        let buf = frames
                            .get_mut(f.index())
                            .ok_or_else(|| Fault::Launch("bad function id".into()))?;
                        frame_local[i] = Some(place(buf, var));
                        None
                    }
                    _ => Some(place(&mut local, var)),
                },
                _ => None,
            };
        }
        let dynamic_base = align_up(shared.len() as u64, 16);
        // Dynamic shared arrays all start where the static ones end.
        for (i, var) in module.vars.iter().enumerate() {
            if matches!(var.space, Space::Shared | Space::SharedCta)
                && var.linkage == ir::Linkage::Extern
                && var.size == 0
            {
                addr[i] = Some(dynamic_base);
            }
        }
        let mut l = Layout {
            module,
            kernel,
            addr,
            kparams,
            constant,
            shared_static: shared,
            dynamic_base,
            local_init: local,
            frame_local,
            frame_init: frames,
        };
        l.relocate(mem, cfg)?;
        Ok(l)
    }

    /// Apply address initializers (`.global .u64 p = x;`).
    fn relocate(&mut self, mem: &mut Memory, cfg: &Launch) -> Result<(), Fault> {
        for (i, var) in self.module.vars.iter().enumerate() {
            let Some(init) = &var.init else { continue };
            for r in &init.relocs {
                let target = match r.target {
                    RelocTarget::Var(v) => {
                        let a = self.var_addr(v)?;
                        if r.generic {
                            self.generic_of(v, a, cfg)
                        } else {
                            a
                        }
                    }
                    RelocTarget::Func(f) => func_address(&cfg.windows, f),
                };
                let v = target.wrapping_add(r.addend as u64);
                let Some(base) = self.addr[i] else { continue };
                let width = u64::from(r.width);
                match var.space {
                    Space::Global => mem.store(base + r.offset, width, u128::from(v))?,
                    Space::Const => crate::memory::store_to(
                        &mut self.constant,
                        "const",
                        base + r.offset,
                        width,
                        u128::from(v),
                    )?,
                    _ => {}
                }
            }
        }
        Ok(())
    }

    pub fn var_addr(&self, v: VarId) -> Result<u64, Fault> {
        self.addr
            .get(v.index())
            .copied()
            .flatten()
            .ok_or_else(|| Fault::Unsupported(format!("the address of `{}`", self.var(v).name)))
    }

    pub fn var(&self, v: VarId) -> &'m ir::Variable {
        &self.module.vars[v.index()]
    }

    /// The generic address of variable `v` whose space address is `a`.
    pub fn generic_of(&self, v: VarId, a: u64, cfg: &Launch) -> u64 {
        match self.var(v).space {
            Space::Shared | Space::SharedCta => cfg.windows.shared + a,
            Space::Local => cfg.windows.local + a,
            Space::Const => cfg.windows.constant + a,
            Space::Param => cfg.windows.param + a,
            _ => a,
        }
    }
}

/// The value a function's address takes (`mov.u64 %rd, f;`): [`crate::Windows::functions`]
/// plus 16 bytes per function index. Only calls through it need to work.
pub(crate) fn func_address(w: &crate::Windows, f: FuncId) -> u64 {
    w.functions + u64::from(f.0) * 16
}

/// The function at address `a`, if it is one.
pub(crate) fn func_at(w: &crate::Windows, a: u64) -> Option<FuncId> {
    let off = a.checked_sub(w.functions)?;
    if !off.is_multiple_of(16) {
        return None;
    }
    u32::try_from(off / 16).ok().map(FuncId)
}
