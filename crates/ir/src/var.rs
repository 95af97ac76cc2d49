//! Variables in addressable, texture and surface state spaces.

use crate::{FuncId, Space, Type, VarId};
use diag::Span;

/// One declared variable (`.global .u32 x[4] = {1,2,3,4};`, a `.param` parameter, a `.local`
/// array in a function body, a `.tex` binding, ...).
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Source name, for messages and symbol tables (e.g. a cubin writer).
    pub name: String,
    pub space: Space,
    /// `.const[N]`: the constant bank (0 for every other space and for plain `.const`).
    pub const_bank: u8,
    /// The element type (`.u32`, `.v4 .f32`, a `.struct`, or none for `.tex`/`.surf`).
    pub ty: VarType,
    /// Array dimensions, outermost first; empty for a scalar. An extern unsized array
    /// (`.extern .shared .b8 smem[];`) has a single dimension of 0 and `size` 0: its storage is
    /// supplied at launch (dynamic shared memory).
    pub dims: Vec<u64>,
    /// Total size in bytes (element size × product of dims).
    pub size: u64,
    /// Byte alignment: `.align N` if given, otherwise the natural alignment of the element
    /// type. Always a power of two.
    pub align: u32,
    /// The initializer, already laid out as bytes. Also present for `.shared`/`.local`
    /// variables initialized in the source (ptx-isa-1.1 §5.3.1 examples; the checker warns
    /// because §5.1 Table 5 calls those spaces non-initializable): apply it when the storage
    /// is created (per CTA / per thread).
    pub init: Option<Initializer>,
    /// Where it is declared, which also says how the storage is instantiated.
    pub scope: VarScope,
    pub linkage: Linkage,
    /// For pointer-valued kernel parameters: `.ptr .global .align 16` etc.
    pub ptr: Option<PtrAttr>,
    /// For `.tex` variables: the physical texture id (`.tex[i]` or assigned sequentially from 0,
    /// ptx-isa-1.1 §5.1.8).
    pub tex_id: Option<u32>,
    /// The declaration, for messages.
    pub span: Span,
}

impl Variable {
    /// Number of scalar elements (array elements × vector width); 0 for opaque variables.
    pub fn element_count(&self) -> u64 {
        let per = match &self.ty {
            VarType::Scalar { vector, .. } => u64::from(*vector),
            _ => 1,
        };
        self.dims.iter().fold(per, |n, d| n.saturating_mul(*d))
    }
}

/// The element type of a variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarType {
    /// A fundamental type, possibly as a `.v2/.v3/.v4` vector (`vector` is 1 for a scalar).
    Scalar { ty: Type, vector: u8 },
    /// A `.struct`/`.union` type: only its layout matters after checking.
    Aggregate { name: String, size: u64, align: u32 },
    /// `.tex` / `.surf` (no type or size, ptx-isa-1.1 §5.3.1).
    Opaque,
}

/// A variable's initial contents: little-endian bytes plus address relocations.
///
/// `bytes.len()` equals the variable's size; elements without an initializer are zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Initializer {
    pub bytes: Vec<u8>,
    /// Address-of-variable/function initializers (`.global .u64 p = x;`, `= {f, g}`): at load
    /// time, write the target's address plus `addend` as a `width`-byte little-endian integer
    /// at `offset` (the bytes there are zero).
    pub relocs: Vec<Reloc>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reloc {
    pub offset: u64,
    pub width: u8,
    pub target: RelocTarget,
    pub addend: i64,
    /// `generic(x)` in the initializer: the generic address rather than the space address.
    pub generic: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RelocTarget {
    Var(VarId),
    Func(FuncId),
}

/// Where a variable was declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarScope {
    /// At module scope.
    Module,
    /// A parameter of this function/entry (kernel `.param`s and `.func` `.param` arguments and
    /// return values).
    Param(FuncId),
    /// Declared in the body of this function (`.local`, `.shared`, `.param` for call arguments,
    /// `.const`/`.global` with function scope). `.shared` storage is per CTA and `.local`/`.param`
    /// storage per thread (per activation when the function is re-entered).
    Body(FuncId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Linkage {
    /// Visible in this module only.
    #[default]
    Internal,
    /// `.visible`.
    Visible,
    /// `.extern`: declared here, defined elsewhere (or storage supplied at launch for
    /// unsized `.extern .shared` arrays).
    Extern,
    /// `.weak`.
    Weak,
    /// `.common`.
    Common,
}

/// `.ptr .space .align N` on a kernel parameter (the space defaults to generic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PtrAttr {
    pub space: Option<Space>,
    pub align: u32,
}
