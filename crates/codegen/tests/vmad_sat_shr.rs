//! `vmad` with `.sat` and `.shr7/.shr15` (the 96-bit sequence of `select/vmad_wide.rs`) on
//! both executors, bit for bit, over all pairs of integer edge values, against the PTX ISA's
//! pseudo-code (§9.7.18.1.3) written here in 128-bit arithmetic: `signedFinal`, the product
//! negated or `c` complemented with `lsb = 1`, `c` sign- or zero-extended by `signedFinal`, the
//! shift of the 128-bit `tmp` (arithmetic when signed), the low 64 bits clamped to the signed
//! or unsigned 32-bit range.

mod common;
use common::*;

/// The rows; `expect` reads each one's types, parts, negations and modifiers from its text.
const ROWS: &[&str] = &[
    "vmad.u32.u32.u32.sat %r9, %r5, %r6, %r7;",
    "vmad.u32.u32.u32.shr15 %r9, %r5, %r6, %r7;",
    "vmad.u32.u32.u32.po.sat.shr7 %r9, %r5, %r6, %r7;",
    "vmad.s32.s32.s32.sat %r9, %r5, %r6, %r7;",
    "vmad.s32.u32.s32.sat.shr7 %r9, -%r5, %r6, %r7;",
    "vmad.s32.u32.u32.sat %r9, -%r5, %r6, %r7;",
    "vmad.s32.u32.u32.sat.shr15 %r9, %r5, -%r6, %r7;",
    "vmad.u32.u32.u32.sat.shr7 %r9, %r5, %r6, -%r7;",
    "vmad.s32.u32.u32.sat %r9, %r5, %r6, -%r7;",
    "vmad.s32.s32.u32.sat.shr15 %r9, %r5.h1, %r6.b2, -%r7;",
    "vmad.u32.u32.s32.shr7 %r9, -%r5.b3, -%r6, %r7;",
    "vmad.s32.u32.s32.sat %r9, %r5, %r6.h1, 0x7fffffff;",
    "vmad.s32.s32.s32.po.sat.shr15 %r9, %r5, %r6, %r7;",
    "vmad.u32.s32.s32.sat %r9, %r5, %r6, -%r7;",
    "vmad.u32.u32.u32.sat.shr15 %r9, %r5.h0, -%r6.b1, %r7;",
    "vmad.s32.s32.s32.shr7 %r9, -%r5.h0, %r6, %r7;",
    "vmad.s32.s32.s32.sat.shr15 %r9, %r5.b1, %r6.b3, -%r7;",
];

/// A source operand of a row: its value (`%r5`, `%r6`, `%r7` or an immediate), negation and
/// part (`None` the whole word, `Some((bits, index))` a byte or half-word).
fn operand(text: &str, a: u32, b: u32, c: u32) -> (u32, bool, Option<(u32, u32)>) {
    let (neg, text) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let (reg, sel) = text.split_once('.').unwrap_or((text, ""));
    let value = match reg {
        "%r5" => a,
        "%r6" => b,
        "%r7" => c,
        imm => u32::from_str_radix(imm.trim_start_matches("0x"), 16).unwrap(),
    };
    let part = match sel.as_bytes() {
        [] => None,
        [b'b', k] => Some((8, u32::from(k - b'0'))),
        [b'h', k] => Some((16, u32::from(k - b'0'))),
        _ => panic!("selector {sel}"),
    };
    (value, neg, part)
}

/// partSelectSignExtend: the part, sign- or zero-extended.
fn part(x: u32, p: Option<(u32, u32)>, signed: bool) -> i128 {
    let (bits, k) = p.unwrap_or((32, 0));
    let v = u64::from(x >> (bits * k)) & ((1u64 << bits) - 1);
    if signed && v >> (bits - 1) != 0 {
        i128::from(v) - (1i128 << bits)
    } else {
        i128::from(v)
    }
}

fn expect(row: &str, r5: u32, r6: u32, r7: u32) -> u32 {
    let (opcode, rest) = row.split_once(' ').unwrap();
    let mods: Vec<&str> = opcode.split('.').collect();
    let (sa, sb) = (mods[2] == "s32", mods[3] == "s32");
    let (po, sat) = (mods.contains(&"po"), mods.contains(&"sat"));
    let shift = if mods.contains(&"shr7") {
        7
    } else if mods.contains(&"shr15") {
        15
    } else {
        0
    };
    let ops: Vec<&str> = rest.trim_end_matches(';').split(", ").collect();
    let (a, na, pa) = operand(ops[1], r5, r6, r7);
    let (b, nb, pb) = operand(ops[2], r5, r6, r7);
    let (mut c, c_negate, _) = operand(ops[3], r5, r6, r7);
    let signed_final = sa || sb || na != nb || c_negate;
    let mut tmp = part(a, pa, sa) * part(b, pb, sb);
    let mut lsb = 0;
    if po {
        lsb = 1;
    } else if na != nb {
        tmp = !tmp;
        lsb = 1;
    } else if c_negate {
        c = !c;
        lsb = 1;
    }
    let c128 = if signed_final {
        i128::from(c as i32)
    } else {
        i128::from(c)
    };
    let tmp = tmp + c128 + lsb;
    // `>>` on i128 is arithmetic; the unsigned final `tmp` is never negative here.
    let result = ((tmp >> shift) as u128 & u128::from(u64::MAX)) as u64;
    let result = if !sat {
        result
    } else if signed_final {
        i64::clamp(result as i64, i64::from(i32::MIN), i64::from(i32::MAX)) as u64
    } else {
        result.min(u64::from(u32::MAX))
    };
    result as u32
}

#[test]
fn vmad_sat_and_shifts_agree_with_the_spec() {
    let mut body = String::new();
    for (i, row) in ROWS.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r9;\n", 4 * i);
    }
    let text = row_kernel(
        "vmad_sat_shr",
        "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * ROWS.len(),
        &format!("\tshl.b32 %r7, %r6, 7;\n\txor.b32 %r7, %r7, %r5;\n{body}"),
    );
    let edges = int_edges(40, 0x5a7_5e12);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("vmad_sat_shr", &text, ROWS.len(), &a, &b);
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        let c = (y << 7) ^ x;
        for (r, row) in ROWS.iter().enumerate() {
            assert_eq!(
                got[ROWS.len() * i + r],
                expect(row, x, y, c),
                "{row}: a = {x:#x}, b = {y:#x}"
            );
        }
    }
}

/// tests/kernels/vmad_negations.ptx (its 14 `vmad` rows: every accepted negation and `.po` of
/// `vmad.u32.u32.u32` and of `vmad.s32.u32.s32.sat.shr7`) in one CTA of 1024 threads, `a` and
/// `b` all pairs of 32 edge values and `c` running through them: both executors bit for bit,
/// and each row against the pseudo-code read from the row's own text.
#[test]
fn vmad_negations_kernel_agrees_with_the_spec() {
    let path = "tests/kernels/vmad_negations.ptx";
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    // The file's `a, b, c` are %r2, %r3, %r4; `expect` names them %r5, %r6, %r7.
    let rows: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("vmad"))
        .map(|l| {
            l.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace("%r2", "%r5")
                .replace("%r3", "%r6")
                .replace("%r4", "%r7")
        })
        .collect();
    assert_eq!(rows.len(), 14, "{path}: its vmad rows");
    let edges = int_edges(32, 0x0e9a_7105);
    let (a, b) = all_pairs(&edges);
    // Thread i = 32·ia + ib: `c` is edge 7·ia + 11·ib + 3 (mod 32), every edge against
    // every `a` and every `b`.
    let c: Vec<u32> = (0..a.len())
        .map(|i| edges[(7 * (i / 32) + 11 * (i % 32) + 3) % 32])
        .collect();
    let input: Vec<u32> = (0..a.len()).flat_map(|i| [a[i], b[i], c[i]]).collect();
    let launch = spec(
        "vmad_negations",
        1,
        a.len() as u32,
        vec![u32s(&input), zeros32(14 * a.len())],
    );
    let got = words(&run_both(path, &text, &launch)[1]);
    for t in 0..a.len() {
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(
                got[14 * t + r],
                expect(row, a[t], b[t], c[t]),
                "{row}: a = {:#x}, b = {:#x}, c = {:#x}",
                a[t],
                b[t],
                c[t]
            );
        }
    }
}

/// Every form: `.atype`/`.btype` in {u32, s32}², no negation, `-a`, `-b`, `-c` or `.po`, no
/// scale, `.shr7` or `.shr15`, with and without `.sat` (120 rows, the low-word ones among
/// them), the selectors of `a` and `b` running through none, `.b0`–`.b3`, `.h0`, `.h1`; over
/// all pairs of 40 edges on both executors and against the pseudo-code.
#[test]
fn every_vmad_form_agrees_with_the_spec() {
    let sels = ["", ".b0", ".b1", ".b2", ".b3", ".h0", ".h1"];
    let mut rows = Vec::new();
    for ty in ["u32.u32", "u32.s32", "s32.u32", "s32.s32"] {
        for neg in 0..5 {
            for scale in ["", ".shr7", ".shr15"] {
                for sat in ["", ".sat"] {
                    let k = rows.len();
                    let (sa, sb) = (sels[k % 7], sels[(3 * k + 1) % 7]);
                    let m = |i: usize| if neg == i { "-" } else { "" };
                    let po = if neg == 4 { ".po" } else { "" };
                    rows.push(format!(
                        "vmad.s32.{ty}{po}{sat}{scale} %r9, {}%r5{sa}, {}%r6{sb}, {}%r7;",
                        m(1),
                        m(2),
                        m(3)
                    ));
                }
            }
        }
    }
    let mut body = String::new();
    for (i, row) in rows.iter().enumerate() {
        body += &format!("\t{row}\n\tst.global.u32 [%rd7+{}], %r9;\n", 4 * i);
    }
    let text = row_kernel(
        "vmad_forms",
        "\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<8>;\n",
        &[("u32", "%r5", 4), ("u32", "%r6", 4)],
        4 * rows.len(),
        &format!("\tshl.b32 %r7, %r6, 7;\n\txor.b32 %r7, %r7, %r5;\n{body}"),
    );
    let edges = int_edges(40, 0x7e57_f0e5);
    let (a, b) = all_pairs(&edges);
    let got = run_row_pairs("vmad_forms", &text, rows.len(), &a, &b);
    for i in 0..a.len() {
        let (x, y) = (a[i], b[i]);
        let c = (y << 7) ^ x;
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(
                got[rows.len() * i + r],
                expect(row, x, y, c),
                "{row}: a = {x:#x}, b = {y:#x}"
            );
        }
    }
}
