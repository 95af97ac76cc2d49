//! Modifier classes of the `tcgen05` data-movement and MMA instructions (PTX ISA 8.x §9.7.16:
//! `tcgen05.mma`, `.ld`, `.st`, `.cp`, `.shift`), which are checked but not executed. Their
//! operation words are [`crate::TensorOp`]s and their CTA group a [`crate::CtaGroup`].

crate::mods::spelled_enum!(
    /// The operand types of `tcgen05.mma` (§9.7.16.10.1 "`.kind`"): one word for the types of
    /// A and B, the block-scaled kinds (`mx…`) naming the scale format too.
    Tcgen05Kind {
        F16 = ".kind::f16",
        Tf32 = ".kind::tf32",
        F8f6f4 = ".kind::f8f6f4",
        I8 = ".kind::i8",
        Mxf8f6f4 = ".kind::mxf8f6f4",
        Mxf4 = ".kind::mxf4",
        Mxf4nvf4 = ".kind::mxf4nvf4",
    }
);

crate::mods::spelled_enum!(
    /// The one word that selects a variant of a `tcgen05` instruction. They never meet in one
    /// instruction (ptxas 12.9: "`.ashift` … illegal for `tcgen05.mma.ws`", "`.block_scale`
    /// cannot be combined with …"), so one class, one byte of [`crate::Mods`], holds them all.
    Tcgen05Variant {
        Ws = ".ws",
        BlockScale = ".block_scale",
        Ashift = ".ashift",
        Down = ".down",
        Pack16b = ".pack::16b",
        Unpack16b = ".unpack::16b",
        B8x16 = ".b8x16",
    }
);

crate::mods::spelled_enum!(
    /// How many A/B elements share one scale factor in a block-scaled `tcgen05.mma`
    /// (`.scale_vec::NX`, or from PTX 8.8 the `.block16`/`.block32` names).
    ScaleVec {
        X1 = ".scale_vec::1X",
        X2 = ".scale_vec::2X",
        X4 = ".scale_vec::4X",
        Block16 = ".block16",
        Block32 = ".block32",
    }
);

crate::mods::spelled_enum!(
    /// The collector buffer usage of `tcgen05.mma` (A's buffer) and `tcgen05.mma.ws` (B's
    /// buffers `b0`…`b3`).
    Collector {
        AFill = ".collector::a::fill",
        AUse = ".collector::a::use",
        ALastuse = ".collector::a::lastuse",
        ADiscard = ".collector::a::discard",
        B0Fill = ".collector::b0::fill",
        B0Use = ".collector::b0::use",
        B0Lastuse = ".collector::b0::lastuse",
        B0Discard = ".collector::b0::discard",
        B1Fill = ".collector::b1::fill",
        B1Use = ".collector::b1::use",
        B1Lastuse = ".collector::b1::lastuse",
        B1Discard = ".collector::b1::discard",
        B2Fill = ".collector::b2::fill",
        B2Use = ".collector::b2::use",
        B2Lastuse = ".collector::b2::lastuse",
        B2Discard = ".collector::b2::discard",
        B3Fill = ".collector::b3::fill",
        B3Use = ".collector::b3::use",
        B3Lastuse = ".collector::b3::lastuse",
        B3Discard = ".collector::b3::discard",
    }
);

crate::mods::spelled_enum!(
    /// The tensor-memory shapes of `tcgen05.ld`/`.st` (lanes x bits) and `tcgen05.cp` (rows x
    /// bits).
    Tcgen05Shape {
        S16x64b = ".16x64b",
        S16x128b = ".16x128b",
        S16x256b = ".16x256b",
        S32x32b = ".32x32b",
        S16x32bx2 = ".16x32bx2",
        S128x256b = ".128x256b",
        S4x256b = ".4x256b",
        S128x128b = ".128x128b",
        S64x128b = ".64x128b",
        S32x128b = ".32x128b",
    }
);

crate::mods::spelled_enum!(
    /// The repeat count of `tcgen05.ld`/`.st` (`.num`): a class of its own, so `.x1` here does
    /// not clash with `ldmatrix`'s flag of the same spelling.
    Tcgen05Num {
        X1 = ".x1",
        X2 = ".x2",
        X4 = ".x4",
        X8 = ".x8",
        X16 = ".x16",
        X32 = ".x32",
        X64 = ".x64",
        X128 = ".x128",
    }
);

crate::mods::spelled_enum!(
    /// The source format of a decompressing `tcgen05.cp` (to `.b8x16`).
    Tcgen05SrcFmt {
        B6x16P32 = ".b6x16_p32",
        B4x16P64 = ".b4x16_p64",
    }
);

crate::mods::spelled_enum!(
    /// The rank of the tensor a `cp.async.bulk.tensor` or `cp.async.bulk.prefetch.tensor`
    /// copies (PTX ISA 8.x §9.7.9.25.5.2 `.dim`): the number of tensor coordinates. A class of
    /// its own, so `.1d`…`.3d` here are not `tex` geometries.
    TensorDim {
        D1 = ".1d",
        D2 = ".2d",
        D3 = ".3d",
        D4 = ".4d",
        D5 = ".5d",
    }
);

impl TensorDim {
    /// The number of coordinates.
    pub fn rank(self) -> u8 {
        match self {
            TensorDim::D1 => 1,
            TensorDim::D2 => 2,
            TensorDim::D3 => 3,
            TensorDim::D4 => 4,
            TensorDim::D5 => 5,
        }
    }
}

crate::mods::spelled_enum!(
    /// How a bulk tensor copy walks the tensor (`.load_mode`): boxes of the tensor (`.tile`) or
    /// im2col patches, with or without offsets.
    LoadMode {
        Tile = ".tile",
        Im2col = ".im2col",
        Im2colW = ".im2col::w",
        Im2colW128 = ".im2col::w::128",
        Im2colNoOffs = ".im2col_no_offs",
    }
);
