//! Modules: `cuModuleLoad*` (PTX text, checked and lowered by ptxvm), `cuModuleGetFunction`,
//! `cuModuleGetGlobal`, `cuModuleUnload`, and function attributes.
//!
//! A module without `.global` variables is lowered once per distinct text and shared by
//! every load of it; one with variables is lowered per load, because each load owns its
//! variables (as on a GPU), but its text is checked only once.

use super::Handle;
use crate::consts::*;
use crate::ffi::{c_str, index, put, put_c_string, status};
use crate::state::{self, ConstShadow, Driver, Function, Module, ModuleImage};
use crate::CUresult;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::Arc;

/// Why a load failed, and the log for `CU_JIT_ERROR_LOG_BUFFER`.
pub struct LoadFailure {
    pub code: CUresult,
    pub log: String,
}

fn fail(code: CUresult, log: impl Into<String>) -> LoadFailure {
    LoadFailure {
        code,
        log: log.into(),
    }
}

/// Distinct module texts each cache keeps; past it the cache starts over, so a program that
/// generates modules without end does not grow without bound.
const CACHE_LIMIT: usize = 512;

/// Check and lower PTX `text` (cached by content), named `name` in diagnostics.
pub fn load_image(
    d: &mut Driver,
    text: &[u8],
    name: &str,
) -> Result<Arc<ModuleImage>, LoadFailure> {
    if let Some(img) = d.image_cache.get(text) {
        return Ok(img.clone());
    }
    if text.starts_with(b"\x7fELF") || text.starts_with(&[0x50, 0xed, 0x55, 0xba]) {
        return Err(fail(
            CUDA_ERROR_INVALID_IMAGE,
            "ptxvm runs PTX text; cubin and fatbin images are not supported",
        ));
    }
    let checked = match d.checked_cache.get(text) {
        Some(c) => c.clone(),
        None => {
            let src_text = std::str::from_utf8(text).map_err(|e| {
                fail(
                    CUDA_ERROR_INVALID_PTX,
                    format!("{name}: PTX is not UTF-8 text: {e}"),
                )
            })?;
            let file = diag::SourceFile::new(name, src_text);
            let (module, diags) = check::check_source(&file);
            let module = match module {
                Some(m) if !diag::has_errors(&diags) => m,
                _ => {
                    return Err(fail(CUDA_ERROR_INVALID_PTX, diag::render(&file, &diags)));
                }
            };
            let c = Arc::new((file, module));
            if d.checked_cache.len() >= CACHE_LIMIT {
                d.checked_cache.clear();
            }
            d.checked_cache.insert(text.to_vec(), c.clone());
            c
        }
    };
    let (file, module) = (&checked.0, &checked.1);
    let (program, globals) =
        exec::lower::lower_module_with_globals(module, file, d.dev.memory_mut())
            .map_err(|e| fail(CUDA_ERROR_INVALID_PTX, e.to_string()))?;
    let image = Arc::new(ModuleImage {
        loaded: exec::LoadedModule { program },
        ptx_version: i32::from(module.version.major) * 10 + i32::from(module.version.minor),
        globals,
    });
    // Each load owns its variables (`.global` in device memory, `.const` in its bank), so
    // only a module without any is shared.
    if image.globals.is_empty() {
        if d.image_cache.len() >= CACHE_LIMIT {
            d.image_cache.clear();
        }
        d.image_cache.insert(text.to_vec(), image.clone());
    }
    Ok(image)
}

/// Load `text` into the current context and return the module handle.
pub fn load_module(text: &[u8], name: &str) -> Result<Handle, LoadFailure> {
    load_module_in(text, name, true)
}

/// Load `text`; owned by the current context when `in_context`, else by none (a library,
/// which outlives contexts).
pub fn load_module_in(text: &[u8], name: &str, in_context: bool) -> Result<Handle, LoadFailure> {
    state::with(|d| {
        let ctx = if in_context { d.current_ctx()? } else { 0 };
        let image = match load_image(d, text, name) {
            Ok(i) => i,
            Err(f) => return Ok(Err(f)),
        };
        let mut consts = Vec::new();
        for g in image.globals.iter().filter(|g| g.constant) {
            let at = usize::try_from(g.addr).unwrap_or(usize::MAX);
            let init = image
                .loaded
                .program
                .const_bank
                .get(at..at.saturating_add(g.size as usize))
                .unwrap_or(&[]);
            let Ok(p) = d.dev.alloc(g.size.max(1)) else {
                for c in &consts {
                    let c: &ConstShadow = c;
                    d.dev.memory_mut().take(c.addr);
                }
                return Ok(Err(fail(
                    CUDA_ERROR_OUT_OF_MEMORY,
                    "no device memory for `.const` variables",
                )));
            };
            let _ = d.dev.write(p, init);
            consts.push(ConstShadow {
                name: g.name.clone(),
                offset: g.addr,
                addr: p.0,
                size: g.size,
            });
        }
        let h = d.handle();
        d.modules.insert(h, Module { ctx, image, consts });
        Ok(Ok(h))
    })
    .map_err(|code| fail(code, ""))?
}

/// The PTX text of a `cuModuleLoadData` image: a NUL-terminated string.
pub(crate) fn image_text<'a>(image: *const c_void) -> Result<&'a [u8], CUresult> {
    Ok(c_str(image.cast())?.to_bytes())
}

/// JIT options the caller passed: where to write the error and info logs.
pub(crate) struct JitLogs {
    pub error: Option<(*mut c_char, usize, usize)>,
    pub info: Option<(*mut c_char, usize, usize)>,
}

/// Read `options`/`optionValues`: log buffers and their sizes (passed by value in the
/// pointer slots, as the driver API specifies); other options do not change what ptxvm does.
pub(crate) fn jit_logs(
    n: c_uint,
    options: *const c_int,
    values: *const *mut c_void,
) -> Result<JitLogs, CUresult> {
    let mut buf = [None, None];
    let mut size = [(0usize, 0usize); 2];
    for i in 0..n as usize {
        let opt = u32::try_from(index(options, i)?).unwrap_or(u32::MAX);
        let val = index(values, i)?;
        match opt {
            CU_JIT_ERROR_LOG_BUFFER => buf[0] = Some(val.cast::<c_char>()),
            CU_JIT_INFO_LOG_BUFFER => buf[1] = Some(val.cast::<c_char>()),
            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES => size[0] = (val as usize, i),
            CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES => size[1] = (val as usize, i),
            _ => {}
        }
    }
    Ok(JitLogs {
        error: buf[0].map(|b| (b, size[0].0, size[0].1)),
        info: buf[1].map(|b| (b, size[1].0, size[1].1)),
    })
}

/// Write `text` into a log buffer and its used size back into the size option's slot.
pub(crate) fn write_log(
    log: Option<(*mut c_char, usize, usize)>,
    values: *mut *mut c_void,
    text: &str,
) {
    if let Some((b, cap, slot)) = log {
        if !b.is_null() && cap > 0 {
            let _ = put_c_string(b, cap, text);
            let used = text.len().min(cap - 1) + 1;
            // SAFETY: `slot` is an index below numOptions, read by `jit_logs` just before.
            let _ = put(unsafe { values.add(slot) }, used as *mut c_void);
        }
    }
}

pub fn maybe_log(f: &LoadFailure) {
    if std::env::var_os("PTXVM_CUDA_LOG").is_some() && !f.log.is_empty() {
        eprintln!("ptxvm libcuda: module load failed:\n{}", f.log);
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadData(module: *mut Handle, image: *const c_void) -> CUresult {
    cuModuleLoadDataEx(module, image, 0, std::ptr::null_mut(), std::ptr::null_mut())
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleLoadDataEx(
    module: *mut Handle,
    image: *const c_void,
    numOptions: c_uint,
    options: *mut c_int,
    optionValues: *mut *mut c_void,
) -> CUresult {
    let logs = match jit_logs(numOptions, options, optionValues) {
        Ok(l) => l,
        Err(e) => return e,
    };
    if module.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let text = match image_text(image) {
        Ok(t) => t,
        Err(e) => return e,
    };
    match load_module(text, "<cuModuleLoadData>") {
        Ok(h) => {
            write_log(logs.error, optionValues, "");
            write_log(logs.info, optionValues, "ptxvm: module checked and loaded");
            status(put(module, h))
        }
        Err(f) => {
            maybe_log(&f);
            write_log(logs.error, optionValues, &f.log);
            f.code
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleLoad(module: *mut Handle, fname: *const c_char) -> CUresult {
    let path = match c_str(fname) {
        Ok(p) => p.to_string_lossy().into_owned(),
        Err(e) => return e,
    };
    if module.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let Ok(text) = std::fs::read(&path) else {
        return CUDA_ERROR_FILE_NOT_FOUND;
    };
    match load_module(&text, &path) {
        Ok(h) => status(put(module, h)),
        Err(f) => {
            maybe_log(&f);
            f.code
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleUnload(hmod: Handle) -> CUresult {
    status(state::with(|d| {
        if d.unload(hmod) {
            Ok(())
        } else {
            Err(CUDA_ERROR_INVALID_HANDLE)
        }
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuModuleGetFunction(
    hfunc: *mut Handle,
    hmod: Handle,
    name: *const c_char,
) -> CUresult {
    status((|| {
        let name = c_str(name)?.to_string_lossy().into_owned();
        state::with(|d| {
            let m = d.modules.get(&hmod).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            let k = m
                .image
                .loaded
                .program
                .kernel(&name)
                .ok_or(CUDA_ERROR_NOT_FOUND)?;
            let max_dynamic_shared = DEFAULT_SHARED.saturating_sub(k.shared_bytes);
            // One handle per (module, kernel): asking twice gives the same function.
            if let Some((&h, _)) = d
                .functions
                .iter()
                .find(|(_, f)| f.module == hmod && f.name == name)
            {
                return put(hfunc, h);
            }
            let h = d.handle();
            d.functions.insert(
                h,
                Function {
                    module: hmod,
                    name,
                    max_dynamic_shared,
                },
            );
            put(hfunc, h)
        })
    })())
}

/// Shared memory a CTA may use without opting in (`cuFuncSetAttribute`), as on sm_86.
pub const DEFAULT_SHARED: u32 = 48 * 1024;
/// Most shared memory a CTA may opt in to on sm_86.
pub const MAX_SHARED_OPTIN: u32 = 99 * 1024;

#[no_mangle]
pub unsafe extern "C" fn cuModuleGetGlobal_v2(
    dptr: *mut u64,
    bytes: *mut usize,
    hmod: Handle,
    name: *const c_char,
) -> CUresult {
    status((|| {
        let name = c_str(name)?.to_string_lossy().into_owned();
        state::with(|d| {
            let m = d.modules.get(&hmod).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            let (addr, size) = match m.consts.iter().find(|c| c.name == name) {
                Some(c) => (c.addr, c.size),
                None => m
                    .image
                    .globals
                    .iter()
                    .find(|g| g.name == name && !g.constant)
                    .map(|g| (g.addr, g.size))
                    .ok_or(CUDA_ERROR_NOT_FOUND)?,
            };
            if !dptr.is_null() {
                put(dptr, addr)?;
            }
            if !bytes.is_null() {
                put(bytes, size as usize)?;
            }
            Ok(())
        })
    })())
}

/// A function attribute's value.
pub fn function_attribute(d: &Driver, f: &Function, attr: u32) -> Result<i32, CUresult> {
    let m = d.modules.get(&f.module).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    let prog = &m.image.loaded.program;
    let k = prog.kernel(&f.name).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    let sat = |x: u64| i32::try_from(x).unwrap_or(i32::MAX);
    Ok(match attr {
        CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK => match (k.reqntid, k.maxntid) {
            (Some(r), _) | (None, Some(r)) => sat(r.iter().map(|&x| u64::from(x)).product()),
            (None, None) => 1024,
        },
        CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES => sat(u64::from(k.shared_bytes)),
        CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES => sat(prog.const_bank.len() as u64),
        CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES => sat(u64::from(prog.local_bytes)),
        // The executor has no register budget; report what a compiler for sm_86 would
        // typically allocate for a small kernel, within the 255 limit.
        CU_FUNC_ATTRIBUTE_NUM_REGS => 32,
        CU_FUNC_ATTRIBUTE_PTX_VERSION => m.image.ptx_version,
        CU_FUNC_ATTRIBUTE_BINARY_VERSION => 86,
        CU_FUNC_ATTRIBUTE_CACHE_MODE_CA => 0,
        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES => sat(u64::from(f.max_dynamic_shared)),
        CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT => -1,
        a if a <= CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE => 0,
        _ => return Err(CUDA_ERROR_INVALID_VALUE),
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuFuncGetAttribute(
    pi: *mut c_int,
    attrib: c_int,
    hfunc: Handle,
) -> CUresult {
    status(state::with(|d| {
        let f = d.functions.get(&hfunc).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let attr = u32::try_from(attrib).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        put(pi, function_attribute(d, f, attr)?)
    }))
}

/// Set a function attribute: the dynamic shared memory limit is checked against sm_86's
/// opt-in maximum; the carveout preference is accepted; others are read-only.
pub fn set_function_attribute(
    d: &mut Driver,
    hfunc: Handle,
    attr: u32,
    value: c_int,
) -> Result<(), CUresult> {
    let statik = {
        let f = d.functions.get(&hfunc).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let m = d.modules.get(&f.module).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        m.image
            .loaded
            .program
            .kernel(&f.name)
            .map_or(0, |k| k.shared_bytes)
    };
    let f = d
        .functions
        .get_mut(&hfunc)
        .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
    match attr {
        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES => {
            let v = u32::try_from(value).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
            if v.saturating_add(statik) > MAX_SHARED_OPTIN {
                return Err(CUDA_ERROR_INVALID_VALUE);
            }
            f.max_dynamic_shared = v;
            Ok(())
        }
        CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT => {
            if (-1..=100).contains(&value) {
                Ok(())
            } else {
                Err(CUDA_ERROR_INVALID_VALUE)
            }
        }
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuFuncSetAttribute(
    hfunc: Handle,
    attrib: c_int,
    value: c_int,
) -> CUresult {
    status(state::with(|d| {
        let attr = u32::try_from(attrib).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        set_function_attribute(d, hfunc, attr, value)
    }))
}

/// A cache preference has no effect on the CPU; accepted for a valid function.
#[no_mangle]
pub unsafe extern "C" fn cuFuncSetCacheConfig(hfunc: Handle, _config: c_int) -> CUresult {
    status(state::with(|d| {
        d.functions
            .get(&hfunc)
            .map(|_| ())
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuFuncGetModule(hmod: *mut Handle, hfunc: Handle) -> CUresult {
    status(state::with(|d| {
        let f = d.functions.get(&hfunc).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        put(hmod, f.module)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuFuncGetName(name: *mut *const c_char, hfunc: Handle) -> CUresult {
    // The name must outlive the call: keep one NUL-terminated copy per function.
    static NAMES: std::sync::Mutex<Vec<(Handle, std::ffi::CString)>> =
        std::sync::Mutex::new(Vec::new());
    status(state::with(|d| {
        let f = d.functions.get(&hfunc).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let mut g = NAMES.lock().unwrap_or_else(|e| e.into_inner());
        if !g.iter().any(|(h, _)| *h == hfunc) {
            let c = std::ffi::CString::new(f.name.clone()).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
            g.push((hfunc, c));
        }
        let p = g
            .iter()
            .find(|(h, _)| *h == hfunc)
            .map_or(std::ptr::null(), |(_, c)| c.as_ptr());
        put(name, p)
    }))
}
