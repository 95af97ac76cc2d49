//! Every line of NVIDIA's listings round-trips both ways: text → word equals NVIDIA's word,
//! word → text equals NVIDIA's text (whitespace collapsed).

use fermi::isa::{assemble_text_with, disassemble_word_with, Dialect};

struct Vector<'a> {
    line: usize,
    dialect: Dialect,
    addr: u64,
    word: u64,
    text: &'a str,
}

fn vectors() -> Vec<Vector<'static>> {
    let data = include_str!("data/cuobjdump_sm20.txt");
    data.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let mut it = l.splitn(4, ' ');
            let d = it.next().unwrap();
            let addr = u64::from_str_radix(it.next().unwrap(), 16).unwrap();
            let word =
                u64::from_str_radix(it.next().unwrap().trim_start_matches("0x"), 16).unwrap();
            let text = it.next().unwrap();
            Vector {
                line: i + 1,
                dialect: if d == "L" {
                    Dialect::Legacy
                } else {
                    Dialect::Current
                },
                addr,
                word,
                text,
            }
        })
        .collect()
}

fn no_labels(_: &str) -> Option<u64> {
    None
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_listing_line_round_trips_both_ways() {
    let vs = vectors();
    assert!(vs.len() > 20_000, "test data truncated: {} lines", vs.len());
    let mut enc_fail = Vec::new();
    let mut dec_fail = Vec::new();
    for v in &vs {
        match assemble_text_with(v.text, v.addr, &no_labels, v.dialect) {
            Ok(w) if w == v.word => {}
            Ok(w) => enc_fail.push(format!(
                "line {}: `{}` assembled to {w:#018x}, NVIDIA {:#018x}",
                v.line, v.text, v.word
            )),
            Err(e) => enc_fail.push(format!("line {}: `{}`: {}", v.line, v.text, e.message)),
        }
        let got = disassemble_word_with(v.word, v.addr, v.dialect);
        if squash(&got) != squash(v.text) {
            dec_fail.push(format!(
                "line {}: {:#018x} printed `{got}`, NVIDIA `{}`",
                v.line, v.word, v.text
            ));
        }
    }
    let total = vs.len();
    println!(
        "listing lines: {total}; text->word passing {}; word->text passing {}",
        total - enc_fail.len(),
        total - dec_fail.len()
    );
    for f in enc_fail.iter().take(40) {
        println!("ENC {f}");
    }
    for f in dec_fail.iter().take(40) {
        println!("DEC {f}");
    }
    assert!(
        enc_fail.is_empty() && dec_fail.is_empty(),
        "{} encode and {} decode mismatches",
        enc_fail.len(),
        dec_fail.len()
    );
}

/// asfermi-style spacing: no spaces inside `c[..][..]`, extra blanks and tabs around operands,
/// no trailing `;`. Every listing line still assembles to NVIDIA's word.
#[test]
fn listing_lines_assemble_with_other_spacing() {
    let vs = vectors();
    let mut failures = Vec::new();
    for v in &vs {
        let squeezed = v
            .text
            .replace("c [", "c[")
            .replace("] [", "][")
            .replace(", ", " ,\t ")
            .replace(';', "");
        let text = format!("\t {squeezed}  ");
        match assemble_text_with(&text, v.addr, &no_labels, v.dialect) {
            Ok(w) if w == v.word => {}
            other => failures.push(format!("line {}: `{text}`: {other:?}", v.line)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, e.g. {:?}",
        failures.len(),
        failures.first()
    );
}
