//! `ptxvm run`'s library half: launch a checked module from a [`LaunchSpec`] and report.

use crate::launch_spec::{decode_json, ElemType, LaunchSpec, ParamSpec};
use crate::{Arg, Device, ExecError, LaunchConfig, RunOptions};
use std::path::Path;
use std::time::Instant;

/// One buffer parameter's final contents.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferResult {
    /// Index of the kernel parameter.
    pub param: usize,
    pub ty: ElemType,
    pub bytes: Vec<u8>,
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
        let mut s = String::new();
        s.push_str("{\"kernel\": ");
        s.push_str(&serde_json::Value::String(self.kernel.clone()).to_string());
        s.push_str(", \"buffers\": [");
        for (i, b) in self.buffers.iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&format!(
                "{{\"param\": {}, \"type\": \"{}\", \"data\": [{}]}}",
                b.param,
                b.ty.name(),
                decode_json(&b.bytes, b.ty).join(", ")
            ));
        }
        s.push_str(&format!(
            "], \"stats\": {{\"instructions\": {}, \"seconds\": {}}}}}",
            self.instructions,
            if self.seconds.is_finite() {
                self.seconds
            } else {
                0.0
            }
        ));
        s
    }

    /// A short human summary.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "kernel {}: {} thread-instructions in {:.3} s\n",
            self.kernel, self.instructions, self.seconds
        );
        for b in &self.buffers {
            let vals = decode_json(&b.bytes, b.ty);
            let shown: Vec<&str> = vals.iter().take(8).map(String::as_str).collect();
            let more = if vals.len() > 8 {
                format!(", ... ({} elements)", vals.len())
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

    /// Write each buffer as `dir/param<N>.bin`.
    pub fn write_out(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        for b in &self.buffers {
            std::fs::write(dir.join(format!("param{}.bin", b.param)), &b.bytes)?;
        }
        Ok(())
    }
}

/// Load `module`, allocate the spec's buffers, launch, and read every buffer back.
pub fn run(
    module: &ir::Module,
    src: &diag::SourceFile,
    spec: &LaunchSpec,
    opts: &RunOptions<'_>,
) -> Result<RunResult, ExecError> {
    let mut dev = Device::new();
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
                    return Err(ExecError::Launch(format!(
                        "the module has {} kernels ({}); name one with \"kernel\"",
                        many.len(),
                        many.join(", ")
                    )))
                }
            }
        }
    };
    let k = prog.kernel(&kernel).ok_or_else(|| {
        ExecError::Launch(format!("kernel: no kernel named `{kernel}` in the module"))
    })?;
    if k.params.len() != spec.params.len() {
        return Err(ExecError::Launch(format!(
            "params: kernel `{kernel}` takes {} parameters, the launch gives {}",
            k.params.len(),
            spec.params.len()
        )));
    }
    let ptr_bytes = if prog.addr64 { 8 } else { 4 };
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    for (i, (p, kp)) in spec.params.iter().zip(&k.params).enumerate() {
        match p {
            ParamSpec::Buffer { ty, bytes } => {
                if kp.size != ptr_bytes && kp.size != 8 {
                    return Err(ExecError::Launch(format!(
                        "params[{i}]: a buffer needs a {ptr_bytes}-byte address parameter, `{}` is {} bytes",
                        kp.name, kp.size
                    )));
                }
                let ptr = dev.alloc(bytes.len() as u64)?;
                dev.write(ptr, bytes)?;
                let mut a = Arg::u64(ptr.0);
                a.0.truncate(kp.size as usize);
                args.push(a);
                bufs.push((i, *ty, ptr, bytes.len() as u64));
            }
            ParamSpec::Value { ty, bytes } => {
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
            }
        }
    }
    let cfg = LaunchConfig {
        grid: spec.grid,
        block: spec.block,
        shared_bytes: spec.shared_bytes,
        textures: Vec::new(),
    };
    let start = Instant::now();
    let stats = dev.launch(&m, &kernel, &cfg, &args, opts)?;
    let seconds = start.elapsed().as_secs_f64();
    let mut buffers = Vec::new();
    for (param, ty, ptr, len) in bufs {
        buffers.push(BufferResult {
            param,
            ty,
            bytes: dev.read(ptr, len)?,
        });
    }
    Ok(RunResult {
        kernel,
        buffers,
        instructions: stats.thread_instructions,
        seconds,
    })
}
