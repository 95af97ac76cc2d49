//! Bit sets over register numbers as `u64` words (liveness in `ssa.rs`, pressure in
//! `pressure.rs`): one definition of the word arithmetic for both.

pub(super) fn has(set: &[u64], i: usize) -> bool {
    set[i / 64] >> (i % 64) & 1 == 1
}

/// Adds `i`, telling whether it was new.
pub(super) fn insert(set: &mut [u64], i: usize) -> bool {
    let was = has(set, i);
    set[i / 64] |= 1 << (i % 64);
    !was
}

/// Removes `i`, telling whether it was there.
pub(super) fn remove(set: &mut [u64], i: usize) -> bool {
    let was = has(set, i);
    set[i / 64] &= !(1 << (i % 64));
    was
}

/// `a |= b`, telling whether `a` changed.
pub(super) fn union(a: &mut [u64], b: &[u64]) -> bool {
    let mut changed = false;
    for (a, b) in a.iter_mut().zip(b) {
        let n = *a | *b;
        changed |= n != *a;
        *a = n;
    }
    changed
}

/// The members, in increasing order.
pub(super) fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &bits)| {
        let mut rest = bits;
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                w * 64 + b
            })
        })
    })
}
