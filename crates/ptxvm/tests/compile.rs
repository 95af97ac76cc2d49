//! `ptxvm compile`: argument spellings, the -v report, --sass, warnings, errors, and running
//! the produced cubin with `ptxvm run`.

mod common;
use common::{ptxvm, scratch_dir};

use std::process::Output;

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn every_arch_spelling_writes_the_same_cubin() {
    let dir = scratch_dir("compile");
    let mut outputs = Vec::new();
    for (i, spelling) in [
        vec!["-arch=sm_20"],
        vec!["-arch", "sm_20"],
        vec!["--arch", "sm_20"],
        vec!["--arch=sm_20"],
    ]
    .into_iter()
    .enumerate()
    {
        let out = dir.join(format!("va{i}.cubin"));
        let mut args = vec!["compile", "examples/vector_add.ptx"];
        args.extend(spelling);
        args.extend(["-o", out.to_str().unwrap()]);
        let o = ptxvm(&args);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        outputs.push(std::fs::read(&out).unwrap());
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
    let module = fermi::cubin::read_cubin(&outputs[0]).unwrap();
    assert_eq!(module.kernels.len(), 1);
}

#[test]
fn verbose_prints_ptxas_report_and_the_cubin_matches_it() {
    let out = scratch_dir("compile").join("report.cubin");
    let o = ptxvm(&[
        "compile",
        "examples/vector_add.ptx",
        "-arch=sm_20",
        "-v",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let m = fermi::cubin::read_cubin(&std::fs::read(&out).unwrap()).unwrap();
    let k = &m.kernels[0];
    // Parameters a, b, c (.u64) and n (.u32): 28 bytes after the 0x20 bytes of launch values.
    assert_eq!(k.param_size, 28);
    let expect = format!(
        "ptxas info    : Compiling entry function 'vector_add' for 'sm_20'\n\
         ptxas info    : Function properties for vector_add\n    \
         0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
         ptxas info    : Used {} registers, 0 bytes smem, 60 bytes cmem[0]\n",
        k.reg_count
    );
    assert_eq!(text(&o.stdout), expect);
}

#[test]
fn sass_lists_what_was_written_and_target_above_sm_20_warns() {
    let out = scratch_dir("compile").join("sass.cubin");
    let o = ptxvm(&[
        "compile",
        "tests/kernels/vector_add.ptx",
        "--sass",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let listing = text(&o.stdout);
    let m = fermi::cubin::read_cubin(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(listing, fermi::listing::print_module_listing(&m));
    for name in ["vector_add", "vector_add_u64", "axpy_f64"] {
        assert!(
            listing.contains(&format!("Function : {name}\n")),
            "{listing}"
        );
    }
    assert!(
        text(&o.stderr).contains("warning: the module targets sm_70"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn untranslatable_instruction_is_a_located_error_and_no_output() {
    let dir = scratch_dir("compile");
    let out = dir.join("never.cubin");
    let o = ptxvm(&[
        "compile",
        "tests/kernels/texture_objects.ptx",
        "-arch=sm_20",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = text(&o.stderr);
    assert!(
        e.contains(
            "tests/kernels/texture_objects.ptx:39:2: error: cannot translate `tex.2d.v4.u32.s32"
        ),
        "{e}"
    );
    assert!(!out.exists());
}

#[test]
fn bad_arguments_are_usage_errors() {
    for args in [
        vec!["compile", "examples/vector_add.ptx", "-arch=sm_30"],
        vec!["compile"],
        vec!["compile", "examples/vector_add.ptx", "--bogus"],
        vec!["compile", "examples/vector_add.ptx", "-o"],
    ] {
        let o = ptxvm(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
    }
    let o = ptxvm(&["compile", "no/such/file.ptx"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_compiled_example_runs_with_ptxvm_run_like_the_ptx() {
    let out = scratch_dir("compile").join("run.cubin");
    let o = ptxvm(&[
        "compile",
        "examples/vector_add.ptx",
        "-arch",
        "sm_20",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let ptx = ptxvm(&[
        "run",
        "examples/vector_add.ptx",
        "--launch",
        "examples/vector_add.json",
        "--json",
    ]);
    let sass = ptxvm(&[
        "run",
        out.to_str().unwrap(),
        "--launch",
        "examples/vector_add.json",
        "--json",
    ]);
    assert_eq!(ptx.status.code(), Some(0), "{}", text(&ptx.stderr));
    assert_eq!(sass.status.code(), Some(0), "{}", text(&sass.stderr));
    let buffers = |o: &Output| {
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["buffers"].clone()
    };
    assert_eq!(buffers(&ptx), buffers(&sass));
}
