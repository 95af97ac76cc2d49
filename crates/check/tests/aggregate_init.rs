//! `.struct`/`.union` initializers (ptx-isa-1.1 §5.3.4-§5.3.5) lowered to bytes. Expected
//! layouts are computed here with C's rules: each field at its natural alignment, the aggregate
//! aligned to its most aligned field and padded to it, unions through their first member,
//! missing trailing values zero.

use ir::RelocTarget;

fn lower(text: &str) -> ir::Module {
    let file = diag::SourceFile::new("t.ptx", text);
    let (m, diags) = check::check_source(&file);
    assert!(!diag::has_errors(&diags), "{}", diag::render(&file, &diags));
    m.expect("module")
}

fn errors(text: &str) -> Vec<String> {
    let file = diag::SourceFile::new("t.ptx", text);
    let (_, diags) = check::check_source(&file);
    diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

const HEAD: &str = ".version 1.1\n.target sm_10\n";

fn image(size: usize, fields: &[(usize, &[u8])]) -> Vec<u8> {
    let mut b = vec![0u8; size];
    for (at, v) in fields {
        b[*at..*at + v.len()].copy_from_slice(v);
    }
    b
}

fn init_of<'m>(m: &'m ir::Module, name: &str) -> &'m ir::Initializer {
    m.vars
        .iter()
        .find(|v| v.name == name)
        .and_then(|v| v.init.as_ref())
        .unwrap_or_else(|| panic!("{name} has no initializer"))
}

#[test]
fn struct_fields_in_order_with_padding() {
    let m = lower(&format!(
        "{HEAD}.struct s {{ .u8 c; .f64 d; .s16 h; }};\n.global s v = {{ 200, -2.25, -3 }};\n"
    ));
    // c at 0, d at 8, h at 16; size 24 (padded to 8).
    let want = image(
        24,
        &[
            (0, &[200]),
            (8, &(-2.25f64).to_le_bytes()),
            (16, &(-3i16).to_le_bytes()),
        ],
    );
    assert_eq!(init_of(&m, "v").bytes, want);
}

#[test]
fn nested_structs_arrays_vectors_and_unions() {
    let m = lower(&format!(
        "{HEAD}.struct pt {{ .s32 i; .f32 x; }};\n.union iof {{ .s32 i; .f32 f; }};\n\
         .struct big {{ .u8 c; pt p; .f32[2] v; .v2 .u16 w; iof u; }};\n\
         .global big b = {{ 7, {{8, 1.5}}, {{2.5, 3.5}}, {{9, 10}}, {{11}} }};\n\
         .global big partial = {{ 1, {{2}} }};\n"
    ));
    let want = image(
        28,
        &[
            (0, &[7]),
            (4, &8i32.to_le_bytes()),
            (8, &1.5f32.to_le_bytes()),
            (12, &2.5f32.to_le_bytes()),
            (16, &3.5f32.to_le_bytes()),
            (20, &9u16.to_le_bytes()),
            (22, &10u16.to_le_bytes()),
            (24, &11i32.to_le_bytes()),
        ],
    );
    assert_eq!(init_of(&m, "b").bytes, want);
    let want = image(28, &[(0, &[1]), (4, &2i32.to_le_bytes())]);
    assert_eq!(init_of(&m, "partial").bytes, want);
}

#[test]
fn arrays_of_structs_sized_from_the_initializer() {
    let m = lower(&format!(
        "{HEAD}.struct pt {{ .s32 i; .f32 x; }};\n\
         .global pt ga[] = {{ {{1, 2.0}}, {{3}}, {{-4, 0f3F800000}} }};\n\
         .global pt grid[2][2] = {{ {{ {{1}}, {{2}} }}, {{ {{3, 4.0}} }} }};\n"
    ));
    let v = m.vars.iter().find(|v| v.name == "ga").unwrap();
    assert_eq!((v.dims.clone(), v.size), (vec![3], 24));
    let want = image(
        24,
        &[
            (0, &1i32.to_le_bytes()),
            (4, &2.0f32.to_le_bytes()),
            (8, &3i32.to_le_bytes()),
            (16, &(-4i32).to_le_bytes()),
            (20, &1.0f32.to_le_bytes()),
        ],
    );
    assert_eq!(init_of(&m, "ga").bytes, want);
    let want = image(
        32,
        &[
            (0, &1i32.to_le_bytes()),
            (8, &2i32.to_le_bytes()),
            (16, &3i32.to_le_bytes()),
            (20, &4.0f32.to_le_bytes()),
        ],
    );
    assert_eq!(init_of(&m, "grid").bytes, want);
}

#[test]
fn anonymous_union_member_and_address_fields() {
    let m = lower(&format!(
        "{HEAD}.struct an {{ .u16 a; .union {{ .u32 i; .f32 f; }}; .u8 z; }};\n\
         .global an x = {{ 1, {{ 0xAABBCCDD }}, 3 }};\n\
         .global .u32 target[4];\n\
         .struct ps {{ .u16 tag; .u32 p; }};\n.global ps q = {{ 5, target + 8 }};\n"
    ));
    // a at 0, the anonymous union at 4, z at 8; 12 bytes.
    let want = image(
        12,
        &[
            (0, &1u16.to_le_bytes()),
            (4, &0xAABB_CCDDu32.to_le_bytes()),
            (8, &[3]),
        ],
    );
    assert_eq!(init_of(&m, "x").bytes, want);
    // The address goes into a relocation at p's offset (4), width 4.
    let q = init_of(&m, "q");
    assert_eq!(q.bytes, image(8, &[(0, &5u16.to_le_bytes())]));
    let t = m.vars.iter().position(|v| v.name == "target").unwrap();
    assert_eq!(q.relocs.len(), 1);
    let r = q.relocs[0];
    assert_eq!(
        (r.offset, r.width, r.target, r.addend),
        (4, 4, RelocTarget::Var(ir::VarId(t as u32)), 8)
    );
}

#[test]
fn malformed_aggregate_initializers_are_refused() {
    let decls = ".struct pt { .s32 i; .f32 x; };\n.union iof { .s32 i; .f32 f; };\n";
    let cases: [(&str, &str); 5] = [
        (
            ".global pt a = { 1, 2.0, 3 };",
            "too many initializers: 3 given for struct `pt`, which has 2 fields",
        ),
        (
            ".global pt a = 5;",
            "struct `pt` needs a brace-enclosed initializer with one value per field",
        ),
        (
            ".global iof a = { 1, 2 };",
            "a union is initialized through its first member (`i`) only, as in C; got 2 values",
        ),
        (
            ".global pt a[2] = { {1}, {2}, {3} };",
            "too many initializers: 3 given for 2 elements",
        ),
        (
            ".global pt a[2] = 7;",
            "an array of struct `pt` needs a brace-enclosed initializer",
        ),
    ];
    for (decl, msg) in cases {
        let errs = errors(&format!("{HEAD}{decls}{decl}\n"));
        assert_eq!(errs, vec![msg.to_string()], "{decl}");
    }
}
