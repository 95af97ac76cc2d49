//! Driver-API overheads a test suite of small kernels pays: launching a one-CTA kernel, and
//! `cuModuleLoadData` of a 10 KB module, first load (text never seen) and cached (same text).
//! The functions are called through the crate's exported C functions, as a program would.

// The driver API is a C API: calling it takes `unsafe`, as in any client.
#![allow(unsafe_code)]

use criterion::{criterion_group, criterion_main, Criterion};
use cuda::api::*;
use cuda::consts::CUDA_SUCCESS;
use std::ffi::{c_void, CString};
use std::hint::black_box;

fn ok(r: u32) {
    assert_eq!(r, CUDA_SUCCESS, "driver call failed with {r}");
}

/// A 10 KB module: kernels that each scale a buffer by a different factor.
fn module_10k() -> String {
    let mut s = String::from(".version 7.0\n.target sm_80\n.address_size 64\n");
    let mut k = 0;
    while s.len() < 10_000 {
        s.push_str(&format!(
            ".visible .entry scale{k}(.param .u64 p, .param .u32 n)\n{{\n\
             \x20   .reg .u32 %r<6>;\n    .reg .u64 %rd<4>;\n    .reg .pred %q;\n\
             \x20   ld.param.u64 %rd1, [p];\n    ld.param.u32 %r1, [n];\n\
             \x20   mov.u32 %r2, %tid.x;\n    setp.ge.u32 %q, %r2, %r1;\n    @%q bra END;\n\
             \x20   mul.wide.u32 %rd2, %r2, 4;\n    add.u64 %rd3, %rd1, %rd2;\n\
             \x20   ld.global.u32 %r3, [%rd3];\n    mul.lo.u32 %r4, %r3, {k};\n\
             \x20   st.global.u32 [%rd3], %r4;\nEND:\n    ret;\n}}\n"
        ));
        k += 1;
    }
    s
}

fn setup() -> u64 {
    let mut ctx = 0;
    // SAFETY (of every call in this file): out-pointers are live locals, strings are
    // NUL-terminated CStrings that outlive the call.
    unsafe {
        ok(cuInit(0));
        ok(cuDevicePrimaryCtxRetain(&mut ctx, 0));
        ok(cuCtxSetCurrent(ctx));
    }
    ctx
}

/// CPU time of the calling thread, in seconds. On a shared machine the wall-clock figures
/// criterion reports include time the thread waited for a core; this does not.
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a live timespec the call fills in.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Run `f` `n` times and print its mean thread CPU time.
fn report_cpu_time(what: &str, n: u32, mut f: impl FnMut()) {
    let t0 = thread_cpu_seconds();
    for _ in 0..n {
        f();
    }
    let per = (thread_cpu_seconds() - t0) / f64::from(n);
    println!(
        "{what}: {:.1} us thread CPU time per call (mean of {n})",
        per * 1e6
    );
}

fn bench_launch(c: &mut Criterion) {
    setup();
    let ptx = CString::new(module_10k()).expect("no NUL in PTX");
    let (mut m, mut f, mut buf) = (0u64, 0u64, 0u64);
    let name = CString::new("scale3").expect("name");
    unsafe {
        ok(cuModuleLoadData(&mut m, ptx.as_ptr().cast()));
        ok(cuModuleGetFunction(&mut f, m, name.as_ptr()));
        ok(cuMemAlloc_v2(&mut buf, 4 * 128));
    }
    let mut n: u32 = 128;
    let mut launch = || {
        let mut params = [
            (&mut buf as *mut u64).cast::<c_void>(),
            (&mut n as *mut u32).cast::<c_void>(),
        ];
        unsafe {
            ok(cuLaunchKernel(
                f,
                1,
                1,
                1,
                128,
                1,
                1,
                0,
                0,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            ))
        };
    };
    report_cpu_time("launch_one_cta_128_threads", 5000, &mut launch);
    c.bench_function("launch_one_cta_128_threads", |b| b.iter(&mut launch));
}

fn bench_load(c: &mut Criterion) {
    setup();
    let text = module_10k();
    assert!(text.len() >= 10_000 && text.len() < 11_000);
    let cached = CString::new(text.clone()).expect("no NUL");
    let mut serial = 0u64;
    let mut first = || {
        // A comment makes each text new, so nothing is cached.
        serial += 1;
        let fresh = CString::new(format!("{text}// load {serial}\n")).expect("no NUL");
        let mut m = 0u64;
        unsafe {
            ok(cuModuleLoadData(&mut m, fresh.as_ptr().cast()));
            ok(cuModuleUnload(black_box(m)));
        }
    };
    report_cpu_time("module_load_10KB_first", 300, &mut first);
    c.bench_function("module_load_10KB_first", |b| b.iter(&mut first));
    let mut again = || {
        let mut m = 0u64;
        unsafe {
            ok(cuModuleLoadData(&mut m, cached.as_ptr().cast()));
            ok(cuModuleUnload(black_box(m)));
        }
    };
    report_cpu_time("module_load_10KB_cached", 5000, &mut again);
    c.bench_function("module_load_10KB_cached", |b| b.iter(&mut again));
}

criterion_group!(benches, bench_launch, bench_load);
criterion_main!(benches);
