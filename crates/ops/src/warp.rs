//! Warp-level data movement: the source lane of `shfl` (PTX ISA §9.7.9.6 `shfl.sync`
//! pseudo-code) and the combining operator of `redux.sync` (§9.7.9.11).

/// `shfl`'s mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflMode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// The lane `lane` reads from and whether that lane is in range (`p`), per the pseudo-code:
/// `maxLane = (lane & segmask) | (cval & ~segmask)`, `minLane = lane & segmask`; out of range,
/// a thread reads its own `a`.
#[inline]
pub fn shfl_source(mode: ShflMode, lane: u32, b: u32, c: u32) -> (u32, bool) {
    let l = (lane & 31) as i32;
    let bval = (b & 31) as i32;
    let cval = (c & 31) as i32;
    let seg = ((c >> 8) & 31) as i32;
    let max_lane = (l & seg) | (cval & !seg);
    let min_lane = l & seg;
    let (j, ok) = match mode {
        ShflMode::Up => (l - bval, l - bval >= max_lane),
        ShflMode::Down => (l + bval, l + bval <= max_lane),
        ShflMode::Bfly => (l ^ bval, (l ^ bval) <= max_lane),
        ShflMode::Idx => {
            let j = min_lane | (bval & !seg);
            (j, j <= max_lane)
        }
    };
    (if ok { j as u32 } else { l as u32 }, ok)
}

/// The operator of a `redux.sync`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReduxOp {
    Add,
    MinU,
    MaxU,
    MinS,
    MaxS,
    And,
    Or,
    Xor,
    /// `redux.sync.{min,max}{.abs}{.NaN}.f32` (PTX ISA 8.8 §9.7.13.13): `.abs` compares and
    /// returns magnitudes; `.NaN` makes any NaN input give the canonical NaN, otherwise NaN
    /// inputs are ignored as `min`/`max` ignore them (all-NaN gives the canonical NaN).
    MinF32 {
        abs: bool,
        nan: bool,
    },
    MaxF32 {
        abs: bool,
        nan: bool,
    },
}

/// One member's input as the operator sees it: `.abs` clears the sign; a NaN is made
/// canonical (so that one member's NaN gives `0x7fffffff`, as `min`/`max` of NaNs do).
#[inline]
pub fn redux_input(op: ReduxOp, x: u32) -> u32 {
    match op {
        ReduxOp::MinF32 { abs, .. } | ReduxOp::MaxF32 { abs, .. } => {
            let x = if abs { x & 0x7fff_ffff } else { x };
            if f32::from_bits(x).is_nan() {
                crate::float::NAN_F32
            } else {
                x
            }
        }
        _ => x,
    }
}

/// The reduction over the members' values in lane order (`None` when there are none).
pub fn redux(op: ReduxOp, values: impl IntoIterator<Item = u32>) -> Option<u32> {
    values
        .into_iter()
        .map(|x| redux_input(op, x))
        .reduce(|acc, x| redux_combine(op, acc, x))
}

/// Combine two 32-bit values (the order does not matter: each operator is associative and
/// commutative, `add` modulo 2^32, `min`/`max` of floats once NaNs are canonical). The float
/// operators expect values passed through [`redux_input`].
#[inline]
pub fn redux_combine(op: ReduxOp, x: u32, y: u32) -> u32 {
    match op {
        ReduxOp::Add => x.wrapping_add(y),
        ReduxOp::MinU => x.min(y),
        ReduxOp::MaxU => x.max(y),
        ReduxOp::MinS => (x as i32).min(y as i32) as u32,
        ReduxOp::MaxS => (x as i32).max(y as i32) as u32,
        ReduxOp::And => x & y,
        ReduxOp::Or => x | y,
        ReduxOp::Xor => x ^ y,
        ReduxOp::MinF32 { nan, .. } | ReduxOp::MaxF32 { nan, .. } => {
            let max = matches!(op, ReduxOp::MaxF32 { .. });
            // Zeros of both signs: -0 orders below +0, so that the result does not depend on
            // which lane comes first (docs/spec-notes.md).
            if (x | y) & 0x7fff_ffff == 0 {
                return if max { x & y } else { x | y };
            }
            let (a, b) = (f32::from_bits(x), f32::from_bits(y));
            crate::float::min_max_f32(a, b, max, false, nan, false).to_bits()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_warp_shuffles_follow_the_spec_examples() {
        // c = 0x1f (clamp 31, no segments) for up/down/bfly/idx across the warp.
        for lane in 0..32 {
            assert_eq!(
                shfl_source(ShflMode::Up, lane, 1, 0),
                if lane >= 1 {
                    (lane - 1, true)
                } else {
                    (lane, false)
                }
            );
            assert_eq!(
                shfl_source(ShflMode::Down, lane, 1, 0x1f),
                if lane < 31 {
                    (lane + 1, true)
                } else {
                    (lane, false)
                }
            );
            assert_eq!(shfl_source(ShflMode::Bfly, lane, 1, 0x1f), (lane ^ 1, true));
            assert_eq!(shfl_source(ShflMode::Idx, lane, 5, 0x1f), (5, true));
        }
    }

    #[test]
    fn segments_of_eight_lanes() {
        // c = 0x1807: segmask 0x18 (width 8), clamp 7: idx 3 reads lane 3 of its own segment.
        for lane in 0..32u32 {
            assert_eq!(
                shfl_source(ShflMode::Idx, lane, 3, 0x1807),
                ((lane & 0x18) | 3, true)
            );
        }
    }
}
