//! Combinations the spec excludes are refused with a precise message, and gates name the
//! requirement.

use isa::{match_form, MatchErrorKind, PtxVersion};

fn err(op: &str, mods: &[&str]) -> isa::MatchError {
    match match_form(op, mods) {
        Ok(m) => panic!(
            "{op}{} unexpectedly matched `{}`",
            mods.concat(),
            m.form.syntax
        ),
        Err(e) => e,
    }
}

#[test]
fn sat_is_only_for_add_s32() {
    // ptx-integer-arithmetic.md §add: "add{.sat}.s32 … // .sat applies only to .s32"
    let e = err("add", &[".sat", ".u32"]);
    assert_eq!(e.kind, MatchErrorKind::NotAllowed);
    assert_eq!(e.index, Some(0));
    assert_eq!(e.message, "`.sat` is not allowed on `add.u32`");
    assert!(
        e.notes.iter().any(|n| n.contains("add{.sat}.s32")),
        "{:?}",
        e.notes
    );
    // Order does not matter for which modifier is blamed.
    let e = err("add", &[".u32", ".sat"]);
    assert_eq!(e.index, Some(1));
    assert_eq!(e.message, "`.sat` is not allowed on `add.u32`");
}

#[test]
fn mul_wide_is_for_16_and_32_bit_types() {
    // ptx-integer-arithmetic.md §mul: "The .wide suffix is supported only for 16- and 32-bit
    // integer types."
    for t in [".u64", ".s64"] {
        let e = err("mul", &[".wide", t]);
        assert_eq!(e.kind, MatchErrorKind::Excluded);
        assert!(e.message.contains("16- and 32-bit"), "{}", e.message);
    }
    assert!(match_form("mul", &[".wide", ".s32"]).is_ok());
    let e = err("mad", &[".wide", ".u64"]);
    assert_eq!(e.kind, MatchErrorKind::Excluded);
}

#[test]
fn byte_types_are_not_arithmetic_types() {
    // ptx-isa-1.1 §5.2.2: ".u8 and .s8 types are restricted to ld, st, and cvt".
    for op in [
        "add", "sub", "mul", "mad", "min", "max", "div", "rem", "abs", "neg", "shr",
    ] {
        for t in [".u8", ".s8"] {
            let mut mods = vec![t];
            if op == "mul" || op == "mad" {
                mods.insert(0, ".lo");
            }
            let e = err(op, &mods);
            assert_eq!(e.message, format!("`{op}` does not take type `{t}`"));
        }
    }
    assert!(match_form("ld", &[".global", ".u8"]).is_ok());
    assert!(match_form("st", &[".shared", ".s8"]).is_ok());
    assert!(match_form("cvt", &[".u32", ".u8"]).is_ok());
}

#[test]
fn unknown_things_are_named() {
    let e = err("frobnicate", &[".u32"]);
    assert_eq!(e.kind, MatchErrorKind::UnknownOpcode);
    assert_eq!(e.message, "unknown instruction `frobnicate`");
    let e = err("add", &[".foo", ".u32"]);
    assert_eq!(e.kind, MatchErrorKind::UnknownModifier);
    assert_eq!(
        (e.index, e.message.as_str()),
        (Some(0), "unknown modifier `.foo` for `add`")
    );
}

#[test]
fn missing_and_duplicate_modifiers() {
    let e = err("add", &[]);
    assert_eq!(e.kind, MatchErrorKind::Missing);
    assert!(
        e.message.starts_with("`add` needs a type (.u16, .u32"),
        "{}",
        e.message
    );
    let e = err("szext", &[".u32"]);
    assert_eq!(e.kind, MatchErrorKind::Missing);
    assert_eq!(e.message, "`szext.u32` needs a clamp mode (.clamp, .wrap)");
    // ptx-isa-1.1 Table 18 writes the mode as optional; from PTX ISA 1.4 it is required.
    let m = match_form("mul", &[".u32"]).unwrap();
    assert!(m.check_gate(10, PtxVersion::new(1, 1)).is_ok());
    assert_eq!(
        m.check_gate(20, PtxVersion::new(2, 0))
            .unwrap_err()
            .to_string(),
        "mul.u32 is not valid in PTX ISA version 1.4 or later (file is .version 2.0): \
         integer mul and mad need .hi, .lo or .wide"
    );
    let e = err("add", &[".rn", ".rz", ".f32"]);
    assert_eq!(e.kind, MatchErrorKind::Duplicate);
    assert_eq!(
        (e.index, e.message.as_str()),
        (Some(1), "`.rz` conflicts with `.rn`: only one may be given")
    );
    let e = err("add", &[".sat", ".sat", ".s32"]);
    assert_eq!(e.kind, MatchErrorKind::Duplicate);
    assert_eq!(e.message, "`.sat` is given twice");
    let e = err("mad", &[".cc", ".u32"]);
    assert_eq!(e.kind, MatchErrorKind::Missing, "{}", e.message);
}

#[test]
fn comparison_operators_follow_tables_12_to_15() {
    assert!(err("setp", &[".lo", ".s32"]).message.contains("unsigned"));
    assert!(err("setp", &[".lt", ".b32"])
        .message
        .contains(".eq and .ne"));
    assert!(err("setp", &[".equ", ".u32"])
        .message
        .contains("floating-point"));
    assert!(err("setp", &[".lt", ".ftz", ".f64"])
        .message
        .contains(".ftz"));
    for ok in [
        &[".lo", ".u32"][..],
        &[".lt", ".u32"],
        &[".eq", ".b16"],
        &[".nan", ".f64"],
        &[".lt", ".and", ".ftz", ".f32"],
    ] {
        if let Err(e) = match_form("setp", ok) {
            panic!("{ok:?}: {e}");
        }
    }
}

#[test]
fn cvt_rounding_rules() {
    let bad: &[&[&str]] = &[
        &[".rn", ".s32", ".s16"],  // int to int: no rounding
        &[".rn", ".f64", ".f32"],  // widening: no rounding
        &[".rn", ".f32", ".f32"],  // same size: integer rounding only
        &[".rni", ".f32", ".s32"], // int to float: float rounding
        &[".rn", ".s32", ".f32"],  // float to int: integer rounding
        &[".rzi", ".f32", ".f64"], // narrowing: float rounding
    ];
    for b in bad {
        assert_eq!(err("cvt", b).kind, MatchErrorKind::Excluded, "{b:?}");
    }
    for ok in [
        &[".rni", ".f32", ".f32"][..],
        &[".rn", ".f32", ".s32"],
        &[".rzi", ".s32", ".f32"],
        &[".f64", ".f32"],
        &[".sat", ".s16", ".s32"],
        &[".rn", ".f16", ".f32"],
    ] {
        assert!(match_form("cvt", ok).is_ok(), "{ok:?}");
    }
    // Required roundings: valid only in PTX ISA 1.x (ptx-isa-1.1 example `cvt.f32.s32 f,i;`).
    let m = match_form("cvt", &[".f32", ".s32"]).unwrap();
    assert!(m.check_gate(10, PtxVersion::new(1, 1)).is_ok());
    let g = m.check_gate(50, PtxVersion::new(7, 0)).unwrap_err();
    assert_eq!(
        g.to_string(),
        "cvt.f32.s32 is not valid in PTX ISA version 1.4 or later (file is .version 7.0): \
         integer-to-float conversions need a rounding modifier (.rn .rz .rm .rp)"
    );
}

#[test]
fn atom_operations_take_their_types() {
    assert!(err("atom", &[".global", ".and", ".u32"])
        .message
        .contains(".b32 or .b64"));
    assert!(err("atom", &[".global", ".inc", ".s32"])
        .message
        .contains(".u32"));
    assert!(err("atom", &[".global", ".add", ".s64"])
        .message
        .contains(".add takes"));
    assert!(match_form("atom", &[".global", ".add", ".f32"]).is_ok());
    assert!(match_form("atom", &[".shared", ".cas", ".b32"]).is_ok());
    assert!(match_form("atom", &[".add", ".u64"]).is_ok());
    assert!(match_form("red", &[".global", ".add", ".f32"]).is_ok());
}

#[test]
fn gates_name_the_requirement() {
    let dp4a = match_form("dp4a", &[".u32", ".s32"]).unwrap();
    assert_eq!(
        dp4a.check_gate(52, PtxVersion::new(5, 0))
            .unwrap_err()
            .to_string(),
        "dp4a requires .target sm_61 or higher (file targets sm_52)"
    );
    assert_eq!(
        dp4a.check_gate(61, PtxVersion::new(4, 3))
            .unwrap_err()
            .to_string(),
        "dp4a requires PTX ISA version 5.0 or higher (file is .version 4.3)"
    );
    assert!(dp4a.check_gate(61, PtxVersion::new(5, 0)).is_ok());

    let x2 = match_form("add", &[".u16x2"]).unwrap();
    assert_eq!(
        x2.check_gate(80, PtxVersion::new(8, 0))
            .unwrap_err()
            .to_string(),
        "add.u16x2 requires .target sm_90 or higher (file targets sm_80)"
    );
    assert!(match_form("add", &[".u32"])
        .unwrap()
        .check_gate(10, PtxVersion::new(1, 0))
        .is_ok());

    let cc64 = match_form("add", &[".cc", ".u64"]).unwrap();
    assert_eq!(
        cc64.check_gate(50, PtxVersion::new(4, 2))
            .unwrap_err()
            .to_string(),
        "add.cc.u64 requires PTX ISA version 4.3 or higher (file is .version 4.2)"
    );
    assert!(match_form("add", &[".cc", ".u32"])
        .unwrap()
        .check_gate(10, PtxVersion::new(1, 2))
        .is_ok());

    for op in ["szext", "bmsk"] {
        let mods: &[&str] = if op == "szext" {
            &[".wrap", ".u32"]
        } else {
            &[".clamp", ".b32"]
        };
        let m = match_form(op, mods).unwrap();
        let g = m.gate();
        assert_eq!((g.min_sm, g.min_ptx), (70, PtxVersion::new(7, 6)), "{op}");
    }
    for op in ["vadd4", "vset2", "vmax2", "vavrg4"] {
        let mods: &[&str] = if op.starts_with("vset") {
            &[".u32", ".u32", ".lt"]
        } else {
            &[".u32", ".u32", ".u32"]
        };
        let g = match_form(op, mods).unwrap().gate();
        assert_eq!((g.min_sm, g.min_ptx), (30, PtxVersion::new(3, 0)), "{op}");
    }
    let vote = match_form("vote", &[".all", ".pred"]).unwrap();
    assert!(vote.check_gate(61, PtxVersion::new(6, 0)).is_ok());
    assert!(vote
        .check_gate(70, PtxVersion::new(6, 0))
        .unwrap_err()
        .to_string()
        .starts_with("vote.all.pred is not supported on sm_70 or higher (file targets sm_70): vote without .sync"));
}

#[test]
fn video_operand_types_and_selectors() {
    let m = match_form("vmad", &[".s32", ".u32", ".s32", ".shr15"]).unwrap();
    assert_eq!(m.operand_type(0), Some(isa::Type::S32));
    assert_eq!(m.operand_type(1), Some(isa::Type::U32));
    assert_eq!(m.operand_type(3), Some(isa::Type::S32));
    assert_eq!(m.form.operands[1].negate, isa::Negate::Minus);
    let po = match_form("vmad", &[".u32", ".u32", ".u32", ".po"]).unwrap();
    assert_eq!(po.form.operands[1].negate, isa::Negate::None);
    let merge = isa::match_all("vadd", &[".u32", ".u32", ".u32"]).collect::<Vec<_>>();
    assert!(merge
        .iter()
        .any(|m| m.form.operands[0].selector == isa::Selector::RequiredByteHalf));
    let s4 = match_form("vsub4", &[".s32", ".s32", ".s32", ".sat"]).unwrap();
    let ops = &s4.form.operands;
    assert!(ops[0].selector.admits(".b210") && !ops[0].selector.admits(".b012"));
    assert!(ops[1].selector.admits(".b7654") && !ops[1].selector.admits(".b8000"));
    let s2 = match_form("vmin2", &[".s32", ".u32", ".u32", ".add"]).unwrap();
    assert!(
        s2.form.operands[1].selector.admits(".h32") && !s2.form.operands[1].selector.admits(".h4")
    );
    assert!(
        s2.form.operands[0].selector.admits(".h10") && !s2.form.operands[0].selector.admits(".h2")
    );
}

#[test]
fn wide_and_packed_operand_types() {
    let m = match_form("mul", &[".wide", ".s16"]).unwrap();
    assert_eq!(m.operand_type(0), Some(isa::Type::S32));
    assert_eq!(m.operand_type(1), Some(isa::Type::S16));
    let m = match_form("mad", &[".lo", ".s16"]).unwrap();
    assert_eq!(m.operand_type(3), Some(isa::Type::S16));
    let m = match_form("popc", &[".b64"]).unwrap();
    assert_eq!(
        (m.operand_type(0), m.operand_type(1)),
        (Some(isa::Type::U32), Some(isa::Type::B64))
    );
    let dp = match_form("dp4a", &[".u32", ".u32"]).unwrap();
    assert_eq!(dp.operand_type(3), Some(isa::Type::U32));
    let dp = match_form("dp2a", &[".lo", ".u32", ".s32"]).unwrap();
    assert_eq!(dp.operand_type(3), Some(isa::Type::S32));
    let pack = isa::match_all("mov", &[".b64"])
        .find(|m| {
            m.form
                .operands
                .get(1)
                .is_some_and(|o| o.vector == isa::VecRule::Fixed(4))
        })
        .unwrap();
    assert_eq!(pack.operand_type(1), Some(isa::Type::B16));
}

#[test]
fn heads_and_the_cache_agree_with_match_form() {
    let mut cache = isa::MatchCache::new();
    for head in [
        "add.sat.s32",
        "ld.shared::cta.v2.f32",
        "ret",
        "add.sat.u32",
        "nope.u32",
    ] {
        let (op, rest) = head.split_once('.').unwrap_or((head, ""));
        let mods: Vec<String> = if rest.is_empty() {
            vec![]
        } else {
            rest.split('.').map(|p| format!(".{p}")).collect()
        };
        let mods: Vec<&str> = mods.iter().map(String::as_str).collect();
        let direct = match_form(op, &mods);
        for r in [
            isa::match_head(head),
            cache.match_head(head),
            cache.match_head(head),
        ] {
            match (&direct, &r) {
                (Ok(a), Ok(b)) => assert!(std::ptr::eq(a.form, b.form) && a.mods == b.mods),
                (Err(a), Err(b)) => assert_eq!(a, b),
                _ => panic!("{head}: {direct:?} vs {r:?}"),
            }
        }
    }
}

#[test]
fn generic_addressing_needs_ptx_2_and_sm_20() {
    // PTX ISA 8.x §9.7.9.8 ld: "generic addressing … introduced in PTX ISA version 2.0",
    // "requires sm_20"; ptx-isa-1.1 Table 41 requires `.space`.
    let m = match_form("ld", &[".u32"]).unwrap();
    assert_eq!(
        m.check_gate(13, PtxVersion::new(1, 2))
            .unwrap_err()
            .to_string(),
        "ld.u32 requires .target sm_20 or higher (file targets sm_13): \
         an address without a state space is a generic address"
    );
    assert!(match_form("ld", &[".global", ".u32"])
        .unwrap()
        .check_gate(10, PtxVersion::new(1, 0))
        .is_ok());
    assert!(match_form("atom", &[".add", ".u32"])
        .unwrap()
        .check_gate(13, PtxVersion::new(1, 2))
        .is_err());
}

#[test]
fn vote_operand_types() {
    // PTX ISA 8.x §9.7.13.7: vote.ballot.b32 d — "d is a 32-bit register"; the other modes
    // write a predicate.
    for sync in [false, true] {
        let mut mods = vec![".ballot", ".b32"];
        if sync {
            mods.insert(0, ".sync");
        }
        let m = match_form("vote", &mods).unwrap();
        assert_eq!(m.operand_type(0), Some(isa::Type::B32));
        assert_eq!(m.operand_type(1), Some(isa::Type::Pred));
        mods[usize::from(sync)] = ".any";
        mods[usize::from(sync) + 1] = ".pred";
        let m = match_form("vote", &mods).unwrap();
        assert_eq!(m.operand_type(0), Some(isa::Type::Pred));
    }
}

#[test]
fn scalar_video_sources_may_be_immediates_simd_sources_not() {
    let m = match_form("vshr", &[".u32", ".u32", ".u32", ".clamp"]).unwrap();
    assert_eq!(m.form.operands[2].kind, isa::OperandKind::Src);
    let m = match_form("vadd4", &[".u32", ".u32", ".u32"]).unwrap();
    assert_eq!(m.form.operands[2].kind, isa::OperandKind::SrcReg);
}

#[test]
fn cache_hints_of_ld() {
    // PTX ISA 8.x §9.7.9.8: eviction priorities and prefetch sizes, .global (and generic) only.
    let m = match_form(
        "ld",
        &[".global", ".L1::evict_last", ".L2::128B", ".v4", ".f32"],
    )
    .unwrap();
    assert_eq!(m.mods.eviction, Some(isa::Eviction::L1EvictLast));
    assert_eq!(m.mods.prefetch_size, Some(isa::PrefetchSize::L2_128B));
    let g = m.gate();
    assert_eq!((g.min_sm, g.min_ptx), (75, PtxVersion::new(7, 4)));
    assert!(match_form("ld", &[".global", ".nc", ".L1::no_allocate", ".v4", ".f32"]).is_ok());
    assert_eq!(
        err("ld", &[".shared", ".L1::evict_last", ".u32"]).kind,
        MatchErrorKind::Excluded
    );
    assert_eq!(
        err("ld", &[".global", ".ca", ".L1::evict_first", ".u32"]).kind,
        MatchErrorKind::Excluded
    );
}

#[test]
fn unsupported_ptx_instructions_are_named_as_such() {
    let e = err("multimem", &[".ld_reduce", ".add", ".u32"]);
    assert_eq!(e.kind, MatchErrorKind::UnknownOpcode);
    assert_eq!(
        e.message,
        "`multimem` is a PTX instruction that ptxvm does not support"
    );
    for op in isa::NOT_SUPPORTED {
        assert!(isa::Opcode::from_name(op).is_none(), "{op} has rows");
    }
}
