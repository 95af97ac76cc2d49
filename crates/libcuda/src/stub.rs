//! What an exported but unimplemented function does.

use crate::consts::CUDA_ERROR_NOT_SUPPORTED;
use crate::CUresult;
use std::collections::HashSet;
use std::sync::Mutex;

static LOGGED: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);

/// Return `CUDA_ERROR_NOT_SUPPORTED`, naming the function on stderr the first time it is
/// called when `PTXVM_CUDA_LOG` is set (so a user sees which call a program needed).
pub fn not_supported(name: &'static str) -> CUresult {
    if std::env::var_os("PTXVM_CUDA_LOG").is_some() {
        let mut g = LOGGED.lock().unwrap_or_else(|e| e.into_inner());
        if g.get_or_insert_with(HashSet::new).insert(name) {
            eprintln!("ptxvm libcuda: {name} is not implemented (CUDA_ERROR_NOT_SUPPORTED)");
        }
    }
    CUDA_ERROR_NOT_SUPPORTED
}
