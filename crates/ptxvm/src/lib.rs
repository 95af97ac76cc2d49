//! Run PTX kernels on the CPU from Rust.
//!
//! This is the `ptxvm` crate's library: one facade over the checker and the executor (the
//! `ptxvm` command-line tool is this crate's binary). A [`Gpu`] is a simulated device:
//! load PTX text or a file into a [`Module`] (diagnostics come back as [`Error::Check`]),
//! allocate typed [`Buffer`]s, copy slices in and out, and launch a kernel with typed
//! arguments. A kernel fault (out-of-bounds access, `trap`, deadlock, ...) is
//! [`Error::Fault`], never a panic.
//!
//! ```
//! use ptxvm::{Dim3, Gpu};
//!
//! let ptx = r#"
//! .version 6.0
//! .target sm_60
//! .address_size 64
//! .visible .entry vector_add(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
//! {
//!     .reg .pred %p<2>;
//!     .reg .b32 %r<6>;
//!     .reg .f32 %f<4>;
//!     .reg .b64 %rd<8>;
//!     mov.u32 %r1, %ctaid.x;
//!     mov.u32 %r2, %ntid.x;
//!     mov.u32 %r3, %tid.x;
//!     mad.lo.s32 %r4, %r1, %r2, %r3;
//!     ld.param.u32 %r5, [n];
//!     setp.ge.u32 %p1, %r4, %r5;
//!     @%p1 bra DONE;
//!     mul.wide.u32 %rd1, %r4, 4;
//!     ld.param.u64 %rd2, [a];
//!     ld.param.u64 %rd3, [b];
//!     ld.param.u64 %rd4, [c];
//!     add.u64 %rd5, %rd2, %rd1;
//!     add.u64 %rd6, %rd3, %rd1;
//!     add.u64 %rd7, %rd4, %rd1;
//!     ld.global.f32 %f1, [%rd5];
//!     ld.global.f32 %f2, [%rd6];
//!     add.f32 %f3, %f1, %f2;
//!     st.global.f32 [%rd7], %f3;
//! DONE:
//!     ret;
//! }
//! "#;
//! let mut gpu = Gpu::new();
//! let module = gpu.load_ptx("vector_add.ptx", ptx)?;
//! let n = 1000;
//! let xs: Vec<f32> = (0..n).map(|i| i as f32).collect();
//! let a = gpu.upload(&xs)?;
//! let b = gpu.upload(&xs)?;
//! let c = gpu.alloc::<f32>(n)?;
//! gpu.launch(&module, "vector_add", Dim3::x(4), Dim3::x(256), &[&a, &b, &c, &(n as u32)])?;
//! let sums: Vec<f32> = gpu.read(&c)?;
//! assert_eq!(sums[999], 1998.0);
//! # Ok::<(), ptxvm::Error>(())
//! ```

#![deny(missing_docs)]

use std::fmt;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Why loading or running failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The PTX does not parse or check: the diagnostics, and their rendering
    /// (`file:line:col: error: …` with the source line and a caret).
    Check {
        /// Every diagnostic, errors and warnings.
        diagnostics: Vec<diag::Diagnostic>,
        /// The diagnostics rendered as `ptxvm check` prints them.
        rendered: String,
    },
    /// The PTX checks but uses something the executor cannot run (`file:line` inside).
    Unsupported(exec::LoadError),
    /// A PTX file could not be read.
    Io {
        /// The file.
        path: String,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The launch is malformed: unknown kernel, wrong arguments, bad shape, out of memory,
    /// or a buffer or module of another [`Gpu`].
    Launch(String),
    /// The kernel faulted: kernel, PTX line, thread and what went wrong.
    Fault(Box<exec::Fault>),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Check { rendered, .. } => write!(f, "{}", rendered.trim_end()),
            Error::Unsupported(e) => write!(f, "{e}"),
            Error::Io { path, source } => write!(f, "cannot read {path}: {source}"),
            Error::Launch(m) => write!(f, "{m}"),
            Error::Fault(x) => write!(f, "{x}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl From<exec::ExecError> for Error {
    fn from(e: exec::ExecError) -> Error {
        match e {
            exec::ExecError::Fault(f) => Error::Fault(f),
            exec::ExecError::Launch(m) => Error::Launch(m),
            exec::ExecError::Load(l) => Error::Unsupported(l),
        }
    }
}

/// A value that can live in device memory: the PTX fundamental types' Rust twins, stored
/// little-endian.
pub trait Element: Copy + private::Sealed {
    /// Size in bytes.
    const BYTES: usize;
    /// Append the little-endian bytes of `self`.
    fn put(self, out: &mut Vec<u8>);
    /// Read a value from exactly [`Element::BYTES`] little-endian bytes.
    fn get(bytes: &[u8]) -> Self;
}

mod private {
    pub trait Sealed {}
}

macro_rules! element {
    ($($t:ty),*) => {$(
        impl private::Sealed for $t {}
        impl Element for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(bytes.get(..Self::BYTES).unwrap_or(&[0; std::mem::size_of::<$t>()]));
                <$t>::from_le_bytes(b)
            }
        }
    )*};
}
element!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);

/// A grid or CTA shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim3(pub [u32; 3]);

impl Dim3 {
    /// A one-dimensional shape `(x, 1, 1)`.
    pub fn x(x: u32) -> Dim3 {
        Dim3([x, 1, 1])
    }
    /// A two-dimensional shape `(x, y, 1)`.
    pub fn xy(x: u32, y: u32) -> Dim3 {
        Dim3([x, y, 1])
    }
    /// A three-dimensional shape.
    pub fn xyz(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3([x, y, z])
    }
}

/// A typed allocation of device memory on one [`Gpu`].
#[derive(Debug)]
pub struct Buffer<T: Element> {
    addr: u64,
    len: usize,
    gpu: u64,
    ty: PhantomData<T>,
}

impl<T: Element> Buffer<T> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The device address (what the kernel parameter receives).
    pub fn device_address(&self) -> u64 {
        self.addr
    }
}

/// Something that can be passed as a kernel parameter: a [`Buffer`] (its address) or a
/// scalar of a PTX fundamental type.
pub trait KernelArg {
    /// The parameter's little-endian bytes, and the id of the [`Gpu`] it belongs to (0 for
    /// plain values).
    fn bytes(&self) -> (Vec<u8>, u64);
}

impl<T: Element> KernelArg for Buffer<T> {
    fn bytes(&self) -> (Vec<u8>, u64) {
        (self.addr.to_le_bytes().to_vec(), self.gpu)
    }
}

impl<T: Element> KernelArg for T {
    fn bytes(&self) -> (Vec<u8>, u64) {
        let mut v = Vec::with_capacity(T::BYTES);
        self.put(&mut v);
        (v, 0)
    }
}

/// A checked and loaded PTX module.
#[derive(Debug)]
pub struct Module {
    loaded: exec::LoadedModule,
    gpu: u64,
}

impl Module {
    /// The names of the module's kernels (`.entry` functions).
    pub fn kernels(&self) -> Vec<String> {
        let p = &self.loaded.program;
        p.kernels
            .iter()
            .map(|k| p.kernel_name(k).to_string())
            .collect()
    }
}

/// What a finished launch did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchStats {
    /// Thread-instructions executed.
    pub thread_instructions: u64,
    /// CTAs run.
    pub ctas: u64,
}

/// Source of distinct [`Gpu`] ids, so a buffer or module is never used on another device.
static NEXT_GPU: AtomicU64 = AtomicU64::new(1);

/// A simulated GPU: device memory, loaded modules, launches.
#[derive(Debug)]
pub struct Gpu {
    dev: exec::Device,
    id: u64,
    threads: usize,
}

impl Default for Gpu {
    fn default() -> Self {
        Gpu::new()
    }
}

impl Gpu {
    /// A device with the default memory budget (2 GiB), launching on one host thread per
    /// core.
    pub fn new() -> Gpu {
        Gpu {
            dev: exec::Device::new(),
            id: NEXT_GPU.fetch_add(1, Ordering::Relaxed),
            threads: 0,
        }
    }

    /// Host worker threads for launches (0 = one per core).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    /// Parse, check and load PTX `text`; `name` is the file name diagnostics and faults use.
    pub fn load_ptx(&mut self, name: &str, text: &str) -> Result<Module, Error> {
        let src = diag::SourceFile::new(name, text);
        let (module, diags) = check::check_source(&src);
        let module = match module {
            Some(m) if !diag::has_errors(&diags) => m,
            _ => {
                return Err(Error::Check {
                    rendered: diag::render(&src, &diags),
                    diagnostics: diags,
                })
            }
        };
        let loaded = self.dev.load(&module, &src).map_err(Error::Unsupported)?;
        Ok(Module {
            loaded,
            gpu: self.id,
        })
    }

    /// [`Gpu::load_ptx`] of a file.
    pub fn load_file(&mut self, path: impl AsRef<Path>) -> Result<Module, Error> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        self.load_ptx(&path.display().to_string(), &text)
    }

    /// Allocate `n` zeroed elements.
    pub fn alloc<T: Element>(&mut self, n: usize) -> Result<Buffer<T>, Error> {
        let bytes = (n as u64)
            .checked_mul(T::BYTES as u64)
            .ok_or_else(|| Error::Launch(format!("{n} elements do not fit device memory")))?;
        let p = self.dev.alloc(bytes)?;
        Ok(Buffer {
            addr: p.0,
            len: n,
            gpu: self.id,
            ty: PhantomData,
        })
    }

    /// Allocate a buffer holding a copy of `data`.
    pub fn upload<T: Element>(&mut self, data: &[T]) -> Result<Buffer<T>, Error> {
        let b = self.alloc::<T>(data.len())?;
        self.write(&b, data)?;
        Ok(b)
    }

    fn mine<T: Element>(&self, b: &Buffer<T>) -> Result<(), Error> {
        if b.gpu == self.id {
            Ok(())
        } else {
            Err(Error::Launch(
                "the buffer belongs to another Gpu".to_string(),
            ))
        }
    }

    /// Copy `data` to the start of `buf` (at most its length).
    pub fn write<T: Element>(&self, buf: &Buffer<T>, data: &[T]) -> Result<(), Error> {
        self.mine(buf)?;
        if data.len() > buf.len {
            return Err(Error::Launch(format!(
                "{} elements do not fit a buffer of {}",
                data.len(),
                buf.len
            )));
        }
        let mut bytes = Vec::with_capacity(data.len() * T::BYTES);
        for &x in data {
            x.put(&mut bytes);
        }
        self.dev.write(exec::DevicePtr(buf.addr), &bytes)?;
        Ok(())
    }

    /// The contents of `buf`.
    pub fn read<T: Element>(&self, buf: &Buffer<T>) -> Result<Vec<T>, Error> {
        self.mine(buf)?;
        let bytes = self
            .dev
            .read(exec::DevicePtr(buf.addr), (buf.len * T::BYTES) as u64)?;
        Ok(bytes.chunks_exact(T::BYTES).map(T::get).collect())
    }

    /// Run `kernel` of `module` on a `grid` of CTAs of `block` threads and wait for it.
    /// `args` are the kernel's parameters in order: buffers (their address) and scalars
    /// whose Rust type has the parameter's size (`u32` for `.u32`, `f32` for `.f32`, ...).
    pub fn launch(
        &self,
        module: &Module,
        kernel: &str,
        grid: Dim3,
        block: Dim3,
        args: &[&dyn KernelArg],
    ) -> Result<LaunchStats, Error> {
        if module.gpu != self.id {
            return Err(Error::Launch(
                "the module was loaded on another Gpu".to_string(),
            ));
        }
        let mut raw = Vec::with_capacity(args.len());
        for (i, a) in args.iter().enumerate() {
            let (bytes, gpu) = a.bytes();
            if gpu != 0 && gpu != self.id {
                return Err(Error::Launch(format!(
                    "argument {i} is a buffer of another Gpu"
                )));
            }
            raw.push(exec::Arg(bytes));
        }
        let cfg = exec::LaunchConfig {
            grid: grid.0,
            block: block.0,
            ..exec::LaunchConfig::default()
        };
        let opts = exec::RunOptions {
            threads: self.threads,
            ..exec::RunOptions::default()
        };
        let s = self.dev.launch(&module.loaded, kernel, &cfg, &raw, &opts)?;
        Ok(LaunchStats {
            thread_instructions: s.thread_instructions,
            ctas: s.ctas,
        })
    }
}
