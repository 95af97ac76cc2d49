//! Checking one instruction: table match, target/version gates, form choice by operand shape,
//! operand count, and lowering of every operand.

use crate::consteval::Value;
use crate::ctx::Checker;
use crate::func::Body;
use crate::operand::{Slot, TypeRule};
use crate::scope::LocalSym;
use diag::{Diagnostic, Span};
use ir::{Guard, Operand};
use isa::{Opcode, OperandKind, PtxVersion, Type, VecRule};
use syntax::ast;

/// Most modifiers an instruction may spell before matching is refused (the table's limit).
const MAX_MODS: usize = isa::MAX_SPELLED;

impl<'a> Checker<'a> {
    pub(crate) fn check_instruction(&mut self, body: &mut Body<'a>, inst: &ast::Instruction) {
        let unwrapped;
        let inst = match self.unwrap_single_brace(inst) {
            Some(u) => {
                unwrapped = u;
                &unwrapped
            }
            None => inst,
        };
        let guard = inst.guard.as_ref().and_then(|g| self.lower_guard(body, g));
        if inst.guard.is_some() && guard.is_none() {
            return;
        }
        let mnemonic_span = match inst.modifiers {
            Some(m) => inst.opcode.span.to(m),
            None => inst.opcode.span,
        };
        let Some((matches, first_gate_ok)) = self.match_instruction(inst, mnemonic_span) else {
            return;
        };
        // By reference: a `Match` is a few hundred bytes, and copying it was a measurable
        // share of checking an instruction.
        let Some(chosen) = choose_form(&matches, &inst.operands) else {
            return;
        };
        // Gates depend only on the spelling and the form: the first form of a spelling is
        // by far the most common choice, so its verdict is computed once with the match.
        let gate_ok = if matches
            .first()
            .is_some_and(|f| std::ptr::eq(f.form, chosen.form))
        {
            first_gate_ok
        } else {
            self.gates_pass(chosen)
        };
        if !gate_ok {
            self.check_gates(chosen, mnemonic_span);
            return;
        }
        let mnemonic = ast::span_text(self.src, mnemonic_span);
        let mut cvt;
        let m = if chosen.form.opcode == Opcode::Cvt {
            cvt = *chosen;
            if !self.check_cvt_rounding(&mut cvt, mnemonic_span) {
                return;
            }
            &cvt
        } else {
            chosen
        };
        let form = m.form;
        let n_given = inst.operands.len();
        let required = form.required_operands();
        let total = form.operands.len();
        if n_given < required || n_given > total {
            let want = if required == total {
                format!("{total}")
            } else {
                format!("{required} to {total}")
            };
            self.push(
                Diagnostic::error(
                    inst.span,
                    format!("`{mnemonic}` takes {want} operands, got {n_given}"),
                )
                .with_note(format!("the form is `{}`", form.syntax)),
            );
            return;
        }
        let rule = type_rule(form.opcode);
        // The packed narrow-float conversions: ptxas 12.9 takes only a register declared with
        // exactly the slot's type for the packed operand and the `.f16x2` one beside it; the
        // `.bf16x2` side of the ue8m0 conversions takes any 32-bit register, no wider.
        let has = |f: fn(&Type) -> bool| m.types.iter().flatten().any(f);
        let minifloat_pair = form.opcode == Opcode::Cvt
            && has(|t| {
                matches!(
                    t,
                    Type::E4m3x2 | Type::E5m2x2 | Type::E2m1x2 | Type::E2m3x2 | Type::E3m2x2
                )
            });
        let ue8m0_pair = form.opcode == Opcode::Cvt && has(|t| *t == Type::Ue8m0x2);
        let pair_rule = |expected: Option<Type>| match expected {
            Some(Type::B8 | Type::B16 | Type::B32) if minifloat_pair => Some(TypeRule::Exact),
            Some(Type::B16) if ue8m0_pair => Some(TypeRule::Exact),
            Some(Type::B32) if ue8m0_pair => Some(TypeRule::Strict),
            _ => None,
        };
        let mut optional_budget = n_given - required;
        let mut given = inst.operands.iter();
        // Nearly always inline (`with_capacity` would build the vector and then copy it).
        let mut operands = ir::Operands::new();
        let mut ok = true;
        for (index, role) in form.operands.iter().enumerate() {
            if role.optional {
                if optional_budget == 0 {
                    operands.push(Operand::Omitted);
                    continue;
                }
                optional_budget -= 1;
            }
            let Some(op) = given.next() else {
                break;
            };
            let expected = m.operand_type(index);
            let slot = Slot {
                m,
                role,
                expected,
                rule: if let Some(r) = pair_rule(expected) {
                    r
                } else if is_data_operand(form.opcode, role) {
                    rule
                } else {
                    TypeRule::Strict
                },
                mnemonic,
            };
            match self.lower_operand(body, &slot, op) {
                Some(o) => operands.push(o),
                None => ok = false,
            }
        }
        if !ok {
            return;
        }
        if form.opcode == Opcode::Mov
            && m.mods.vec.is_some()
            && !self.check_swizzle_distinct(&operands, &inst.operands)
        {
            return;
        }
        if form.opcode == Opcode::Vmad && !self.check_vmad_negation(&operands, inst.span) {
            return;
        }
        if form.opcode == Opcode::Mbarrier && !self.check_arrive_sink(mnemonic, &operands, inst) {
            return;
        }
        self.convert_call_immediates(m, &mut operands, &inst.operands);
        self.check_call(body, m, &operands, &inst.operands, inst.span);
        if !self.check_barrier_number(m, &operands, &inst.operands) {
            return;
        }
        if !self.check_tensor_memory(body, m, &operands, &inst.operands) {
            return;
        }
        if !self.check_cp_size(m, &operands, &inst.operands) {
            return;
        }
        self.warn_unspecified(m, &operands, &inst.operands);
        if !self.keep_ir {
            // Nobody reads a diagnostics-only check's instructions (see `finish_body`).
            return;
        }
        body.insts.push(ir::Inst {
            guard,
            op: form.opcode,
            form,
            mods: implied_mods(m.mods, form.opcode, m.types[0], self.version),
            types: m.types,
            operands,
            span: inst.span,
        });
    }

    fn lower_guard(&mut self, body: &Body<'a>, g: &ast::Guard) -> Option<Guard> {
        let name = g.predicate;
        let text = name.ident.text(self.src);
        match body.scope.lookup(text) {
            Some(LocalSym::Reg(r)) if name.suffix.is_none() => {
                if body.reg_ty(r) == Some(Type::Pred) {
                    Some(Guard {
                        reg: r,
                        negated: g.negated,
                    })
                } else {
                    self.error(
                        name.span(),
                        format!("guard `{text}` must be a `.pred` register"),
                    );
                    None
                }
            }
            Some(_) => {
                self.error(
                    name.span(),
                    format!("guard `{text}` must be a `.pred` register"),
                );
                None
            }
            None => {
                self.error(name.span(), format!("undeclared predicate `{text}`"));
                None
            }
        }
    }

    /// Matches opcode + modifiers against the table, reusing earlier results for the same
    /// spelling. Every matching form is returned (forms that differ only in operand shape
    /// share a spelling); the first is the table's preferred one.
    fn match_instruction(
        &mut self,
        inst: &ast::Instruction,
        span: Span,
    ) -> Option<(std::rc::Rc<[isa::Match]>, bool)> {
        let key = ast::span_text(self.src, span);
        let result = match self.match_cache.get(key) {
            Some(r) => r.clone(),
            None => {
                let mut mods: Vec<&str> = Vec::with_capacity(8);
                for (_, m) in inst.modifiers(self.src).take(MAX_MODS + 1) {
                    mods.push(m);
                }
                let opcode = inst.opcode.text(self.src);
                let all: Vec<isa::Match> = isa::match_all(opcode, &mods).collect();
                let r = if all.is_empty() {
                    match isa::match_form(opcode, &mods) {
                        // match_all and match_form disagree only if the table changes under
                        // us; take match_form's verdict.
                        Ok(m) => Ok(std::rc::Rc::from(vec![m])),
                        Err(e) => Err(e),
                    }
                } else {
                    Ok(std::rc::Rc::from(all))
                };
                let r = r.map(|ms: std::rc::Rc<[isa::Match]>| {
                    let ok = ms.first().is_some_and(|m| self.gates_pass(m));
                    (ms, ok)
                });
                self.match_cache.insert(key, r.clone());
                r
            }
        };
        match result {
            Ok(ms) => Some(ms),
            Err(e) => {
                let at = e
                    .index
                    .and_then(|i| inst.modifiers(self.src).nth(i))
                    .map_or(
                        if e.kind == isa::MatchErrorKind::UnknownOpcode {
                            inst.opcode.span
                        } else {
                            span
                        },
                        |(s, _)| s,
                    );
                let opcode = inst.opcode.text(self.src);
                let bad = e
                    .index
                    .and_then(|i| inst.modifiers(self.src).nth(i))
                    .map(|(_, m)| m);
                let read_only_space = matches!(opcode, "st" | "atom" | "red")
                    && matches!(bad, Some(".const" | ".tex" | ".sreg"));
                // ptx-isa-1.1 §6.4.3/§6.5.3 show `add.v4.s32 v3, v2, v1` in prose, but no
                // instruction table lists a vector modifier for arithmetic.
                let vector_arith = matches!(bad, Some(".v2" | ".v3" | ".v4"))
                    && e.kind == isa::MatchErrorKind::UnknownModifier
                    && isa::lookup(opcode).is_some_and(|forms| {
                        forms
                            .iter()
                            .all(|f| f.operands.iter().all(|o| o.vector == isa::VecRule::Scalar))
                    });
                let message = if vector_arith {
                    format!(
                        "`{opcode}` has no vector form: element-wise vector arithmetic is not \
                         supported (ptx-isa-1.1 §10.5.3: \"Vector operands are not generally \
                         supported\"; only mov, ld, st and tex take vector operands); apply \
                         `{opcode}` to each element (`v.x`, `v.y`, …)"
                    )
                } else if bad == Some(".surf") {
                    format!(
                        "`{opcode}.surf`: \"Declarations and instructions using .surf space are \
                         not supported\" (ptx-isa-1.1 §10.5.2)"
                    )
                } else if read_only_space {
                    format!(
                        "`{opcode}` cannot write to `{}`: the state space is read-only (ptx-isa-1.1 §5.1 Table 5)",
                        bad.unwrap_or("")
                    )
                } else if e.kind == isa::MatchErrorKind::UnknownOpcode
                    && isa::NOT_SUPPORTED.contains(&opcode)
                {
                    // Name the whole instruction (`cp.async.bulk.tensor…`, not just `cp`):
                    // the opcode alone does not say which family is missing.
                    let whole = ast::span_text(self.src, span)
                        .split_whitespace()
                        .collect::<String>();
                    format!("`{whole}` is a PTX instruction that ptxvm does not support")
                } else {
                    e.message.clone()
                };
                let mut d = Diagnostic::error(at, message);
                // The forms cannot help: none takes `.surf` or a vector.
                let notes = if bad == Some(".surf") || vector_arith {
                    &[][..]
                } else {
                    &e.notes[..]
                };
                for n in notes {
                    d = d.with_note(n.clone());
                }
                self.push(d);
                None
            }
        }
    }

    fn gates_pass(&self, m: &isa::Match) -> bool {
        match m.check_gate_target(self.target.sm, self.target.arch_suffix, self.version) {
            Ok(()) => true,
            Err(isa::GateError::Sm { need, .. }) => {
                self.target.map_f64_to_f32
                    && need <= 13
                    && m.types.iter().flatten().any(|t| *t == Type::F64)
            }
            Err(_) => false,
        }
    }

    /// The `.target`/`.version` gates of the matched instruction (the "PTX ISA Notes" and
    /// "Target ISA Notes" of each instruction).
    fn check_gates(&mut self, m: &isa::Match, span: Span) -> bool {
        match m.check_gate_target(self.target.sm, self.target.arch_suffix, self.version) {
            Ok(()) => true,
            // ptx-isa-1.1 §9.3 Table 77: with map_f64_to_f32, double-precision instructions
            // are accepted and executed in single precision on targets without doubles.
            Err(isa::GateError::Sm { need, .. })
                if self.target.map_f64_to_f32
                    && need <= 13
                    && m.types.iter().flatten().any(|t| *t == Type::F64) =>
            {
                true
            }
            Err(e) => {
                self.error(span, e.to_string());
                false
            }
        }
    }

    /// `call` arguments against the callee's signature (count of return values and
    /// arguments).
    fn check_call(
        &mut self,
        body: &Body<'a>,
        m: &isa::Match,
        ops: &[Operand],
        written: &[ast::Operand],
        span: Span,
    ) {
        if m.form.opcode != Opcode::Call {
            return;
        }
        self.check_call_operands(body, m, ops, written, span);
        self.list_lanes.clear();
    }

    fn check_call_operands(
        &mut self,
        body: &Body<'a>,
        m: &isa::Match,
        ops: &[Operand],
        written: &[ast::Operand],
        span: Span,
    ) {
        let mut rets = None;
        let mut args = None;
        let mut callee = None;
        let mut proto = None;
        let mut flist = None;
        for (role, op) in m.form.operands.iter().zip(ops) {
            match (role.name, op) {
                ("ret", Operand::List(l)) => rets = Some(l.len()),
                ("params", Operand::List(l)) => args = Some(l.len()),
                (_, Operand::Func(f)) => callee = Some(*f),
                (_, Operand::Proto(p)) => proto = Some(*p),
                (_, Operand::CallTargets(fs)) => flist = Some(fs.clone()),
                _ => {}
            }
        }
        // "the call operands are type-checked against the type signature of the functions
        // indicated by flist" (PTX ISA §9.7.12.5): each listed function, as a direct call of
        // it would be (ptxas 12.9 reports a list member of another signature at the call).
        if let Some(fs) = flist {
            let mut seen: Vec<ir::FuncId> = Vec::new();
            for f in fs.iter() {
                if !seen.contains(f) {
                    seen.push(*f);
                    self.check_call_against(body, m, ops, written, span, (*f, args, rets));
                }
            }
            return;
        }
        // An indirect call passes what its prototype declares (ptxas: "Call has wrong number
        // of parameters"); a vector `.reg` parameter counts as its elements on both sides.
        if let Some((pid, p)) = proto.and_then(|id| Some((id, self.prototypes.get(id.index())?))) {
            let (np, nr) = (p.params.len(), p.rets.len());
            let (ga, gr) = (args.unwrap_or(0), rets.unwrap_or(0));
            let name = p.name.clone();
            if ga != np || gr != nr {
                self.error(
                    span,
                    format!(
                        "prototype `{name}` takes {np} argument(s) and returns {nr} value(s); the call passes {ga} and receives {gr}"
                    ),
                );
                return;
            }
            let lanes = self.proto_lanes.get(&pid).cloned();
            self.check_arg_shapes(m, written, lanes, &format!("prototype `{name}`"), span);
            return;
        }
        if let Some(c) = callee {
            self.check_call_against(body, m, ops, written, span, (c, args, rets));
        }
    }

    /// A call's operands against the signature of `callee`, a function it calls directly or
    /// may reach through its `flist`. `counts.1`/`counts.2`: the arguments and return values
    /// the call passes (`None`: no list).
    fn check_call_against(
        &mut self,
        body: &Body<'a>,
        m: &isa::Match,
        ops: &[Operand],
        written: &[ast::Operand],
        span: Span,
        counts: (ir::FuncId, Option<usize>, Option<usize>),
    ) {
        let (id, args, rets) = counts;
        let callee = Some(id);
        let Some(f) = self.functions.get(id.index()) else {
            return;
        };
        if f.kind == ir::FuncKind::Entry {
            let name = f.name.clone();
            self.error(
                span,
                format!("`{name}` is an `.entry` and cannot be called"),
            );
            return;
        }
        let (np, nr) = (f.params.len(), f.rets.len());
        let (ga, gr) = (args.unwrap_or(0), rets.unwrap_or(0));
        if ga != np || gr != nr {
            let name = f.name.clone();
            let note = match callee.is_some_and(|c| self.param_lanes.contains_key(&c)) {
                true => " (a vector parameter counts as its elements)",
                false => "",
            };
            self.error(
                span,
                format!(
                    "`{name}` takes {np} argument(s) and returns {nr} value(s); the call passes {ga} and receives {gr}{note}"
                ),
            );
            return;
        }
        let lanes = callee.and_then(|c| self.param_lanes.get(&c).cloned());
        let fname = format!("`{}`", f.name);
        if !self.check_arg_shapes(m, written, lanes, &fname, span) {
            return;
        }
        let Some(f) = callee.and_then(|f| self.functions.get(f.index())) else {
            return;
        };
        // Each argument must be as large as the parameter it binds (ptx-isa-1.1 §9.1 Table 69:
        // "The parameter lists bind register names in the caller's namespace to register names
        // in the callee namespace"). Names are looked up only for a message.
        let mut problems = Vec::new();
        for (role, op) in m.form.operands.iter().zip(ops) {
            let Operand::List(list) = op else {
                continue;
            };
            let is_ret = role.name == "ret";
            let decl = if is_ret { &f.rets } else { &f.params };
            for (k, (arg, param)) in list.iter().zip(decl).enumerate() {
                let want = match param {
                    ir::Param::Var(v) => self.vars.get(v.index()).map(|v| v.size),
                    ir::Param::Reg(r) => {
                        f.regs.get(r.index()).map(|r| crate::decl::type_bytes(r.ty))
                    }
                };
                let got = match arg {
                    Operand::VarAddr { var, .. } => self.vars.get(var.index()).map(|v| v.size),
                    Operand::Reg(r) => body.reg_ty(*r).map(crate::decl::type_bytes),
                    _ => None,
                };
                let (Some(want), Some(got)) = (want, got) else {
                    continue;
                };
                if want == got {
                    continue;
                }
                let pname = match param {
                    ir::Param::Var(v) => self.vars.get(v.index()).map(|v| v.name.clone()),
                    ir::Param::Reg(r) => f.regs.get(r.index()).map(|r| r.name.to_string()),
                };
                problems.push(format!(
                    "{} {} of `{}` is {got} bytes, but `{}` is {want} bytes",
                    if is_ret { "return value" } else { "argument" },
                    k + 1,
                    f.name,
                    pname.unwrap_or_default(),
                ));
            }
        }
        for p in problems {
            self.error(span, p);
        }
    }

    /// A vector `.reg` parameter takes a vector register of as many elements, and a scalar
    /// parameter a scalar (ptxas 12.9: "Type of argument does not match formal parameter");
    /// the argument counts are of elements. `lanes`: the elements of each declared return
    /// value and parameter (`None`: all scalars). `false` when an error was reported.
    fn check_arg_shapes(
        &mut self,
        m: &isa::Match,
        written: &[ast::Operand],
        lanes: Option<(Vec<u8>, Vec<u8>)>,
        callee: &str,
        span: Span,
    ) -> bool {
        let mut problems = Vec::new();
        for (role, w) in m.form.operands.iter().zip(written) {
            let (true, ast::Operand::List(wl)) = (matches!(role.name, "ret" | "params"), w) else {
                continue;
            };
            let is_ret = role.name == "ret";
            let got = self.arg_lanes(wl.span, wl.elements.len());
            let want = match &lanes {
                Some((r, _)) if is_ret => r.clone(),
                Some((_, p)) => p.clone(),
                None => vec![1; wl.elements.len()],
            };
            if let Some(k) = got.iter().zip(&want).position(|(g, w)| g != w) {
                let shape = |n: u8| match n {
                    1 => "a scalar".to_string(),
                    n => format!("a .v{n} vector"),
                };
                problems.push(format!(
                    "{} {} of {callee} is {}, but the parameter is {}",
                    if is_ret { "return value" } else { "argument" },
                    k + 1,
                    shape(got.get(k).copied().unwrap_or(1)),
                    shape(want.get(k).copied().unwrap_or(1)),
                ));
            }
        }
        let ok = problems.is_empty();
        for p in problems {
            self.error(span, p);
        }
        ok
    }

    /// `mbarrier.arrive _, [a]`: ptxas 12.9 discards the state only from PTX ISA 7.1 ("Result
    /// discard mode is not allowed for instruction 'mbarrier.arrive'" in a 7.0 file), while
    /// `mbarrier.arrive_drop` takes `_` from 7.0.
    fn check_arrive_sink(
        &mut self,
        mnemonic: &str,
        ops: &[Operand],
        inst: &ast::Instruction,
    ) -> bool {
        let arrive = mnemonic
            .strip_prefix("mbarrier.arrive")
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'));
        // PTX ISA 8.x §9.7.13.15.13: an arrive on an object in `.shared::cluster` returns no
        // state (ptxas: "Sink '_' is expected as a destination operand").
        if arrive
            && mnemonic.contains(".shared::cluster")
            && !matches!(ops.first(), Some(Operand::Sink))
        {
            let span = inst.operands.first().map_or(inst.span, |o| o.span());
            self.error(
                span,
                format!("`{mnemonic}` on a `.shared::cluster` object returns no state: write `_`"),
            );
            return false;
        }
        if !arrive
            || self.version >= PtxVersion::new(7, 1)
            || !matches!(ops.first(), Some(Operand::Sink))
        {
            return true;
        }
        let span = inst.operands.first().map_or(inst.span, |o| o.span());
        self.error(
            span,
            format!(
                "`_` as the state of `mbarrier.arrive` requires PTX ISA version 7.1 or higher \
                 (file is .version {})",
                self.version
            ),
        );
        false
    }

    /// ptx-isa-1.1 §7.7.7 Table 51: barriers are "typically in the range 0..15"; sm_20 and
    /// later have exactly 16 (ptxas: "Barrier number out of range").
    /// ptx-video.md vmad: "PTX allows negation of either (a*b) or c" — a product negated by
    /// exactly one of `-a`/`-b` together with `-c` is refused (as ptxas does); `-a, -b` cancel
    /// and leave `-c` free.
    fn check_vmad_negation(&mut self, ops: &[Operand], span: Span) -> bool {
        let neg = |k: usize| {
            matches!(
                ops.get(k),
                Some(Operand::Neg(_) | Operand::NegSelected { .. })
            )
        };
        if neg(1) != neg(2) && neg(3) {
            self.push(
                Diagnostic::error(
                    span,
                    "`vmad` negates either the product (`-a` or `-b`) or `c`, not both",
                )
                .with_note("ptx-video.md vmad: \"PTX allows negation of either (a*b) or c\""),
            );
            return false;
        }
        true
    }

    /// PTX ISA 8.x §9.7.9.25.3.1: `cp-size` "can only be 4, 8 and 16" for `.ca`, and only
    /// 16 for `.cg` (ptxas refuses the rest).
    fn check_cp_size(&mut self, m: &isa::Match, ops: &[Operand], ast_ops: &[ast::Operand]) -> bool {
        if m.form.opcode != Opcode::Cp {
            return true;
        }
        let Some(i) = m.form.operands.iter().position(|o| o.name == "size") else {
            return true;
        };
        // Bulk copies take a multiple of 16 (§9.7.9.25.4.1), in a register too (checked when
        // they run); ptxas refuses an immediate that is not one.
        if m.mods.has(isa::Flag::Bulk) {
            if let Some(Operand::Imm(n)) = ops.get(i) {
                if n % 16 != 0 {
                    let span = ast_ops.get(i).map_or(Span::default(), |o| o.span());
                    self.error(
                        span,
                        "`cp.async.bulk` copies a multiple of 16 bytes (PTX ISA 8.x §9.7.9.25.4.1)",
                    );
                    return false;
                }
            }
            return true;
        }
        let cg = m.mods.cache == Some(isa::CacheOp::Cg);
        let ok = match ops.get(i) {
            Some(Operand::Imm(16)) => true,
            Some(Operand::Imm(4 | 8)) => !cg,
            _ => false,
        };
        if !ok {
            let span = ast_ops.get(i).map_or(Span::default(), |o| o.span());
            let allowed = if cg { "16" } else { "4, 8 or 16" };
            self.error(
                span,
                format!("`cp.async` copies {allowed} bytes here (PTX ISA 8.x §9.7.9.25.3.1)"),
            );
            return false;
        }
        true
    }

    fn check_barrier_number(
        &mut self,
        m: &isa::Match,
        ops: &[Operand],
        ast_ops: &[ast::Operand],
    ) -> bool {
        if !matches!(m.form.opcode, Opcode::Bar | Opcode::Barrier) {
            return true;
        }
        let pos = m.form.operands.iter().position(|o| o.name == "a");
        if let (Some(i), Some(Operand::Imm(v))) = (pos, pos.and_then(|i| ops.get(i))) {
            if *v > 15 {
                let span = ast_ops.get(i).map_or(Span::default(), |o| o.span());
                self.error(span, format!("barrier number {v} is out of range (0..=15)"));
                return false;
            }
        }
        true
    }

    /// Warnings for operand values whose result the spec leaves unspecified or undefined.
    fn warn_unspecified(&mut self, m: &isa::Match, ops: &[Operand], ast_ops: &[ast::Operand]) {
        let at = |name: &str| {
            let i = m.form.operands.iter().position(|o| o.name == name)?;
            Some((
                ops.get(i)?,
                ast_ops.get(i).map(|o| o.span()).unwrap_or_default(),
            ))
        };
        match m.form.opcode {
            // ptx-integer-arithmetic.md §9.7.1.8 div (and ptx-isa-1.1 Table 23): "Division by
            // zero yields an unspecified, machine-specific value." rem divides too.
            Opcode::Div | Opcode::Rem if m.ty().is_some_and(|t| t.is_integer()) => {
                if let Some((Operand::Imm(0), span)) = at("b") {
                    self.push(
                        Diagnostic::warning(span, "integer division by zero")
                            .with_note("the result is unspecified and machine-specific (ptx-integer-arithmetic.md §9.7.1.8)"),
                    );
                }
            }
            // ptx-integer-arithmetic.md §9.7.1.17 fns: "Operand base must be <= 31, otherwise
            // behavior is undefined."
            Opcode::Fns => {
                if let Some((Operand::Imm(v), span)) = at("base") {
                    if *v > 31 {
                        self.push(
                            Diagnostic::warning(span, format!("`fns` base {v} is greater than 31"))
                                .with_note("the behaviour is undefined (ptx-integer-arithmetic.md §9.7.1.17)"),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// `.reg .s32 i = 0;` (ptx-isa-1.1 §5.3.1, §5.3.5): lowered to a `mov` placed before the
    /// body's first instruction.
    pub(crate) fn lower_register_init(
        &mut self,
        body: &mut Body<'a>,
        sym: LocalSym,
        ty: Type,
        init: &ast::Initializer,
        span: Span,
    ) {
        let regs: Vec<ir::RegId> = match sym {
            LocalSym::Reg(r) => vec![r],
            LocalSym::VecReg { first, len } => (0..u32::from(len))
                .map(|i| ir::RegId(first.0 + i))
                .collect(),
            LocalSym::Var(_) => return,
        };
        let exprs: Vec<&ast::Expr> = match init {
            ast::Initializer::Expr(e) => vec![e; regs.len()],
            ast::Initializer::List(items, lspan) => {
                let mut v = Vec::new();
                for it in items {
                    match it {
                        ast::Initializer::Expr(e) => v.push(e),
                        ast::Initializer::List(_, s) => {
                            self.error(*s, "nested lists do not initialize a register");
                            return;
                        }
                    }
                }
                if v.len() != regs.len() {
                    self.error(
                        *lspan,
                        format!("{} values for {} registers", v.len(), regs.len()),
                    );
                    return;
                }
                v
            }
        };
        let Ok(m) = isa::match_form("mov", &[ty.suffix()]) else {
            self.error(
                span,
                format!("a {} register cannot be initialized", ty.suffix()),
            );
            return;
        };
        for (r, e) in regs.into_iter().zip(exprs) {
            let v = match crate::consteval::eval(e, self.src) {
                Ok(v) => v,
                Err((s, msg)) => {
                    self.error(s, msg);
                    return;
                }
            };
            let bits = match crate::imm::imm_bits(v, ty) {
                Ok(b) => b,
                Err(msg) => {
                    self.error(e.span(), msg);
                    return;
                }
            };
            let _: Value = v;
            let mut operands: ir::Operands =
                [Operand::Reg(r), Operand::Imm(bits)].into_iter().collect();
            operands.truncate(m.form.operands.len());
            body.reg_inits.push(ir::Inst {
                guard: None,
                op: Opcode::Mov,
                form: m.form,
                mods: m.mods,
                types: m.types,
                operands,
                span,
            });
        }
    }
}

impl Checker<'_> {
    /// `ld.global.b32 { %r1 }, [%rd1];` (every Triton kernel writes its scalar loads and stores
    /// so): ptxas takes a one-element brace list as the value of a scalar `ld`, `ldu` or `st`
    /// and means the element. The instruction with each such list replaced by its element, or
    /// `None` when there is nothing to replace (the common case, which costs one scan).
    fn unwrap_single_brace(&self, inst: &ast::Instruction) -> Option<ast::Instruction> {
        let single =
            |o: &ast::Operand| matches!(o, ast::Operand::Vector(v) if v.elements.len() == 1);
        if !inst.operands.iter().any(single)
            || !matches!(inst.opcode.text(self.src), "ld" | "ldu" | "st")
            || inst
                .modifiers(self.src)
                .any(|(_, m)| matches!(m, ".v2" | ".v3" | ".v4" | ".v8"))
        {
            return None;
        }
        let mut out = inst.clone();
        for o in &mut out.operands {
            if let ast::Operand::Vector(v) = o {
                if let [e] = v.elements.as_slice() {
                    *o = e.clone();
                }
            }
        }
        Some(out)
    }
}

/// Several forms share one spelling and differ in operand shape (`call f;` vs
/// `call (r), f, (a);`, `mov d, a;` vs `mov d, {a, b};`): pick the first the operands fit, or
/// the table's first form (whose errors are then reported).
fn choose_form<'m>(matches: &'m [isa::Match], ops: &[ast::Operand]) -> Option<&'m isa::Match> {
    if let [only] = matches {
        return Some(only);
    }
    matches
        .iter()
        .find(|m| shape_fits(m, ops))
        .or_else(|| matches.first())
}

/// `ld`, `st`, `ldu` and `cvt` allow wider integer registers than their type.
fn type_rule(op: Opcode) -> TypeRule {
    match op {
        Opcode::Ld | Opcode::Ldu | Opcode::St | Opcode::Cvt => TypeRule::Relaxed,
        _ => TypeRule::Strict,
    }
}

/// The relaxed rule applies to the data operands (`d` of `ld`/`cvt`, `b` of `st`, `a` of
/// `cvt`), not to addresses.
fn is_data_operand(_op: Opcode, role: &isa::Operand) -> bool {
    matches!(
        role.kind,
        OperandKind::Dst | OperandKind::Src | OperandKind::SrcReg
    )
}

/// Whether the operands, by their syntactic shape alone, could fill the form's positions.
fn shape_fits(m: &isa::Match, ops: &[ast::Operand]) -> bool {
    let form = m.form;
    let required = form.required_operands();
    if ops.len() < required || ops.len() > form.operands.len() {
        return false;
    }
    let mut budget = ops.len() - required;
    let mut given = ops.iter();
    for role in &form.operands {
        if role.optional {
            if budget == 0 {
                continue;
            }
            budget -= 1;
        }
        let Some(op) = given.next() else {
            return false;
        };
        let is_vector = !matches!(role.vector, VecRule::Scalar);
        let fits = match role.kind {
            OperandKind::ParamList => matches!(op, ast::Operand::List(_)),
            OperandKind::Func
            | OperandKind::Proto
            | OperandKind::Label
            | OperandKind::TargetList => op.as_name().is_some(),
            OperandKind::Addr => matches!(op, ast::Operand::Address(_) | ast::Operand::Indexed(_)),
            OperandKind::TexAddr => matches!(op, ast::Operand::Address(_)),
            OperandKind::DstPair => matches!(op, ast::Operand::Pair(_) | ast::Operand::Expr(_)),
            _ if is_vector => match (op, role.vector) {
                (ast::Operand::Vector(v), VecRule::Fixed(n)) => v.elements.len() == usize::from(n),
                (ast::Operand::Vector(v), VecRule::FromVecMod) => {
                    m.mods.vec.map(|w| w.lanes() as usize) == Some(v.elements.len())
                }
                (ast::Operand::Vector(_) | ast::Operand::Expr(ast::Expr::Name(_)), _) => true,
                _ => false,
            },
            _ => {
                !matches!(
                    op,
                    ast::Operand::Vector(_) | ast::Operand::List(_) | ast::Operand::Pair(_)
                ) && !matches!(op, ast::Operand::Address(_))
            }
        };
        if !fits {
            return false;
        }
    }
    true
}

/// The modifiers an instruction means, with those that old PTX implies spelled out, so that
/// every consumer of the IR reads one meaning: "For PTX ISA versions 1.0 through 1.3,
/// `sin.f32` defaults to `sin.approx.ftz.f32`" (PTX ISA §9.7.3, PTX ISA Notes of `sin cos lg2
/// ex2 rcp sqrt rsqrt`; the same sentence for each), and `rcp.f64`/`sqrt.f64` default to
/// `.rn`.
fn implied_mods(
    mut mods: ir::Mods,
    op: ir::Opcode,
    ty: Option<ir::Type>,
    version: ir::PtxVersion,
) -> ir::Mods {
    use ir::Opcode as O;
    let approx_default = matches!(op, O::Sin | O::Cos | O::Lg2 | O::Ex2 | O::Rsqrt)
        || matches!(op, O::Rcp | O::Sqrt) && mods.rounding.is_none();
    if approx_default
        && ty == Some(ir::Type::F32)
        && version < ir::PtxVersion::new(1, 4)
        && !mods.has(ir::Flag::Approx)
    {
        mods.flags.insert(ir::Flag::Approx);
        mods.flags.insert(ir::Flag::Ftz);
    }
    // "rcp.f64 defaults to rcp.rn.f64" (and sqrt.f64) for the same versions.
    if matches!(op, O::Rcp | O::Sqrt)
        && ty == Some(ir::Type::F64)
        && version < ir::PtxVersion::new(1, 4)
        && mods.rounding.is_none()
        && !mods.has(ir::Flag::Approx)
    {
        mods.rounding = Some(isa::Rounding::Rn);
    }
    mods
}
