//! The anonymous entry point of ptx-isa-1.1 §9.1 Table 68: "PTX defines an anonymous 3D CTA
//! entry point at the first instruction encountered outside of a .entry or .func block. PTX
//! appends an exit instruction after the last instruction of an anonymous entry point."
//!
//! Only PTX ISA 1.x has it (later versions define no anonymous entry and ptxas refuses
//! instructions outside functions); from `.version 2.0` on, such instructions are errors.
//!
//! The instructions, labels and `{ }` blocks written at module level, together with the `.reg`
//! declarations written there (registers are per-thread storage, so at module level they can
//! only belong to that entry), form one `.entry` named [`ANONYMOUS_ENTRY`]. Its CTA shape is
//! unspecified (three empty dimensions: any launch shape). The name is not a PTX identifier, so
//! it cannot clash with a declared one.

use crate::ctx::Checker;
use diag::Span;
use ir::{FuncId, FuncKind, Linkage, PtxVersion};
use syntax::ast;

/// The name of the anonymous entry point in the IR (and for `ptxvm run --kernel`).
pub const ANONYMOUS_ENTRY: &str = "(anonymous)";

impl Checker<'_> {
    pub(crate) fn check_anonymous_entry(&mut self, stmts: &[&ast::Statement]) {
        let first_code = stmts.iter().find_map(|s| match s {
            ast::Statement::Instruction(i) => Some(i.span),
            ast::Statement::Label(l) => Some(l.span),
            ast::Statement::Block(b) => Some(b.span),
            _ => None,
        });
        let legacy = self.version < PtxVersion::new(2, 0);
        let (Some(span), true) = (first_code, legacy) else {
            // Module-level registers without module-level instructions to use them, or a
            // file of a version without anonymous entries.
            for s in stmts {
                if let ast::Statement::Variable(v) = s {
                    self.error(
                        v.space_span,
                        "`.reg` variables can only be declared inside a function",
                    );
                }
            }
            if let Some(span) = first_code {
                self.error(
                    span,
                    format!(
                        "instructions outside an `.entry` or `.func` form an anonymous entry \
                         point only in PTX ISA 1.x (ptx-isa-1.1 §9.1); the file is .version {}",
                        self.version
                    ),
                );
            }
            return;
        };
        let id = FuncId(u32::try_from(self.functions.len()).unwrap_or(u32::MAX));
        self.functions.push(ir::Function {
            cta_dims: Some([0, 0, 0]),
            ..ir::Function::declared(
                ANONYMOUS_ENTRY.to_string(),
                FuncKind::Entry,
                Linkage::Internal,
                span,
            )
        });
        let header = ast::Function {
            linkage: None,
            kind: ast::FunctionKind::Entry,
            kind_span: span,
            name: ast::Ident { span },
            returns: None,
            // The anonymous entry takes no parameters; with `params: Some` its top-level
            // `.param` declarations are not parameters.
            params: Some(ast::ParamList {
                params: Vec::new(),
                span,
            }),
            cta_dims: Vec::new(),
            attributes: Vec::new(),
            body: None,
            span,
        };
        let owned: Vec<ast::Statement> = stmts.iter().map(|s| (*s).clone()).collect();
        self.check_function_body(id, &header, &owned);
        self.append_exit(id, last_span(stmts).unwrap_or(span));
    }

    fn append_exit(&mut self, id: FuncId, span: Span) {
        let Ok(m) = isa::match_form("exit", &[]) else {
            return;
        };
        if let Some(body) = self
            .functions
            .get_mut(id.index())
            .and_then(|f| f.body.as_mut())
        {
            body.push(ir::Inst {
                guard: None,
                op: m.form.opcode,
                form: m.form,
                mods: m.mods,
                types: m.types,
                operands: ir::Operands::new(),
                span,
            });
        }
    }
}

fn last_span(stmts: &[&ast::Statement]) -> Option<Span> {
    stmts.iter().rev().find_map(|s| match s {
        ast::Statement::Instruction(i) => Some(i.span),
        ast::Statement::Block(b) => Some(b.span),
        _ => None,
    })
}
