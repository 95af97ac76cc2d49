//! No input may panic, hang or exhaust memory: every PTX file in the repository is mutated
//! many times (bytes replaced, deleted, duplicated; lines swapped; numbers made huge) with a
//! fixed-seed generator, and each mutant is parsed and checked. The test passes if nothing
//! panics; it also asserts that invalid mutants produce at least one error.

mod common;

use common::{ptx_files, repo_root};

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&str] = &[
    "%r1",
    "%rd1",
    "%p1",
    "%f1",
    "_",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ",",
    ";",
    ".u32",
    ".s64",
    ".f32",
    ".v4",
    ".b8",
    ".global",
    ".shared",
    ".param",
    ".const",
    ".reg",
    ".pred",
    ".sat",
    ".rn",
    ".wide",
    "0xffffffffffffffff",
    "-9223372036854775808",
    "99999999999999999999",
    "1e400",
    "0f7fc00000",
    ".b0",
    ".h10",
    ".b7654",
    "|",
    "!",
    "-",
    "@",
    "@!",
    ":",
    "L",
    "%tid.x",
    "%envreg99",
    ".x",
    "<",
    ">",
    "<100000000>",
    "[]",
    "[0]",
    "[-1]",
    ".align",
    "0",
    "1 << 63",
    "(.s8)",
    ".entry",
    ".func",
    ".version 9.9",
    ".target sm_1000",
    "call",
    "bra",
    "ld",
    "st",
    "mov",
    "cvt.rzi.s32.f32",
    "tex.2d.v4.f32.f32",
    "vmad.s32.s32.s32",
    ".callprototype",
    "generic(",
];

fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut s: Vec<u8> = src.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(s.len() + 1);
        match rng.below(6) {
            0 => {
                let end = (at + rng.below(16)).min(s.len());
                s.drain(at..end);
            }
            1 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                s.splice(at..at, t.bytes());
            }
            2 if at < s.len() => s[at] = b"%.;,[]{}()0x-|!@_ \n"[rng.below(19)],
            3 => {
                let end = (at + rng.below(200)).min(s.len());
                let chunk: Vec<u8> = s[at..end].to_vec();
                let to = rng.below(s.len() + 1);
                s.splice(to..to, chunk);
            }
            4 => {
                let t = TOKENS[rng.below(TOKENS.len())];
                let end = (at + rng.below(8)).min(s.len());
                s.splice(at..end, t.bytes());
            }
            _ => {
                let pos = at.min(s.len());
                s.splice(pos..pos, b"\n\tadd.s32 %r1, %r1, 1;\n".iter().copied());
            }
        }
    }
    String::from_utf8_lossy(&s).into_owned()
}

#[test]
fn mutated_files_never_panic() {
    let root = repo_root();
    let mut files = Vec::new();
    for dir in [
        "tests/corpus",
        "tests/spec-examples",
        "tests/check-fail",
        "examples",
    ] {
        files.extend(ptx_files(&root.join(dir)));
    }
    assert!(!files.is_empty());
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0usize;
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        // Small files get more mutants; keep the whole test to a few seconds.
        let n = (400_000 / text.len().max(400)).clamp(10, 300);
        for _ in 0..n {
            let mutant = mutate(&text, &mut rng);
            let file = diag::SourceFile::new("mutant.ptx", mutant);
            let (module, diags) = check::check_source(&file);
            // A module is returned only without errors.
            assert_eq!(module.is_some(), !diag::has_errors(&diags));
            checked += 1;
        }
    }
    assert!(checked > 100);
}

#[test]
fn huge_declarations_are_refused_not_allocated() {
    let cases = [
        ".version 7.0\n.target sm_61\n.visible .entry k()\n{\n.reg .b32 %r<4000000000>;\nret;\n}\n",
        ".version 7.0\n.target sm_61\n.global .u8 big[1099511627776] = {1};\n",
        ".version 7.0\n.target sm_61\n.global .u8 big[18446744073709551615][2];\n",
    ];
    // Many variables just under the per-variable limit: the module-wide budget stops them.
    let many: String = std::iter::once(".version 7.0\n.target sm_61\n".to_string())
        .chain((0..64).map(|i| format!(".global .u8 v{i}[60000000] = {{1}};\n")))
        .collect();
    // Many functions with a million registers each.
    let regs: String = std::iter::once(".version 7.0\n.target sm_61\n".to_string())
        .chain((0..64).map(|i| format!(".func f{i}()\n{{\n.reg .b32 %r<1000000>;\nret;\n}}\n")))
        .collect();
    let cases: Vec<&str> = cases
        .iter()
        .copied()
        .chain([many.as_str(), regs.as_str()])
        .collect();
    for text in cases {
        let file = diag::SourceFile::new("big.ptx", text);
        let (module, diags) = check::check_source(&file);
        assert!(module.is_none(), "{text}");
        assert!(diag::has_errors(&diags));
    }
}

#[test]
fn diagnostics_are_capped() {
    let body: String = (0..5000)
        .map(|i| format!("add.s32 %r, %r, %x{i};\n"))
        .collect();
    let text = format!(
        ".version 7.0\n.target sm_61\n.visible .entry k()\n{{\n.reg .b32 %r;\n{body}ret;\n}}\n"
    );
    let file = diag::SourceFile::new("many.ptx", text);
    let (module, diags) = check::check_source(&file);
    assert!(module.is_none());
    assert_eq!(diags.len(), 1001);
    assert!(diags
        .iter()
        .any(|d| d.message.starts_with("too many problems")));
}
