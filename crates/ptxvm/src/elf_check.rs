//! A structural check of an ELF file's header and tables, run when the cubin reader refuses a
//! file that starts with the ELF magic: it names the byte offset and the structure at fault
//! (the reader's own message says only what it could not parse).

/// The first problem found, as `offset N (0xN): <structure>: <what is wrong>`; `None` when the
/// header and every table and section lie inside the file.
pub fn first_problem(b: &[u8]) -> Option<String> {
    let len = b.len() as u64;
    let class64 = match b.get(4) {
        Some(1) => false,
        Some(2) => true,
        Some(c) => {
            return Some(at(
                4,
                format!("e_ident[EI_CLASS] is {c}, expected 1 (32-bit) or 2 (64-bit)"),
            ))
        }
        None => {
            return Some(at(
                len,
                format!("ELF identification truncated: the file has {len} bytes, e_ident needs 16"),
            ))
        }
    };
    match b.get(5) {
        Some(1) => {}
        Some(d) => {
            return Some(at(
                5,
                format!("e_ident[EI_DATA] is {d}, expected 1 (little-endian)"),
            ))
        }
        None => {
            return Some(at(
                len,
                format!("ELF identification truncated: the file has {len} bytes, e_ident needs 16"),
            ))
        }
    }
    let header = if class64 { 64 } else { 52 };
    if len < header {
        return Some(at(
            len,
            format!(
                "ELF header truncated: the file has {len} bytes, the ELF{} header needs {header}",
                if class64 { 64 } else { 32 }
            ),
        ));
    }
    // (offset, entry size, count) of the section and program header tables.
    let (sh, ph) = if class64 {
        (
            (rd(b, 0x28, 8), rd(b, 0x3a, 2), rd(b, 0x3c, 2)),
            (rd(b, 0x20, 8), rd(b, 0x36, 2), rd(b, 0x38, 2)),
        )
    } else {
        (
            (rd(b, 0x20, 4), rd(b, 0x2e, 2), rd(b, 0x30, 2)),
            (rd(b, 0x1c, 4), rd(b, 0x2a, 2), rd(b, 0x2c, 2)),
        )
    };
    for (name, field, (off, size, n)) in [
        (
            "section header table",
            if class64 { 0x28 } else { 0x20 },
            sh,
        ),
        (
            "program header table",
            if class64 { 0x20 } else { 0x1c },
            ph,
        ),
    ] {
        let end = size.checked_mul(n).and_then(|t| t.checked_add(off));
        if n > 0 && end.is_none_or(|e| e > len) {
            return Some(at(
                field,
                format!("{name} at offset {off:#x} ({n} entries of {size} bytes) extends past the end of the {len}-byte file"),
            ));
        }
    }
    let (sh_off, sh_size, sh_n) = sh;
    for i in 0..sh_n {
        let h = sh_off + i * sh_size;
        let (ty, off, size) = if class64 {
            (rd(b, h + 4, 4), rd(b, h + 0x18, 8), rd(b, h + 0x20, 8))
        } else {
            (rd(b, h + 4, 4), rd(b, h + 0x10, 4), rd(b, h + 0x14, 4))
        };
        const SHT_NOBITS: u64 = 8;
        if ty != SHT_NOBITS && off.checked_add(size).is_none_or(|e| e > len) {
            return Some(at(
                h,
                format!("section header {i}: its data [{off:#x}, +{size:#x}) extends past the end of the {len}-byte file"),
            ));
        }
    }
    None
}

fn at(offset: u64, what: String) -> String {
    format!("offset {offset} ({offset:#x}): {what}")
}

/// Little-endian unsigned field of `n` bytes at `off` (0 past the end: callers check bounds
/// of the structures first).
fn rd(b: &[u8], off: u64, n: usize) -> u64 {
    let Ok(s) = usize::try_from(off) else {
        return 0;
    };
    let mut v = [0u8; 8];
    if let (Some(dst), Some(src)) = (v.get_mut(..n), b.get(s..s.saturating_add(n))) {
        dst.copy_from_slice(src);
    }
    u64::from_le_bytes(v)
}

#[cfg(test)]
mod tests {
    use super::first_problem;

    /// A 64-bit little-endian ELF header with the given section header table.
    fn elf64(shoff: u64, shentsize: u16, shnum: u16, total: usize) -> Vec<u8> {
        let mut b = vec![0u8; total.max(64)];
        b[..4].copy_from_slice(b"\x7fELF");
        b[4] = 2;
        b[5] = 1;
        b[0x28..0x30].copy_from_slice(&shoff.to_le_bytes());
        b[0x3a..0x3c].copy_from_slice(&shentsize.to_le_bytes());
        b[0x3c..0x3e].copy_from_slice(&shnum.to_le_bytes());
        b.truncate(total);
        b
    }

    #[test]
    fn names_offset_and_structure() {
        let p = first_problem(b"\x7fELF\x02\x01").unwrap();
        assert!(p.starts_with("offset 6 (0x6): ELF header truncated"), "{p}");
        let p = first_problem(b"\x7fELF\x07\x01").unwrap();
        assert!(
            p.starts_with("offset 4 (0x4): e_ident[EI_CLASS] is 7"),
            "{p}"
        );
        // 3 section headers of 64 bytes at 0x40 need 0x100 bytes; the file has 0x80.
        let p = first_problem(&elf64(0x40, 64, 3, 0x80)).unwrap();
        assert!(p.starts_with("offset 40 (0x28): section header table at offset 0x40 (3 entries of 64 bytes) extends past the end of the 128-byte file"), "{p}");
        // One section header whose data lies past the end.
        let mut b = elf64(0x40, 64, 1, 0x80);
        b[0x44] = 1; // SHT_PROGBITS
        b[0x58..0x60].copy_from_slice(&0x70u64.to_le_bytes());
        b[0x60..0x68].copy_from_slice(&0x20u64.to_le_bytes());
        let p = first_problem(&b).unwrap();
        assert!(
            p.starts_with("offset 64 (0x40): section header 0: its data [0x70, +0x20)"),
            "{p}"
        );
        // The same section as NOBITS occupies no file bytes.
        b[0x44] = 8;
        assert_eq!(first_problem(&b), None);
    }
}
