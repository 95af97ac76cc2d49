//! An indirect call no function can answer (no `.func` of its counts in the module, or a
//! target list of declarations only): the PTX executor faults on whatever pointer it is
//! given, and the translation traps (`BPT.TRAP`) where the call is, so both executors fault
//! when a lane reaches it and agree on every value when none does.

use crate::common::*;

/// `reach` lanes (those with `tid < reach`) call through `fp`; with `flist`, through a
/// target list naming a declared-only function.
fn kernel(flist: bool) -> String {
    let (decl, call) = if flist {
        (
            ".extern .func (.param .b32 r) ext (.param .b32 a);\n",
            "tl : .calltargets ext;\n\tcall (r), %rd1, (a), tl;",
        )
    } else {
        ("", "call (r), %rd1, (a), pr;")
    };
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n{decl}\
         .visible .entry k(.param .u64 out, .param .u64 fp, .param .u32 reach)\n{{\n\
         \t.reg .u32 %r<4>;\n\t.reg .u64 %rd<4>;\n\t.reg .pred %p;\n\
         \tld.param.u64 %rd2, [out];\n\tld.param.u64 %rd1, [fp];\n\
         \tld.param.u32 %r2, [reach];\n\tmov.u32 %r1, %tid.x;\n\
         \tmul.wide.u32 %rd3, %r1, 4;\n\tadd.u64 %rd2, %rd2, %rd3;\n\
         \tsetp.ge.u32 %p, %r1, %r2;\n\t@%p bra SKIP;\n\
         \t{{\n\t.param .b32 a;\n\t.param .b32 r;\n\tst.param.b32 [a], %r1;\n\
         \tpr : .callprototype (.param .b32 _) _ (.param .b32 _);\n\
         \t{call}\n\tld.param.b32 %r3, [r];\n\tst.global.u32 [%rd2], %r3;\n\t}}\n\
         SKIP:\n\tadd.u32 %r1, %r1, 100;\n\tst.global.u32 [%rd2+256], %r1;\n\tret;\n}}\n"
    )
}

#[test]
fn a_call_no_function_answers_faults_on_both_executors_where_it_runs() {
    for flist in [false, true] {
        let text = kernel(flist);
        let threads = 64u32;
        let launch = |reach: u32, ptr: u64| {
            spec(
                "k",
                1,
                threads,
                vec![
                    zeros32(128),
                    exec::ParamSpec::Value {
                        ty: exec::ElemType::U64,
                        bytes: ptr.to_le_bytes().to_vec(),
                    },
                    value_u32(reach),
                ],
            )
        };
        // No lane reaches the call: both run to the end and agree with tid + 100.
        let out = run_both("wild.ptx", &text, &launch(0, 0x1234));
        let w = words(&out[0]);
        for t in 0..threads as usize {
            assert_eq!(w[64 + t], t as u32 + 100, "flist {flist}: thread {t}");
            assert_eq!(
                w[t], 0xdead_beef,
                "flist {flist}: thread {t} called nothing"
            );
        }
        // One lane reaches it, with a null or an arbitrary pointer: both executors fault.
        let (m, file, cubin) = compile("wild.ptx", &text);
        for ptr in [0u64, 0x1234, u64::MAX] {
            let s = launch(1, ptr);
            let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
            assert!(
                ptx.is_err(),
                "flist {flist}, {ptr:#x}: the PTX executor must fault"
            );
            match fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default()) {
                Err(e) => assert!(format!("{e:?}").contains("Trap"), "{ptr:#x}: {e:?}"),
                Ok(_) => panic!("flist {flist}, {ptr:#x}: the Fermi executor must trap"),
            }
        }
    }
}
