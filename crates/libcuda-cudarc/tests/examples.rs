//! cudarc's examples (01 allocate, 02 copy, 03 launch-kernel, 04 streams, 05 device-repr,
//! 06 threading, 09 constant-memory, 10 function-attributes) on ptxvm's `libcuda.so`, unmodified except that
//! kernels cudarc compiles with nvrtc are given as PTX (nvrtc is NVIDIA's compiler, not part
//! of the driver) and each example's printing became assertions.
//!
//! cudarc `dlopen`s `libcuda.so` by name, which the dynamic loader resolves through
//! `LD_LIBRARY_PATH` read at process start; so each test re-runs this test binary as a child
//! with `LD_LIBRARY_PATH` naming a directory holding the library built with this test, and
//! the child runs the example.

// cudarc marks kernel launches, uninitialised allocations and `DeviceRepr` as `unsafe` (it
// cannot check a kernel's signature); these examples use them as cudarc's own examples do,
// with arguments that match each kernel's parameters.
#![allow(unsafe_code)]

use cudarc::driver::{CudaContext, DeviceRepr, DriverError, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use std::path::{Path, PathBuf};
use std::process::Command;

const CHILD: &str = "PTXVM_CUDARC_CHILD";

fn built_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps directory");
    [deps, deps.parent().unwrap_or(deps)]
        .iter()
        .map(|d| d.join("libcuda.so"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("libcuda.so not found next to {}", exe.display()))
}

/// Run example `name` in a child process that loads ptxvm's libcuda.so.
fn run_child(name: &str) {
    let dir = std::env::temp_dir().join(format!("ptxvm-cudarc-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    std::fs::copy(built_library(), dir.join("libcuda.so")).expect("copy libcuda.so");
    std::fs::copy(built_library(), dir.join("libcuda.so.1")).expect("copy libcuda.so.1");
    let out = Command::new(std::env::current_exe().expect("test executable"))
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, name)
        .env("LD_LIBRARY_PATH", &dir)
        .output()
        .expect("run the child");
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "example {name} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A test that runs `$body` (returning `Result<(), DriverError>`) in the child.
macro_rules! example {
    ($name:ident, $body:block) => {
        #[test]
        fn $name() {
            if std::env::var(CHILD).as_deref() == Ok(stringify!($name)) {
                let r: Result<(), DriverError> = (|| $body)();
                r.expect("driver call failed");
            } else {
                run_child(stringify!($name));
            }
        }
    };
}

fn sin_ptx() -> Ptx {
    Ptx::from_file(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sin.ptx"))
}

/// `f32::sin` within the accuracy CUDA's `sinf` guarantees (2 ulp).
fn assert_sin(got: &[f32], inputs: &[f32]) {
    for (&g, &x) in got.iter().zip(inputs) {
        let want = x.sin();
        assert!(
            (g - want).abs() <= 2.0 * f32::EPSILON * want.abs().max(f32::MIN_POSITIVE),
            "sin({x}) = {g}, want {want}"
        );
    }
}

example!(example_01_allocate, {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let _ = unsafe { stream.alloc::<f32>(10) }?;
    let zeros = stream.alloc_zeros::<f64>(10)?;
    assert_eq!(stream.clone_dtoh(&zeros)?, [0.0; 10]);
    let a = stream.clone_htod(&[0usize; 10])?;
    let b = stream.clone_htod(&[1u32, 2, 3])?;
    assert_eq!(stream.clone_dtoh(&a)?, [0usize; 10]);
    assert_eq!(stream.clone_dtoh(&b)?, [1, 2, 3]);
    Ok(())
});

example!(example_02_copy, {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let a = stream.alloc_zeros::<f64>(10)?;
    let mut b = stream.alloc_zeros::<f64>(10)?;
    stream.memcpy_dtod(&a, &mut b)?;
    stream.memcpy_htod(&vec![2.0; b.len()], &mut b)?;
    stream.memcpy_htod(&[3.0; 10], &mut b)?;
    let mut a_host: Vec<f64> = stream.clone_dtoh(&a)?;
    assert_eq!(a_host, [0.0; 10]);
    let b_host = stream.clone_dtoh(&b)?;
    assert_eq!(b_host, [3.0; 10]);
    stream.memcpy_dtoh(&b, &mut a_host)?;
    assert_eq!(a_host, b_host);
    Ok(())
});

example!(example_03_launch_kernel, {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let module = ctx.load_module(sin_ptx())?;
    let f = module.load_function("sin_kernel")?;
    let a_host = [1.0f32, 2.0, 3.0];
    let a_dev = stream.clone_htod(&a_host)?;
    let mut b_dev = a_dev.clone();
    let n = 3i32;
    let mut launch_args = stream.launch_builder(&f);
    launch_args.arg(&mut b_dev);
    launch_args.arg(&a_dev);
    launch_args.arg(&n);
    unsafe { launch_args.launch(LaunchConfig::for_num_elems(n as u32)) }?;
    assert_eq!(&a_host, stream.clone_dtoh(&a_dev)?.as_slice());
    assert_sin(&stream.clone_dtoh(&b_dev)?, &a_host);
    Ok(())
});

example!(example_04_streams, {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let module = ctx.load_module(sin_ptx())?;
    let f = module.load_function("sin_kernel")?;
    let n = 3i32;
    let a_host = [1.0f32, 2.0, 3.0];
    let a_dev = stream.clone_htod(&a_host)?;
    let mut b_dev = stream.alloc_zeros::<f32>(n as usize)?;
    // A second stream, ordered after the first by an event (cudarc records and waits).
    let stream2 = stream.fork()?;
    let mut builder = stream2.launch_builder(&f);
    builder.arg(&mut b_dev);
    builder.arg(&a_dev);
    builder.arg(&n);
    unsafe { builder.launch(LaunchConfig::for_num_elems(n as u32)) }?;
    assert_eq!(&a_host, stream.clone_dtoh(&a_dev)?.as_slice());
    assert_sin(&stream.clone_dtoh(&b_dev)?, &a_host);
    Ok(())
});

/// The struct of cudarc's example 05, passed by value.
#[repr(C)]
struct MyCoolRustStruct {
    a: f32,
    b: f64,
    c: u32,
    d: usize,
}

unsafe impl DeviceRepr for MyCoolRustStruct {}

/// What nvcc makes of example 05's kernel, with its `assert`s as stores: it copies each
/// field of the by-value struct parameter to `out`.
const DEVICE_REPR_PTX: &str = "
.version 7.0
.target sm_80
.address_size 64
.visible .entry my_custom_kernel(.param .align 8 .b8 thing[32], .param .u64 out)
{
    .reg .f32 %f1;
    .reg .f64 %fd1;
    .reg .u32 %r1;
    .reg .u64 %rd<3>;
    ld.param.f32 %f1, [thing];
    ld.param.f64 %fd1, [thing+8];
    ld.param.u32 %r1, [thing+16];
    ld.param.u64 %rd1, [thing+24];
    ld.param.u64 %rd2, [out];
    st.global.f32 [%rd2], %f1;
    st.global.f64 [%rd2+8], %fd1;
    st.global.u32 [%rd2+16], %r1;
    st.global.u64 [%rd2+24], %rd1;
    ret;
}
";

example!(example_05_device_repr, {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let module = ctx.load_module(Ptx::from_src(DEVICE_REPR_PTX))?;
    let f = module.load_function("my_custom_kernel")?;
    let thing = MyCoolRustStruct {
        a: 1.0,
        b: 2.34,
        c: 57,
        d: 420,
    };
    let mut out = stream.alloc_zeros::<u64>(4)?;
    let mut builder = stream.launch_builder(&f);
    builder.arg(&thing);
    builder.arg(&mut out);
    unsafe { builder.launch(LaunchConfig::for_num_elems(1)) }?;
    let words = stream.clone_dtoh(&out)?;
    assert_eq!(f32::from_bits(words[0] as u32), thing.a);
    assert_eq!(f64::from_bits(words[1]), thing.b);
    assert_eq!(words[2] as u32, thing.c);
    assert_eq!(words[3] as usize, thing.d);
    Ok(())
});

example!(example_06_threading, {
    let inputs = [0.5f32, 1.5, 2.5];
    // One context and module shared by ten threads ...
    std::thread::scope(|s| -> Result<(), DriverError> {
        let ctx = CudaContext::new(0)?;
        let module = ctx.load_module(sin_ptx())?;
        let handles: Vec<_> = (0..10)
            .map(|_| {
                let (ctx, module) = (ctx.clone(), module.clone());
                s.spawn(move || -> Result<Vec<f32>, DriverError> {
                    let stream = ctx.default_stream();
                    let f = module.load_function("sin_kernel")?;
                    let a = stream.clone_htod(&inputs)?;
                    let mut b = stream.alloc_zeros::<f32>(3)?;
                    unsafe {
                        stream
                            .launch_builder(&f)
                            .arg(&mut b)
                            .arg(&a)
                            .arg(&3i32)
                            .launch(LaunchConfig::for_num_elems(3))
                    }?;
                    stream.clone_dtoh(&b)
                })
            })
            .collect();
        for h in handles {
            assert_sin(&h.join().expect("thread")?, &inputs);
        }
        Ok(())
    })?;
    // ... and ten threads with a context each.
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..10)
            .map(|_| {
                s.spawn(move || -> Result<Vec<f32>, DriverError> {
                    let ctx = CudaContext::new(0)?;
                    let module = ctx.load_module(sin_ptx())?;
                    let stream = ctx.default_stream();
                    let f = module.load_function("sin_kernel")?;
                    let a = stream.clone_htod(&inputs)?;
                    let mut b = stream.alloc_zeros::<f32>(3)?;
                    unsafe {
                        stream
                            .launch_builder(&f)
                            .arg(&mut b)
                            .arg(&a)
                            .arg(&3i32)
                            .launch(LaunchConfig::for_num_elems(3))
                    }?;
                    stream.clone_dtoh(&b)
                })
            })
            .collect();
        for h in handles {
            assert_sin(&h.join().expect("thread")?, &inputs);
        }
        Ok(())
    })
});

example!(example_09_constant_memory, {
    let ctx = CudaContext::new(0)?;
    let stream = ctx.default_stream();
    let module = ctx.load_module(Ptx::from_file(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/constant_memory.ptx"),
    ))?;
    let mut coefficients_symbol = module.get_global("coefficients", &stream)?;
    assert_eq!(coefficients_symbol.len(), 16);
    let coefficients = [1.0f32, 2.0, 3.0, 4.0];
    let mut symbol_view = coefficients_symbol.as_view_mut();
    let mut symbol_f32 = unsafe { symbol_view.transmute_mut::<f32>(4).expect("16 bytes") };
    stream.memcpy_htod(&coefficients, &mut symbol_f32)?;
    let polynomial_kernel = module.load_function("polynomial_kernel")?;
    let input = vec![0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0];
    let n = input.len();
    let input_dev = stream.clone_htod(&input)?;
    let mut output_dev = stream.alloc_zeros::<f32>(n)?;
    unsafe {
        stream
            .launch_builder(&polynomial_kernel)
            .arg(&mut output_dev)
            .arg(&input_dev)
            .arg(&(n as i32))
            .launch(LaunchConfig::for_num_elems(n as u32))
    }?;
    let output = stream.clone_dtoh(&output_dev)?;
    for (&x, &y) in input.iter().zip(&output) {
        let want = coefficients[0]
            + coefficients[1] * x
            + coefficients[2] * x * x
            + coefficients[3] * x * x * x;
        assert!((y - want).abs() < 1e-4, "f({x}) = {y}, want {want}");
    }
    Ok(())
});

example!(example_10_function_attributes, {
    let ctx = CudaContext::new(0)?;
    assert!(ctx.name()?.contains("ptxvm"));
    let module = ctx.load_module(sin_ptx())?;
    let sin_kernel = module.load_function("sin_kernel")?;
    assert!(sin_kernel.num_regs()? > 0);
    assert_eq!(sin_kernel.shared_size_bytes()?, 0);
    // The kernel's `.local .b8 __local_depot0[28]`.
    assert!(sin_kernel.local_size_bytes()? >= 28);
    assert_eq!(sin_kernel.max_threads_per_block()?, 1024);
    assert_eq!(sin_kernel.ptx_version()?, 73); // `.version 7.3`
    extern "C" fn no_dynamic_smem(_block_size: std::ffi::c_int) -> usize {
        0
    }
    let (min_grid_size, block_size) =
        sin_kernel.occupancy_max_potential_block_size(no_dynamic_smem, 0, 0, None)?;
    assert!(block_size > 0 && block_size <= 1024 && min_grid_size > 0);
    Ok(())
});
