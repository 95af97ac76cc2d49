//! Pass 1: lines → kernels of items at addresses, labels, resource sizes and module settings.

use super::constant::ConstantBlock;
use super::source::{leading_label, parse_int, trimmed as trimmed_token, Token};
use super::AsmOptions;
use crate::cubin::{AddressSize, Arch, Kernel};
use diag::{Diagnostic, Span};
use std::collections::HashMap;

/// `NOP` with the `.S` bit clear and condition `CC.T` (see `docs/spec-notes.md`):
/// what `!Align` pads with. `.S` must stay clear: on Fermi it pops the reconvergence stack.
pub const NOP_WORD: u64 = 0x0000_1de4_4000_0000;

/// Largest per-CTA shared memory on sm_20 (48 KiB configuration).
pub(crate) const MAX_SHARED_BYTES: u32 = 48 * 1024;
/// Largest per-thread local memory on sm_20.
pub(crate) const MAX_LOCAL_BYTES: u32 = 512 * 1024;
/// Registers per thread on Fermi: R0..R62 (R63 is RZ).
pub(crate) const MAX_REG_COUNT: u8 = 63;
pub(crate) const MAX_BAR_COUNT: u8 = 16;
/// Instruction slots one file may produce: 2^21 (16 MiB of code), far beyond any real kernel,
/// so that `!Align` padding cannot turn a small file into an unbounded allocation.
pub(crate) const MAX_TOTAL_SLOTS: usize = 1 << 21;

/// One instruction slot.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item {
    /// Text to assemble: byte range in the file, and the instruction's address.
    Text { start: usize, end: usize, addr: u64 },
    /// A word given directly (`!RawInstruction`, `!Align` padding).
    Word(u64),
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Label {
    pub addr: u64,
    pub span: Span,
}

/// How a kernel was opened, which decides how it may be closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Opened {
    /// `!Kernel name`: needs `!EndKernel`.
    Directive,
    /// cuobjdump's `Function : name`: ends at the dotted line or the next header.
    Listing,
    /// No kernel declared in the file: instructions go to the default kernel.
    Implicit,
}

pub(crate) struct KernelBuild {
    pub kernel: Kernel,
    pub name_span: Span,
    pub opened: Opened,
    pub items: Vec<Item>,
    pub labels: HashMap<String, Label>,
    pub reg_count: Option<u8>,
    pub bar_count: Option<u8>,
    /// Some instruction's mnemonic is `BAR` (a default barrier count of 1 then).
    pub uses_bar: bool,
}

impl KernelBuild {
    pub fn new(name: &str, name_span: Span, opened: Opened) -> Self {
        KernelBuild {
            kernel: Kernel {
                name: name.to_string(),
                ..Kernel::default()
            },
            name_span,
            opened,
            items: Vec::new(),
            labels: HashMap::new(),
            reg_count: None,
            bar_count: None,
            uses_bar: false,
        }
    }
    pub fn next_addr(&self) -> u64 {
        self.items.len() as u64 * 8
    }
}

/// The outcome of pass 1.
pub(crate) struct LaidOut {
    pub arch: Arch,
    pub address_size: AddressSize,
    pub kernels: Vec<KernelBuild>,
    pub constant2: Vec<u8>,
}

/// Pass-1 state.
pub(crate) struct Layout<'d> {
    pub diags: &'d mut Vec<Diagnostic>,
    pub arch: Arch,
    pub arch_set: Option<Span>,
    pub address_size: AddressSize,
    pub machine_set: Option<Span>,
    pub kernels: Vec<KernelBuild>,
    /// Index of the kernel instructions go to, if one is open.
    pub current: Option<usize>,
    /// Declared size of `c[0x2]` (`!Constant2`) and its bytes.
    pub constant2: Option<(Span, Vec<u8>)>,
    pub constant_block: Option<ConstantBlock>,
    default_kernel_name: String,
    /// Instruction slots produced so far, against [`MAX_TOTAL_SLOTS`].
    slots: usize,
}

impl Layout<'_> {
    /// Reserves `n` instruction slots; reports (once) and refuses when the file grows too big.
    pub fn reserve_slots(&mut self, span: Span, n: usize) -> bool {
        if self.slots.saturating_add(n) > MAX_TOTAL_SLOTS {
            if self.slots <= MAX_TOTAL_SLOTS {
                self.slots = MAX_TOTAL_SLOTS + 1;
                self.error(
                    span,
                    format!("the file produces more than {MAX_TOTAL_SLOTS} instructions"),
                );
            }
            return false;
        }
        self.slots += n;
        true
    }

    pub fn error(&mut self, span: Span, message: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, message));
    }

    /// Starts a kernel, closing a listing-style one first.
    pub fn open_kernel(&mut self, name: Token<'_>, opened: Opened) {
        if let Some(cur) = self.current.and_then(|i| self.kernels.get(i)) {
            if cur.opened == Opened::Directive {
                let (cur_name, cur_span) = (cur.kernel.name.clone(), cur.name_span);
                self.diags.push(
                    Diagnostic::error(
                        name.span(),
                        format!(
                            "kernel `{}` starts before `!EndKernel` of `{cur_name}`",
                            name.text
                        ),
                    )
                    .with_label(cur_span, format!("`{cur_name}` opened here")),
                );
            }
        }
        if let Some(prev) = self.kernels.iter().find(|k| k.kernel.name == name.text) {
            let prev_span = prev.name_span;
            self.diags.push(
                Diagnostic::error(
                    name.span(),
                    format!("kernel `{}` is defined twice", name.text),
                )
                .with_label(prev_span, "first defined here"),
            );
        }
        self.kernels
            .push(KernelBuild::new(name.text, name.span(), opened));
        self.current = Some(self.kernels.len() - 1);
    }

    /// The kernel instructions and kernel directives apply to, opening the implicit one if the
    /// file has declared no kernel at all; `None` (after an error) when outside any kernel.
    pub fn kernel_for(&mut self, span: Span, what: &str) -> Option<&mut KernelBuild> {
        if self.current.is_none() {
            if self.kernels.is_empty() {
                let name = self.default_kernel_name.clone();
                self.kernels
                    .push(KernelBuild::new(&name, span, Opened::Implicit));
                self.current = Some(0);
            } else {
                self.error(
                    span,
                    format!("{what} outside a kernel (after `!EndKernel` or the end of a listing function)"),
                );
                return None;
            }
        }
        self.current.and_then(|i| self.kernels.get_mut(i))
    }

    fn define_label(&mut self, name: &str, span: Span) {
        let Some(k) = self.kernel_for(span, "label") else {
            return;
        };
        let addr = k.next_addr();
        if let Some(prev) = k.labels.get(name) {
            let prev_span = prev.span;
            self.diags.push(
                Diagnostic::error(
                    span,
                    format!("label `{name}` is defined twice in this kernel"),
                )
                .with_label(prev_span, "first defined here"),
            );
            return;
        }
        k.labels.insert(name.to_string(), Label { addr, span });
    }

    pub fn define_label_token(&mut self, name: Token<'_>) {
        if super::source::is_identifier(name.text) {
            self.define_label(name.text, name.span());
        } else {
            self.error(
                name.span(),
                format!("`{}` is not a valid label name", name.text),
            );
        }
    }

    fn add_instruction(&mut self, text: &str, start: usize) {
        let Some(Token {
            text: trimmed,
            start,
        }) = trimmed_token(text, start)
        else {
            return;
        };
        let end = start + trimmed.len();
        let span = Span::from_range(start..end);
        if !self.reserve_slots(span, 1) {
            return;
        }
        let Some(k) = self.kernel_for(span, "instruction") else {
            return;
        };
        let addr = k.next_addr();
        // The mnemonic follows an optional `@P0`/`@!P0` guard.
        let mut words = trimmed.split_whitespace();
        let first = words.next().unwrap_or("");
        let mnemonic = if first.starts_with('@') {
            words.next().unwrap_or("")
        } else {
            first
        };
        if mnemonic.split('.').next() == Some("BAR") {
            k.uses_bar = true;
        }
        k.items.push(Item::Text { start, end, addr });
    }

    /// Labels and `;`-separated instructions of one ordinary line.
    fn statements(&mut self, line: &str, start: usize) {
        let mut rest = line;
        let mut at = start;
        loop {
            let lead = rest.len() - rest.trim_start().len();
            let trimmed = rest.trim_start();
            let Some(name) = leading_label(trimmed) else {
                break;
            };
            let name_start = at + lead;
            self.define_label(name, Span::from_range(name_start..name_start + name.len()));
            let consumed = lead + name.len() + 1;
            rest = rest.get(consumed..).unwrap_or("");
            at += consumed;
        }
        if rest.trim_start().starts_with('!') {
            let lead = rest.len() - rest.trim_start().len();
            self.directive(rest.trim(), at + lead);
            return;
        }
        let mut piece_start = at;
        for piece in rest.split(';') {
            self.add_instruction(piece, piece_start);
            piece_start += piece.len() + 1;
        }
    }

    fn line(&mut self, line: &str, start: usize) {
        let Some(Token {
            text: trimmed,
            start: tstart,
        }) = trimmed_token(line, start)
        else {
            return;
        };
        if self.constant_block.is_some() && !trimmed.starts_with('!') {
            self.constant_values(trimmed, tstart);
            return;
        }
        if trimmed.starts_with('!') {
            self.directive(trimmed, tstart);
            return;
        }
        if self.header(trimmed, tstart) {
            return;
        }
        self.statements(line, start);
    }

    /// cuobjdump's non-instruction lines; true when `trimmed` was one.
    fn header(&mut self, trimmed: &str, tstart: usize) -> bool {
        for prefix in ["code for ", "Function :"] {
            let Some(rest) = trimmed.strip_prefix(prefix) else {
                continue;
            };
            let Some(tok) = trimmed_token(rest, tstart + prefix.len()) else {
                let span = Span::from_range(tstart..tstart + trimmed.len());
                self.error(span, format!("`{}` without a name", prefix.trim()));
                return true;
            };
            if prefix == "code for " {
                self.set_arch(tok);
            } else if super::source::is_identifier(tok.text) {
                self.open_kernel(tok, Opened::Listing);
            } else {
                self.error(
                    tok.span(),
                    format!("`{}` is not a valid kernel name", tok.text),
                );
            }
            return true;
        }
        if trimmed.bytes().all(|b| b == b'.') {
            if let Some(k) = self.current.and_then(|i| self.kernels.get(i)) {
                if k.opened == Opened::Listing {
                    self.current = None;
                }
            }
            return true;
        }
        // The surrounding lines of `cuobjdump -sass` on an executable or fatbinary.
        if let Some(size) = trimmed.strip_prefix("compile_size = ") {
            match size.trim() {
                "64bit" => self.address_size = AddressSize::Bits64,
                "32bit" => self.address_size = AddressSize::Bits32,
                _ => {}
            }
            return true;
        }
        const SKIPPED: [&str; 7] = [
            "Fatbin ",
            "arch = ",
            "code version = ",
            "producer = ",
            "host = ",
            "identifier = ",
            "==========",
        ];
        SKIPPED.iter().any(|p| trimmed.starts_with(p))
    }

    pub fn set_arch(&mut self, tok: Token<'_>) {
        let Some(arch) = Arch::parse(tok.text) else {
            self.error(
                tok.span(),
                format!(
                    "unsupported architecture `{}`; expected sm_20 or sm_21",
                    tok.text
                ),
            );
            return;
        };
        if let Some(prev) = self.arch_set {
            if arch != self.arch {
                self.diags.push(
                    Diagnostic::error(tok.span(), format!("architecture changes to {}", tok.text))
                        .with_label(prev, format!("set to {} here", self.arch.name())),
                );
                return;
            }
        }
        self.arch = arch;
        self.arch_set = Some(tok.span());
    }

    /// Parses an integer argument in `lo..=hi`, reporting an error naming `what` otherwise.
    pub fn int_arg(&mut self, tok: Token<'_>, what: &str, lo: i128, hi: i128) -> Option<i128> {
        match parse_int(tok.text) {
            Some(v) if (lo..=hi).contains(&v) => Some(v),
            Some(_) => {
                self.error(
                    tok.span(),
                    format!("{what} `{}` is out of range {lo}..={hi}", tok.text),
                );
                None
            }
            None => {
                self.error(
                    tok.span(),
                    format!("{what} `{}` is not an integer", tok.text),
                );
                None
            }
        }
    }

    fn finish(mut self) -> LaidOut {
        if let Some(k) = self.current.and_then(|i| self.kernels.get(i)) {
            if k.opened == Opened::Directive {
                let (name, span) = (k.kernel.name.clone(), k.name_span);
                self.error(span, format!("kernel `{name}` has no `!EndKernel`"));
            }
        }
        if let Some(block) = self.constant_block.take() {
            self.error(block.span, "`!Constant` block has no `!EndConstant`");
        }
        for k in &mut self.kernels {
            k.kernel.param_size = k.kernel.params_end().next_multiple_of(4);
            k.kernel.reg_count = k.reg_count.unwrap_or(MAX_REG_COUNT);
            k.kernel.bar_count = k.bar_count.unwrap_or(u8::from(k.uses_bar));
        }
        LaidOut {
            arch: self.arch,
            address_size: self.address_size,
            kernels: self.kernels,
            constant2: self.constant2.map(|(_, data)| data).unwrap_or_default(),
        }
    }
}

/// Pass 1 over comment-blanked text.
pub(crate) fn lay_out(blanked: &str, opts: &AsmOptions, diags: &mut Vec<Diagnostic>) -> LaidOut {
    let mut layout = Layout {
        diags,
        arch: opts.arch,
        arch_set: None,
        address_size: opts.address_size,
        machine_set: None,
        kernels: Vec::new(),
        current: None,
        constant2: None,
        constant_block: None,
        default_kernel_name: opts.default_kernel_name.clone(),
        slots: 0,
    };
    let mut start = 0;
    for line in blanked.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        layout.line(body, start);
        start += line.len();
    }
    layout.finish()
}
