#![no_main]
//! Any 8 bytes: decoding never panics, and a word that decodes prints to text that assembles
//! back to the same word; `sass explain`'s field list covers every bit exactly once.
use fermi::isa::{assemble_text, decode, disassemble_word, encode, explain, listing_from_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for chunk in data.chunks_exact(8) {
        let mut b = [0u8; 8];
        b.copy_from_slice(chunk);
        let word = listing_from_bytes(b);
        let text = disassemble_word(word, 0x100);
        if let Ok(inst) = decode(word) {
            assert_eq!(encode(&inst), word);
            let back = assemble_text(&text, 0x100, &|_| None);
            assert_eq!(back, Ok(word), "{text}");
        }
        if let Ok(fields) = explain(word, 0x100) {
            let all = fields.iter().fold(0u64, |a, f| {
                assert_eq!(a & f.mask, 0, "{text}: {} overlaps", f.what);
                a | f.mask
            });
            assert_eq!(all, u64::MAX, "{text}");
        }
    }
});
