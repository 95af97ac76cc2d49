//! Every example instruction line of the five spec files parses as exactly one instruction
//! whose opcode and operand count match the text (`tests/data/spec_example_lines.txt`, copied
//! from the spec's Examples blocks), and survives `fmt`.

mod common;
use common::*;
use syntax::ast::*;

#[test]
fn every_spec_example_line_parses() {
    let lines = include_str!("data/spec_example_lines.txt");
    let mut count = 0;
    for line in lines
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let (i, f) = inst(line);
        // Independent expectations from the text itself: the opcode is the first word after
        // an optional guard, and operands are the top-level comma-separated pieces.
        let code = line.trim_end_matches(';');
        let code = if code.starts_with('@') {
            code.split_once(char::is_whitespace).unwrap().1.trim_start()
        } else {
            code
        };
        let (head, rest) = code.split_once(char::is_whitespace).unwrap_or((code, ""));
        let opcode = head.split('.').next().unwrap();
        assert_eq!(i.opcode.text(&f.text), opcode, "{line}");
        let mods: String = i.modifiers(&f.text).map(|m| m.1).collect();
        assert_eq!(format!("{opcode}{mods}"), head, "{line}");
        let mut depth = 0i32;
        let mut pieces = if rest.trim().is_empty() { 0 } else { 1 };
        for c in rest.chars() {
            match c {
                '(' | '{' | '[' => depth += 1,
                ')' | '}' | ']' => depth -= 1,
                ',' if depth == 0 => pieces += 1,
                _ => {}
            }
        }
        assert_eq!(i.operands.len(), pieces, "{line}");
        assert_eq!(i.guard.is_some(), line.starts_with('@'), "{line}");
        count += 1;
    }
    assert!(count >= 190, "only {count} example lines");
}

#[test]
fn ptx11_texture_operands_without_brackets() {
    // 1.1 Table 52: `tex.3d.v4.s32.f32 {r1,r2,r3,r4},tex_a,{f1,f2,f3};`
    let (i, _) = inst("tex.3d.v4.s32.f32  {r1,r2,r3,r4},tex_a,{f1,f2,f3};");
    assert!(matches!(&i.operands[0], Operand::Vector(v) if v.elements.len() == 4));
    assert!(i.operands[1].as_name().is_some());
    assert!(matches!(&i.operands[2], Operand::Vector(v) if v.elements.len() == 3));
}
