//! Instructions.

use crate::{Operand, RegId};
use diag::Span;
use isa::{Form, Mods, Opcode, Type, MAX_TYPE_SLOTS};
use smallvec::SmallVec;
use std::mem::ManuallyDrop;
use std::ops::{Deref, DerefMut};

/// One instruction, decoded: the `isa` form it matched, its modifiers as typed values, the
/// types chosen for the form's type slots, and resolved operands.
#[derive(Clone, Debug, PartialEq)]
pub struct Inst {
    /// `@p` / `@!p`.
    pub guard: Option<Guard>,
    /// The opcode (also `form.opcode`; kept here so a consumer's `match` is one load).
    pub op: Opcode,
    /// The table row this instruction matched (syntax line, operand roles, gates, spec link).
    pub form: &'static Form,
    /// The decoded modifiers (`mods.rounding`, `mods.space`, `mods.has(Flag::Sat)`, ...).
    /// `mods.space` is `None` for generic addressing.
    pub mods: Mods,
    /// The type chosen for each type slot of `form`, in slot order (`cvt.f32.u16` →
    /// `[Some(F32), Some(U16), None, None]`); [`Inst::ty`] is the first.
    pub types: [Option<Type>; MAX_TYPE_SLOTS],
    /// Operands, one per entry of `form.operands` (omitted optional operands are
    /// [`Operand::Omitted`](crate::Operand::Omitted)).
    pub operands: Operands,
    /// The whole instruction statement, for `file:line` in run-time errors.
    pub span: Span,
}

impl Inst {
    /// The instruction type: the first type slot (`add.s32` → `S32`).
    pub fn ty(&self) -> Option<Type> {
        self.types[0]
    }
    /// The type of the n-th type slot.
    pub fn type_slot(&self, n: usize) -> Option<Type> {
        self.types.get(n).copied().flatten()
    }
}

/// The operands of one instruction, stored inline up to four (nearly every instruction): one
/// heap allocation per instruction was a large share of checking time. Dereferences to a
/// `SmallVec` and so to `[Operand]`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Operands(ManuallyDrop<SmallVec<[Operand; 4]>>);

impl Operands {
    #[inline]
    pub fn new() -> Self {
        Operands::default()
    }
}

impl Drop for Operands {
    fn drop(&mut self) {
        // Nearly every instruction owns nothing on the heap; skipping the element-by-element
        // drop for those made freeing a module's IR markedly cheaper.
        if self.0.spilled() || self.0.iter().any(Operand::owns_heap) {
            drop(std::mem::take(&mut *self.0));
        }
    }
}

impl Deref for Operands {
    type Target = SmallVec<[Operand; 4]>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for Operands {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl FromIterator<Operand> for Operands {
    fn from_iter<I: IntoIterator<Item = Operand>>(iter: I) -> Self {
        Operands(ManuallyDrop::new(iter.into_iter().collect()))
    }
}

impl<'o> IntoIterator for &'o Operands {
    type Item = &'o Operand;
    type IntoIter = std::slice::Iter<'o, Operand>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'o> IntoIterator for &'o mut Operands {
    type Item = &'o mut Operand;
    type IntoIter = std::slice::IterMut<'o, Operand>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

/// A guard predicate `@p` (`negated: false`) or `@!p` (`negated: true`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    pub reg: RegId,
    pub negated: bool,
}
