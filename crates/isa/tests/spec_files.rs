//! Cross-checks the table against the PTX files under `tests/spec-examples` (every spec
//! example must match a form that the file's `.target`/`.version` allow, with a fitting number
//! of operands) and `tests/spec-reject` (every line marked `// error` must be refused by the
//! table, its gate, or its operand count — or be an operand-type error, left to the checker).

use std::path::{Path, PathBuf};

use isa::{match_all, match_form, PtxVersion};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn ptx_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "ptx") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

struct Insn {
    line: usize,
    opcode: String,
    mods: Vec<String>,
    operands: usize,
    error: bool,
}

fn split_mods(head: &str) -> (String, Vec<String>) {
    let (op, rest) = head.split_once('.').unwrap_or((head, ""));
    let mut mods: Vec<String> = Vec::new();
    for part in rest.split('.').filter(|p| !p.is_empty()) {
        match mods.last_mut() {
            Some(last) if last.ends_with(':') || part.starts_with(':') => {
                last.push('.');
                last.push_str(part);
            }
            _ => mods.push(format!(".{part}")),
        }
    }
    (op.to_string(), mods)
}

fn count_operands(ops: &str) -> usize {
    let (mut depth, mut n, mut any) = (0i32, 0usize, false);
    for c in ops.chars() {
        match c {
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' => depth -= 1,
            ',' if depth == 0 => n += 1,
            c if !c.is_whitespace() => any = true,
            _ => {}
        }
    }
    if any {
        n + 1
    } else {
        0
    }
}

/// Instructions of a file (those inside `.entry`/`.func` bodies), and its target and version.
/// A file's `.target`: the architecture number and its `a`/`f` suffix.
type Target = (u32, Option<char>);

fn read(path: &Path) -> (Target, PtxVersion, Vec<Insn>) {
    let text = std::fs::read_to_string(path).unwrap();
    let (mut sm, mut ver, mut out, mut depth) =
        ((0, None), PtxVersion::new(0, 0), Vec::new(), 0i32);
    for (i, raw) in text.lines().enumerate() {
        let error = raw.contains("// error");
        let line = raw.split("//").next().unwrap().trim();
        if let Some(v) = line.strip_prefix(".version ") {
            let (a, b) = v.trim().split_once('.').unwrap();
            ver = PtxVersion::new(a.parse().unwrap(), b.parse().unwrap());
        } else if let Some(t) = line.strip_prefix(".target sm_") {
            let digits: String = t.chars().take_while(char::is_ascii_digit).collect();
            let suffix = t[digits.len()..]
                .chars()
                .next()
                .filter(|c| matches!(c, 'a' | 'f'));
            sm = (digits.parse().unwrap(), suffix);
        }
        if line == "{" || line.ends_with('{') && !line.starts_with('.') {
            depth += 1;
            continue;
        }
        if line == "}" {
            depth -= 1;
            continue;
        }
        if depth == 0 || line.is_empty() || line.starts_with('.') || line.ends_with(':') {
            continue;
        }
        let mut body = line.trim_end_matches(';').trim();
        if let Some((label, rest)) = body.split_once(':') {
            if !label.contains(char::is_whitespace) && !rest.starts_with(':') {
                body = rest.trim(); // `start:  mov.b32 …`
            }
        }
        if body.starts_with('.') {
            continue; // `pt: .callprototype …`
        }
        if let Some(g) = body.strip_prefix('@') {
            body = g.split_once(char::is_whitespace).unwrap().1.trim();
        }
        let (head, ops) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        let (opcode, mods) = split_mods(head);
        out.push(Insn {
            line: i + 1,
            opcode,
            mods,
            operands: count_operands(ops),
            error,
        });
    }
    (sm, ver, out)
}

/// Whether some matching form is allowed on the target and takes that many operands.
fn accepted(insn: &Insn, (sm, suffix): Target, ver: PtxVersion) -> Result<(), String> {
    let mods: Vec<&str> = insn.mods.iter().map(String::as_str).collect();
    if let Err(e) = match_form(&insn.opcode, &mods) {
        return Err(e.message);
    }
    let mut why = String::from("no form takes that many operands");
    for m in match_all(&insn.opcode, &mods) {
        let n = insn.operands;
        if n < m.form.required_operands() || n > m.form.operands.len() {
            continue;
        }
        match m.check_gate_target(sm, suffix, ver) {
            Ok(()) => return Ok(()),
            Err(e) => why = e.to_string(),
        }
    }
    Err(why)
}

#[test]
fn every_spec_example_matches_a_form_its_file_allows() {
    let files = ptx_files(&root().join("tests/spec-examples"));
    assert!(files.len() > 80, "only {} files", files.len());
    let mut n = 0;
    for f in files {
        let (sm, ver, insns) = read(&f);
        for insn in insns {
            n += 1;
            if let Err(e) = accepted(&insn, sm, ver) {
                panic!(
                    "{}:{}: {}{}: {e}",
                    f.display(),
                    insn.line,
                    insn.opcode,
                    insn.mods.concat()
                );
            }
        }
    }
    assert!(n > 150, "only {n} instructions");
}

/// Lines whose error is an operand's type or kind (register vs immediate vs address), which
/// only the checker, knowing declarations, can see.
const CHECKER_ONLY_ERRORS: &[&str] = &[
    "add.u16x2 %r1, %r2, 1;",
    "add.s32 %r1, %rd2, %r3;",
    "add.f32 %f1, %s1, %f3;",
    "shl.b32 %r1, %r2, %h1;",
    "setp.eq.s32 %r1, %r2, %r3;",
    "ld.global.u32 %r1, %rd1;",
    "lop3.b32 %r1, %r2, %r3, %r4, %r5;",
    "ld.global.f16 %h1, [%rd1];",
    "vmin4.s32.u32.u32.add  r1.b00, u2.b0000, u3.b2222, r1;",
    "add.f32x2 %fd1, %rd2, %rd3;",
    "add.f32x2 %rd1, %rd2, 3;",
    "mbarrier.arrive.shared.b64 %r2, [%r1];",
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 8, [%r2];",
    "ld.global.v8.f32 {%f1, %f2, %f3, %f4}, [%rd1];",
    "mov.v4.f32 %vf1, %vf2.wzyx;",
    "mov.v2.u32 %vu1, %vu2.yx;",
    "mov.v2.u32 %vu1, %v1;",
    "mov.v4.u32 %vf1, %vf2;",
    "mov.v4.u16 %v1, %w1;",
    "mov.u16 %h1, %v1;",
    "call (%vu1), f, (%r1);",
    "call (%vf1), f, (%vu2);",
    "call (%vu1), f, (%r1, %r2);",
    "call (%vu1), f, (%vu2.x);",
    "call (%vu1), %rd1, (%vu2, %vu2), pt;",
    "call (%vu1), %rd1, (%r1, %r2), pt;",
    "cvt.rn.satfinite.e4m3x2.f32 %r1, %f1, %f2;",
    "cvt.rn.satfinite.e5m2x2.f32 %rd1, %f1, %f2;",
    "cvt.rn.satfinite.e4m3x2.f32 %us1, %f1, %f2;",
    "cvt.rn.satfinite.e4m3x2.f16x2 %h1, %u1;",
    "cvt.rn.satfinite.e4m3x2.f16x2 %r1, %r2;",
    "cvt.rn.f16x2.e4m3x2 %r1, %r2;",
    "cvt.rn.f16x2.e5m2x2 %rd1, %h1;",
    "cvt.rn.f16x2.e5m2x2 %u1, %h1;",
    "mbarrier.arrive.shared.b64 _, [%r1];",
    "mbarrier.arrive.noComplete.shared.b64 _, [%r1], 2;",
    "mma.sync.aligned.m16n8k16.row.col.f16.e4m3.e4m3.f16 {%r1, %r2}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%r7, %r8};",
    // Four accumulators where m64n16k16 into .f32 has eight: the vector's length.
    "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%f0, %f1, %f2, %f3}, %rd1, %rd2, %p1, 1, 1, 0, 0;",    // tcgen05: register counts, immediates and operand widths, and the scale-input-d gate,
    // which belongs to the row the operands choose.
    "tcgen05.mma.cta_group::1.kind::tf32 [%r1], [%r3], %rd2, %r2, %p1, 1;",
    "tcgen05.ld.sync.aligned.32x32b.x4.b32 {%r10, %r11}, [%r1];",
    "tcgen05.ld.sync.aligned.16x128b.x1.b32 {%r10}, [%r1];",
    "tcgen05.ld.sync.aligned.32x32b.x1.b32 %r10, [%r1];",
    "tcgen05.st.sync.aligned.32x32b.x1.b32 [%r1], %r10;",
    "tcgen05.ld.sync.aligned.16x32bx2.x2.b32 {%r10, %r11}, [%r1], %r3;",
    "tcgen05.ld.sync.aligned.16x64b.x2.b32 {%r10, %r11}, [%r1], 4;",
    "tcgen05.cp.cta_group::1.128x256b [%r1], %r2;",
    "tcgen05.mma.cta_group::2.kind::f16 [%r1], %rd1, %rd2, %r2, {%r4, %r5, %r6, %r7}, %p1;",
    "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, {%r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11}, %p1;",
    "tcgen05.mma.cta_group::1.kind::f8f6f4 [%r1], %rd1, %rd2, %r2, %p1, 3;",
    "tcgen05.mma.cta_group::1.kind::tf32 [%r1], %rd1, %rd2, %r2, %p1, %r5;",
    "tcgen05.mma.cta_group::1.kind::f16.ashift [%r1], %rd1, %rd2, %r2, %p1;",
    "tcgen05.mma.ws.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, {%r4, %r5, %r6, %r7}, %p1;",
    "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%r1], %rd1, %rd2, %r2, [%r3], [%r4], {%r4, %r5, %r6, %r7}, %p1;",
    "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %rd3, %p1;",
    "tcgen05.mma.cta_group::1.kind::f16 [%r1], %r1, %rd2, %r3, %p1;",
    "tcgen05.mma.sp.cta_group::1.kind::i8 [%r1], %rd1, %rd2, [%r6], %r2, {%r4, %r5, %r6, %r7}, %p1, 3;",
    "tcgen05.mma.sp.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;",
    // Bulk tensor copies: coordinate and offset counts, operand widths, and the state of an
    // arrive on a `.shared::cluster` object.
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1], 64, [%r2], %r6;",
    "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1, {%r2, %r4}], [%r3], %r6;",
    "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r4, %r5, %r6}], [%r3], {%h1};",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r4, %r5}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%rd2, %rd3}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%r1], [%rd1, {%r2, %r4}], [%r3], %r6;",
    "mbarrier.arrive.shared::cluster.b64 %rd1, [%r1];",
    "cp.async.bulk.tensor.4d.shared::cluster.global.im2col::w::128.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r4, %r5, %r6}], [%r3], {%h1};",
    // wgmma on .b1: immediates it does not take, and the accumulator count.
    "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc {%r10, %r11, %r12, %r13}, %rd1, %rd2, %p1, 1, 1;",
    "wgmma.mma_async.sync.aligned.m64n16k256.s32.b1.b1.and.popc {%r10, %r11, %r12, %r13}, %rd1, %rd2, %p1;",
    // tcgen05: tensor-memory addresses that are not 32-bit registers, scale-input-d past 15.
    "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r10, %r11}, [%rd1];",
    "tcgen05.ld.sync.aligned.32x32b.x2.b32 {%r10, %r11}, [64];",
    "tcgen05.st.sync.aligned.32x32b.x2.b32 [%rd1], {%r10, %r11};",
    "tcgen05.cp.cta_group::1.128x256b [%rd2], %rd1;",
    "tcgen05.shift.cta_group::1.down [%rd1];",
    "tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1, 16;",
    "tcgen05.mma.cta_group::1.kind::f16 [%rd1], %rd1, %rd2, %r2, %p1;",
    "tcgen05.mma.cta_group::1.kind::f16 [%r1], [%rd3], %rd2, %r2, %p1;",
    "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale [%r1], %rd1, %rd2, %r2, [%rd3], [%r4], %p1;",
    "tcgen05.mma.sp.cta_group::1.kind::f16 [%r1], %rd1, %rd2, [%rd3], %r2, %p1;",
    // Operand checks (tensor maps, the packed minifloat cvt registers), not table rows.
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%r5, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%u1, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%s1, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%h1, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%c1, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%f1, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [cmap, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [kmap, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [smap, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [lmap, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%r5, {%r2, %r4, %r6}], [%r3], {%h1};",
    "cp.async.bulk.prefetch.tensor.1d.L2.global [cmap, {%r1}];",
    "cp.async.bulk.prefetch.tensor.1d.L2.global [%rd1+8, {%r1}];",
    "cp.async.bulk.prefetch.tensor.1d.L2.global [%r5-16, {%r1}];",
    "cp.async.bulk.prefetch.tensor.1d.L2.global [gmap+0x40, {%r1}];",
    "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1+8, {%r2, %r4}], [%r3];",
    "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group [kmap, {%r1}], [%r2];",
    "cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [smap, {%r1}], [%r2];",
    "cvt.rn.satfinite.e2m1x2.f32 %h1, %f1, %f2;",
    "cvt.rn.satfinite.e2m1x2.f32 %r1, %f1, %f2;",
    "cvt.rn.satfinite.relu.e2m1x2.f32 %rd1, %f1, %f2;",
    "cvt.rn.satfinite.e2m1x2.f32 %uc1, %f1, %f2;",
    "cvt.rn.satfinite.e2m1x2.f32 %sc1, %f1, %f2;",
    "cvt.rn.f16x2.e2m1x2 %r1, %h1;",
    "cvt.rn.relu.f16x2.e2m1x2 %r1, %r2;",
    "cvt.rn.f16x2.e2m1x2 %r1, %rd1;",
    "cvt.rn.f16x2.e2m1x2 %r1, %uc1;",
    "cvt.rn.f16x2.e2m1x2 %u1, %c1;",
    "cvt.rn.f16x2.e2m1x2 %rd1, %c1;",
    "cvt.rn.satfinite.e2m3x2.f32 %uh1, %f1, %f2;",
    "cvt.rn.satfinite.e3m2x2.f32 %r1, %f1, %f2;",
    "cvt.rn.f16x2.e2m3x2 %r1, %r2;",
    "cvt.rn.f16x2.e2m3x2 %r1, %uh1;",
    "cvt.rn.f16x2.e3m2x2 %u1, %h1;",
    "cvt.rz.satfinite.ue8m0x2.f32 %r1, %f1, %f2;",
    "cvt.rz.satfinite.ue8m0x2.f32 %uh1, %f1, %f2;",
    "cvt.rn.bf16x2.ue8m0x2 %r1, %r2;",
    "cvt.rn.bf16x2.ue8m0x2 %rd1, %h1;",
    "cvt.rz.ue8m0x2.bf16x2 %h1, %rd1;",
    // Call target lists: the list's members, the table's initializer and where the list is
    // declared are the checker's (tests/spec-reject/call-targets.ptx).
    "call (rv), %r0, (x), Good;",
    "call (rv), %r0, (x, y), Mixed;",
    "call (rv), %r0, (x, y), holey;",
    "call (rv), %r0, (x, y), withvar;",
    "call (rv), %r0, (x, y), scalar;",
    "call (rv), %r0, (x, y), square;",
    "call (rv), %r0, (x, y), empty;",
    "call (rv), %r0, (x, y), mixed;",
    "call (rv), %r0, (x, y), Missing;",
    "call (rv), %r0, (x, y), Later;",
    "call (rv), %r0, (x, y), L1;",
    "call (rv), %r0, (x, y), zeroed;",
    "call (rv), %r0, (x, y), Inner;",
    // Labels and lists are scoped by `{ }` block (tests/spec-reject/block-scoped-labels.ptx).
    "@%p1 bra Inside;",
    "@%p1 bra Twice;",
    "@%p1 bra Sibling;",
    "brx.idx %r2, Tlist;",
];

#[test]
fn every_reject_line_is_refused() {
    let files = ptx_files(&root().join("tests/spec-reject"));
    assert!(!files.is_empty());
    let (mut refused, mut accepted_ok) = (0, 0);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let (sm, ver, insns) = read(&f);
        for insn in insns {
            let src = text.lines().nth(insn.line - 1).unwrap();
            let src = src.split("//").next().unwrap().trim();
            let r = accepted(&insn, sm, ver);
            if !insn.error {
                assert!(
                    r.is_ok(),
                    "{}:{}: valid line refused: {r:?}",
                    f.display(),
                    insn.line
                );
                accepted_ok += 1;
            } else if CHECKER_ONLY_ERRORS.contains(&src) {
                continue;
            } else {
                assert!(
                    r.is_err(),
                    "{}:{}: `{src}` accepted",
                    f.display(),
                    insn.line
                );
                refused += 1;
            }
        }
    }
    assert!(
        refused > 40 && accepted_ok > 5,
        "{refused} refused, {accepted_ok} accepted"
    );
}
