//! `brkpt` (`BPT.INT 0x0`) and `pmevent` (`PMEVENT` with the event's bit, or the `.mask`)
//! translate, and with no debugger or performance monitor attached both executors run past
//! them: the stores around them land as the kernel says (ptx-isa-1.1 Table 61; PTX ISA
//! §9.7.19.3: `pmevent a` raises event `a` (0–15), `pmevent.mask` the events of the mask).

mod common;
use common::*;

const TEXT: &str = ".version 7.0\n.target sm_20\n.address_size 64\n\
.visible .entry k(.param .u64 out)\n{\n\t.reg .pred %p;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n\
\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd1, %rd1, %rd2;\n\
\tsetp.lt.u32 %p, %r1, 7;\n\tbrkpt;\n\tpmevent 3;\n\t@%p brkpt;\n\tpmevent.mask 0x5;\n\
\tmul.lo.u32 %r2, %r1, 3;\n\t@%p pmevent 15;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";

#[test]
fn breakpoints_and_performance_events_run_through_on_both_executors() {
    let out = run_both("k.ptx", TEXT, &spec("k", 1, 64, vec![zeros32(64)]));
    let want: Vec<u32> = (0..64).map(|t| 3 * t).collect();
    assert_eq!(words(&out[0]), want);
    let (_, _, cubin) = compile("k.ptx", TEXT);
    let listing: Vec<String> = disassembly(&cubin.kernels[0]);
    let has = |t: &str| listing.iter().any(|l| l.contains(t));
    assert!(has("BPT.INT 0x0;"), "{listing:#?}");
    assert!(has("PMEVENT 0x8;") && has("PMEVENT 0x5;"), "{listing:#?}");
    assert!(has("PMEVENT 0x8000;"), "{listing:#?}");
}
