//! Instruction modifiers: one enum per modifier class, spelled as the manual spells them.
//!
//! A spelling such as `.lo` means different things in different instructions (`mul.lo` is a
//! [`MulMode`], `setp.lo` a [`CmpOp`]); the table decides which class a modifier slot holds, and
//! [`ModClass::decode`] turns a spelling into a typed [`ModValue`] for that class.

macro_rules! spelled_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $spelling:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The spelling with its leading dot, as written in PTX.
            pub fn spelling(self) -> &'static str {
                match self { $($name::$variant => $spelling),+ }
            }

            pub fn from_spelling(s: &str) -> Option<$name> {
                match s { $($spelling => Some($name::$variant),)+ _ => None }
            }
        }
    };
}
pub use crate::mods_tcgen05::{
    Collector, LoadMode, ScaleVec, Tcgen05Kind, Tcgen05Num, Tcgen05Shape, Tcgen05SrcFmt,
    Tcgen05Variant, TensorDim,
};
pub use crate::mods_wgmma::{CtaGroup, Multicast, Tcgen05Completion, TensorOp, WgmmaShape};
pub(crate) use spelled_enum;

spelled_enum!(
    /// Single-spelling modifiers that are either present or absent.
    Flag {
        Sat = ".sat",
        Ftz = ".ftz",
        Cc = ".cc",
        Approx = ".approx",
        Full = ".full",
        Uni = ".uni",
        Sync = ".sync",
        Aligned = ".aligned",
        Arrive = ".arrive",
        Red = ".red",
        Popc = ".popc",
        To = ".to",
        ShiftAmt = ".shiftamt",
        Relu = ".relu",
        Nc = ".nc",
        Po = ".po",
        NoFtz = ".noftz",
        NaN = ".NaN",
        Warp = ".warp",
        Xorsign = ".xorsign",
        Abs = ".abs",
        Oob = ".oob",
        Unified = ".unified",
        Satfinite = ".satfinite",
        Mask = ".mask",
        Idx = ".idx",
        Async = ".async",
        CommitGroup = ".commit_group",
        WaitGroup = ".wait_group",
        WaitAll = ".wait_all",
        Proxy = ".proxy",
        Trans = ".trans",
        X1 = ".x1",
        X2 = ".x2",
        X4 = ".x4",
        M8n8 = ".m8n8",
        M8n8k4 = ".m8n8k4",
        M16n8k8 = ".m16n8k8",
        M16n8k16 = ".m16n8k16",
        M16n8k32 = ".m16n8k32",
        // mbarrier operations and bulk copies (PTX ISA 8.x §9.7.13.15, §9.7.9.25.4).
        Init = ".init",
        ArriveDrop = ".arrive_drop",
        NoComplete = ".noComplete",
        ExpectTx = ".expect_tx",
        CompleteTx = ".complete_tx",
        TestWait = ".test_wait",
        TryWait = ".try_wait",
        Parity = ".parity",
        PendingCount = ".pending_count",
        Inval = ".inval",
        Bulk = ".bulk",
        MbarrierCompleteTx = ".mbarrier::complete_tx::bytes",
        BulkGroup = ".bulk_group",
        Read = ".read",
        Pack = ".pack",
        // Bulk tensor copies and prefetches (PTX ISA 8.x §9.7.9.25.5), checked but not run.
        Tensor = ".tensor",
        Prefetch = ".prefetch",
        L2CacheHint = ".L2::cache_hint",
        Reduce = ".reduce",
        CpMask = ".cp_mask",
        // `tcgen05.mma.sp` (sparse A); a flag, as it meets `.ws` in `tcgen05.mma.ws.sp`.
        Sp = ".sp",
    }
);

spelled_enum!(
    /// Floating-point (`.rn` …) and integer (`.rni` …) rounding modifiers
    /// (ptx-isa-1.1 §6.5.2, Tables 8 and 9).
    Rounding {
        Rn = ".rn",
        Rz = ".rz",
        Rm = ".rm",
        Rp = ".rp",
        Rna = ".rna",
        Rni = ".rni",
        Rzi = ".rzi",
        Rmi = ".rmi",
        Rpi = ".rpi",
        Rs = ".rs",
    }
);

impl Rounding {
    /// `.rni .rzi .rmi .rpi` round a float to an integral value (ptx-isa-1.1 §6.5.2 Table 9).
    pub fn is_integer_rounding(self) -> bool {
        matches!(
            self,
            Rounding::Rni | Rounding::Rzi | Rounding::Rmi | Rounding::Rpi
        )
    }
}

spelled_enum!(
    /// Comparison operators (ptx-isa-1.1 §7.3.1, Tables 12–15).
    CmpOp {
        Eq = ".eq",
        Ne = ".ne",
        Lt = ".lt",
        Le = ".le",
        Gt = ".gt",
        Ge = ".ge",
        Lo = ".lo",
        Ls = ".ls",
        Hi = ".hi",
        Hs = ".hs",
        Equ = ".equ",
        Neu = ".neu",
        Ltu = ".ltu",
        Leu = ".leu",
        Gtu = ".gtu",
        Geu = ".geu",
        Num = ".num",
        Nan = ".nan",
    }
);

spelled_enum!(
    /// Boolean combination of `set`/`setp` with a predicate operand (ptx-isa-1.1 §7.7.2).
    BoolOp { And = ".and", Or = ".or", Xor = ".xor" }
);

spelled_enum!(
    /// `mul`/`mad` result selection (ptx-integer-arithmetic.md §mul); also the half selector of
    /// `dp2a` (ptx-integer-arithmetic.md §dp2a).
    MulMode { Hi = ".hi", Lo = ".lo", Wide = ".wide" }
);

spelled_enum!(
    /// State spaces (ptx-isa-1.1 §5.1, Table 4; `::` sub-spaces from PTX ISA 7.8+).
    Space {
        Reg = ".reg",
        Sreg = ".sreg",
        Const = ".const",
        Global = ".global",
        Local = ".local",
        Param = ".param",
        Shared = ".shared",
        Tex = ".tex",
        Surf = ".surf",
        SharedCta = ".shared::cta",
        SharedCluster = ".shared::cluster",
        ParamEntry = ".param::entry",
        ParamFunc = ".param::func",
    }
);

spelled_enum!(
    /// Cache operators of `ld`/`st` (PTX ISA 8.x §9.7.9.1 "Cache Operators").
    CacheOp {
        Ca = ".ca",
        Cg = ".cg",
        Cs = ".cs",
        Lu = ".lu",
        Cv = ".cv",
        Wb = ".wb",
        Wt = ".wt",
    }
);

spelled_enum!(
    /// Vector width of `ld`/`st`/`ldu`/`tex` (ptx-isa-1.1 §5.3.2).
    VecWidth { V2 = ".v2", V3 = ".v3", V4 = ".v4", V8 = ".v8" }
);

impl VecWidth {
    pub fn lanes(self) -> u32 {
        match self {
            VecWidth::V2 => 2,
            VecWidth::V3 => 3,
            VecWidth::V4 => 4,
            VecWidth::V8 => 8,
        }
    }
}

spelled_enum!(
    /// Operations of `atom`/`red`/`redux` (PTX ISA 8.x §9.7.13.5).
    AtomOp {
        And = ".and",
        Or = ".or",
        Xor = ".xor",
        Cas = ".cas",
        Exch = ".exch",
        Add = ".add",
        Inc = ".inc",
        Dec = ".dec",
        Min = ".min",
        Max = ".max",
    }
);

spelled_enum!(
    /// `shfl` lane modes (PTX ISA 8.x §9.7.9.6).
    ShflMode { Up = ".up", Down = ".down", Bfly = ".bfly", Idx = ".idx" }
);

spelled_enum!(
    /// `vote` modes (ptx-isa-1.1 §7.7.7 Table 52; `.ballot` PTX ISA 2.0).
    VoteMode { All = ".all", Any = ".any", Uni = ".uni", Ballot = ".ballot" }
);

spelled_enum!(
    /// Scopes of memory operations and barriers; `.gl` is `membar`'s spelling of the device
    /// scope (PTX ISA 8.x §9.7.13.4).
    Scope {
        Cta = ".cta",
        Cluster = ".cluster",
        Gpu = ".gpu",
        Sys = ".sys",
        Gl = ".gl",
    }
);

spelled_enum!(
    /// Memory-consistency semantics (PTX ISA 8.x §8 "Memory Consistency Model").
    Sem {
        Weak = ".weak",
        Volatile = ".volatile",
        Relaxed = ".relaxed",
        Acquire = ".acquire",
        Release = ".release",
        AcqRel = ".acq_rel",
        Sc = ".sc",
        Mmio = ".mmio",
    }
);

spelled_enum!(
    /// Out-of-range behaviour of `szext`, `bmsk` and `shf` (ptx-integer-arithmetic.md §szext).
    ClampMode { Clamp = ".clamp", Wrap = ".wrap" }
);

spelled_enum!(
    /// `shf` direction (PTX ISA 8.x §9.7.8.6).
    ShfDir { L = ".l", R = ".r" }
);

spelled_enum!(
    /// `prmt` modes (PTX ISA 8.x §9.7.9.7).
    PrmtMode {
        F4e = ".f4e",
        B4e = ".b4e",
        Rc8 = ".rc8",
        Ecl = ".ecl",
        Ecr = ".ecr",
        Rc16 = ".rc16",
    }
);

spelled_enum!(
    /// Secondary operation of scalar video instructions and the accumulate of SIMD ones
    /// (ptx-video.md §9.7.18.1, §9.7.18.2).
    VideoOp2 { Add = ".add", Min = ".min", Max = ".max" }
);

spelled_enum!(
    /// `vmad` result scaling (ptx-video.md §vmad).
    VideoScale { Shr7 = ".shr7", Shr15 = ".shr15" }
);

spelled_enum!(
    /// Texture geometry (ptx-isa-1.1 §7.7.5; arrays and cubes PTX ISA 4.3).
    Geom {
        D1 = ".1d",
        D2 = ".2d",
        D3 = ".3d",
        A1d = ".a1d",
        A2d = ".a2d",
        Cube = ".cube",
        Acube = ".acube",
        D2ms = ".2dms",
        A2dms = ".a2dms",
    }
);

spelled_enum!(
    /// `testp` properties (PTX ISA 8.x §9.7.3.9).
    TestpOp {
        Finite = ".finite",
        Infinite = ".infinite",
        Number = ".number",
        NotANumber = ".notanumber",
        Normal = ".normal",
        Subnormal = ".subnormal",
    }
);

spelled_enum!(
    /// Cache level of `prefetch` (PTX ISA 8.x §9.7.9.15).
    CacheLevel { L1 = ".L1", L2 = ".L2" }
);

spelled_enum!(
    /// Eviction priority hints of `ld`/`st` (PTX ISA 8.x §9.7.9.8 `.level::eviction_priority`).
    Eviction {
        L1EvictNormal = ".L1::evict_normal",
        L1EvictUnchanged = ".L1::evict_unchanged",
        L1EvictFirst = ".L1::evict_first",
        L1EvictLast = ".L1::evict_last",
        L1NoAllocate = ".L1::no_allocate",
    }
);

spelled_enum!(
    /// L2 prefetch size hints of `ld` (PTX ISA 8.x §9.7.9.8 `.level::prefetch_size`).
    PrefetchSize { L2_64B = ".L2::64B", L2_128B = ".L2::128B", L2_256B = ".L2::256B" }
);

spelled_enum!(
    /// `txq` queries (PTX ISA 8.x §9.7.10.5).
    TexQuery {
        Width = ".width",
        Height = ".height",
        Depth = ".depth",
        ChannelDataType = ".channel_data_type",
        ChannelOrder = ".channel_order",
        NormalizedCoords = ".normalized_coords",
        ArraySize = ".array_size",
        NumMipmapLevels = ".num_mipmap_levels",
        NumSamples = ".num_samples",
        FilterMode = ".filter_mode",
        AddrMode0 = ".addr_mode_0",
        AddrMode1 = ".addr_mode_1",
        AddrMode2 = ".addr_mode_2",
        ForceUnnormalizedCoords = ".force_unnormalized_coords",
    }
);

spelled_enum!(
    /// The source state space of a copy between two spaces (`cp.async.ca.shared.global`):
    /// the destination's is [`Space`].
    SrcSpace { Global = ".global", SharedCta = ".shared::cta" }
);

spelled_enum!(
    /// Layout of `mma`'s A matrix (PTX ISA 8.x §9.7.14.5.14 `.alayout`).
    ALayout { Row = ".row", Col = ".col" }
);

spelled_enum!(
    /// Layout of `mma`'s B matrix (`.blayout`): its own class, so `.row.row` fills two slots.
    BLayout { Row = ".row", Col = ".col" }
);

spelled_enum!(
    /// What a `wmma` instruction does (PTX ISA 8.x §9.7.14.4): `wmma.load`, `.store`, `.mma`.
    WmmaOp { Load = ".load", Store = ".store", Mma = ".mma" }
);

spelled_enum!(
    /// Which `wmma` fragment a load or store moves: A, B, C or D.
    WmmaFrag { A = ".a", B = ".b", C = ".c", D = ".d" }
);

spelled_enum!(
    /// The `wmma` shapes (PTX ISA 8.x §9.7.14.4.1): a class of their own, so `.m8n8k4` here
    /// does not clash with `mma`'s flag of the same spelling.
    WmmaShape {
        M16n16k16 = ".m16n16k16",
        M32n8k16 = ".m32n8k16",
        M8n32k16 = ".m8n32k16",
        M16n16k8 = ".m16n16k8",
        M8n8k4 = ".m8n8k4",
        M8n8k32 = ".m8n8k32",
        M8n8k128 = ".m8n8k128",
    }
);

spelled_enum!(
    /// The sub-byte `wmma` element types (PTX ISA 8.x §9.7.14.4): 4-bit integers and single
    /// bits, spelled where a type goes but not register types, so a modifier class.
    WmmaSubType { S4 = ".s4", U4 = ".u4", B1 = ".b1" }
);

spelled_enum!(
    /// B's sub-byte type in `wmma.mma`: its own class, so `.s4.s4` fills two slots (as
    /// [`BLayout`]).
    WmmaSubTypeB { S4 = ".s4", U4 = ".u4", B1 = ".b1" }
);

/// Generates, from one list of the modifier classes other than [`Flag`] (each with its
/// [`Mods`] field and its name in messages): [`ModClass`], [`ModValue`], [`Mods`], and the
/// functions that go between them. `Flag` is written out in each: its values are a set
/// ([`Flags`]), not one optional value.
macro_rules! mod_classes {
    ($($class:ident => $field:ident, $name:literal;)*) => {
        /// The class of a modifier slot: which enum its spellings decode into.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ModClass {
            Flag,
            $($class,)*
        }

        /// A decoded modifier.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ModValue {
            Flag(Flag),
            $($class($class),)*
        }

        /// The decoded modifiers of one instruction: at most one value per class, plus the
        /// flags. Filled by [`crate::match_form`]; a field is `None` when the instruction does
        /// not spell it.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct Mods {
            pub flags: Flags,
            $(pub $field: Option<$class>,)*
        }

        impl ModClass {
            /// Every class, in declaration order.
            pub const ALL: &'static [ModClass] = &[ModClass::Flag, $(ModClass::$class,)*];

            pub fn name(self) -> &'static str {
                match self {
                    ModClass::Flag => "flag",
                    $(ModClass::$class => $name,)*
                }
            }

            /// Decodes a spelling as a value of this class.
            pub fn decode(self, s: &str) -> Option<ModValue> {
                Some(match self {
                    ModClass::Flag => ModValue::Flag(Flag::from_spelling(s)?),
                    $(ModClass::$class => ModValue::$class($class::from_spelling(s)?),)*
                })
            }
        }

        impl ModValue {
            pub fn class(self) -> ModClass {
                match self {
                    ModValue::Flag(_) => ModClass::Flag,
                    $(ModValue::$class(_) => ModClass::$class,)*
                }
            }
        }

        impl Mods {
            /// Whether the class of `v` is spelled (for flags: whether `v` itself is).
            pub fn is_set(&self, v: ModValue) -> bool {
                match v {
                    ModValue::Flag(f) => self.flags.contains(f),
                    $(ModValue::$class(_) => self.$field.is_some(),)*
                }
            }

            pub fn set(&mut self, v: ModValue) {
                match v {
                    ModValue::Flag(f) => self.flags.insert(f),
                    $(ModValue::$class(x) => self.$field = Some(x),)*
                }
            }
        }

        /// Every spelling of every class, types excepted (for the spelling ids of `spell.rs`).
        pub(crate) fn for_each_spelling(mut f: impl FnMut(&'static str)) {
            Flag::ALL.iter().for_each(|x| f(x.spelling()));
            $($class::ALL.iter().for_each(|x| f(x.spelling()));)*
        }
    };
}

mod_classes! {
    Rounding => rounding, "rounding modifier";
    CmpOp => cmp, "comparison operator";
    BoolOp => bool_op, "boolean operator";
    MulMode => mul_mode, "result mode";
    Space => space, "state space";
    CacheOp => cache, "cache operator";
    VecWidth => vec, "vector width";
    AtomOp => atom_op, "operation";
    ShflMode => shfl_mode, "shuffle mode";
    VoteMode => vote_mode, "vote mode";
    Scope => scope, "scope";
    Sem => sem, "memory semantics";
    ClampMode => clamp, "clamp mode";
    ShfDir => shf_dir, "shift direction";
    PrmtMode => prmt_mode, "permute mode";
    VideoOp2 => video_op2, "secondary operation";
    VideoScale => video_scale, "scale";
    Geom => geom, "geometry";
    TestpOp => testp, "test";
    CacheLevel => level, "cache level";
    TexQuery => query, "query";
    Eviction => eviction, "eviction priority";
    PrefetchSize => prefetch_size, "prefetch size";
    SrcSpace => src_space, "source state space";
    ALayout => a_layout, "layout of A";
    BLayout => b_layout, "layout of B";
    TensorOp => tensor_op, "operation";
    WgmmaShape => wgmma_shape, "shape";
    CtaGroup => cta_group, "CTA group";
    Tcgen05Completion => tcgen05_completion, "completion";
    Multicast => multicast, "multicast";
    Tcgen05Kind => tcgen05_kind, "kind";
    Tcgen05Variant => tcgen05_variant, "variant";
    ScaleVec => scale_vec, "scale vector size";
    Collector => collector, "collector usage";
    Tcgen05Shape => tcgen05_shape, "shape";
    Tcgen05Num => tcgen05_num, "repeat count";
    Tcgen05SrcFmt => tcgen05_src_fmt, "source format";
    TensorDim => tensor_dim, "tensor rank";
    LoadMode => load_mode, "load mode";
    WmmaOp => wmma_op, "wmma operation";
    WmmaFrag => wmma_frag, "wmma fragment";
    WmmaShape => wmma_shape, "wmma shape";
    WmmaSubType => wmma_sub_type, "sub-byte type";
    WmmaSubTypeB => wmma_sub_type_b, "sub-byte type of B";
}

impl ModClass {
    /// Order in which a slot's class is inferred from its spellings when the table does not
    /// name it: the first class that admits every spelling wins. Narrow classes come first so
    /// `{.add, .min, .max}` is a [`VideoOp2`] and `{.and, .or, .xor}` a [`BoolOp`], while the
    /// full `atom` operation list is only an [`AtomOp`].
    pub const INFERENCE_ORDER: [ModClass; 46] = [
        ModClass::Flag,
        ModClass::Rounding,
        ModClass::MulMode,
        ModClass::CmpOp,
        ModClass::BoolOp,
        ModClass::VideoOp2,
        ModClass::AtomOp,
        ModClass::Space,
        ModClass::CacheOp,
        ModClass::VecWidth,
        ModClass::ShflMode,
        ModClass::VoteMode,
        ModClass::Scope,
        ModClass::Sem,
        ModClass::ClampMode,
        ModClass::ShfDir,
        ModClass::PrmtMode,
        ModClass::VideoScale,
        ModClass::Geom,
        ModClass::TestpOp,
        ModClass::CacheLevel,
        ModClass::TexQuery,
        ModClass::Eviction,
        ModClass::PrefetchSize,
        ModClass::SrcSpace,
        ModClass::ALayout,
        ModClass::BLayout,
        ModClass::TensorOp,
        ModClass::WgmmaShape,
        ModClass::CtaGroup,
        ModClass::Tcgen05Completion,
        ModClass::Multicast,
        ModClass::Tcgen05Kind,
        ModClass::Tcgen05Variant,
        ModClass::ScaleVec,
        ModClass::Collector,
        ModClass::Tcgen05Shape,
        ModClass::Tcgen05Num,
        ModClass::Tcgen05SrcFmt,
        ModClass::TensorDim,
        ModClass::LoadMode,
        ModClass::WmmaOp,
        ModClass::WmmaFrag,
        ModClass::WmmaShape,
        ModClass::WmmaSubType,
        ModClass::WmmaSubTypeB,
    ];

    pub fn from_name(s: &str) -> Option<ModClass> {
        ModClass::INFERENCE_ORDER
            .iter()
            .copied()
            .find(|c| format!("{c:?}") == s)
    }
}

/// A bit set of [`Flag`]s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(u64);

impl Flags {
    pub fn contains(self, f: Flag) -> bool {
        self.0 & (1 << f as u64) != 0
    }
    pub fn insert(&mut self, f: Flag) {
        self.0 |= 1 << f as u64;
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub fn iter(self) -> impl Iterator<Item = Flag> {
        Flag::ALL.iter().copied().filter(move |f| self.contains(*f))
    }
}

impl Mods {
    pub fn has(&self, f: Flag) -> bool {
        self.flags.contains(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_decodes_its_own_spellings_and_names_round_trip() {
        for c in ModClass::INFERENCE_ORDER {
            assert_eq!(ModClass::from_name(&format!("{c:?}")), Some(c));
        }
        assert_eq!(
            ModClass::MulMode.decode(".lo"),
            Some(ModValue::MulMode(MulMode::Lo))
        );
        assert_eq!(
            ModClass::CmpOp.decode(".lo"),
            Some(ModValue::CmpOp(CmpOp::Lo))
        );
        assert_eq!(ModClass::Rounding.decode(".lo"), None);
        for f in Flag::ALL {
            let v = ModClass::Flag.decode(f.spelling()).unwrap();
            assert_eq!(v.class(), ModClass::Flag);
        }
    }

    #[test]
    fn the_inference_order_has_every_class_once() {
        let mut order = ModClass::INFERENCE_ORDER.to_vec();
        let mut all = ModClass::ALL.to_vec();
        let key = |c: &ModClass| format!("{c:?}");
        order.sort_by_key(key);
        all.sort_by_key(key);
        assert_eq!(order, all);
    }

    #[test]
    fn flags_set_and_query() {
        let mut m = Mods::default();
        assert!(!m.has(Flag::Sat));
        m.set(ModValue::Flag(Flag::Sat));
        assert!(m.has(Flag::Sat));
        assert!(!m.has(Flag::Ftz));
        assert!(m.is_set(ModValue::Flag(Flag::Sat)));
        assert!(!m.is_set(ModValue::Flag(Flag::Ftz)));
        m.set(ModValue::Rounding(Rounding::Rz));
        assert!(m.is_set(ModValue::Rounding(Rounding::Rn)));
        assert_eq!(m.flags.iter().collect::<Vec<_>>(), vec![Flag::Sat]);
    }
}
