//! Fermi's condition-code register: four flags per lane that `.CC` writers set and that a
//! branch-like instruction's condition (`BRA CC.LT`, `EXIT CC.NE`, …) tests.
//!
//! Source: envytools (`docs/hw/graph/fermi/cuda/isa.rst`: "$c … Has zero, sign, carry,
//! overflow bits … works like one of the Tesla $c0-$c3 registers"; the condition formulas are
//! the Tesla table of `docs/hw/graph/tesla/cuda/isa.rst`, "Predicates"; the Fermi encoding
//! order of the conditions is `envydis/gf100.c`'s `tabcc`). docs/spec-notes.md, "Fermi
//! condition codes", records what rests on what.

/// One lane's flags after a `.CC` writer: the 32-bit result is zero (`Z`), has bit 31 set
/// (`S`), the addition carried out of bit 31 (`C`; after `a + -b` it means "no borrow",
/// `a >= b` unsigned), or the exact signed sum does not fit in 32 bits (`O`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub z: bool,
    pub s: bool,
    pub c: bool,
    pub o: bool,
}

impl Flags {
    /// The flags of an integer result `d` with its carry and signed overflow.
    pub fn of(d: u32, c: bool, o: bool) -> Flags {
        Flags {
            z: d == 0,
            s: d >> 31 == 1,
            c,
            o,
        }
    }
}

/// Whether condition `code` (the 5-bit field at bit 5: `CC.F` = 0 … `CC.T` = 15, then
/// `CC.OFF` … `CC.OFT`) holds for `f`; `None` for the codes 24–31, which no source names.
pub fn holds(code: u8, f: Flags) -> Option<bool> {
    let Flags { z, s, c, o } = f;
    // envytools' Tesla formulas, in Fermi's order (`never l e le g lg ge lge u lu eu leu gu
    // lgu geu` + always, then `no nc ns na a s c o`).
    Some(match code {
        0 => false,           // F      never
        1 => (s && !z) != o,  // LT     l
        2 => z && !s,         // EQ     e
        3 => s != (z || o),   // LE     le
        4 => !z && (s == o),  // GT     g
        5 => !z,              // NE     lg
        6 => s == o,          // GE     ge
        7 => !z || !s,        // NUM    lge (ordered)
        8 => z && s,          // NAN    u (unordered)
        9 => s != o,          // LTU    lu
        10 => z,              // EQU    eu
        11 => z || (s != o),  // LEU    leu
        12 => s == (z || o),  // GTU    gu: ~S ^ (Z | O)
        13 => !z || s,        // NEU    lgu
        14 => (!s || z) != o, // GEU    geu
        15 => true,           // T      always
        16 => !o,             // OFF    no (no overflow)
        17 => !c,             // LO     nc (unsigned below)
        18 => !s,             // SFF    ns (not sign)
        19 => z || !c,        // LS     na (unsigned not above)
        20 => !z && c,        // HI     a (unsigned above)
        21 => s,              // SFT    s (sign)
        22 => c,              // HS     c (unsigned not below)
        23 => o,              // OFT    o (overflow)
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// After `a + -b` (`a + !b + 1`), the integer conditions are the comparisons of `a` and
    /// `b`: computed here with Rust's own comparisons, not the formulas.
    #[test]
    fn conditions_after_a_subtraction_are_the_comparisons() {
        let vals = [
            0u32,
            1,
            2,
            0x7fff_ffff,
            0x8000_0000,
            0x8000_0001,
            0xffff_fffe,
            u32::MAX,
        ];
        for &a in &vals {
            for &b in &vals {
                let (d, c) = a.overflowing_add((!b).wrapping_add(1));
                // The carry of a + !b + 1 (one adder pass with carry-in).
                let c = c || b == 0;
                let exact = i64::from(a as i32) - i64::from(b as i32);
                let f = Flags::of(d, c, exact != i64::from(exact as i32));
                let (sa, sb) = (a as i32, b as i32);
                let want = [
                    (1, sa < sb),
                    (2, a == b),
                    (3, sa <= sb),
                    (4, sa > sb),
                    (5, a != b),
                    (6, sa >= sb),
                    (17, a < b),
                    (19, a <= b),
                    (20, a > b),
                    (22, a >= b),
                ];
                for (code, w) in want {
                    assert_eq!(holds(code, f), Some(w), "code {code}, {a:#x} - {b:#x}");
                }
            }
        }
        assert_eq!(holds(24, Flags::default()), None);
    }
}
