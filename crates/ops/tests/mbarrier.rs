//! `ops::mbarrier` against the phase rules of PTX ISA 8.x §9.7.13.15: a phase completes when
//! its pending arrivals and its tx-count are both zero; the parity then flips and the pending
//! count restarts at the expected count.

use ops::mbarrier::{self as mb, Arrive, Fields};

const ONE: Arrive = Arrive {
    drop: false,
    no_complete: false,
    expect_tx: None,
};

#[test]
fn init_sets_phase_zero_and_both_counts() {
    let f = Fields::of(mb::init(5));
    assert_eq!(
        f,
        Fields {
            pending: 5,
            expected: 5,
            tx: 0,
            phase: false
        }
    );
}

#[test]
fn the_last_arrival_completes_the_phase_and_waits_see_it() {
    let mut obj = mb::init(3);
    let mut states = Vec::new();
    for k in 0..3 {
        let (new, state) = mb::arrive(obj, 1, ONE);
        // Before the third arrival no wait on this phase succeeds.
        assert_eq!(mb::test_wait(new, state), k == 2, "arrival {k}");
        states.push(state);
        obj = new;
    }
    // Every state of the phase now tests complete; the pending counts they recorded are what
    // each arrival left: 2, 1, 0.
    assert!(states.iter().all(|s| mb::test_wait(obj, *s)));
    let pend: Vec<u32> = states.iter().map(|s| mb::pending_count(*s)).collect();
    assert_eq!(pend, [2, 1, 0]);
    let f = Fields::of(obj);
    assert!(f.phase);
    assert_eq!((f.pending, f.expected), (3, 3));
    // Parity waits: phase 0 (even) has completed, phase 1 (the current one) has not.
    assert!(mb::test_wait_parity(obj, 0));
    assert!(!mb::test_wait_parity(obj, 1));
}

#[test]
fn an_arrive_with_a_count_counts_that_many_arrivals() {
    let (obj, _) = mb::arrive(mb::init(4), 3, ONE);
    assert_eq!(Fields::of(obj).pending, 1);
    let (obj, _) = mb::arrive(obj, 1, ONE);
    assert!(Fields::of(obj).phase);
}

#[test]
fn transactions_hold_the_phase_until_their_bytes_complete() {
    // One arrival expected, with 48 bytes owed (arrive.expect_tx).
    let how = Arrive {
        expect_tx: Some(48),
        ..ONE
    };
    let (obj, state) = mb::arrive(mb::init(1), 1, how);
    let f = Fields::of(obj);
    assert_eq!((f.pending, f.tx, f.phase), (0, 48, false));
    let obj = mb::complete_tx(obj, 32);
    assert!(!mb::test_wait(obj, state));
    let obj = mb::complete_tx(obj, 16);
    assert!(mb::test_wait(obj, state));
    assert_eq!(Fields::of(obj).tx, 0);
}

#[test]
fn bytes_may_complete_before_they_are_expected() {
    // The tx-count goes negative (its range is -(2^20-1) .. 2^20-1) and the expect brings it
    // back to zero.
    let obj = mb::complete_tx(mb::init(1), 64);
    assert_eq!(Fields::of(obj).tx, -64);
    let obj = mb::expect_tx(obj, 64);
    let (obj, _) = mb::arrive(obj, 1, ONE);
    assert!(Fields::of(obj).phase);
}

#[test]
fn arrive_drop_lowers_the_expected_count_of_later_phases() {
    let drop = Arrive { drop: true, ..ONE };
    let (obj, _) = mb::arrive(mb::init(2), 1, drop);
    let (obj, _) = mb::arrive(obj, 1, ONE);
    let f = Fields::of(obj);
    assert!(f.phase);
    assert_eq!((f.pending, f.expected), (1, 1));
}

#[test]
fn no_complete_leaves_the_phase_open() {
    let how = Arrive {
        no_complete: true,
        ..ONE
    };
    let (obj, _) = mb::arrive(mb::init(2), 1, how);
    assert_eq!(Fields::of(obj).pending, 1);
    assert!(!Fields::of(obj).phase);
}

#[test]
fn fields_round_trip_and_every_pattern_decodes() {
    let f = Fields {
        pending: (1 << 20) - 1,
        expected: 7,
        tx: -((1 << 20) - 1),
        phase: true,
    };
    assert_eq!(Fields::of(f.encode()), f);
    for bits in [0u64, u64::MAX, 0x8000_0000_0000_0000, 0x0123_4567_89ab_cdef] {
        let g = Fields::of(bits);
        assert_eq!(Fields::of(g.encode()), g);
        let _ = mb::arrive(bits, u32::MAX, ONE);
        let _ = mb::complete_tx(bits, u32::MAX);
        let _ = mb::expect_tx(bits, u32::MAX);
    }
}

#[test]
fn inval_clears_the_object() {
    assert_eq!(mb::inval(mb::init(9)), 0);
}
