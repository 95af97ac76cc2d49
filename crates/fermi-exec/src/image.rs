//! A kernel ready to run: its words decoded once, its constant banks' static parts, and the
//! sizes the cubin gives (shared, local, stack, registers).

use fermi::cubin::{AddressSize, Kernel, Module};
use fermi::isa::{decode, disassemble_word, Inst, Kind, Operand};

/// Bytes of the per-thread stack ptxvm gives a kernel beyond what its cubin asks for
/// (`EIATTR_MIN_STACK_SIZE`); the driver's default is of this order, and NVIDIA's code reads
/// the stack top from `c[0x1][0x100]` rather than assuming a size.
pub const EXTRA_STACK_BYTES: u32 = 1024;

/// An instruction decoded once at load, with its modifiers already spelled: the executor asks
/// "does it carry `.X`?" or "what is its rounding?" per instruction (and used to per lane),
/// and looking spellings up in the row's tables each time cost about a quarter of the run.
#[derive(Clone, Copy, Debug)]
pub struct Decoded {
    pub inst: Inst,
    /// `(what the group is, its spelling)` for each modifier group of the row, `""` for a
    /// default value (an empty spelling).
    groups: [(&'static str, &'static str); 6],
    /// The non-empty spellings, `.S` last when set (as `Inst::modifiers`).
    spelled: [&'static str; 7],
    n_spelled: u8,
    /// The condition-code test of a branch-like row (`BRA CC.LT`: 1), `None` for rows without
    /// one; `CC.T` (15) is "always".
    pub cc: Option<u8>,
}

impl Decoded {
    pub fn new(inst: Inst) -> Decoded {
        let mut groups = [("", ""); 6];
        for (slot, (m, &v)) in groups
            .iter_mut()
            .zip(inst.row.mods.iter().zip(inst.mods.iter()))
        {
            let name = m
                .names
                .iter()
                .find(|(k, _)| *k == v)
                .map_or("", |(_, n)| *n);
            *slot = (m.what, name);
        }
        let mut spelled = [""; 7];
        let mut n = 0u8;
        for (slot, name) in spelled.iter_mut().zip(inst.modifiers()) {
            *slot = name;
            n += 1;
        }
        // The row's operand printed through the condition-code names holds the test.
        let cc = inst
            .row
            .operands
            .iter()
            .zip(inst.operands.iter())
            .find_map(|(o, v)| match (o.kind, v) {
                (Kind::Named { names, .. }, Operand::Imm(c))
                    if names == fermi::isa::mods::CC_NAMES =>
                {
                    u8::try_from(*c).ok()
                }
                _ => None,
            });
        Decoded {
            inst,
            groups,
            spelled,
            n_spelled: n,
            cc,
        }
    }

    /// The spelled modifiers in print order (`Inst::modifiers`).
    #[inline]
    pub fn spelled(&self) -> &[&'static str] {
        self.spelled
            .get(..usize::from(self.n_spelled))
            .unwrap_or(&self.spelled)
    }

    /// The spelling of the modifier group described as `what` (`""` for the default), or
    /// `None` if the row has no such group.
    #[inline]
    pub fn mod_named(&self, what: &str) -> Option<&'static str> {
        let n = self.inst.row.mods.len().min(self.groups.len());
        self.groups
            .get(..n)
            .unwrap_or(&self.groups)
            .iter()
            .find(|(w, _)| *w == what)
            .map(|(_, s)| *s)
    }
}

impl std::ops::Deref for Decoded {
    type Target = Inst;
    fn deref(&self) -> &Inst {
        &self.inst
    }
}

/// One decoded kernel.
pub struct Image {
    pub kernel: Kernel,
    /// Instruction at byte address `8 * i`, or the decode error's message.
    pub insts: Vec<Result<Decoded, String>>,
    /// `-m64` code: pointers are 8 bytes and `.E` addresses are register pairs.
    pub addr64: bool,
    /// `c[0x2]`, the module's constant data.
    pub constant2: Vec<u8>,
    /// Every other bank the cubin gives, indexed by bank number (`c[0x10]` the kernel's
    /// compiler constants, `c[0xe]` the module's global addresses); empty when absent.
    pub banks: Vec<Vec<u8>>,
}

impl Image {
    /// The kernel named `name` (or the only one) of `module`.
    pub fn load(module: &Module, name: Option<&str>) -> Result<Image, String> {
        let kernel = match name {
            Some(n) => module
                .kernels
                .iter()
                .find(|k| k.name == n)
                .ok_or_else(|| format!("kernel: no kernel named `{n}` in the cubin"))?,
            None => match module.kernels.as_slice() {
                [one] => one,
                [] => return Err("the cubin has no kernel".into()),
                many => {
                    let names: Vec<&str> = many.iter().map(|k| k.name.as_str()).collect();
                    return Err(format!(
                        "the cubin has {} kernels ({}); name one with \"kernel\"",
                        names.len(),
                        names.join(", ")
                    ));
                }
            },
        };
        let insts = kernel
            .code
            .iter()
            .map(|&w| decode(w).map(Decoded::new).map_err(|e| e.to_string()))
            .collect();
        let mut banks = vec![Vec::new(); usize::from(fermi::cubin::CONSTANT_BANKS)];
        // The kernel's own bank wins over a module bank of the same number.
        for (bank, data) in module.constants.iter().chain(&kernel.constants) {
            if let Some(slot) = banks.get_mut(usize::from(*bank)) {
                slot.clone_from(data);
            }
        }
        Ok(Image {
            kernel: kernel.clone(),
            banks,
            insts,
            addr64: module.address_size == AddressSize::Bits64,
            constant2: module.constant2.clone(),
        })
    }

    /// Applies the kernel's relocations, as the driver does at load time: each names a
    /// module variable, whose device address `addr_of` gives, and patches the instruction
    /// word's field (the cubin crate's [`fermi::cubin::RelocKind::apply`]).
    pub fn relocate(&mut self, addr_of: &dyn Fn(&str) -> Option<u64>) -> Result<(), String> {
        for r in &self.kernel.relocs {
            let base = addr_of(&r.symbol)
                .ok_or_else(|| format!("relocation against unknown symbol `{}`", r.symbol))?;
            let at = (r.offset / 8) as usize;
            let Some(word) = self.kernel.code.get_mut(at) else {
                return Err(format!("relocation at byte {} outside the code", r.offset));
            };
            *word = r.kind.apply(*word, base.wrapping_add(r.addend as u64));
            if let Some(slot) = self.insts.get_mut(at) {
                *slot = decode(*word).map(Decoded::new).map_err(|e| e.to_string());
            }
        }
        Ok(())
    }

    /// cuobjdump's text of the instruction at byte address `pc` (for fault reports).
    pub fn text(&self, pc: u64) -> String {
        let word = usize::try_from(pc / 8)
            .ok()
            .and_then(|i| self.kernel.code.get(i));
        match word {
            Some(&w) => disassemble_word(w, pc),
            None => "<outside the code>".to_string(),
        }
    }

    /// Per-thread local memory: the kernel's own plus its stack. `c[0x1][0x100]` holds this
    /// size, the initial stack pointer (the stack grows down from the window's top).
    pub fn local_bytes(&self) -> u64 {
        let k = &self.kernel;
        (u64::from(k.local_size)
            + u64::from(k.min_stack_size)
            + u64::from(k.frame_size)
            + u64::from(EXTRA_STACK_BYTES))
        .next_multiple_of(16)
    }
}
