//! Repository kernels that translate since calls, 16-bit arithmetic, `.const` data and the
//! PTX 1.x forms are selected, run on both executors bit for bit (inputs: integer and float
//! edge values). tests/run/calls.ptx, ptx11.ptx, call_param_registers.ptx and warp_size.ptx
//! are in calls.rs with their meaning checked too.

mod common;
use common::*;

fn run_file(
    path: &str,
    kernel: &str,
    grid: [u32; 3],
    block: [u32; 3],
    params: Vec<exec::ParamSpec>,
) {
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    let spec = exec::LaunchSpec {
        kernel: Some(kernel.into()),
        grid,
        block,
        shared_bytes: 0,
        params,
        textures: Vec::new(),
    };
    run_both(path, &text, &spec);
}

#[test]
fn legacy_ptx11_entries_agree() {
    let path = "tests/kernels/legacy_ptx11.ptx";
    let x = int_edges(256, 0x51ed_2701);
    run_file(
        path,
        "scale_mix",
        [2, 1, 1],
        [128, 1, 1],
        vec![
            u32s(&x),
            zeros32(512),
            value_u32(250),
            value_u32(0x0100_0193),
        ],
    );
    let m: Vec<u32> = (0..32 * 48).collect();
    run_file(
        path,
        "transpose16",
        [2, 3, 1],
        [16, 16, 1],
        vec![u32s(&m), zeros32(32 * 48), value_u32(32), value_u32(48)],
    );
    let (a, b) = (int_edges(64, 0x0f0f_1234), int_edges(64, 0x7777_4321));
    run_file(
        path,
        "legacy_ops",
        [1, 1, 1],
        [64, 1, 1],
        vec![u32s(&a), u32s(&b), zeros32(640)],
    );
}

#[test]
fn corpus_legacy_scale_kernel_agrees() {
    let x = f32_edges(256, 0x3141_5926);
    run_file(
        "tests/corpus/legacy_ptx11.ptx",
        "_Z12scale_kernelPfS_i",
        [2, 1, 1],
        [128, 1, 1],
        vec![u32s(&x), zeros32(256), value_u32(250)],
    );
}

#[test]
fn subword_loads_and_stores_agree() {
    let bytes: Vec<u8> = (0..128u32)
        .map(|i| (i.wrapping_mul(0x9d) ^ 0x5a) as u8)
        .collect();
    let b = buffer(exec::ElemType::U8, &bytes, |x: u8| vec![x]);
    run_file(
        "tests/kernels/subword.ptx",
        "subword",
        [1, 1, 1],
        [64, 1, 1],
        vec![
            b,
            zeros32(8 * 64),
            buffer(exec::ElemType::U8, &[0u8; 256], |x: u8| vec![x]),
        ],
    );
}

#[test]
fn call_immediates_agree() {
    run_file(
        "tests/kernels/call_immediates.ptx",
        "imm_args",
        [1, 1, 1],
        [1, 1, 1],
        vec![zeros32(8)],
    );
}

#[test]
fn generic_addressing_through_one_device_function_agrees() {
    // generic_ptrs(g, out): one CTA of 32 threads; sums through generic pointers into global,
    // shared and local memory in one .func, and a generic atom on a shared counter.
    let g = int_edges(40, 0x6e6e_0001);
    run_file(
        "tests/kernels/generic_addressing.ptx",
        "generic_ptrs",
        [1, 1, 1],
        [32, 1, 1],
        vec![u32s(&g), zeros32(8 * 32)],
    );
}

/// Histograms with `atom.shared` (NVIDIA's LDSLK/STSUL loop), merged with `atom.global` and
/// `red.global`; the bin counts are checked against a count done here.
#[test]
fn shared_atomic_histograms_agree_and_count_right() {
    let data: Vec<u8> = (0..3000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let bytes = buffer(exec::ElemType::U8, &data, |x: u8| vec![x]);
    let path = "tests/kernels/histogram.ptx";
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    for kernel in ["histogram", "histogram_global"] {
        let out = run_both(
            path,
            &text,
            &spec(
                kernel,
                4,
                128,
                vec![bytes.clone(), value_u32(3000), zeros32(256)],
            ),
        );
        let mut want = vec![0xdead_beefu32; 256];
        for &b in &data {
            want[usize::from(b)] = want[usize::from(b)].wrapping_add(1);
        }
        assert_eq!(words(&out[1]), want, "{kernel}");
    }
    // tests/run/histogram.ptx: 64 bins of u32 data.
    let vals = int_edges(2048, 0x4157_0001);
    run_file(
        "tests/run/histogram.ptx",
        "histogram",
        [4, 1, 1],
        [128, 1, 1],
        vec![u32s(&vals), zeros32(64), value_u32(2048)],
    );
}

#[test]
fn register_indexed_shared_array_agrees_with_the_meaning() {
    // idx64(out): out[2t] = 3 (t ^ 1), out[2t + 1] = 4 (t + 1).
    let path = "tests/kernels/array_index_64.ptx";
    let text = std::fs::read_to_string(format!("../../{path}")).expect(path);
    let out = run_both(path, &text, &spec("idx64", 1, 32, vec![zeros32(64)]));
    let want: Vec<u32> = (0..32u32)
        .flat_map(|t| [3 * (t ^ 1), 4 * (t + 1)])
        .collect();
    assert_eq!(words(&out[0]), want);
}
