use crate::exit::Exit;
use diag::SourceFile;
use std::path::Path;

/// Largest text input accepted: spans are 32-bit byte offsets.
const MAX_TEXT_BYTES: u64 = diag::MAX_SOURCE_BYTES as u64;

/// Why an input could not be read: the exit code it maps to and the message (without the
/// `ptxvm: error:` prefix), for callers that report it as text or as JSON.
#[derive(Debug)]
pub struct InputError {
    pub exit: Exit,
    pub message: String,
}

impl InputError {
    /// Print the message as a one-line error and give the exit code.
    pub fn report(self) -> Exit {
        crate::error(&self.message);
        self.exit
    }
}

/// Reads a text file for parsing; I/O problems are usage errors (exit 2), non-UTF-8 text and
/// oversized files are invalid input (exit 1). The error is already printed.
pub fn read_source(path: &Path) -> Result<SourceFile, Exit> {
    load_source(path).map_err(InputError::report)
}

/// [`read_source`] without printing.
pub fn load_source(path: &Path) -> Result<SourceFile, InputError> {
    let bytes = load_bytes(path, MAX_TEXT_BYTES)?;
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile::new(path.display().to_string(), text)),
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            Err(InputError {
                exit: Exit::Invalid,
                message: format!(
                    "{}: not UTF-8 text (invalid byte at offset {offset})",
                    path.display()
                ),
            })
        }
    }
}

/// Reads a whole file, refusing anything larger than `limit` bytes before reading it.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, Exit> {
    load_bytes(path, limit).map_err(InputError::report)
}

/// [`read_bytes`] without printing. `-` is standard input. A pipe or device (`<(cmd)`,
/// `/dev/stdin`) is read up to `limit` bytes, so even `/dev/zero` ends with an error.
pub fn load_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    use std::io::Read;
    let io = |e: std::io::Error| InputError {
        exit: Exit::Usage,
        message: format!("cannot read {}: {e}", path.display()),
    };
    let too_large = |len: String| InputError {
        exit: Exit::Invalid,
        message: format!(
            "{}: file is too large ({len}; the limit is {limit})",
            path.display()
        ),
    };
    let bounded = |r: &mut dyn Read, hint: u64| -> Result<Vec<u8>, InputError> {
        let mut bytes = Vec::with_capacity(hint.min(limit) as usize);
        r.take(limit.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > limit {
            return Err(too_large("more bytes".into()));
        }
        Ok(bytes)
    };
    if path == Path::new("-") {
        return bounded(&mut std::io::stdin().lock(), 0);
    }
    let meta = std::fs::metadata(path).map_err(io)?;
    if meta.is_dir() {
        return Err(InputError {
            exit: Exit::Usage,
            message: format!("cannot read {}: is a directory", path.display()),
        });
    }
    if meta.is_file() && meta.len() > limit {
        return Err(too_large(format!("{} bytes", meta.len())));
    }
    // Bounded even for a regular file, which may grow between the size check and the read.
    let mut f = std::fs::File::open(path).map_err(io)?;
    bounded(&mut f, meta.len())
}
