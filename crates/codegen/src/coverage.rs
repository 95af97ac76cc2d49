//! Which PTX instructions have a selection rule, and why the others do not (yet).
//!
//! [`status`] is an exhaustive `match` over every opcode of the `isa` table, so a new opcode
//! cannot be added without deciding here; the coverage test walks every table row with it.
//! A rule covers the forms `select.rs` documents; other types or modifiers of a covered opcode
//! are reported as errors naming the form at translation time, never mistranslated.

use ir::Opcode;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Selected; the text says which forms.
    Rule(&'static str),
    /// Not selected, with the reason.
    NotSupported(&'static str),
}

const LATER: &str = "sm_20 can express it, but no selection rule is written yet";

pub fn status(op: Opcode) -> Status {
    use Opcode::*;
    use Status::*;
    match op {
        Add => Rule(".s32/.u32 (IADD), .s64/.u64 (IADD.CC + IADD.X), .cc chains, .f32 (FADD), .f64 (DADD)"),
        Sub => Rule(".s32/.u32 (IADD with negated operand), .cc chains, .f32 (FADD), .f64 (DADD)"),
        Mul => Rule(".lo/.hi/.wide on 32-bit integers (IMUL[.HI]), .f32 (FMUL), .f64 (DMUL)"),
        Mad => Rule(".lo on 32-bit integers (IMAD), .rn/.rz/.rm/.rp .f32/.f64 (FFMA/DFMA)"),
        Fma => Rule(".f32 (FFMA), .f64 (DFMA) with every rounding mode"),
        Min | Max => Rule(".s32/.u32 (IMNMX); .f32 waits for the Fermi executor to run FMNMX"),
        Neg | Abs => Rule(".s32 (IADD RZ, -a; I2I.S32.S32 |a|), .f32 sign-bit LOP32I (exact for -0 and NaN)"),
        Membar => Rule("membar.cta/.gl/.sys (MEMBAR)"),
        And | Or | Xor => Rule(".b32 (LOP), .b64 (two LOPs)"),
        Not => Rule(".b32 (LOP.PASS_B with inverted source)"),
        Shl | Shr => Rule(".b32/.u32/.s32 (SHL, SHR, SHR.U32); 64-bit by an immediate (on the halves)"),
        Setp => Rule("32-bit integer (ISETP) and .f32 (FSETP) comparisons with a boolean combiner"),
        Selp => Rule("32- and 64-bit (SEL)"),
        Mov => Rule("registers, immediates, %tid/%ctaid (S2R), %ntid/%nctaid (c[0x0]), shared variable addresses"),
        Ld => Rule(".param (c[0x0][0x20+]), .global/generic (LD, LD.E), .shared (LDS); vectors as one access per element"),
        St => Rule(".global/generic (ST, ST.E), .shared (STS); vectors as one access per element"),
        Cvt => Rule("integer widening/narrowing (MOV, SHR for sign, I2I), int->float (I2F), float->int (F2I), float->float (F2F) with PTX's rounding modes; not .sat, not f16"),
        Cvta => Rule(".global to and from generic (identity on sm_20's flat global window)"),
        Bar | Barrier => Rule("bar.sync 0 (BAR.RED.POPC RZ, RZ, as NVIDIA emits __syncthreads)"),
        Bra => Rule("uniform and divergent branches, SSY/.S at the immediate post-dominator"),
        Ret | Exit => Rule("EXIT in an entry"),
        Mul24 | Mad24 | Sad | Div | Rem | Clz | Bfind | Brev | Bfe => {
            NotSupported(LATER)
        }
        Addc | Subc => Rule("32/64-bit chains within a block (IADD.X), additions and subtractions not mixed"),
        Madc => NotSupported("IMAD has no .X form in the table: the carry-in of madc cannot be expressed in one instruction; no sequence written yet"),
        Rcp | Sqrt | Rsqrt | Sin | Cos | Lg2 | Ex2 | Testp | Copysign => NotSupported(LATER),
        Set | Slct | Cnot | Prmt | Isspacep => NotSupported(LATER),
        Ldu | Prefetch | Prefetchu => NotSupported(LATER),
        Tex | Txq => NotSupported("the Fermi executor does not run textures, so no translation could be proven"),
        Call => NotSupported("the call ABI (CAL/RET with parameters on the stack) is not yet translated"),
        Brx => NotSupported("the Fermi executor does not run BRX, so no translation could be proven"),
        Fence => NotSupported("requires sm_70: sm_20 code uses membar"),
        Atom | Red => NotSupported("the Fermi executor does not run ATOM/RED, so no translation could be proven"),
        Vote => Rule("vote.all/.any/.uni .pred and vote.ballot.b32 without .sync (VOTE.ALL/ANY/EQ)"),
        Bfi => Rule(".b32 (BFI with position and length packed, as NVIDIA does)"),
        Popc => Rule(".b32 (POPC d, a, a)"),
        Trap | Brkpt | Pmevent => NotSupported(LATER),
        Vadd | Vsub | Vabsdiff | Vmin | Vmax | Vshl | Vshr | Vmad | Vset => NotSupported(LATER),
        Fns | Szext | Bmsk | Dp4a | Dp2a | Tanh | Lop3 | Shf | Shfl | Activemask | Redux | Match
        | Nanosleep => NotSupported("requires sm_30 or later: sm_20 has no instruction for it"),
        Cp | Ldmatrix | Stmatrix | Movmatrix | Mma | Elect => {
            NotSupported("requires sm_70 or later: sm_20 has no instruction for it")
        }
        Vadd2 | Vsub2 | Vavrg2 | Vabsdiff2 | Vmin2 | Vmax2 | Vset2 | Vadd4 | Vsub4 | Vavrg4
        | Vabsdiff4 | Vmin4 | Vmax4 | Vset4 => {
            NotSupported("SIMD video instructions require sm_30 or later")
        }
    }
}
