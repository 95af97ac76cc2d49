//! Which fundamental types and vector shapes a declaration (`.reg`, `.global`, a `.param`, a
//! struct field, ...) may use under a file's `.target` and `.version` — the declaration
//! counterpart of the instruction gates.
//!
//! Sources: ptx-isa-1.1 §5.2.1 Table 6 and §5.3.2 (the PTX 1.x types and vectors: `.f16`
//! included, `.v2/.v3/.v4` of any fundamental type, predicates too); for the later types the
//! "PTX ISA Notes"/"Target ISA Notes" of PTX ISA 8.x (`.f16x2`: PTX ISA 4.2, sm_53; `.b128`:
//! PTX ISA 8.3, sm_70), and PTX ISA 8.x "Vectors": vectors have 2 or 4 elements, at most 128
//! bits, of non-predicate types. ptxas 12.9 agrees with each of these (it reports `Feature
//! 'Type .b128' requires .target sm_70 or higher`, refuses `.v3`, `.v2 .pred` and `.v4 .f64`
//! at `.version 4.0`, the oldest it reads, and does not parse `.bf16`/`.bf16x2`/`.tf32` in a
//! declaration at any version).

use crate::{Gate, PtxVersion, Type};

/// PTX ISA 2.0 replaced 1.x's free vectors with the 2/4-element, 128-bit, non-predicate
/// vectors of every later version.
const MODERN_VECTORS: PtxVersion = PtxVersion::new(2, 0);

/// How a fundamental type may appear in a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeclTypeRule {
    /// Declarable where the gate passes.
    Gated(Gate),
    /// An instruction type only: its values live in variables of the bit-size type `holder`
    /// (PTX ISA 8.x "Alternate Floating-Point Data Formats").
    InstructionOnly { holder: Type },
}

/// The declaration rule of a fundamental type.
pub fn declaration_type_rule(t: Type) -> DeclTypeRule {
    let gate = |sm, major, minor| {
        DeclTypeRule::Gated(Gate {
            min_sm: sm,
            min_ptx: PtxVersion::new(major, minor),
            ..Gate::NONE
        })
    };
    match t {
        Type::B128 => gate(70, 8, 3),
        Type::F16x2 => gate(53, 4, 2),
        Type::Bf16 | Type::E4m3x2 | Type::E5m2x2 | Type::E2m3x2 | Type::E3m2x2 | Type::Ue8m0x2 => {
            DeclTypeRule::InstructionOnly { holder: Type::B16 }
        }
        Type::Bf16x2 | Type::Tf32 => DeclTypeRule::InstructionOnly { holder: Type::B32 },
        Type::F32x2 => DeclTypeRule::InstructionOnly { holder: Type::B64 },
        Type::E4m3 | Type::E5m2 | Type::E2m1x2 => {
            DeclTypeRule::InstructionOnly { holder: Type::B8 }
        }
        // Packed integer types are instruction types (`add.u16x2`); values are `.b32`.
        Type::U16x2 | Type::S16x2 => DeclTypeRule::InstructionOnly { holder: Type::B32 },
        _ => DeclTypeRule::Gated(Gate::NONE),
    }
}

/// Checks a declared `[.vN] type` (`lanes` is 1 for a scalar) against a file's `.target sm_NN`
/// and `.version`; the error is a complete message naming the requirement.
pub fn check_declaration_type(t: Type, lanes: u32, sm: u32, ptx: PtxVersion) -> Result<(), String> {
    let name = t.suffix();
    match declaration_type_rule(t) {
        DeclTypeRule::InstructionOnly { holder } => {
            return Err(format!(
                "`{name}` is an instruction type and cannot be declared: hold `{name}` values \
                 in `{}` variables (PTX ISA 8.x, Alternate Floating-Point Data Formats)",
                holder.suffix()
            ));
        }
        DeclTypeRule::Gated(g) => g.check_min(name, sm, ptx).map_err(|e| e.to_string())?,
    }
    if lanes > 4 {
        return Err(format!(
            "`.v{lanes}` is not a declaration vector width: vectors have 2, 3 or 4 elements \
             (ptx-isa-1.1 §5.3.2)"
        ));
    }
    if lanes <= 1 || ptx < MODERN_VECTORS {
        return Ok(());
    }
    let since = format!("since PTX ISA version {MODERN_VECTORS} (file is .version {ptx})");
    if lanes == 3 {
        return Err(format!(
            "`.v3` vectors cannot be declared {since}: vectors have 2 or 4 elements"
        ));
    }
    if t == Type::Pred {
        return Err(format!(
            "vectors of `.pred` cannot be declared {since}: predicates are scalar registers"
        ));
    }
    let bits = t.size_bits().saturating_mul(lanes);
    if bits > 128 {
        return Err(format!(
            "`.v{lanes} {name}` is {bits} bits: vectors are limited to 128 bits {since}"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const V11: PtxVersion = PtxVersion::new(1, 1);
    const V83: PtxVersion = PtxVersion::new(8, 3);

    #[test]
    fn b128_needs_sm70_and_ptx83() {
        assert_eq!(
            check_declaration_type(Type::B128, 1, 61, V83).unwrap_err(),
            ".b128 requires .target sm_70 or higher (file targets sm_61)"
        );
        assert_eq!(
            check_declaration_type(Type::B128, 1, 70, PtxVersion::new(8, 2)).unwrap_err(),
            ".b128 requires PTX ISA version 8.3 or higher (file is .version 8.2)"
        );
        assert!(check_declaration_type(Type::B128, 1, 70, V83).is_ok());
    }

    #[test]
    fn ptx1_types_and_vectors_are_free() {
        for t in [Type::F16, Type::F64, Type::U8, Type::Pred, Type::B64] {
            for lanes in 1..=4 {
                assert!(
                    check_declaration_type(t, lanes, 10, V11).is_ok(),
                    "{t:?} x{lanes}"
                );
            }
        }
    }

    #[test]
    fn modern_vectors_are_2_or_4_elements_of_at_most_128_bits() {
        let v = PtxVersion::new(2, 0);
        assert!(check_declaration_type(Type::F32, 3, 20, v).is_err());
        assert!(check_declaration_type(Type::Pred, 2, 20, v).is_err());
        assert!(check_declaration_type(Type::F64, 4, 20, v).is_err());
        assert!(check_declaration_type(Type::F64, 2, 20, v).is_ok());
        assert!(check_declaration_type(Type::B32, 4, 20, v).is_ok());
        assert!(check_declaration_type(Type::B32, 8, 20, v).is_err());
    }

    #[test]
    fn alternate_float_formats_are_not_declarable() {
        for t in [Type::Bf16, Type::Bf16x2, Type::Tf32] {
            let e = check_declaration_type(t, 1, 90, PtxVersion::new(8, 5)).unwrap_err();
            assert!(e.contains("cannot be declared"), "{e}");
        }
    }
}
