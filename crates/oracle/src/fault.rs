//! Why a launch stopped.

use std::fmt;

/// A fault of the reference interpreter. Faults compare by kind only in the differential test
/// (the executor's messages are its own).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The launch itself is malformed (no such kernel, wrong parameters).
    Launch(String),
    /// An instruction form this interpreter does not model (named).
    Unsupported(String),
    /// A memory access outside every allocation of its space.
    OutOfBounds { space: &'static str, addr: u64 },
    /// An access not aligned to its size.
    Misaligned { addr: u64, size: u64 },
    /// `trap`.
    Trap,
    /// A thread ran more than the step budget.
    StepBudget,
    /// No thread can run and no barrier or collective can complete.
    Deadlock(String),
    /// A `.sync` warp collective executed by a thread outside its membermask, or by threads
    /// that give different membermasks (undefined in the spec; a fault here, as on the
    /// executor: docs/spec-notes.md).
    Membermask(String),
    /// `brx.idx` with an index past its target list.
    BranchIndex(u64),
    /// An indirect call to an address that is no function the call may reach.
    BadCallTarget(u64),
    /// A store to a read-only space (kernel parameters, constants).
    ReadOnly { space: &'static str, addr: u64 },
    /// `tex`/`txq` on a texture unit with nothing bound.
    UnboundTexture(u64),
}

impl Fault {
    /// A short name of the kind, for comparing with the executor's fault kinds.
    pub fn kind(&self) -> &'static str {
        match self {
            Fault::Launch(_) => "launch",
            Fault::Unsupported(_) => "unsupported",
            Fault::OutOfBounds { .. } => "out of bounds",
            Fault::Misaligned { .. } => "misaligned",
            Fault::Trap => "trap",
            Fault::StepBudget => "step budget",
            Fault::Deadlock(_) => "deadlock",
            Fault::Membermask(_) => "membermask",
            Fault::BranchIndex(_) => "branch index",
            Fault::UnboundTexture(_) => "unbound texture",
            Fault::ReadOnly { .. } => "read-only",
            Fault::BadCallTarget(_) => "bad call target",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Launch(m) => write!(f, "launch: {m}"),
            Fault::Unsupported(m) => write!(f, "not modelled by the reference interpreter: {m}"),
            Fault::OutOfBounds { space, addr } => {
                write!(f, "{space} access at {addr:#x} is out of bounds")
            }
            Fault::Misaligned { addr, size } => {
                write!(f, "access of {size} bytes at {addr:#x} is misaligned")
            }
            Fault::Trap => write!(f, "trap"),
            Fault::StepBudget => write!(f, "step budget exhausted"),
            Fault::Deadlock(m) => write!(f, "deadlock: {m}"),
            Fault::Membermask(m) => write!(f, "membermask: {m}"),
            Fault::BranchIndex(i) => write!(f, "brx.idx index {i} is past its target list"),
            Fault::UnboundTexture(u) => write!(f, "no texture is bound to unit {u}"),
            Fault::BadCallTarget(a) => {
                write!(f, "indirect call to {a:#x}, which is not a function")
            }
            Fault::ReadOnly { space, addr } => {
                write!(f, "store to read-only {space} address {addr:#x}")
            }
        }
    }
}

pub(crate) fn unsupported(i: &ir::Inst) -> Fault {
    Fault::Unsupported(i.form.syntax.trim_end_matches(';').to_string())
}
