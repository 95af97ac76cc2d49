#![no_main]
//! Any 8 bytes: decoding never panics, and a word that decodes prints to text that assembles
//! back to the same word.
use fermi::isa::{assemble_text, decode, disassemble_word, encode, listing_from_bytes};
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
    }
});
