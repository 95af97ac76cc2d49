//! The checked, resolved PTX intermediate representation.
//!
//! `check` produces an [`ir::Module`](Module) from the AST; the executor and the code generator
//! consume it. The design follows naga's arenas-and-handles: every cross reference is a typed
//! index ([`RegId`], [`VarId`], [`FuncId`], [`InstIdx`], [`ProtoId`]); names are kept beside the
//! data for messages only, so a consumer never looks anything up by string. Instruction
//! modifiers and types are the `isa` crate's decoded values (re-exported here), so the executor
//! matches on enums, never on spellings.
//!
//! Invariants the checker guarantees for a module it returns (consumers may rely on them):
//! - every handle is in range for its arena;
//! - every instruction matched one `isa` form whose gates the module's `.target` and `.version`
//!   satisfy, with operands of the kinds and compatible types the form requires;
//! - labels point into the same function's body (`0..=body.len()`);
//! - immediates are already converted to the operand type of the form ([`Operand::Imm`]);
//! - `{ }` scopes are flattened: every register and variable has its own id.

mod func;
mod ids;
mod inst;
mod module;
mod operand;
mod var;

pub use func::{FuncKind, Function, Param, PerfDirectives, ProtoParam, Prototype, Reg, RegName};
pub use ids::{FuncId, InstIdx, ProtoId, RegId, VarId};
pub use inst::{Guard, Inst, Operands};
pub use module::{AddressSize, Module, Target, TexMode};
pub use operand::{AddrBase, Address, Operand, Selector, SelectorKind, TexRef};
/// Base of the values that stand for function addresses (`mov.u64 %rd, f`): function `id`
/// is at `FUNC_ADDR_BASE + 16·id`. The PTX executor and the translator both use it, so a
/// function pointer stored by one means the same function to the other.
pub const FUNC_ADDR_BASE: u64 = 0xF000_0000;

/// The value standing for the address of function `id` (see [`FUNC_ADDR_BASE`]).
pub fn func_addr(id: FuncId) -> u64 {
    FUNC_ADDR_BASE + u64::from(id.0) * 16
}

/// The function whose address (see [`func_addr`]) `addr` is, if it is one's.
pub fn func_at_addr(addr: u64) -> Option<FuncId> {
    let off = addr.checked_sub(FUNC_ADDR_BASE)?;
    let id = u32::try_from(off / 16).ok()?;
    (off % 16 == 0).then_some(FuncId(id))
}

pub use var::{Initializer, Linkage, PtrAttr, Reloc, RelocTarget, VarScope, VarType, Variable};

/// The `isa` values the IR is made of, re-exported so consumers need not name `isa` directly.
pub use isa::{Flag, Form, Mods, Opcode, PtxVersion, Space, SpecialReg, Type};

#[cfg(test)]
mod func_addr_tests {
    use super::{func_addr, func_at_addr, FuncId};

    #[test]
    fn function_addresses_are_16_bytes_apart_from_0xf000_0000_and_invert() {
        assert_eq!(func_addr(FuncId(0)), 0xF000_0000);
        assert_eq!(func_addr(FuncId(3)), 0xF000_0030);
        for id in [0u32, 1, 7, 1000] {
            assert_eq!(func_at_addr(func_addr(FuncId(id))), Some(FuncId(id)));
            assert_eq!(func_at_addr(func_addr(FuncId(id)) + 8), None);
        }
        assert_eq!(func_at_addr(0), None);
        assert_eq!(func_at_addr(0xEFFF_FFF0), None);
        assert_eq!(func_at_addr(u64::MAX), None);
    }
}
