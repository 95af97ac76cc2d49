//! Indirect calls (`call (r), %rd, (args), proto;`): the translator compares the pointer
//! with each candidate's address (`FUNC_ADDR_BASE + 16·id`, the PTX executor's values) and
//! `CAL`s the match under an `SSY`, so lanes of one warp calling different functions
//! reconverge. Run on both executors bit for bit and checked against the kernels' meaning
//! written here: the corpus's device-function kernels, a kernel whose lanes pick their
//! function from a table in global memory (in a loop, and from inside a `.func`), pointers
//! from the host with a ballot right after the call (the whole warp: the lanes have
//! reconverged), 32-bit pointers, a wild pointer (it faults on both) and the refusals.

mod common;
use common::*;

/// The address the PTX executor gives function `name` (docs/spec-notes.md: function `id`,
/// its position in the module, is at 0xF000_0000 + 16·id), computed here from the module.
fn func_address(m: &ir::Module, name: &str) -> u64 {
    let id = m
        .functions
        .iter()
        .position(|f| f.name == name)
        .unwrap_or_else(|| panic!("no function {name}"));
    0xF000_0000 + 16 * id as u64
}

#[test]
fn corpus_device_calls_agree_with_the_meaning() {
    let text = std::fs::read_to_string("../../tests/corpus/device_calls.ptx")
        .expect("tests/corpus/device_calls.ptx");
    let n = 64u32;
    // indirect_kernel(out, sel): every entry of op_table is square_u32.
    for sel in [0u32, 1, 2, 3] {
        let out = run_both(
            "device_calls.ptx",
            &text,
            &spec(
                "indirect_kernel",
                1,
                n,
                vec![zeros32(n as usize), value_u32(sel)],
            ),
        );
        let want: Vec<u32> = (0..n).map(|t| t.wrapping_mul(t)).collect();
        assert_eq!(words(&out[0]), want, "sel {sel}");
    }
    // fib_kernel(out, n): thread t < n writes fib(t).
    fn fib(k: u32) -> u32 {
        if k < 2 {
            k
        } else {
            fib(k - 1) + fib(k - 2)
        }
    }
    let out = run_both(
        "device_calls.ptx",
        &text,
        &spec("fib_kernel", 1, 32, vec![zeros32(32), value_u32(12)]),
    );
    let got = words(&out[0]);
    for t in 0..32u32 {
        let want = if t < 12 { fib(t) } else { 0xdead_beef };
        assert_eq!(got[t as usize], want, "fib thread {t}");
    }
    // minmax_kernel(in, out, len): thread t's 16 words in, their (min, max) out.
    let (threads, len) = (32usize, 13u32);
    let input: Vec<u32> = (0..threads * 16)
        .map(|i| (i as u32).wrapping_mul(0x9e37_79b9).rotate_left(7) ^ 0x8000_0123)
        .collect();
    let out = run_both(
        "device_calls.ptx",
        &text,
        &spec(
            "minmax_kernel",
            1,
            threads as u32,
            vec![u32s(&input), zeros32(2 * threads), value_u32(len)],
        ),
    );
    let got = words(&out[1]);
    for t in 0..threads {
        let row = &input[16 * t..16 * t + len as usize];
        let min = row.iter().map(|&v| v as i32).min().unwrap_or(0) as u32;
        let max = row.iter().map(|&v| v as i32).max().unwrap_or(0) as u32;
        assert_eq!(&got[2 * t..2 * t + 2], &[min, max], "minmax thread {t}");
    }
}

const TABLE: &str = "
.version 7.0
.target sm_20
.address_size 64

.func (.param .b32 r) add_seven(.param .b32 a)
{
  .reg .b32 %x;
  ld.param.u32 %x, [a];
  add.u32 %x, %x, 7;
  st.param.u32 [r], %x;
  ret;
}
.func (.param .b32 r) times_three(.param .b32 a)
{
  .reg .b32 %x;
  ld.param.u32 %x, [a];
  mul.lo.u32 %x, %x, 3;
  st.param.u32 [r], %x;
  ret;
}
.func (.param .b32 r) xor_mask(.param .b32 a)
{
  .reg .b32 %x;
  .reg .pred %p;
  ld.param.u32 %x, [a];
  setp.lt.u32 %p, %x, 40;
  @%p bra SMALL;
  xor.b32 %x, %x, 0x5a5a;
  st.param.u32 [r], %x;
  ret;
SMALL:
  sub.u32 %x, 1000, %x;
  st.param.u32 [r], %x;
  ret;
}
// Same signature, address never taken: not a candidate of any indirect call.
.func (.param .b32 r) unused_same_shape(.param .b32 a)
{
  .reg .b32 %x;
  ld.param.u32 %x, [a];
  st.param.u32 [r], %x;
  ret;
}
// Same counts, another parameter size, address taken below: not a candidate of the calls
// through `proto` (a candidate with another argument block would be refused).
.func (.param .b32 r) wide_arg(.param .b64 a)
{
  .reg .b64 %y;
  .reg .b32 %x;
  ld.param.u64 %y, [a];
  cvt.u32.u64 %x, %y;
  st.param.u32 [r], %x;
  ret;
}
// Calls through the pointer it is given, twice: a dispatch inside a .func.
.func (.param .b32 r) apply_twice(.param .b64 fp, .param .b32 a)
{
  .reg .b32 %x;
  .reg .b64 %f;
  ld.param.u64 %f, [fp];
  ld.param.u32 %x, [a];
  {
    .param .b32 p0;
    .param .b32 r0;
    st.param.b32 [p0], %x;
    proto_in : .callprototype (.param .b32 _) _ (.param .b32 _);
    call (r0), %f, (p0), proto_in;
    ld.param.b32 %x, [r0];
  }
  {
    .param .b32 p0;
    .param .b32 r0;
    st.param.b32 [p0], %x;
    call (r0), %f, (p0), proto_in;
    ld.param.b32 %x, [r0];
  }
  st.param.u32 [r], %x;
  ret;
}

.global .align 8 .u64 table[3] = {add_seven, times_three, xor_mask};

// out[4t..4t+4] = { table[t%3](t), sum over i<4 of table[(t+i)%3](t+i),
//                   apply_twice(table[(t/3)%3], t), table[t%3] as stored }
// addrs[0..5] = { mov.u64 of add_seven, times_three, xor_mask, apply_twice, wide_arg }
.visible .entry pick(.param .u64 pout, .param .u64 paddrs)
{
  .reg .pred %p<3>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [pout];
  ld.param.u64 %rd2, [paddrs];
  mov.u32 %r1, %tid.x;
  mov.u64 %rd3, table;

  rem.u32 %r2, %r1, 3;
  mul.wide.u32 %rd4, %r2, 8;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.u64 %rd6, [%rd5];
  {
    .param .b32 p0;
    .param .b32 r0;
    st.param.b32 [p0], %r1;
    proto : .callprototype (.param .b32 _) _ (.param .b32 _);
    call (r0), %rd6, (p0), proto;
    ld.param.b32 %r3, [r0];
  }

  mov.u32 %r4, 0;
  mov.u32 %r5, 0;
LOOP:
  add.u32 %r6, %r1, %r4;
  rem.u32 %r7, %r6, 3;
  mul.wide.u32 %rd7, %r7, 8;
  add.s64 %rd8, %rd3, %rd7;
  ld.global.u64 %rd9, [%rd8];
  {
    .param .b32 p0;
    .param .b32 r0;
    st.param.b32 [p0], %r6;
    call (r0), %rd9, (p0), proto;
    ld.param.b32 %r8, [r0];
  }
  add.u32 %r5, %r5, %r8;
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p1, %r4, 4;
  @%p1 bra LOOP;

  div.u32 %r9, %r1, 3;
  rem.u32 %r9, %r9, 3;
  mul.wide.u32 %rd10, %r9, 8;
  add.s64 %rd11, %rd3, %rd10;
  ld.global.u64 %rd12, [%rd11];
  {
    .param .b64 p0;
    .param .b32 p1;
    .param .b32 r0;
    st.param.b64 [p0], %rd12;
    st.param.b32 [p1], %r1;
    call (r0), apply_twice, (p0, p1);
    ld.param.b32 %r10, [r0];
  }

  mul.wide.u32 %rd13, %r1, 16;
  add.s64 %rd14, %rd1, %rd13;
  st.global.v2.u32 [%rd14], {%r3, %r5};
  st.global.u32 [%rd14+8], %r10;
  cvt.u32.u64 %r11, %rd6;
  st.global.u32 [%rd14+12], %r11;

  setp.ne.u32 %p2, %r1, 0;
  @%p2 bra DONE;
  mov.u64 %rd15, add_seven;
  st.global.u64 [%rd2], %rd15;
  mov.u64 %rd15, times_three;
  st.global.u64 [%rd2+8], %rd15;
  mov.u64 %rd15, xor_mask;
  st.global.u64 [%rd2+16], %rd15;
  mov.u64 %rd15, apply_twice;
  st.global.u64 [%rd2+24], %rd15;
  mov.u64 %rd15, wide_arg;
  st.global.u64 [%rd2+32], %rd15;
DONE:
  ret;
}

// Calls the pointer it is given for each thread: a pointer to no candidate is a wild call.
// out[2t] = the result, out[2t+1] = the ballot of every lane right after the call (the
// whole warp once its lanes have reconverged).
.visible .entry given(.param .u64 pout, .param .u64 pptrs)
{
  .reg .pred %p1;
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pout];
  ld.param.u64 %rd2, [pptrs];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.u64 %rd5, [%rd4];
  {
    .param .b32 p0;
    .param .b32 r0;
    st.param.b32 [p0], %r1;
    proto_g : .callprototype (.param .b32 _) _ (.param .b32 _);
    call (r0), %rd5, (p0), proto_g;
    ld.param.b32 %r2, [r0];
  }
  setp.eq.u32 %p1, %r1, %r1;
  vote.ballot.b32 %r3, %p1;
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd7, %rd1, %rd6;
  st.global.v2.u32 [%rd7], {%r2, %r3};
  ret;
}
// A guarded indirect call: odd lanes call table[(t/2)%3](t), even lanes keep t.
.visible .entry guarded(.param .u64 pout)
{
  .reg .pred %p1;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [pout];
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 1;
  rem.u32 %r2, %r2, 3;
  mul.wide.u32 %rd2, %r2, 8;
  mov.u64 %rd3, table;
  add.s64 %rd4, %rd3, %rd2;
  ld.global.u64 %rd5, [%rd4];
  and.b32 %r3, %r1, 1;
  setp.ne.u32 %p1, %r3, 0;
  mov.u32 %r4, %r1;
  {
    .param .b32 p0;
    .param .b32 r0;
    st.param.b32 [p0], %r1;
    st.param.b32 [r0], %r1;
    proto_h : .callprototype (.param .b32 _) _ (.param .b32 _);
    @%p1 call (r0), %rd5, (p0), proto_h;
    ld.param.b32 %r4, [r0];
  }
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd1, %rd6;
  st.global.u32 [%rd7], %r4;
  ret;
}
";

fn add_seven(a: u32) -> u32 {
    a.wrapping_add(7)
}
fn times_three(a: u32) -> u32 {
    a.wrapping_mul(3)
}
fn xor_mask(a: u32) -> u32 {
    if a < 40 {
        1000u32.wrapping_sub(a)
    } else {
        a ^ 0x5a5a
    }
}
const FUNCS: [fn(u32) -> u32; 3] = [add_seven, times_three, xor_mask];

#[test]
fn lanes_of_one_warp_call_different_functions_from_a_table() {
    let (m, _) = checked("table.ptx", TABLE);
    let addrs: Vec<u64> = [
        "add_seven",
        "times_three",
        "xor_mask",
        "apply_twice",
        "wide_arg",
    ]
    .iter()
    .map(|n| func_address(&m, n))
    .collect();
    let n = 96u32;
    let out = run_both(
        "table.ptx",
        TABLE,
        &spec(
            "pick",
            1,
            n,
            vec![zeros32(4 * n as usize), u64s(&[0xdead_beef; 5])],
        ),
    );
    let got = words(&out[0]);
    for t in 0..n {
        let once = FUNCS[(t % 3) as usize](t);
        let looped = (0..4).fold(0u32, |s, i| {
            s.wrapping_add(FUNCS[((t + i) % 3) as usize](t + i))
        });
        let g = FUNCS[((t / 3) % 3) as usize];
        let twice = g(g(t));
        let stored = addrs[(t % 3) as usize] as u32;
        let at = 4 * t as usize;
        assert_eq!(
            &got[at..at + 4],
            &[once, looped, twice, stored],
            "thread {t}"
        );
    }
    let stored: Vec<u64> = words64(&out[1]);
    assert_eq!(stored, addrs, "mov.u64 of a function gives its address");
}

#[test]
fn pointers_given_by_the_host_call_their_functions_and_a_wild_one_faults() {
    let (m, file, cubin) = compile("table.ptx", TABLE);
    let names = ["add_seven", "times_three", "xor_mask"];
    let n = 64usize;
    // Each lane its own pattern: runs of one function, then alternation within the warp.
    let pick = |t: usize| {
        if t < 16 {
            t / 6 % 3
        } else {
            (t * 7 + t / 5) % 3
        }
    };
    let ptrs: Vec<u64> = (0..n).map(|t| func_address(&m, names[pick(t)])).collect();
    let out = run_both(
        "table.ptx",
        TABLE,
        &spec("given", 1, n as u32, vec![zeros32(2 * n), u64s(&ptrs)]),
    );
    let got = words(&out[0]);
    for t in 0..n {
        let want = [FUNCS[pick(t)](t as u32), u32::MAX];
        assert_eq!(&got[2 * t..2 * t + 2], &want, "thread {t}");
    }
    // One lane's pointer is not a candidate: a function whose address the module never
    // takes, an address between two functions, a null pointer, one past 32 bits.
    let unused = func_address(&m, "unused_same_shape");
    let first = func_address(&m, "add_seven");
    let wide = func_address(&m, "wide_arg");
    for bad in [unused, wide, first + 8, 0, first + (1 << 32)] {
        let mut p = ptrs.clone();
        p[37] = bad;
        let s = spec("given", 1, n as u32, vec![zeros32(2 * n), u64s(&p)]);
        let sass = fermi_exec::run_module(&cubin, &s, &fermi_exec::Options::default());
        match sass {
            Err(e) => assert!(format!("{e:?}").contains("Trap"), "{bad:#x}: {e:?}"),
            Ok(_) => panic!("{bad:#x}: the Fermi executor must trap on a wild call"),
        }
        // The PTX executor takes any .func of the call's counts as a target (unused_same_shape,
        // wide_arg); only pointers to no function are faults there.
        if bad != unused && bad != wide {
            let ptx = exec::run(&m, &file, &s, &exec::RunOptions::default());
            assert!(ptx.is_err(), "{bad:#x}: the PTX executor must fault");
        }
    }
}

#[test]
fn a_guarded_indirect_call_agrees() {
    let n = 64u32;
    let out = run_both(
        "table.ptx",
        TABLE,
        &spec("guarded", 1, n, vec![zeros32(n as usize)]),
    );
    let got = words(&out[0]);
    for t in 0..n {
        let want = if t % 2 == 1 {
            FUNCS[((t / 2) % 3) as usize](t)
        } else {
            t
        };
        assert_eq!(got[t as usize], want, "thread {t}");
    }
}

fn refusal(text: &str) -> String {
    let file = diag::SourceFile::new("k.ptx", text);
    let (m, d) = check::check_source(&file);
    assert!(!diag::has_errors(&d), "{}", diag::render(&file, &d));
    match codegen::compile_module(&m.expect("a module"), &file) {
        Ok(_) => panic!("the translator must refuse this module"),
        Err(errs) => diag::render(&file, &errs),
    }
}

/// A kernel calling through the pointer in its parameter with prototype `proto`, after `funcs`.
fn caller(funcs: &str, proto: &str) -> String {
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n{funcs}\n\
         .visible .entry k(.param .u64 pf)\n{{\n\t.reg .b64 %rd<2>;\n\
         \tld.param.u64 %rd1, [pf];\n\t{{\n\t.param .b32 a;\n\t.param .b32 r;\n\
         \tst.param.b32 [a], 1;\n\tpr : .callprototype {proto};\n\
         \tcall (r), %rd1, (a), pr;\n\t}}\n\tret;\n}}\n"
    )
}

#[test]
fn candidates_with_different_argument_blocks_are_refused_at_the_call() {
    // Both take 8 bytes and return 4, but the parameter's alignment moves its slot.
    let funcs = "
.func (.param .b32 r) a8(.param .align 8 .b8 a[8]) { st.param.u32 [r], 1; ret; }
.func (.param .b32 r) a4(.param .align 4 .b8 a[8]) { st.param.u32 [r], 2; ret; }
.global .align 8 .u64 t[2] = {a8, a4};";
    let shown = refusal(&caller(
        funcs,
        "(.param .b32 _) _ (.param .align 8 .b8 _[8])",
    ));
    assert!(
        shown.contains("k.ptx:17:2: error: the indirect call's candidates `a8` and `a4` have different argument blocks"),
        "{shown}"
    );
}

#[test]
fn an_indirect_call_with_no_candidate_is_refused_at_the_call() {
    // `f` has the call's counts but its address is never taken.
    let funcs = ".func (.param .b32 r) f(.param .b32 a) { st.param.u32 [r], 1; ret; }";
    let shown = refusal(&caller(funcs, "(.param .b32 _) _ (.param .b32 _)"));
    assert!(
        shown.contains("k.ptx:14:2: error: an indirect call with no candidate"),
        "{shown}"
    );
}

/// 32-bit code: 4-byte function pointers in a `.u32` table (each initializer slot written
/// with the function's address in place) and in a register (one compare per candidate).
const TABLE32: &str = "
.version 7.0
.target sm_20
.address_size 32
.func (.param .b32 r) add_seven(.param .b32 a)
{
  .reg .b32 %x;
  ld.param.u32 %x, [a];
  add.u32 %x, %x, 7;
  st.param.u32 [r], %x;
  ret;
}
.func (.param .b32 r) times_three(.param .b32 a)
{
  .reg .b32 %x;
  ld.param.u32 %x, [a];
  mul.lo.u32 %x, %x, 3;
  st.param.u32 [r], %x;
  ret;
}
.global .align 4 .u32 table[2] = {times_three, add_seven};
.visible .entry pick32(.param .u32 pout)
{
  .reg .b32 %r<12>;
  ld.param.u32 %r1, [pout];
  mov.u32 %r2, %tid.x;
  shr.u32 %r3, %r2, 1;
  and.b32 %r3, %r3, 1;
  shl.b32 %r4, %r3, 2;
  mov.u32 %r5, table;
  add.u32 %r6, %r5, %r4;
  ld.global.u32 %r7, [%r6];
  {
    .param .b32 p0;
    .param .b32 r0;
    st.param.b32 [p0], %r2;
    proto : .callprototype (.param .b32 _) _ (.param .b32 _);
    call (r0), %r7, (p0), proto;
    ld.param.b32 %r8, [r0];
  }
  shl.b32 %r9, %r2, 3;
  add.u32 %r10, %r1, %r9;
  st.global.u32 [%r10], %r8;
  st.global.u32 [%r10+4], %r7;
  ret;
}
";

#[test]
fn thirty_two_bit_function_pointers_agree() {
    let (m, _) = checked("table32.ptx", TABLE32);
    let addr = |name| func_address(&m, name) as u32;
    let n = 64u32;
    let out = run_both(
        "table32.ptx",
        TABLE32,
        &spec("pick32", 1, n, vec![zeros32(2 * n as usize)]),
    );
    let got = words(&out[0]);
    for t in 0..n {
        // table = {times_three, add_seven}, indexed by bit 1 of the thread index.
        let (f, name): (fn(u32) -> u32, _) = if (t >> 1) & 1 == 0 {
            (times_three, "times_three")
        } else {
            (add_seven, "add_seven")
        };
        let at = 2 * t as usize;
        assert_eq!(&got[at..at + 2], &[f(t), addr(name)], "thread {t}");
    }
}
