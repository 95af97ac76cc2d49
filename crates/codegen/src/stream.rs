//! `ptxvm compile`'s pipeline: the check on the calling thread hands each body's IR over as
//! soon as it is checked (`check::check_source_streamed`), and a second thread translates
//! every entry whose body and callees' bodies have arrived, so both cores work while the
//! file is checked; what is left when the check ends is translated in parallel as
//! [`compile_module`](crate::compile_module) does. The result is the same as
//! `check_source` then `compile_module`, to the byte: the early translations are kept only
//! when the module they saw agrees with the checked module in everything a translation
//! reads, else everything is translated again at the end.

use crate::{Compiled, EntryResult, Shared};
use check::Streamed;
use diag::{Diagnostic, SourceFile};
use ir::{FuncId, FuncKind, Module, Opcode, Operand};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Checks `file` and translates it: the check's diagnostics, and the translation when the
/// check found no error.
pub fn check_and_compile(
    file: &SourceFile,
) -> (Vec<Diagnostic>, Option<Result<Compiled, Vec<Diagnostic>>>) {
    let (tx, rx) = mpsc::channel::<Streamed>();
    let checked = AtomicBool::new(false);
    let (module, diags, early) = std::thread::scope(|s| {
        let translator = s.spawn(|| translate_early(rx, file, &checked));
        let (module, diags) = check::check_source_streamed(file, &mut |e| {
            // A translator gone (it only stops early on a panic, reported at the join)
            // leaves nothing to tell.
            let _ = tx.send(e);
        });
        drop(tx);
        checked.store(true, Ordering::Relaxed);
        let early = translator
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        (module, diags, early)
    });
    let Some(module) = module.filter(|_| !diag::has_errors(&diags)) else {
        return (diags, None);
    };
    let compiled = match early {
        // Nothing was handed over (a file checked whole): the module has every body.
        None => crate::compile_module(&module, file),
        Some(early) => match early.into_module(&module) {
            Some((full, shared, done)) => crate::compile_remaining(&full, file, shared, done),
            // The streamed module disagrees with the checked one (not seen in practice):
            // the plain pipeline, from the start.
            None => match check::check_source(file) {
                (Some(m), _) => crate::compile_module(&m, file),
                (None, d) => Err(d),
            },
        },
    };
    (diags, Some(compiled))
}

/// The entries translated early, with their results.
type Done = HashMap<FuncId, EntryResult>;

/// The translator's state: the module as handed over so far, and the entries translated.
struct Early {
    module: Module,
    /// What the early translations read of the module as a whole. Its address-taken set is
    /// the module level's only: no early translation reads it (see [`Early::reads`]).
    shared: Shared,
    /// The functions whose address what arrived so far takes (`calls::address_taken` of
    /// the module, collected body by body, since translated entries' bodies are freed).
    taken: HashSet<FuncId>,
    /// Functions whose bodies are still to come.
    pending: HashSet<FuncId>,
    /// Entries whose bodies arrived but whose callees' bodies had not yet.
    waiting: Vec<FuncId>,
    done: Done,
    /// Whether what arrived fits together (the variables in order, known functions).
    consistent: bool,
    /// Whether an entry translated early had its instructions freed (see [`Early::release`]).
    released: bool,
}

/// How many entries wait for their callees' bodies at most (see `translate_early`).
const MAX_WAITING: usize = 16;

/// Whether an entry can be translated before the check ends (see [`Early::reads`]).
#[derive(PartialEq)]
enum Readiness {
    /// Everything its translation reads has arrived.
    Ready,
    /// A function it calls has not arrived yet.
    Waiting,
    /// It reaches an indirect call without a target list, whose candidates are every
    /// address-taken function of the module: known only when every body is in.
    AtTheEnd,
}

/// Receives the check's IR and translates entries until the check ends (`checked`); then
/// only takes in what is left in the channel. `None` when no module level arrived.
fn translate_early(
    rx: mpsc::Receiver<Streamed>,
    file: &SourceFile,
    checked: &AtomicBool,
) -> Option<Early> {
    let Ok(Streamed::ModuleLevel { module, bodies }) = rx.recv() else {
        return None;
    };
    let mut early = Early {
        shared: Shared::new(&module),
        taken: crate::calls::address_taken(&module).into_iter().collect(),
        module,
        pending: bodies.iter().copied().collect(),
        waiting: Vec::new(),
        done: HashMap::default(),
        consistent: true,
        released: false,
    };
    for e in rx.iter() {
        let Streamed::Body {
            id,
            function,
            first_var,
            vars,
            prototypes,
            globals,
        } = e
        else {
            early.consistent = false;
            continue;
        };
        if !early.consistent || early.module.vars.len() != first_var {
            early.consistent = false;
            continue;
        }
        early.taken.extend(crate::calls::addresses_in(&function));
        early.taken.extend(crate::calls::addresses_in_inits(&vars));
        early.module.vars.extend(vars);
        early.module.prototypes.extend(prototypes);
        early.module.globals.extend(globals);
        let is_entry = function.kind == FuncKind::Entry && function.body.is_some();
        let Some(slot) = early.module.functions.get_mut(id.index()) else {
            early.consistent = false;
            continue;
        };
        *slot = function;
        early.pending.remove(&id);
        if checked.load(Ordering::Relaxed) {
            continue;
        }
        // An entry is translated when it arrives if its callees came before it (compilers
        // emit them first); else it waits for them, but only a few wait (each `.func` that
        // arrives tries every waiting entry again): the rest are left to the end.
        let candidates = if is_entry {
            vec![id]
        } else {
            std::mem::take(&mut early.waiting)
        };
        for e in candidates {
            if checked.load(Ordering::Relaxed) {
                break;
            }
            match early.reads(e) {
                Readiness::Ready => {}
                Readiness::Waiting => {
                    if early.waiting.len() < MAX_WAITING {
                        early.waiting.push(e);
                    }
                    continue;
                }
                Readiness::AtTheEnd => continue,
            }
            if let Some(f) = early.module.function(e) {
                let r = early.shared.compile_entry(&early.module, f, file);
                early.done.insert(e, r);
                early.release(e);
            }
        }
    }
    Some(early)
}

impl Early {
    /// Frees the instructions, labels and registers of entry `e`, translated: no entry calls
    /// another, and the addresses its body takes are in `taken` already, so nothing reads
    /// them again. The check thread allocates the IR of the bodies still to come in the
    /// memory freed: the IR of every body was fresh memory for the kernel to zero, a fifth
    /// of the process's time.
    fn release(&mut self, e: FuncId) {
        let Some(f) = self.module.functions.get_mut(e.index()) else {
            return;
        };
        if f.kind != FuncKind::Entry {
            return;
        }
        if let Some(body) = f.body.as_mut() {
            // Still `Some`: the entry is defined, which the comparison with the checked
            // module reads.
            *body = Vec::new();
            f.labels = Vec::new();
            f.regs = Vec::new();
            self.released = true;
        }
    }

    /// Whether entry `e` can be translated now. Its translation reads the bodies of the
    /// functions it calls, directly or through an indirect call's target list (those a
    /// later body could not change), and, only at an indirect call without a list, the
    /// module's address-taken set, which a later body may still grow.
    fn reads(&self, e: FuncId) -> Readiness {
        let mut seen = vec![e];
        let mut work = vec![e];
        while let Some(id) = work.pop() {
            if id != e && self.pending.contains(&id) {
                return Readiness::Waiting;
            }
            let Some(f) = self.module.function(id) else {
                // Not a function of the module: the final pass says what is wrong.
                return Readiness::AtTheEnd;
            };
            for inst in f.insts().iter().filter(|i| i.op == Opcode::Call) {
                let targets = match crate::calls::direct_target(inst) {
                    Some(t) => vec![t],
                    None => match inst.operands.iter().find_map(|o| match o {
                        Operand::CallTargets(fs) => Some(fs.to_vec()),
                        _ => None,
                    }) {
                        Some(fs) => fs,
                        None => return Readiness::AtTheEnd,
                    },
                };
                for t in targets {
                    if !seen.contains(&t) {
                        seen.push(t);
                        work.push(t);
                    }
                }
            }
        }
        Readiness::Ready
    }

    /// The module as handed over (every body in: the checked module lacks them), what every
    /// entry reads of it, and the early translations (none if what they read changed since),
    /// or `None` when what was handed over disagrees with the checked module.
    fn into_module(mut self, checked: &Module) -> Option<(Module, Shared, Done)> {
        let m = &self.module;
        let same_headers = m.functions.len() == checked.functions.len()
            && m.functions.iter().zip(&checked.functions).all(|(a, b)| {
                a.name == b.name
                    && a.kind == b.kind
                    && a.linkage == b.linkage
                    && a.params == b.params
                    && a.rets == b.rets
                    && a.locals == b.locals
                    && a.perf == b.perf
                    && a.cta_dims == b.cta_dims
                    && a.span == b.span
                    && a.body.is_some() == b.body.is_some()
            });
        let agrees = self.consistent
            && self.pending.is_empty()
            && same_headers
            && m.vars == checked.vars
            && m.globals == checked.globals
            && m.prototypes == checked.prototypes
            && m.target == checked.target
            && m.address_size == checked.address_size
            && m.version == checked.version;
        if !agrees {
            return None;
        }
        let mut taken: Vec<FuncId> = self.taken.iter().copied().collect();
        taken.sort_unstable();
        let shared = Shared::with_taken(&self.module, taken);
        // The translations made before every body was in are kept only if what they read
        // of the module as a whole came out the same (the address-taken set aside: none of
        // them reads it).
        if !shared.same_data(&self.shared) {
            // Every entry is translated again, the early ones too: their bodies are needed.
            if self.released {
                return None;
            }
            self.done.clear();
        }
        Some((self.module, shared, self.done))
    }
}
