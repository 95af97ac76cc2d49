//! Arbitrary words never panic; every word that decodes prints to text that assembles back to
//! the same word (the decoder accepts only what the encoder produces).

use fermi::isa::{assemble_text, decode, disassemble_word, encode, parse, print};
use proptest::prelude::*;

fn no_labels(_: &str) -> Option<u64> {
    None
}

fn check_word(w: u64, addr: u64) -> Result<(), TestCaseError> {
    let text = disassemble_word(w, addr);
    match decode(w) {
        Ok(inst) => {
            prop_assert_eq!(encode(&inst), w);
            let printed = print(&inst, addr);
            prop_assert_eq!(format!("{printed};"), text.clone());
            let back = parse(&text, addr, &no_labels)
                .map_err(|e| TestCaseError::fail(format!("{text}: {}", e.message)))?;
            prop_assert_eq!(encode(&back), w, "{}", text);
        }
        Err(_) => {
            prop_assert!(text.starts_with("INVALID 0x"), "{}", text);
            prop_assert_eq!(assemble_text(&text, addr, &no_labels).ok(), Some(w));
        }
    }
    Ok(())
}

/// Every `step`-th word of the listing vectors.
fn listing_words(step: usize) -> Vec<u64> {
    let data = include_str!("data/cuobjdump_sm20.txt");
    data.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split(' ').nth(2))
        .filter_map(|h| u64::from_str_radix(h.trim_start_matches("0x"), 16).ok())
        .step_by(step)
        .collect()
}

/// Words near real ones: a known opcode with random field bits, so most decode.
fn near_listing_word() -> impl Strategy<Value = u64> {
    (
        proptest::sample::select(listing_words(37)),
        any::<u64>(),
        0u32..4,
    )
        .prop_map(|(w, noise, k)| {
            // Flip a few random bits outside the opcode bits (in the printed number they are
            // bits 32-35, the first printed half's low nibble, and bits 26-31).
            let mut flip = noise;
            for _ in 0..k {
                flip &= noise.rotate_left(17);
            }
            w ^ (flip & !0x0000_000f_fc00_0000u64)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn random_words_never_panic_and_round_trip(w in any::<u64>(), addr in (0u64..0x10000).prop_map(|a| a * 8)) {
        check_word(w, addr)?;
    }

    #[test]
    fn perturbed_listing_words_round_trip(w in near_listing_word(), addr in (0u64..0x10000).prop_map(|a| a * 8)) {
        check_word(w, addr)?;
    }

    #[test]
    fn random_text_never_panics(s in "\\PC{0,40}") {
        let _ = assemble_text(&s, 0, &no_labels);
    }

    #[test]
    fn instruction_like_text_never_panics(
        op in prop::sample::select(vec!["IADD", "ISETP.LT.U32.AND", "LD.64", "BRA", "MOV32I", "S2R", "STS", "VADD.UD.U32.U32.ACC", "@!P0 LDC", "SSY"]),
        rest in "[ RPZptc\\[\\]0-9xa-f+\\-,|!~.]{0,30}",
    ) {
        let _ = assemble_text(&format!("{op} {rest}"), 0x40, &no_labels);
    }
}

/// Every single-bit flip of a sample of listing words: each either decodes to an instruction
/// whose text assembles back to the flipped word, or is reported undecodable.
#[test]
fn single_bit_flips_of_listing_words_round_trip() {
    let words = listing_words(23);
    let (mut decoded, mut total) = (0usize, 0usize);
    for &w in &words {
        for b in 0..64 {
            let f = w ^ (1u64 << b);
            total += 1;
            if decode(f).is_ok() {
                decoded += 1;
            }
            if let Err(e) = check_word(f, 0x100) {
                panic!("{f:#018x}: {e}");
            }
        }
    }
    println!("single-bit flips: {decoded} of {total} decode");
    assert!(
        decoded * 4 > total,
        "too few flips decode: {decoded}/{total}"
    );
}
