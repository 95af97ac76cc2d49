//! Faults and launch errors: values, never panics.

use crate::program::Space;
use std::fmt;

/// What went wrong inside a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An access outside every allocation of its space.
    OutOfBounds { space: Space, addr: u64, size: u32 },
    /// An access whose address is not a multiple of its size.
    Misaligned { space: Space, addr: u64, size: u32 },
    /// A store to a read-only space.
    ReadOnly { space: Space, addr: u64 },
    /// The `trap` instruction.
    Trap,
    /// Every live warp of the CTA waits at a barrier that can never complete.
    BarrierDeadlock {
        barrier: u32,
        /// Each waiting warp: where and on what it waits.
        waiters: Vec<BarrierWaiter>,
    },
    /// The launch ran past its wall-clock limit (`--timeout`); the thread named is where one
    /// warp was when it stopped.
    Timeout { millis: u64 },
    /// The warp ran more than `max_steps` instructions.
    StepBudget { max_steps: u64 },
    /// Calls nested deeper than the per-thread stack allows.
    StackOverflow,
    /// The warp loops with nothing able to change what it reads (`spin.rs`): a hang.
    Spin,
    /// An indirect call through a value that is not the address of a matching function.
    BadCallTarget { addr: u64 },
    /// An indirect call with a target list (`.calltargets` or a call table) through a
    /// pointer to none of the listed functions.
    UnlistedCallTarget { addr: u64 },
    /// `brx.idx` with an index past the end of its `.branchtargets` list.
    BranchIndex { index: u32, len: u32 },
    /// A texture instruction referenced a texture that was not bound at launch.
    UnboundTexture { tex: u64 },
    /// A warp-synchronous instruction (`vote.sync`, `shfl.sync`, `redux.sync`, `match.sync`,
    /// `bar.warp.sync`) whose membermask the executing threads do not satisfy (undefined
    /// behaviour in the spec).
    Membermask {
        inst: &'static str,
        mask: u32,
        problem: MemberProblem,
    },
}

/// A warp waiting at a barrier, for deadlock reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarrierWaiter {
    /// Index of the warp in its CTA.
    pub warp: u32,
    /// `tid` of its first waiting thread, and how many of its threads wait.
    pub first_tid: [u32; 3],
    pub threads: u32,
    /// PTX line of the barrier instruction it waits at.
    pub line: u32,
    pub barrier: u32,
}

/// How a membermask was violated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberProblem {
    /// The executing thread is not in its own membermask.
    NotAMember,
    /// This lane, named in the membermask (and not exited), does not execute the instruction
    /// together with the thread (diverged or predicated off).
    Absent { lane: u32 },
    /// Threads executing the instruction together give different membermasks.
    Differs { other: u32 },
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::OutOfBounds { space, addr, size } => write!(
                f,
                "out-of-bounds {size}-byte access to {} address {addr:#x}",
                space.name()
            ),
            FaultKind::Misaligned { space, addr, size } => write!(
                f,
                "misaligned {size}-byte access to {} address {addr:#x}",
                space.name()
            ),
            FaultKind::ReadOnly { space, addr } => {
                write!(f, "store to read-only {} address {addr:#x}", space.name())
            }
            FaultKind::Trap => write!(f, "trap instruction executed"),
            FaultKind::BarrierDeadlock { barrier, waiters } => {
                write!(
                    f,
                    "barrier {barrier} can never complete: every live warp of the CTA is waiting"
                )?;
                const SHOWN: usize = 8;
                for (i, w) in waiters.iter().take(SHOWN).enumerate() {
                    let [x, y, z] = w.first_tid;
                    write!(
                        f,
                        "{} warp {} ({} threads from tid=({x},{y},{z})) at line {} on barrier {}",
                        if i == 0 { ":" } else { ";" },
                        w.warp,
                        w.threads,
                        w.line,
                        w.barrier
                    )?;
                }
                if waiters.len() > SHOWN {
                    write!(f, "; and {} more warps", waiters.len() - SHOWN)?;
                }
                Ok(())
            }
            FaultKind::Timeout { millis } => write!(
                f,
                "the launch ran past its time limit of {:.3} s (--timeout); this thread was \
                 running here",
                *millis as f64 / 1000.0
            ),
            FaultKind::StepBudget { max_steps } => {
                write!(
                    f,
                    "step budget of {max_steps} instructions per warp exceeded"
                )
            }
            FaultKind::StackOverflow => write!(f, "call stack overflow"),
            FaultKind::Spin => write!(
                f,
                "hang: the warp spins in a loop that nothing can end (no other warp of the \
                 CTA can run, the warp writes no memory and its registers repeat; the \
                 thread shown is where the loop restarts)"
            ),
            FaultKind::BadCallTarget { addr } => {
                write!(f, "indirect call to {addr:#x}, which is not a function of this module with the call's signature")
            }
            FaultKind::UnlistedCallTarget { addr } => write!(
                f,
                "indirect call to {addr:#x}, which is not a function of the call's target list defined in this module"
            ),
            FaultKind::BranchIndex { index, len } => write!(
                f,
                "brx.idx index {index} is past the end of its {len}-label .branchtargets list"
            ),
            FaultKind::UnboundTexture { tex } => write!(f, "texture {tex} is not bound"),
            FaultKind::Membermask {
                inst,
                mask,
                problem,
            } => match problem {
                MemberProblem::NotAMember => write!(
                    f,
                    "`{inst}` executed by a thread that is not in its membermask {mask:#010x}"
                ),
                MemberProblem::Absent { lane } => write!(
                    f,
                    "`{inst}` with membermask {mask:#010x}: lane {lane} is named but does not \
                     execute the instruction with this thread (diverged or predicated off)"
                ),
                MemberProblem::Differs { other } => write!(
                    f,
                    "`{inst}`: threads executing it together give different membermasks \
                     ({mask:#010x} here, {other:#010x} in a lower lane)"
                ),
            },
        }
    }
}

/// Whether a faulting memory instruction read or wrote (atomics do both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    ReadWrite,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::Read => "read",
            Access::Write => "write",
            Access::ReadWrite => "read-write",
        }
    }
}

impl FaultKind {
    /// The address and state space of a memory fault.
    pub fn location(&self) -> Option<(u64, Space)> {
        match *self {
            FaultKind::OutOfBounds { space, addr, .. }
            | FaultKind::Misaligned { space, addr, .. }
            | FaultKind::ReadOnly { space, addr } => Some((addr, space)),
            _ => None,
        }
    }
}

/// A fault with where it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kernel: String,
    pub file: String,
    /// 1-based PTX source line of the faulting instruction (0 when unknown).
    pub line: u32,
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
    pub kind: FaultKind,
    /// For a memory fault: whether the instruction reads or writes.
    pub access: Option<Access>,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [cx, cy, cz] = self.ctaid;
        let [tx, ty, tz] = self.tid;
        write!(
            f,
            "kernel `{}` faulted at {}:{} in thread ctaid=({cx},{cy},{cz}) tid=({tx},{ty},{tz}): {}",
            self.kernel, self.file, self.line, self.kind
        )
    }
}

/// Why a launch did not succeed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The kernel faulted (exit code 3).
    Fault(Box<Fault>),
    /// The launch itself is malformed: unknown kernel, wrong parameters, bad sizes (exit code 2).
    Launch(String),
    /// The module uses something the executor cannot run (exit code 1).
    Load(LoadError),
}

impl ExecError {
    /// The process exit code the CLI uses for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            ExecError::Fault(_) => 3,
            ExecError::Launch(_) => 2,
            ExecError::Load(_) => 1,
        }
    }
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            ExecError::Fault(f) => Some(f),
            _ => None,
        }
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Fault(x) => x.fmt(f),
            ExecError::Launch(m) => write!(f, "launch error: {m}"),
            ExecError::Load(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ExecError {}

/// An instruction or feature the loader cannot run, with its source location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub line: u32,
    pub span: diag::Span,
    pub message: String,
}

impl LoadError {
    pub fn to_diagnostic(&self) -> diag::Diagnostic {
        diag::Diagnostic::error(self.span, self.message.clone())
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: error: {}", self.file, self.line, self.message)
    }
}

impl std::error::Error for LoadError {}
