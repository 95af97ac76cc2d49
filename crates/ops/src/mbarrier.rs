//! `mbarrier` objects (PTX ISA 8.x §9.7.13.15): a 64-bit object in shared memory holding the
//! current phase's parity, its pending arrival count, the expected arrival count that each new
//! phase starts from, and the transaction count (tx-count) of asynchronous bytes still owed.
//!
//! The manual calls the object's encoding opaque; this module fixes one (docs/spec-notes.md,
//! "mbarrier objects"), so that every bit pattern is a valid object and every operation total:
//!
//! | bits   | field                                                          |
//! |--------|----------------------------------------------------------------|
//! | 0–19   | pending arrival count (the manual's range: 0 … 2^20 − 1)        |
//! | 20–39  | expected arrival count                                         |
//! | 40–60  | tx-count, two's complement in 21 bits (−(2^20 − 1) … 2^20 − 1)  |
//! | 63     | phase parity                                                   |
//!
//! A phase completes when its pending arrival count and its tx-count are both zero (§9.7.13.15.1
//! "Phase completion"): the parity flips, the pending count restarts at the expected count and
//! the tx-count at zero. The `state` an arrive returns is the object as it was before the
//! arrive, with the pending count it left behind; `test_wait` compares its parity with the
//! object's.

const FIELD: u64 = (1 << 20) - 1;
const TX_BITS: u32 = 21;
const TX_MASK: u64 = (1 << TX_BITS) - 1;
const PENDING_SHIFT: u32 = 0;
const EXPECTED_SHIFT: u32 = 20;
const TX_SHIFT: u32 = 40;
const PHASE_BIT: u64 = 1 << 63;

/// The decoded fields of an object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    pub pending: u32,
    pub expected: u32,
    pub tx: i32,
    pub phase: bool,
}

impl Fields {
    pub fn of(obj: u64) -> Fields {
        let tx = (obj >> TX_SHIFT & TX_MASK) as u32;
        // Sign-extend the 21-bit field.
        let tx = ((tx << (32 - TX_BITS)) as i32) >> (32 - TX_BITS);
        Fields {
            pending: (obj >> PENDING_SHIFT & FIELD) as u32,
            expected: (obj >> EXPECTED_SHIFT & FIELD) as u32,
            tx,
            phase: obj & PHASE_BIT != 0,
        }
    }

    pub fn encode(self) -> u64 {
        (u64::from(self.pending) & FIELD) << PENDING_SHIFT
            | (u64::from(self.expected) & FIELD) << EXPECTED_SHIFT
            | (u64::from(self.tx as u32) & TX_MASK) << TX_SHIFT
            | if self.phase { PHASE_BIT } else { 0 }
    }

    /// Completes the phase when nothing is pending any more.
    fn settle(mut self) -> Fields {
        if self.pending == 0 && self.tx == 0 {
            self.phase = !self.phase;
            self.pending = self.expected;
        }
        self
    }
}

/// A count operand as the 20-bit field holds it: counts past the manual's range
/// (1 … 2^20 − 1) are undefined there; here they keep their low 20 bits.
fn count(n: u32) -> u32 {
    (u64::from(n) & FIELD) as u32
}

/// `mbarrier.init [a], count`: phase 0, `count` arrivals pending and expected, tx-count 0.
pub fn init(n: u32) -> u64 {
    Fields {
        pending: count(n),
        expected: count(n),
        tx: 0,
        phase: false,
    }
    .encode()
}

/// How an arrive-on operation arrives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Arrive {
    /// `arrive_drop`: the expected count of this and later phases drops by the count too.
    pub drop: bool,
    /// `.noComplete`: the arrive must not complete the phase (undefined in the manual if it
    /// would); here the phase then waits, at zero pending, for the next arrive or complete_tx.
    pub no_complete: bool,
    /// `.expect_tx`: the tx-count grows by this many bytes before the arrival.
    pub expect_tx: Option<u32>,
}

/// An arrive-on operation with `n` arrivals: the new object and the `state` returned.
/// Arrivals past the pending count leave it at zero (undefined in the manual).
pub fn arrive(obj: u64, n: u32, how: Arrive) -> (u64, u64) {
    let mut f = Fields::of(obj);
    if let Some(tx) = how.expect_tx {
        f = Fields::of(expect_tx(f.encode(), tx));
    }
    let n = count(n);
    f.pending = f.pending.saturating_sub(n);
    if how.drop {
        f.expected = f.expected.saturating_sub(n);
    }
    let state = Fields {
        phase: Fields::of(obj).phase,
        ..f
    }
    .encode();
    let f = if how.no_complete { f } else { f.settle() };
    (f.encode(), state)
}

/// The tx-count after adding `delta`, wrapping in its 21 bits (counts outside the manual's
/// range are undefined there).
fn add_tx(tx: i32, delta: i64) -> i32 {
    let v = (i64::from(tx) + delta) as u64 & TX_MASK;
    ((v << (64 - TX_BITS)) as i64 >> (64 - TX_BITS)) as i32
}

/// `mbarrier.expect_tx [a], txCount`: the tx-count grows by `n` bytes.
pub fn expect_tx(obj: u64, n: u32) -> u64 {
    let mut f = Fields::of(obj);
    f.tx = add_tx(f.tx, i64::from(n));
    f.encode()
}

/// `mbarrier.complete_tx [a], txCount` (and the completion of an async copy's bytes): the
/// tx-count shrinks by `n`, which may complete the phase.
pub fn complete_tx(obj: u64, n: u32) -> u64 {
    let mut f = Fields::of(obj);
    f.tx = add_tx(f.tx, -i64::from(n));
    f.settle().encode()
}

/// `mbarrier.test_wait`/`try_wait` with a `state` from an arrive: whether that phase has
/// completed (the object's parity moved on from the state's).
pub fn test_wait(obj: u64, state: u64) -> bool {
    (obj ^ state) & PHASE_BIT != 0
}

/// `mbarrier.test_wait.parity`/`try_wait.parity`: whether the phase of parity `parity & 1`
/// has completed, i.e. the current phase has the other parity (§9.7.13.15.16: `phaseParity`
/// names the current phase or the one immediately before it).
pub fn test_wait_parity(obj: u64, parity: u32) -> bool {
    Fields::of(obj).phase != (parity & 1 != 0)
}

/// `mbarrier.pending_count count, state`: the pending arrival count a state records.
pub fn pending_count(state: u64) -> u32 {
    Fields::of(state).pending
}

/// `mbarrier.inval [a]`: the object stops being one; its memory reads as zeros afterwards
/// (the manual leaves the contents undefined).
pub fn inval(_obj: u64) -> u64 {
    0
}
