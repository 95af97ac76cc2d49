//! Whole kernels on the executor and on the reference interpreter: every entry of every 64-bit
//! PTX file of the repository's kernel collections, launched with two CTAs of two warps and
//! buffers of the same random bytes, must leave the same buffers (or fault the same way).
//! This covers what single-instruction instances cannot: calls, loops, divergence and
//! reconvergence, barriers and warp collectives between real code paths.

use std::path::Path;

const GRID: [u32; 3] = [2, 1, 1];
const BLOCK: [u32; 3] = [64, 1, 1];
const BUF: usize = 1 << 16;

/// Entries left out, with the reason.
const SKIP: &[(&str, &str)] = &[
    (
        "spin_wait.ptx",
        "waits for a store of a later CTA: the reference runs CTAs one after another",
    ),
    (
        "atomics16.ptx",
        "records the old values contended atomics return, which depend on how threads interleave",
    ),
];

fn files() -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut v = Vec::new();
    for dir in ["tests/kernels", "tests/run", "tests/corpus", "examples"] {
        let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "ptx") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

struct Lcg(u64);
impl Lcg {
    fn byte(&mut self) -> u8 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 56) as u8
    }
}

#[test]
fn whole_kernels_agree_with_the_reference() {
    let mut compared = 0;
    let mut report = String::new();
    for path in files() {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if SKIP.iter().any(|(f, _)| *f == name) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        if !text.contains(".address_size 64") {
            continue;
        }
        let file = diag::SourceFile::new(name.clone(), text);
        let (Some(module), diags) = check::check_source(&file) else {
            continue;
        };
        if diags.iter().any(|d| d.is_error()) {
            continue;
        }
        let entries: Vec<(String, Vec<u64>)> = module
            .entries()
            .map(|(_, f)| {
                let sizes = f
                    .params
                    .iter()
                    .map(|p| match p {
                        ir::Param::Var(v) => module.vars[v.index()].size,
                        ir::Param::Reg(_) => 8,
                    })
                    .collect();
                (f.name.clone(), sizes)
            })
            .collect();
        for (kernel, sizes) in entries {
            let mut rng = Lcg(kernel.len() as u64 * 7919 + name.len() as u64);
            let mut dev = exec::Device::new();
            let Ok(loaded) = dev.load(&module, &file) else {
                continue;
            };
            // 8-byte parameters are buffer pointers, smaller ones element counts (16).
            let mut bufs = Vec::new();
            let mut args = Vec::new();
            let mut oparams = Vec::new();
            for &s in &sizes {
                if s == 8 {
                    let bytes: Vec<u8> = (0..BUF).map(|_| rng.byte()).collect();
                    let p = dev.alloc(BUF as u64).expect("alloc");
                    dev.write(p, &bytes).expect("write");
                    bufs.push((p.0, bytes));
                    args.push(exec::Arg::u64(p.0));
                    oparams.push(p.0.to_le_bytes().to_vec());
                } else {
                    let v = 16u64.to_le_bytes()[..s as usize].to_vec();
                    args.push(exec::Arg(v.clone()));
                    oparams.push(v);
                }
            }
            let cfg = exec::LaunchConfig {
                grid: GRID,
                block: BLOCK,
                ..exec::LaunchConfig::default()
            };
            let opts = exec::RunOptions {
                threads: 1,
                max_steps: 1 << 22,
                ..exec::RunOptions::default()
            };
            let e = dev.launch(&loaded, &kernel, &cfg, &args, &opts);
            if matches!(e, Err(exec::ExecError::Launch(_))) {
                continue;
            }
            let mut mem = oracle::Memory::new();
            for (base, bytes) in &bufs {
                mem.map(*base, bytes.clone());
            }
            use exec::memory as m;
            let ocfg = oracle::Launch {
                grid: GRID,
                block: BLOCK,
                dynamic_shared: 0,
                windows: oracle::Windows {
                    constant: m::CONST_WINDOW,
                    local: m::LOCAL_WINDOW,
                    shared: m::SHARED_WINDOW,
                    param: m::PARAM_WINDOW,
                    size: m::WINDOW_BYTES,
                    functions: exec::lower::FUNC_ADDR_BASE,
                },
                max_steps: 1 << 22,
                globals_base: 0xE000_0000,
                textures: Vec::new(),
            };
            let o = oracle::launch(&module, &kernel, &oparams, &ocfg, &mut mem);
            if let Err(oracle::Fault::Unsupported(_)) = o {
                continue;
            }
            compared += 1;
            match (&e, &o) {
                (Ok(_), Ok(())) => {
                    for (base, _) in &bufs {
                        let got = dev.read(exec::DevicePtr(*base), BUF as u64).expect("read");
                        let want = mem.get(*base).unwrap_or_default();
                        if got != want {
                            let at = got.iter().zip(want).position(|(a, b)| a != b).unwrap_or(0);
                            report.push_str(&format!(
                                "{name} `{kernel}`: buffer {base:#x} differs at byte {at}: executor {:#x}, reference {:#x}\n",
                                got[at], want[at]
                            ));
                            break;
                        }
                    }
                }
                (Err(_), Err(_)) => {}
                _ => report.push_str(&format!(
                    "{name} `{kernel}`: executor {e:?}, reference {o:?}\n"
                )),
            }
        }
    }
    eprintln!("{compared} kernels compared");
    assert!(compared >= 20, "only {compared} kernels compared");
    assert!(report.is_empty(), "{report}");
}
