//! The `launch_spec` fuzz target's body, shared with the regression test in
//! `crates/ptxvm/tests/fuzz_regressions.rs`: the launch-spec loader must never panic (any bytes
//! give a spec or a field-naming error), and the outputs of what it describes (JSON, summary,
//! `.npy` files) never panic either. Texture entries are also fuzzed on their own (the input
//! as the `"textures"` value), bound into a texture table, and fetched from by a small Fermi
//! kernel (`TLD`, `TEX`, `TXQ` at coordinates taken from the input) so texel arithmetic on
//! any accepted shape cannot panic either.

pub fn fuzz_launch_spec(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Relative `file` paths resolve inside an empty scratch directory.
    let base = std::env::temp_dir().join("ptxvm-fuzz-launch-spec-empty");
    let parsed = exec::LaunchSpec::from_json(text, &base);
    // The flag sugar sees the same text split as `--arg` values and dimensions.
    let args: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    let flags = exec::LaunchSpec::from_flags(
        None,
        args.first().map(String::as_str),
        args.get(1).map(String::as_str),
        None,
        &args,
    );
    for spec in [parsed, flags].into_iter().flatten() {
        outputs(&spec, args.first().map_or("", String::as_str));
        textures(&spec, data);
    }
    // The input as the textures array alone, so the fuzzer reaches the texture fields.
    let wrapped = format!("{{\"kernel\": \"k\", \"textures\": {text}}}");
    if let Ok(spec) = exec::LaunchSpec::from_json(&wrapped, &base) {
        textures(&spec, data);
    }
}

/// Binds the spec's textures (names resolve to a unit from the name's length, units past the
/// limit included) and runs `TLD`, `TEX` and `TXQ` on each bound unit of a one-thread Fermi
/// kernel whose coordinates come from `data`.
fn textures(spec: &exec::LaunchSpec, data: &[u8]) {
    if spec.textures.is_empty() {
        return;
    }
    let _ = exec::bind_textures(&spec.textures, &|n| Ok(n.len() as u32 * 37));
    let Ok(table) = exec::bind_textures(&spec.textures, &|_| Err("no".into())) else {
        return;
    };
    let mut seed = [0u8; 16];
    for (s, d) in seed.iter_mut().zip(data.iter().rev()) {
        *s = *d;
    }
    let word = |k: usize| {
        u32::from_le_bytes([
            seed[4 * k],
            seed[4 * k + 1],
            seed[4 * k + 2],
            seed[4 * k + 3],
        ])
    };
    let mut lines: Vec<String> = (0..4)
        .map(|k| format!("MOV32I R{k}, {:#x};", word(k)))
        .collect();
    for (unit, t) in table.iter().enumerate().take(4) {
        if t.is_none() {
            continue;
        }
        for shape in [
            "1D",
            "ARRAY_1D",
            "2D",
            "ARRAY_2D",
            "3D",
            "CUBE",
            "ARRAY_CUBE",
        ] {
            lines.push(format!("TLD.LZ.T R8, R0, {unit:#x}, {shape}, 0xf;"));
            lines.push(format!("TEX.T R12, R0, {unit:#x}, {shape}, 0xf;"));
        }
        lines.push(format!(
            "TXQ.T R16, RZ, {unit:#x}, TEX_HEADER_DIMENSION, 0xf;"
        ));
    }
    lines.push("EXIT;".into());
    let code: Option<Vec<u64>> = lines
        .iter()
        .enumerate()
        .map(|(i, t)| fermi::isa::assemble_text(t, 8 * i as u64, &|_| None).ok())
        .collect();
    let Some(code) = code else { return };
    let module = fermi::cubin::Module {
        address_size: fermi::cubin::AddressSize::Bits32,
        kernels: vec![fermi::cubin::Kernel {
            name: "k".into(),
            code,
            ..Default::default()
        }],
        ..Default::default()
    };
    let launch = exec::LaunchSpec {
        kernel: Some("k".into()),
        grid: [1, 1, 1],
        block: [1, 1, 1],
        shared_bytes: 0,
        params: Vec::new(),
        textures: spec
            .textures
            .iter()
            .filter(|t| matches!(t.bind, exec::TextureBind::Unit(_)))
            .cloned()
            .collect(),
    };
    let opts = fermi_exec::Options {
        threads: 1,
        max_steps: 1 << 10,
        progress: None,
    };
    let _ = fermi_exec::run_module(&module, &launch, &opts);
}

/// Every buffer the spec holds (and small zero buffers) as a result, written as JSON, as the
/// summary and as `.npy` files under a directory named by `name` (only safe characters, inside
/// a scratch directory).
fn outputs(spec: &exec::LaunchSpec, name: &str) {
    let buffers: Vec<exec::BufferResult> = spec
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            exec::ParamSpec::Buffer { ty, bytes } => Some(exec::BufferResult::new(i, *ty, bytes)),
            exec::ParamSpec::Zeros { ty, len } if *len <= 4096 => Some(exec::BufferResult::new(
                i,
                *ty,
                &vec![0; *len as usize * ty.bytes()],
            )),
            _ => None,
        })
        .collect();
    let r = exec::RunResult {
        kernel: spec.kernel.clone().unwrap_or_default(),
        buffers,
        instructions: 0,
        seconds: 0.0,
    };
    let _ = r.to_json();
    let _ = r.summary();
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .take(32)
        .collect();
    if !name.is_empty() && name != "." && name != ".." {
        let dir = std::env::temp_dir().join("ptxvm-fuzz-out").join(name);
        let _ = r.write_out(&dir);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
