//! `vmad` with `.sat` and/or `.shr7/.shr15`, from existing Fermi instructions (the table has
//! no `VMAD` row). PTX ISA §9.7.18.1.3 (`ops::video::vmad`) scales and clamps the 128-bit
//! `tmp = ta·tb (negated) + c128 + lsb`; `|ta|, |tb| < 2^32`, so `tmp` fits in 66 bits
//! (an unsigned product negated, or minus a sign-extended `c`, needs the 65th bit and a sign)
//! and three words hold it exactly:
//! - `IMUL[.HI]` with each source's signedness gives the 64-bit product in R8:R9; its third
//!   word R10 is its sign (`SHR` by 31) when a source is signed, else 0;
//! - `c` widened to three words (R6 or the register, then R7 = its sign when the final result
//!   is signed, else 0), added with `IADD.CC`/`IADD.X` — subtracted (`-x`: `~x` plus the
//!   carry) for a negated product (`c − p`) or a negated `c` (`p − c`), as `~t + 1 = −t`;
//!   `.po` adds 1 through the carry chain;
//! - the shift: result bits `[s+31:s]` in R11 and `[s+63:s+32]` in R12 (`SHR.U32` of the
//!   lower word, `ISCADD` of the upper word by `32 − s`; disjoint bits, so the add is an or);
//!   the third word's bits are the sign of the arithmetic shift the pseudo-code does on
//!   `tmp` when signed, zero when unsigned;
//! - `.sat` on the 64-bit `result`: signed, it is in `[S32_MIN, S32_MAX]` exactly when R12 is
//!   R11's sign, else `S32_MAX` or `S32_MIN` by R12's sign (`SHR` by 31, `LOP32I.XOR 0x7fffffff`);
//!   unsigned, it is at most `U32_MAX` exactly when R12 is 0, else `U32_MAX`.
//!
//! Temporaries: R0, R4–R12 (`needs_f64_scratch`), P6 (`needs_scratch_pred`).

use super::vmad::Sources;
use super::{hex, Selector, R};
use ir::{Flag, Inst};
use isa::VideoScale;

impl Selector<'_> {
    pub(super) fn vmad_wide(&mut self, inst: &Inst, g: &str, d: &str, src: &Sources) -> R<()> {
        let [a, b, c] = &src.regs;
        let negate_product = src.negs[0] != src.negs[1];
        let po = inst.mods.has(Flag::Po);
        let negate_c = !po && !negate_product && src.negs[2];
        let signed_product = src.signed[0] || src.signed[1];
        let signed_final = signed_product || negate_product || negate_c;
        // The table spells signed × signed as no modifier.
        let types = match src.signed {
            [true, true] => "",
            [true, false] => ".S32.U32",
            [false, true] => ".U32.S32",
            [false, false] => ".U32.U32",
        };
        let mut e = |s: String| self.emit(g, s);
        e(format!("IMUL{types} R8, {a}, {b};"));
        e(format!("IMUL{types}.HI R9, {a}, {b};"));
        let p2 = if signed_product {
            e("SHR R10, R9, 0x1f;".into());
            "R10"
        } else {
            "RZ"
        };
        let c2 = if signed_final {
            e(format!("SHR R7, {c}, 0x1f;"));
            "R7"
        } else {
            "RZ"
        };
        // tmp = x + y (or x − y) over three words, into R8:R9:R10.
        let (x, y, minus) = if negate_product {
            ([c.as_str(), c2, c2], ["R8", "R9", p2], "-")
        } else {
            (
                ["R8", "R9", p2],
                [c.as_str(), c2, c2],
                if negate_c { "-" } else { "" },
            )
        };
        e(format!("IADD R8.CC, {}, {minus}{};", x[0], y[0]));
        e(format!("IADD.X R9.CC, {}, {minus}{};", x[1], y[1]));
        e(format!("IADD.X R10, {}, {minus}{};", x[2], y[2]));
        if po {
            e("IADD R8.CC, R8, 0x1;".into());
            e("IADD.X R9.CC, R9, RZ;".into());
            e("IADD.X R10, R10, RZ;".into());
        }
        let shift = match inst.mods.video_scale {
            None => 0,
            Some(VideoScale::Shr7) => 7,
            Some(VideoScale::Shr15) => 15,
        };
        let (lo, hi) = if shift == 0 {
            ("R8", "R9")
        } else {
            let (s, up) = (hex(shift), hex(32 - shift));
            e(format!("SHR.U32 R0, R8, {s};"));
            e(format!("ISCADD R11, R9, R0, {up};"));
            e(format!("SHR.U32 R0, R9, {s};"));
            e(format!("ISCADD R12, R10, R0, {up};"));
            ("R11", "R12")
        };
        if !inst.mods.has(Flag::Sat) {
            e(format!("MOV {d}, {lo};"));
        } else if signed_final {
            e(format!("SHR R0, {lo}, 0x1f;"));
            e(format!("ISETP.NE.AND P6, pt, {hi}, R0, pt;"));
            e(format!("SHR R0, {hi}, 0x1f;"));
            e("LOP32I.XOR R0, R0, 0x7fffffff;".into());
            e(format!("SEL {d}, R0, {lo}, P6;"));
        } else {
            e(format!("ISETP.NE.U32.AND P6, pt, {hi}, RZ, pt;"));
            e(format!("SEL {d}, {lo}, -0x1, !P6;"));
        }
        Ok(())
    }
}
