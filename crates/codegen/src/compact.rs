//! Registers R2 and R3 back for values. The allocator leaves R0 and R2:R3 to the selector's
//! scratch sequences (`regs.rs`), so every kernel started three registers behind NVIDIA's.
//! When an entry's code turns out not to use R2/R3 at all, its values move down by two:
//! R4 → R2, R5 → R3, … The greedy colouring is the same one shifted (pairs stay even-aligned,
//! equal registers stay equal), so the text with every value register renamed is exactly what
//! selection would emit for an allocation starting at R2.

use crate::select::Line;

/// The general registers `text` names (`R7`, `[R4+0x8]`, `-R5`; not `RZ`, `SR_Tid_X`).
fn registers(text: &str) -> impl Iterator<Item = (usize, usize, u8)> + '_ {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    (0..b.len()).filter_map(move |i| {
        if b[i] != b'R' || (i > 0 && word(b[i - 1])) {
            return None;
        }
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        let end = i + 1 + digits;
        if digits == 0 || digits > 2 || b.get(end).is_some_and(|&c| word(c)) {
            return None;
        }
        let n = text[i + 1..end].parse().ok()?;
        Some((i, end, n))
    })
}

/// Moves every value register of `lines` down by two when no line names R2 or R3 and every
/// register from R4 up is one the allocator assigned (`allocated`; a sequence's fixed
/// temporary would not be). Returns whether it did.
pub fn shift_down(lines: &mut [Line], allocated: &[bool; 64]) -> bool {
    let fits = lines.iter().all(|l| match l {
        Line::Inst(t) => registers(t).all(|(_, _, n)| {
            n < 2 || (n >= 4 && allocated.get(usize::from(n)).copied().unwrap_or(false))
        }),
        Line::Label(_) => true,
    });
    if !fits {
        return false;
    }
    for l in lines.iter_mut() {
        let Line::Inst(t) = l else { continue };
        let spans: Vec<(usize, usize, u8)> = registers(t).filter(|r| r.2 >= 4).collect();
        if spans.is_empty() {
            continue;
        }
        let mut out = String::with_capacity(t.len());
        let mut at = 0;
        for (start, end, n) in spans {
            out.push_str(&t[at..start]);
            out.push('R');
            out.push_str(&(n - 2).to_string());
            at = end;
        }
        out.push_str(&t[at..]);
        *t = out;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(v: &[&str]) -> Vec<Line> {
        v.iter().map(|s| Line::Inst(s.to_string())).collect()
    }

    #[test]
    fn value_registers_move_down_by_two() {
        let mut allocated = [false; 64];
        for n in [4, 5, 6, 10] {
            allocated[n] = true;
        }
        let mut l = lines(&[
            "S2R R4, SR_Tid_X;",
            "IADD R6.CC, R4, c [0x0] [0x20];",
            "@!P0 ST.E [R4+0x4], -R10;",
            "MOV R1, c [0x1] [0x100];",
            "SEL R5, R0, RZ, P1;",
        ]);
        assert!(shift_down(&mut l, &allocated));
        let want = lines(&[
            "S2R R2, SR_Tid_X;",
            "IADD R4.CC, R2, c [0x0] [0x20];",
            "@!P0 ST.E [R2+0x4], -R8;",
            "MOV R1, c [0x1] [0x100];",
            "SEL R3, R0, RZ, P1;",
        ]);
        assert_eq!(l, want);
    }

    #[test]
    fn scratch_or_fixed_registers_keep_the_code() {
        let mut allocated = [false; 64];
        allocated[4] = true;
        for text in ["MOV32I R2, 0x1;", "IADD R4, R3, R4;", "DADD R4, R12, R4;"] {
            let mut l = lines(&[text]);
            assert!(!shift_down(&mut l, &allocated), "{text}");
            assert_eq!(l, lines(&[text]));
        }
    }
}
