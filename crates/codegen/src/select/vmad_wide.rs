//! `vmad` with `.sat` and/or `.shr7/.shr15`, from existing Fermi instructions (the table has
//! no `VMAD` row). PTX ISA §9.7.18.1.3 (`ops::video::vmad`) scales and clamps the 128-bit
//! `tmp = ta·tb (negated) + c128 + lsb`; `|ta|, |tb| < 2^32`, so `tmp` lies in
//! `(−2^64, 2^64)` and three words hold it exactly. `d` is bits `[s+31:s]` of `tmp` and
//! `.sat` reads the pseudo-code's 64-bit `result`, bits `[s+63:s]`: the third word is only
//! computed for `.sat` with a shift.
//! - `IMUL[.HI]` with each source's signedness gives the 64-bit product in R8:R9; its third
//!   word R10 is its sign (`SHR` by 31) when a source is signed, else 0;
//! - `c` widened (R6 or the register, then R7 = its sign when the final result is signed,
//!   else 0), added with `IADD.CC`/`IADD.X` — subtracted (`-x`: `~x` plus the carry) for a
//!   negated product (`c − p`) or a negated `c` (`p − c`), as `~t + 1 = −t`; `.po` adds 1
//!   through the carry chain;
//! - the shift: result bits `[s+31:s]` (in `d`, or R11 for `.sat`) and `[s+63:s+32]` in R12
//!   (`SHR.U32` of the lower word, `ISCADD` of the upper word by `32 − s`: disjoint bits, so
//!   the add is an or); the third word's bits are the sign of the arithmetic shift the
//!   pseudo-code does on `tmp` when signed, zero when unsigned;
//! - `.sat` on the 64-bit `result`: signed, it is in `[S32_MIN, S32_MAX]` exactly when the
//!   upper word is the lower word's sign, else `S32_MAX` or `S32_MIN` by the upper word's
//!   sign (`SHR` by 31, `LOP32I.XOR 0x7fffffff`); unsigned, it is at most `U32_MAX` exactly
//!   when the upper word is 0, else `U32_MAX`.
//!
//! Temporaries: R0, R4–R12 (`needs_f64_scratch`), P6 (`needs_scratch_pred`).

use super::vmad::Sources;
use super::{hex, Selector, R};
use ir::{Flag, Inst};
use isa::VideoScale;

impl Selector<'_> {
    pub(super) fn vmad_wide(&mut self, inst: &Inst, g: &str, d: &str, src: &Sources) -> R<()> {
        let [a, b, c] = &src.regs;
        // The pseudo-code's precedence: `.po` (whose row admits no negation), a negated
        // product, a negated `c`.
        let po = inst.mods.has(Flag::Po);
        let negate_product = !po && src.negs[0] != src.negs[1];
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
        let shift = match inst.mods.video_scale {
            None => 0,
            Some(VideoScale::Shr7) => 7,
            Some(VideoScale::Shr15) => 15,
        };
        let sat = inst.mods.has(Flag::Sat);
        // `d` is bits [s+31:s] of `tmp`, and `.sat` reads [s+63:s] too: the third word only
        // matters for `.sat` with a shift.
        let words = if sat && shift > 0 { 3 } else { 2 };
        let mut e = |s: String| self.emit(g, s);
        e(format!("IMUL{types} R8, {a}, {b};"));
        e(format!("IMUL{types}.HI R9, {a}, {b};"));
        let p2 = if signed_product && words == 3 {
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
        // tmp = x + y (or x − y) over `words` words, into R8:R9(:R10).
        let (x, y, minus) = if negate_product {
            ([c.as_str(), c2, c2], ["R8", "R9", p2], "-")
        } else {
            (
                ["R8", "R9", p2],
                [c.as_str(), c2, c2],
                if negate_c { "-" } else { "" },
            )
        };
        for k in 0..words {
            let ext = if k == 0 { "" } else { ".X" };
            let cc = if k + 1 < words { ".CC" } else { "" };
            let r = 8 + k;
            e(format!("IADD{ext} R{r}{cc}, {}, {minus}{};", x[k], y[k]));
        }
        if po {
            for k in 0..words {
                let ext = if k == 0 { "" } else { ".X" };
                let cc = if k + 1 < words { ".CC" } else { "" };
                let one = if k == 0 { "0x1" } else { "RZ" };
                let r = 8 + k;
                e(format!("IADD{ext} R{r}{cc}, R{r}, {one};"));
            }
        }
        let (s, up) = (hex(shift), hex(32 - shift));
        // Without `.sat`, bits [s+31:s] go straight into `d` (the wide path then has a shift).
        let (lo, hi) = if shift == 0 {
            ("R8", "R9")
        } else {
            let lo = if sat { "R11" } else { d };
            e(format!("SHR.U32 R0, R8, {s};"));
            e(format!("ISCADD {lo}, R9, R0, {up};"));
            if sat {
                e(format!("SHR.U32 R0, R9, {s};"));
                e(format!("ISCADD R12, R10, R0, {up};"));
            }
            (lo, "R12")
        };
        if !sat {
            if shift == 0 {
                // Not reached (`needs_whole_product`), but `d` stays right if it were.
                e(format!("MOV {d}, {lo};"));
            }
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
