//! The decoded program: what the loader produces and the warp loop runs.
//!
//! Every instruction is a small enum variant whose operands are register slots, immediates or
//! instruction indices, so running it never looks up a name or re-parses a modifier. Values live
//! in three register banks: `r32` (every 8/16/32-bit register, stored zero-extended to 32 bits),
//! `r64` (64-bit registers) and `pred` (one bit per lane). Operand kinds are specialised into
//! separate variants (register/register and register/immediate) where the hot loops need it.

/// A 32-bit-bank register slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct R32(pub u32);
/// A 64-bit-bank register slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct R64(pub u32);
/// A predicate register slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pred(pub u32);

/// Any register, for the generic (slow-path) instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reg {
    R32(R32),
    R64(R64),
    Pred(Pred),
}

/// A 32-bit source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum S32 {
    Reg(R32),
    Imm(u32),
}

/// A 64-bit source operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum S64 {
    Reg(R64),
    Imm(u64),
}

/// A source of any width, for the generic instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Src {
    Reg(Reg),
    Imm(u64),
}

/// Operand width of the 32-bit bank ALU: 8/16-bit registers keep 8/16-bit semantics by
/// extending the inputs (sign- or zero-, as the operation's signedness says) and truncating the
/// result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    W8,
    W16,
    W32,
}

impl Width {
    pub fn mask(self) -> u32 {
        match self {
            Width::W8 => 0xff,
            Width::W16 => 0xffff,
            Width::W32 => u32::MAX,
        }
    }
    pub fn bits(self) -> u32 {
        match self {
            Width::W8 => 8,
            Width::W16 => 16,
            Width::W32 => 32,
        }
    }
}

/// Two-operand integer and bit operations, shared by the 32-bit and 64-bit banks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntOp {
    Add,
    Sub,
    MulLo,
    MulHiU,
    MulHiS,
    DivU,
    DivS,
    RemU,
    RemS,
    MinU,
    MinS,
    MaxU,
    MaxS,
    And,
    Or,
    Xor,
    Shl,
    ShrU,
    ShrS,
    AddSatS,
    SubSatS,
    Mul24LoU,
    Mul24LoS,
    Mul24HiU,
    Mul24HiS,
}

impl IntOp {
    /// Whether narrow operands are sign-extended before the operation.
    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntOp::MulHiS
                | IntOp::DivS
                | IntOp::RemS
                | IntOp::MinS
                | IntOp::MaxS
                | IntOp::ShrS
                | IntOp::AddSatS
                | IntOp::SubSatS
                | IntOp::Mul24LoS
                | IntOp::Mul24HiS
        )
    }
}

/// One-operand integer and bit operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Mov,
    Not,
    Cnot,
    Neg,
    AbsS,
    Popc,
    Clz,
    Brev,
}

/// Floating-point two-operand operations (IEEE, round-to-nearest-even unless `rnd` says else).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FOp {
    Add,
    Sub,
    Mul,
    Div,
    Min,
    Max,
}

/// Floating-point one-operand operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FUnOp {
    Neg,
    Abs,
    Sqrt,
    Rcp,
    Rsqrt,
    Sin,
    Cos,
    Lg2,
    Ex2,
}

/// IEEE rounding of a floating-point result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    Rn,
    Rz,
    Rm,
    Rp,
}

/// `.ftz` / `.sat` / rounding of a floating-point instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FMode {
    pub rnd: Rounding,
    pub ftz: bool,
    pub sat: bool,
    /// `.approx` (or `.full` for `div`): the approximate forms of `ops`.
    pub approx: Approx,
}

/// Which precision an instruction asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Approx {
    /// IEEE rounding per `rnd`.
    Ieee,
    Approx,
    /// `div.full.f32`.
    Full,
}

impl FMode {
    pub const PLAIN: FMode = FMode {
        rnd: Rounding::Rn,
        ftz: false,
        sat: false,
        approx: Approx::Ieee,
    };
}

/// Comparison operator of `setp`/`set`/`slct`, integer and float.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    // Floating-point only: ordered/unordered variants.
    Equ,
    Neu,
    Ltu,
    Leu,
    Gtu,
    Geu,
    Num,
    Nan,
}

/// How the operands of a comparison are interpreted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpTy {
    U,
    S,
    F,
    /// Float with `.ftz`: subnormal inputs compare as zero of the same sign.
    Fftz,
    /// `.f16`/`.bf16` (`ftz`: subnormals compare as zero).
    Half(ops::half::HalfFormat, bool),
    /// `.f16x2`/`.bf16x2`: each half compared on its own (`setp` writes p from the low
    /// halves, q from the high halves).
    Half2(ops::half::HalfFormat, bool),
}

/// Boolean combination of `setp` with a third predicate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoolOp {
    And,
    Or,
    Xor,
}

/// A scalar type as it appears in conversions and in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F16,
    /// Only as a `cvt` source or destination.
    Bf16,
    F32,
    F64,
}

impl Scalar {
    pub fn bytes(self) -> u32 {
        match self {
            Scalar::U8 | Scalar::S8 => 1,
            Scalar::U16 | Scalar::S16 | Scalar::F16 | Scalar::Bf16 => 2,
            Scalar::U32 | Scalar::S32 | Scalar::F32 => 4,
            Scalar::U64 | Scalar::S64 | Scalar::F64 => 8,
        }
    }
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::S8 | Scalar::S16 | Scalar::S32 | Scalar::S64)
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::Bf16 | Scalar::F32 | Scalar::F64)
    }
}

/// A memory state space as the executor distinguishes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Global,
    Shared,
    Local,
    Const,
    /// Kernel parameters: read-only, the same for every thread.
    Param,
    /// Generic addresses: the window decides the space at run time.
    Generic,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => ".global",
            Space::Shared => ".shared",
            Space::Local => ".local",
            Space::Const => ".const",
            Space::Param => ".param",
            Space::Generic => "generic",
        }
    }
}

/// An address operand: `[base + offset]`; the base is a register or absent (absolute address;
/// variable addresses are folded into `offset` at load time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrBase {
    None,
    R32(R32),
    R64(R64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addr {
    pub base: AddrBase,
    pub offset: i64,
    /// Local/param addresses of `.func` frames are relative to the thread's frame pointer.
    pub frame_relative: bool,
}

/// Atomic read-modify-write operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomOp {
    And,
    Or,
    Xor,
    Cas,
    Exch,
    Add,
    Inc,
    Dec,
    MinU,
    MinS,
    MaxU,
    MaxS,
    AddF32,
    AddF64,
    /// `atom.add.noftz.{f16,f16x2,bf16,bf16x2}` (`x2`: packed), rounded to nearest even.
    AddHalf {
        f: ops::half::HalfFormat,
        x2: bool,
    },
}

/// A special register read by `mov`/`cvt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sreg {
    Tid(u8),
    Ntid(u8),
    Ctaid(u8),
    Nctaid(u8),
    Gridid,
    Clock,
    Clock64,
    Laneid,
    Warpid,
    Nwarpid,
    Smid,
    Nsmid,
    LanemaskEq,
    LanemaskLe,
    LanemaskLt,
    LanemaskGe,
    LanemaskGt,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteMode {
    All,
    Any,
    Uni,
    Ballot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReduxOp {
    Add,
    MinU,
    MinS,
    MaxU,
    MaxS,
    And,
    Or,
    Xor,
    /// `.f32` min/max with `.abs` and `.NaN` (sm_100a).
    MinF32 {
        abs: bool,
        nan: bool,
    },
    MaxF32 {
        abs: bool,
        nan: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarKind {
    Sync,
    Arrive,
    /// `bar.red.popc` (count into a 32-bit register) / `.and` / `.or` (into a predicate).
    RedPopc,
    RedAnd,
    RedOr,
}

/// Where a call argument comes from / a result goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallArg {
    /// 1.1 register form: a register copied to/from the callee's parameter register.
    Reg { caller: Reg, callee: Reg },
    /// `.param` ABI form: bytes copied between the caller's frame and the callee's frame.
    Param {
        caller_off: u32,
        callee_off: u32,
        size: u32,
    },
    /// A caller register (or materialised constant) bound to the callee's `.param` slot at
    /// `off`: stored there on entry (little-endian, `size` bytes) or, for a result, loaded from
    /// there on return.
    RegParam { reg: Reg, off: u32, size: u32 },
}

/// One decoded instruction.
#[derive(Clone, Debug)]
pub enum Op {
    /// 32-bit-bank integer op, both operands registers.
    IntRR {
        op: IntOp,
        w: Width,
        d: R32,
        a: R32,
        b: R32,
    },
    /// 32-bit-bank integer op, second operand immediate.
    IntRI {
        op: IntOp,
        w: Width,
        d: R32,
        a: R32,
        b: u32,
    },
    /// 32-bit-bank integer op, first operand immediate.
    IntIR {
        op: IntOp,
        w: Width,
        d: R32,
        a: u32,
        b: R32,
    },
    /// 64-bit integer op.
    Int64 {
        op: IntOp,
        d: R64,
        a: S64,
        b: S64,
    },
    Un32 {
        op: UnOp,
        w: Width,
        d: R32,
        a: S32,
    },
    Un64 {
        op: UnOp,
        d: R64,
        a: S64,
    },
    /// `mad.lo`/`mad.hi` and `mad24` on the 32-bit bank: `d = mul(a, b) + c`.
    Mad32 {
        mul: IntOp,
        w: Width,
        d: R32,
        a: S32,
        b: S32,
        c: S32,
    },
    Mad64 {
        mul: IntOp,
        d: R64,
        a: S64,
        b: S64,
        c: S64,
    },
    /// `mul.wide` / `mad.wide` from 16 to 32 bits or 32 to 64 bits.
    MulWide16 {
        signed: bool,
        d: R32,
        a: S32,
        b: S32,
        c: Option<S32>,
    },
    MulWide32 {
        signed: bool,
        d: R64,
        a: S32,
        b: S32,
        c: Option<S64>,
    },
    /// Extended-precision arithmetic using the per-thread carry flag.
    Carry32 {
        op: CarryOp,
        cc_in: bool,
        cc_out: bool,
        d: R32,
        a: S32,
        b: S32,
        c: S32,
    },
    Carry64 {
        op: CarryOp,
        cc_in: bool,
        cc_out: bool,
        d: R64,
        a: S64,
        b: S64,
        c: S64,
    },
    F32 {
        op: FOp,
        mode: FMode,
        d: R32,
        a: S32,
        b: S32,
    },
    F64 {
        op: FOp,
        mode: FMode,
        d: R64,
        a: S64,
        b: S64,
    },
    FUn32 {
        op: FUnOp,
        mode: FMode,
        d: R32,
        a: S32,
    },
    FUn64 {
        op: FUnOp,
        mode: FMode,
        d: R64,
        a: S64,
    },
    Fma32 {
        mode: FMode,
        d: R32,
        a: S32,
        b: S32,
        c: S32,
    },
    Fma64 {
        mode: FMode,
        d: R64,
        a: S64,
        b: S64,
        c: S64,
    },
    /// `setp` on the 32-bit bank.
    Setp32 {
        cmp: CmpOp,
        ty: CmpTy,
        w: Width,
        p: Pred,
        q: Option<Pred>,
        a: S32,
        b: S32,
        comb: Option<(BoolOp, Pred, bool)>,
    },
    Setp64 {
        cmp: CmpOp,
        ty: CmpTy,
        p: Pred,
        q: Option<Pred>,
        a: S64,
        b: S64,
        comb: Option<(BoolOp, Pred, bool)>,
    },
    /// `selp`: `d = p ? a : b`, any bank.
    Selp32 {
        d: R32,
        a: S32,
        b: S32,
        p: Pred,
    },
    Selp64 {
        d: R64,
        a: S64,
        b: S64,
        p: Pred,
    },
    /// Predicate logic: `and/or/xor/not/mov` on predicates.
    PredOp {
        op: PredLogic,
        d: Pred,
        a: PredSrc,
        b: PredSrc,
    },
    /// Generic conversion between any scalar types (cvt, and moves between banks).
    Cvt {
        d: Reg,
        dty: Scalar,
        a: Src,
        aty: Scalar,
        /// The modifiers as spelled, decoded for `ops::cvt::cvt` (which owns the defaults).
        mode: ops::cvt::CvtMode,
    },
    /// `mov.b64 d, {a, b}` and friends: pack 32-bit-bank lanes into a 64-bit register.
    Pack64 {
        d: R64,
        lo: S32,
        hi: S32,
    },
    /// `mov.b64 {a, b}, d`: unpack.
    Unpack64 {
        lo: Option<R32>,
        hi: Option<R32>,
        a: R64,
    },
    /// Pack/unpack of 16-bit halves in a 32-bit register.
    Pack32 {
        d: R32,
        lo: S32,
        hi: S32,
    },
    Unpack32 {
        lo: Option<R32>,
        hi: Option<R32>,
        a: R32,
    },
    /// The address of a frame-relative `.local`/`.param` variable of a `.func`.
    FrameAddr {
        d: Reg,
        off: u32,
    },
    /// Read a special register into a 32- or 64-bit register.
    Sreg {
        d: Reg,
        sreg: Sreg,
    },
    /// Generic per-lane slow path for the rarer instructions (bfe, bfi, prmt, video, ...).
    Lanewise {
        f: LaneFn,
        d: Reg,
        srcs: [Src; 4],
    },
    /// A rare instruction evaluated lane by lane (see `lane_ops`).
    Lane {
        f: crate::lane_ops::LaneOp,
        d: Reg,
        srcs: [Src; 4],
    },
    Ld {
        space: Space,
        ty: Scalar,
        /// Width of 32-bit-bank destinations (narrow registers keep narrow values).
        w: Width,
        d: [Option<Reg>; 4],
        n: u8,
        /// The alignment in bytes the whole vector access needs (a `.v8` is lowered to two
        /// of these, the first carrying the 32-byte alignment); 0 for a scalar access, whose
        /// element alignment `locate` checks.
        align: u8,
        addr: Addr,
    },
    St {
        space: Space,
        ty: Scalar,
        a: [Src; 4],
        n: u8,
        /// As for `Ld`.
        align: u8,
        addr: Addr,
    },
    /// `atom.cas.b128 d, [a], b, c`: registers are the low halves of 128-bit pairs.
    AtomCas128 {
        space: Space,
        d: R64,
        addr: Addr,
        b: R64,
        c: R64,
    },
    Atom {
        space: Space,
        op: AtomOp,
        ty: Scalar,
        d: Option<Reg>,
        addr: Addr,
        b: Src,
        c: Src,
    },
    /// `cvta` between generic and a specific space (the opposite direction with `to`).
    Cvta {
        to: bool,
        space: Space,
        d: Reg,
        a: Src,
    },
    Bra {
        target: u32,
    },
    /// `brx.idx`: each lane branches to `targets[index]`.
    BrxIdx {
        index: R32,
        targets: Box<[u32]>,
    },
    Call {
        func: u32,
        /// Frame bytes of the calling function: the callee's frame starts after them.
        caller_frame: u32,
        args: Vec<CallArg>,
        rets: Vec<CallArg>,
    },
    /// `call` through a function pointer: the possible targets with their bindings.
    CallIndirect {
        fptr: Reg,
        caller_frame: u32,
        targets: Vec<(u32, Vec<CallArg>, Vec<CallArg>)>,
        /// The call names its targets (`flist`): a pointer to none of them faults as
        /// outside the list rather than as a wild pointer.
        listed: bool,
    },
    Ret,
    Exit,
    Trap,
    /// Breakpoint: a no-op when no debugger is attached.
    Brkpt,
    Bar {
        kind: BarKind,
        id: S32,
        count: Option<S32>,
        /// For `bar.red`: the source predicate and the destination.
        red_src: Option<(Pred, bool)>,
        red_dst: Option<Reg>,
    },
    /// `membar`/`fence`: every access is already visible in program order per thread.
    Nop,
    /// `vote{.sync}`; `member` is the `.sync` form's membermask.
    Vote {
        mode: VoteMode,
        a: Pred,
        neg: bool,
        d: Reg,
        member: Option<S32>,
    },
    Shfl {
        mode: ShflMode,
        d: R32,
        p: Option<Pred>,
        a: S32,
        b: S32,
        c: S32,
        member: Option<S32>,
    },
    Activemask {
        d: R32,
    },
    Redux {
        op: ReduxOp,
        d: R32,
        a: R32,
        member: S32,
    },
    /// `mma.sync`, `ldmatrix`, `stmatrix`, `movmatrix` (crate::matrix): boxed, as they are
    /// rare and their register lists long.
    Matrix(Box<MatrixOp>),
    /// `cp.async.ca/.cg` (crate::matrix): copies `size` bytes from global to shared memory at
    /// issue, bytes from `src_size` on being zeros.
    CpAsync {
        dst: Addr,
        dst_space: Space,
        src: Addr,
        size: u8,
        src_size: Option<S32>,
    },
    /// `mbarrier.*` and `cp.async.bulk` (crate::mbarrier): per thread, boxed as they are rare.
    Async(Box<AsyncOp>),
    /// `elect.sync`: the lowest executing lane of `member` is the leader.
    Elect {
        d: Option<R32>,
        p: Option<Pred>,
        member: S32,
    },
    /// `match.any.sync`/`match.all.sync` (`all`) on a 32- or 64-bit value.
    Match {
        all: bool,
        d: R32,
        p: Option<Pred>,
        a: Src,
        member: S32,
    },
    /// `bar.warp.sync membermask`: warps run in lock step, so only the membermask is checked.
    WarpSync {
        member: S32,
    },
    /// SIMD video instructions (`vadd4`, `vabsdiff2`, ...), semantics in `ops::video`.
    Simd4 {
        op: SimdOp,
        mode: ops::video::Simd4Mode,
        d: R32,
        a: S32,
        b: S32,
        c: S32,
    },
    Simd2 {
        op: SimdOp,
        mode: ops::video::Simd2Mode,
        d: R32,
        a: S32,
        b: S32,
        c: S32,
    },
    /// `tex`: `tex` is the texture unit (a handle register or a variable's binding).
    Tex {
        tex: S64,
        dim: u8,
        d: [R32; 4],
        coords: [S32; 3],
        /// Bit k set: coordinate k is f32 (else s32). Array indices are always integers.
        float_coords: u8,
    },
    /// `tex.cube`/`tex.acube`: `coords` are the direction x, y, z (f32 bits, or s32 when
    /// `float_coords` is false) and, for `.acube`, the cube index.
    TexCube {
        tex: S64,
        d: [R32; 4],
        coords: [S32; 4],
        float_coords: bool,
        array: bool,
    },
    /// `txq.tquery.b32 d, [tex]`.
    Txq {
        tex: S64,
        query: TexQuery,
        d: R32,
    },
}

/// What `txq` asks about a texture.
pub use ops::tex::Query as TexQuery;

/// The SIMD video operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimdOp {
    Add,
    Sub,
    Avrg,
    Absdiff,
    Min,
    Max,
}

/// Operations of the extended-precision instructions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CarryOp {
    Add,
    Sub,
    MadLo,
    MadHiU,
    MadHiS,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredLogic {
    And,
    Or,
    Xor,
    Not,
    Mov,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredSrc {
    Reg(Pred, bool),
    Imm(bool),
}

/// A per-lane function over up to four 64-bit inputs, for instructions rare enough that a
/// call per lane is fine.
pub type LaneFn = fn(&[u64; 4]) -> u64;

/// A warp-wide matrix instruction (`Op::Matrix`).
#[derive(Clone, Debug)]
pub enum MatrixOp {
    Mma {
        kind: ops::mma::MmaKind,
        sat: bool,
        d: Vec<Reg>,
        a: Vec<Reg>,
        b: Vec<Reg>,
        c: Vec<Reg>,
    },
    /// `ldmatrix` (`load`) or `stmatrix`: one 8x8 `.b16` matrix per register of `regs`, whose
    /// rows are addressed by lanes 8i..8i+7 of `addr`.
    LdSt {
        load: bool,
        trans: bool,
        space: Space,
        addr: Addr,
        regs: Vec<Reg>,
    },
    Movmatrix {
        d: Reg,
        a: Reg,
    },
    /// `wmma.load` (`load`) or `wmma.store` of one fragment (crate::wmma; layout in
    /// `ops::wmma`): each lane moves its own elements from or to its own address.
    WmmaLdSt {
        load: bool,
        frag: WmmaFrag,
        space: Space,
        addr: Addr,
        stride: Option<S32>,
        regs: Vec<Reg>,
    },
    /// `wmma.mma` (crate::wmma; arithmetic in `ops::wmma`).
    Wmma {
        spec: ops::wmma::MmaSpec,
        d: Vec<Reg>,
        a: Vec<Reg>,
        b: Vec<Reg>,
        c: Vec<Reg>,
    },
}

/// The fragment a `wmma.load`/`wmma.store` moves: shape, operand, element type, layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WmmaFrag {
    pub shape: ops::wmma::Shape,
    pub operand: ops::wmma::Operand,
    pub elem: ops::wmma::Elem,
    pub col_major: bool,
}

/// What an `mbarrier` instruction does to its object (semantics in `ops::mbarrier`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MbarKind {
    Init,
    /// Every arrive-on form; `count` is 1 when the instruction has no count operand.
    Arrive(ops::mbarrier::Arrive),
    ExpectTx,
    CompleteTx,
    /// `test_wait`/`try_wait` with a state (`parity: false`) or a phase parity.
    Wait {
        parity: bool,
    },
    Inval,
}

/// An `mbarrier` instruction or a bulk asynchronous copy (`Op::Async`).
#[derive(Clone, Debug)]
pub enum AsyncOp {
    /// `mbarrier.*` on the object at `addr`: `a` is the count, tx-count, state or parity
    /// operand (`Imm(1)` when absent); `d` receives the state, or `p` the wait's result.
    Mbarrier {
        kind: MbarKind,
        space: Space,
        addr: Addr,
        a: Src,
        d: Option<Reg>,
        p: Option<Pred>,
    },
    /// `mbarrier.pending_count d, state`.
    PendingCount { d: R32, state: Src },
    /// `cp.async.bulk`: `size` bytes from `src` to `dst`, complete at issue; with `mbar`, the
    /// bytes then complete on that mbarrier object (`.mbarrier::complete_tx::bytes`).
    Bulk {
        dst: Addr,
        dst_space: Space,
        src: Addr,
        src_space: Space,
        size: S32,
        mbar: Option<Addr>,
    },
}

/// An instruction with its guard and the source line it came from.
#[derive(Clone, Debug)]
pub struct Inst {
    pub guard: Option<(Pred, bool)>,
    pub op: Op,
    /// 1-based line in the PTX source, for fault messages.
    pub line: u32,
    /// 1 for a PTX instruction, 0 for helper instructions the loader added (operand set-up,
    /// the implicit return at the end of a body): only PTX instructions count in the
    /// thread-instruction statistics.
    pub weight: u8,
}

/// A function (kernel or `.func`) in the flattened instruction array.
#[derive(Clone, Debug)]
pub struct FuncInfo {
    pub name: String,
    pub entry: u32,
    pub is_kernel: bool,
    /// Bytes of per-thread frame (`.local` variables and `.param` of a `.func`).
    pub frame_bytes: u32,
    /// Register slots owned by this function, saved across recursive calls.
    pub regs32: Vec<R32>,
    pub regs64: Vec<R64>,
    pub preds: Vec<Pred>,
    /// Whether a call to this function may find it already active on the same thread.
    pub recursive: bool,
}

/// A kernel parameter as the launch sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    pub name: String,
    /// Offset in the kernel parameter buffer.
    pub offset: u32,
    pub size: u32,
    /// The declared element type (`None` for `.b8` arrays / structs).
    pub ty: Option<Scalar>,
}

#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub func: u32,
    pub params: Vec<ParamInfo>,
    pub param_bytes: u32,
    /// Static `.shared` bytes (dynamic `extern .shared` goes after them).
    pub shared_bytes: u32,
    /// `.maxntid`: the CTA may have at most this many threads (the product).
    pub maxntid: Option<[u32; 3]>,
    /// `.reqntid`: the CTA must have exactly this shape.
    pub reqntid: Option<[u32; 3]>,
    /// ptx-isa-1.1 `.entry name [NTID.2][NTID.1][NTID.0]` constants, x first; 0 = unknown
    /// until run time.
    pub cta_dims: Option<[u32; 3]>,
}

/// The whole decoded program.
#[derive(Clone, Debug)]
pub struct Program {
    pub file: String,
    pub insts: Vec<Inst>,
    pub funcs: Vec<FuncInfo>,
    pub kernels: Vec<KernelInfo>,
    pub n_r32: u32,
    pub n_r64: u32,
    pub n_pred: u32,
    /// 64-bit (true) or 32-bit addresses.
    pub addr64: bool,
    /// Contents of `.const` bank 0.
    pub const_bank: Vec<u8>,
    /// Per-thread local bytes: module `.local` variables, then the frames of the deepest
    /// call chain.
    pub local_bytes: u32,
    /// Where the kernel's frame starts (after the module `.local` variables).
    pub frame0: u32,
    /// What `--sanitize` needs: target architecture, registers each instruction uses.
    pub sanitize: crate::sanitize::ProgramInfo,
}

impl Program {
    pub fn kernel(&self, name: &str) -> Option<&KernelInfo> {
        self.kernels.iter().find(|k| {
            self.funcs
                .get(k.func as usize)
                .is_some_and(|f| f.name == name)
        })
    }
    pub fn kernel_name(&self, k: &KernelInfo) -> &str {
        self.funcs
            .get(k.func as usize)
            .map_or("?", |f| f.name.as_str())
    }
}
