//! Shared helpers: check PTX text, load it on a fresh device, read results back.
#![allow(dead_code)]

use exec::{
    Arg, Device, DevicePtr, ExecError, LaunchConfig, LaunchStats, LoadedModule, RunOptions,
};

pub fn load(name: &str, text: &str) -> (Device, LoadedModule) {
    let src = diag::SourceFile::new(name, text);
    let (m, diags) = check::check_source(&src);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{}", diag::render(&src, &diags));
    let m = m.expect("module");
    let mut dev = Device::new();
    let module = dev
        .load(&m, &src)
        .unwrap_or_else(|e| panic!("load failed: {e}"));
    (dev, module)
}

pub fn upload_u32(dev: &mut Device, v: &[u32]) -> DevicePtr {
    let p = dev.alloc(v.len() as u64 * 4).unwrap();
    let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
    dev.write(p, &bytes).unwrap();
    p
}

pub fn read_u32(dev: &Device, p: DevicePtr, n: usize) -> Vec<u32> {
    dev.read(p, n as u64 * 4)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

pub fn read_u64(dev: &Device, p: DevicePtr, n: usize) -> Vec<u64> {
    dev.read(p, n as u64 * 8)
        .unwrap()
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

pub fn cfg(grid: [u32; 3], block: [u32; 3]) -> LaunchConfig {
    LaunchConfig {
        grid,
        block,
        ..LaunchConfig::default()
    }
}

pub fn launch(
    dev: &Device,
    m: &LoadedModule,
    kernel: &str,
    cfg: &LaunchConfig,
    args: &[Arg],
) -> Result<LaunchStats, ExecError> {
    dev.launch(
        m,
        kernel,
        cfg,
        args,
        &RunOptions {
            threads: 2,
            ..RunOptions::default()
        },
    )
}
