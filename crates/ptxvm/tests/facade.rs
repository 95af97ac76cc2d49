//! The library facade: typed buffers round-trip, typed errors for bad PTX, faults and
//! misuse, and a kernel's result checked against a computation written here.

use ptxvm::{Dim3, Error, Gpu};

const SCALE: &str = r#"
.version 6.0
.target sm_60
.address_size 64
.visible .entry scale(.param .u64 x, .param .f64 k, .param .u32 n)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .f64 %fd<4>;
    .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    ld.param.u32 %r2, [n];
    setp.ge.u32 %p1, %r1, %r2;
    @%p1 bra DONE;
    ld.param.u64 %rd1, [x];
    mul.wide.u32 %rd2, %r1, 8;
    add.u64 %rd3, %rd1, %rd2;
    ld.global.f64 %fd1, [%rd3];
    ld.param.f64 %fd2, [k];
    mul.f64 %fd3, %fd1, %fd2;
    st.global.f64 [%rd3], %fd3; // STORE
DONE:
    ret;
}
"#;

#[test]
fn a_kernel_runs_on_typed_buffers_and_arguments() {
    let mut gpu = Gpu::new();
    let m = gpu.load_ptx("scale.ptx", SCALE).unwrap();
    assert_eq!(m.kernels(), vec!["scale".to_string()]);
    let xs: Vec<f64> = (0..40).map(|i| i as f64 - 20.5).collect();
    let buf = gpu.upload(&xs).unwrap();
    let stats = gpu
        .launch(
            &m,
            "scale",
            Dim3::x(1),
            Dim3::x(64),
            &[&buf, &-2.5f64, &40u32],
        )
        .unwrap();
    assert_eq!(stats.ctas, 1);
    let got: Vec<f64> = gpu.read(&buf).unwrap();
    let want: Vec<f64> = xs.iter().map(|x| x * -2.5).collect();
    assert_eq!(got, want);
}

#[test]
fn buffers_of_every_width_round_trip() {
    let mut gpu = Gpu::new();
    let a = gpu.upload(&[-1i8, 2, -3]).unwrap();
    assert_eq!(gpu.read(&a).unwrap(), vec![-1i8, 2, -3]);
    let b = gpu.upload(&[-30000i16, 7]).unwrap();
    assert_eq!(gpu.read(&b).unwrap(), vec![-30000i16, 7]);
    let c = gpu.alloc::<u64>(3).unwrap();
    assert_eq!(gpu.read(&c).unwrap(), vec![0u64; 3]);
    gpu.write(&c, &[u64::MAX, 1]).unwrap();
    assert_eq!(gpu.read(&c).unwrap(), vec![u64::MAX, 1, 0]);
    assert!(matches!(gpu.write(&c, &[0; 4]), Err(Error::Launch(_))));
}

#[test]
fn invalid_ptx_is_a_check_error_with_rendered_diagnostics() {
    let mut gpu = Gpu::new();
    let bad = SCALE.replace("mul.f64", "mul.f65");
    match gpu.load_ptx("bad.ptx", &bad) {
        Err(Error::Check {
            diagnostics,
            rendered,
        }) => {
            assert!(!diagnostics.is_empty());
            assert!(rendered.contains("bad.ptx:"), "{rendered}");
        }
        other => panic!("expected a check error, got {other:?}"),
    }
    assert!(matches!(
        gpu.load_file("/nonexistent/k.ptx"),
        Err(Error::Io { .. })
    ));
}

#[test]
fn a_fault_is_a_typed_error_naming_thread_and_line() {
    let mut gpu = Gpu::new();
    let m = gpu.load_ptx("scale.ptx", SCALE).unwrap();
    let buf = gpu.alloc::<f64>(8).unwrap();
    // n = 9 lets thread 8 touch the element past the end.
    let e = gpu
        .launch(
            &m,
            "scale",
            Dim3::x(1),
            Dim3::x(32),
            &[&buf, &1.0f64, &9u32],
        )
        .unwrap_err();
    let Error::Fault(f) = e else {
        panic!("expected a fault, got {e:?}")
    };
    assert_eq!(f.tid, [8, 0, 0]);
    let line = SCALE
        .lines()
        .position(|l| l.contains("ld.global.f64"))
        .unwrap() as u32
        + 1;
    assert_eq!(f.line, line);
}

#[test]
fn misuse_is_a_launch_error() {
    let mut gpu = Gpu::new();
    let mut other = Gpu::new();
    let m = gpu.load_ptx("scale.ptx", SCALE).unwrap();
    let foreign = other.alloc::<f64>(4).unwrap();
    let e = gpu.launch(
        &m,
        "scale",
        Dim3::x(1),
        Dim3::x(1),
        &[&foreign, &1.0f64, &4u32],
    );
    assert!(matches!(e, Err(Error::Launch(_))), "{e:?}");
    let buf = gpu.alloc::<f64>(4).unwrap();
    // A u16 where the kernel wants a .u32.
    let e = gpu.launch(&m, "scale", Dim3::x(1), Dim3::x(1), &[&buf, &1.0f64, &4u16]);
    assert!(matches!(e, Err(Error::Launch(_))), "{e:?}");
    let e = gpu.launch(&m, "nope", Dim3::x(1), Dim3::x(1), &[]);
    assert!(matches!(e, Err(Error::Launch(_))), "{e:?}");
    assert!(other.read(&buf).is_err());
}

#[test]
fn the_readme_example_runs_the_vector_add_example() {
    let mut gpu = Gpu::new();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/vector_add.ptx");
    let module = gpu.load_file(path).unwrap();
    let a = gpu.upload(&[1.0f32, 2.0, 3.0]).unwrap();
    let b = gpu.upload(&[10.0f32, 20.0, 30.0]).unwrap();
    let c = gpu.alloc::<f32>(3).unwrap();
    gpu.launch(
        &module,
        "vector_add",
        Dim3::x(1),
        Dim3::x(32),
        &[&a, &b, &c, &3u32],
    )
    .unwrap();
    assert_eq!(gpu.read(&c).unwrap(), vec![11.0, 22.0, 33.0]);
}
