//! Tier 2: the `cuLink*` chain (PTX inputs linked by name), context-independent libraries
//! (`cuLibrary*`), their kernels (`cuKernel*`) and `cuLaunchKernelEx`.
//!
//! A library is a module owned by no context; a kernel handle is the function handle of
//! that module, so `cuKernelGetFunction` and `cuLibraryGetModule` return the handle given.
//! Linking concatenates the PTX inputs into one module (the first input's `.version`,
//! `.target` and `.address_size` head it): an `.extern` function declared by one input and
//! defined by another becomes a prototype followed by its definition, which resolves it.

use super::launch::{launch, Launch};
use super::module::{
    function_attribute, image_text, jit_logs, load_module_in, maybe_log, set_function_attribute,
    write_log,
};
use super::{CUdevice, Handle};
use crate::consts::*;
use crate::ffi::{c_str, get, put, status};
use crate::state::{self, Link};
use crate::CUresult;
use std::ffi::{c_char, c_int, c_uint, c_void};

/// The variable a one-line module-scope declaration declares (`.extern .global .u32 x[4];`
/// -> `x`), when the line is a variable declaration.
fn declared_variable(line: &str) -> Option<&str> {
    let t = line.trim();
    if !t.ends_with(';') || t.contains(".func") || t.contains(".entry") || !t.starts_with('.') {
        return None;
    }
    let head = t.split(['=', '[', ';']).next()?;
    head.split_whitespace()
        .last()
        .filter(|w| !w.starts_with('.') && !w.is_empty())
}

/// Merge the PTX inputs of a link into one module. An `.extern` variable that another input
/// defines is dropped: the definition is the one variable both inputs name.
pub fn link_inputs(inputs: &[(String, Vec<u8>)]) -> Vec<u8> {
    let texts: Vec<String> = inputs
        .iter()
        .map(|(_, t)| String::from_utf8_lossy(t.strip_suffix(&[0]).unwrap_or(t)).into_owned())
        .collect();
    let defined: std::collections::HashSet<&str> = texts
        .iter()
        .flat_map(|t| t.lines())
        .filter(|l| !l.trim_start().starts_with(".extern"))
        .filter_map(declared_variable)
        .collect();
    let mut out = Vec::new();
    for (i, ((name, _), text)) in inputs.iter().zip(&texts).enumerate() {
        out.extend_from_slice(format!("// ---- link input {i}: {name}\n").as_bytes());
        for line in text.lines() {
            let t = line.trim_start();
            let header = [".version", ".target", ".address_size"]
                .iter()
                .any(|h| t.starts_with(h));
            if i > 0 && header {
                out.extend_from_slice(b"// (header of the first input applies) ");
            }
            if t.starts_with(".extern")
                && declared_variable(line).is_some_and(|v| defined.contains(v))
            {
                out.extend_from_slice(b"// (defined by another input) ");
            }
            out.extend_from_slice(line.as_bytes());
            out.push(b'\n');
        }
    }
    out.push(0);
    out
}

fn ptx_input(type_: c_int) -> Result<(), CUresult> {
    match u32::try_from(type_).unwrap_or(u32::MAX) {
        CU_JIT_INPUT_PTX => Ok(()),
        // A cubin, fatbin, object or library holds machine code ptxvm cannot run.
        CU_JIT_INPUT_CUBIN
        | CU_JIT_INPUT_FATBINARY
        | CU_JIT_INPUT_OBJECT
        | CU_JIT_INPUT_LIBRARY => Err(CUDA_ERROR_NOT_SUPPORTED),
        _ => Err(CUDA_ERROR_INVALID_VALUE),
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkCreate_v2(
    _numOptions: c_uint,
    _options: *mut c_int,
    _optionValues: *mut *mut c_void,
    stateOut: *mut Handle,
) -> CUresult {
    status(state::with(|d| {
        d.current_ctx()?;
        if stateOut.is_null() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let h = d.handle();
        d.links.insert(h, Link::default());
        put(stateOut, h)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkAddData_v2(
    state_: Handle,
    type_: c_int,
    data: *mut c_void,
    size: usize,
    name: *const c_char,
    _numOptions: c_uint,
    _options: *mut c_int,
    _optionValues: *mut *mut c_void,
) -> CUresult {
    status((|| {
        let bytes = crate::ffi::host_bytes(data.cast::<u8>(), size)?.to_vec();
        ptx_input(type_)?;
        let name = if name.is_null() {
            String::from("<cuLinkAddData>")
        } else {
            c_str(name)?.to_string_lossy().into_owned()
        };
        state::with(|d| {
            let l = d.links.get_mut(&state_).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            l.inputs.push((name, bytes));
            Ok(())
        })
    })())
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkAddFile_v2(
    state_: Handle,
    type_: c_int,
    path: *const c_char,
    _numOptions: c_uint,
    _options: *mut c_int,
    _optionValues: *mut *mut c_void,
) -> CUresult {
    status((|| {
        let path = c_str(path)?.to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).map_err(|_| CUDA_ERROR_FILE_NOT_FOUND)?;
        ptx_input(type_)?;
        state::with(|d| {
            let l = d.links.get_mut(&state_).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
            l.inputs.push((path, bytes));
            Ok(())
        })
    })())
}

/// The "cubin" handed out is the linked PTX text; the module loaders accept it.
#[no_mangle]
pub unsafe extern "C" fn cuLinkComplete(
    state_: Handle,
    cubinOut: *mut *mut c_void,
    sizeOut: *mut usize,
) -> CUresult {
    status(state::with(|d| {
        let l = d.links.get_mut(&state_).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        if l.inputs.is_empty() {
            return Err(CUDA_ERROR_INVALID_VALUE);
        }
        let image = l.image.insert(link_inputs(&l.inputs));
        put(cubinOut, image.as_mut_ptr().cast::<c_void>())?;
        if !sizeOut.is_null() {
            put(sizeOut, image.len())?;
        }
        Ok(())
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkDestroy(state_: Handle) -> CUresult {
    status(state::with(|d| {
        d.links
            .remove(&state_)
            .map(|_| ())
            .ok_or(CUDA_ERROR_INVALID_HANDLE)
    }))
}

fn load_library(
    library: *mut Handle,
    text: &[u8],
    name: &str,
    n: c_uint,
    opts: *mut c_int,
    vals: *mut *mut c_void,
) -> CUresult {
    let logs = match jit_logs(n, opts, vals) {
        Ok(l) => l,
        Err(e) => return e,
    };
    if library.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    // The driver must be initialised; no context is needed.
    if let Err(e) = state::with(|_| Ok(())) {
        return e;
    }
    match load_module_in(text, name, false) {
        Ok(h) => {
            write_log(logs.error, vals, "");
            status(put(library, h))
        }
        Err(f) => {
            maybe_log(&f);
            write_log(logs.error, vals, &f.log);
            f.code
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuLibraryLoadData(
    library: *mut Handle,
    code: *const c_void,
    jitOptions: *mut c_int,
    jitOptionsValues: *mut *mut c_void,
    numJitOptions: c_uint,
    _libraryOptions: *mut c_int,
    _libraryOptionValues: *mut *mut c_void,
    _numLibraryOptions: c_uint,
) -> CUresult {
    match image_text(code) {
        Ok(t) => load_library(
            library,
            t,
            "<cuLibraryLoadData>",
            numJitOptions,
            jitOptions,
            jitOptionsValues,
        ),
        Err(e) => e,
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuLibraryLoadFromFile(
    library: *mut Handle,
    fileName: *const c_char,
    jitOptions: *mut c_int,
    jitOptionsValues: *mut *mut c_void,
    numJitOptions: c_uint,
    _libraryOptions: *mut c_int,
    _libraryOptionValues: *mut *mut c_void,
    _numLibraryOptions: c_uint,
) -> CUresult {
    let path = match c_str(fileName) {
        Ok(p) => p.to_string_lossy().into_owned(),
        Err(e) => return e,
    };
    match std::fs::read(&path) {
        Ok(t) => load_library(
            library,
            &t,
            &path,
            numJitOptions,
            jitOptions,
            jitOptionsValues,
        ),
        Err(_) => CUDA_ERROR_FILE_NOT_FOUND,
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuLibraryUnload(library: Handle) -> CUresult {
    super::cuModuleUnload(library)
}

#[no_mangle]
pub unsafe extern "C" fn cuLibraryGetKernel(
    pKernel: *mut Handle,
    library: Handle,
    name: *const c_char,
) -> CUresult {
    super::cuModuleGetFunction(pKernel, library, name)
}

#[no_mangle]
pub unsafe extern "C" fn cuLibraryGetModule(pMod: *mut Handle, library: Handle) -> CUresult {
    status(state::with(|d| {
        d.modules.get(&library).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        put(pMod, library)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuLibraryGetGlobal(
    dptr: *mut u64,
    bytes: *mut usize,
    library: Handle,
    name: *const c_char,
) -> CUresult {
    super::cuModuleGetGlobal_v2(dptr, bytes, library, name)
}

#[no_mangle]
pub unsafe extern "C" fn cuLibraryGetKernelCount(count: *mut c_uint, lib: Handle) -> CUresult {
    status(state::with(|d| {
        let m = d.modules.get(&lib).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        put(count, m.image.loaded.program.kernels.len() as c_uint)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuLibraryEnumerateKernels(
    kernels: *mut Handle,
    numKernels: c_uint,
    lib: Handle,
) -> CUresult {
    let names: Vec<std::ffi::CString> = match state::with(|d| {
        let m = d.modules.get(&lib).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let p = &m.image.loaded.program;
        Ok(p.kernels
            .iter()
            .filter_map(|k| std::ffi::CString::new(p.kernel_name(k)).ok())
            .collect())
    }) {
        Ok(n) => n,
        Err(e) => return e,
    };
    for (i, n) in names.iter().take(numKernels as usize).enumerate() {
        if kernels.is_null() {
            return CUDA_ERROR_INVALID_VALUE;
        }
        // SAFETY: `i < numKernels`, the length of the caller's array.
        let r = super::cuModuleGetFunction(unsafe { kernels.add(i) }, lib, n.as_ptr());
        if r != CUDA_SUCCESS {
            return r;
        }
    }
    CUDA_SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuKernelGetFunction(pFunc: *mut Handle, kernel: Handle) -> CUresult {
    status(state::with(|d| {
        d.functions.get(&kernel).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        put(pFunc, kernel)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuKernelGetLibrary(pLib: *mut Handle, kernel: Handle) -> CUresult {
    super::cuFuncGetModule(pLib, kernel)
}

#[no_mangle]
pub unsafe extern "C" fn cuKernelGetName(name: *mut *const c_char, hfunc: Handle) -> CUresult {
    super::cuFuncGetName(name, hfunc)
}

#[no_mangle]
pub unsafe extern "C" fn cuKernelGetAttribute(
    pi: *mut c_int,
    attrib: c_int,
    kernel: Handle,
    dev: CUdevice,
) -> CUresult {
    if dev != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    status(state::with(|d| {
        let f = d.functions.get(&kernel).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let attr = u32::try_from(attrib).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        put(pi, function_attribute(d, f, attr)?)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuKernelSetAttribute(
    attrib: c_int,
    val: c_int,
    kernel: Handle,
    dev: CUdevice,
) -> CUresult {
    if dev != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    status(state::with(|d| {
        let attr = u32::try_from(attrib).map_err(|_| CUDA_ERROR_INVALID_VALUE)?;
        set_function_attribute(d, kernel, attr, val)
    }))
}

#[no_mangle]
pub unsafe extern "C" fn cuKernelSetCacheConfig(
    kernel: Handle,
    config: c_int,
    dev: CUdevice,
) -> CUresult {
    if dev != 0 {
        return CUDA_ERROR_INVALID_DEVICE;
    }
    super::cuFuncSetCacheConfig(kernel, config)
}

#[no_mangle]
pub unsafe extern "C" fn cuKernelGetParamInfo(
    kernel: Handle,
    paramIndex: usize,
    paramOffset: *mut usize,
    paramSize: *mut usize,
) -> CUresult {
    status(state::with(|d| {
        let f = d.functions.get(&kernel).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let m = d.modules.get(&f.module).ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let k = m
            .image
            .loaded
            .program
            .kernel(&f.name)
            .ok_or(CUDA_ERROR_INVALID_HANDLE)?;
        let p = k.params.get(paramIndex).ok_or(CUDA_ERROR_INVALID_VALUE)?;
        if !paramOffset.is_null() {
            put(paramOffset, p.offset as usize)?;
        }
        if !paramSize.is_null() {
            put(paramSize, p.size as usize)?;
        }
        Ok(())
    }))
}

/// `CUlaunchConfig` as cuda.h lays it out.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LaunchConfig {
    pub grid: [c_uint; 3],
    pub block: [c_uint; 3],
    pub shared_mem_bytes: c_uint,
    pub stream: Handle,
    pub attrs: *mut c_void,
    pub num_attrs: c_uint,
}

/// Launch attributes (cooperative launch, priorities, clusters, ...) are accepted: CTAs run
/// to completion one after another on the CPU either way.
#[no_mangle]
pub unsafe extern "C" fn cuLaunchKernelEx(
    config: *const LaunchConfig,
    f: Handle,
    kernelParams: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CUresult {
    let cfg = match get(config) {
        Ok(c) => c,
        Err(e) => return e,
    };
    if cfg.num_attrs > 0 && cfg.attrs.is_null() {
        return CUDA_ERROR_INVALID_VALUE;
    }
    let l = Launch {
        func: f,
        grid: cfg.grid,
        block: cfg.block,
        shared: cfg.shared_mem_bytes,
        stream: cfg.stream,
    };
    status(state::with(|d| launch(d, &l, kernelParams, extra)))
}

#[cfg(test)]
mod tests {
    use super::{declared_variable, link_inputs};

    #[test]
    fn variable_declarations_are_recognised() {
        assert_eq!(
            declared_variable(".extern .global .u32 bias;"),
            Some("bias")
        );
        assert_eq!(
            declared_variable(".visible .global .align 4 .u32 t[4] = {1, 2, 3, 4};"),
            Some("t")
        );
        assert_eq!(
            declared_variable(".extern .func (.param .u32 r) f(.param .u32 x);"),
            None
        );
        assert_eq!(declared_variable("    add.u32 %r1, %r2, %r3;"), None);
    }

    #[test]
    fn link_keeps_one_header_and_the_definition_of_a_shared_variable() {
        let a =
            b".version 7.0\n.target sm_80\n.address_size 64\n.extern .global .u32 v;\n".to_vec();
        let b = b".version 7.8\n.target sm_86\n.address_size 64\n.visible .global .u32 v = 3;\n\0"
            .to_vec();
        let out = link_inputs(&[("a".into(), a), ("b".into(), b)]);
        let text = String::from_utf8(out.strip_suffix(&[0]).expect("NUL-terminated").to_vec())
            .expect("utf-8");
        let live: Vec<&str> = text.lines().filter(|l| !l.starts_with("//")).collect();
        assert_eq!(
            live,
            [
                ".version 7.0",
                ".target sm_80",
                ".address_size 64",
                ".visible .global .u32 v = 3;"
            ]
        );
    }
}
