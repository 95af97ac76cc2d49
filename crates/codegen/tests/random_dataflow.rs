//! Random straight-line programs over 32- and 64-bit integers, f32, f64 and predicates, with
//! immediates of every width, guarded instructions, redefinitions and dead values, compiled and
//! run on both executors bit for bit. The per-row tests prove each selection rule on edge
//! values; these prove the pieces between them: constant folding through `ops`, copy
//! propagation, CSE, narrowing, operand folding, the Int/Float register split and allocation
//! (the larger programs keep more values live than Fermi has registers, so they spill).

mod common;
use common::*;

/// The values defined so far, by kind.
#[derive(Default)]
struct Pools {
    r: Vec<String>,
    d: Vec<String>,
    f: Vec<String>,
    g: Vec<String>,
    p: Vec<String>,
}

/// A 32-bit operand: a register, or an immediate of one of the widths selection treats
/// differently (zero, 20-bit, 32-bit, negative).
fn int_src(r: &mut Rng, p: &Pools) -> String {
    match r.below(8) {
        0 => "0".into(),
        1 => format!("{}", r.below(1 << 19)),
        2 => format!("{}", r.next() | 0x8_0000),
        3 => format!("-{}", r.below(1000) + 1),
        _ => r.pick(&p.r).into(),
    }
}

fn f32_src(r: &mut Rng, p: &Pools) -> String {
    match r.below(8) {
        0 => "0f3F800000".into(),
        1 => format!("0f{:08X}", r.next()),
        _ => r.pick(&p.f).into(),
    }
}

struct Gen {
    rng: Rng,
    pools: Pools,
    body: String,
    next: u32,
}

impl Gen {
    /// A destination: usually a fresh register, sometimes one already defined (programs
    /// are not in SSA form).
    fn dest(&mut self, kind: char) -> String {
        let pool = match kind {
            'r' => &self.pools.r,
            'd' => &self.pools.d,
            'f' => &self.pools.f,
            'g' => &self.pools.g,
            _ => &self.pools.p,
        };
        if !pool.is_empty() && self.rng.below(5) == 0 {
            return self.rng.pick(pool).to_string();
        }
        self.next += 1;
        let name = format!("%{kind}{}", self.next);
        match kind {
            'r' => self.pools.r.push(name.clone()),
            'd' => self.pools.d.push(name.clone()),
            'f' => self.pools.f.push(name.clone()),
            'g' => self.pools.g.push(name.clone()),
            _ => self.pools.p.push(name.clone()),
        }
        name
    }

    fn guard(&mut self) -> String {
        if self.rng.below(6) == 0 {
            let p = self.rng.pick(&self.pools.p).to_string();
            let not = if self.rng.below(2) == 0 { "!" } else { "" };
            format!("@{not}{p} ")
        } else {
            String::new()
        }
    }

    /// Writes `text` with `@D` replaced by a destination of `kind`; an instruction that
    /// redefines a register may be guarded (a guarded first definition would leave the
    /// register undefined in some lanes, and the two executors need not agree on those).
    fn line(&mut self, kind: char, text: String) {
        let before = self.next;
        let d = self.dest(kind);
        let g = if self.next == before && !text.contains('\n') {
            self.guard()
        } else {
            String::new()
        };
        self.body += &format!("\t{g}{};\n", text.replace("@D", &d));
    }

    fn int32(&mut self) {
        let (r, p) = (&mut self.rng, &self.pools);
        let a = r.pick(&p.r).to_string();
        let b = int_src(r, p);
        let c = int_src(r, p);
        let text = match r.below(43) {
            0 => format!("add.u32 @D, {a}, {b}"),
            1 => format!("sub.s32 @D, {a}, {b}"),
            2 => format!("mul.lo.u32 @D, {a}, {b}"),
            3 => format!("mul.hi.s32 @D, {a}, {b}"),
            4 => format!("mul.hi.u32 @D, {a}, {b}"),
            5 => format!("mad.lo.s32 @D, {a}, {b}, {c}"),
            6 => format!("div.u32 @D, {a}, {b}"),
            7 => format!("rem.s32 @D, {a}, {b}"),
            8 => format!("and.b32 @D, {a}, {b}"),
            9 => format!("or.b32 @D, {a}, {b}"),
            10 => format!("xor.b32 @D, {a}, {b}"),
            11 => format!("shl.b32 @D, {a}, {}", r.below(40)),
            12 => format!("shr.s32 @D, {a}, {b}"),
            13 => format!("shr.u32 @D, {a}, {}", r.below(33)),
            14 => format!("min.s32 @D, {a}, {b}"),
            15 => format!("max.u32 @D, {a}, {b}"),
            16 => format!("abs.s32 @D, {a}"),
            17 => format!("not.b32 @D, {a}"),
            18 => format!("popc.b32 @D, {a}"),
            19 => format!("bfe.u32 @D, {a}, {}, {}", r.below(33), r.below(33)),
            20 => format!("prmt.b32 @D, {a}, {b}, {}", r.below(0x10000)),
            21 => format!("add.sat.s32 @D, {a}, {b}"),
            22 => format!("sad.u32 @D, {a}, {b}, {c}"),
            23 => format!("div.s32 @D, {a}, {b}"),
            24 => format!("clz.b32 @D, {a}"),
            25 => format!("brev.b32 @D, {a}"),
            26 => format!("bfind.s32 @D, {a}"),
            27 => format!("mul24.lo.s32 @D, {a}, {b}"),
            28 => format!("mad24.hi.u32 @D, {a}, {b}, {c}"),
            29 => format!("bfi.b32 @D, {a}, {b}, {}, {}", r.below(40), r.below(40)),
            30 => format!("mad.hi.u32 @D, {a}, {b}, {c}"),
            31 => format!("rem.u32 @D, {a}, {b}"),
            32 => format!("cnot.b32 @D, {a}"),
            33 => format!("xor.b32 @D, {a}, {c}"),
            34 => format!(
                "testp.finite.f32 %p9, {};\n\tselp.u32 @D, {a}, {b}, %p9",
                r.pick(&p.f)
            ),
            35 => format!("cvt.u16.u32 %h9, {a};\n\tcvt.u32.u16 @D, %h9"),
            36 => format!("cvt.s8.s32 %h9, {a};\n\tcvt.s32.s8 @D, %h9"),
            37 => format!(
                "cvt.u16.u32 %h9, {a};\n\tcvt.u16.u32 %h8, {};\n\tmul.wide.u16 @D, %h9, %h8",
                r.pick(&p.r)
            ),
            38 => format!(
                "copysign.f32 %f9, {}, {};\n\tmov.b32 @D, %f9",
                r.pick(&p.f),
                r.pick(&p.f)
            ),
            39 => format!("cvt.rni.sat.u32.f32 @D, {}", r.pick(&p.f)),
            40 => format!("cvt.rzi.s32.f64 @D, {}", r.pick(&p.g)),
            41 => format!(
                "vadd.s32.u32.s32.sat.add @D, {a}, {}, {}",
                r.pick(&p.r),
                r.pick(&p.r)
            ),
            _ => format!("mul.lo.s32 @D, {a}, {c}"),
        };
        self.line('r', text);
    }

    /// A product or shift by 2^k into a register of its own, read once by an `add` (after
    /// another instruction, which may redefine the shifted register): the shapes selected
    /// as `ISCADD` (src/fold.rs `Scaled`); or a `mad.lo`/`mul.lo` by 2^k (`ISCADD`/`SHL`).
    fn scaled(&mut self) {
        let a = self.rng.pick(&self.pools.r).to_string();
        let k = 1 + self.rng.below(31);
        let b = int_src(&mut self.rng, &self.pools);
        let text = match self.rng.below(5) {
            3 => return self.line('r', format!("mad.lo.s32 @D, {a}, {}, {b}", 1u32 << k)),
            4 => return self.line('r', format!("mul.lo.u32 @D, {a}, {}", 1u32 << k)),
            0 => format!("shl.b32 %T, {a}, {k}"),
            1 => format!("mul.lo.u32 %T, {a}, {}", 1u32 << k),
            _ => format!("mul.lo.s32 %T, {a}, {}", (1u32 << k) as i32),
        };
        self.next += 1;
        let t = format!("%r{}", self.next);
        self.body += &format!("\t{};\n", text.replace("%T", &t));
        if self.rng.below(2) == 0 {
            self.int32();
        }
        let add = if self.rng.below(2) == 0 {
            format!("add.u32 @D, {t}, {b}")
        } else {
            format!("add.s32 @D, {b}, {t}")
        };
        self.line('r', add);
    }

    fn int64(&mut self) {
        let (r, p) = (&mut self.rng, &self.pools);
        let a = r.pick(&p.d).to_string();
        let b = r.pick(&p.d).to_string();
        let x = r.pick(&p.r).to_string();
        let y = int_src(r, p);
        let text = match r.below(29) {
            0 => format!("add.u64 @D, {a}, {b}"),
            1 => format!("sub.s64 @D, {a}, {b}"),
            2 => format!("mul.lo.u64 @D, {a}, {b}"),
            3 => format!("mul.wide.u32 @D, {x}, {y}"),
            4 => format!("mul.wide.s32 @D, {x}, {y}"),
            5 => format!("shl.b64 @D, {a}, {}", r.below(70)),
            6 => format!("shr.s64 @D, {a}, {x}"),
            7 => format!("xor.b64 @D, {a}, {b}"),
            8 => format!("cvt.s64.s32 @D, {x}"),
            9 => format!("mov.b64 @D, {{{x}, {}}}", r.pick(&p.r)),
            10 => format!("max.s64 @D, {a}, {b}"),
            11 => format!("add.u64 @D, {a}, {}", r.next()),
            12 => format!("div.u64 @D, {a}, {b}"),
            13 => format!("rem.s64 @D, {a}, {b}"),
            14 => format!("mul.hi.u64 @D, {a}, {b}"),
            15 => format!("mad.lo.s64 @D, {a}, {b}, {}", r.pick(&p.d)),
            16 => format!("clz.b64 %r9, {a};\n\tcvt.u64.u32 @D, %r9"),
            17 => format!("popc.b64 %r9, {a};\n\tcvt.u64.u32 @D, %r9"),
            18 => format!("brev.b64 @D, {a}"),
            19 => format!("cvt.rzi.s64.f64 @D, {}", r.pick(&p.g)),
            20 => format!("cvt.rni.u64.f32 @D, {}", r.pick(&p.f)),
            21 => format!("abs.s64 @D, {a}"),
            22 => format!("neg.s64 @D, {a}"),
            23 => format!("not.b64 @D, {a}"),
            24 => format!("min.u64 @D, {a}, {b}"),
            25 => format!("bfe.s64 @D, {a}, {}, {}", r.below(70), r.below(70)),
            26 => format!("bfe.u64 @D, {a}, {x}, {}", int_src(r, p)),
            27 => format!("bfi.b64 @D, {a}, {b}, {x}, {}", r.below(70)),
            _ => format!("mul.lo.s64 @D, {a}, {}", r.next()),
        };
        self.line('d', text);
    }

    fn narrow(&mut self) {
        let (r, p) = (&mut self.rng, &self.pools);
        let a = r.pick(&p.d).to_string();
        let text = match r.below(3) {
            0 => format!("cvt.u32.u64 @D, {a}"),
            1 => format!("mov.b64 {{@D, {}}}, {a}", r.pick(&p.r)),
            _ => format!("cvt.rzi.s32.f32 @D, {}", r.pick(&p.f)),
        };
        self.line('r', text);
    }

    fn float32(&mut self) {
        let (r, p) = (&mut self.rng, &self.pools);
        let a = r.pick(&p.f).to_string();
        let b = f32_src(r, p);
        let c = f32_src(r, p);
        let x = r.pick(&p.r).to_string();
        let text = match r.below(30) {
            0 => format!("add.rn.f32 @D, {a}, {b}"),
            1 => format!("sub.rz.f32 @D, {a}, {b}"),
            2 => format!("mul.rn.f32 @D, {a}, {b}"),
            3 => format!("fma.rn.f32 @D, {a}, {b}, {c}"),
            4 => format!("div.rn.f32 @D, {a}, {b}"),
            5 => format!("sqrt.rn.f32 @D, {a}"),
            6 => format!("min.f32 @D, {a}, {b}"),
            7 => format!("max.f32 @D, {a}, {b}"),
            8 => format!("abs.f32 @D, {a}"),
            9 => format!("neg.f32 @D, {a}"),
            10 => format!("cvt.rn.f32.s32 @D, {x}"),
            11 => format!("mov.b32 @D, {x}"),
            12 => format!("add.ftz.f32 @D, {a}, {b}"),
            13 => format!("mul.rm.f32 @D, {a}, {b}"),
            14 => format!("cvt.rn.f32.f64 @D, {}", r.pick(&p.g)),
            15 => format!("div.full.f32 @D, {a}, {b}"),
            16 => format!("rcp.rn.f32 @D, {a}"),
            17 => format!("div.approx.f32 @D, {a}, {b}"),
            18 => format!("rsqrt.approx.f32 @D, {a}"),
            19 => format!("ex2.approx.ftz.f32 @D, {a}"),
            20 => format!("lg2.approx.f32 @D, {a}"),
            21 => format!("sin.approx.f32 @D, {a}"),
            22 => format!("cvt.rzi.f32.f32 @D, {a}"),
            23 => format!("cvt.sat.f32.f32 @D, {a}"),
            24 => format!("mad.rn.f32 @D, {a}, {b}, {c}"),
            25 => format!("fma.rz.sat.f32 @D, {a}, {b}, {c}"),
            26 => format!("cvt.rn.f32.u64 @D, {}", r.pick(&p.d)),
            27 => format!("selp.f32 @D, {a}, {b}, {}", r.pick(&p.p)),
            28 => format!("max.ftz.f32 @D, {a}, {b}"),
            _ => format!("sqrt.approx.f32 @D, {a}"),
        };
        self.line('f', text);
    }

    fn float64(&mut self) {
        let (r, p) = (&mut self.rng, &self.pools);
        let a = r.pick(&p.g).to_string();
        let b = r.pick(&p.g).to_string();
        let text = match r.below(19) {
            0 => format!("add.rn.f64 @D, {a}, {b}"),
            1 => format!("mul.rz.f64 @D, {a}, {b}"),
            2 => format!("fma.rn.f64 @D, {a}, {b}, {}", r.pick(&p.g)),
            3 => format!("div.rn.f64 @D, {a}, {b}"),
            4 => format!("cvt.f64.f32 @D, {}", r.pick(&p.f)),
            5 => format!("mov.b64 @D, {}", r.pick(&p.d)),
            6 => format!("cvt.rn.f64.s64 @D, {}", r.pick(&p.d)),
            7 => format!("sqrt.rn.f64 @D, {a}"),
            8 => format!("rcp.rn.f64 @D, {a}"),
            9 => format!("min.f64 @D, {a}, {b}"),
            10 => format!("abs.f64 @D, {a}"),
            11 => format!("neg.f64 @D, {a}"),
            12 => format!("sub.rm.f64 @D, {a}, {b}"),
            13 => format!("cvt.rpi.f64.f64 @D, {a}"),
            14 => format!("rsqrt.approx.f64 @D, {a}"),
            15 => format!("cvt.rn.f64.u32 @D, {}", r.pick(&p.r)),
            16 => format!("div.rz.f64 @D, {a}, 0d3fb999999999999a"),
            17 => format!("div.rn.f64 @D, 0dc008000000000000, {a}"),
            _ => format!("selp.f64 @D, {a}, {b}, {}", r.pick(&p.p)),
        };
        self.line('g', text);
    }

    fn predicate(&mut self) {
        let (r, p) = (&mut self.rng, &self.pools);
        let text = match r.below(5) {
            0 => format!("setp.lt.s32 @D, {}, {}", r.pick(&p.r), int_src(r, p)),
            1 => format!("setp.hi.u32 @D, {}, {}", r.pick(&p.r), int_src(r, p)),
            2 => format!("setp.gtu.f32 @D, {}, {}", r.pick(&p.f), f32_src(r, p)),
            3 => format!(
                "setp.ne.and.s64 @D, {}, {}, {}",
                r.pick(&p.d),
                r.pick(&p.d),
                r.pick(&p.p)
            ),
            _ => format!("setp.le.f64 @D, {}, {}", r.pick(&p.g), r.pick(&p.g)),
        };
        self.line('p', text);
    }

    fn select(&mut self) {
        let (r, p) = (&mut self.rng, &self.pools);
        let q = r.pick(&p.p).to_string();
        let text = format!("selp.b32 @D, {}, {}, {q}", r.pick(&p.r), int_src(r, p));
        self.line('r', text);
    }
}

/// Stored per thread: 8 words, 4 doublewords, 4 f32 and 2 f64 values.
const STRIDE: u32 = 8 * 4 + 4 * 8 + 4 * 4 + 2 * 8;

fn program(seed: u64, len: usize) -> String {
    let mut g = Gen {
        rng: Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1),
        pools: Pools::default(),
        body: String::new(),
        next: 0,
    };
    // Four input words per thread: two integers, two f32 bit patterns.
    g.pools.r = (1..=4).map(|i| format!("%r{i}")).collect();
    g.pools.f = vec!["%f1".into(), "%f2".into()];
    g.pools.d = vec!["%d1".into()];
    g.pools.g = vec!["%g1".into()];
    g.pools.p = vec!["%p1".into()];
    g.next = 10;
    for _ in 0..len {
        match g.rng.below(20) {
            0..=5 => g.int32(),
            6 => g.scaled(),
            7..=9 => g.int64(),
            10 => g.narrow(),
            11..=14 => g.float32(),
            15..=16 => g.float64(),
            17..=18 => g.predicate(),
            _ => g.select(),
        }
    }
    let mut stores = String::new();
    let mut at = 0;
    let p = &g.pools;
    let last = |v: &[String], n: usize| v.iter().rev().take(n).cloned().collect::<Vec<_>>();
    for (ty, vals, size) in [
        ("u32", last(&p.r, 8), 4),
        ("u64", last(&p.d, 4), 8),
        ("f32", last(&p.f, 4), 4),
        ("f64", last(&p.g, 2), 8),
    ] {
        let n = match size {
            8 if ty == "u64" => 4,
            8 => 2,
            _ if ty == "u32" => 8,
            _ => 4,
        };
        for k in 0..n {
            // Fewer values than slots: store the first again.
            let v = vals.get(k).or(vals.first()).expect("pools start non-empty");
            stores += &format!("\tst.global.{ty} [%a4+{at}], {v};\n");
            at += size;
        }
    }
    assert_eq!(at, STRIDE);
    let n = g.next + 1;
    format!(
        ".version 7.0\n.target sm_20\n.address_size 64\n\
         .visible .entry k(.param .u64 in, .param .u64 out)\n{{\n\
         \t.reg .u32 %r<{n}>;\n\t.reg .u64 %d<{n}>;\n\t.reg .f32 %f<{n}>;\n\
         \t.reg .f64 %g<{n}>;\n\t.reg .pred %p<{n}>;\n\t.reg .b16 %h<10>;\n\t.reg .u64 %a<5>;\n\t.reg .u32 %t<4>;\n\
         \tld.param.u64 %a1, [in];\n\tld.param.u64 %a2, [out];\n\
         \tmov.u32 %t1, %ctaid.x;\n\tmov.u32 %t2, %ntid.x;\n\tmov.u32 %t3, %tid.x;\n\
         \tmad.lo.u32 %t3, %t1, %t2, %t3;\n\
         \tmul.wide.u32 %a3, %t3, 16;\n\tadd.u64 %a3, %a1, %a3;\n\
         \tld.global.v4.u32 {{%r1, %r2, %r3, %r4}}, [%a3];\n\
         \tld.global.v2.f32 {{%f1, %f2}}, [%a3+8];\n\
         \tmov.b64 %d1, {{%r1, %r2}};\n\tcvt.f64.f32 %g1, %f1;\n\
         \tsetp.lt.u32 %p1, %r1, %r2;\n\
         {}\
         \tmul.wide.u32 %a4, %t3, {STRIDE};\n\tadd.u64 %a4, %a2, %a4;\n\
         {stores}\tret;\n}}\n",
        g.body
    )
}

/// 64 threads (two warps, two CTAs): integer edges and f32 edge classes mixed per thread.
fn inputs() -> Vec<u32> {
    let ints = int_edges(128, 7);
    let floats = f32_edges(128, 11);
    (0..64)
        .flat_map(|t| {
            [
                ints[2 * t],
                ints[2 * t + 1],
                floats[2 * t],
                floats[2 * t + 1],
            ]
        })
        .collect()
}

fn run(seed: u64, len: usize) {
    let text = program(seed, len);
    let name = format!("random_dataflow_{seed}_{len}.ptx");
    let spec = common::spec(
        "k",
        2,
        32,
        vec![u32s(&inputs()), zeros32(64 * STRIDE as usize / 4)],
    );
    let out = std::panic::catch_unwind(|| run_both(&name, &text, &spec));
    if let Err(e) = out {
        eprintln!("{text}");
        std::panic::resume_unwind(e);
    }
}

#[test]
fn short_random_programs_agree_on_both_executors() {
    for seed in 0..300 {
        run(seed, 30);
    }
}

#[test]
fn long_random_programs_agree_on_both_executors() {
    // Long enough that values outlive the registers: allocation spills (counted, so the
    // spill paths are known to be exercised).
    let mut stores = 0;
    for seed in 1000..1040 {
        run(seed, 220);
        let name = format!("random_dataflow_{seed}_220.ptx");
        let (m, file) = checked(&name, &program(seed, 220));
        let c = codegen::compile_module(&m, &file).expect("translated by run");
        stores += c.spills.iter().map(|s| s.stores).sum::<u32>();
    }
    assert!(stores > 0, "no long program spilled");
}
