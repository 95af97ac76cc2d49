//! Property test for the printer: random well-formed kernels (random statements, operands and
//! expression trees, random layout) parse cleanly, and `fmt` round-trips them.

use diag::SourceFile;
use proptest::prelude::*;

const NAMES: &[&str] = &[
    "%r1",
    "%rd22",
    "%p3",
    "x",
    "_Z3fooPf",
    "$L__BB0_1",
    "%tid.x",
    "V.wzyx",
    "r.b7654",
    "%r9.h1",
    "s.inner.x",
];
const OPCODES: &[&str] = &[
    "add.s32",
    "ld.global.nc.v4.f32",
    "st.shared.u64",
    "mov.b32",
    "setp.lt.s32",
    "bra.uni",
    "call.uni",
    "tex.2d.v4.f32.f32",
    "vmad.s32.s32.u32.sat",
    "ld.global.L1::evict_last.u32",
    "ret",
];
const SPACES: &[&str] = &[" ", "  ", "\t", "\n", " /* c */ ", " // c\n"];

fn ws() -> impl Strategy<Value = &'static str> {
    prop::sample::select(SPACES)
}

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(NAMES).prop_map(str::to_string)
}

fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..100_000).prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| format!("0x{v:X}")),
        (0u64..4096).prop_map(|v| format!("0{v:o}")),
        (0u64..256).prop_map(|v| format!("0b{v:b}")),
        (0u64..1000).prop_map(|v| format!("{v}U")),
        any::<u32>().prop_map(|v| format!("0f{v:08X}")),
        any::<u64>().prop_map(|v| format!("0d{v:016x}")),
        (0u32..10_000, 0u32..100).prop_map(|(a, b)| format!("{a}.{b}")),
        (0u32..100).prop_map(|a| format!(".{a}e-3")),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![literal(), name()];
    leaf.prop_recursive(4, 24, 3, |inner| {
        let ops = prop::sample::select(
            &[
                "*", "/", "%", "+", "-", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "&", "^",
                "|", "&&", "||",
            ][..],
        );
        prop_oneof![
            (
                prop::sample::select(&["-", "+", "!", "~"][..]),
                inner.clone()
            )
                .prop_map(|(op, e)| format!("{op}({e})")),
            (inner.clone(), ops, inner.clone(), ws())
                .prop_map(|(a, op, b, w)| format!("({a}){w}{op}{w}({b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("({c}) ? ({a}) : ({b})")),
            (prop::sample::select(&[".s64", ".u32", ".u64"][..]), inner)
                .prop_map(|(t, e)| format!("({t})({e})")),
        ]
    })
}

fn operand() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => expr(),
        1 => name().prop_map(|n| format!("-{n}")),
        1 => name().prop_map(|n| format!("!{n}")),
        2 => (name(), expr()).prop_map(|(n, e)| format!("[{n}+{e}]")),
        1 => expr().prop_map(|e| format!("[{e}]")),
        1 => (name(), name(), name()).prop_map(|(t, a, b)| format!("[{t}, {{{a}, {b}}}]")),
        1 => prop::collection::vec(name(), 1..5).prop_map(|v| format!("{{{}}}", v.join(", "))),
        1 => (name(), name()).prop_map(|(a, b)| format!("{a}|{b}")),
        1 => Just("_".to_string()),
        1 => (name(), expr()).prop_map(|(n, e)| format!("{n}[{e}]")),
        1 => prop::collection::vec(name(), 0..4).prop_map(|v| format!("({})", v.join(", "))),
    ]
}

fn instruction() -> impl Strategy<Value = String> {
    (
        prop::option::of((any::<bool>(), name())),
        prop::sample::select(OPCODES),
        prop::collection::vec(operand(), 0..5),
        ws(),
    )
        .prop_map(|(guard, op, ops, w)| {
            let g = guard.map_or(String::new(), |(neg, p)| {
                format!("@{}{p} ", if neg { "!" } else { "" })
            });
            format!("{g}{op}{w}{};", ops.join(&format!(",{w}")))
        })
}

fn declaration() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&[".reg", ".shared", ".local", ".global", ".const"][..]),
        prop::option::of(prop::sample::select(&["4", "8", "16"][..])),
        prop::sample::select(&[".b32", ".u64", ".f32", ".pred", ".v4 .f32"][..]),
        prop::collection::vec(expr(), 0..4),
    )
        .prop_map(|(space, align, ty, init)| {
            let a = align.map_or(String::new(), |a| format!(" .align {a}"));
            let i = if init.is_empty() {
                String::new()
            } else {
                format!("[] = {{{}}}", init.join(", "))
            };
            format!("{space}{a} {ty} v{i};")
        })
}

fn statement() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        6 => instruction(),
        1 => declaration(),
        1 => Just("$L__BB0_7:".to_string()),
        1 => Just(".loc 1 42 7".to_string()),
        1 => Just(".pragma \"nounroll\";".to_string()),
    ];
    leaf.prop_recursive(3, 30, 6, |inner| {
        prop::collection::vec(inner, 0..6).prop_map(|v| format!("{{\n{}\n}}", v.join("\n")))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_kernels_parse_and_round_trip(stmts in prop::collection::vec(statement(), 0..12)) {
        let src = format!(
            ".version 8.4\n.target sm_80\n.visible .entry k(.param .u64 a)\n.maxntid 32, 1, 1\n{{\n{}\n}}\n",
            stmts.join("\n")
        );
        let file = SourceFile::new("gen.ptx", src.clone());
        let (m, d) = syntax::parse_module(&file);
        prop_assert!(d.is_empty(), "{}\n{src}", diag::render(&file, &d));
        let out = syntax::print_module(&m, &file);
        let f2 = SourceFile::new("fmt.ptx", out.clone());
        let (m2, d2) = syntax::parse_module(&f2);
        prop_assert!(d2.is_empty(), "{}\n{out}", diag::render(&f2, &d2));
        prop_assert!(syntax::same_module(&m, &file.text, &m2, &f2.text), "{src}\n---\n{out}");
        prop_assert_eq!(syntax::print_module(&m2, &f2), out);
    }
}
