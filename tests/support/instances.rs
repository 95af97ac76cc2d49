//! Instances of isa table rows as small PTX kernels, shared by the checker's and the
//! executor's coverage tests (included with `#[path]`): every required modifier and type slot
//! spelled, operands of the kinds and types the row names, and — by `variant` — negations and
//! selectors where the row allows them.

// Each test crate that includes this file uses a different part of it.
#![allow(dead_code)]

use isa::{Form, Negate, OperandKind, Selector, Type, VecRule};
use std::fmt::Write;

/// Known `.target`s and the first PTX version accepting each (as the checker enforces).
pub const TARGETS: &[(u32, (u8, u8))] = &[
    (10, (1, 0)),
    (11, (1, 0)),
    (12, (1, 2)),
    (13, (1, 2)),
    (20, (2, 0)),
    (30, (3, 0)),
    (35, (3, 1)),
    (50, (4, 0)),
    (52, (4, 1)),
    (53, (4, 2)),
    (60, (5, 0)),
    (61, (5, 0)),
    (70, (6, 0)),
    (72, (6, 1)),
    (75, (6, 3)),
    (80, (7, 0)),
    (86, (7, 1)),
    (89, (7, 8)),
    (90, (7, 8)),
    (100, (8, 6)),
];

/// Register type used to declare an operand of type `t`.
pub fn reg_decl_type(t: Type) -> String {
    match t {
        Type::F16 | Type::Bf16 => ".b16".into(),
        Type::F16x2 | Type::Bf16x2 | Type::U16x2 | Type::S16x2 | Type::Tf32 => ".b32".into(),
        Type::U8 | Type::S8 | Type::B8 | Type::E4m3x2 | Type::E5m2x2 => ".b16".into(),
        Type::E4m3 | Type::E5m2 => ".b16".into(),
        Type::F32x2 => ".b64".into(),
        t => t.suffix().into(),
    }
}

struct Gen {
    decls: String,
    module: String,
    n: usize,
}

impl Gen {
    fn reg(&mut self, t: Type) -> String {
        self.n += 1;
        let name = format!("%v{}", self.n);
        let _ = writeln!(self.decls, "\t.reg {} {name};", reg_decl_type(t));
        name
    }
}

/// A kernel using one instance of `form`; `variant` picks negations and selectors.
pub fn instance(form: &'static Form, mods: &[&'static str], variant: usize) -> Option<String> {
    instance_imm(form, mods, variant, 0)
}

/// The operand positions of `form` that may be written as an immediate (a register or an
/// immediate is allowed there).
pub fn immediate_positions(form: &Form) -> Vec<usize> {
    form.operands
        .iter()
        .enumerate()
        .filter(|(_, o)| o.kind == OperandKind::Src)
        .map(|(k, _)| k)
        .collect()
}

/// An immediate of type `t` as PTX spells it (`None` for types without immediates).
fn immediate_text(t: Type) -> Option<&'static str> {
    Some(match t {
        Type::Pred => "1",
        Type::F32 => "0f3FC00000",
        Type::F64 => "0d3FF8000000000000",
        Type::F16 | Type::Bf16 | Type::F16x2 | Type::Bf16x2 | Type::B128 => return None,
        _ => "3",
    })
}

/// [`instance`] with the source operands whose bit is set in `imm` written as immediates
/// (for a vector operand, its first element).
pub fn instance_imm(
    form: &'static Form,
    mods: &[&'static str],
    variant: usize,
    imm: usize,
) -> Option<String> {
    let m = form.try_match(mods)?;
    let gate = m.gate();
    let (sm, tver) = TARGETS
        .iter()
        .copied()
        .find(|(sm, _)| *sm >= gate.min_sm && gate.max_sm.is_none_or(|max| *sm < max))?;
    // An architecture-specific row: its first listed target, as `sm_NNa`.
    let (sm, tver, suffix) = match gate.arch.and_then(|list| list.first()) {
        Some(t) => {
            let tver = TARGETS
                .iter()
                .find(|(n, _)| *n == t.sm)
                .map_or(tver, |x| x.1);
            (t.sm, tver.max((8, 0)), "a")
        }
        None => (sm, tver, ""),
    };
    let want = (gate.min_ptx.major, gate.min_ptx.minor).max(tver);
    let version = if gate.max_ptx.is_none() {
        want.max((2, 3))
    } else {
        want
    };
    if let Some(max) = gate.max_ptx {
        if version >= (max.major, max.minor) {
            return None;
        }
    }
    let wide_addr = version >= (2, 3);
    // Tensor memory is addressed by 32-bit registers (ptxas refuses 64-bit ones), and a
    // 32-bit register also names `tcgen05.alloc`'s and `commit`'s shared-memory words.
    let addr_ty = if wide_addr && form.opcode != isa::Opcode::Tcgen05 {
        Type::B64
    } else {
        Type::B32
    };
    let mut g = Gen {
        decls: String::new(),
        module: String::new(),
        n: 0,
    };
    let has = |name: &str| form.operands.iter().any(|o| o.name == name);
    let indirect = form.operands.iter().any(|o| o.kind == OperandKind::Proto);
    let mut ops = Vec::new();
    for (i, role) in form.operands.iter().enumerate() {
        let ty = m.operand_type(i).unwrap_or(Type::B32);
        let lanes = match role.vector {
            VecRule::Scalar => None,
            VecRule::FromVecMod => m.mods.vec.map(|v| v.lanes()),
            VecRule::Fixed(n) => Some(u32::from(n)),
            VecRule::FromGeom => Some(match m.mods.geom {
                Some(isa::Geom::D1) => 1,
                Some(isa::Geom::D2 | isa::Geom::A1d | isa::Geom::D2ms) => 2,
                _ => 4,
            }),
        };
        let text = match role.kind {
            // `cp.async` copies 16 bytes in every form (4 and 8 only with `.ca`).
            OperandKind::Imm if form.opcode == isa::Opcode::Cp && role.name == "size" => {
                "16".to_string()
            }
            OperandKind::Imm => "1".to_string(),
            OperandKind::Addr => format!("[{}]", g.reg(addr_ty)),
            OperandKind::TexAddr => {
                let ct = m
                    .types
                    .iter()
                    .rev()
                    .flatten()
                    .next()
                    .copied()
                    .unwrap_or(Type::F32);
                let n = match m.mods.geom {
                    Some(isa::Geom::D1) => 1,
                    Some(isa::Geom::D2 | isa::Geom::A1d | isa::Geom::D2ms) => 2,
                    _ => 4,
                };
                let coords: Vec<String> = (0..n).map(|_| g.reg(ct)).collect();
                if !g.module.contains(".texref") {
                    g.module.push_str(".global .texref tex0;\n");
                }
                format!("[tex0, {{{}}}]", coords.join(", "))
            }
            OperandKind::Label => "L_end".to_string(),
            OperandKind::TargetList => {
                let _ = writeln!(g.decls, "tl0: .branchtargets L_end;");
                "tl0".to_string()
            }
            OperandKind::Func if indirect => g.reg(addr_ty),
            OperandKind::Func => {
                let ret = if has("ret") { "(.param .b32 r) " } else { "" };
                let par = if has("params") {
                    "(.param .b32 a)"
                } else {
                    "()"
                };
                let _ = writeln!(g.module, ".func {ret}callee {par}\n{{\n\tret;\n}}");
                "callee".to_string()
            }
            OperandKind::ParamList => {
                g.n += 1;
                let name = format!("pv{}", g.n);
                let _ = writeln!(g.decls, "\t.param .b32 {name};");
                format!("({name})")
            }
            OperandKind::Proto => {
                let ret = if has("ret") { "(.param .b32 _) " } else { "" };
                let par = if has("params") {
                    "(.param .b32 _)"
                } else {
                    "()"
                };
                let _ = writeln!(g.decls, "proto0: .callprototype {ret}_ {par};");
                "proto0".to_string()
            }
            OperandKind::DstPair => {
                let d = g.reg(ty);
                let q = g.reg(Type::Pred);
                format!("{d}|{q}")
            }
            OperandKind::Src if imm >> i & 1 == 1 => {
                let lit = immediate_text(ty)?;
                match lanes {
                    Some(n) => {
                        let mut els: Vec<String> = vec![lit.to_string()];
                        els.extend((1..n).map(|_| g.reg(ty)));
                        format!("{{{}}}", els.join(", "))
                    }
                    None => lit.to_string(),
                }
            }
            _ => match lanes {
                Some(n) => {
                    let regs: Vec<String> = (0..n).map(|_| g.reg(ty)).collect();
                    format!("{{{}}}", regs.join(", "))
                }
                None => {
                    let r = g.reg(ty);
                    // Bit i of `variant` negates the i-th operand that may be negated.
                    let neg = match role.negate {
                        Negate::Minus if variant >> i & 1 == 1 => "-",
                        Negate::Not if variant >> i & 1 == 1 => "!",
                        _ => "",
                    };
                    let sel = match role.selector {
                        Selector::RequiredByteHalf => ".b0",
                        Selector::OptionalByteHalf if variant & 1 == 1 => ".h1",
                        Selector::OptionalHalves if variant & 1 == 1 => ".h10",
                        Selector::OptionalBytes if variant & 1 == 1 => ".b3210",
                        Selector::OptionalMask2 if variant & 1 == 1 => ".h1",
                        Selector::OptionalMask4 if variant & 1 == 1 => ".b20",
                        _ => "",
                    };
                    format!("{neg}{r}{sel}")
                }
            },
        };
        ops.push(text);
    }
    let mut head = form.opcode.name().to_string();
    for s in mods {
        head.push_str(s);
    }
    let addr = if wide_addr { ".address_size 64\n" } else { "" };
    let entry = if version >= (2, 0) {
        ".visible .entry"
    } else {
        ".entry"
    };
    Some(format!(
        ".version {}.{}\n.target sm_{sm}{suffix}\n{addr}{}{entry} k()\n{{\n{}\t{head} {};\nL_end:\n\tret;\n}}\n",
        version.0,
        version.1,
        g.module,
        g.decls,
        ops.join(", ")
    ))
}

/// Most modifier combinations tried per row, and most the checker is asked about.
pub const COMBOS_PER_ROW: usize = 2048;
pub const CHECKED_PER_ROW: usize = 192;

pub struct Lcg(pub u64);
impl Lcg {
    pub fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

/// Modifier spellings per slot: every combination when there are few, else a deterministic
/// sample (so late slots vary as much as early ones).
pub fn combinations(form: &'static Form) -> Vec<Vec<&'static str>> {
    let choices: Vec<Vec<Option<&'static str>>> = form
        .slots
        .iter()
        .map(|s| {
            let mut v: Vec<Option<&'static str>> = Vec::new();
            if s.optional {
                v.push(None);
            }
            v.extend(s.spellings().into_iter().map(Some));
            v
        })
        .collect();
    let total = choices
        .iter()
        .try_fold(1usize, |acc, c| acc.checked_mul(c.len()))
        .unwrap_or(usize::MAX);
    let pick = |idx: &[usize]| -> Vec<&'static str> {
        choices
            .iter()
            .zip(idx)
            .filter_map(|(c, &i)| c.get(i).copied().flatten())
            .collect()
    };
    let mut rng = Lcg(form.syntax.len() as u64);
    let mut out = Vec::new();
    if total <= COMBOS_PER_ROW {
        let mut idx = vec![0usize; choices.len()];
        'outer: loop {
            out.push(pick(&idx));
            for k in (0..idx.len()).rev() {
                idx[k] += 1;
                if idx[k] < choices[k].len() {
                    continue 'outer;
                }
                idx[k] = 0;
            }
            break;
        }
    } else {
        for _ in 0..COMBOS_PER_ROW {
            let idx: Vec<usize> = choices.iter().map(|c| rng.next() % c.len()).collect();
            out.push(pick(&idx));
        }
    }
    // Shuffled, so the checking budget is spread over every slot's spellings.
    for i in (1..out.len()).rev() {
        out.swap(i, rng.next() % (i + 1));
    }
    out
}

/// The instance texts of `form` in the order the coverage tests try them: each modifier
/// combination with each variant, then with each source written as an immediate (on the plain
/// variant). A combination the row does not match ends its own variants.
pub fn instance_texts(form: &'static Form) -> impl Iterator<Item = String> {
    let nv = variants(form);
    let imms: Vec<usize> = immediate_positions(form)
        .into_iter()
        .map(|k| 1 << k)
        .collect();
    combinations(form).into_iter().flat_map(move |mods| {
        let tries: Vec<(usize, usize)> = (0..nv)
            .map(|v| (v, 0))
            .chain(imms.iter().map(|&m| (0, m)))
            .collect();
        let matched = form.try_match(&mods).is_some();
        tries
            .into_iter()
            .take_while(move |_| matched)
            .filter_map(move |(variant, imm)| instance_imm(form, &mods, variant, imm))
    })
}

/// How many instances of `form` a coverage test tries: `per_row` for each variant (at most
/// four) and for each source that may be an immediate.
pub fn instance_budget(form: &Form, per_row: usize) -> usize {
    per_row * (variants(form).min(4) + immediate_positions(form).len())
}

/// Variants (negation/selector patterns) worth trying for a row.
pub fn variants(form: &Form) -> usize {
    let negatable = form.operands.iter().any(|o| {
        o.negate != Negate::None || o.selector.is_optional() && o.selector != Selector::None
    });
    if negatable {
        1 << form.operands.len().min(5)
    } else {
        1
    }
}
