//! The rounding rules of `cvt` (ptx-isa-1.1 §7.7.4 Table 43, Integer and Floating Point Notes):
//! integer rounding is required for float-to-integer conversions and allowed for same-size
//! float-to-float ones; floating-point rounding is required for narrowing float-to-float and for
//! integer-to-float conversions; every other rounding is illegal.

use crate::ctx::Checker;
use diag::{Diagnostic, Span};
use isa::{PtxVersion, Rounding, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Need {
    /// No rounding modifier may be given.
    None,
    /// An integer rounding (`.rni .rzi .rmi .rpi`) is required.
    Integer,
    /// A floating-point rounding (`.rn .rz .rm .rp`) is required.
    Float,
    /// Integer rounding is optional, floating-point rounding illegal.
    OptionalInteger,
}

fn need(d: Type, a: Type) -> Need {
    match (d.is_float(), a.is_float()) {
        (false, false) => Need::None,
        (false, true) => Need::Integer,
        (true, false) => Need::Float,
        (true, true) if d == a => Need::OptionalInteger,
        (true, true) if d.size_bits() > a.size_bits() => Need::None,
        // Narrower, or the same size in another format (.f16 ↔ .bf16): precision is lost.
        (true, true) => Need::Float,
    }
}

impl<'a> Checker<'a> {
    /// Checks (and, for PTX ISA 1.x, completes) the rounding modifier of a `cvt.dtype.atype`.
    /// Returns false when an error was reported.
    pub(crate) fn check_cvt_rounding(&mut self, m: &mut isa::Match, span: Span) -> bool {
        let (Some(d), Some(a)) = (m.types[0], m.types[1]) else {
            return true;
        };
        if !(d.is_float() || d.is_integer()) || !(a.is_float() || a.is_integer()) {
            return true;
        }
        // The fp8 pair conversions spell their one rounding (`.rn`) in the row itself.
        let fp8 = |t: Type| {
            matches!(
                t,
                Type::E4m3x2
                    | Type::E5m2x2
                    | Type::E2m1x2
                    | Type::E2m3x2
                    | Type::E3m2x2
                    | Type::Ue8m0x2
            )
        };
        if fp8(d) || fp8(a) {
            return true;
        }
        let rnd = m.mods.rounding;
        let is_int = rnd.map(Rounding::is_integer_rounding);
        // Spelled out only for a message (this runs for every `cvt`).
        let what = || format!("cvt{}{}", d.suffix(), a.suffix());
        let illegal = |r: Rounding| {
            format!(
                "rounding modifier `{}` is illegal for `{}` (ptx-isa-1.1 §7.7.4 Table 43)",
                r.spelling(),
                what()
            )
        };
        match (need(d, a), rnd, is_int) {
            (Need::None, Some(r), _)
            | (Need::Integer, Some(r), Some(false))
            | (Need::Float, Some(r), Some(true))
            | (Need::OptionalInteger, Some(r), Some(false)) => {
                self.error(span, illegal(r));
                false
            }
            (Need::Integer | Need::Float, None, _) => {
                let (kind, default) = if need(d, a) == Need::Integer {
                    (
                        "an integer rounding modifier (.rni, .rzi, .rmi, .rpi)",
                        Rounding::Rzi,
                    )
                } else {
                    ("a rounding modifier (.rn, .rz, .rm, .rp)", Rounding::Rn)
                };
                if self.version < PtxVersion::new(2, 0) {
                    // ptx-isa-1.1's own examples write `cvt.f32.s32 f,i;` and
                    // `cvt.sat.s32.f64 j,r;`: accepted for 1.x files with C's rounding.
                    self.push(
                        Diagnostic::warning(span, format!("`{}` needs {kind}", what()))
                            .with_note(format!("assuming `{}`", default.spelling())),
                    );
                    m.mods.rounding = Some(default);
                    true
                } else {
                    self.error(span, format!("`{}` needs {kind}", what()));
                    false
                }
            }
            _ => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_43_cases() {
        assert_eq!(need(Type::S32, Type::U16), Need::None);
        assert_eq!(need(Type::S32, Type::F32), Need::Integer);
        assert_eq!(need(Type::F32, Type::S32), Need::Float);
        assert_eq!(need(Type::F32, Type::F32), Need::OptionalInteger);
        assert_eq!(need(Type::F32, Type::F64), Need::Float);
        assert_eq!(need(Type::F64, Type::F32), Need::None);
        assert_eq!(need(Type::F16, Type::F32), Need::Float);
        assert_eq!(need(Type::F32, Type::F16), Need::None);
        assert_eq!(need(Type::Bf16, Type::F16), Need::Float);
    }
}
