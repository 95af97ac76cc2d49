//! `regalloc2`'s moves as Fermi instructions: register copies, and spill code to and from
//! local memory at `[R1 + base + 4 × slot]`.

use super::Place;
use crate::regs::{Loc, SCRATCH};

/// Bytes of spill stores and loads emitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpillBytes {
    pub stores: u32,
    pub loads: u32,
}

/// The instructions of one move. Predicates go to memory as a 0/1 word through R0, as the
/// `.func` save code does (`SEL R0, RZ, 0x1, !Pn` is 1 where Pn holds).
pub fn render(from: Place, to: Place, base: u32, bytes: &mut SpillBytes) -> Vec<String> {
    let at = |slot: u32| format!("[R1+{:#x}]", base + 4 * slot);
    match (from, to) {
        (Place::Reg(Loc::Gpr(a)), Place::Reg(Loc::Gpr(b))) => vec![format!("MOV R{b}, R{a};")],
        (Place::Reg(Loc::Pair(a)), Place::Reg(Loc::Pair(b))) => vec![
            format!("MOV R{b}, R{a};"),
            format!("MOV R{}, R{};", b + 1, a + 1),
        ],
        (Place::Reg(Loc::Pred(a)), Place::Reg(Loc::Pred(b))) => {
            vec![format!("PSETP.AND.AND P{b}, pt, P{a}, pt, pt;")]
        }
        (Place::Reg(Loc::Gpr(a)), Place::Slot(s)) => {
            bytes.stores += 4;
            vec![format!("STL {}, R{a};", at(s))]
        }
        (Place::Reg(Loc::Pair(a)), Place::Slot(s)) => {
            bytes.stores += 8;
            vec![format!("STL.64 {}, R{a};", at(s))]
        }
        (Place::Reg(Loc::Pred(a)), Place::Slot(s)) => {
            bytes.stores += 4;
            vec![
                format!("SEL R{SCRATCH}, RZ, 0x1, !P{a};"),
                format!("STL {}, R{SCRATCH};", at(s)),
            ]
        }
        (Place::Slot(s), Place::Reg(Loc::Gpr(b))) => {
            bytes.loads += 4;
            vec![format!("LDL R{b}, {};", at(s))]
        }
        (Place::Slot(s), Place::Reg(Loc::Pair(b))) => {
            bytes.loads += 8;
            vec![format!("LDL.64 R{b}, {};", at(s))]
        }
        (Place::Slot(s), Place::Reg(Loc::Pred(b))) => {
            bytes.loads += 4;
            vec![
                format!("LDL R{SCRATCH}, {};", at(s)),
                format!("ISETP.NE.AND P{b}, pt, R{SCRATCH}, RZ, pt;"),
            ]
        }
        // Mixed classes and slot-to-slot moves are never asked for (`ra::allocate` refuses
        // slot-to-slot moves; a class's moves stay within it).
        _ => Vec::new(),
    }
}
