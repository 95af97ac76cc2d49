//! Constant expressions of ptx-isa-1.1 §4.5.4 ("The meaning of operators in PTX is the same as
//! in C or C++") and the literal forms of §4.5.1-§4.5.2, evaluated in initializers and compared
//! with the same expressions evaluated by Rust, whose integer operators (truncating `/` and `%`,
//! precedence of `<<` below `+`, `&` below `==`...) agree with C on these operands.

fn values(decls: &[(&str, &str)]) -> Vec<Vec<u8>> {
    let mut text = String::from(".version 1.1\n.target sm_10\n");
    for (i, (ty, e)) in decls.iter().enumerate() {
        text.push_str(&format!(".global {ty} c{i} = {e};\n"));
    }
    let file = diag::SourceFile::new("t.ptx", &text);
    let (m, diags) = check::check_source(&file);
    assert!(!diag::has_errors(&diags), "{}", diag::render(&file, &diags));
    let m = m.expect("module");
    (0..decls.len())
        .map(|i| {
            let v = m.vars.iter().find(|v| v.name == format!("c{i}")).unwrap();
            v.init.as_ref().unwrap().bytes.clone()
        })
        .collect()
}

#[test]
fn integer_operators_follow_c() {
    let cases: [(&str, i32); 12] = [
        ("1 + 2 * 3 - 8 / 2 % 3", 1 + 2 * 3 - 8 / 2 % 3),
        (
            "(1 << 4) >> 2 & 0xff | 0x100 ^ 0x3",
            (1 << 4) >> 2 & 0xff | 0x100 ^ 0x3,
        ),
        ("-5 / 2", -5 / 2),
        ("-5 % 3", -5 % 3),
        ("~0 + !0", !0 + 1),
        ("0b1011 + 017 + 0X1F + 0B11", 0b1011 + 0o17 + 0x1F + 0b11),
        ("1 < 2 && 3 >= 3 || 0", 1),
        ("2 == 2 & 1", 1),
        ("1 ? 5 : 6", 5),
        ("0 ? 5 : 6", 6),
        ("1 + 2 << 3", (1 + 2) << 3),
        ("100 / 7 * 7 + 100 % 7", 100),
    ];
    let decls: Vec<(&str, &str)> = cases.iter().map(|(e, _)| (".s32", *e)).collect();
    for ((e, want), got) in cases.iter().zip(values(&decls)) {
        assert_eq!(got, want.to_le_bytes().to_vec(), "{e}");
    }
}

#[test]
fn float_literals_and_expressions() {
    let cases: [(&str, f32); 6] = [
        ("1.5 * 2.0 - 0.25 / 0.5", 1.5 * 2.0 - 0.25 / 0.5),
        ("(1.0 + 2) * 3", 9.0),
        ("1e3", 1000.0),
        (".5e-1", 0.05),
        ("0F3F800000", 1.0),
        ("0f40490FDB", std::f32::consts::PI),
    ];
    let decls: Vec<(&str, &str)> = cases.iter().map(|(e, _)| (".f32", *e)).collect();
    for ((e, want), got) in cases.iter().zip(values(&decls)) {
        assert_eq!(got, want.to_le_bytes().to_vec(), "{e}");
    }
    let got = values(&[(".f64", "0d3FF8000000000000")]);
    assert_eq!(got[0], 1.5f64.to_le_bytes().to_vec());
}
