//! Modifier classes of the tensor-core instructions that are checked but not executed: the
//! warpgroup MMA (PTX ISA 8.x §9.7.15: the operation word and the `.m64nNkK` shape, whose 114
//! spellings are generated from the shape table of §9.7.15.5.1 rather than listed one by one)
//! and `tcgen05` (§9.7.16: its operation words and the CTA group).

use std::sync::OnceLock;

crate::mods::spelled_enum!(
    /// The operation of a `wgmma` (PTX ISA 8.x §9.7.15) or `tcgen05` (§9.7.16) instruction:
    /// one class for both, as they never meet in one instruction (`.commit_group` and
    /// `.wait_group` are flags shared with `cp.async`).
    TensorOp {
        Fence = ".fence",
        MmaAsync = ".mma_async",
        Alloc = ".alloc",
        Dealloc = ".dealloc",
        RelinquishAllocPermit = ".relinquish_alloc_permit",
        FenceBefore = ".fence::before_thread_sync",
        FenceAfter = ".fence::after_thread_sync",
        WaitLd = ".wait::ld",
        WaitSt = ".wait::st",
        Commit = ".commit",
        // `tcgen05.mma`'s `.mma` is [`crate::WmmaOp::Mma`]: a spelling has one inferred
        // class, and `wmma.mma` needs that one.
        Ld = ".ld",
        St = ".st",
        Cp = ".cp",
        Shift = ".shift",
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
    /// `tcgen05.commit`'s signal to the mbarriers of several CTAs of the cluster, and the
    /// warp groups a `tcgen05.cp` copies to.
    Multicast {
        Cluster = ".multicast::cluster",
        Warpx2_02_13 = ".warpx2::02_13",
        Warpx2_01_23 = ".warpx2::01_23",
        Warpx4 = ".warpx4",
    }
);

/// A `wgmma.mma_async` shape `.m64nNkK` (M is always 64): an index into the shape table, so
/// that it costs one byte in every decoded instruction's [`crate::Mods`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct WgmmaShape(u8);

/// `K` 8 (`.tf32`), 16 (`.f16`/`.bf16`) and 32 (fp8 and 8-bit integers) with `N` from 8 to 256
/// in steps of 8 (the integer types use a subset, which their rows spell), and `K` 256 (`.b1`)
/// with the integer `N` set: 8, 16, 24, 32, then 48 to 256 in steps of 16. `(N, K)` pairs.
const fn shape_table() -> [(u16, u16); 114] {
    let mut out = [(0u16, 0u16); 114];
    let ks = [8u16, 16, 32];
    let mut i = 0;
    let mut kk = 0;
    while kk < 3 {
        let mut n = 8;
        while n <= 256 {
            out[i] = (n, ks[kk]);
            i += 1;
            n += 8;
        }
        kk += 1;
    }
    let mut n = 8;
    while n <= 256 {
        if n <= 32 || n % 16 == 0 {
            out[i] = (n, 256);
            i += 1;
        }
        n += 8;
    }
    out
}

const SHAPE_TABLE: [(u16, u16); 114] = shape_table();

const fn all_shapes() -> [WgmmaShape; 114] {
    let mut out = [WgmmaShape(0); 114];
    let mut i = 0;
    while i < 114 {
        out[i] = WgmmaShape(i as u8);
        i += 1;
    }
    out
}

const ALL_SHAPES: [WgmmaShape; 114] = all_shapes();

impl WgmmaShape {
    pub const ALL: &'static [WgmmaShape] = &ALL_SHAPES;

    /// `N` of `.m64nNkK`.
    pub fn n(self) -> u16 {
        SHAPE_TABLE.get(usize::from(self.0)).map_or(0, |s| s.0)
    }

    /// `K` of `.m64nNkK`.
    pub fn k(self) -> u16 {
        SHAPE_TABLE.get(usize::from(self.0)).map_or(0, |s| s.1)
    }

    /// The spelling with its leading dot (`.m64n128k16`).
    pub fn spelling(self) -> &'static str {
        static SPELLED: OnceLock<Vec<&'static str>> = OnceLock::new();
        let all = SPELLED.get_or_init(|| {
            SHAPE_TABLE
                .iter()
                .map(|(n, k)| &*Box::leak(format!(".m64n{n}k{k}").into_boxed_str()))
                .collect()
        });
        all.get(usize::from(self.0)).copied().unwrap_or("")
    }

    pub fn from_spelling(s: &str) -> Option<WgmmaShape> {
        let (n, k) = s.strip_prefix(".m64n")?.split_once('k')?;
        let nk: (u16, u16) = (n.parse().ok()?, k.parse().ok()?);
        let i = SHAPE_TABLE.iter().position(|x| *x == nk)?;
        u8::try_from(i).ok().map(WgmmaShape)
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
        let s = WgmmaShape::from_spelling(".m64n40k16");
        assert_eq!(s.map(|s| (s.n(), s.k())), Some((40, 16)));
    }
}
