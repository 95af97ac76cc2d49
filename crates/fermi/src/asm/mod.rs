//! The file-level assembler: cuobjdump listings, plain SASS text and asfermi directives →
//! kernels of instruction words, ready for [`crate::cubin::write_cubin`] or a listing.
//!
//! Two passes: `layout` reads every line, interprets directives and headers, and assigns each
//! instruction its address and each label its value; then every instruction's text is handed
//! to [`crate::isa::assemble_text`] with the kernel's labels. Errors from both passes are
//! collected, so one run reports all of them.

mod constant;
mod directive;
mod layout;
mod source;

use crate::cubin::{self, AddressSize, Arch, CubinError, Module};
use crate::isa::Dialect;
use diag::{Diagnostic, SourceFile, Span};
use std::collections::HashMap;

pub use layout::NOP_WORD;

/// What the file does not say for itself.
#[derive(Clone, Debug)]
pub struct AsmOptions {
    /// Used unless the file has `!Arch` or a `code for sm_NN` header.
    pub arch: Arch,
    /// Used unless the file has `!Machine` (or a `compile_size = 32bit` line).
    pub address_size: AddressSize,
    /// Name of the kernel that holds instructions when the file declares none.
    pub default_kernel_name: String,
}

impl Default for AsmOptions {
    fn default() -> Self {
        AsmOptions {
            arch: Arch::Sm20,
            address_size: AddressSize::Bits64,
            default_kernel_name: "kernel".into(),
        }
    }
}

/// The result of assembling a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assembly {
    pub module: Module,
    /// Per kernel (same order as `module.kernels`): label name → byte address.
    pub labels: Vec<HashMap<String, u64>>,
}

impl Assembly {
    /// The cubin holding this assembly.
    pub fn write_cubin(&self) -> Result<Vec<u8>, CubinError> {
        cubin::write_cubin(&self.module)
    }

    /// A cuobjdump-style listing of what was assembled (the text is re-derived from each word).
    pub fn print_listing(&self) -> String {
        crate::listing::print_module_listing(&self.module)
    }
}

/// Assembles a whole file; on failure returns every error found, in source order.
pub fn assemble_file(file: &SourceFile, opts: &AsmOptions) -> Result<Assembly, Vec<Diagnostic>> {
    assemble_file_with(file, opts, Dialect::Current)
}

/// [`assemble_file`] for instruction text in a chosen cuobjdump spelling (only listings made
/// by the older cuobjdump need [`Dialect::Legacy`]).
pub fn assemble_file_with(
    file: &SourceFile,
    opts: &AsmOptions,
    dialect: Dialect,
) -> Result<Assembly, Vec<Diagnostic>> {
    if u32::try_from(file.text.len()).is_err() {
        return Err(vec![Diagnostic::error(
            Span::new(0, 0),
            "source file is larger than 4 GiB",
        )]);
    }
    let (blanked, mut diags) = source::blank_comments(&file.text);
    let laid_out = layout::lay_out(&blanked, opts, &mut diags);

    let mut module = Module {
        arch: laid_out.arch,
        address_size: laid_out.address_size,
        kernels: Vec::new(),
        constant2: laid_out.constant2,
        constants: Vec::new(),
        globals: Default::default(),
    };
    let mut labels = Vec::new();
    for k in laid_out.kernels {
        let mut code = Vec::with_capacity(k.items.len());
        for item in &k.items {
            code.push(match *item {
                layout::Item::Word(word) => word,
                layout::Item::Text { start, end, addr } => {
                    let text = blanked.get(start..end).unwrap_or("");
                    let lookup = |name: &str| {
                        let name = name.strip_prefix('!').unwrap_or(name);
                        k.labels.get(name).map(|l| l.addr)
                    };
                    match crate::isa::assemble_text_with(text, addr, &lookup, dialect) {
                        Ok(word) => word,
                        Err(e) => {
                            let s = (start + e.span.start).min(end);
                            let t = (start + e.span.end).clamp(s, end);
                            diags.push(Diagnostic::error(Span::from_range(s..t), e.message));
                            0
                        }
                    }
                }
            });
        }
        let mut kernel = k.kernel;
        kernel.code = code;
        module.kernels.push(kernel);
        labels.push(k.labels.into_iter().map(|(n, l)| (n, l.addr)).collect());
    }
    if diag::has_errors(&diags) {
        diags.sort_by_key(|d| d.span.start);
        return Err(diags);
    }
    Ok(Assembly { module, labels })
}
