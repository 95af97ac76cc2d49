//! Matching a spelled instruction (`add` + `[".sat", ".s32"]`) against the table.

use crate::form::{Form, Gate, PtxVersion, SlotKind, TypeRef};
use crate::mods::{Mods, MulMode};
use crate::opcode::Opcode;
use crate::table::forms_of;
use crate::types::Type;

/// Opcodes of PTX ISA 8.x that the table has no rows for (surfaces, asynchronous copies,
/// matrix and tensor-core instructions, cluster and memory-management extras): named in
/// errors as unsupported rather than unknown.
pub const NOT_SUPPORTED: &[&str] = &[
    "suld",
    "sust",
    "sured",
    "suq",
    "tld4",
    "istypep",
    "multimem",
    "tensormap",
    "getctarank",
    "mapa",
    "griddepcontrol",
    "setmaxnreg",
    "stacksave",
    "stackrestore",
    "alloca",
    "applypriority",
    "discard",
    "createpolicy",
    "clusterlaunchcontrol",
];

/// The most modifiers-plus-types one instruction may spell; longer lists are rejected.
pub const MAX_SPELLED: usize = 16;
/// The most type slots a form has.
pub const MAX_TYPE_SLOTS: usize = 4;

/// A successful match: the form, the decoded modifiers and the chosen types.
#[derive(Clone, Copy, Debug)]
pub struct Match {
    pub form: &'static Form,
    pub mods: Mods,
    /// The type chosen for each type slot of the form, in slot order.
    pub types: [Option<Type>; MAX_TYPE_SLOTS],
    spelled: [&'static str; MAX_SPELLED],
    n_spelled: usize,
    spelled_ids: crate::spell::SpellSet,
}

/// Why a spelled instruction matched no form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MatchErrorKind {
    /// No instruction of that name.
    UnknownOpcode,
    /// The spelling is not a modifier or type of any form of this opcode.
    UnknownModifier,
    /// The spelling belongs to other forms of this opcode, not to one that fits the rest.
    NotAllowed,
    /// A required modifier or type is missing.
    Missing,
    /// Two modifiers of one class (two roundings, `.sat` twice).
    Duplicate,
    /// The combination is excluded by the spec's prose.
    Excluded,
    /// More than [`MAX_SPELLED`] modifiers.
    TooMany,
}

/// A user-facing matching error. `index` is the position in the modifier list the error is
/// about, when there is one, so the caller can point at that modifier's span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchError {
    pub kind: MatchErrorKind,
    pub index: Option<usize>,
    pub message: String,
    pub notes: Vec<String>,
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MatchError {}

/// Why an instruction is not available on a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GateError {
    /// `dp4a requires .target sm_61 or higher (file targets sm_52)`
    Sm {
        what: String,
        need: u32,
        have: u32,
        reason: Option<&'static str>,
    },
    /// `add.u16x2 requires PTX ISA version 8.0 or higher (file is .version 7.0)`
    Ptx {
        what: String,
        need: PtxVersion,
        have: PtxVersion,
        reason: Option<&'static str>,
    },
    /// `vote.all is not supported on sm_70 or higher (file targets sm_80): use vote.sync`
    Removed {
        what: String,
        from: u32,
        have: u32,
        reason: Option<&'static str>,
    },
    /// `cvt.f32.s32 is not valid in PTX ISA version 1.4 or later (file is .version 7.0): a
    /// rounding modifier is required`
    RemovedPtx {
        what: String,
        from: PtxVersion,
        have: PtxVersion,
        reason: Option<&'static str>,
    },
    /// `redux.sync.max.f32 requires .target sm_100a or sm_100f, sm_103a or sm_103f (file
    /// targets sm_100)`: an architecture-specific form.
    Arch {
        what: String,
        need: &'static [crate::form::ArchTarget],
        have: String,
    },
}

impl std::fmt::Display for GateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GateError::Sm {
                what,
                need,
                have,
                reason,
            } => {
                write!(
                    f,
                    "{what} requires .target sm_{need} or higher (file targets sm_{have})"
                )?;
                reason.map_or(Ok(()), |r| write!(f, ": {r}"))
            }
            GateError::Ptx {
                what,
                need,
                have,
                reason,
            } => {
                write!(
                    f,
                    "{what} requires PTX ISA version {need} or higher (file is .version {have})"
                )?;
                reason.map_or(Ok(()), |r| write!(f, ": {r}"))
            }
            GateError::Removed {
                what,
                from,
                have,
                reason,
            } => {
                write!(
                    f,
                    "{what} is not supported on sm_{from} or higher (file targets sm_{have})"
                )?;
                reason.map_or(Ok(()), |r| write!(f, ": {r}"))
            }
            GateError::RemovedPtx {
                what,
                from,
                have,
                reason,
            } => {
                write!(
                    f,
                    "{what} is not valid in PTX ISA version {from} or later (file is .version {have})"
                )?;
                reason.map_or(Ok(()), |r| write!(f, ": {r}"))
            }
            GateError::Arch { what, need, have } => {
                write!(f, "{what} requires .target ")?;
                for (i, t) in need.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(
                    f,
                    " (file targets {have}; the form is architecture-specific)"
                )
            }
        }
    }
}

impl std::error::Error for GateError {}

impl Match {
    pub fn opcode(&self) -> Opcode {
        self.form.opcode
    }

    /// The spellings matched, in the order written, as the table spells them.
    pub fn spelled(&self) -> &[&'static str] {
        self.spelled.get(..self.n_spelled).unwrap_or(&[])
    }

    /// The instruction as spelled: `add.sat.s32`.
    pub fn mnemonic(&self) -> String {
        let mut s = self.form.opcode.name().to_string();
        for m in self.spelled() {
            s.push_str(m);
        }
        s
    }

    /// The type of the first type slot (the "instruction type").
    pub fn ty(&self) -> Option<Type> {
        self.types[0]
    }

    /// Resolves a [`TypeRef`] against the matched types and modifiers.
    #[inline]
    pub fn resolve(&self, r: TypeRef) -> Option<Type> {
        resolve_type_ref(r, &self.types, &self.mods)
    }

    /// The type operand `i` must be compatible with; `None` for untyped operands. Packed
    /// instruction types that are not register types give their bit-size register type
    /// (ptx-integer-arithmetic.md §add: "For instruction types .u16x2, .s16x2, operands d, a and
    /// b have type .b32"; PTX ISA 8.x §9.7.4: `.bf16`/`.bf16x2` operands are `.b16`/`.b32`).
    #[inline]
    pub fn operand_type(&self, i: usize) -> Option<Type> {
        let t = self.resolve(self.form.operands.get(i)?.ty)?;
        Some(match t {
            Type::U16x2 | Type::S16x2 | Type::Bf16x2 => Type::B32,
            Type::Bf16 => Type::B16,
            t => t,
        })
    }

    /// The gate of this instruction: the form's gate joined with every conditional gate whose
    /// condition the spelled modifiers meet.
    pub fn gate(&self) -> Gate {
        self.active_cond_gates()
            .fold(self.form.gate, |acc, g| acc.join(g.gate))
    }

    /// The conditional gates whose condition this instruction meets.
    pub fn active_cond_gates(&self) -> impl Iterator<Item = &'static crate::form::CondGate> + '_ {
        self.form
            .cond_gates
            .iter()
            .filter(move |g| self.condition_holds(&g.when))
    }

    /// Evaluates a table condition against this instruction.
    pub fn condition_holds(&self, c: &crate::form::Condition) -> bool {
        use crate::form::Term;
        c.terms.iter().enumerate().all(|(i, t)| {
            let hit = || {
                c.sets
                    .get(i)
                    .is_some_and(|s| s.intersects(&self.spelled_ids))
            };
            match t {
                Term::AnyOf(_) => hit(),
                Term::NoneOf(_) => !hit(),
                Term::SlotIs { slot, types } => {
                    self.slot_type(slot).is_some_and(|t| types.contains(&t))
                }
                Term::SlotIsNot { slot, types } => {
                    !self.slot_type(slot).is_some_and(|t| types.contains(&t))
                }
                Term::WrittenBefore { first, then } => crate::form::written_before(
                    self.spelled.get(..self.n_spelled).unwrap_or(&[]),
                    first,
                    then,
                ),
            }
        })
    }

    /// The type chosen for the type slot written `name` (`.dtype`).
    pub fn slot_type(&self, name: &str) -> Option<Type> {
        let i = self.form.type_slots().position(|s| s.name == name)?;
        self.types.get(i).copied().flatten()
    }

    /// Checks the gate against a file's `.target sm_NN` and `.version`; the error names the
    /// requirement and what the file has.
    pub fn check_gate(&self, sm: u32, ptx: PtxVersion) -> Result<(), GateError> {
        self.check_gate_target(sm, None, ptx)
    }

    /// [`Match::check_gate`] for a target with its architecture suffix (`sm_90a` → 90 and
    /// `Some('a')`), which architecture-specific forms (`gate ... arch`) need.
    pub fn check_gate_target(
        &self,
        sm: u32,
        suffix: Option<char>,
        ptx: PtxVersion,
    ) -> Result<(), GateError> {
        let primary = self.check_primary_gate(sm, suffix, ptx);
        match self.form.alt_gate {
            // `gate or`: a second set of minima (with the conditional gates on top). It never
            // lifts a removal or an architecture-specific target list.
            Some(alt) if primary.is_err() => {
                let alt = self
                    .active_cond_gates()
                    .fold(alt, |acc, g| acc.join(g.gate));
                let final_refusal = matches!(
                    primary,
                    Err(GateError::Removed { .. }
                        | GateError::RemovedPtx { .. }
                        | GateError::Arch { .. })
                );
                if !final_refusal && sm >= alt.min_sm && ptx >= alt.min_ptx {
                    Ok(())
                } else {
                    primary
                }
            }
            _ => primary,
        }
    }

    fn check_primary_gate(
        &self,
        sm: u32,
        suffix: Option<char>,
        ptx: PtxVersion,
    ) -> Result<(), GateError> {
        let gate = self.gate();
        if let Some(list) = gate.arch {
            if !list.iter().any(|t| t.admits(sm, suffix)) {
                return Err(GateError::Arch {
                    what: self.mnemonic(),
                    need: list,
                    have: format!("sm_{sm}{}", suffix.map(String::from).unwrap_or_default()),
                });
            }
        }
        let what = || self.gate_subject();
        let reason = self.active_cond_gates().find_map(|g| g.reason);
        if let Some(from) = gate.max_sm {
            if sm >= from {
                return Err(GateError::Removed {
                    what: what(),
                    from,
                    have: sm,
                    reason,
                });
            }
        }
        if let Some(from) = gate.max_ptx {
            if ptx >= from {
                return Err(GateError::RemovedPtx {
                    what: what(),
                    from,
                    have: ptx,
                    reason,
                });
            }
        }
        // The reason of a conditional gate that itself asks for more than the file has.
        let why = |fails: &dyn Fn(&Gate) -> bool| {
            self.active_cond_gates()
                .filter(|g| fails(&g.gate))
                .find_map(|g| g.reason)
        };
        if sm < gate.min_sm {
            return Err(GateError::Sm {
                what: what(),
                need: gate.min_sm,
                have: sm,
                reason: why(&|g| sm < g.min_sm),
            });
        }
        if ptx < gate.min_ptx {
            return Err(GateError::Ptx {
                what: what(),
                need: gate.min_ptx,
                have: ptx,
                reason: why(&|g| ptx < g.min_ptx),
            });
        }
        Ok(())
    }

    /// `dp4a` when the form's own gate decides; `add.u16x2`/`add.cc.u64` when a conditional
    /// gate does.
    fn gate_subject(&self) -> String {
        if self.active_cond_gates().next().is_some() {
            self.mnemonic()
        } else {
            self.form.opcode.name().to_string()
        }
    }
}

/// Why one form did not match; `progress` ranks failures across forms.
struct Failure {
    progress: usize,
    kind: MatchErrorKind,
    index: Option<usize>,
    detail: Detail,
}

enum Detail {
    NotInForm,
    Missing { slot: usize },
    Duplicate { first: usize },
    Excluded(&'static str),
}

/// Modifiers may come in any order (ptxas accepts `add.s32.sat` and `ld.v4.global.u32`), but
/// type suffixes fill the type slots left to right (`cvt.f32.s32`: destination type first).
/// The spelling id of each modifier (`None`: no class or type has that spelling).
fn token_ids(modifiers: &[&str]) -> [Option<u16>; MAX_SPELLED] {
    let mut ids = [None; MAX_SPELLED];
    for (slot, m) in ids.iter_mut().zip(modifiers) {
        *slot = crate::spell::spelling_id(m);
    }
    ids
}

fn match_one(
    form: &'static Form,
    modifiers: &[&str],
    ids: &[Option<u16>; MAX_SPELLED],
) -> Result<Match, Failure> {
    let mut m = Match {
        form,
        mods: Mods::default(),
        types: [None; MAX_TYPE_SLOTS],
        spelled: [""; MAX_SPELLED],
        n_spelled: 0,
        spelled_ids: crate::spell::SpellSet::default(),
    };
    // filled[j] = index of the modifier that filled slot j
    let mut filled: [Option<usize>; MAX_SPELLED] = [None; MAX_SPELLED];
    let mut next_type_slot = 0usize;
    for (i, &tok) in modifiers.iter().enumerate() {
        let id = ids.get(i).copied().flatten();
        let admits = |s: &crate::form::Slot| id.is_some_and(|id| s.admits_id(id));
        let is_type = Type::from_suffix(tok).is_some();
        let free = |j: usize| filled.get(j).is_some_and(|f| f.is_none());
        let found = form.slots.iter().enumerate().find(|(j, s)| {
            free(*j) && admits(s) && (!s.is_type() || !is_type || *j >= next_type_slot)
        });
        let Some((j, slot)) = found else {
            let taken = form
                .slots
                .iter()
                .enumerate()
                .find(|(j, s)| !free(*j) && admits(s))
                .and_then(|(j, _)| filled.get(j).copied().flatten());
            return Err(match taken {
                Some(first) => Failure {
                    progress: i,
                    kind: MatchErrorKind::Duplicate,
                    index: Some(i),
                    detail: Detail::Duplicate { first },
                },
                None => Failure {
                    progress: i,
                    kind: MatchErrorKind::NotAllowed,
                    index: Some(i),
                    detail: Detail::NotInForm,
                },
            });
        };
        // The table's own `'static` spelling, found without allocating.
        let spelling = match &slot.kind {
            SlotKind::Mod { spellings, .. } => spellings.iter().copied().find(|s| *s == tok),
            SlotKind::Type { .. } => Type::from_suffix(tok).map(Type::suffix),
        }
        .unwrap_or("");
        match &slot.kind {
            SlotKind::Type { .. } => {
                let ti = form.slots.iter().take(j).filter(|s| s.is_type()).count();
                if let (Some(t), Some(dst)) = (Type::from_suffix(tok), m.types.get_mut(ti)) {
                    *dst = Some(t);
                }
                next_type_slot = j + 1;
            }
            SlotKind::Mod { class, .. } => {
                if let Some(v) = class.decode(tok) {
                    if m.mods.is_set(v) {
                        let first = (0..i)
                            .find(|&k| {
                                modifiers
                                    .get(k)
                                    .and_then(|t| class.decode(t))
                                    .is_some_and(|p| p.class() == v.class())
                            })
                            .unwrap_or(0);
                        return Err(Failure {
                            progress: i,
                            kind: MatchErrorKind::Duplicate,
                            index: Some(i),
                            detail: Detail::Duplicate { first },
                        });
                    }
                    m.mods.set(v);
                }
            }
        }
        if let Some(f) = filled.get_mut(j) {
            *f = Some(i);
        }
        if let Some(s) = m.spelled.get_mut(i) {
            *s = spelling;
        }
        m.n_spelled = i + 1;
        if let Some(id) = id {
            m.spelled_ids.insert(id);
        }
    }
    if let Some(missing) = form
        .slots
        .iter()
        .enumerate()
        .find(|(j, s)| !s.optional && filled.get(*j).is_some_and(|f| f.is_none()))
        .map(|(j, _)| j)
    {
        return Err(Failure {
            progress: modifiers.len(),
            kind: MatchErrorKind::Missing,
            index: None,
            detail: Detail::Missing { slot: missing },
        });
    }
    if let Some(ex) = form.exclusions.iter().find(|e| m.condition_holds(&e.when)) {
        return Err(Failure {
            progress: modifiers.len() + 1,
            kind: MatchErrorKind::Excluded,
            index: None,
            detail: Detail::Excluded(ex.reason),
        });
    }
    Ok(m)
}

/// Every form of `opcode` that the modifiers match, in table order. Several forms match when
/// they differ only in their operands (`mov.b32 d, a` and `mov.b32 d, {a, b}`; the `call`
/// forms; ptx-isa-1.1's `tex` beside the modern one): choose among them by operand shape.
pub fn match_all<'a>(opcode: &str, modifiers: &'a [&'a str]) -> impl Iterator<Item = Match> + 'a {
    let forms = if modifiers.len() > MAX_SPELLED {
        &[]
    } else {
        lookup(opcode).unwrap_or(&[])
    };
    let ids = token_ids(modifiers);
    forms
        .iter()
        .filter_map(move |f| match_one(f, modifiers, &ids).ok())
}

impl Form {
    /// Matches the modifiers against this one form.
    pub fn try_match(&'static self, modifiers: &[&str]) -> Option<Match> {
        if modifiers.len() > MAX_SPELLED {
            return None;
        }
        match_one(self, modifiers, &token_ids(modifiers)).ok()
    }
}

/// Finds the forms of an opcode by name (`"add"`).
pub fn lookup(opcode_name: &str) -> Option<&'static [Form]> {
    Opcode::from_name(opcode_name).map(forms_of)
}

/// Matches an instruction spelled as `opcode` followed by `modifiers` (each with its leading
/// dot, types included, in source order: `"add"`, `[".sat", ".s32"]`) against the table.
pub fn match_form(opcode: &str, modifiers: &[&str]) -> Result<Match, MatchError> {
    let Some(forms) = lookup(opcode) else {
        let message = if NOT_SUPPORTED.contains(&opcode) {
            format!("`{opcode}` is a PTX instruction that ptxvm does not support")
        } else {
            format!("unknown instruction `{opcode}`")
        };
        return Err(MatchError {
            kind: MatchErrorKind::UnknownOpcode,
            index: None,
            message,
            notes: Vec::new(),
        });
    };
    if modifiers.len() > MAX_SPELLED {
        return Err(MatchError {
            kind: MatchErrorKind::TooMany,
            index: Some(MAX_SPELLED),
            message: format!("too many modifiers on `{opcode}` (at most {MAX_SPELLED})"),
            notes: Vec::new(),
        });
    }
    let ids = token_ids(modifiers);
    let mut best: Option<(Failure, &'static Form)> = None;
    for form in forms {
        match match_one(form, modifiers, &ids) {
            Ok(m) => return Ok(m),
            Err(f) => {
                let better = match &best {
                    None => true,
                    Some((b, _)) => f.progress > b.progress,
                };
                if better {
                    best = Some((f, form));
                }
            }
        }
    }
    // A spelling that no form of this opcode knows is the clearest thing to report.
    if let Some((i, tok)) = modifiers
        .iter()
        .enumerate()
        .find(|(_, t)| !forms.iter().any(|f| f.slots.iter().any(|s| s.admits(t))))
    {
        let message = if Type::from_suffix(tok).is_some() {
            format!("`{opcode}` does not take type `{tok}`")
        } else {
            format!("unknown modifier `{tok}` for `{opcode}`")
        };
        return Err(MatchError {
            kind: MatchErrorKind::UnknownModifier,
            index: Some(i),
            message,
            notes: forms_note(forms),
        });
    }
    let Some((fail, form)) = best else {
        return Err(MatchError {
            kind: MatchErrorKind::UnknownOpcode,
            index: None,
            message: format!("`{opcode}` has no forms"),
            notes: Vec::new(),
        });
    };
    let spelled_all = || {
        let mut s = opcode.to_string();
        for m in modifiers {
            s.push_str(m);
        }
        s
    };
    let tok = |i: Option<usize>| i.and_then(|i| modifiers.get(i)).copied().unwrap_or("");
    // The modifier to blame is the one whose removal leaves a valid instruction
    // (`add.sat.u32`: `.sat`, not `.u32`).
    let blamed = match fail.detail {
        Detail::NotInForm => (0..modifiers.len())
            .find(|&k| {
                let rest: Vec<&str> = modifiers
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != k)
                    .map(|(_, m)| *m)
                    .collect();
                let rest_ids = token_ids(&rest);
                forms.iter().any(|f| match_one(f, &rest, &rest_ids).is_ok())
            })
            .or(fail.index),
        _ => fail.index,
    };
    let (message, notes) = match fail.detail {
        Detail::NotInForm => {
            let t = tok(blamed);
            let mut rest = opcode.to_string();
            for (k, m) in modifiers.iter().enumerate() {
                if Some(k) != blamed {
                    rest.push_str(m);
                }
            }
            let homes: Vec<String> = forms
                .iter()
                .filter(|f| f.slots.iter().any(|s| s.admits(t)))
                .map(|f| format!("`{t}` is allowed in `{}`", f.syntax))
                .collect();
            (format!("`{t}` is not allowed on `{rest}`"), homes)
        }
        Detail::Missing { slot } => {
            let s = form.slots.get(slot);
            let what = match s.map(|s| &s.kind) {
                Some(SlotKind::Type { .. }) => "a type".to_string(),
                Some(SlotKind::Mod { class, .. }) => format!("a {}", class.name()),
                None => "a modifier".to_string(),
            };
            let choices = s.map(|s| s.spellings().join(", ")).unwrap_or_default();
            (
                format!("`{}` needs {what} ({choices})", spelled_all()),
                vec![format!("the form is `{}`", form.syntax)],
            )
        }
        Detail::Duplicate { first } => {
            let t = tok(fail.index);
            let f = modifiers.get(first).copied().unwrap_or("");
            let msg = if f == t {
                format!("`{t}` is given twice")
            } else {
                format!("`{t}` conflicts with `{f}`: only one may be given")
            };
            (msg, Vec::new())
        }
        Detail::Excluded(reason) => (
            format!("`{}` is not a valid combination: {reason}", spelled_all()),
            vec![format!("see {}", form.spec)],
        ),
    };
    Err(MatchError {
        kind: fail.kind,
        index: blamed,
        message,
        notes,
    })
}

fn forms_note(forms: &[Form]) -> Vec<String> {
    forms
        .iter()
        .map(|f| format!("form: `{}`", f.syntax))
        .collect()
}

/// Remembers the outcome for each instruction head (`"ld.global.nc.v4.f32"`): a file repeats a
/// few dozen distinct heads thousands of times, so a checker keeps one cache per run.
#[derive(Default)]
pub struct MatchCache {
    map: std::collections::HashMap<Box<str>, Result<Match, MatchError>>,
}

impl MatchCache {
    pub fn new() -> MatchCache {
        MatchCache::default()
    }

    /// [`match_form`] for an instruction head written as one token (`"add.sat.s32"`); the
    /// modifier indices in errors count from the first modifier after the opcode.
    pub fn match_head(&mut self, head: &str) -> Result<Match, MatchError> {
        if let Some(r) = self.map.get(head) {
            return r.clone();
        }
        let r = match_head(head);
        self.map.insert(head.into(), r.clone());
        r
    }
}

/// [`match_form`] for an instruction head written as one token (`"shfl.sync.bfly.b32"`).
pub fn match_head(head: &str) -> Result<Match, MatchError> {
    let (opcode, rest) = head.split_once('.').unwrap_or((head, ""));
    let owned: Vec<String> = split_dotted(rest);
    let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
    match_form(opcode, &refs)
}

/// `"sat.s32"` → `[".sat", ".s32"]`.
fn split_dotted(rest: &str) -> Vec<String> {
    if rest.is_empty() {
        return Vec::new();
    }
    rest.split('.').map(|p| format!(".{p}")).collect()
}

/// The type a [`TypeRef`] denotes for an instruction with these type slots and modifiers
/// (what [`Match::resolve`] answers; consumers of the checked IR, which keep the slots and
/// modifiers but not the `Match`, ask here).
pub fn resolve_type_ref(
    r: TypeRef,
    types: &[Option<Type>; MAX_TYPE_SLOTS],
    mods: &Mods,
) -> Option<Type> {
    let slot = |i: u8| types.get(i as usize).copied().flatten();
    match r {
        TypeRef::Slot(i) => slot(i),
        TypeRef::WideIfWide(i) => {
            if mods.mul_mode == Some(MulMode::Wide) {
                slot(i)?.widened()
            } else {
                slot(i)
            }
        }
        TypeRef::Wide(i) => slot(i)?.widened(),
        TypeRef::Half(i) => Type::bits_of_size(slot(i)?.size_bits() / 2),
        TypeRef::Quarter(i) => Type::bits_of_size(slot(i)?.size_bits() / 4),
        TypeRef::Fixed(t) => Some(t),
        TypeRef::S32UnlessBothU32 => {
            if slot(0) == Some(Type::U32) && slot(1) == Some(Type::U32) {
                Some(Type::U32)
            } else {
                Some(Type::S32)
            }
        }
        TypeRef::Any => None,
    }
}
