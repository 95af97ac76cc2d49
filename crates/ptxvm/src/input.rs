use crate::exit::Exit;
use diag::SourceFile;
use std::path::Path;

/// Largest text input accepted: spans are 32-bit byte offsets.
const MAX_TEXT_BYTES: u64 = diag::MAX_SOURCE_BYTES as u64;

/// Reads a text file for parsing; I/O problems are usage errors (exit 2), non-UTF-8 text and
/// oversized files are invalid input (exit 1). The error is already printed.
pub fn read_source(path: &Path) -> Result<SourceFile, Exit> {
    let bytes = read_bytes(path, MAX_TEXT_BYTES)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(path.display().to_string(), text)),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            crate::error(format!(
                "{}: not UTF-8 text (invalid byte at offset {offset})",
                path.display()
            ));
            Err(Exit::Invalid)
        }
    }
}

/// Reads a whole file, refusing anything larger than `limit` bytes before reading it.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, Exit> {
    let meta = std::fs::metadata(path).map_err(|e| {
        crate::error(format!("cannot read {}: {e}", path.display()));
        Exit::Usage
    })?;
    if meta.is_dir() {
        crate::error(format!("cannot read {}: is a directory", path.display()));
        return Err(Exit::Usage);
    }
    if meta.len() > limit {
        crate::error(format!(
            "{}: file is too large ({} bytes; the limit is {limit})",
            path.display(),
            meta.len()
        ));
        return Err(Exit::Invalid);
    }
    std::fs::read(path).map_err(|e| {
        crate::error(format!("cannot read {}: {e}", path.display()));
        Exit::Usage
    })
}
