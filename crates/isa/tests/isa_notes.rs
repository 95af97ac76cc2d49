//! The gates of every instruction of the three markdown spec files, transcribed by hand from
//! their "PTX ISA Notes" and "Target ISA Notes" (ptx-integer-arithmetic.md,
//! ptx-extended-precision.md, ptx-video.md), against what the table gives.

use isa::{match_form, PtxVersion};

/// (opcode, modifiers, sm_NN, PTX major, PTX minor). "Supported on all target architectures"
/// is sm_10; "Introduced in PTX ISA version 1.0" is 1.0.
const NOTES: &[(&str, &[&str], u32, u8, u8)] = &[
    // ptx-integer-arithmetic.md
    ("add", &[".s32"], 10, 1, 0),
    ("add", &[".u16x2"], 90, 8, 0),
    ("add", &[".s16x2"], 90, 8, 0),
    ("sub", &[".s64"], 10, 1, 0),
    ("mul", &[".wide", ".u16"], 10, 1, 0),
    ("mad", &[".hi", ".sat", ".s32"], 10, 1, 0),
    ("mul24", &[".lo", ".u32"], 10, 1, 0),
    ("mad24", &[".hi", ".sat", ".s32"], 10, 1, 0),
    ("sad", &[".u64"], 10, 1, 0),
    ("div", &[".s16"], 10, 1, 0),
    ("rem", &[".u32"], 10, 1, 0),
    ("abs", &[".s16"], 10, 1, 0),
    ("neg", &[".s64"], 10, 1, 0),
    ("min", &[".u16"], 10, 1, 0),
    ("min", &[".u16x2"], 90, 8, 0),
    ("min", &[".relu", ".s16x2"], 90, 8, 0),
    ("min", &[".relu", ".s32"], 90, 8, 0),
    ("max", &[".s64"], 10, 1, 0),
    ("max", &[".s16x2"], 90, 8, 0),
    ("max", &[".relu", ".s32"], 90, 8, 0),
    ("popc", &[".b64"], 20, 2, 0),
    ("clz", &[".b32"], 20, 2, 0),
    ("bfind", &[".shiftamt", ".s64"], 20, 2, 0),
    ("fns", &[".b32"], 30, 6, 0),
    ("brev", &[".b64"], 20, 2, 0),
    ("bfe", &[".s32"], 20, 2, 0),
    ("bfi", &[".b64"], 20, 2, 0),
    ("szext", &[".clamp", ".s32"], 70, 7, 6),
    ("bmsk", &[".wrap", ".b32"], 70, 7, 6),
    ("dp4a", &[".s32", ".u32"], 61, 5, 0),
    ("dp2a", &[".hi", ".u32", ".u32"], 61, 5, 0),
    // ptx-extended-precision.md: 32-bit forms on all targets; 64-bit need sm_20 and PTX 4.3;
    // mad.cc and madc need sm_20 and PTX 3.0.
    ("add", &[".cc", ".u32"], 10, 1, 2),
    ("add", &[".cc", ".s64"], 20, 4, 3),
    ("addc", &[".u32"], 10, 1, 2),
    ("addc", &[".cc", ".u64"], 20, 4, 3),
    ("sub", &[".cc", ".s32"], 10, 1, 2),
    ("sub", &[".cc", ".u64"], 20, 4, 3),
    ("subc", &[".cc", ".u32"], 10, 1, 2),
    ("subc", &[".s64"], 20, 4, 3),
    ("mad", &[".lo", ".cc", ".u32"], 20, 3, 0),
    ("mad", &[".hi", ".cc", ".s64"], 20, 4, 3),
    ("madc", &[".hi", ".u32"], 20, 3, 0),
    ("madc", &[".lo", ".cc", ".u64"], 20, 4, 3),
    // ptx-video.md: scalar video PTX 2.0 / sm_20; SIMD video PTX 3.0 / sm_30.
    ("vadd", &[".s32", ".u32", ".s32", ".sat"], 20, 2, 0),
    ("vsub", &[".u32", ".u32", ".u32", ".add"], 20, 2, 0),
    ("vabsdiff", &[".s32", ".s32", ".s32"], 20, 2, 0),
    ("vmin", &[".u32", ".s32", ".u32", ".max"], 20, 2, 0),
    ("vmax", &[".s32", ".s32", ".s32", ".min"], 20, 2, 0),
    ("vshl", &[".u32", ".u32", ".u32", ".clamp"], 20, 2, 0),
    ("vshr", &[".s32", ".u32", ".u32", ".wrap", ".add"], 20, 2, 0),
    ("vmad", &[".s32", ".s32", ".s32", ".shr7"], 20, 2, 0),
    ("vmad", &[".u32", ".u32", ".u32", ".po"], 20, 2, 0),
    ("vset", &[".u32", ".s32", ".ge"], 20, 2, 0),
    ("vadd2", &[".s32", ".s32", ".s32", ".sat"], 30, 3, 0),
    ("vsub2", &[".u32", ".u32", ".u32", ".add"], 30, 3, 0),
    ("vavrg2", &[".u32", ".u32", ".u32"], 30, 3, 0),
    ("vabsdiff2", &[".s32", ".u32", ".s32"], 30, 3, 0),
    ("vmin2", &[".u32", ".u32", ".u32"], 30, 3, 0),
    ("vmax2", &[".s32", ".s32", ".s32"], 30, 3, 0),
    ("vset2", &[".u32", ".u32", ".ne", ".add"], 30, 3, 0),
    ("vadd4", &[".u32", ".u32", ".u32"], 30, 3, 0),
    ("vsub4", &[".s32", ".s32", ".s32", ".sat"], 30, 3, 0),
    ("vavrg4", &[".u32", ".u32", ".u32", ".add"], 30, 3, 0),
    ("vabsdiff4", &[".u32", ".u32", ".u32"], 30, 3, 0),
    ("vmin4", &[".s32", ".u32", ".u32", ".add"], 30, 3, 0),
    ("vmax4", &[".u32", ".u32", ".u32"], 30, 3, 0),
    ("vset4", &[".s32", ".u32", ".lt"], 30, 3, 0),
];

#[test]
fn gates_follow_the_isa_notes() {
    for (op, mods, sm, major, minor) in NOTES {
        let m = match_form(op, mods).unwrap_or_else(|e| panic!("{op}{}: {e}", mods.concat()));
        let g = m.gate();
        assert_eq!(
            (g.min_sm, g.min_ptx),
            (*sm, PtxVersion::new(*major, *minor)),
            "{op}{}",
            mods.concat()
        );
        assert_eq!(g.max_sm, None, "{op}{}", mods.concat());
        assert_eq!(g.max_ptx, None, "{op}{}", mods.concat());
    }
}

#[test]
fn every_instruction_of_the_markdown_specs_is_covered() {
    let covered: std::collections::HashSet<&str> = NOTES.iter().map(|n| n.0).collect();
    for op in [
        "add",
        "sub",
        "mul",
        "mad",
        "mul24",
        "mad24",
        "sad",
        "div",
        "rem",
        "abs",
        "neg",
        "min",
        "max",
        "popc",
        "clz",
        "bfind",
        "fns",
        "brev",
        "bfe",
        "bfi",
        "szext",
        "bmsk",
        "dp4a",
        "dp2a",
        "addc",
        "subc",
        "madc",
        "vadd",
        "vsub",
        "vabsdiff",
        "vmin",
        "vmax",
        "vshl",
        "vshr",
        "vmad",
        "vset",
        "vadd2",
        "vsub2",
        "vavrg2",
        "vabsdiff2",
        "vmin2",
        "vmax2",
        "vset2",
        "vadd4",
        "vsub4",
        "vavrg4",
        "vabsdiff4",
        "vmin4",
        "vmax4",
        "vset4",
    ] {
        assert!(covered.contains(op), "{op}");
    }
}
