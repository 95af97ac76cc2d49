//! Dev tool: writes one PTX file exercising sampled modifier combinations of every table form
//! (with operands of the types the table gives) for a second opinion from NVIDIA's ptxas:
//! `cargo run -p ptxvm-isa --example sample_forms -- SEED SM MAJOR MINOR [x] > /tmp/s.ptx;
//! ptxas -arch=sm_SM /tmp/s.ptx` (replace the non-ASCII `§` of the comments first). Every line
//! should be accepted; with `x`, only combinations the table's exclusions refuse are written,
//! and ptxas should refuse every one. Each instruction line ends in a comment naming its form.
//! Last run (seeds 11-45, sm_50 to sm_90): ~2,000-2,600 sampled instructions per target all
//! accepted apart from operand-value limits the table does not model (`pmevent` 0..15, the
//! `.u32` array index of `tex.a1d/.a2d`, `brx.idx` targets); ~460 excluded ones all refused.
//! Mode `g` writes only combinations whose gate (from sm_50 up) the target fails: after fixing
//! the atom/red scope gates (sm_60, PTX 5.0) and the texture array gates, ptxas refuses all of
//! ~4,000 sampled at sm_52 … sm_90.

use isa::{all_forms, Form, OperandKind, PtxVersion, Selector, Type, VecRule};

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

fn reg_type(t: Option<Type>) -> Type {
    match t {
        Some(Type::U8 | Type::S8 | Type::B8) => Type::B16,
        Some(Type::F16x2 | Type::Bf16x2 | Type::U16x2 | Type::S16x2 | Type::Tf32) => Type::B32,
        Some(Type::F16 | Type::Bf16) => Type::B16,
        Some(t) => t,
        None => Type::B32,
    }
}

fn sample(form: &Form, rng: &mut Lcg) -> Vec<&'static str> {
    let mut out = Vec::new();
    for s in &form.slots {
        let sp = s.spellings();
        if s.optional && rng.next() & 1 == 0 {
            continue;
        }
        out.push(sp[rng.next() % sp.len()]);
    }
    out
}

fn main() {
    let arg = |i: usize, d: u32| {
        std::env::args()
            .nth(i)
            .and_then(|s| s.parse().ok())
            .unwrap_or(d)
    };
    let sm = arg(2, 90);
    let ptx = PtxVersion::new(arg(3, 8) as u8, arg(4, 5) as u8);
    let excluded_mode = std::env::args().nth(5).as_deref() == Some("x");
    let gated_mode = std::env::args().nth(5).as_deref() == Some("g");
    let mut rng = Lcg(std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(7));
    let mut n = 0;
    println!(".version {ptx}\n.target sm_{sm}\n.address_size 64\n.global .texref tex0;\n");
    for form in all_forms() {
        for _ in 0..12 {
            let mods = sample(form, &mut rng);
            // Mode `x`: only combinations the form's exclusions refuse, to see that ptxas
            // refuses them too (operand types then come from a copy of the form without them).
            let m = if excluded_mode {
                if form.exclusions.is_empty() || form.try_match(&mods).is_some() {
                    continue;
                }
                let mut relaxed = form.clone();
                relaxed.exclusions.clear();
                let relaxed: &'static Form = Box::leak(Box::new(relaxed));
                match relaxed.try_match(&mods) {
                    Some(m) => m,
                    None => continue,
                }
            } else {
                match form.try_match(&mods) {
                    Some(m) => m,
                    None => continue,
                }
            };
            // Mode `g`: only combinations whose gate the target fails (ptxas should refuse them;
            // ptxas knows nothing below sm_50, so only gates from sm_50 up are tested).
            if m.check_gate(sm, ptx).is_err() != gated_mode {
                continue;
            }
            if gated_mode && (m.gate().min_sm < 50 || m.gate().max_ptx.is_some()) {
                continue;
            }
            let mut decls = Vec::new();
            let mut ops = Vec::new();
            for (i, o) in m.form.operands.iter().enumerate() {
                if o.optional {
                    continue;
                }
                let t = reg_type(m.operand_type(i));
                let name = format!("%o{i}");
                let lanes = match o.vector {
                    VecRule::Scalar => 1,
                    VecRule::Fixed(k) => u32::from(k),
                    VecRule::FromVecMod => m.mods.vec.map_or(1, |v| v.lanes()),
                    VecRule::FromGeom => match m.mods.geom.map(|g| g.spelling()) {
                        Some(".1d") => 1,
                        Some(".2d" | ".a1d") => 2,
                        _ => 4,
                    },
                };
                let text = match o.kind {
                    OperandKind::Addr => {
                        decls.push(format!(".reg .b64 {name};"));
                        format!("[{name}]")
                    }
                    OperandKind::TexAddr => {
                        let elems: Vec<String> =
                            (0..lanes).map(|k| format!("{name}_{k}")).collect();
                        for e in &elems {
                            decls.push(format!(".reg {} {e};", t.suffix()));
                        }
                        format!("[tex0, {{{}}}]", elems.join(", "))
                    }
                    OperandKind::Label => "L_end".to_string(),
                    OperandKind::Imm => "0x96".to_string(),
                    // `call` forms need a callee; they are skipped below.
                    OperandKind::Func | OperandKind::Proto | OperandKind::ParamList => {
                        String::new()
                    }
                    OperandKind::DstPair => {
                        decls.push(format!(".reg {} {name};", t.suffix()));
                        name.clone()
                    }
                    _ if lanes > 1 => {
                        let elems: Vec<String> =
                            (0..lanes).map(|k| format!("{name}_{k}")).collect();
                        for e in &elems {
                            decls.push(format!(".reg {} {e};", t.suffix()));
                        }
                        format!("{{{}}}", elems.join(", "))
                    }
                    _ => {
                        decls.push(format!(".reg {} {name};", t.suffix()));
                        let neg = if o.negate == isa::Negate::Not {
                            "!"
                        } else {
                            ""
                        };
                        let sel = if o.selector == Selector::RequiredByteHalf {
                            ".b0"
                        } else {
                            ""
                        };
                        format!("{neg}{name}{sel}")
                    }
                };
                if text.is_empty() {
                    ops.clear();
                    break;
                }
                ops.push(text);
            }
            if form.opcode == isa::Opcode::Call || (ops.is_empty() && !form.operands.is_empty()) {
                continue;
            }
            n += 1;
            println!(".visible .entry k{n}()\n{{");
            for d in &decls {
                println!("    {d}");
            }
            println!(
                "    {} {}; // {} | {}",
                m.mnemonic(),
                ops.join(", "),
                form.syntax,
                form.spec
            );
            println!("L_end:\n    ret;\n}}\n");
        }
    }
}
