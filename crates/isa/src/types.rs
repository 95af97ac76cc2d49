//! PTX fundamental types and the operand/instruction type compatibility rules of
//! ptx-isa-1.1 §5.2.1, §5.2.2, §6.1 and §7.4 (plus the packed and half types added by later ISAs).

/// A PTX type specifier as it appears in an instruction suffix or a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    B8,
    B16,
    B32,
    B64,
    B128,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    F16x2,
    Bf16,
    Bf16x2,
    Tf32,
    F32,
    F64,
    Pred,
    U16x2,
    S16x2,
    /// Two packed 8-bit floats (PTX ISA 8.x §5.2.5.1 "Alternate Floating-Point Data Formats"):
    /// `e4m3` (no infinities, NaN `0x7f`/`0xff`) and `e5m2` (IEEE-style).
    E4m3x2,
    E5m2x2,
    /// Two packed `.f32` in 64 bits (`add/sub/mul/fma.f32x2`, sm_100).
    F32x2,
    /// One 8-bit float, as `mma`'s A and B element types name them.
    E4m3,
    E5m2,
    /// Sub-byte integers, only as the destination type of `cvt.pack.sat` (PTX ISA 8.x
    /// §9.7.9.21); no register or variable has them.
    U4,
    S4,
    U2,
    S2,
    /// The narrow pairs of `cvt` (PTX ISA 8.8 §5.2.5.1): two `e2m1` in one byte, two `e2m3`
    /// or `e3m2` (6 bits each, in the low 6 bits of each byte) and two `ue8m0` scale factors
    /// in 16 bits.
    E2m1x2,
    E2m3x2,
    E3m2x2,
    Ue8m0x2,
}

/// The basic type of a specifier (ptx-isa-1.1 §5.2.1, Table 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BasicType {
    Signed,
    Unsigned,
    Float,
    Bits,
    Pred,
}

impl Type {
    pub const ALL: [Type; 36] = [
        Type::B8,
        Type::B16,
        Type::B32,
        Type::B64,
        Type::B128,
        Type::U8,
        Type::U16,
        Type::U32,
        Type::U64,
        Type::S8,
        Type::S16,
        Type::S32,
        Type::S64,
        Type::F16,
        Type::F16x2,
        Type::Bf16,
        Type::Bf16x2,
        Type::Tf32,
        Type::F32,
        Type::F64,
        Type::Pred,
        Type::U16x2,
        Type::S16x2,
        Type::E4m3x2,
        Type::E5m2x2,
        Type::F32x2,
        Type::E4m3,
        Type::E5m2,
        Type::U4,
        Type::S4,
        Type::U2,
        Type::S2,
        Type::E2m1x2,
        Type::E2m3x2,
        Type::E3m2x2,
        Type::Ue8m0x2,
    ];

    /// The suffix spelling, with its leading dot (`.u32`).
    pub fn suffix(self) -> &'static str {
        match self {
            Type::B8 => ".b8",
            Type::B16 => ".b16",
            Type::B32 => ".b32",
            Type::B64 => ".b64",
            Type::B128 => ".b128",
            Type::U8 => ".u8",
            Type::U16 => ".u16",
            Type::U32 => ".u32",
            Type::U64 => ".u64",
            Type::S8 => ".s8",
            Type::S16 => ".s16",
            Type::S32 => ".s32",
            Type::S64 => ".s64",
            Type::F16 => ".f16",
            Type::F16x2 => ".f16x2",
            Type::Bf16 => ".bf16",
            Type::Bf16x2 => ".bf16x2",
            Type::Tf32 => ".tf32",
            Type::F32 => ".f32",
            Type::F64 => ".f64",
            Type::Pred => ".pred",
            Type::U16x2 => ".u16x2",
            Type::S16x2 => ".s16x2",
            Type::E4m3x2 => ".e4m3x2",
            Type::E5m2x2 => ".e5m2x2",
            Type::F32x2 => ".f32x2",
            Type::E4m3 => ".e4m3",
            Type::E5m2 => ".e5m2",
            Type::U4 => ".u4",
            Type::S4 => ".s4",
            Type::U2 => ".u2",
            Type::S2 => ".s2",
            Type::E2m1x2 => ".e2m1x2",
            Type::E2m3x2 => ".e2m3x2",
            Type::E3m2x2 => ".e3m2x2",
            Type::Ue8m0x2 => ".ue8m0x2",
        }
    }

    /// Parses a suffix spelling with its leading dot (`".s32"`).
    pub fn from_suffix(s: &str) -> Option<Type> {
        Some(match s {
            ".b8" => Type::B8,
            ".b16" => Type::B16,
            ".b32" => Type::B32,
            ".b64" => Type::B64,
            ".b128" => Type::B128,
            ".u8" => Type::U8,
            ".u16" => Type::U16,
            ".u32" => Type::U32,
            ".u64" => Type::U64,
            ".s8" => Type::S8,
            ".s16" => Type::S16,
            ".s32" => Type::S32,
            ".s64" => Type::S64,
            ".f16" => Type::F16,
            ".f16x2" => Type::F16x2,
            ".bf16" => Type::Bf16,
            ".bf16x2" => Type::Bf16x2,
            ".tf32" => Type::Tf32,
            ".f32" => Type::F32,
            ".f64" => Type::F64,
            ".pred" => Type::Pred,
            ".u16x2" => Type::U16x2,
            ".s16x2" => Type::S16x2,
            ".e4m3x2" => Type::E4m3x2,
            ".e5m2x2" => Type::E5m2x2,
            ".f32x2" => Type::F32x2,
            ".e4m3" => Type::E4m3,
            ".e5m2" => Type::E5m2,
            ".u4" => Type::U4,
            ".s4" => Type::S4,
            ".u2" => Type::U2,
            ".s2" => Type::S2,
            ".e2m1x2" => Type::E2m1x2,
            ".e2m3x2" => Type::E2m3x2,
            ".e3m2x2" => Type::E3m2x2,
            ".ue8m0x2" => Type::Ue8m0x2,
            _ => return None,
        })
    }

    /// Size in bits. `.pred` is given 1 bit; it is compatible only with itself.
    pub fn size_bits(self) -> u32 {
        match self {
            Type::Pred => 1,
            Type::U2 | Type::S2 => 2,
            Type::U4 | Type::S4 => 4,
            Type::B8 | Type::U8 | Type::S8 | Type::E4m3 | Type::E5m2 | Type::E2m1x2 => 8,
            Type::B16
            | Type::U16
            | Type::S16
            | Type::F16
            | Type::Bf16
            | Type::E4m3x2
            | Type::E5m2x2
            | Type::E2m3x2
            | Type::E3m2x2
            | Type::Ue8m0x2 => 16,
            Type::B32
            | Type::U32
            | Type::S32
            | Type::F32
            | Type::F16x2
            | Type::Bf16x2
            | Type::Tf32
            | Type::U16x2
            | Type::S16x2 => 32,
            Type::B64 | Type::U64 | Type::S64 | Type::F64 | Type::F32x2 => 64,
            Type::B128 => 128,
        }
    }

    pub fn basic(self) -> BasicType {
        match self {
            Type::B8 | Type::B16 | Type::B32 | Type::B64 | Type::B128 => BasicType::Bits,
            Type::U2 | Type::U4 | Type::U8 | Type::U16 | Type::U32 | Type::U64 | Type::U16x2 => {
                BasicType::Unsigned
            }
            Type::S2 | Type::S4 | Type::S8 | Type::S16 | Type::S32 | Type::S64 | Type::S16x2 => {
                BasicType::Signed
            }
            Type::F16
            | Type::F16x2
            | Type::Bf16
            | Type::Bf16x2
            | Type::Tf32
            | Type::F32
            | Type::F64
            | Type::E4m3x2
            | Type::E5m2x2
            | Type::F32x2
            | Type::E4m3
            | Type::E5m2
            | Type::E2m1x2
            | Type::E2m3x2
            | Type::E3m2x2
            | Type::Ue8m0x2 => BasicType::Float,
            Type::Pred => BasicType::Pred,
        }
    }

    pub fn is_integer(self) -> bool {
        matches!(self.basic(), BasicType::Signed | BasicType::Unsigned)
    }
    pub fn is_signed(self) -> bool {
        self.basic() == BasicType::Signed
    }
    pub fn is_float(self) -> bool {
        self.basic() == BasicType::Float
    }
    pub fn is_bits(self) -> bool {
        self.basic() == BasicType::Bits
    }

    /// The packed SIMD types whose operands are plain 32-bit registers
    /// (ptx-integer-arithmetic.md §add: "For instruction types .u16x2, .s16x2, operands d, a and b
    /// have type .b32").
    pub fn is_packed(self) -> bool {
        matches!(
            self,
            Type::U16x2 | Type::S16x2 | Type::F16x2 | Type::Bf16x2 | Type::F32x2
        )
    }

    /// The type of the same basic kind and twice the size, as `mul.wide`/`mad.wide` produce
    /// (ptx-integer-arithmetic.md §mul: "d = t; // for .wide").
    pub fn widened(self) -> Option<Type> {
        Some(match self {
            Type::U8 => Type::U16,
            Type::U16 => Type::U32,
            Type::U32 => Type::U64,
            Type::S8 => Type::S16,
            Type::S16 => Type::S32,
            Type::S32 => Type::S64,
            Type::B8 => Type::B16,
            Type::B16 => Type::B32,
            Type::B32 => Type::B64,
            Type::B64 => Type::B128,
            Type::F16 => Type::F32,
            Type::F32 => Type::F64,
            _ => return None,
        })
    }

    /// The bit-size type of the same width (`.b32` for `.f32`), if one exists.
    pub fn bits_of_size(bits: u32) -> Option<Type> {
        Some(match bits {
            8 => Type::B8,
            16 => Type::B16,
            32 => Type::B32,
            64 => Type::B64,
            128 => Type::B128,
            _ => return None,
        })
    }

    /// `.u8`, `.s8` (and `.b8`) are restricted to `ld`, `st` and `cvt` (ptx-isa-1.1 §5.2.2);
    /// this says whether a type is one of those sub-word types.
    pub fn is_byte(self) -> bool {
        matches!(self, Type::U8 | Type::S8 | Type::B8)
    }
}

/// Whether an operand declared with `operand` may be used where the instruction expects
/// `instr` (ptx-isa-1.1 §5.2.1, §6.1, §7.4):
/// - identical types are compatible;
/// - the bit-size type is compatible with every type of the same size, either way round;
/// - signed and unsigned integers of the same size are compatible;
/// - a packed SIMD instruction type (`.u16x2`, `.f16x2`, …) takes 32-bit bit-size operands
///   (and, by the integer rule, the 32-bit integer types for the integer packed types);
/// - `.pred` is compatible only with `.pred`.
#[inline]
pub fn compatible(instr: Type, operand: Type) -> bool {
    if instr == operand {
        return true;
    }
    if instr == Type::Pred || operand == Type::Pred {
        return false;
    }
    if instr.size_bits() != operand.size_bits() {
        return false;
    }
    if instr.is_bits() || operand.is_bits() {
        return true;
    }
    if instr.is_packed() || operand.is_packed() {
        // Packed integer lanes live in plain 32-bit integer registers; packed floats only in
        // bit-size (or identically typed) registers.
        return instr.is_integer() && operand.is_integer();
    }
    instr.is_integer() && operand.is_integer()
}

/// The relaxed rule for the value register of `ld`/`st`/`ldu` (PTX ISA 8.x §6.4.1 "Operand
/// Type Information", table "Relaxed type-checking rules for source/destination operands"):
/// for integer and bit-size instruction types the register may be wider than the instruction
/// type (the value is zero/sign-extended on load, truncated on store); float types must match
/// exactly in size. Everything §6.1 accepts is accepted too.
#[inline]
pub fn compatible_ld_st(instr: Type, register: Type) -> bool {
    if compatible(instr, register) {
        return true;
    }
    if instr == Type::Pred || register == Type::Pred {
        return false;
    }
    let int_like = |t: Type| t.is_integer() || t.is_bits();
    if instr.is_float() {
        // A float value may sit in a bit-size register of at least its size.
        return register.is_bits() && register.size_bits() >= instr.size_bits();
    }
    int_like(instr) && int_like(register) && register.size_bits() >= instr.size_bits()
}

/// `cvt` accepts any pair of numeric types (ptx-isa-1.1 §6.5.1, Table 7); this says whether a
/// register type may hold the given `cvt` operand type (the instruction's own rule is §6.1).
pub fn compatible_cvt(instr: Type, register: Type) -> bool {
    compatible(instr, register)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_round_trips_for_every_type() {
        for t in Type::ALL {
            assert_eq!(Type::from_suffix(t.suffix()), Some(t));
        }
        assert_eq!(Type::from_suffix(".u33"), None);
    }

    /// §5.2.1 transcribed literally: same basic type and same size; signed and unsigned of the
    /// same size; bit-size with any type of the same size.
    #[test]
    fn compatibility_matches_section_5_2_1_for_the_1_1_types() {
        let v11 = [
            Type::S8,
            Type::S16,
            Type::S32,
            Type::S64,
            Type::U8,
            Type::U16,
            Type::U32,
            Type::U64,
            Type::F16,
            Type::F32,
            Type::F64,
            Type::B8,
            Type::B16,
            Type::B32,
            Type::B64,
            Type::Pred,
        ];
        let size = |t: &Type| -> u32 {
            let s = t.suffix();
            if s == ".pred" {
                return 0;
            }
            s[2..].parse().unwrap()
        };
        let kind = |t: &Type| t.suffix().as_bytes()[1];
        for a in &v11 {
            for b in &v11 {
                let same_size = size(a) == size(b);
                let expected = (kind(a) == kind(b) && same_size)
                    || (matches!(kind(a), b's' | b'u')
                        && matches!(kind(b), b's' | b'u')
                        && same_size)
                    || ((kind(a) == b'b' || kind(b) == b'b') && same_size && size(a) != 0);
                assert_eq!(
                    compatible(*a, *b),
                    expected,
                    "{} vs {}",
                    a.suffix(),
                    b.suffix()
                );
            }
        }
    }

    #[test]
    fn packed_types_take_32_bit_registers() {
        assert!(compatible(Type::U16x2, Type::B32));
        assert!(compatible(Type::S16x2, Type::U32));
        assert!(compatible(Type::F16x2, Type::B32));
        assert!(!compatible(Type::F16x2, Type::U32));
        assert!(!compatible(Type::U16x2, Type::F32));
        assert!(!compatible(Type::U16x2, Type::U16));
    }

    #[test]
    fn ld_st_relaxed_rule() {
        assert!(compatible_ld_st(Type::U8, Type::U32));
        assert!(compatible_ld_st(Type::S16, Type::S64));
        assert!(compatible_ld_st(Type::B8, Type::B16));
        assert!(!compatible_ld_st(Type::U32, Type::U16));
        assert!(!compatible_ld_st(Type::F32, Type::F64));
        assert!(compatible_ld_st(Type::F32, Type::B32));
        assert!(!compatible_ld_st(Type::Pred, Type::U32));
    }

    #[test]
    fn widened_doubles_size_and_keeps_kind() {
        for t in Type::ALL {
            if let Some(w) = t.widened() {
                assert_eq!(w.size_bits(), 2 * t.size_bits());
                assert_eq!(w.basic(), t.basic());
            }
        }
    }
}
