//! Warp state and SIMT scheduling.
//!
//! Divergence uses per-thread PCs with min-PC scheduling: the lanes at the lowest PC run
//! together (`active`), the others wait with their own PC (`lane_pc`). Lanes meet again when
//! the running group reaches a waiting lane's PC, which is the immediate post-dominator for
//! the forward branches and loops compilers emit, and it needs no analysis at load time. The
//! common converged case costs one comparison per instruction (`pc >= min_wait`).

use crate::error::FaultKind;
use crate::lanes::{Row32, Row64, LANES};
use crate::memory::GlobalMemory;
use crate::program::{KernelInfo, Program};

pub const FULL: u32 = u32::MAX;

/// A texture bound at launch: texels as 32-bit words, `channels` words per texel, element
/// `x + W*(y + H*z)` for extents `dims = [W, H, D]`. Array textures have the layer as their
/// last dimension: a `.a1d` texture is `[width, layers, 1]`, a `.a2d` one
/// `[width, height, layers]`. A cube map is `[w, w, 6]` (faces +x, -x, +y, -y, +z, -z), a cube
/// array `[w, w, 6 * cubes]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    pub dims: [u32; 3],
    pub channels: u32,
    pub data: Vec<u32>,
}

/// Everything about a launch that every CTA reads and nobody writes.
pub struct Ctx<'a> {
    pub prog: &'a Program,
    pub kernel: &'a KernelInfo,
    pub global: &'a GlobalMemory,
    pub params: &'a [u8],
    pub ntid: [u32; 3],
    pub nctaid: [u32; 3],
    pub gridid: u32,
    pub max_steps: u64,
    pub textures: &'a [Option<Texture>],
    pub shared_bytes: u32,
    /// `--sanitize`: where the launch's findings go (`None`: no checks, no cost).
    pub sanitize: Option<&'a crate::sanitize::Sanitizer>,
}

/// Why a warp stopped running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// Waiting at a barrier (the instruction is in `Warp::barrier`).
    Barrier,
    /// Every lane exited.
    Exited,
    /// The warp used up its quantum at a backward branch; other warps of the CTA run next.
    Yield,
}

/// A fault in one lane.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaneFault {
    pub lane: u32,
    pub kind: FaultKind,
}

/// A pending barrier arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarrierWait {
    pub id: u32,
    pub count: Option<u32>,
    /// Lanes that executed the barrier.
    pub mask: u32,
    /// Whether the warp waits (bar.sync/bar.red) or only signals (bar.arrive).
    pub waits: bool,
    /// For bar.red: the lanes whose predicate was true.
    pub red_true: u32,
}

/// One call frame of one lane.
#[derive(Clone, Debug, Default)]
pub struct CallFrame {
    pub call_pc: u32,
    /// The function called (for indirect calls, which of the targets).
    pub func: u32,
    pub frame_base: u32,
    /// Saved register values of a recursive callee (r32 then r64 then predicates).
    pub saved: Vec<u64>,
}

pub struct Warp {
    pub r32: Vec<Row32>,
    pub r64: Vec<Row64>,
    pub pred: Vec<u32>,
    pub carry: u32,
    pub pc: u32,
    pub active: u32,
    pub waiting: u32,
    pub exited: u32,
    /// Lanes that exist (a partial last warp has fewer than 32).
    pub lanes: u32,
    /// `!lanes | exited`: lanes whose registers no longer matter.
    pub dead: u32,
    pub lane_pc: [u32; LANES],
    pub min_wait: u32,
    /// Lanes waiting at a `.sync` collective (at `coll_pc`) for lanes of its membermask that
    /// run elsewhere; they are scheduled again when those lanes arrive there or when nothing
    /// else can run (the others exited).
    pub coll_wait: u32,
    pub coll_pc: u32,
    pub warp_id: u32,
    pub ctaid: [u32; 3],
    pub tid: [[u32; LANES]; 3],
    pub frame: [u32; LANES],
    pub calls: Vec<Vec<CallFrame>>,
    pub steps: u64,
    /// `steps` value from which a taken backward branch yields to the CTA's other warps.
    pub yield_at: u64,
    pub thread_instrs: u64,
    /// Store, atomic and call instructions executed, and loads from global or generic
    /// memory (for spin detection, `spin.rs`).
    pub mem_writes: u64,
    pub global_loads: u64,
    /// Per-thread local memory, lane-major.
    pub local: Vec<u8>,
    pub barrier: Option<BarrierWait>,
    /// Destination of a pending `bar.red`.
    pub red_dst: Option<(crate::program::Reg, crate::program::BarKind)>,
}

impl Warp {
    pub fn new(prog: &Program) -> Warp {
        Warp {
            r32: vec![[0; LANES]; prog.n_r32 as usize],
            r64: vec![[0; LANES]; prog.n_r64 as usize],
            pred: vec![0; prog.n_pred as usize],
            carry: 0,
            pc: 0,
            active: 0,
            waiting: 0,
            exited: 0,
            lanes: 0,
            dead: FULL,
            lane_pc: [0; LANES],
            min_wait: u32::MAX,
            coll_wait: 0,
            coll_pc: 0,
            warp_id: 0,
            ctaid: [0; 3],
            tid: [[0; LANES]; 3],
            frame: [0; LANES],
            calls: Vec::new(),
            steps: 0,
            yield_at: u64::MAX,
            thread_instrs: 0,
            mem_writes: 0,
            global_loads: 0,
            local: vec![0; prog.local_bytes as usize * LANES],
            barrier: None,
            red_dst: None,
        }
    }

    /// Reset for warp `warp_id` of a CTA of shape `ntid`, starting at `entry`.
    /// `live_local` is how many bytes of each thread's local memory the kernel itself uses
    /// (module `.local` variables and its frame); deeper frames are zeroed when a call enters
    /// them, so a deep per-thread stack costs nothing for threads that do not use it.
    pub fn reset(
        &mut self,
        warp_id: u32,
        ntid: [u32; 3],
        entry: u32,
        frame0: u32,
        live_local: u32,
    ) {
        for r in &mut self.r32 {
            *r = [0; LANES];
        }
        for r in &mut self.r64 {
            *r = [0; LANES];
        }
        self.pred.fill(0);
        let per = self.local.len() / LANES;
        let live = (live_local as usize).min(per);
        if live == per {
            self.local.fill(0);
        } else {
            for lane in self.local.chunks_mut(per.max(1)) {
                if let Some(l) = lane.get_mut(..live) {
                    l.fill(0);
                }
            }
        }
        self.carry = 0;
        self.pc = entry;
        self.waiting = 0;
        self.exited = 0;
        self.min_wait = u32::MAX;
        self.coll_wait = 0;
        self.warp_id = warp_id;
        self.frame = [frame0; LANES];
        for c in &mut self.calls {
            c.clear();
        }
        self.steps = 0;
        self.thread_instrs = 0;
        self.mem_writes = 0;
        self.global_loads = 0;
        self.barrier = None;
        self.red_dst = None;
        let n = ntid[0] as u64 * ntid[1] as u64 * ntid[2] as u64;
        let mut lanes = 0u32;
        for lane in 0..LANES {
            let t = warp_id as u64 * LANES as u64 + lane as u64;
            if t < n {
                lanes |= 1 << lane;
                let x = t % ntid[0] as u64;
                let y = (t / ntid[0] as u64) % ntid[1] as u64;
                let z = t / (ntid[0] as u64 * ntid[1] as u64);
                self.tid[0][lane] = x as u32;
                self.tid[1][lane] = y as u32;
                self.tid[2][lane] = z as u32;
            } else {
                self.tid[0][lane] = 0;
                self.tid[1][lane] = 0;
                self.tid[2][lane] = 0;
            }
        }
        self.lanes = lanes;
        self.active = lanes;
        self.dead = !lanes;
    }

    pub fn is_done(&self) -> bool {
        self.active == 0 && self.waiting == 0
    }

    /// Number of threads of this warp still running (for barrier accounting).
    pub fn live_threads(&self) -> u32 {
        (self.lanes & !self.exited).count_ones()
    }

    /// Park the running group and pick the lanes at the lowest PC.
    pub fn reschedule(&mut self) {
        let mut m = self.active;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(p) = self.lane_pc.get_mut(l) {
                *p = self.pc;
            }
        }
        self.waiting |= self.active;
        self.active = 0;
        if self.waiting == 0 {
            self.min_wait = u32::MAX;
            return;
        }
        let mut best = u32::MAX;
        let mut m = self.waiting & !self.coll_wait;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            best = best.min(self.lane_pc.get(l).copied().unwrap_or(u32::MAX));
        }
        // Lanes parked at a collective rejoin when others arrive there or none else can run.
        if self.coll_wait != 0 && (best == u32::MAX || best == self.coll_pc) {
            best = self.coll_pc;
            self.coll_wait = 0;
        }
        let mut act = 0;
        let mut next = u32::MAX;
        let mut m = self.waiting & !self.coll_wait;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let p = self.lane_pc.get(l).copied().unwrap_or(u32::MAX);
            if p == best {
                act |= 1 << l;
            } else {
                next = next.min(p);
            }
        }
        if self.coll_wait != 0 {
            // Stop the running lanes when they reach the parked ones (even from beyond, by a
            // backward branch) so that they run the collective together.
            next = next.min(self.coll_pc);
        }
        self.active = act;
        self.waiting &= !act;
        self.pc = best;
        self.min_wait = next;
    }

    /// Send the lanes of `mask` (a subset of the running group) to `target`; the rest go on.
    #[inline]
    pub fn diverge(&mut self, mask: u32, target: u32) {
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(p) = self.lane_pc.get_mut(l) {
                *p = target;
            }
        }
        self.waiting |= mask;
        self.active &= !mask;
        self.min_wait = self.min_wait.min(target);
    }

    /// `brx.idx`: each lane of `mask` branches to the target its index register selects. An
    /// index past the list is a fault (the spec leaves it undefined), checked for every lane
    /// before any lane moves.
    pub(crate) fn exec_brx(
        &mut self,
        index: crate::program::R32,
        targets: &[u32],
        mask: u32,
    ) -> Result<(), LaneFault> {
        let idx = self.r32.get(index.0 as usize).copied().unwrap_or_default();
        let len = targets.len() as u32;
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let i = idx.get(l).copied().unwrap_or(0);
            if i >= len {
                return Err(LaneFault {
                    lane: l as u32,
                    kind: FaultKind::BranchIndex { index: i, len },
                });
            }
        }
        let mut m = mask;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            let i = idx.get(l).copied().unwrap_or(0) as usize;
            self.diverge(1 << l, targets.get(i).copied().unwrap_or(0));
        }
        Ok(())
    }

    /// Lanes of `mask` stop for good.
    pub fn exit_lanes(&mut self, mask: u32) {
        self.exited |= mask;
        self.active &= !mask;
        self.dead |= mask;
    }

    /// The lowest lane of a mask (for fault reports).
    pub fn first_lane(mask: u32) -> u32 {
        if mask == 0 {
            0
        } else {
            mask.trailing_zeros()
        }
    }
}
