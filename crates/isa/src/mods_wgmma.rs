//! Modifier classes of the tensor-core instructions that are checked but not executed: the
//! warpgroup MMA (PTX ISA 8.x §9.7.15: the operation word and the `.m64nNkK` shape, whose 114
//! spellings are generated from the shape table of §9.7.15.5.1 rather than listed one by one)
//! and `tcgen05` (§9.7.16: its operation words and the CTA group).

use std::sync::OnceLock;

crate::mods::spelled_enum!(
    /// The operation of a `wgmma` instruction (`.commit_group`/`.wait_group` are flags shared
    /// with `cp.async`).
    WgmmaOp { Fence = ".fence", MmaAsync = ".mma_async" }
);

crate::mods::spelled_enum!(
    /// The operation of a `tcgen05` instruction (PTX ISA 8.x §9.7.16).
    Tcgen05Op {
        Alloc = ".alloc",
        Dealloc = ".dealloc",
        RelinquishAllocPermit = ".relinquish_alloc_permit",
        FenceBefore = ".fence::before_thread_sync",
        FenceAfter = ".fence::after_thread_sync",
        WaitLd = ".wait::ld",
        WaitSt = ".wait::st",
        Commit = ".commit",
    }
);

crate::mods::spelled_enum!(
    /// `tcgen05`'s `.cta_group::1`/`::2`.
    CtaGroup {
        One = ".cta_group::1",
        Two = ".cta_group::2",
    }
);

crate::mods::spelled_enum!(
    /// How `tcgen05.commit` signals its mbarrier (PTX ISA 8.x §9.7.16.7.10).
    Tcgen05Completion { ArriveOne = ".mbarrier::arrive::one" }
);

crate::mods::spelled_enum!(
    /// `tcgen05.commit`'s signal to the mbarriers of several CTAs of the cluster.
    Multicast { Cluster = ".multicast::cluster" }
);

/// A `wgmma.mma_async` shape `.m64nNkK` (M is always 64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WgmmaShape {
    pub n: u16,
    pub k: u16,
}

/// `K` 8 (`.tf32`), 16 (`.f16`/`.bf16`) and 32 (fp8 and 8-bit integers) with `N` from 8 to 256
/// in steps of 8 (the integer types use a subset, which their rows spell), and `K` 256 (`.b1`)
/// with the integer `N` set: 8, 16, 24, 32, then 48 to 256 in steps of 16.
const fn shapes() -> [WgmmaShape; 114] {
    let mut out = [WgmmaShape { n: 0, k: 0 }; 114];
    let ks = [8u16, 16, 32];
    let mut i = 0;
    let mut kk = 0;
    while kk < 3 {
        let mut n = 8;
        while n <= 256 {
            out[i] = WgmmaShape { n, k: ks[kk] };
            i += 1;
            n += 8;
        }
        kk += 1;
    }
    let mut n = 8;
    while n <= 256 {
        if n <= 32 || n % 16 == 0 {
            out[i] = WgmmaShape { n, k: 256 };
            i += 1;
        }
        n += 8;
    }
    out
}

const SHAPES: [WgmmaShape; 114] = shapes();

impl WgmmaShape {
    pub const ALL: &'static [WgmmaShape] = &SHAPES;

    /// The spelling with its leading dot (`.m64n128k16`).
    pub fn spelling(self) -> &'static str {
        static SPELLED: OnceLock<Vec<&'static str>> = OnceLock::new();
        let all = SPELLED.get_or_init(|| {
            SHAPES
                .iter()
                .map(|s| &*Box::leak(format!(".m64n{}k{}", s.n, s.k).into_boxed_str()))
                .collect()
        });
        let i = SHAPES.iter().position(|s| *s == self).unwrap_or(0);
        all.get(i).copied().unwrap_or("")
    }

    pub fn from_spelling(s: &str) -> Option<WgmmaShape> {
        let (n, k) = s.strip_prefix(".m64n")?.split_once('k')?;
        let shape = WgmmaShape {
            n: n.parse().ok()?,
            k: k.parse().ok()?,
        };
        SHAPES.contains(&shape).then_some(shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_round_trip_through_their_spellings() {
        for s in WgmmaShape::ALL {
            assert_eq!(WgmmaShape::from_spelling(s.spelling()), Some(*s));
        }
        assert_eq!(WgmmaShape::from_spelling(".m64n40k256"), None);
        assert_eq!(WgmmaShape::from_spelling(".m64n264k16"), None);
        assert!(WgmmaShape::from_spelling(".m64n40k16").is_some());
    }
}
