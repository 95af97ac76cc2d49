//! Per-form tests of `ldmatrix` (`.x1/.x2/.x4`, with and without `.trans`), `stmatrix`,
//! `movmatrix`, `cp.async` with a zero-filling `src-size`, and `elect.sync`, with expected
//! values written from the PTX ISA 8.x text (§9.7.14.5.15–17, §9.7.9.25.3.1, §9.7.13.14):
//! of each 8x8 matrix, a thread holds row `laneid / 4`, columns `2 * (laneid % 4)` (low
//! half) and `+ 1` (high half); the rows of matrix `i` are at the addresses threads
//! `8i .. 8i + 7` give.

mod common;
use common::*;
use exec::Arg;

const HEAD: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

/// Shared memory holds four 8x8 matrices of 16-bit elements: lane l writes row l (matrix
/// l / 8, row l % 8) as the values 8l .. 8l + 7, so element (i, r, c) = 64i + 8r + c. Then
/// every lane passes the address of its row to the instruction under test (`body`, which
/// leaves results in %r1..%r4), and the results are stored at out[4 lane + k].
fn kernel(body: &str, n: usize) -> String {
    let mut fill = String::new();
    for c in 0..8 {
        fill.push_str(&format!(
            "\tadd.s32 %r20, %r11, {c};\n\tst.shared.u16 [%r12+{}], %r20;\n",
            2 * c
        ));
    }
    let stores: String = (0..n)
        .map(|k| format!("\tst.global.u32 [%rd2+{}], %r{};\n", 4 * k, k + 1))
        .collect();
    format!(
        "{HEAD}.visible .entry k(.param .u64 out)\n{{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<24>;\n\
         \t.reg .b64 %rd<4>;\n\t.shared .align 16 .b16 m[256];\n\
         \tld.param.u64 %rd1, [out];\n\tmov.u32 %r10, %tid.x;\n\tshl.b32 %r11, %r10, 3;\n\
         \tmov.u32 %r12, m;\n\tshl.b32 %r13, %r10, 4;\n\tadd.s32 %r12, %r12, %r13;\n\
         {fill}\tbar.warp.sync -1;\n{body}\n\
         \tmul.wide.u32 %rd3, %r10, 16;\n\tadd.s64 %rd2, %rd1, %rd3;\n{stores}\tret;\n}}\n"
    )
}

fn run(body: &str, n: usize) -> Vec<u32> {
    let (mut dev, m) = load("matrix_forms.ptx", &kernel(body, n));
    let out = upload_u32(&mut dev, &[0u32; 128]);
    launch(&dev, &m, "k", &cfg([1, 1, 1], [32, 1, 1]), &[Arg::ptr(out)]).unwrap();
    read_u32(&dev, out, 128)
}

/// Element (i, r, c) as the kernel stored it.
fn elem(i: u32, r: u32, c: u32) -> u32 {
    64 * i + 8 * r + c
}

#[test]
fn ldmatrix_every_count_with_and_without_trans() {
    for n in [1usize, 2, 4] {
        for trans in [false, true] {
            let regs: Vec<String> = (1..=n).map(|k| format!("%r{k}")).collect();
            let body = format!(
                "\tldmatrix.sync.aligned.m8n8.x{n}{}.shared.b16 {{{}}}, [%r12];",
                if trans { ".trans" } else { "" },
                regs.join(", ")
            );
            let got = run(&body, n);
            for lane in 0..32u32 {
                let (row, col) = (lane / 4, 2 * (lane % 4));
                for i in 0..n as u32 {
                    // `.trans`: "the matrix is loaded in column-major format": the thread's
                    // elements are those of the transpose, (col, row) and (col + 1, row).
                    let (lo, hi) = if trans {
                        (elem(i, col, row), elem(i, col + 1, row))
                    } else {
                        (elem(i, row, col), elem(i, row, col + 1))
                    };
                    assert_eq!(
                        got[(4 * lane + i) as usize],
                        lo | hi << 16,
                        "x{n} trans={trans} lane {lane} register {i}"
                    );
                }
            }
        }
    }
}

#[test]
fn stmatrix_writes_back_what_ldmatrix_read_and_movmatrix_transposes() {
    // Load matrices 0 and 1, store them transposed over matrices 2 and 3, reload those: the
    // store and the reload pass each lane's row address plus 256 bytes (two matrices), so
    // lanes 0..7 address matrix 2 and lanes 8..15 matrix 3.
    let body = "\tldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1, %r2}, [%r12];\n\
                \tstmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r12+256], {%r1, %r2};\n\
                \tbar.warp.sync -1;\n\
                \tldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r3, %r4}, [%r12+256];\n\
                \tmovmatrix.sync.aligned.m8n8.trans.b16 %r2, %r1;";
    let got = run(body, 4);
    for lane in 0..32u32 {
        let (row, col) = (lane / 4, 2 * (lane % 4));
        let at = |k: u32| got[(4 * lane + k) as usize];
        assert_eq!(at(0), elem(0, row, col) | elem(0, row, col + 1) << 16);
        // Matrices 2 and 3 now hold the transposes of 0 and 1.
        assert_eq!(
            at(2),
            elem(0, col, row) | elem(0, col + 1, row) << 16,
            "lane {lane}"
        );
        assert_eq!(
            at(3),
            elem(1, col, row) | elem(1, col + 1, row) << 16,
            "lane {lane}"
        );
        // movmatrix of matrix 0's fragment is the transpose's fragment.
        assert_eq!(
            at(1),
            elem(0, col, row) | elem(0, col + 1, row) << 16,
            "lane {lane}"
        );
    }
}

#[test]
fn cp_async_zero_fills_from_src_size_and_elect_picks_the_lowest_lane() {
    let text = format!(
        "{HEAD}.visible .entry k(.param .u64 src, .param .u64 out)\n{{\n\
         \t.reg .pred %p<3>;\n\t.reg .b32 %r<12>;\n\t.reg .b64 %rd<4>;\n\
         \t.shared .align 16 .b8 t[16];\n\
         \tld.param.u64 %rd1, [src];\n\tld.param.u64 %rd2, [out];\n\
         \tmov.u32 %r1, t;\n\tmov.u32 %r2, %tid.x;\n\
         \tsetp.eq.u32 %p1, %r2, 0;\n\
         \t@%p1 cp.async.cg.shared.global [%r1], [%rd1], 16, 3;\n\
         \tcp.async.commit_group;\n\tcp.async.wait_group 0;\n\tbar.sync 0;\n\
         \tld.shared.v4.b32 {{%r4, %r5, %r6, %r7}}, [%r1];\n\
         \telect.sync %r8|%p2, 0xffffffff;\n\tselp.u32 %r9, 1, 0, %p2;\n\
         \tand.b32 %r10, %r2, 1;\n\tsetp.eq.u32 %p1, %r10, 1;\n\
         \t@%p1 elect.sync %r11|%p2, 0xaaaaaaaa;\n\
         \tmul.wide.u32 %rd3, %r2, 32;\n\tadd.s64 %rd2, %rd2, %rd3;\n\
         \tst.global.v4.b32 [%rd2], {{%r4, %r5, %r6, %r7}};\n\
         \tst.global.v2.b32 [%rd2+16], {{%r8, %r9}};\n\
         \t@%p1 st.global.b32 [%rd2+24], %r11;\n\tret;\n}}\n"
    );
    let (mut dev, m) = load("cp_elect.ptx", &text);
    let src = upload_u32(
        &mut dev,
        &[0x4433_2211, 0x8877_6655, 0xccbb_aa99, 0x00ff_eedd],
    );
    let out = upload_u32(&mut dev, &[0xdead_beef; 32 * 8]);
    launch(
        &dev,
        &m,
        "k",
        &cfg([1, 1, 1], [32, 1, 1]),
        &[Arg::ptr(src), Arg::ptr(out)],
    )
    .unwrap();
    let got = read_u32(&dev, out, 32 * 8);
    for lane in 0..32usize {
        let o = &got[8 * lane..8 * lane + 8];
        // src-size 3: bytes 0..3 copied, bytes 3..16 zeros.
        assert_eq!(&o[0..4], &[0x0033_2211, 0, 0, 0], "lane {lane}");
        // Full membermask: lane 0 leads; every lane gets its id in d.
        assert_eq!(o[4], 0, "lane {lane}");
        assert_eq!(o[5], u32::from(lane == 0), "lane {lane}");
        // Odd lanes with membermask 0xaaaaaaaa: lane 1 leads.
        let want = if lane % 2 == 1 { 1 } else { 0xdead_beef };
        assert_eq!(o[6], want, "lane {lane}");
    }
}
