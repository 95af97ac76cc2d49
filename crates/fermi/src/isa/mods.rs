//! Modifier groups shared by several rows. Bit positions are listing-derived (see
//! `docs/spec-notes.md` for where they differ from the asfermi page's numbering).

use super::schema::Mod;

const fn m(what: &'static str, bits: &'static [u8], names: &'static [(u8, &'static str)]) -> Mod {
    Mod {
        what,
        bits,
        names,
        legacy: &[],
    }
}

/// Integer comparison, bits 55–57 (ISETP, ICMP, ISET).
pub const ICMP_OP: Mod = m(
    "comparison",
    &[55, 56, 57],
    &[
        (0, ".F"),
        (1, ".LT"),
        (2, ".EQ"),
        (3, ".LE"),
        (4, ".GT"),
        (5, ".NE"),
        (6, ".GE"),
        (7, ".T"),
    ],
);

/// Float comparison, bits 55–58 (FSETP, FSET, FCMP, DSETP).
pub const FCMP_OP: Mod = m(
    "comparison",
    &[55, 56, 57, 58],
    &[
        (0, ".F"),
        (1, ".LT"),
        (2, ".EQ"),
        (3, ".LE"),
        (4, ".GT"),
        (5, ".NE"),
        (6, ".GE"),
        (7, ".NUM"),
        (8, ".NAN"),
        (9, ".LTU"),
        (10, ".EQU"),
        (11, ".LEU"),
        (12, ".GTU"),
        (13, ".NEU"),
        (14, ".GEU"),
        (15, ".T"),
    ],
);

/// Boolean combination with the last predicate operand, bits 53–54.
pub const LOGIC: Mod = m(
    "boolean operation",
    &[53, 54],
    &[(0, ".AND"), (1, ".OR"), (2, ".XOR")],
);

/// First boolean operation of PSETP/PSET, bits 30–31.
pub const LOGIC1: Mod = m(
    "first boolean operation",
    &[30, 31],
    &[(0, ".AND"), (1, ".OR"), (2, ".XOR")],
);

/// Signedness of the integer comparison / operation, bit 5 (clear = `.U32`).
pub const U32: Mod = m("signedness", &[5], &[(0, ".U32"), (1, "")]);

/// Operand types of IMUL/IMAD: bit 7 (first source signed), bit 5 (second source signed).
pub const MUL_TYPES: Mod = m(
    "operand types",
    &[7, 5],
    &[(0, ".U32.U32"), (1, ".S32.U32"), (2, ".U32.S32"), (3, "")],
);

/// `.HI` (upper half of the product), bit 6.
pub const HI: Mod = m("high half", &[6], &[(0, ""), (1, ".HI")]);

/// `.X` (extended add with carry), bit 6.
pub const X: Mod = m("extended", &[6], &[(0, ""), (1, ".X")]);

/// `.SAT`, bit 5 (integer adds).
pub const SAT5: Mod = m("saturation", &[5], &[(0, ""), (1, ".SAT")]);

/// `.SAT`, bit 49 (float arithmetic).
pub const SAT49: Mod = m("saturation", &[49], &[(0, ""), (1, ".SAT")]);

/// `.FTZ`, bit 5 (float arithmetic).
pub const FTZ: Mod = m("flush to zero", &[5], &[(0, ""), (1, ".FTZ")]);

/// Float rounding, bits 55–56.
pub const FRND: Mod = m(
    "rounding",
    &[55, 56],
    &[(0, ""), (1, ".RM"), (2, ".RP"), (3, ".RZ"), (0, ".RN")],
);

/// Memory access type, bits 5–7.
pub const MEM_TYPE: Mod = m(
    "access type",
    &[5, 6, 7],
    &[
        (0, ".U8"),
        (1, ".S8"),
        (2, ".U16"),
        (3, ".S16"),
        (4, ""),
        (5, ".64"),
        (6, ".128"),
        (4, ".32"),
    ],
);

/// Global-memory cache operation, bits 8–9.
pub const CACHE: Mod = m(
    "cache operation",
    &[8, 9],
    &[(0, ""), (1, ".CG"), (2, ".CS"), (3, ".CV"), (0, ".CA")],
);

/// Local-memory cache operation, bits 8–9.
pub const LCACHE: Mod = m(
    "cache operation",
    &[8, 9],
    &[(0, ""), (1, ".CG"), (2, ".LU"), (3, ".CV"), (0, ".CA")],
);

/// Logic operation of LOP/LOP32I, bits 6–7.
pub const LOP_OP: Mod = m(
    "logic operation",
    &[6, 7],
    &[(0, ".AND"), (1, ".OR"), (2, ".XOR"), (3, ".PASS_B")],
);

/// Integer type of a conversion's destination: size bits 20–21, signed bit 7.
pub const CVT_DST_INT: Mod = m(
    "destination type",
    &[20, 21, 7],
    &[
        (0, ".U8"),
        (1, ".U16"),
        (2, ".U32"),
        (3, ".U64"),
        (4, ".S8"),
        (5, ".S16"),
        (6, ".S32"),
        (7, ".S64"),
    ],
);

/// Integer type of a conversion's source: size bits 23–24, signed bit 9.
pub const CVT_SRC_INT: Mod = m(
    "source type",
    &[23, 24, 9],
    &[
        (0, ".U8"),
        (1, ".U16"),
        (2, ".U32"),
        (3, ".U64"),
        (4, ".S8"),
        (5, ".S16"),
        (6, ".S32"),
        (7, ".S64"),
    ],
);

/// Float type of a conversion's destination, size bits 20–21.
pub const CVT_DST_FLT: Mod = m(
    "destination type",
    &[20, 21],
    &[(1, ".F16"), (2, ".F32"), (3, ".F64")],
);

/// Float type of a conversion's source, size bits 23–24.
pub const CVT_SRC_FLT: Mod = m(
    "source type",
    &[23, 24],
    &[(1, ".F16"), (2, ".F32"), (3, ".F64")],
);

/// Rounding of I2F/F2F, bits 49–50.
pub const CVT_RND: Mod = m(
    "rounding",
    &[49, 50],
    &[(0, ""), (1, ".RM"), (2, ".RP"), (3, ".RZ"), (0, ".RN")],
);

/// Rounding to integer of F2I (and F2F's `.ROUND` family), bits 49–50.
pub const CVT_IRND: Mod = m(
    "rounding",
    &[49, 50],
    &[
        (0, ""),
        (1, ".FLOOR"),
        (2, ".CEIL"),
        (3, ".TRUNC"),
        (0, ".ROUND"),
    ],
);

/// `.W` (wrapping shift amount), bit 9 clear; the clamping default sets bit 9. The older
/// cuobjdump (`Dialect::Legacy`) printed nothing for the wrapping form.
pub const WRAP: Mod = Mod {
    what: "wrap",
    bits: &[9],
    names: &[(1, ""), (0, ".W")],
    legacy: &[(0, "")],
};

/// `.U` (uniform branch), bit 15.
pub const UNIFORM: Mod = m("uniform", &[15], &[(0, ""), (1, ".U")]);

/// `.FTZ` of FSETP, bit 59 (Mesa `emitSET`: `if (i->ftz) code[1] |= 1 << 27`).
pub const FTZ59: Mod = m("flush to zero", &[59], &[(0, ""), (1, ".FTZ")]);

/// `.FTZ` of F2F/F2I, bit 55 (Mesa `emitCVT`: `if (i->ftz) code[1] |= 1 << 23`).
pub const FTZ55: Mod = m("flush to zero", &[55], &[(0, ""), (1, ".FTZ")]);

/// Rounding of F2F: bits 49–50 as `CVT_RND`, bit 7 rounding to an integral value (Mesa
/// `roundMode_C`: `ROUND_NI` sets `code[0]` bit 7, `ROUND_MI`/`PI`/`ZI` add 1/2/3 `<< 17` of
/// `code[1]`), spelled as F2I's `CVT_IRND`.
pub const F2F_RND: Mod = m(
    "rounding",
    &[49, 50, 7],
    &[
        (0, ""),
        (1, ".RM"),
        (2, ".RP"),
        (3, ".RZ"),
        (4, ".ROUND"),
        (5, ".FLOOR"),
        (6, ".CEIL"),
        (7, ".TRUNC"),
        (0, ".RN"),
    ],
);

/// `.SAT` of IMAD, bit 56.
pub const SAT56: Mod = m("saturation", &[56], &[(0, ""), (1, ".SAT")]);

/// `.SAT`, bit 9 (video instructions).
pub const SAT9: Mod = m("saturation", &[9], &[(0, ""), (1, ".SAT")]);

/// `.FTZ` of FFMA, bit 6.
pub const FTZ6: Mod = m("flush to zero", &[6], &[(0, ""), (1, ".FTZ")]);

/// VOTE mode, bits 5–6.
pub const VOTE_MODE: Mod = m(
    "vote mode",
    &[5, 6],
    &[(0, ".ALL"), (1, ".ANY"), (2, ".EQ")],
);

/// PRMT mode, bits 5–7 (not seen in the listings; asfermi order, which Mesa `emitPERMT` and
/// `NV50_IR_SUBOP_PERMT_*` confirm).
pub const PRMT_MODE: Mod = m(
    "permute mode",
    &[5, 6, 7],
    &[
        (0, ""),
        (1, ".F4E"),
        (2, ".B4E"),
        (3, ".RC8"),
        (4, ".ECL"),
        (5, ".ECR"),
        (6, ".RC16"),
    ],
);

/// BAR operation, bits 5–7 (Mesa `emitBAR`: `code[0]` 0x04 sync and `.RED.POPC`, 0x24
/// `.RED.AND`, 0x44 `.RED.OR`, 0x84 arrive). A sync is a `.RED.POPC` whose result is
/// discarded (the same bits), so `.SYNC` is accepted and prints as `.RED.POPC` as in the
/// listings.
pub const BAR_OP: Mod = m(
    "barrier operation",
    &[5, 6, 7],
    &[
        (0, ".RED.POPC"),
        (1, ".RED.AND"),
        (2, ".RED.OR"),
        (4, ".ARV"),
        (0, ".SYNC"),
    ],
);

/// ATOM/RED operations on `.U32`, EXCH and CAS last (RED has neither).
const ATOM_OP_NAMES: &[(u8, &str)] = &[
    (0, ".ADD"),
    (1, ".MIN"),
    (2, ".MAX"),
    (3, ".INC"),
    (4, ".DEC"),
    (5, ".AND"),
    (6, ".OR"),
    (7, ".XOR"),
    (8, ".EXCH"),
    (9, ".CAS"),
];

/// ATOM/RED operation on `.U32`, bits 5–8 (Mesa `emitATOM`: `subOp << 5`, EXCH 0x105, CAS
/// 0x125).
pub const ATOM_OP: Mod = m("atomic operation", &[5, 6, 7, 8], ATOM_OP_NAMES);

/// RED operation on `.U32`: no EXCH or CAS (Mesa emits those as ATOM, even without a result).
pub const RED_OP: Mod = m(
    "atomic operation",
    &[5, 6, 7, 8],
    ATOM_OP_NAMES.split_at(8).0,
);

/// ATOM/RED operation on `.S32`: ADD, MIN, MAX only (Mesa `emitATOM` asserts `subOp <= 2`).
pub const ATOM_OP_S32: Mod = m(
    "atomic operation",
    &[5, 6, 7, 8],
    &[(0, ".ADD"), (1, ".MIN"), (2, ".MAX")],
);

/// ATOM operation on `.U64`: ADD, EXCH, CAS (Mesa `emitATOM`, `TYPE_U64`).
pub const ATOM_OP_U64: Mod = m(
    "atomic operation",
    &[5, 6, 7, 8],
    &[(0, ".ADD"), (8, ".EXCH"), (9, ".CAS")],
);

/// The only operation on `.U64` without a result, and on `.F32`: ADD.
pub const ATOM_OP_ADD: Mod = m("atomic operation", &[5, 6, 7, 8], &[(0, ".ADD")]);

/// Operand types of ATOM/RED; each type is its own row (its bits 9, 59–61 are fixed there),
/// so these groups only spell it.
pub const ATOM_U32: Mod = m("type", &[], &[(0, ""), (0, ".U32")]);
pub const ATOM_S32: Mod = m("type", &[], &[(0, ".S32")]);
pub const ATOM_U64: Mod = m("type", &[], &[(0, ".U64")]);
pub const ATOM_F32: Mod = m("type", &[], &[(0, ".F32.FTZ.RN")]);

/// `.E`: the address register is a 64-bit pair, bit 58 (Mesa `uses64bitAddress`).
pub const E64: Mod = m("64-bit address", &[58], &[(0, ""), (1, ".E")]);

/// Store cache operation, bits 8–9: the values of `CACHE`, spelled as PTX's `st` spells
/// them (Mesa `emitCachingMode`: CA = WB, CV = WT); the load spellings are accepted.
pub const STCACHE: Mod = m(
    "cache operation",
    &[8, 9],
    &[
        (0, ""),
        (1, ".CG"),
        (2, ".CS"),
        (3, ".WT"),
        (0, ".WB"),
        (0, ".CA"),
        (3, ".CV"),
    ],
);

/// LDC addressing mode, bits 8–9 (Mesa `emitLOAD`, constant space: `code[0] = 6 | subOp << 8`
/// with `NV50_IR_SUBOP_LDC_IL` 1, `_IS` 2, `_ISL` 3).
pub const LDC_MODE: Mod = m(
    "constant addressing mode",
    &[8, 9],
    &[(0, ""), (1, ".IL"), (2, ".IS"), (3, ".ISL")],
);

/// CCTL/CCTLL operation, bits 5–7: only the two Mesa defines (`NV50_IR_SUBOP_CCTL_IV` 5,
/// `NV50_IR_SUBOP_CCTL_IVALL` 6).
pub const CCTL_OP: Mod = m("cache operation", &[5, 6, 7], &[(5, ".IV"), (6, ".IVALL")]);

/// TLD: level of detail, bit 57 (Mesa `emitTEX`, `OP_TXF`: set unless level zero).
pub const TLD_LOD: Mod = m("level of detail", &[57], &[(0, ".LZ"), (1, ".LL")]);

/// Texture fetch with offsets, bit 54 (Mesa `emitTEX`, `useOffsets == 1`).
pub const TEX_AOFFI: Mod = m("offsets", &[54], &[(0, ""), (1, ".AOFFI")]);

/// Multisample texture, bit 55 (Mesa `emitTEX`, `TEX_TARGET_2D_MS`).
pub const TEX_MS: Mod = m("multisample", &[55], &[(0, ""), (1, ".MS")]);

/// Depth compare (shadow target), bit 56 (Mesa `emitTEX`, `isShadow`).
pub const TEX_DC: Mod = m("depth compare", &[56], &[(0, ""), (1, ".DC")]);

/// No dependency on the result (Mesa `emitTEX`, `liveOnly`), bit 9.
pub const TEX_NODEP: Mod = m("no dependency", &[9], &[(0, ""), (1, ".NODEP")]);

/// Texture issue mode, bits 7–8 (Mesa `emitTEX`: 0x80 "t mode", 0x100 "p mode").
pub const TEX_MODE: Mod = m("texture mode", &[7, 8], &[(1, ".T"), (2, ".P")]);

/// P2R/R2P bit 5, which envydis (`gf100.c`, `F1(high5, 0x5, N("high"))`) names "high" and
/// whose meaning no source gives; spelled after envydis.
pub const P2R_HIGH: Mod = m("high (meaning unknown)", &[5], &[(0, ""), (1, ".HIGH")]);

/// Condition codes, a 5-bit field (Mesa `emitCondCode`; values 7 and 8, absent there, as in
/// the float comparison `FCMP_OP`). Spelled as cuobjdump spells `CC.T`.
pub static CC_NAMES: &[(u8, &str)] = &[
    (0, "CC.F"),
    (1, "CC.LT"),
    (2, "CC.EQ"),
    (3, "CC.LE"),
    (4, "CC.GT"),
    (5, "CC.NE"),
    (6, "CC.GE"),
    (7, "CC.NUM"),
    (8, "CC.NAN"),
    (9, "CC.LTU"),
    (10, "CC.EQU"),
    (11, "CC.LEU"),
    (12, "CC.GTU"),
    (13, "CC.NEU"),
    (14, "CC.GEU"),
    (15, "CC.T"),
    (16, "CC.OFF"),
    (17, "CC.LO"),
    (18, "CC.SFF"),
    (19, "CC.LS"),
    (20, "CC.HI"),
    (21, "CC.SFT"),
    (22, "CC.HS"),
    (23, "CC.OFT"),
];

/// The value of `CC.T` (always), left out of a branch's text.
pub const CC_T: u8 = 15;

/// Texture dimension, bits 51–53: array bit 51, `dim - 1` at 52–53, cube adding 2 (Mesa
/// `emitTEX`).
pub static TEX_DIMS: &[(u8, &str)] = &[
    (0, "1D"),
    (1, "ARRAY_1D"),
    (2, "2D"),
    (3, "ARRAY_2D"),
    (4, "3D"),
    (6, "CUBE"),
    (7, "ARRAY_CUBE"),
];

/// `.UD` (unsigned destination) of video instructions: bit 42 clear.
pub const VIDEO_UD: Mod = m("destination type", &[42], &[(0, ".UD"), (1, "")]);

/// The comparison of VSET, bits 7–9 (envydis `gf100.c`, `tabvsetop`: 0x080 lt … 0x300 ge).
pub const VSET_CMP: Mod = m(
    "comparison",
    &[7, 8, 9],
    &[
        (0, ".F"),
        (1, ".LT"),
        (2, ".EQ"),
        (3, ".LE"),
        (4, ".GT"),
        (5, ".NE"),
        (6, ".GE"),
        (7, ".T"),
    ],
);

/// `.MX` of VMNMX, bit 7.
pub const VIDEO_MX: Mod = m("mixed", &[7], &[(0, ""), (1, ".MX")]);

/// Secondary operation of video instructions, bits 55–57.
pub const VIDEO_OP: Mod = m(
    "secondary operation",
    &[55, 56, 57],
    &[
        (0, ".MRG_16H"),
        (1, ".MRG_16L"),
        (2, ".MRG_8B0"),
        (3, ".MRG_8B2"),
        (4, ".ACC"),
        (5, ".MIN"),
        (6, ".MAX"),
        (7, ""),
    ],
);

/// Source types of a video instruction with two register sources: bit 6 (first signed),
/// bits 44–46 (first size: 0 = 8, 4 = 16, 6 = 32 bits), bit 5, bits 32–34 (second).
/// Both `S32` prints nothing. Size codes 1–3 and 5 are 8-bit sources with byte select
/// `.B1`–`.B3` and a 16-bit source with `.H1` (spec page, VADD "mod3 2:4"); a spelling's
/// `:B1` part is printed on the matching source operand (`R2.B1`), not in the mnemonic.
pub const VIDEO_TYPES: Mod = m(
    "source types",
    &[6, 44, 45, 46, 5, 32, 33, 34],
    &[
        (0, ".U8.U8"),
        (32, ".U8.U8:B1"),
        (64, ".U8.U8:B2"),
        (96, ".U8.U8:B3"),
        (128, ".U8.U16"),
        (160, ".U8.U16:H1"),
        (192, ".U8.U32"),
        (16, ".U8.S8"),
        (48, ".U8.S8:B1"),
        (80, ".U8.S8:B2"),
        (112, ".U8.S8:B3"),
        (144, ".U8.S16"),
        (176, ".U8.S16:H1"),
        (208, ".U8.S32"),
        (2, ".U8:B1.U8"),
        (34, ".U8:B1.U8:B1"),
        (66, ".U8:B1.U8:B2"),
        (98, ".U8:B1.U8:B3"),
        (130, ".U8:B1.U16"),
        (162, ".U8:B1.U16:H1"),
        (194, ".U8:B1.U32"),
        (18, ".U8:B1.S8"),
        (50, ".U8:B1.S8:B1"),
        (82, ".U8:B1.S8:B2"),
        (114, ".U8:B1.S8:B3"),
        (146, ".U8:B1.S16"),
        (178, ".U8:B1.S16:H1"),
        (210, ".U8:B1.S32"),
        (4, ".U8:B2.U8"),
        (36, ".U8:B2.U8:B1"),
        (68, ".U8:B2.U8:B2"),
        (100, ".U8:B2.U8:B3"),
        (132, ".U8:B2.U16"),
        (164, ".U8:B2.U16:H1"),
        (196, ".U8:B2.U32"),
        (20, ".U8:B2.S8"),
        (52, ".U8:B2.S8:B1"),
        (84, ".U8:B2.S8:B2"),
        (116, ".U8:B2.S8:B3"),
        (148, ".U8:B2.S16"),
        (180, ".U8:B2.S16:H1"),
        (212, ".U8:B2.S32"),
        (6, ".U8:B3.U8"),
        (38, ".U8:B3.U8:B1"),
        (70, ".U8:B3.U8:B2"),
        (102, ".U8:B3.U8:B3"),
        (134, ".U8:B3.U16"),
        (166, ".U8:B3.U16:H1"),
        (198, ".U8:B3.U32"),
        (22, ".U8:B3.S8"),
        (54, ".U8:B3.S8:B1"),
        (86, ".U8:B3.S8:B2"),
        (118, ".U8:B3.S8:B3"),
        (150, ".U8:B3.S16"),
        (182, ".U8:B3.S16:H1"),
        (214, ".U8:B3.S32"),
        (8, ".U16.U8"),
        (40, ".U16.U8:B1"),
        (72, ".U16.U8:B2"),
        (104, ".U16.U8:B3"),
        (136, ".U16.U16"),
        (168, ".U16.U16:H1"),
        (200, ".U16.U32"),
        (24, ".U16.S8"),
        (56, ".U16.S8:B1"),
        (88, ".U16.S8:B2"),
        (120, ".U16.S8:B3"),
        (152, ".U16.S16"),
        (184, ".U16.S16:H1"),
        (216, ".U16.S32"),
        (10, ".U16:H1.U8"),
        (42, ".U16:H1.U8:B1"),
        (74, ".U16:H1.U8:B2"),
        (106, ".U16:H1.U8:B3"),
        (138, ".U16:H1.U16"),
        (170, ".U16:H1.U16:H1"),
        (202, ".U16:H1.U32"),
        (26, ".U16:H1.S8"),
        (58, ".U16:H1.S8:B1"),
        (90, ".U16:H1.S8:B2"),
        (122, ".U16:H1.S8:B3"),
        (154, ".U16:H1.S16"),
        (186, ".U16:H1.S16:H1"),
        (218, ".U16:H1.S32"),
        (12, ".U32.U8"),
        (44, ".U32.U8:B1"),
        (76, ".U32.U8:B2"),
        (108, ".U32.U8:B3"),
        (140, ".U32.U16"),
        (172, ".U32.U16:H1"),
        (204, ".U32.U32"),
        (28, ".U32.S8"),
        (60, ".U32.S8:B1"),
        (92, ".U32.S8:B2"),
        (124, ".U32.S8:B3"),
        (156, ".U32.S16"),
        (188, ".U32.S16:H1"),
        (220, ".U32.S32"),
        (1, ".S8.U8"),
        (33, ".S8.U8:B1"),
        (65, ".S8.U8:B2"),
        (97, ".S8.U8:B3"),
        (129, ".S8.U16"),
        (161, ".S8.U16:H1"),
        (193, ".S8.U32"),
        (17, ".S8.S8"),
        (49, ".S8.S8:B1"),
        (81, ".S8.S8:B2"),
        (113, ".S8.S8:B3"),
        (145, ".S8.S16"),
        (177, ".S8.S16:H1"),
        (209, ".S8.S32"),
        (3, ".S8:B1.U8"),
        (35, ".S8:B1.U8:B1"),
        (67, ".S8:B1.U8:B2"),
        (99, ".S8:B1.U8:B3"),
        (131, ".S8:B1.U16"),
        (163, ".S8:B1.U16:H1"),
        (195, ".S8:B1.U32"),
        (19, ".S8:B1.S8"),
        (51, ".S8:B1.S8:B1"),
        (83, ".S8:B1.S8:B2"),
        (115, ".S8:B1.S8:B3"),
        (147, ".S8:B1.S16"),
        (179, ".S8:B1.S16:H1"),
        (211, ".S8:B1.S32"),
        (5, ".S8:B2.U8"),
        (37, ".S8:B2.U8:B1"),
        (69, ".S8:B2.U8:B2"),
        (101, ".S8:B2.U8:B3"),
        (133, ".S8:B2.U16"),
        (165, ".S8:B2.U16:H1"),
        (197, ".S8:B2.U32"),
        (21, ".S8:B2.S8"),
        (53, ".S8:B2.S8:B1"),
        (85, ".S8:B2.S8:B2"),
        (117, ".S8:B2.S8:B3"),
        (149, ".S8:B2.S16"),
        (181, ".S8:B2.S16:H1"),
        (213, ".S8:B2.S32"),
        (7, ".S8:B3.U8"),
        (39, ".S8:B3.U8:B1"),
        (71, ".S8:B3.U8:B2"),
        (103, ".S8:B3.U8:B3"),
        (135, ".S8:B3.U16"),
        (167, ".S8:B3.U16:H1"),
        (199, ".S8:B3.U32"),
        (23, ".S8:B3.S8"),
        (55, ".S8:B3.S8:B1"),
        (87, ".S8:B3.S8:B2"),
        (119, ".S8:B3.S8:B3"),
        (151, ".S8:B3.S16"),
        (183, ".S8:B3.S16:H1"),
        (215, ".S8:B3.S32"),
        (9, ".S16.U8"),
        (41, ".S16.U8:B1"),
        (73, ".S16.U8:B2"),
        (105, ".S16.U8:B3"),
        (137, ".S16.U16"),
        (169, ".S16.U16:H1"),
        (201, ".S16.U32"),
        (25, ".S16.S8"),
        (57, ".S16.S8:B1"),
        (89, ".S16.S8:B2"),
        (121, ".S16.S8:B3"),
        (153, ".S16.S16"),
        (185, ".S16.S16:H1"),
        (217, ".S16.S32"),
        (11, ".S16:H1.U8"),
        (43, ".S16:H1.U8:B1"),
        (75, ".S16:H1.U8:B2"),
        (107, ".S16:H1.U8:B3"),
        (139, ".S16:H1.U16"),
        (171, ".S16:H1.U16:H1"),
        (203, ".S16:H1.U32"),
        (27, ".S16:H1.S8"),
        (59, ".S16:H1.S8:B1"),
        (91, ".S16:H1.S8:B2"),
        (123, ".S16:H1.S8:B3"),
        (155, ".S16:H1.S16"),
        (187, ".S16:H1.S16:H1"),
        (219, ".S16:H1.S32"),
        (13, ".S32.U8"),
        (45, ".S32.U8:B1"),
        (77, ".S32.U8:B2"),
        (109, ".S32.U8:B3"),
        (141, ".S32.U16"),
        (173, ".S32.U16:H1"),
        (205, ".S32.U32"),
        (29, ".S32.S8"),
        (61, ".S32.S8:B1"),
        (93, ".S32.S8:B2"),
        (125, ".S32.S8:B3"),
        (157, ".S32.S16"),
        (189, ".S32.S16:H1"),
        (221, ""),
    ],
);

/// Source types of a video instruction whose second source is an immediate (always printed
/// as 8-bit, as cuobjdump does).
pub const VIDEO_TYPES_IMM: Mod = m(
    "source types",
    &[6, 44, 45, 46, 5],
    &[
        (0, ".U8.U8"),
        (16, ".U8.S8"),
        (2, ".U8:B1.U8"),
        (18, ".U8:B1.S8"),
        (4, ".U8:B2.U8"),
        (20, ".U8:B2.S8"),
        (6, ".U8:B3.U8"),
        (22, ".U8:B3.S8"),
        (8, ".U16.U8"),
        (24, ".U16.S8"),
        (10, ".U16:H1.U8"),
        (26, ".U16:H1.S8"),
        (12, ".U32.U8"),
        (28, ".U32.S8"),
        (1, ".S8.U8"),
        (17, ".S8.S8"),
        (3, ".S8:B1.U8"),
        (19, ".S8:B1.S8"),
        (5, ".S8:B2.U8"),
        (21, ".S8:B2.S8"),
        (7, ".S8:B3.U8"),
        (23, ".S8:B3.S8"),
        (9, ".S16.U8"),
        (25, ".S16.S8"),
        (11, ".S16:H1.U8"),
        (27, ".S16:H1.S8"),
        (13, ".S32.U8"),
        (29, ".S32.S8"),
    ],
);

/// MUFU function, bits 26–29.
pub const MUFU_OP: Mod = m(
    "function",
    &[26, 27, 28, 29],
    &[
        (0, ".COS"),
        (1, ".SIN"),
        (2, ".EX2"),
        (3, ".LG2"),
        (4, ".RCP"),
        (5, ".RSQ"),
        (6, ".RCP64H"),
        (7, ".RSQ64H"),
    ],
);

/// MEMBAR level, bits 5–6.
pub const MEMBAR_LEVEL: Mod = m("level", &[5, 6], &[(0, ".CTA"), (1, ".GL"), (2, ".SYS")]);

/// BPT operation, bits 5–7.
pub const BPT_OP: Mod = m(
    "breakpoint operation",
    &[5, 6, 7],
    &[
        (0, ".DRAIN"),
        (1, ".CAL"),
        (2, ".PAUSE"),
        (3, ".TRAP"),
        (4, ".INT"),
    ],
);

/// `.BF` of FSET/DSET, bit 5: the result is 1.0 rather than all ones (Mesa `emitSET`:
/// `lo |= 0x20` when both types are float).
pub const BF5: Mod = m("float result", &[5], &[(0, ""), (1, ".BF")]);

/// RRO's function, bit 5 (Mesa `emitPreOp`: `OP_PREEX2` sets 0x20, `OP_PRESIN` leaves it).
pub const RRO_OP: Mod = m("range reduction", &[5], &[(0, ".SINCOS"), (1, ".EX2")]);

/// TEX's level of detail, bit 57 (Mesa `emitTEX`: `levelZero` sets `0x02000000` of `code[1]`).
pub const TEX_LZ: Mod = m("level of detail", &[57], &[(0, ""), (1, ".LZ")]);

/// TXQ's query, bits 54–56 (Mesa `emitTXQ`: `tex.query << 22` of `code[1]`); Mesa's names.
pub static TXQ_QUERY: &[(u8, &str)] = &[
    (0, "TEX_HEADER_DIMENSION"),
    (1, "TEX_HEADER_TEXTURE_TYPE"),
    (2, "TEX_HEADER_SAMPLER_POS"),
    (3, "TEX_SAMPLER_FILTER"),
    (4, "TEX_SAMPLER_LOD"),
    (5, "TEX_SAMPLER_BORDER_COLOR"),
];

/// CAL's and JCAL's return-address push, bit 16 (asfermi `OpcodeExecution.md`, CAL and JCAL
/// "mod2 bit 3": set by default, clear for `.NOINC`; Mesa's `emitFlow` leaves it clear).
pub const NOINC16: Mod = m("push return address", &[16], &[(1, ""), (0, ".NOINC")]);

/// B2R's unit, bits 8–9 (asfermi `OpcodeExecution.md`, B2R "mod 0:1": 10 `.XLU`, 01 `.ALU`,
/// counted from the field's top bit like the spec page).
pub const B2R_OP: Mod = m("unit", &[8, 9], &[(0, ""), (2, ".XLU"), (1, ".ALU")]);
