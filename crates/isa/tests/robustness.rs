//! Whatever a user writes, matching answers without panicking, and errors point inside the
//! modifier list.

use isa::{all_forms, match_all, match_form, match_head, Opcode};

/// A small deterministic generator (64-bit LCG), so failures reproduce.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next() as usize) % xs.len()]
    }
}

#[test]
fn random_modifier_lists_never_panic() {
    let mut spellings: Vec<&'static str> = all_forms()
        .iter()
        .flat_map(|f| f.slots.iter().flat_map(|s| s.spellings()))
        .collect();
    spellings.sort_unstable();
    spellings.dedup();
    spellings.extend([
        ".",
        "",
        ".foo",
        "..",
        ".u",
        ".b3210",
        "::",
        ".shared::",
        "\u{e9}",
    ]);
    let mut opcodes: Vec<&str> = Opcode::ALL.iter().map(|o| o.name()).collect();
    opcodes.extend(["", "nope", "ADD", "add.", "."]);
    let mut rng = Lcg(0x5eed);
    for _ in 0..60_000 {
        let op = *rng.pick(&opcodes);
        let n = (rng.next() % 20) as usize;
        let mods: Vec<&str> = (0..n).map(|_| *rng.pick(&spellings)).collect();
        match match_form(op, &mods) {
            Ok(m) => {
                assert_eq!(m.spelled().len(), mods.len());
                for i in 0..m.form.operands.len() {
                    let _ = m.operand_type(i);
                }
                let _ = m.check_gate(10, isa::PtxVersion::new(1, 0));
                let _ = m.check_gate(90, isa::PtxVersion::new(8, 5));
            }
            Err(e) => {
                assert!(!e.message.is_empty());
                if let Some(i) = e.index {
                    assert!(i <= mods.len(), "{op}{mods:?}: index {i}");
                }
            }
        }
        let _ = match_all(op, &mods).count();
        let head = format!("{op}{}", mods.concat());
        let _ = match_head(&head);
    }
}

#[test]
fn odd_heads_never_panic() {
    for h in [
        "",
        ".",
        "..",
        "add..s32",
        "add.",
        ".add",
        "ld.shared::.u32",
        "a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r",
    ] {
        let _ = match_head(h);
    }
}
