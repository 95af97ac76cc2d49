//! Faults and launch errors of the Fermi executor: values, never panics.

use std::fmt;

/// The memory a faulting access went to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Local,
    Constant { bank: u8 },
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Space::Global => f.write_str("global"),
            Space::Shared => f.write_str("shared"),
            Space::Local => f.write_str("local"),
            Space::Constant { bank } => write!(f, "constant bank c[{bank:#x}]"),
        }
    }
}

/// What went wrong inside a kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// An access outside every allocation of its space.
    OutOfBounds { space: Space, addr: u64, size: u32 },
    /// An access whose address is not a multiple of its size.
    Misaligned { space: Space, addr: u64, size: u32 },
    /// `BPT.TRAP` (or another breakpoint) executed.
    Trap { what: String },
    /// The warp broke the reconvergence-stack discipline the compiler relies on.
    Discipline(String),
    /// The warp ran more than `max_steps` instructions.
    StepBudget { max_steps: u64 },
    /// A word that does not decode, or an instruction or form this executor does not run.
    Unsupported(String),
    /// Execution left the kernel's code.
    PcOutOfRange { pc: u64 },
    /// `TEX`/`TLD`/`TXQ` on a texture unit the launch spec binds nothing to.
    UnboundTexture { unit: u32 },
    /// Every warp that has not exited waits at a barrier that can no longer complete (a
    /// partial-CTA `BAR` whose thread count more threads than can still arrive).
    BarrierDeadlock {
        barrier: u8,
        arrived: u32,
        expected: u32,
    },
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultKind::OutOfBounds { space, addr, size } => {
                write!(
                    f,
                    "out-of-bounds {size}-byte access to {space} address {addr:#x}"
                )
            }
            FaultKind::Misaligned { space, addr, size } => {
                write!(
                    f,
                    "misaligned {size}-byte access to {space} address {addr:#x}"
                )
            }
            FaultKind::Trap { what } => write!(f, "{what} executed"),
            FaultKind::Discipline(why) => write!(f, "reconvergence discipline violated: {why}"),
            FaultKind::StepBudget { max_steps } => {
                write!(
                    f,
                    "step budget of {max_steps} instructions per warp exceeded"
                )
            }
            FaultKind::Unsupported(why) => write!(f, "cannot execute: {why}"),
            FaultKind::UnboundTexture { unit } => {
                write!(
                    f,
                    "texture unit {unit} has no texture bound (launch spec \"textures\")"
                )
            }
            FaultKind::PcOutOfRange { pc } => {
                write!(f, "execution left the kernel's code at address {pc:#x}")
            }
            FaultKind::BarrierDeadlock {
                barrier,
                arrived,
                expected,
            } => write!(
                f,
                "barrier deadlock: barrier {barrier} waits for {expected} threads, {arrived} \
                 arrived and no other warp can run"
            ),
        }
    }
}

/// A fault with where it happened: kernel, SASS address and text, thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kernel: String,
    /// Byte address of the faulting instruction within the kernel's code.
    pub pc: u64,
    /// Its cuobjdump text (`LD R7, [R6];`), or `INVALID 0x…;` for a word that does not decode.
    pub text: String,
    pub ctaid: [u32; 3],
    pub tid: [u32; 3],
    pub kind: FaultKind,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [cx, cy, cz] = self.ctaid;
        let [tx, ty, tz] = self.tid;
        write!(
            f,
            "kernel `{}` faulted at /*{:04x}*/ `{}` in thread ctaid=({cx},{cy},{cz}) tid=({tx},{ty},{tz}): {}",
            self.kernel, self.pc, self.text, self.kind
        )
    }
}

/// Why a cubin launch did not succeed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// The kernel faulted (exit code 3).
    Fault(Box<Fault>),
    /// The launch does not fit the kernel: unknown kernel, wrong parameters, bad sizes (exit 2).
    Launch(String),
    /// The bytes are not a cubin this executor can load (exit code 1).
    Cubin(String),
}

impl RunError {
    /// The process exit code the CLI uses for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::Fault(_) => 3,
            RunError::Launch(_) => 2,
            RunError::Cubin(_) => 1,
        }
    }
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            RunError::Fault(f) => Some(f),
            _ => None,
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Fault(x) => x.fmt(f),
            RunError::Launch(m) => write!(f, "launch error: {m}"),
            RunError::Cubin(m) => write!(f, "invalid cubin: {m}"),
        }
    }
}

impl std::error::Error for RunError {}

/// A fault inside one warp step, before it is placed: the lane it concerns (if one) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneFault {
    pub lane: Option<u32>,
    pub kind: FaultKind,
}

impl LaneFault {
    pub fn at(lane: u32, kind: FaultKind) -> LaneFault {
        LaneFault {
            lane: Some(lane),
            kind,
        }
    }
    pub fn warp(kind: FaultKind) -> LaneFault {
        LaneFault { lane: None, kind }
    }
}

impl From<FaultKind> for LaneFault {
    fn from(kind: FaultKind) -> LaneFault {
        LaneFault::warp(kind)
    }
}
