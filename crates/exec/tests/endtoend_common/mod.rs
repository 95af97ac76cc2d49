//! Helpers for the end-to-end kernel tests: load a kernel file from `tests/kernels/`, move
//! typed buffers to and from the device, and run one launch with several worker-thread counts.
#![allow(dead_code)]

use exec::{Arg, Device, DevicePtr, ExecError, LaunchConfig, LoadedModule, RunOptions, Texture};

/// Worker-thread counts every race-free kernel is run with; results must not depend on them.
pub const THREAD_COUNTS: [usize; 3] = [1, 2, 4];

/// The repository-relative name a kernel file is checked under (and that faults must name).
pub fn kernel_path(file: &str) -> String {
    format!("tests/kernels/{file}")
}

pub fn kernel_text(file: &str) -> String {
    let path = format!("{}/../../tests/kernels/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// Check and load `tests/kernels/<file>` on a fresh device.
pub fn load_kernel(file: &str) -> (Device, LoadedModule) {
    load_text(&kernel_path(file), &kernel_text(file))
}

pub fn load_text(name: &str, text: &str) -> (Device, LoadedModule) {
    let src = diag::SourceFile::new(name, text);
    let (m, diags) = check::check_source(&src);
    assert!(
        !diags.iter().any(|d| d.is_error()),
        "{name} does not check:\n{}",
        diag::render(&src, &diags)
    );
    let m = m.expect("a module without errors");
    let mut dev = Device::new();
    let module = dev
        .load(&m, &src)
        .unwrap_or_else(|e| panic!("{name} does not load: {e}"));
    (dev, module)
}

/// 1-based line of the first line of `text` containing `marker` (for fault locations).
pub fn line_of(text: &str, marker: &str) -> u32 {
    let idx = text
        .lines()
        .position(|l| l.contains(marker))
        .unwrap_or_else(|| panic!("marker `{marker}` not in the kernel"));
    idx as u32 + 1
}

pub fn cfg(grid: [u32; 3], block: [u32; 3]) -> LaunchConfig {
    LaunchConfig {
        grid,
        block,
        ..LaunchConfig::default()
    }
}

pub fn opts(threads: usize) -> RunOptions<'static> {
    RunOptions {
        threads,
        ..RunOptions::default()
    }
}

/// Element types that travel as little-endian bytes.
pub trait Elem: Copy {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

macro_rules! elem {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("element width"))
            }
        }
    )*};
}
elem!(u8, u16, u32, u64, i32, i64, f32, f64);

pub fn upload<T: Elem>(dev: &mut Device, v: &[T]) -> DevicePtr {
    let p = dev.alloc((v.len() * T::SIZE).max(1) as u64).unwrap();
    let mut bytes = Vec::with_capacity(v.len() * T::SIZE);
    for &x in v {
        x.put(&mut bytes);
    }
    dev.write(p, &bytes).unwrap();
    p
}

pub fn zeros<T: Elem>(dev: &mut Device, n: usize) -> DevicePtr {
    dev.alloc((n * T::SIZE).max(1) as u64).unwrap()
}

pub fn download<T: Elem>(dev: &Device, p: DevicePtr, n: usize) -> Vec<T> {
    dev.read(p, (n * T::SIZE) as u64)
        .unwrap()
        .chunks(T::SIZE)
        .map(T::get)
        .collect()
}

/// One buffer parameter or one scalar for [`run_all_threads`].
#[derive(Clone)]
pub enum Param {
    /// A global buffer with these initial bytes, read back after the launch.
    Buf(Vec<u8>),
    Scalar(Arg),
}

pub fn buf<T: Elem>(v: &[T]) -> Param {
    let mut bytes = Vec::with_capacity(v.len() * T::SIZE);
    for &x in v {
        x.put(&mut bytes);
    }
    Param::Buf(bytes)
}

pub fn zbuf<T: Elem>(n: usize) -> Param {
    Param::Buf(vec![0; n * T::SIZE])
}

pub fn decode<T: Elem>(bytes: &[u8]) -> Vec<T> {
    bytes.chunks(T::SIZE).map(T::get).collect()
}

/// Run one launch on a fresh device; the final contents of every buffer parameter, in order.
pub fn run_once(
    file: &str,
    kernel: &str,
    cfg: &LaunchConfig,
    params: &[Param],
    threads: usize,
) -> Result<Vec<Vec<u8>>, ExecError> {
    let (mut dev, m) = load_kernel(file);
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    for p in params {
        match p {
            Param::Buf(bytes) => {
                let ptr = dev.alloc(bytes.len().max(1) as u64).unwrap();
                dev.write(ptr, bytes).unwrap();
                bufs.push((ptr, bytes.len()));
                args.push(Arg::ptr(ptr));
            }
            Param::Scalar(a) => args.push(a.clone()),
        }
    }
    dev.launch(&m, kernel, cfg, &args, &opts(threads))?;
    Ok(bufs
        .iter()
        .map(|&(p, n)| dev.read(p, n as u64).unwrap())
        .collect())
}

/// Run with every count in [`THREAD_COUNTS`], assert identical buffers, return them.
pub fn run_all_threads(
    file: &str,
    kernel: &str,
    cfg: &LaunchConfig,
    params: &[Param],
) -> Vec<Vec<u8>> {
    let mut first: Option<Vec<Vec<u8>>> = None;
    for t in THREAD_COUNTS {
        let out = run_once(file, kernel, cfg, params, t)
            .unwrap_or_else(|e| panic!("{kernel} with {t} worker threads: {e}"));
        match &first {
            None => first = Some(out),
            Some(f) => assert!(
                *f == out,
                "{kernel}: results with {t} worker threads differ from {} thread(s)",
                THREAD_COUNTS[0]
            ),
        }
    }
    first.expect("at least one thread count")
}

/// A small deterministic generator for test inputs (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
}

/// A four-channel texture of `dims` texels whose words are a hash of their index and `seed`,
/// so every texel (and channel) of every texture differs.
pub fn hashed_texture(dims: [u32; 3], seed: u32) -> Texture {
    let texels = dims[0] * dims[1] * dims[2];
    Texture {
        dims,
        channels: 4,
        data: (0..4 * texels)
            .map(|i| i.wrapping_mul(0x9E37_79B9) ^ seed)
            .collect(),
    }
}
