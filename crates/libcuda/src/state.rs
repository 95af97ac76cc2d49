//! The driver's state: one simulated device, its memory, and the objects handed out as
//! handles (contexts, modules, functions, streams, events), all behind one lock.
//!
//! Handles are opaque numbers, never pointers into this crate: a stale or forged handle is
//! looked up and refused (`CUDA_ERROR_INVALID_HANDLE`), never dereferenced. They start above
//! 0x1000 so the special stream handles 0x1 (legacy) and 0x2 (per-thread) never collide.

use crate::consts::*;
use crate::CUresult;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// A module as checked and lowered once, shared by every load of the same text.
pub struct ModuleImage {
    pub loaded: exec::LoadedModule,
    /// Each module-scope `.global` variable with its address.
    pub globals: Vec<exec::lower::GlobalVar>,
    /// `.version` as major * 10 + minor (`CU_FUNC_ATTRIBUTE_PTX_VERSION`).
    pub ptx_version: i32,
}

pub struct Context {
    pub device: i32,
    pub flags: u32,
    pub primary: bool,
}

pub struct Module {
    pub ctx: u64,
    pub image: Arc<ModuleImage>,
    /// The module's `.const` variables, each with a device copy the program may write
    /// (`cuModuleGetGlobal` + a copy); copied into the constant bank before each launch.
    pub consts: Vec<ConstShadow>,
}

/// A `.const` variable's device copy.
pub struct ConstShadow {
    pub name: String,
    /// Offset in the program's constant bank.
    pub offset: u64,
    /// Device address of the copy.
    pub addr: u64,
    pub size: u64,
}

pub struct Function {
    pub module: u64,
    pub name: String,
    /// `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` as set by the program.
    pub max_dynamic_shared: u32,
}

pub struct Stream {
    pub ctx: u64,
    pub flags: u32,
    pub priority: i32,
}

pub struct Event {
    pub flags: u32,
    /// When it was last recorded (work is synchronous, so recording completes it).
    pub recorded: Option<Instant>,
}

/// A `cuLinkCreate` session: the PTX inputs so far and, once complete, the linked image.
#[derive(Default)]
pub struct Link {
    pub inputs: Vec<(String, Vec<u8>)>,
    /// The linked PTX, NUL-terminated; `cuLinkComplete` hands out a pointer into it, valid
    /// until `cuLinkDestroy`.
    pub image: Option<Vec<u8>>,
}

/// A host allocation made by `cuMemAllocHost`/`cuMemHostAlloc`.
pub struct HostAlloc {
    pub len: usize,
    pub flags: u32,
    pub ptr: *mut u8,
}

// SAFETY: the pointer is only an address this crate allocated and frees under the driver
// lock; nothing reads through it here.
unsafe impl Send for HostAlloc {}

pub struct Driver {
    pub dev: exec::Device,
    next_handle: u64,
    pub contexts: HashMap<u64, Context>,
    /// The primary context's handle and retain count.
    pub primary: Option<(u64, u32)>,
    pub primary_flags: u32,
    pub modules: HashMap<u64, Module>,
    pub functions: HashMap<u64, Function>,
    pub streams: HashMap<u64, Stream>,
    pub events: HashMap<u64, Event>,
    /// Device allocations made by the program: base -> (length, owning context).
    pub device_allocs: BTreeMap<u64, (u64, u64)>,
    pub host_allocs: BTreeMap<usize, HostAlloc>,
    pub links: HashMap<u64, Link>,
    /// Host memory the device sees (managed and host-registered allocations), kept equal to
    /// its device copy around every operation that touches device memory.
    pub mirrors: Vec<crate::api::mirror::Mirror>,
    /// Pages of the device window mapped for the host (managed allocations).
    pub host_pages: std::collections::BTreeSet<u64>,
    /// Lowered modules by PTX text (the key is the whole text, so equal keys are equal
    /// modules). A module with `.global` variables is lowered again per load: each load
    /// owns its variables.
    pub image_cache: HashMap<Vec<u8>, Arc<ModuleImage>>,
    /// Checked modules by PTX text, for the modules `image_cache` cannot share.
    pub checked_cache: HashMap<Vec<u8>, Arc<(diag::SourceFile, ir::Module)>>,
}

impl Driver {
    fn new() -> Driver {
        crate::state::reserve_device_range();
        keep_freed_heap();
        Driver {
            dev: exec::Device::new(),
            next_handle: 0x1000,
            contexts: HashMap::new(),
            primary: None,
            primary_flags: 0,
            modules: HashMap::new(),
            functions: HashMap::new(),
            streams: HashMap::new(),
            events: HashMap::new(),
            device_allocs: BTreeMap::new(),
            host_allocs: BTreeMap::new(),
            links: HashMap::new(),
            mirrors: Vec::new(),
            host_pages: std::collections::BTreeSet::new(),
            image_cache: HashMap::new(),
            checked_cache: HashMap::new(),
        }
    }

    pub fn handle(&mut self) -> u64 {
        self.next_handle += 16;
        self.next_handle
    }

    /// The device allocation containing `[addr, addr + len)`, as (base, length).
    pub fn device_range(&self, addr: u64, len: u64) -> Option<(u64, u64)> {
        let (&base, &(size, _)) = self.device_allocs.range(..=addr).next_back()?;
        let end = addr.checked_add(len)?;
        (end <= base + size).then_some((base, size))
    }

    /// The host allocation of this driver containing `addr`, as (base, length, flags).
    pub fn host_range(&self, addr: usize) -> Option<(usize, usize, u32)> {
        let (&base, a) = self.host_allocs.range(..=addr).next_back()?;
        (addr < base + a.len.max(1)).then_some((base, a.len, a.flags))
    }

    /// Whether `addr` lies in the device's address window (allocated or not).
    pub fn is_device_address(addr: u64) -> bool {
        (DEVICE_BASE..exec::memory::GLOBAL_LIMIT).contains(&addr)
    }

    /// The context current on this thread, checked to be alive.
    pub fn current_ctx(&self) -> Result<u64, CUresult> {
        let top = CTX_STACK.with(|s| s.borrow().last().copied());
        match top {
            Some(c) if self.contexts.contains_key(&c) => Ok(c),
            Some(_) => Err(CUDA_ERROR_CONTEXT_IS_DESTROYED),
            None => Err(CUDA_ERROR_INVALID_CONTEXT),
        }
    }

    /// A stream argument: 0, the legacy (0x1) and per-thread (0x2) default streams, or a
    /// live stream.
    pub fn check_stream(&self, s: u64) -> Result<(), CUresult> {
        if s <= 2 || self.streams.contains_key(&s) {
            Ok(())
        } else {
            Err(CUDA_ERROR_INVALID_HANDLE)
        }
    }

    /// Drop module `h`, its functions and its constant copies.
    pub fn unload(&mut self, h: u64) -> bool {
        let Some(m) = self.modules.remove(&h) else {
            return false;
        };
        for c in &m.consts {
            self.dev.memory_mut().take(c.addr);
        }
        self.functions.retain(|_, f| f.module != h);
        true
    }

    /// Free everything a destroyed context owned.
    pub fn drop_context_objects(&mut self, ctx: u64) {
        let allocs: Vec<u64> = self
            .device_allocs
            .iter()
            .filter(|(_, &(_, c))| c == ctx)
            .map(|(&b, _)| b)
            .collect();
        self.mirrors.retain(|m| !allocs.contains(&m.device));
        for b in allocs {
            self.device_allocs.remove(&b);
            self.dev.memory_mut().take(b);
        }
        let mods: Vec<u64> = self
            .modules
            .iter()
            .filter(|(_, m)| m.ctx == ctx)
            .map(|(&h, _)| h)
            .collect();
        for m in mods {
            self.unload(m);
        }
        self.streams.retain(|_, s| s.ctx != ctx);
    }
}

/// Lowest device address the executor hands out (`exec::memory`'s first page stays unmapped
/// so that null faults).
pub const DEVICE_BASE: u64 = 0x1_0000;

static DRIVER: Mutex<Option<Driver>> = Mutex::new(None);

thread_local! {
    /// The thread's context stack (`cuCtxPushCurrent`/`cuCtxPopCurrent`; the top is current).
    pub static CTX_STACK: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

/// Initialise the driver (idempotent).
pub fn init() {
    let mut g = DRIVER.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_none() {
        *g = Some(Driver::new());
    }
}

/// Run `f` on the driver; `CUDA_ERROR_NOT_INITIALIZED` before `cuInit`.
pub fn with<R>(f: impl FnOnce(&mut Driver) -> Result<R, CUresult>) -> Result<R, CUresult> {
    let mut g: MutexGuard<'_, Option<Driver>> = DRIVER.lock().unwrap_or_else(|e| e.into_inner());
    match g.as_mut() {
        Some(d) => f(d),
        None => Err(CUDA_ERROR_NOT_INITIALIZED),
    }
}

/// Keep host mappings out of the device's address window, so that no host pointer ever
/// equals a device pointer: the window is reserved (no access, no memory committed) before
/// the first allocation. When part of it is already mapped (a non-PIE program loaded low),
/// the reservation is skipped; device pointers are still told apart by the allocation table.
fn reserve_device_range() {
    let len = (exec::memory::GLOBAL_LIMIT - DEVICE_BASE) as usize;
    // SAFETY: an anonymous PROT_NONE mapping with MAP_FIXED_NOREPLACE never replaces an
    // existing mapping (the kernel refuses instead), so no memory of the process changes; the
    // mapping is never unmapped, so nothing can later be placed in the window.
    let p = unsafe {
        libc::mmap(
            DEVICE_BASE as *mut libc::c_void,
            len,
            libc::PROT_NONE,
            libc::MAP_PRIVATE
                | libc::MAP_ANONYMOUS
                | libc::MAP_NORESERVE
                | libc::MAP_FIXED_NOREPLACE,
            -1,
            0,
        )
    };
    if p != libc::MAP_FAILED && p as u64 != DEVICE_BASE {
        // An old kernel that ignores MAP_FIXED_NOREPLACE placed it elsewhere: give it back.
        // SAFETY: `p` is the mapping just created, of `len` bytes, used by nothing.
        unsafe { libc::munmap(p, len) };
    } else if p != libc::MAP_FAILED {
        WINDOW_RESERVED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Each launch allocates and frees the warps' register files (about 100 KB for a small
/// kernel); with glibc's default trim threshold (128 KiB) every free at the top of the heap
/// gave the memory back to the OS and the next launch faulted it in again, which doubled the
/// cost of a small launch. Keeping up to 32 MiB of freed heap avoids that.
fn keep_freed_heap() {
    // SAFETY: mallopt only changes glibc's allocation policy; any value is valid.
    #[cfg(target_env = "gnu")]
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 32 << 20)
    };
}

/// Whether this process holds the device window (so pages of it may be mapped for the host
/// at the same addresses: managed memory).
pub static WINDOW_RESERVED: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);
