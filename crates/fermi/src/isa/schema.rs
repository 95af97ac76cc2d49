//! The vocabulary the instruction table is written in: rows, modifier groups and operand fields.
//! Every direction (encode, decode, print, parse) interprets these same values.

/// Bit positions are in NVIDIA's instruction order: bit 0 is the least significant bit of the
/// first 32-bit word in memory, bit 63 the most significant bit of the second (see `bits.rs`).
pub type BitPos = u8;

/// Marks an optional decoration bit (negate, absolute value, `.CC`, `!`) that a field lacks.
pub const NONE: BitPos = u8::MAX;

/// A modifier group: a set of bits (listed least significant first; they need not be adjacent)
/// whose value selects one spelling. The first spelling listed for a value is the one printed;
/// later ones for the same value are accepted when parsing (asfermi spellings).
#[derive(Clone, Copy, Debug)]
pub struct Mod {
    pub what: &'static str,
    pub bits: &'static [BitPos],
    pub names: &'static [(u8, &'static str)],
    /// Spellings an older cuobjdump used instead (see `Dialect::Legacy`); empty = same.
    pub legacy: &'static [(u8, &'static str)],
}

/// How an operand's bits are laid out and printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// General-purpose register, 6 bits (63 = `RZ`).
    Reg,
    /// Predicate register, 3 bits (7 = `pt`).
    Pred,
    /// The composite operand in bits 26–47: bits 46–47 select a register (0), a constant
    /// `c [bank] [offset]` (1) or a 20-bit sign-extended immediate (3).
    Comp,
    /// An immediate of `width` bits, printed in hex (negative values as `-0x…` when signed).
    Imm { width: u8, signed: bool },
    /// `[Rn+offset]`: base register at bits 20–25, signed offset of `width` bits at `at`.
    Mem { width: u8 },
    /// `c [bank] [Rn+offset]` (LDC, indirect BRA/BRX): base at 20–25, offset 26–41, bank
    /// 42–46 (five bits: these forms have no composite selector).
    Cmem,
    /// A predicate split in two: its low two bits at `at` (8–9) and its high bit at 58
    /// (asfermi `OpcodeDataMovement.md`, LDLK `p_0`/`p_1`; Mesa `setPDSTL`).
    SplitPred,
    /// `c [bank] [offset]` without a selector: offset 26–41, bank 42–45. The constant of a
    /// three-source form whose composite selector (46–47) is fixed at 2, i.e. the constant
    /// in the *fourth* operand position (Mesa `emitForm_A`: `s == 2` sets `0x8000` in
    /// `code[1]` and moves the register source to bit 49).
    Const,
    /// Special register (S2R), 8 bits, printed by name (`SR_Tid_X`).
    Sreg,
    /// Branch target: `width`-bit signed byte offset from the next instruction, printed as the
    /// absolute address.
    Target { width: u8 },
    /// Absolute code address of `width` bits (JMP, JCAL), printed in hex.
    AbsTarget { width: u8 },
    /// Fixed text with no bits of its own.
    Text(&'static str),
    /// A `width`-bit field at `at` printed by name (a condition code `CC.LT`, a texture
    /// dimension `2D`). A value without a name prints as a hex number, which the parser also
    /// takes (like `SR<n>` for special registers).
    Named {
        width: u8,
        names: &'static [(u8, &'static str)],
    },
    /// `[Rn+offset]` of ATOM with a destination: base at 20–25, a 20-bit signed byte offset
    /// whose low 17 bits sit at 26–42 and high 3 bits at 55–57 (Mesa's `emitATOM`).
    AtomMem,
    /// `[Rn+offset]` whose offset field at `at` counts 4-byte words (`width` bits, signed);
    /// the text shows the byte offset, a multiple of 4 (Mesa's `emitCCTL`, global form).
    MemWords { width: u8 },
}

/// One operand of a row, in print order.
#[derive(Clone, Copy, Debug)]
pub struct Opd {
    pub kind: Kind,
    /// Lowest bit of the operand's value field.
    pub at: BitPos,
    /// Bit meaning `-x`, `!p`, `|x|`, `x.CC`; `NONE` when the form has none.
    pub neg: BitPos,
    pub not: BitPos,
    pub abs: BitPos,
    pub cc: BitPos,
    /// 32 or 64 when the immediate holds (the top bits of) a float of that width, so the
    /// parser also accepts a float literal (`1.5`); 0 otherwise.
    pub float: u8,
    /// The field value (register or predicate number, immediate, named value) at which the
    /// operand may be left out of the text; `NONE` if it is always written. A row prints
    /// without all such operands when every one holds its value (and no decoration), and
    /// parses text that leaves all of them out.
    pub omit: u8,
}

impl Opd {
    const fn of(kind: Kind, at: BitPos) -> Opd {
        Opd {
            kind,
            at,
            neg: NONE,
            not: NONE,
            abs: NONE,
            cc: NONE,
            float: 0,
            omit: NONE,
        }
    }
    /// The operand may be left out of the text when its field holds `value`.
    pub const fn omit(mut self, value: u8) -> Opd {
        self.omit = value;
        self
    }
    /// The immediate is (the top bits of) an IEEE single.
    pub const fn f32(mut self) -> Opd {
        self.float = 32;
        self
    }
    /// The immediate is the top bits of an IEEE double.
    pub const fn f64(mut self) -> Opd {
        self.float = 64;
        self
    }
    pub const fn neg(mut self, bit: BitPos) -> Opd {
        self.neg = bit;
        self
    }
    pub const fn not(mut self, bit: BitPos) -> Opd {
        self.not = bit;
        self
    }
    pub const fn abs(mut self, bit: BitPos) -> Opd {
        self.abs = bit;
        self
    }
    pub const fn cc(mut self, bit: BitPos) -> Opd {
        self.cc = bit;
        self
    }
}

/// A general-purpose register field at `at`.
pub const fn reg(at: BitPos) -> Opd {
    Opd::of(Kind::Reg, at)
}
/// A predicate field at `at`.
pub const fn pred(at: BitPos) -> Opd {
    Opd::of(Kind::Pred, at)
}
/// The composite operand (bits 26–47).
pub const fn comp() -> Opd {
    Opd::of(Kind::Comp, 26)
}
/// An unsigned immediate.
pub const fn uimm(at: BitPos, width: u8) -> Opd {
    Opd::of(
        Kind::Imm {
            width,
            signed: false,
        },
        at,
    )
}
/// A signed immediate.
pub const fn simm(at: BitPos, width: u8) -> Opd {
    Opd::of(
        Kind::Imm {
            width,
            signed: true,
        },
        at,
    )
}
/// A memory address with a signed offset of `width` bits at bit 26.
pub const fn mem(width: u8) -> Opd {
    Opd::of(Kind::Mem { width }, 26)
}
/// A constant-bank address with a register (LDC).
pub const fn cmem() -> Opd {
    Opd::of(Kind::Cmem, 26)
}
/// A constant-bank operand without a selector (offset 26–41, bank 42–45).
pub const fn cbank() -> Opd {
    Opd::of(Kind::Const, 26)
}
/// A predicate with its low two bits at 8–9 and its high bit at 58.
pub const fn split_pred() -> Opd {
    Opd::of(Kind::SplitPred, 8)
}
/// A special register at bit 26.
pub const fn sreg() -> Opd {
    Opd::of(Kind::Sreg, 26)
}
/// A relative branch target at bit 26.
pub const fn target(width: u8) -> Opd {
    Opd::of(Kind::Target { width }, 26)
}
/// An absolute branch target at bit 26.
pub const fn abs_target(width: u8) -> Opd {
    Opd::of(Kind::AbsTarget { width }, 26)
}
/// Literal text without bits.
pub const fn text(s: &'static str) -> Opd {
    Opd::of(Kind::Text(s), NONE)
}
/// A field printed by name.
pub const fn named(at: BitPos, width: u8, names: &'static [(u8, &'static str)]) -> Opd {
    Opd::of(Kind::Named { width, names }, at)
}
/// ATOM's split address (base at 20, offset at 26–42 and 55–57).
pub const fn atom_mem() -> Opd {
    Opd::of(Kind::AtomMem, 26)
}
/// An address whose signed offset of `width` bits at `at` counts 4-byte words.
pub const fn mem_words(at: BitPos, width: u8) -> Opd {
    Opd::of(Kind::MemWords { width }, at)
}

/// Whether the encoding of a row is confirmed by NVIDIA's listings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Bits derived from `cuobjdump -sass` listings (test vectors exist).
    Listings,
    /// Documented bit for bit by the spec page (asfermi-integer-opcodes.md) but absent from
    /// the listings; tested against the page's template.
    SpecPage,
    /// The other operand form of a listed instruction (e.g. the immediate form of VADD); the
    /// reason says what its layout rests on.
    Derived(&'static str),
    /// Only asfermi documents it; no listing contains it (the reason says what it rests on).
    AsfermiOnly(&'static str),
    /// Absent from the listings; the layout is that of Mesa 22.3.6's Fermi emitter
    /// (`src/nouveau/codegen/nv50_ir_emit_nvc0.cpp`), in the function named.
    Mesa(&'static str),
    /// Absent from the listings, asfermi's pages and Mesa's Fermi emitter; the layout is that
    /// of envytools' Fermi disassembler (`envydis/gf100.c`, commit f102b823), in the table
    /// entry quoted.
    Envydis(&'static str),
}

/// One instruction form. `template` is the full 64-bit pattern written least significant bit
/// first, in the spec page's style; bits under modifier and operand fields (and the guard, bits
/// 10–13, and `.S`, bit 4) are ignored, every other bit is fixed and identifies the form.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub name: &'static str,
    pub template: &'static str,
    pub mods: &'static [Mod],
    pub operands: &'static [Opd],
    /// False for the few forms (SSY, PBK, ...) whose bits 10–13 are not a guard predicate.
    pub guarded: bool,
    /// When both of its negatable operands are negated, cuobjdump writes `.PO` instead of two
    /// minus signs (spec page: IADD, IMAD, ISCADD, VADD).
    pub po: bool,
    pub source: Source,
}
