//! Checking that hands each function body's IR over as soon as the body is checked, so a
//! consumer (`ptxvm compile`'s translator) works on the first bodies while later ones are
//! still being checked.

use crate::ctx::Checked;
use crate::{check_whole, checker, deferred_body, Keep};
use diag::{Diagnostic, SourceFile};
use ir::FuncId;

/// What [`check_source_streamed`] hands over, in this order: the module level once, then the
/// bodies in checking order. Nothing more follows an error: a consumer's work is then moot.
#[derive(Debug)]
pub enum Streamed {
    /// The module without function bodies (every variable, function header and prototype
    /// declared at module level), and the functions whose bodies follow, in that order.
    ModuleLevel {
        module: ir::Module,
        bodies: Vec<FuncId>,
    },
    /// A checked function, whole (its instructions, registers and labels), and the
    /// variables its body declared: they are the module's variables from `first_var` on;
    /// likewise the module's prototypes and globals the body added (its `.callprototype`s,
    /// its `.global`s), to append to the module's.
    Body {
        id: FuncId,
        function: ir::Function,
        first_var: usize,
        vars: Vec<ir::Variable>,
        prototypes: Vec<ir::Prototype>,
        globals: Vec<ir::VarId>,
    },
}

/// [`crate::check_source`], handing the IR to `sink` as it is checked (see [`Streamed`]).
/// The module returned keeps no instructions, labels or body registers of the functions
/// handed over (their `body` is empty, their `regs` the header's); everything else is as
/// `check_source` returns it. A file that does not
/// parse cleanly is checked as a whole and hands nothing over.
pub fn check_source_streamed(
    file: &SourceFile,
    sink: &mut dyn FnMut(Streamed),
) -> (Option<ir::Module>, Vec<Diagnostic>) {
    let (ast, diags) = syntax::parse_module_deferred(file);
    if !diags.is_empty() {
        return check_whole(file, Keep::Ir);
    }
    let mut cx = checker(file, Keep::Ir);
    let mut parsed = vec![false; ast.statements.len()];
    let mut parser = syntax::BodyParser::default();
    let mut live = true;
    let (mut sent_vars, mut sent_protos, mut sent_globals) = (0, 0, 0);
    // Per function, how many registers its header declares (register parameters): all the
    // checker reads of a function once its body is checked.
    let mut header_regs: Vec<usize> = Vec::new();
    let mut then = |cx: &mut crate::ctx::Checker, stage: Checked| {
        live &= !cx.has_errors();
        if !live {
            return;
        }
        match stage {
            Checked::ModuleLevel(order) => {
                sent_vars = cx.vars.len();
                sent_protos = cx.prototypes.len();
                sent_globals = cx.globals.len();
                header_regs = cx.functions.iter().map(|f| f.regs.len()).collect();
                sink(Streamed::ModuleLevel {
                    module: ir::Module {
                        source_name: cx.file.name.clone(),
                        version: cx.version,
                        target: cx.target.clone(),
                        address_size: cx.address_size,
                        vars: cx.vars.clone(),
                        globals: cx.globals.clone(),
                        functions: cx.functions.clone(),
                        prototypes: cx.prototypes.clone(),
                    },
                    bodies: order.to_vec(),
                });
            }
            Checked::Body(id) => {
                let Some(f) = cx.functions.get_mut(id.index()) else {
                    live = false;
                    return;
                };
                // The instructions, labels and registers move; the header (small) is
                // copied, since the checker still reads it at calls to the function, and so
                // are the header's own registers (a copy of every register was a tenth of
                // the check's time).
                let body = f.body.as_mut().map(std::mem::take);
                let labels = std::mem::take(&mut f.labels);
                let regs = std::mem::take(&mut f.regs);
                let kept = header_regs.get(id.index()).copied().unwrap_or(regs.len());
                f.regs = regs.get(..kept).unwrap_or(&regs).to_vec();
                let mut function = f.clone();
                function.body = body;
                function.labels = labels;
                function.regs = regs;
                let vars = cx.vars.get(sent_vars..).unwrap_or_default().to_vec();
                let first_var = sent_vars;
                sent_vars = cx.vars.len();
                let prototypes = cx
                    .prototypes
                    .get(sent_protos..)
                    .unwrap_or_default()
                    .to_vec();
                sent_protos = cx.prototypes.len();
                let globals = cx.globals.get(sent_globals..).unwrap_or_default().to_vec();
                sent_globals = cx.globals.len();
                sink(Streamed::Body {
                    id,
                    function,
                    first_var,
                    vars,
                    prototypes,
                    globals,
                });
            }
        }
    };
    let complete = cx.check_with_bodies_then(
        &ast,
        |i, f| {
            if let Some(p) = parsed.get_mut(i) {
                *p = true;
            }
            deferred_body(&mut parser, file, f)
        },
        &mut then,
    );
    // The bodies the check did not ask for (a function whose header was refused, say) are
    // parsed to find parse errors, which `check_source` reports; only after a complete check:
    // after an incomplete one the whole file is parsed again below anyway.
    let mut rest_parses = || {
        ast.statements
            .iter()
            .zip(&parsed)
            .all(|(s, &done)| match s {
                syntax::ast::Statement::Function(f) if !done => !matches!(
                    deferred_body(&mut parser, file, f),
                    crate::ctx::BodySource::Unparsable
                ),
                _ => true,
            })
    };
    if complete && rest_parses() {
        cx.finish()
    } else {
        // A body that does not parse: the whole file's diagnostics, as `check_source` gives
        // (with the parse errors, so no module: what was handed over is moot).
        check_whole(file, Keep::Ir)
    }
}
