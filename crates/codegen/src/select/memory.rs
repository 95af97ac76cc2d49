//! Loads and stores in every state space: address formation (registers, variables, the
//! parameter and frame windows, 64-bit addressing), access widths, and vectors split into
//! the accesses Fermi has.

use super::*;

/// Where immediate operands of a store or atomic go when the scratch pair R2:R3 is taken
/// (by a `.global` variable's address, or by another immediate): R4:R5, then R6:R7, which
/// `needs_f64_scratch` keeps out of allocation in a body with such an instruction
/// ([`immediates_need_spare_pairs`]).
pub(super) const SPARE_PAIRS: [u8; 2] = [4, 6];

/// Whether `inst` is a store or atomic whose immediate operands may need [`SPARE_PAIRS`]:
/// a 64-bit one beside a variable's address in global or generic space, or an atomic of two
/// immediates (a compare-and-swap).
pub(crate) fn immediates_need_spare_pairs(inst: &Inst) -> bool {
    if !matches!(inst.op, Opcode::St | Opcode::Atom | Opcode::Red) {
        return false;
    }
    let imm = |o: &Operand| match o {
        Operand::Imm(v) => *v != 0,
        Operand::Vector(e) => e.iter().any(|x| matches!(x, Operand::Imm(v) if *v != 0)),
        _ => false,
    };
    let at_variable = inst
        .operands
        .iter()
        .any(|o| matches!(o, Operand::Address(a) if matches!(a.base, AddrBase::Var(_))))
        && matches!(inst.mods.space, None | Some(Space::Global));
    let immediates = inst.operands.iter().filter(|o| imm(o)).count();
    let wide = inst.ty().is_some_and(|t| bits(t) == 64);
    // A 32-bit value goes to R0, clear of the pair; only a store's one value never needs two.
    (wide && at_variable && immediates > 0) || (inst.op != Opcode::St && immediates > 1)
}

impl Selector<'_> {
    /// `[base+offset]` as a Fermi address: (register text, offset).
    pub(super) fn address(&mut self, a: &Address, space: Option<Space>) -> R<(String, i64)> {
        match a.base {
            AddrBase::Reg(r) => {
                let window = matches!(
                    space,
                    Some(Space::Shared | Space::SharedCta | Space::Local | Space::Const)
                );
                let text = if self.a64 && !window {
                    self.pair(r)?.0
                } else {
                    match self.loc(r)? {
                        Loc::Gpr(n) => format!("R{n}"),
                        Loc::Pair(n) => format!("R{n}"),
                        Loc::Pred(_) => return Err("a predicate address".into()),
                    }
                };
                Ok((text, a.offset))
            }
            AddrBase::Var(v)
                if space == Some(Space::Local) && self.frame_locals.contains_key(&v) =>
            {
                let at = self.frame_locals.get(&v).copied().unwrap_or(0);
                Ok(("R1".into(), at + a.offset))
            }
            AddrBase::Var(v)
                if matches!(space, Some(Space::Global) | None) && self.globals.contains_key(&v) =>
            {
                // The variable's address in the scratch register (pair), the offset folded
                // into the relocation's addend.
                let lo = format!("R{SCRATCH_PAIR}");
                let hi = format!("R{}", SCRATCH_PAIR + 1);
                let hi = self.a64.then_some(hi.as_str());
                self.global_address("", v, a.offset, &lo, hi);
                Ok((lo, 0))
            }
            AddrBase::Var(v) => {
                let window = match space {
                    Some(Space::Shared | Space::SharedCta) => &self.shared,
                    Some(Space::Local) => &self.local,
                    Some(Space::Const) => &self.consts,
                    _ => return Err("addressing this variable (a .global one whose initializer holds addresses, or one of another space) has no selection rule yet".into()),
                };
                match window.get(&v) {
                    Some(off) => Ok(("RZ".into(), i64::from(*off) + a.offset)),
                    None => Err("this variable has no place in the space the access names (a .const bank other than 0, an initializer holding addresses, or a variable of another space)".into()),
                }
            }
            // An absolute address is the address itself (`[RZ+a]`), in the spaces whose
            // addresses both executors take as raw ones: global, generic, and shared window
            // offsets. Local and constant addresses are offsets into areas the translation
            // lays out itself (spills, frames, the c[0x2] bank), so they stay refused.
            AddrBase::Absolute => match space {
                None | Some(Space::Global | Space::Shared | Space::SharedCta)
                    if (0..=0x7fff_ffff).contains(&a.offset) =>
                {
                    Ok(("RZ".into(), a.offset))
                }
                None | Some(Space::Global | Space::Shared | Space::SharedCta) => {
                    Err("an absolute address past 31 bits".into())
                }
                _ => Err(
                    "an absolute address in this space (the translation lays out its \
                          local and constant memory itself)"
                        .into(),
                ),
            },
        }
    }

    /// `MOV32I`s of a module `.global` variable's address plus `addend` into `lo` (and `hi`
    /// for a 64-bit address), each carrying the relocation that gives it its value at load:
    /// `R_CUDA_ABS32_LO_26`/`HI_26` in 64-bit code, `R_CUDA_ABS32_26` in 32-bit code.
    pub(super) fn global_address(
        &mut self,
        g: &str,
        var: VarId,
        addend: i64,
        lo: &str,
        hi: Option<&str>,
    ) {
        let index = self.globals.get(&var).copied().unwrap_or(0);
        let kind = if self.a64 { "lo" } else { "abs" };
        self.emit(
            g,
            format!("MOV32I {lo}, 0x0;{RELOC_MARK}{kind} {index} {addend}"),
        );
        if let Some(hi) = hi {
            if self.a64 {
                self.emit(
                    g,
                    format!("MOV32I {hi}, 0x0;{RELOC_MARK}hi {index} {addend}"),
                );
            } else {
                // A 32-bit address zero-extended.
                self.emit(g, format!("MOV {hi}, RZ;"));
            }
        }
    }

    pub(super) fn access(ty: Type) -> R<&'static str> {
        Ok(match ty {
            Type::U8 => ".U8",
            Type::S8 => ".S8",
            Type::U16 => ".U16",
            Type::S16 => ".S16",
            t if bits(t) == 32 => "",
            t if bits(t) == 64 => ".64",
            Type::B8 => ".U8",
            Type::B16 => ".U16",
            _ => return Err("this access size has no selection rule yet".into()),
        })
    }

    /// A vector access as one scalar access per element at consecutive offsets (the elements
    /// live in unrelated registers here, so `.64`/`.128` forms cannot be used).
    pub(super) fn split_vector(&mut self, inst: &Inst, g: &str, ty: Type, load: bool) -> R<()> {
        let (vi, ai) = if load { (0, 1) } else { (1, 0) };
        let Operand::Vector(elems) = Self::opnd(inst, vi)? else {
            return Err("unexpected vector operand".into());
        };
        let Operand::Address(addr) = Self::opnd(inst, ai)? else {
            return Err("unexpected address operand".into());
        };
        let size = i64::from(bits(ty) / 8);
        for (i, e) in elems.iter().enumerate() {
            if matches!(e, Operand::Sink) {
                continue;
            }
            let mut one = inst.clone();
            one.mods.vec = None;
            let a = Address {
                base: addr.base,
                offset: addr.offset + size * i as i64,
            };
            let mut ops = [Operand::Omitted, Operand::Omitted];
            ops[vi] = e.clone();
            ops[ai] = Operand::Address(a);
            one.operands = ops.into_iter().collect();
            if load {
                self.ld(&one, g, ty)?;
            } else {
                self.st(&one, g, ty)?;
            }
        }
        Ok(())
    }

    pub(super) fn ld(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        if inst.mods.vec.is_some() {
            return self.split_vector(inst, g, ty, true);
        }
        let d = self.dst(inst)?;
        if self.folded.contains_key(&d) {
            return Ok(());
        }
        let Operand::Address(addr) = Self::opnd(inst, 1)? else {
            return Err("unexpected address operand".into());
        };
        let space = inst.mods.space;
        let wide = matches!(self.loc(d)?, Loc::Pair(_));
        let (dl, dh) = match self.loc(d)? {
            Loc::Pair(n) => (format!("R{n}"), format!("R{}", n + 1)),
            Loc::Gpr(n) => (format!("R{n}"), String::new()),
            Loc::Pred(_) => return Err("a predicate destination".into()),
        };
        if let Some(at) = self.stack_slot(addr, space) {
            let acc = Self::access(ty)?;
            self.emit(g, format!("LDL{acc} {dl}, [R1+{}];", hex(at)));
            return Ok(());
        }
        if let (AddrBase::Reg(r), Some(Space::Param | Space::ParamEntry | Space::ParamFunc)) =
            (addr.base, space)
        {
            return self.kernel_param_through_register(g, ty, r, addr.offset, (&dl, &dh), wide);
        }
        if matches!(space, Some(Space::Param | Space::ParamEntry)) {
            let AddrBase::Var(v) = addr.base else {
                return Err("a parameter load at an absolute address".into());
            };
            let off = *self
                .params
                .get(&v)
                .ok_or("not a kernel parameter of this entry")?;
            let at = 0x20 + i64::from(off) + addr.offset;
            if matches!(bits(ty), 8 | 16) {
                // LDC's sub-word sizes extend by the type's signedness (a wider destination
                // takes the extension's sign or zero high word); a `MOV` of the containing
                // word could read past the parameters' end.
                let acc = Self::access(ty)?;
                self.emit(g, format!("LDC{acc} {dl}, c [0x0] [RZ+{}];", hex(at)));
                if wide {
                    match is_signed(ty) {
                        true => self.emit(g, format!("SHR {dh}, {dl}, 0x1f;")),
                        false => self.emit(g, format!("MOV {dh}, RZ;")),
                    }
                }
                return Ok(());
            }
            self.emit(g, format!("MOV {dl}, c [0x0] [{}];", hex(at)));
            if wide {
                self.emit(g, format!("MOV {dh}, c [0x0] [{}];", hex(at + 4)));
            }
            return Ok(());
        }
        let acc = Self::access(ty)?;
        let (base, off) = self.address(addr, space)?;
        if space == Some(Space::Const) {
            // `__constant__` data in c[0x2]; LDC takes the window offset in a register and an
            // unsigned immediate: a negative offset is added to the register first.
            let (base, off) = if (-0xffff..0).contains(&off) && base != "RZ" {
                self.emit(g, format!("IADD R{SCRATCH}, {base}, {};", hex(off)));
                (format!("R{SCRATCH}"), 0)
            } else {
                (base, off)
            };
            if !(0..0x10000).contains(&off) {
                return Err("a constant offset outside the 64 KiB bank".into());
            }
            self.emit(g, format!("LDC{acc} {dl}, c [0x2] [{base}+{}];", hex(off)));
            return Ok(());
        }
        let off = hex(off);
        let op = self.mem_op(space, true)?;
        let cache = if matches!(space, None | Some(Space::Global)) {
            load_cache(inst.mods.sem, inst.mods.scope)
        } else {
            ""
        };
        self.emit(g, format!("{op}{cache}{acc} {dl}, [{base}+{off}];"));
        Ok(())
    }

    /// Whether a store (not to a call's argument, which `stack_slot` places) writes the
    /// kernel's parameters: in an entry, `.param` addresses in registers and kernel
    /// parameter variables are the parameter buffer, which the PTX executor holds read-only
    /// (a store there faults; docs/spec-notes.md, "Generic addresses of `.param`").
    fn stores_to_kernel_parameters(&self, a: &Address, space: Option<Space>) -> bool {
        self.epilogue.is_none()
            && matches!(
                space,
                Some(Space::Param | Space::ParamEntry | Space::ParamFunc)
            )
            && match a.base {
                AddrBase::Reg(_) => true,
                AddrBase::Var(v) => self.params.contains_key(&v),
                AddrBase::Absolute => false,
            }
    }

    /// A load from the kernel's parameters at an address in a register (`mov.u64 %rd, p`
    /// gives a parameter's offset in the parameter buffer, as on the PTX executor, which
    /// reads `.param`, `.param::entry` and `.param::func` addresses of an entry there):
    /// `LDC c[0x0][R+0x20+offset]`, the low word of a 64-bit address being the offset. In a
    /// `.func` the parameter spaces are the frame, and a register address there is refused.
    fn kernel_param_through_register(
        &mut self,
        g: &str,
        ty: Type,
        r: RegId,
        offset: i64,
        (dl, dh): (&str, &str),
        wide: bool,
    ) -> R<()> {
        if self.epilogue.is_some() {
            return Err("a .func parameter load through a register".into());
        }
        let base = match self.loc(r)? {
            Loc::Gpr(n) | Loc::Pair(n) => format!("R{n}"),
            Loc::Pred(_) => return Err("a predicate address".into()),
        };
        let at = 0x20 + offset;
        if !(0..0x10000).contains(&at) {
            return Err("a parameter offset outside the 64 KiB bank".into());
        }
        let acc = Self::access(ty)?;
        self.emit(g, format!("LDC{acc} {dl}, c [0x0] [{base}+{}];", hex(at)));
        if wide && bits(ty) < 64 {
            match is_signed(ty) {
                true => self.emit(g, format!("SHR {dh}, {dl}, 0x1f;")),
                false => self.emit(g, format!("MOV {dh}, RZ;")),
            }
        }
        Ok(())
    }

    /// `ld`/`st` with semantics: `ld.acquire` is the load then `MEMBAR`, `st.release`
    /// `MEMBAR` then the store, at the scope's level (`atomic::fences`).
    pub(super) fn ordered_access(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        let (before, after, level) = super::atomic::fences(inst.mods.sem, inst.mods.scope)?;
        if before {
            self.emit(g, format!("MEMBAR.{level};"));
        }
        if inst.op == ir::Opcode::St {
            self.st(inst, g, ty)?;
        } else {
            self.ld(inst, g, ty)?;
        }
        if after {
            self.emit(g, format!("MEMBAR.{level};"));
        }
        Ok(())
    }

    /// The load or store mnemonic for `space`: `LD`/`ST` (`.E` with 64-bit addresses) for global
    /// and generic addresses, `LDS`/`STS` for shared memory.
    pub(super) fn mem_op(&self, space: Option<Space>, load: bool) -> R<String> {
        match space {
            None | Some(Space::Global) => Ok(format!(
                "{}{}",
                if load { "LD" } else { "ST" },
                if self.a64 { ".E" } else { "" }
            )),
            Some(Space::Shared | Space::SharedCta) => Ok(if load { "LDS" } else { "STS" }.into()),
            Some(Space::Local) => Ok(if load { "LDL" } else { "STL" }.into()),
            Some(s) => Err(format!(
                "{} {} have no selection rule yet",
                if load { "loads from" } else { "stores to" },
                s.spelling()
            )),
        }
    }

    /// Whether `address` puts its base in the scratch pair R2:R3 (a module `.global`
    /// variable's relocated address), where a 64-bit immediate operand would go too.
    pub(super) fn address_in_scratch_pair(&self, a: &Address, space: Option<Space>) -> bool {
        matches!(a.base, AddrBase::Var(v) if matches!(space, Some(Space::Global) | None)
            && self.globals.contains_key(&v))
    }

    /// A 64-bit immediate as the even register of a pair a 64-bit store or atomic reads:
    /// `RZ` for zero, else both halves in the pair from R`at` (the scratch pair R2:R3, or a
    /// spare one) (`MOV32I`, or `MOV ..., RZ`
    /// for a zero half: a pair operand names its even register, so `RZ` cannot stand for
    /// one half alone).
    pub(super) fn imm_pair(&mut self, v: u64, g: &str, at: u8) -> String {
        if v == 0 {
            return "RZ".into();
        }
        for (n, x) in [(at, v as u32), (at + 1, (v >> 32) as u32)] {
            if x == 0 {
                self.emit(g, format!("MOV R{n}, RZ;"));
            } else {
                self.emit(g, format!("MOV32I R{n}, {};", hex(i64::from(x as i32))));
            }
        }
        format!("R{at}")
    }

    pub(super) fn st(&mut self, inst: &Inst, g: &str, ty: Type) -> R<()> {
        if inst.mods.vec.is_some() {
            return self.split_vector(inst, g, ty, false);
        }
        let Operand::Address(addr) = Self::opnd(inst, 0)? else {
            return Err("unexpected address operand".into());
        };
        let v = match Self::opnd(inst, 1)? {
            Operand::Reg(r) => match self.loc(*r)? {
                Loc::Pair(n) | Loc::Gpr(n) => format!("R{n}"),
                Loc::Pred(_) => return Err("a predicate value".into()),
            },
            other if bits(ty) <= 32 => self.reg32(other, g, SCRATCH)?,
            Operand::Imm(v) => {
                let at = if self.address_in_scratch_pair(addr, inst.mods.space) {
                    SPARE_PAIRS[0]
                } else {
                    SCRATCH_PAIR
                };
                self.imm_pair(*v, g, at)
            }
            _ => return Err("unsupported stored value".into()),
        };
        let space = inst.mods.space;
        let acc = Self::access(ty)?;
        if let Some(at) = self.stack_slot(addr, space) {
            self.emit(g, format!("STL{acc} [R1+{}], {v};", hex(at)));
            return Ok(());
        }
        if self.stores_to_kernel_parameters(addr, space) {
            // Kernel parameters are read-only: the PTX executor faults on the store.
            return self.trap(g);
        }
        let (base, off) = self.address(addr, space)?;
        let off = hex(off);
        let op = self.mem_op(space, false)?;
        self.emit(g, format!("{op}{acc} [{base}+{off}], {v};"));
        Ok(())
    }
}

/// The cache operation of a global load with semantics: Fermi's L1 is private to an SM and
/// not coherent, so a load that must see other SMs' writes (`.relaxed`/`.acquire` at `.gpu`
/// or `.cluster` scope) reads at the L2 (`.CG`, PTX's `.cg` "cache at global level"), and a
/// `.sys`-scope or `.volatile` one fetches again (`.CV`, PTX's `.cv` "don't cache and fetch
/// again"); `.cta` scope is one SM, where L1 serves (docs/spec-notes.md, "forms round s24").
fn load_cache(sem: Option<isa::Sem>, scope: Option<isa::Scope>) -> &'static str {
    use isa::{Scope, Sem};
    match (sem, scope) {
        (Some(Sem::Volatile), _) | (Some(Sem::Relaxed | Sem::Acquire), Some(Scope::Sys)) => ".CV",
        (Some(Sem::Relaxed | Sem::Acquire), Some(Scope::Cta)) => "",
        (Some(Sem::Relaxed | Sem::Acquire), _) => ".CG",
        _ => "",
    }
}
