//! asfermi's `!` directives (pass 1).

use super::constant::{ConstantBlock, ConstantType};
use super::layout::{
    Item, Layout, Opened, MAX_BAR_COUNT, MAX_LOCAL_BYTES, MAX_REG_COUNT, MAX_SHARED_BYTES, NOP_WORD,
};
use super::source::{parse_int, split_args, Token};
use crate::cubin::{AddressSize, Param, CONSTANT_BANK_BYTES, MAX_PARAM_BYTES};
use diag::Diagnostic;

/// Every directive, as asfermi spells it.
pub(crate) const DIRECTIVES: [&str; 22] = [
    "!Kernel",
    "!EndKernel",
    "!Label",
    "!Param",
    "!Shared",
    "!Local",
    "!MinStack",
    "!MinFrame",
    "!Constant2",
    "!Constant",
    "!EndConstant",
    "!RegCount",
    "!BarCount",
    "!RawInstruction",
    "!Arch",
    "!Machine",
    "!Align",
    // ptxvm's: the two `.nv.info.<kernel>` records nvcc wrote that nothing here computes.
    "!SyncStack",
    "!MaxThreads",
    // Accepted for asfermi compatibility; they carry nothing ptxvm needs.
    "!Cubin",
    "!EndCubin",
    "!SelfDebug",
];

/// How many arguments a directive takes: `(min, max)`.
fn arity(name: &str) -> (usize, usize) {
    match name {
        "!EndKernel" | "!EndConstant" | "!Cubin" | "!EndCubin" => (0, 0),
        "!SelfDebug" => (0, 1),
        "!Param" => (1, 2),
        "!Constant" => (2, 2),
        "!Align" => (0, 1),
        "!SyncStack" => (2, 2),
        "!MaxThreads" => (3, 3),
        _ => (1, 1),
    }
}

impl Layout<'_> {
    pub(crate) fn directive(&mut self, text: &str, start: usize) {
        let tokens = split_args(text, start);
        let Some((&head, args)) = tokens.split_first() else {
            return;
        };
        let Some(name) = DIRECTIVES
            .iter()
            .copied()
            .find(|d| d.eq_ignore_ascii_case(head.text))
        else {
            self.diags.push(
                Diagnostic::error(head.span(), format!("unknown directive `{}`", head.text))
                    .with_note(format!("known directives: {}", DIRECTIVES.join(" "))),
            );
            return;
        };
        let (min, max) = arity(name);
        if args.len() < min || args.len() > max {
            let span = args.get(max).map_or(head.span(), |t| t.span());
            let expected = if min == max {
                format!("{min}")
            } else {
                format!("{min} to {max}")
            };
            self.error(
                span,
                format!(
                    "`{name}` takes {expected} argument(s), found {}",
                    args.len()
                ),
            );
            return;
        }
        if self.constant_block.is_some() && name != "!EndConstant" {
            self.error(head.span(), format!("`{name}` inside a `!Constant` block"));
            return;
        }
        let arg = |i: usize| args.get(i).copied();
        match name {
            "!Kernel" => {
                if let Some(t) = arg(0) {
                    if super::source::is_identifier(t.text) {
                        self.open_kernel(t, Opened::Directive);
                    } else {
                        self.error(t.span(), format!("`{}` is not a valid kernel name", t.text));
                    }
                }
            }
            "!EndKernel" => match self.current.and_then(|i| self.kernels.get(i)) {
                Some(k) if k.opened == Opened::Directive => self.current = None,
                _ => self.error(head.span(), "`!EndKernel` without an open `!Kernel`"),
            },
            "!Label" => {
                if let Some(t) = arg(0) {
                    self.define_label_token(t);
                }
            }
            "!Param" => self.param(head, arg(0), arg(1)),
            "!SyncStack" | "!MaxThreads" => {
                let what = if name == "!SyncStack" {
                    "EIATTR_SYNC_STACK word"
                } else {
                    "thread count"
                };
                let mut words = Vec::new();
                for t in args {
                    match self.int_arg(*t, what, 0, u32::MAX.into()) {
                        Some(v) => words.push(v as u32),
                        None => return,
                    }
                }
                let Some(k) = self.kernel_for(head.span(), name) else {
                    return;
                };
                match (name, words.as_slice()) {
                    ("!SyncStack", &[a, b]) => k.kernel.sync_stack = Some([a, b]),
                    (_, &[x, y, z]) => k.kernel.max_threads = Some([x, y, z]),
                    _ => {}
                }
            }
            "!Shared" | "!Local" | "!MinStack" | "!MinFrame" => {
                if let Some(t) = arg(0) {
                    self.kernel_size(name, head, t);
                }
            }
            "!RegCount" | "!BarCount" => {
                let Some(t) = arg(0) else { return };
                let (lo, hi) = if name == "!RegCount" {
                    (1, MAX_REG_COUNT)
                } else {
                    (0, MAX_BAR_COUNT)
                };
                let what = if name == "!RegCount" {
                    "register count"
                } else {
                    "barrier count"
                };
                let Some(v) = self.int_arg(t, what, lo.into(), hi.into()) else {
                    return;
                };
                let Some(k) = self.kernel_for(head.span(), name) else {
                    return;
                };
                let slot = if name == "!RegCount" {
                    &mut k.reg_count
                } else {
                    &mut k.bar_count
                };
                *slot = u8::try_from(v).ok();
            }
            "!RawInstruction" => {
                let Some(t) = arg(0) else { return };
                let word = match parse_int(t.text) {
                    Some(v) if (0..=i128::from(u64::MAX)).contains(&v) => v as u64,
                    _ => {
                        self.error(
                            t.span(),
                            format!("`{}` is not a 64-bit instruction word", t.text),
                        );
                        return;
                    }
                };
                if !self.reserve_slots(head.span(), 1) {
                    return;
                }
                if let Some(k) = self.kernel_for(head.span(), "`!RawInstruction`") {
                    k.items.push(Item::Word(word));
                }
            }
            "!Align" => {
                let align = match arg(0) {
                    None => 16,
                    Some(t) => match self.int_arg(t, "alignment", 8, 4096) {
                        Some(v) if (v as u64).is_power_of_two() => v as u64,
                        Some(_) => {
                            self.error(t.span(), "alignment must be a power of two");
                            return;
                        }
                        None => return,
                    },
                };
                let Some(k) = self.kernel_for(head.span(), "`!Align`") else {
                    return;
                };
                let pad = (align - k.next_addr() % align) % align / 8;
                if self.reserve_slots(head.span(), pad as usize) {
                    if let Some(k) = self.current.and_then(|i| self.kernels.get_mut(i)) {
                        k.items
                            .extend(std::iter::repeat_n(Item::Word(NOP_WORD), pad as usize));
                    }
                }
            }
            "!Arch" => {
                if let Some(t) = arg(0) {
                    self.set_arch(t);
                }
            }
            "!Machine" => {
                let Some(t) = arg(0) else { return };
                let size = match t.text {
                    "32" => AddressSize::Bits32,
                    "64" => AddressSize::Bits64,
                    _ => {
                        self.error(
                            t.span(),
                            format!("`!Machine` takes 32 or 64, not `{}`", t.text),
                        );
                        return;
                    }
                };
                if let Some(prev) = self.machine_set {
                    if size != self.address_size {
                        self.diags.push(
                            Diagnostic::error(t.span(), "address size changes")
                                .with_label(prev, "set here"),
                        );
                        return;
                    }
                }
                self.address_size = size;
                self.machine_set = Some(t.span());
            }
            "!Constant2" => {
                let Some(t) = arg(0) else { return };
                let Some(size) =
                    self.int_arg(t, "constant bank size", 1, CONSTANT_BANK_BYTES.into())
                else {
                    return;
                };
                if let Some((prev, _)) = &self.constant2 {
                    let prev = *prev;
                    self.diags.push(
                        Diagnostic::error(t.span(), "`!Constant2` is declared twice")
                            .with_label(prev, "first declared here"),
                    );
                    return;
                }
                self.constant2 = Some((head.span().to(t.span()), vec![0; size as usize]));
            }
            "!Constant" => {
                let (Some(ty), Some(off)) = (arg(0), arg(1)) else {
                    return;
                };
                // A bad header still opens the block (discarding its values), so the value
                // lines are not misread as instructions.
                let mut block = ConstantBlock {
                    ty: ConstantType::Int,
                    next: 0,
                    span: head.span().to(off.span()),
                    discard: true,
                };
                match ConstantType::parse(ty.text) {
                    Some(t) => block.ty = t,
                    None => self.error(
                        ty.span(),
                        format!(
                            "unknown constant type `{}`; expected int, long, float or double",
                            ty.text
                        ),
                    ),
                }
                let size = self.constant2.as_ref().map(|(_, d)| d.len());
                match size {
                    None => self.error(
                        head.span(),
                        "`!Constant` before `!Constant2` declared the bank's size",
                    ),
                    Some(size) => {
                        if let Some(offset) =
                            self.int_arg(off, "constant offset", 0, size as i128 - 1)
                        {
                            block.next = offset as usize;
                            block.discard = ConstantType::parse(ty.text).is_none();
                        }
                    }
                }
                self.constant_block = Some(block);
            }
            "!EndConstant" if self.constant_block.take().is_none() => {
                self.error(head.span(), "`!EndConstant` without `!Constant`");
            }
            _ => {}
        }
    }

    fn param(&mut self, head: Token<'_>, size: Option<Token<'_>>, count: Option<Token<'_>>) {
        let Some(size_tok) = size else { return };
        let Some(size) = self.int_arg(size_tok, "parameter size", 1, MAX_PARAM_BYTES.into()) else {
            return;
        };
        let count = match count {
            None => 1,
            Some(t) => match self.int_arg(t, "parameter count", 1, MAX_PARAM_BYTES.into()) {
                Some(c) => c,
                None => return,
            },
        };
        let (size, count) = (size as u32, count as u32);
        // Natural alignment: the largest power of two dividing the size, at most 8.
        let align = (1u32 << size.trailing_zeros()).min(8);
        let Some(k) = self.kernel_for(head.span(), "`!Param`") else {
            return;
        };
        let mut end = k.kernel.params_end();
        for _ in 0..count {
            let offset = end.next_multiple_of(align);
            if offset + size > MAX_PARAM_BYTES {
                let span = head.span().to(size_tok.span());
                self.error(
                    span,
                    format!("parameters exceed the {MAX_PARAM_BYTES}-byte parameter block"),
                );
                return;
            }
            k.kernel.params.push(Param { offset, size });
            end = offset + size;
        }
    }

    fn kernel_size(&mut self, name: &str, head: Token<'_>, t: Token<'_>) {
        let (what, max) = match name {
            "!Shared" => ("shared memory size", MAX_SHARED_BYTES),
            "!Local" => ("local memory size", MAX_LOCAL_BYTES),
            "!MinStack" => ("stack size", MAX_LOCAL_BYTES),
            _ => ("frame size", MAX_LOCAL_BYTES),
        };
        let Some(v) = self.int_arg(t, what, 0, max.into()) else {
            return;
        };
        let Some(k) = self.kernel_for(head.span(), name) else {
            return;
        };
        let v = v as u32;
        match name {
            "!Shared" => k.kernel.shared_size = v,
            "!Local" => k.kernel.local_size = v,
            "!MinStack" => k.kernel.min_stack_size = v,
            _ => k.kernel.frame_size = v,
        }
    }
}
