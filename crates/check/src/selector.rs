//! Operand suffixes: vector elements (`.x`, `.r`, `.0`), indexed special-register families
//! (`%envreg12`) and video selectors (`.b0`, `.h10`, `.b7654`).

use ir::{Selector, SelectorKind};

/// `.x .y .z .w`, `.r .g .b .a`, `.0 .1 .2 .3` (ptx-isa-1.1 §6.4.3).
pub(crate) fn vector_component(s: &str) -> Option<u8> {
    Some(match s {
        "x" | "r" | "0" => 0,
        "y" | "g" | "1" => 1,
        "z" | "b" | "2" => 2,
        "w" | "a" | "3" => 3,
        _ => return None,
    })
}

/// A swizzle (ptx-isa-1.1 §6.4.3): one to four element names, all from one of the sets
/// `0123`, `xyzw`, `rgba` (duplicates and any order allowed): `wzyx` → `[3, 2, 1, 0]`.
/// Mixing sets (`xg`) is refused: the spec describes a swizzle as "a combination of the digits
/// or characters that represent the elements", each set naming the elements on its own.
pub(crate) fn parse_swizzle(s: &str) -> Option<Vec<u8>> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    let set = ["0123", "xyzw", "rgba"]
        .into_iter()
        .find(|set| s.chars().all(|c| set.contains(c)))?;
    s.chars()
        .map(|c| set.find(c).and_then(|i| u8::try_from(i).ok()))
        .collect()
}

/// `%envreg12` → 12.
pub(crate) fn trailing_index(name: &str) -> u8 {
    let digits: String = name
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().unwrap_or(0)
}

/// `.b0`, `.b7654`, `.h1`, `.h10`: kind and lanes as written (1 to 4 digits).
pub(crate) fn parse_selector(text: &str) -> Option<Selector> {
    let rest = text.strip_prefix('.')?;
    let (kind, digits) = match rest.as_bytes().first()? {
        b'b' => (SelectorKind::Byte, rest.get(1..)?),
        b'h' => (SelectorKind::Half, rest.get(1..)?),
        _ => return None,
    };
    if digits.is_empty() || digits.len() > 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut lanes = [0u8; 4];
    for (slot, b) in lanes.iter_mut().zip(digits.bytes()) {
        *slot = b - b'0';
    }
    Some(Selector {
        kind,
        lanes,
        len: digits.len() as u8,
    })
}

/// Masks list distinct lanes from high to low: `.b310`, `.h10`.
pub(crate) fn is_descending_mask(s: &Selector, max: u8) -> bool {
    let lanes = s.lanes.get(..usize::from(s.len)).unwrap_or(&[]);
    lanes.iter().all(|&l| l <= max) && lanes.windows(2).all(|w| w.first() > w.get(1))
}
