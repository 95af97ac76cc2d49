//! The warp's reconvergence stack, as Fermi's compiler relies on it (docs/fermi-exec.md).
//!
//! The warp runs one path at a time with an active mask. `SSY`, `PBK`, `PCNT`, `CAL`/`PRET`
//! push an entry holding the active mask and a target; a divergent `BRA` pushes the lanes that
//! did not branch, with the fall-through address. Lanes leave the active mask by arriving at a
//! `.S` instruction (they wait for the `SSY` target), by `BRK`/`CONT`/`RET` (they wait for the
//! nearest entry of that kind) or by `EXIT`. When no lane is active the top entry is popped
//! and its (still waiting, not exited) lanes resume at its address.

use crate::error::FaultKind;

/// The most entries a warp's stack may hold before the launch faults (the hardware's stack
/// spills to local memory; this bound only stops runaway pushes in a loop).
pub const MAX_DEPTH: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// `SSY`: lanes reconverge at the target when every one arrived at a `.S` or left.
    Sync,
    /// The not-taken side of a divergent branch, to run once the taken side is done.
    Div,
    /// `PBK`: where `BRK` lanes continue.
    Break,
    /// `PCNT`: where `CONT` lanes continue.
    Cont,
    /// `CAL`/`PRET`: where `RET` lanes continue.
    Call,
}

impl EntryKind {
    pub fn pusher(self) -> &'static str {
        match self {
            EntryKind::Sync => "SSY",
            EntryKind::Div => "a divergent BRA",
            EntryKind::Break => "PBK",
            EntryKind::Cont => "PCNT",
            EntryKind::Call => "CAL/PRET",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: EntryKind,
    pub mask: u32,
    pub pc: u64,
}

/// Why the active mask emptied: decides which entries may legitimately take over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// Lanes arrived at a `.S` instruction.
    Sync,
    /// Lanes left by `BRK`, `CONT`, `RET` or `EXIT`.
    Other,
}

#[derive(Clone, Debug, Default)]
pub struct Stack {
    entries: Vec<Entry>,
}

impl Stack {
    pub fn push(&mut self, kind: EntryKind, mask: u32, pc: u64) -> Result<(), FaultKind> {
        if self.entries.len() >= MAX_DEPTH {
            return Err(FaultKind::Discipline(format!(
                "reconvergence stack deeper than {MAX_DEPTH} entries"
            )));
        }
        self.entries.push(Entry { kind, mask, pc });
        Ok(())
    }

    /// Lanes `lanes` leave for the nearest entry of `kind` (`BRK` → `PBK`, ...): they are
    /// removed from every entry above it, so that only that entry brings them back.
    pub fn leave_for(&mut self, kind: EntryKind, lanes: u32, what: &str) -> Result<(), FaultKind> {
        let Some(at) = self.entries.iter().rposition(|e| e.kind == kind) else {
            return Err(FaultKind::Discipline(format!(
                "{what} with no {} entry on the warp's stack",
                kind.pusher()
            )));
        };
        for e in self.entries.iter_mut().skip(at + 1) {
            e.mask &= !lanes;
        }
        Ok(())
    }

    /// Pops until an entry with a lane that has not exited; returns `(mask, pc)` to resume,
    /// or `None` when the stack is empty. After a `.S` arrival the entry that takes over must
    /// be the other side of a branch or the `SSY` itself.
    pub fn pop_live(&mut self, exited: u32, why: Leave) -> Result<Option<(u32, u64)>, FaultKind> {
        while let Some(e) = self.entries.pop() {
            let mask = e.mask & !exited;
            if mask == 0 {
                continue;
            }
            if why == Leave::Sync && !matches!(e.kind, EntryKind::Sync | EntryKind::Div) {
                return Err(FaultKind::Discipline(format!(
                    "lanes arrived at a .S instruction while the top of the warp's stack is \
                     a {} entry, not SSY",
                    e.kind.pusher()
                )));
            }
            return Ok(Some((mask, e.pc)));
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divergent_branch_then_sync() {
        let mut s = Stack::default();
        s.push(EntryKind::Sync, 0xff, 0x100).unwrap();
        s.push(EntryKind::Div, 0x0f, 0x20).unwrap();
        // The taken side (0xf0) arrives: the not-taken side resumes at 0x20.
        assert_eq!(s.pop_live(0, Leave::Sync).unwrap(), Some((0x0f, 0x20)));
        // It arrives too: the SSY entry resumes all eight lanes at the target.
        assert_eq!(s.pop_live(0, Leave::Sync).unwrap(), Some((0xff, 0x100)));
        assert_eq!(s.pop_live(0, Leave::Sync).unwrap(), None);
    }

    #[test]
    fn exited_lanes_never_resume_and_empty_entries_are_skipped() {
        let mut s = Stack::default();
        s.push(EntryKind::Sync, 0b11, 0x100).unwrap();
        s.push(EntryKind::Div, 0b10, 0x20).unwrap();
        assert_eq!(s.pop_live(0b10, Leave::Other).unwrap(), Some((0b01, 0x100)));
    }

    #[test]
    fn break_removes_lanes_from_inner_entries() {
        let mut s = Stack::default();
        s.push(EntryKind::Break, 0b11, 0x200).unwrap();
        s.push(EntryKind::Sync, 0b11, 0x100).unwrap();
        s.push(EntryKind::Div, 0b01, 0x40).unwrap();
        s.leave_for(EntryKind::Break, 0b01, "BRK").unwrap();
        // Lane 0 left for the PBK target: the Div and SSY entries no longer bring it back;
        // lane 1 still reconverges at the SSY target first, then both meet at the PBK's.
        assert_eq!(s.pop_live(0, Leave::Other).unwrap(), Some((0b10, 0x100)));
        assert_eq!(s.pop_live(0, Leave::Other).unwrap(), Some((0b11, 0x200)));
    }

    #[test]
    fn sync_arrival_onto_a_break_entry_is_a_fault() {
        let mut s = Stack::default();
        s.push(EntryKind::Break, 1, 0x200).unwrap();
        assert!(matches!(
            s.pop_live(0, Leave::Sync),
            Err(FaultKind::Discipline(_))
        ));
        let mut s = Stack::default();
        assert!(s.leave_for(EntryKind::Call, 1, "RET").is_err());
    }
}
