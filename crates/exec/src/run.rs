//! `ptxvm run`'s library half: launch a checked module from a [`LaunchSpec`] and report.

use crate::launch_spec::{decode_element, ElemType, LaunchSpec, ParamSpec};
use crate::{Arg, Device, DevicePtr, ExecError, LaunchConfig, RunOptions};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// One buffer parameter's final contents, kept as the device's little-endian words (moved
/// out of device memory, not copied).
#[derive(Clone, Debug, PartialEq)]
pub struct BufferResult {
    /// Index of the kernel parameter.
    pub param: usize,
    pub ty: ElemType,
    words: Vec<u32>,
    len: u64,
}

impl BufferResult {
    pub fn new(param: usize, ty: ElemType, bytes: &[u8]) -> BufferResult {
        let words = bytes
            .chunks(4)
            .map(|c| {
                let mut w = [0u8; 4];
                if let Some(d) = w.get_mut(..c.len()) {
                    d.copy_from_slice(c);
                }
                u32::from_le_bytes(w)
            })
            .collect();
        BufferResult {
            param,
            ty,
            words,
            len: bytes.len() as u64,
        }
    }

    /// Length in bytes.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of elements of `ty`.
    pub fn elements(&self) -> u64 {
        self.len / self.ty.bytes() as u64
    }

    /// A copy of the contents as bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len as usize);
        let _ = self.write_bytes(&mut out);
        out
    }

    /// Stream the contents to `w` in 64 KiB pieces.
    pub fn write_bytes(&self, w: &mut impl Write) -> std::io::Result<()> {
        let mut left = self.len as usize;
        let mut piece = Vec::with_capacity(1 << 16);
        for chunk in self.words.chunks(1 << 14) {
            piece.clear();
            for x in chunk {
                piece.extend_from_slice(&x.to_le_bytes());
            }
            let n = piece.len().min(left);
            w.write_all(piece.get(..n).unwrap_or(&[]))?;
            left -= n;
        }
        Ok(())
    }

    /// The little-endian bytes of element `i` (zero-padded to 8).
    fn element(&self, i: u64) -> [u8; 8] {
        let n = self.ty.bytes() as u64;
        let mut out = [0u8; 8];
        for (k, b) in out.iter_mut().take(n as usize).enumerate() {
            let at = i * n + k as u64;
            let w = self.words.get((at / 4) as usize).copied().unwrap_or(0);
            *b = (w >> (8 * (at % 4))) as u8;
        }
        out
    }

    fn element_text(&self, i: u64) -> String {
        decode_element(&self.element(i), self.ty)
    }
}

/// The outcome of a successful launch.
#[derive(Clone, Debug, PartialEq)]
pub struct RunResult {
    pub kernel: String,
    pub buffers: Vec<BufferResult>,
    /// Thread-instructions executed (predicated-off ones included).
    pub instructions: u64,
    pub seconds: f64,
}

impl RunResult {
    /// `{"kernel": ..., "buffers": [{"param": 0, "type": "u32", "data": [...]}, ...],
    /// "stats": {"instructions": N, "seconds": S}}`
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        // Writing to a Vec cannot fail.
        let _ = self.write_json(&mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`RunResult::to_json`] streamed to `w` (one element at a time; wrap `w` in a
    /// `BufWriter`).
    pub fn write_json(&self, w: &mut dyn Write) -> std::io::Result<()> {
        w.write_all(b"{\"kernel\": ")?;
        w.write_all(
            serde_json::Value::String(self.kernel.clone())
                .to_string()
                .as_bytes(),
        )?;
        w.write_all(b", \"buffers\": [")?;
        for (i, b) in self.buffers.iter().enumerate() {
            if i > 0 {
                w.write_all(b", ")?;
            }
            write!(
                w,
                "{{\"param\": {}, \"type\": \"{}\", \"data\": [",
                b.param,
                b.ty.name()
            )?;
            for k in 0..b.elements() {
                if k > 0 {
                    w.write_all(b", ")?;
                }
                w.write_all(b.element_text(k).as_bytes())?;
            }
            w.write_all(b"]}")?;
        }
        write!(
            w,
            "], \"stats\": {{\"instructions\": {}, \"seconds\": {}}}}}",
            self.instructions,
            if self.seconds.is_finite() {
                self.seconds
            } else {
                0.0
            }
        )
    }

    /// A short human summary: the first eight elements of each buffer (only those are
    /// formatted).
    pub fn summary(&self) -> String {
        const SHOWN: usize = 8;
        let mut s = format!(
            "kernel {}: {} thread-instructions in {:.3} s\n",
            self.kernel, self.instructions, self.seconds
        );
        for b in &self.buffers {
            let n = b.elements();
            let shown: Vec<String> = (0..n.min(SHOWN as u64))
                .map(|k| b.element_text(k))
                .collect();
            let more = if n > SHOWN as u64 {
                format!(", ... ({n} elements)")
            } else {
                String::new()
            };
            s.push_str(&format!(
                "  param {} (.{}): [{}{}]\n",
                b.param,
                b.ty.name(),
                shown.join(", "),
                more
            ));
        }
        s
    }

    /// Write each buffer as `dir/param<N>.npy` (numpy's format: element type and shape in
    /// the header). Each file is written under a temporary name and renamed when complete, so
    /// an interrupted run leaves no truncated `.npy`.
    pub fn write_out(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for b in &self.buffers {
            let name = dir.join(format!("param{}.npy", b.param));
            let tmp = dir.join(format!(".param{}.npy.tmp-{}", b.param, std::process::id()));
            let written = (|| {
                let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
                f.write_all(&crate::npy::header(b.ty, b.elements()))?;
                b.write_bytes(&mut f)?;
                f.into_inner().map_err(|e| e.into_error())?.sync_all()
            })();
            if let Err(e) = written.and_then(|()| std::fs::rename(&tmp, &name)) {
                let _ = std::fs::remove_file(&tmp);
                return Err(e);
            }
        }
        Ok(())
    }
}

/// `name`, followed by its C++ form in parentheses when it is an Itanium-mangled name
/// (`_Z6squarePfi (square(float*, int))`).
pub fn with_demangled(name: &str) -> String {
    let plain = name
        .starts_with("_Z")
        .then(|| cpp_demangle::Symbol::new(name).ok())
        .flatten()
        .and_then(|s| s.demangle().ok());
    match plain {
        Some(p) if p != name => format!("`{name}` ({p})"),
        _ => format!("`{name}`"),
    }
}

/// Copy a buffer file into device memory in 1 MiB pieces, so the host holds one piece, not
/// a second copy of the buffer. The file must still have the size the spec was checked with.
fn stream_file(dev: &Device, ptr: DevicePtr, path: &Path, len: u64) -> Result<(), String> {
    use std::io::Read;
    let what = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
    let mut f = std::fs::File::open(path).map_err(what)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut done = 0u64;
    loop {
        let n = f.read(&mut buf).map_err(what)?;
        if n == 0 {
            break;
        }
        let piece = buf.get(..n).unwrap_or(&[]);
        if done + n as u64 > len {
            return Err(format!("{} grew while it was read", path.display()));
        }
        dev.write(DevicePtr(ptr.0 + done), piece)
            .map_err(|e| e.to_string())?;
        done += n as u64;
    }
    if done != len {
        return Err(format!(
            "{} shrank while it was read ({done} of {len} bytes)",
            path.display()
        ));
    }
    Ok(())
}

/// The unit a launch spec's texture `name` binds: the module-scope `.tex`/`.texref` variable of
/// that name ([`ir::Module::texture_slot`]).
fn texture_unit(module: &ir::Module, name: &str) -> Result<u32, String> {
    module
        .globals
        .iter()
        .filter(|g| module.var(**g).is_some_and(|v| v.name == name))
        .find_map(|g| module.texture_slot(*g))
        .ok_or_else(|| format!("the module has no .tex/.texref variable `{name}`"))
}

/// Load `module`, allocate the spec's buffers, launch, and read every buffer back.
pub fn run(
    module: &ir::Module,
    src: &diag::SourceFile,
    spec: &LaunchSpec,
    opts: &RunOptions<'_>,
) -> Result<RunResult, ExecError> {
    let mut dev = Device::new();
    dev.memory_mut().set_limit(opts.mem_limit);
    let m = dev.load(module, src).map_err(ExecError::Load)?;
    let prog = &m.program;
    let kernel = match &spec.kernel {
        Some(k) => k.clone(),
        None => {
            let names: Vec<&str> = prog.kernels.iter().map(|k| prog.kernel_name(k)).collect();
            match names.as_slice() {
                [one] => one.to_string(),
                [] => return Err(ExecError::Launch("the module has no kernel".into())),
                many => {
                    let shown: Vec<String> = many.iter().map(|n| with_demangled(n)).collect();
                    return Err(ExecError::Launch(format!(
                        "the module has {} kernels ({}); name one with \"kernel\"",
                        many.len(),
                        shown.join(", ")
                    )));
                }
            }
        }
    };
    let k = prog.kernel(&kernel).ok_or_else(|| {
        let names: Vec<String> = prog
            .kernels
            .iter()
            .map(|k| with_demangled(prog.kernel_name(k)))
            .collect();
        ExecError::Launch(if names.is_empty() {
            format!("kernel: no kernel named `{kernel}`: the module has no kernel")
        } else {
            format!(
                "kernel: no kernel named `{kernel}`; the module's kernels: {}",
                names.join(", ")
            )
        })
    })?;
    if k.params.len() != spec.params.len() {
        return Err(ExecError::Launch(format!(
            "params: kernel `{kernel}` takes {} parameters, the launch gives {}",
            k.params.len(),
            spec.params.len()
        )));
    }
    let ptr_bytes = if prog.addr64 { 8 } else { 4 };
    // The whole launch's device memory is checked before anything is allocated.
    let needed: u64 = spec.params.iter().map(ParamSpec::device_bytes).sum::<u64>()
        + spec
            .textures
            .iter()
            .map(crate::TextureSpec::device_bytes)
            .sum::<u64>();
    let available = dev.memory().available();
    if needed > available {
        return Err(ExecError::Launch(format!(
            "the launch's buffers need {needed} bytes of device memory; {available} are \
             available (limit {} bytes, {} used by the module's .global variables)",
            dev.memory().limit(),
            dev.memory().used()
        )));
    }
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    for (i, (p, kp)) in spec.params.iter().zip(&k.params).enumerate() {
        if let ParamSpec::Value { ty, bytes } = p {
            if bytes.len() != kp.size as usize {
                return Err(ExecError::Launch(format!(
                    "params[{i}]: a .{} value is {} bytes, parameter `{}` is {} bytes",
                    ty.name(),
                    bytes.len(),
                    kp.name,
                    kp.size
                )));
            }
            args.push(Arg(bytes.clone()));
            continue;
        }
        if kp.size != ptr_bytes && kp.size != 8 {
            return Err(ExecError::Launch(format!(
                "params[{i}]: a buffer needs a {ptr_bytes}-byte address parameter, `{}` is {} bytes",
                kp.name, kp.size
            )));
        }
        let len = p.device_bytes();
        let ptr = dev.alloc(len)?;
        let ty = match p {
            ParamSpec::Buffer { ty, bytes } => {
                dev.write(ptr, bytes)?;
                *ty
            }
            ParamSpec::File { ty, path, bytes } => {
                stream_file(&dev, ptr, path, *bytes)
                    .map_err(|e| ExecError::Launch(format!("params[{i}]: {e}")))?;
                *ty
            }
            ParamSpec::Zeros { ty, .. } | ParamSpec::Value { ty, .. } => {
                // The host gave no data: reads before a kernel store are initcheck errors.
                if let Some(san) = opts.sanitize {
                    san.track_uninitialised(ptr.0, len);
                }
                *ty
            }
        };
        let mut a = Arg::u64(ptr.0);
        a.0.truncate(kp.size as usize);
        args.push(a);
        bufs.push((i, ty, ptr, len));
    }
    let cfg = LaunchConfig {
        grid: spec.grid,
        block: spec.block,
        shared_bytes: spec.shared_bytes,
        textures: crate::launch_textures::bind_textures(&spec.textures, &|name| {
            texture_unit(module, name)
        })
        .map_err(ExecError::Launch)?,
    };
    let start = Instant::now();
    let stats = dev.launch(&m, &kernel, &cfg, &args, opts)?;
    let seconds = start.elapsed().as_secs_f64();
    let mut buffers = Vec::new();
    for (param, ty, ptr, len) in bufs {
        let (words, _) = dev
            .memory_mut()
            .take(ptr.0)
            .ok_or_else(|| ExecError::Launch(format!("buffer of parameter {param} is gone")))?;
        buffers.push(BufferResult {
            param,
            ty,
            words,
            len,
        });
    }
    Ok(RunResult {
        kernel,
        buffers,
        instructions: stats.thread_instructions,
        seconds,
    })
}
