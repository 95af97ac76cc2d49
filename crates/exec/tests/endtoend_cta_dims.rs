//! PTX 1.1 constant CTA dimensions (`.entry name [NTID.1][NTID.0]`, ptx-isa-1.1 Table 68): a
//! launch whose block differs in a declared (non-zero) dimension is refused with a launch error
//! (exit code 2) naming the field; empty brackets accept any size.

mod endtoend_common;
use endtoend_common::*;
use exec::ExecError;

#[test]
fn launch_with_the_declared_shape_runs() {
    let out = run_all_threads(
        "cta_dims_ptx11.ptx",
        "tile_ids",
        &cfg([1, 1, 1], [16, 4, 1]),
        &[zbuf::<u32>(64)],
    );
    let got: Vec<u32> = decode(&out[0]);
    let want: Vec<u32> = (0..64u32).map(|i| ((i / 16) << 8) | (i % 16)).collect();
    assert_eq!(got, want);
    for width in [1u32, 7, 33] {
        let out = run_all_threads(
            "cta_dims_ptx11.ptx",
            "any_width",
            &cfg([1, 1, 1], [width, 2, 1]),
            &[zbuf::<u32>(2 * width as usize)],
        );
        let got: Vec<u32> = decode(&out[0]);
        let want: Vec<u32> = (0..2 * width).map(|i| i % width + i / width).collect();
        assert_eq!(got, want, "width {width}");
    }
}

#[test]
fn launch_with_another_shape_is_refused_naming_the_field() {
    for (kernel, block, field) in [
        ("tile_ids", [32, 2, 1], "block.x is 32"),
        ("tile_ids", [16, 2, 1], "block.y is 2"),
        ("tile_ids", [16, 4, 2], "block.z is 2"),
        ("any_width", [64, 1, 1], "block.y is 1"),
    ] {
        let err = run_once(
            "cta_dims_ptx11.ptx",
            kernel,
            &cfg([1, 1, 1], block),
            &[zbuf::<u32>(128)],
            1,
        )
        .expect_err("the declared CTA dimensions must be enforced");
        assert!(matches!(err, ExecError::Launch(_)), "{kernel}: {err}");
        assert_eq!(err.exit_code(), 2);
        let msg = err.to_string();
        assert!(msg.contains(field) && msg.contains(kernel), "{msg}");
    }
}
