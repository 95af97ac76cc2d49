//! How one body's control flow sits on Fermi's reconvergence stack, as text: which `SSY`,
//! `PBK` and `PCNT` go where, the `NOP.S` stubs of each join, and the instruction each edge
//! becomes (`BRA` to the right label, `BRK` or `CONT`). `cfg.rs` decides the plan; this
//! module lays it out; `body.rs` asks it per block.
//!
//! A block `b` is laid out as
//!
//! ```text
//! B<b>:  outer stubs: one `S<i>: NOP.S` / `T<i>:` per region meeting here from before b
//! I<b>:  the loop's preheader: hoisted `SSY`s, `PBK`     (passed only on entry)
//!        `BRA L<b>` and the inner stubs (regions inside the loop b heads, back edges)
//! L<b>:  `PCNT L<b>` of a `PCNT` loop, then b's code and the `SSY`s of its branch
//! ```
//!
//! so lanes land after every `.S` they have no `SSY` for, and back edges skip the preheader.

use crate::cfg::{self, BreakLoop, Cfg, CfgError, SideEdge, Ssy};
use crate::regs::Loc;
use crate::select::{Line, Selector};
use ir::{Function, Inst};

pub struct Flow {
    plan: Vec<Ssy>,
    side_edges: Vec<SideEdge>,
    breaks: Vec<BreakLoop>,
    loops: Vec<Option<Vec<bool>>>,
    /// The body's label prefix (`F<id>_` in a `.func`).
    pre: String,
}

impl Flow {
    /// `SSY`s alone first; where they cannot express the control flow, loops with several
    /// exits become `PBK`/`BRK`; then, while a block inside a loop still cannot be mapped
    /// (lanes re-entering the header before they reconverge: a divergent `continue`), the
    /// innermost such loop becomes a `PCNT`/`CONT` loop inside its `PBK`. The rest is
    /// planned on the graph without those loops' exits and continues.
    pub fn plan(graph: &Cfg, divergent: &[usize], pre: &str) -> Result<Flow, CfgError> {
        let loops = cfg::loop_bodies(graph)?;
        let (plan, breaks) = match cfg::plan_reconvergence(graph, divergent, &loops) {
            Ok(plan) => (plan, Vec::new()),
            Err(first) => plan_with_loops(graph, divergent, &loops, first)?,
        };
        Ok(Flow {
            plan: plan.ssys,
            side_edges: plan.side_edges,
            breaks,
            loops,
            pre: pre.to_string(),
        })
    }

    fn in_loop_of(&self, t: usize, p: usize) -> bool {
        self.loops
            .get(t)
            .and_then(|l| l.as_ref())
            .is_some_and(|l| l.get(p).copied().unwrap_or(false))
    }

    /// The regions reconverging at `x`, innermost (smallest) first: those entered from
    /// before `x` (`inner` false), or those inside the loop `x` heads.
    fn stubs_of(&self, x: usize, inner: bool) -> Vec<usize> {
        let plan = &self.plan;
        let mut v: Vec<usize> = (0..plan.len())
            .filter(|&i| plan[i].join == x && self.in_loop_of(x, plan[i].at) == inner)
            .collect();
        v.sort_by_key(|&i| plan[i].size());
        v
    }

    /// Where an edge p → t lands: the `.S` of the innermost region around p that
    /// reconverges at t; else, for a back edge, after t's preheader code (`L`); else after
    /// t's outer stubs (`I`): lanes outside every region meeting at t never pushed its SSYs.
    fn edge_label(&self, p: usize, t: usize) -> String {
        let pre = &self.pre;
        if let Some(k) = self
            .side_edges
            .iter()
            .position(|e| (e.from, e.to) == (p, t))
        {
            return format!("{pre}E{k}");
        }
        self.landing(p, t)
    }

    /// Where an edge p → t lands on t's own lines (see `edge_label`).
    fn landing(&self, p: usize, t: usize) -> String {
        let pre = &self.pre;
        let inner = self.in_loop_of(t, p);
        match self
            .stubs_of(t, inner)
            .into_iter()
            .find(|&i| self.plan[i].region.get(p).copied().unwrap_or(false))
        {
            Some(i) => format!("{pre}S{i}"),
            None if inner => format!("{pre}L{t}"),
            None => format!("{pre}I{t}"),
        }
    }

    fn preheader_code(&self, b: usize) -> bool {
        self.plan.iter().any(|s| s.preheader && s.at == b)
            || self.breaks.iter().any(|l| l.header == b)
    }

    /// The labels before the first instruction of block `t`'s lines.
    fn top_labels(&self, t: usize) -> Vec<String> {
        let pre = &self.pre;
        let mut v = vec![format!("{pre}B{t}")];
        if let Some(i) = self.stubs_of(t, false).first() {
            v.push(format!("{pre}S{i}"));
            return v;
        }
        v.push(format!("{pre}I{t}"));
        // Inner stubs are jumped over (`BRA L`), so only an empty preheader leaves L on top.
        if !self.preheader_code(t) && self.stubs_of(t, true).is_empty() {
            v.push(format!("{pre}L{t}"));
        }
        v
    }

    /// One `NOP.S` per region, innermost first; after an inner region's lanes reconverge
    /// they go on to the enclosing region's `.S`, or past the group to `end`.
    fn stubs(&self, out: &mut Vec<Line>, stubs: &[usize], end: &str) {
        let (pre, plan) = (&self.pre, &self.plan);
        for (k, &i) in stubs.iter().enumerate() {
            out.push(Line::Label(format!("{pre}S{i}")));
            out.push(Line::Inst("NOP.S CC.T;".into()));
            out.push(Line::Label(format!("{pre}T{i}")));
            let inside = |j: usize| {
                plan[i]
                    .region
                    .iter()
                    .zip(&plan[j].region)
                    .all(|(&a, &b)| !a || b)
            };
            let parent = stubs
                .iter()
                .copied()
                .filter(|&j| j != i && plan[j].size() > plan[i].size())
                .find(|&j| inside(j));
            let next = stubs.get(k + 1).copied();
            match parent {
                Some(pj) if Some(pj) != next => out.push(Line::Inst(format!("BRA {pre}S{pj};"))),
                None if next.is_some() => out.push(Line::Inst(format!("BRA {end};"))),
                _ => {}
            }
        }
    }

    /// The lines before block `b`'s instructions (see the module comment).
    pub fn head(&self, b: usize) -> Vec<Line> {
        let pre = &self.pre;
        let mut out = vec![Line::Label(format!("{pre}B{b}"))];
        self.stubs(&mut out, &self.stubs_of(b, false), &format!("{pre}I{b}"));
        out.push(Line::Label(format!("{pre}I{b}")));
        // The loop's own preheader: SSYs of divergent exits (the outer region's first: it
        // must be below the inner one on the stack), then the loop's PBK, inside them.
        let mut ssys: Vec<usize> = (0..self.plan.len())
            .filter(|&i| self.plan[i].preheader && self.plan[i].at == b)
            .collect();
        ssys.sort_by_key(|&i| std::cmp::Reverse(self.plan[i].size()));
        for i in ssys {
            out.push(Line::Inst(format!("SSY {pre}T{i};")));
        }
        for l in self.breaks.iter().filter(|l| l.header == b) {
            out.push(Line::Inst(format!(
                "PBK {};",
                self.edge_label(l.header, l.exit)
            )));
        }
        let inner = self.stubs_of(b, true);
        if !inner.is_empty() {
            out.push(Line::Inst(format!("BRA {pre}L{b};")));
            self.stubs(&mut out, &inner, &format!("{pre}L{b}"));
        }
        out.push(Line::Label(format!("{pre}L{b}")));
        // A `PCNT` loop's iteration: lanes that continue resume here, pushing the next one.
        if self.breaks.iter().any(|l| l.cont && l.header == b) {
            out.push(Line::Inst(format!("PCNT {pre}L{b};")));
        }
        out
    }

    /// The `SSY`s at the end of block `b`, before its terminator; the outer region's first.
    pub fn tail(&self, b: usize) -> Vec<Line> {
        let mut ssys: Vec<usize> = (0..self.plan.len())
            .filter(|&i| !self.plan[i].preheader && self.plan[i].at == b)
            .collect();
        ssys.sort_by_key(|&i| std::cmp::Reverse(self.plan[i].size()));
        ssys.into_iter()
            .map(|i| Line::Inst(format!("SSY {}T{i};", self.pre)))
            .collect()
    }

    /// The instruction the edge `b → t` becomes under guard `g` (`""` or `"@P0 "`), a
    /// branch spelled `bra` (`BRA` or `BRA.U`).
    pub fn jump(&self, g: &str, bra: &str, b: usize, t: usize) -> String {
        if self.breaks.iter().any(|l| l.is_break(b, t)) {
            format!("{g}BRK;")
        } else if self.breaks.iter().any(|l| l.is_cont(b, t)) {
            format!("{g}CONT;")
        } else {
            format!("{g}{bra} {};", self.edge_label(b, t))
        }
    }

    /// The side entries' own lines, after the body: each pushes the `SSY`s of the regions
    /// it enters and goes on to its block.
    pub fn edge_stubs(&self) -> Vec<Line> {
        let pre = &self.pre;
        let mut out = Vec::new();
        for (k, e) in self.side_edges.iter().enumerate() {
            out.push(Line::Label(format!("{pre}E{k}")));
            for i in &e.ssys {
                out.push(Line::Inst(format!("SSY {pre}T{i};")));
            }
            out.push(Line::Inst(format!("BRA {};", self.landing(e.from, e.to))));
        }
        out
    }

    /// What block `b` falling through into `b + 1` needs: nothing when `b + 1`'s lines start
    /// where the edge lands, else a `BRA` (or `BRK`) there.
    pub fn fall(&self, b: usize) -> Option<String> {
        let jump = self.jump("", "BRA", b, b + 1);
        let label = jump.strip_prefix("BRA ").and_then(|j| j.strip_suffix(';'));
        match label {
            Some(l) if self.top_labels(b + 1).iter().any(|t| t == l) => None,
            _ => Some(jump),
        }
    }
}

/// Most loops of one function made `PCNT` loops (each costs a re-plan of the body).
const MAX_PCNT_LOOPS: usize = 32;

/// The fallback of [`Flow::plan`] once `SSY`s alone failed with `first`.
fn plan_with_loops(
    graph: &Cfg,
    divergent: &[usize],
    loops: &[Option<Vec<bool>>],
    first: CfgError,
) -> Result<(cfg::Plan, Vec<BreakLoop>), CfgError> {
    // The innermost loop around block `b` that is not a `PCNT` loop yet.
    let around = |b: usize, taken: &[usize]| {
        (0..loops.len())
            .filter(|h| !taken.contains(h))
            .filter_map(|h| Some((h, loops[h].as_ref()?)))
            .filter(|(_, l)| l.get(b).copied().unwrap_or(false))
            .min_by_key(|(_, l)| l.iter().filter(|&&x| x).count())
            .map(|(h, _)| h)
    };
    let mut continues: Vec<usize> = Vec::new();
    let mut last = first;
    // Each round makes one more loop a `PCNT` loop or ends; each re-plans the whole body,
    // so the rounds are bounded.
    loop {
        if continues.len() > MAX_PCNT_LOOPS {
            return Err(CfgError {
                block: last.block,
                message: format!(
                    "more than {MAX_PCNT_LOOPS} loops would need PCNT/CONT; this translator maps at most that many per function"
                ),
            });
        }
        let (breaks, planned) = match cfg::plan_breaks(graph, &continues) {
            Ok(p) if !p.0.is_empty() => p,
            Ok(_) => match around(last.block, &continues) {
                Some(h) => {
                    continues.push(h);
                    continue;
                }
                None => return Err(last),
            },
            Err(_) if continues.is_empty() => return Err(last),
            Err(e) => return Err(e),
        };
        // A branch with a breaking or continuing side is a `BRK` or `CONT`: no `SSY`.
        let divergent: Vec<usize> = divergent
            .iter()
            .copied()
            .filter(|&b| {
                graph.blocks[b]
                    .succs
                    .iter()
                    .all(|&t| !breaks.iter().any(|l| l.is_break(b, t) || l.is_cont(b, t)))
            })
            .collect();
        let planned_loops = cfg::loop_bodies(&planned)?;
        match cfg::plan_reconvergence(&planned, &divergent, &planned_loops) {
            Ok(plan) => return Ok((plan, breaks)),
            Err(e) => match around(e.block, &continues) {
                Some(h) => {
                    continues.push(h);
                    last = e;
                }
                None => return Err(e),
            },
        }
    }
}

/// A guarded instruction whose sequence cannot carry the guard (a `call`: `CAL` is never
/// guarded; a `ret` in a `.func`: its epilogue restores registers, perhaps the guard's
/// predicate itself): lanes whose guard fails branch around the sequence, `label` after it.
/// With `reconverge` (a call: the lanes go on together after it) the branch sits inside
/// an `SSY` whose `.S` is at `label`; a `ret` needs none (returning lanes leave the stack
/// for the caller's `CAL` entry, so the others go on alone).
pub fn around_guard(
    sel: &mut Selector,
    f: &Function,
    inst: &Inst,
    label: &str,
    reconverge: bool,
) -> Result<(), String> {
    let Some(gd) = inst.guard else {
        return sel.select(inst);
    };
    let p = match sel.regs.loc(f, gd.reg) {
        Ok(Loc::Pred(p)) => p,
        _ => return Err("guard is not a predicate".into()),
    };
    let skip = if gd.negated { "" } else { "!" };
    if reconverge {
        sel.out.push(Line::Inst(format!("SSY {label}J;")));
    }
    sel.out
        .push(Line::Inst(format!("@{skip}P{p} BRA {label};")));
    let mut plain = inst.clone();
    plain.guard = None;
    sel.select(&plain)?;
    sel.out.push(Line::Label(label.to_string()));
    if reconverge {
        sel.out.push(Line::Inst("NOP.S CC.T;".into()));
        sel.out.push(Line::Label(format!("{label}J")));
    }
    Ok(())
}

/// Selects `inst`; a guarded one whose sequence cannot run under its guard (it needs its
/// destination as a temporary, or a predicate of its own) runs unguarded on the lanes the
/// guard admits: the others branch around it to `label` and reconverge there. A failed
/// attempt leaves nothing behind (`Selector::select` undoes it).
pub fn select_or_around_guard(
    sel: &mut Selector,
    f: &Function,
    inst: &Inst,
    label: &str,
) -> Result<(), String> {
    if inst.guard.is_none() {
        return sel.select(inst);
    }
    match sel.select(inst) {
        Err(_) => around_guard(sel, f, inst, label, true),
        done => done,
    }
}
