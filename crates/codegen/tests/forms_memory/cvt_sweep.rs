//! Every `cvt` spelling the checker accepts for sm_20 — each rounding (none, `.rn/.rz/.rm/.rp`,
//! `.rni/.rzi/.rmi/.rpi`) × `.ftz` × `.sat` × destination × source type — translates, or is
//! refused with a reason that does not say "no selection rule yet" (round s25: the `every_form`
//! sweep samples modifier combinations; this loop tries them all).

use std::fmt::Write;

const TYPES: &[&str] = &[
    "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "f16", "f32", "f64",
];

fn reg_type(t: &str) -> &str {
    match t {
        "u8" | "s8" | "f16" => "b16",
        t => t,
    }
}

#[test]
fn every_cvt_spelling_translates_or_says_why() {
    let mut gaps = String::new();
    let mut translated = 0;
    for rnd in [
        "", ".rn", ".rz", ".rm", ".rp", ".rni", ".rzi", ".rmi", ".rpi",
    ] {
        for ftz in ["", ".ftz"] {
            for sat in ["", ".sat"] {
                for d in TYPES {
                    for a in TYPES {
                        let line = format!("cvt{rnd}{ftz}{sat}.{d}.{a} %d, %a;");
                        let text = format!(
                            ".version 7.0\n.target sm_20\n.address_size 64\n\
                             .entry k (.param .u64 out)\n{{\n\t.reg .{} %d;\n\t.reg .{} %a;\n\
                             \t.reg .u64 %rd;\n\tld.param.u64 %rd, [out];\n\
                             \tld.global.{} %a, [%rd];\n\t{line}\n\
                             \tst.global.{} [%rd+8], %d;\n\tret;\n}}\n",
                            reg_type(d),
                            reg_type(a),
                            reg_type(a),
                            reg_type(d)
                        );
                        let file = diag::SourceFile::new("cvt.ptx", text);
                        let (m, diags) = check::check_source(&file);
                        let Some(m) = m.filter(|_| !diag::has_errors(&diags)) else {
                            continue;
                        };
                        match codegen::compile_module(&m, &file) {
                            Ok(_) => translated += 1,
                            Err(e) => {
                                let msg = e.iter().map(|d| d.message.clone()).collect::<String>();
                                if msg.contains("yet") || msg.contains("internal error") {
                                    let _ = writeln!(gaps, "{line}: {msg}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(translated > 100, "only {translated} spellings translated");
    assert!(gaps.is_empty(), "cvt spellings without a rule:\n{gaps}");
}
