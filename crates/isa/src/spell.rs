//! Every modifier and type spelling gets a small number, so matching tests bits instead of
//! comparing strings (the checker matches every instruction of every file).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::types::Type;

/// Room for this many distinct spellings; a test checks the table fits.
pub const MAX_SPELLINGS: usize = 512;

/// A set of spelling ids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SpellSet([u64; MAX_SPELLINGS / 64]);

impl SpellSet {
    pub fn insert(&mut self, id: u16) {
        if let Some(w) = self.0.get_mut(usize::from(id) / 64) {
            *w |= 1 << (id % 64);
        }
    }
    pub fn intersects(&self, other: &SpellSet) -> bool {
        self.0.iter().zip(other.0.iter()).any(|(a, b)| a & b != 0)
    }
    pub fn contains(&self, id: u16) -> bool {
        self.0
            .get(usize::from(id) / 64)
            .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }
}

fn all_spellings() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    v.extend(Type::ALL.iter().map(|t| t.suffix()));
    crate::mods::for_each_spelling(|s| v.push(s));
    v.sort_unstable();
    v.dedup();
    v
}

/// FNV-1a: spellings are a few bytes long and not attacker-chosen keys of a long-lived map,
/// so the default SipHash costs more than it buys here.
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for b in bytes {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type Ids = HashMap<&'static str, u16, BuildHasherDefault<Fnv>>;

fn ids() -> &'static Ids {
    static IDS: OnceLock<Ids> = OnceLock::new();
    IDS.get_or_init(|| {
        all_spellings()
            .into_iter()
            .enumerate()
            .filter_map(|(i, s)| u16::try_from(i).ok().map(|i| (s, i)))
            .collect()
    })
}

/// The id of a spelling, if any modifier class or type has it.
pub fn spelling_id(s: &str) -> Option<u16> {
    ids().get(s).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_has_a_distinct_id_within_capacity() {
        let all = all_spellings();
        assert!(all.len() <= MAX_SPELLINGS, "{} spellings", all.len());
        let mut seen = SpellSet::default();
        for s in &all {
            let id = spelling_id(s).unwrap();
            assert!(!seen.contains(id), "{s}");
            seen.insert(id);
        }
        assert_eq!(spelling_id(".nope"), None);
        assert_eq!(spelling_id(".rn").map(|i| seen.contains(i)), Some(true));
    }
}
