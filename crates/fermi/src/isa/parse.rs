//! cuobjdump / asfermi text of one instruction → Inst. Errors carry a byte span within the
//! text given.

use std::ops::Range;

use super::bits::sext;
use super::rows::ROWS;
use super::schema::{Kind, Mod, Opd, Row, NONE};
use super::sreg::parse_sreg;
use super::types::{CBank, Flags, Gpr, Guard, Imm20, Inst, Operand, Pred, MAX_MODS, MAX_OPERANDS};
use super::{AsmError, Dialect};

/// A piece of the text with its byte offset.
#[derive(Clone, Copy, Debug)]
struct Piece<'a> {
    s: &'a str,
    at: usize,
}

impl<'a> Piece<'a> {
    fn span(&self) -> Range<usize> {
        self.at..self.at + self.s.len()
    }
    fn trim(self) -> Piece<'a> {
        let start = self.s.len() - self.s.trim_start().len();
        Piece {
            s: self.s.trim(),
            at: self.at + start,
        }
    }
    fn skip(self, n: usize) -> Piece<'a> {
        Piece {
            s: self.s.get(n..).unwrap_or(""),
            at: self.at + n.min(self.s.len()),
        }
    }
    fn err(&self, message: impl Message) -> AsmError {
        error_at(self.span(), message)
    }
}

/// An error message, written out only when it can be the one reported (see [`QUIET`]).
trait Message {
    fn text(self) -> String;
}

impl Message for &'static str {
    fn text(self) -> String {
        self.into()
    }
}

impl<F: FnOnce() -> String> Message for F {
    fn text(self) -> String {
        self()
    }
}

thread_local! {
    /// Set while `parse_with` looks for the first row that takes the text: the errors of the
    /// rows that refuse it are dropped unread, and formatting them (a `String` per refusing
    /// row, most lines try several rows) was a sizeable part of assembling a translator's
    /// output. Only when every row refuses are the rows tried again with their messages.
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn error_at(span: Range<usize>, message: impl Message) -> AsmError {
    let message = if QUIET.with(std::cell::Cell::get) {
        String::new()
    } else {
        message.text()
    };
    AsmError { span, message }
}

fn split<'a>(p: Piece<'a>, sep: char) -> Vec<Piece<'a>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in p.s.char_indices() {
        if c == sep {
            out.push(Piece {
                s: p.s.get(start..i).unwrap_or(""),
                at: p.at + start,
            });
            start = i + c.len_utf8();
        }
    }
    out.push(Piece {
        s: p.s.get(start..).unwrap_or(""),
        at: p.at + start,
    });
    out
}

/// A float literal (`1.5`, `-2e3`, `inf`) for a float immediate field: the bits the field holds
/// (the whole single for a 32-bit field, else the top 20 bits of the single or double).
/// `None` if the text is not a float literal or the field takes none.
fn float_literal(o: &Opd, p: Piece) -> Result<Option<u64>, AsmError> {
    let s = p.s.trim();
    let body = s.strip_prefix('-').unwrap_or(s);
    let is_float = o.float != 0
        && !body.starts_with("0x")
        && (body.contains(['.', 'e', 'E'])
            || body.eq_ignore_ascii_case("inf")
            || body.eq_ignore_ascii_case("nan"));
    if !is_float {
        return Ok(None);
    }
    let x: f64 = s
        .parse()
        .map_err(|_| p.err(|| format!("bad float literal `{s}`")))?;
    let width = match o.kind {
        Kind::Imm { width, .. } => width,
        _ => 20,
    };
    // A single-precision field takes the nearest single, as a PTX or C literal would.
    let bits = if o.float == 32 {
        u64::from((x as f32).to_bits())
    } else {
        x.to_bits()
    };
    let total = if o.float == 32 { 32 } else { 64 };
    let drop = total - u32::from(width);
    if drop > 0 && bits & ((1u64 << drop) - 1) != 0 {
        return Err(
            p.err(|| format!("{s} needs more than the {width} high bits an immediate holds"))
        );
    }
    Ok(Some(bits >> drop))
}

/// `ISETP.LT.AND` → (`ISETP`, [`LT`, `AND`]).
fn split_mnemonic(m: Piece) -> (Piece, Vec<Piece>) {
    let mut parts = split(m, '.').into_iter();
    let name = parts.next().unwrap_or(m);
    (name, parts.collect())
}

/// Parses an integer: `0x1f`, `-0x30`, `31`, `-5`.
fn parse_int(p: Piece) -> Result<i128, AsmError> {
    let s = p.s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (digits, radix) = match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (body, 10),
    };
    if digits.is_empty() || digits.len() > 24 || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(p.err(|| format!("expected a number, found `{}`", p.s)));
    }
    let v = i128::from_str_radix(digits, radix).map_err(|_| p.err("number too large"))?;
    Ok(if neg { -v } else { v })
}

/// A numbered register name: `prefix` then decimal digits, or one of the `special` names
/// (which stand for `special_n`); `None` if `p` is not shaped like one.
fn parse_numbered(p: Piece, prefix: char, special: &[&str], special_n: u32) -> Option<u32> {
    if special.contains(&p.s) {
        return Some(special_n);
    }
    let digits =
        p.s.strip_prefix(prefix)
            .filter(|d| !d.is_empty() && d.len() <= 4 && d.bytes().all(|b| b.is_ascii_digit()))?;
    digits.parse().ok()
}

fn parse_gpr(p: Piece) -> Result<Gpr, AsmError> {
    let n = parse_numbered(p, 'R', &["RZ"], 63)
        .ok_or_else(|| p.err(|| format!("expected a register (R0..R62, RZ), found `{}`", p.s)))?;
    u8::try_from(n)
        .ok()
        .and_then(Gpr::new)
        .ok_or_else(|| p.err(|| format!("register R{n} out of range (R0..R62, RZ)")))
}

fn parse_pred(p: Piece) -> Result<Pred, AsmError> {
    let n = parse_numbered(p, 'P', &["pt", "PT"], 7)
        .ok_or_else(|| p.err(|| format!("expected a predicate (P0..P6, pt), found `{}`", p.s)))?;
    u8::try_from(n)
        .ok()
        .and_then(Pred::new)
        .ok_or_else(|| p.err(|| format!("predicate P{n} out of range (P0..P6, pt)")))
}

/// Strips the decorations `-`, `~`/`!`, `|…|`, `.CC` the field allows.
fn parse_flags<'a>(o: &Opd, p: Piece<'a>) -> Result<(Flags, Piece<'a>), AsmError> {
    let mut f = Flags::default();
    let mut p = p.trim();
    if o.neg != NONE && p.s.starts_with('-') {
        f.neg = true;
        p = p.skip(1).trim();
    }
    if o.not != NONE && (p.s.starts_with('~') || p.s.starts_with('!')) {
        f.not = true;
        p = p.skip(1).trim();
    }
    if o.abs != NONE && p.s.starts_with('|') && p.s.ends_with('|') && p.s.len() >= 2 {
        f.abs = true;
        p = Piece {
            s: p.s.get(1..p.s.len() - 1).unwrap_or(""),
            at: p.at + 1,
        }
        .trim();
    }
    if o.cc != NONE {
        if let Some(rest) = p.s.strip_suffix(".CC") {
            f.cc = true;
            p = Piece { s: rest, at: p.at };
        }
    }
    Ok((f, p))
}

fn check_range(p: Piece, v: i128, width: u8, signed: bool, what: &str) -> Result<i64, AsmError> {
    let (lo, hi) = if signed {
        (-(1i128 << (width - 1)), (1i128 << (width - 1)) - 1)
    } else {
        (0, (1i128 << width) - 1)
    };
    // A 32-bit field also takes its unsigned spelling (0xffffffff for -1).
    let v = if signed && width >= 32 && v > hi && v < (1i128 << width) {
        v - (1i128 << width)
    } else {
        v
    };
    if v < lo || v > hi {
        let sign = if signed { "sign-extended" } else { "unsigned" };
        return Err(p.err(|| format!("{what} {v:#x} does not fit {width} bits {sign}")));
    }
    Ok(v as i64)
}

/// `[R1+0x10]`, `[R1+-0x10]`, `[R1-0x10]`, `[R1]`, `[0x10]` → (base, offset).
fn parse_address(p: Piece, width: u8) -> Result<(Gpr, i64), AsmError> {
    let t = p.trim();
    let inner =
        t.s.strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .ok_or_else(|| {
                t.err(|| format!("expected a memory address `[R1+0x10]`, found `{}`", t.s))
            })?;
    let inner = Piece {
        s: inner,
        at: t.at + 1,
    }
    .trim();
    let starts_reg = inner.s.starts_with('R');
    if !starts_reg {
        let v = parse_int(inner)?;
        return Ok((Gpr::RZ, check_range(inner, v, width, true, "offset")?));
    }
    let split_at = inner.s.find(['+', '-']);
    let (reg, off) = match split_at {
        Some(i) => (
            Piece {
                s: inner.s.get(..i).unwrap_or(""),
                at: inner.at,
            }
            .trim(),
            Some(inner.skip(i)),
        ),
        None => (inner, None),
    };
    let base = parse_gpr(reg)?;
    let offset = match off {
        None => 0,
        Some(o) => {
            let body = o.s.strip_prefix('+').map_or(o, |_| o.skip(1)).trim();
            let v = parse_int(body)?;
            check_range(body, v, width, true, "offset")?
        }
    };
    Ok((base, offset))
}

/// `c [0x0] [0x28]` (spaces optional) → (bank, rest inside the second brackets).
fn parse_cbank<'a>(p: Piece<'a>) -> Result<(u8, Piece<'a>), AsmError> {
    parse_cbank_below(p, 16)
}

/// Like [`parse_cbank`] with banks `0..banks`.
fn parse_cbank_below<'a>(p: Piece<'a>, banks: i128) -> Result<(u8, Piece<'a>), AsmError> {
    let t = p.trim();
    let rest = t.s.strip_prefix('c').ok_or_else(|| {
        t.err(|| format!("expected a constant `c [bank] [offset]`, found `{}`", t.s))
    })?;
    let rest = Piece {
        s: rest,
        at: t.at + 1,
    }
    .trim();
    let close = rest.s.find(']').ok_or_else(|| rest.err("missing `]`"))?;
    let bank_p = Piece {
        s: rest.s.get(..=close).unwrap_or(""),
        at: rest.at,
    };
    let bank_inner = Piece {
        s: bank_p
            .s
            .strip_prefix('[')
            .and_then(|b| b.strip_suffix(']'))
            .ok_or_else(|| bank_p.err("expected `[bank]`"))?,
        at: bank_p.at + 1,
    };
    let bank = parse_int(bank_inner)?;
    if !(0..banks).contains(&bank) {
        return Err(bank_inner
            .err(|| format!("constant bank {bank:#x} out of range (0..{:#x})", banks - 1)));
    }
    Ok((bank as u8, rest.skip(close + 1).trim()))
}

/// An indexed constant's bank field is 5 bits (42–46), so it reaches `c [0x10]`, the bank of
/// compiler constants such as BRX jump tables (Mesa `emitFlow`/`emitLOAD`: `fileIndex << 10`
/// of `code[1]`, with no selector bits in these forms).
const CMEM_BANKS: i128 = 32;

/// `c [bank] [offset]` (no register).
fn parse_const(r: Piece) -> Result<CBank, AsmError> {
    let (bank, rest) = parse_cbank(r)?;
    let (base, offset) = parse_address(rest, 32)?;
    if base != Gpr::RZ {
        return Err(rest.err("a composite constant takes no register"));
    }
    let offset = u16::try_from(offset).map_err(|_| {
        rest.err(|| format!("constant offset {offset:#x} out of range (0..0xffff)"))
    })?;
    CBank::new(bank, offset).ok_or_else(|| r.err("bad constant"))
}

fn parse_operand(
    o: &Opd,
    p: Piece,
    addr: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
) -> Result<Operand, AsmError> {
    let p = p.trim();
    if p.s.is_empty() {
        return Err(p.err("missing operand"));
    }
    match o.kind {
        Kind::Reg => {
            let (f, r) = parse_flags(o, p)?;
            Ok(Operand::Reg(parse_gpr(r)?, f))
        }
        Kind::SplitPred => Ok(Operand::Pred(parse_pred(p)?, Flags::default())),
        Kind::Pred => {
            let (not, r) = match p.s.strip_prefix('!') {
                Some(_) if o.not != NONE => (true, p.skip(1).trim()),
                Some(_) => return Err(p.err("this predicate cannot be negated")),
                None => (false, p),
            };
            Ok(Operand::Pred(
                parse_pred(r)?,
                Flags {
                    not,
                    ..Flags::default()
                },
            ))
        }
        Kind::Const => {
            let (f, r) = parse_flags(o, p)?;
            if !r.s.starts_with('c') {
                return Err(
                    r.err(|| format!("expected a constant `c [bank] [offset]`, found `{}`", r.s))
                );
            }
            Ok(Operand::Const(parse_const(r)?, f))
        }
        Kind::Comp => {
            let (f, r) = parse_flags(o, p)?;
            if r.s.starts_with('c') {
                Ok(Operand::Const(parse_const(r)?, f))
            } else if r.s.starts_with('R') {
                Ok(Operand::Reg(parse_gpr(r)?, f))
            } else if let Some(bits) = float_literal(o, r)? {
                let i = Imm20::new(sext(bits, 20)).ok_or_else(|| r.err("bad float"))?;
                Ok(Operand::Imm20(i, f))
            } else {
                // The raw 20-bit spelling (0xfffff) or a sign-extended value (-0x1).
                let v = parse_int(r)?;
                let v = if (0x80000..=0xfffff).contains(&v) {
                    v - 0x100000
                } else {
                    v
                };
                let i = i64::try_from(v).ok().and_then(Imm20::new).ok_or_else(|| {
                    r.err(|| format!("immediate {v:#x} does not fit 20 bits sign-extended"))
                })?;
                Ok(Operand::Imm20(i, f))
            }
        }
        Kind::Imm { width, signed } => {
            if let Some(bits) = float_literal(o, p)? {
                let v = if signed {
                    sext(bits, width)
                } else {
                    bits as i64
                };
                return Ok(Operand::Imm(v as i32));
            }
            let v = parse_int(p)?;
            Ok(Operand::Imm(
                check_range(p, v, width, signed, "immediate")? as i32
            ))
        }
        Kind::Mem { width } => {
            let (base, offset) = parse_address(p, width)?;
            Ok(Operand::Mem {
                base,
                offset: offset as i32,
            })
        }
        Kind::Cmem => {
            let (bank, rest) = parse_cbank_below(p, CMEM_BANKS)?;
            let (base, offset) = parse_address(rest, 32)?;
            let offset = u16::try_from(offset).map_err(|_| {
                rest.err(|| format!("constant offset {offset:#x} out of range (0..0xffff)"))
            })?;
            Ok(Operand::CMem { bank, base, offset })
        }
        Kind::Sreg => parse_sreg(p.s)
            .map(Operand::Sreg)
            .ok_or_else(|| p.err(|| format!("unknown special register `{}`", p.s))),
        Kind::Target { width } => {
            let abs: i128 = if p.s.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
                parse_int(p)?
            } else {
                labels(p.s)
                    .map(i128::from)
                    .ok_or_else(|| p.err(|| format!("undefined label `{}`", p.s)))?
            };
            let rel = abs - i128::from(addr) - 8;
            let v = check_range(p, rel, width, true, "branch offset")?;
            Ok(Operand::Target(v as i32))
        }
        Kind::AbsTarget { width } => {
            let abs: i128 = if p.s.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
                parse_int(p)?
            } else {
                labels(p.s)
                    .map(i128::from)
                    .ok_or_else(|| p.err(|| format!("undefined label `{}`", p.s)))?
            };
            let v = check_range(p, abs, width, false, "target address")?;
            Ok(Operand::AbsTarget(v as u32))
        }
        Kind::Text(t) => {
            if p.s == t {
                Ok(Operand::Text)
            } else {
                Err(p.err(|| format!("expected `{t}`, found `{}`", p.s)))
            }
        }
        Kind::Named { width, names } => match names.iter().find(|(_, n)| *n == p.s) {
            Some(&(v, _)) => Ok(Operand::Imm(v.into())),
            // The number of a value without a name, as printed.
            None if p.s.starts_with("0x") => {
                let v = parse_int(p)?;
                Ok(Operand::Imm(
                    check_range(p, v, width, false, "value")? as i32
                ))
            }
            None => {
                let options: Vec<&str> = names.iter().map(|(_, n)| *n).collect();
                Err(p.err(|| format!("expected one of {}, found `{}`", options.join(" "), p.s)))
            }
        },
        Kind::AtomMem => {
            let (base, offset) = parse_address(p, 20)?;
            Ok(Operand::Mem {
                base,
                offset: offset as i32,
            })
        }
        Kind::MemWords { width } => {
            let (base, offset) = parse_address(p, width.saturating_add(2))?;
            if offset % 4 != 0 {
                return Err(p.err(|| {
                    format!(
                        "offset {} must be a multiple of 4 (the field counts words)",
                        super::print::hex(offset)
                    )
                }));
            }
            Ok(Operand::Mem {
                base,
                offset: offset as i32,
            })
        }
    }
}

/// How many of `row`'s operands may be left out of the text (see `Opd::omit`).
fn omittable(row: &Row) -> usize {
    row.operands.iter().filter(|o| o.omit != NONE).count()
}

/// Whether `given` operands are `row`'s short form: all that may be left out are.
fn is_short_form(row: &Row, given: usize) -> bool {
    let n = omittable(row);
    n > 0 && given + n == row.operands.len()
}

/// The value an operand left out of the text stands for (see `Opd::omit`).
fn omitted_operand(o: &Opd) -> Operand {
    match o.kind {
        Kind::Reg => Operand::Reg(Gpr::new(o.omit).unwrap_or(Gpr::RZ), Flags::default()),
        Kind::Pred => Operand::Pred(Pred::new(o.omit).unwrap_or(Pred::PT), Flags::default()),
        _ => Operand::Imm(o.omit.into()),
    }
}

/// Spellings of `m` to try: the dialect's own first.
fn spellings(m: &Mod, dialect: Dialect) -> impl Iterator<Item = &'static (u8, &'static str)> {
    let legacy: &'static [(u8, &'static str)] = match dialect {
        Dialect::Legacy => m.legacy,
        Dialect::Current => &[],
    };
    legacy.iter().chain(m.names.iter())
}

/// Sub-word selects written on source operands (`R2.B1`), by operand index.
type Sels<'a> = [&'a str; MAX_OPERANDS];

/// Whether the spelling part `want` (`U8` or `U8:B1`, the type of source operand `k`) matches
/// the written part `got` given the selects written on the operands.
fn part_matches(want: &str, got: &str, k: usize, sels: &Sels) -> bool {
    let written = sels.get(k).copied().unwrap_or("");
    match want.split_once(':') {
        // The internal spelling written out (`U8:B1`, as `build` takes it), or the type with
        // the select on the operand.
        Some((ty, sel)) => want == got || (ty == got && written == sel),
        None => want == got && written.is_empty(),
    }
}

/// Whether a modifier group's spellings carry sub-word selects (`.U8:B1`).
fn takes_selects(m: &Mod) -> bool {
    m.names.iter().any(|(_, n)| n.contains(':'))
}

/// Matches the modifier parts (`["LT", "U32", "AND", "S"]`) against the row's groups.
fn match_mods(
    row: &Row,
    parts: &[Piece],
    mnemonic: Piece,
    dialect: Dialect,
    sels: &Sels,
) -> Result<([u8; MAX_MODS], bool, bool), AsmError> {
    let mut values = [0u8; MAX_MODS];
    let mut i = 0;
    for (slot, m) in values.iter_mut().zip(row.mods.iter()) {
        let mut best: Option<(usize, u8)> = None;
        let selects = takes_selects(m);
        for &(v, name) in spellings(m, dialect) {
            if name.is_empty() {
                continue;
            }
            // The spelling's dot-separated parts against the written ones, without collecting
            // them (this runs for every spelling of every group of every line assembled).
            let mut n = 0;
            let mut matches = true;
            for (k, w) in name.split('.').filter(|s| !s.is_empty()).enumerate() {
                n += 1;
                let ok = parts.get(i + k).is_some_and(|g| {
                    if selects {
                        part_matches(w, g.s, k + 1, sels)
                    } else {
                        g.s == w
                    }
                });
                if !ok {
                    matches = false;
                    break;
                }
            }
            if matches && best.is_none_or(|(bn, _)| n > bn) {
                best = Some((n, v));
            }
        }
        match best {
            Some((n, v)) => {
                *slot = v;
                i += n;
            }
            None => {
                let default = spellings(m, dialect).find(|(_, name)| name.is_empty());
                let selects_written = sels.iter().any(|s| !s.is_empty());
                match default {
                    Some(_) if takes_selects(m) && selects_written => {
                        return Err(mnemonic.err(|| {
                            format!(
                                "a sub-word select needs the {} written out (e.g. {}.U8.U8)",
                                m.what, row.name
                            )
                        }))
                    }
                    Some(&(v, _)) => *slot = v,
                    None => {
                        let needs = || {
                            let options: Vec<&str> = m.names.iter().map(|(_, n)| *n).collect();
                            format!(
                                "{} needs a {} modifier ({})",
                                row.name,
                                m.what,
                                options.join(" ")
                            )
                        };
                        return Err(match parts.get(i) {
                            Some(at) => {
                                at.err(|| format!("unexpected modifier `.{}`: {}", at.s, needs()))
                            }
                            None => mnemonic.err(needs),
                        });
                    }
                }
            }
        }
    }
    let mut po = false;
    if row.po && parts.get(i).is_some_and(|p| p.s == "PO") {
        po = true;
        i += 1;
    }
    let mut sched = false;
    if parts.get(i).is_some_and(|p| p.s == "S") {
        sched = true;
        i += 1;
    }
    if let Some(p) = parts.get(i) {
        return Err(p.err(|| format!("unknown or misplaced modifier `.{}` for {}", p.s, row.name)));
    }
    Ok((values, po, sched))
}

/// The pieces of one instruction's text.
struct Split<'a> {
    guard: Option<(Guard, Piece<'a>)>,
    mnemonic: Piece<'a>,
    parts: Vec<Piece<'a>>,
    operands: Vec<Piece<'a>>,
}

/// Where the instruction sits and how names resolve.
struct Ctx<'l> {
    addr: u64,
    labels: &'l dyn Fn(&str) -> Option<u64>,
    dialect: Dialect,
}

/// Strips sub-word selects (`.B1`–`.B3`, `.H1`) from the source operands of rows whose
/// source types carry them.
fn strip_selects<'a, 'o>(
    row: &Row,
    operands: &'o [Piece<'a>],
) -> (std::borrow::Cow<'o, [Piece<'a>]>, Sels<'static>) {
    let mut ops = std::borrow::Cow::Borrowed(operands);
    let mut sels = [""; MAX_OPERANDS];
    if row.mods.iter().any(takes_selects) {
        for (k, p) in ops.to_mut().iter_mut().enumerate().skip(1).take(2) {
            for sel in ["B1", "B2", "B3", "H1"] {
                let stripped = p.s.strip_suffix(sel).and_then(|r| r.strip_suffix('.'));
                if let (Some(rest), Some(slot)) = (stripped, sels.get_mut(k)) {
                    *slot = sel;
                    *p = Piece { s: rest, at: p.at };
                    break;
                }
            }
        }
    }
    (ops, sels)
}

fn parse_row(row: &'static Row, t: &Split, cx: &Ctx) -> Result<Inst, (u8, AsmError)> {
    let (guard, mnemonic) = (t.guard, t.mnemonic);
    let (mut stripped, sels) = strip_selects(row, &t.operands);
    let product_neg = take_first_factor_neg(row, &mut stripped);
    let operands = &stripped;
    let (mods, po, sched) =
        match_mods(row, &t.parts, mnemonic, cx.dialect, &sels).map_err(|e| (0, e))?;
    let guard = match guard {
        None => Guard::ALWAYS,
        Some((g, p)) if row.guarded => {
            let _ = p;
            g
        }
        Some((_, p)) => {
            return Err((
                1,
                p.err(|| format!("{} cannot take a guard predicate", row.name)),
            ))
        }
    };
    let short = is_short_form(row, operands.len());
    if operands.len() != row.operands.len() && !short {
        let span = operands.last().map_or(mnemonic.span(), |p| p.span());
        return Err((
            1,
            error_at(span, || {
                let or_short = if omittable(row) > 0 {
                    format!(" (or {})", row.operands.len() - omittable(row))
                } else {
                    String::new()
                };
                format!(
                    "{} takes {} operand(s){or_short}, found {}",
                    row.name,
                    row.operands.len(),
                    operands.len()
                )
            }),
        ));
    }
    let mut values = [Operand::None; MAX_OPERANDS];
    let mut given = operands.iter();
    for (slot, o) in values.iter_mut().zip(row.operands.iter()) {
        if short && o.omit != NONE {
            *slot = omitted_operand(o);
            continue;
        }
        let Some(p) = given.next() else { break };
        *slot = parse_operand(o, *p, cx.addr, cx.labels).map_err(|e| (2, e))?;
    }
    if po {
        apply_po(row, &mut values).map_err(|m| (2, mnemonic.err(|| m)))?;
    }
    if product_neg {
        if let Some(v) = values.get_mut(2) {
            toggle_neg(v);
        }
    }
    Ok(Inst {
        row,
        guard,
        sched,
        mods,
        operands: values,
    })
}

/// The rows whose negate bit belongs to the product of their first two sources: NVIDIA prints
/// it on the second factor (`FFMA R13, R3, -R5, R13`, the row's spelling); a `-` on the first
/// factor (asfermi's and earlier ptxvm's spelling) means the same and is accepted too.
const PRODUCT_NEG_ROWS: &[&str] = &["FFMA", "DFMA", "FMUL", "DMUL"];

/// Strips a `-` from the first factor of a product row whose first factor has no negate bit
/// of its own; returns whether it did (the second factor's negation is then flipped).
fn take_first_factor_neg(row: &Row, ops: &mut std::borrow::Cow<[Piece]>) -> bool {
    let first_has_no_bit = row.operands.get(1).is_some_and(|o| o.neg == NONE);
    let second_has_bit = row.operands.get(2).is_some_and(|o| o.neg != NONE);
    if !(PRODUCT_NEG_ROWS.contains(&row.name) && first_has_no_bit && second_has_bit) {
        return false;
    }
    match ops.get(1) {
        Some(p) if p.trim().s.starts_with('-') => {
            let stripped = p.trim().skip(1).trim();
            if let Some(p) = ops.to_mut().get_mut(1) {
                *p = stripped;
            }
            true
        }
        _ => false,
    }
}

/// Flips the negation of a value (the product sign moved from the other factor).
fn toggle_neg(v: &mut Operand) {
    match v {
        Operand::Reg(_, f) | Operand::Const(_, f) | Operand::Imm20(_, f) => f.neg = !f.neg,
        _ => {}
    }
}

/// Parses one instruction (trailing `;` optional).
pub fn parse_with(
    text: &str,
    addr: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    dialect: Dialect,
) -> Result<Inst, AsmError> {
    parse_placed(text, addr, labels, dialect).map(|(inst, _)| inst)
}

/// Whether a row reads where the instruction sits or what a label names: only its branch
/// targets do (`parse_operand`'s `Target` and `AbsTarget` arms are the only users of the
/// address and the labels).
fn takes_position(row: &Row) -> bool {
    row.operands
        .iter()
        .any(|o| matches!(o.kind, Kind::Target { .. } | Kind::AbsTarget { .. }))
}

/// [`parse_with`], and whether the result may depend on `addr` or `labels`: `false` when no
/// row of the mnemonic takes a branch target, so that the text alone (and the dialect)
/// decided every row's outcome.
pub(super) fn parse_placed(
    text: &str,
    addr: u64,
    labels: &dyn Fn(&str) -> Option<u64>,
    dialect: Dialect,
) -> Result<(Inst, bool), AsmError> {
    let mut p = Piece { s: text, at: 0 }.trim();
    if let Some(rest) = p.s.strip_suffix(';') {
        p = Piece { s: rest, at: p.at }.trim();
    }
    if p.s.is_empty() {
        return Err(AsmError {
            span: 0..text.len(),
            message: "expected an instruction".into(),
        });
    }
    let mut guard = None;
    if p.s.starts_with('@') {
        let end = p.s.find(char::is_whitespace).unwrap_or(p.s.len());
        let g = Piece {
            s: p.s.get(..end).unwrap_or(""),
            at: p.at,
        };
        let body = g.skip(1);
        let (not, pr) = match body.s.strip_prefix('!') {
            Some(_) => (true, body.skip(1)),
            None => (false, body),
        };
        guard = Some((
            Guard {
                pred: parse_pred(pr)?,
                not,
            },
            g,
        ));
        p = p.skip(end).trim();
    }
    let end = p.s.find(char::is_whitespace).unwrap_or(p.s.len());
    let mnemonic = Piece {
        s: p.s.get(..end).unwrap_or(""),
        at: p.at,
    };
    let rest = p.skip(end).trim();
    let (name, dotted) = split_mnemonic(mnemonic);
    let operands: Vec<Piece> = if rest.s.is_empty() {
        Vec::new()
    } else {
        split(rest, ',').into_iter().map(Piece::trim).collect()
    };
    // The translator's text is upper case already: no copy for it.
    let name_upper: std::borrow::Cow<str> = if name.s.bytes().any(|b| b.is_ascii_lowercase()) {
        name.s.to_ascii_uppercase().into()
    } else {
        name.s.into()
    };
    let split = Split {
        guard,
        mnemonic,
        parts: dotted,
        operands,
    };
    let cx = Ctx {
        addr,
        labels,
        dialect,
    };
    let rows = rows_named(&name_upper);
    // The first row that takes the text, its refusing predecessors' messages unwritten.
    let first = {
        // Restored on unwinding too, so a later error on this thread keeps its message.
        struct Restore(bool);
        impl Drop for Restore {
            fn drop(&mut self) {
                QUIET.with(|q| q.set(self.0));
            }
        }
        let _restore = Restore(QUIET.with(|q| q.replace(true)));
        rows.iter()
            .find_map(|&row| parse_row(row, &split, &cx).ok())
    };
    let placed = || rows.iter().any(|row| takes_position(row));
    if let Some(inst) = first {
        return Ok((inst, placed()));
    }
    // Every row refuses: again with the messages, to report the one that explains best.
    let mut best: Option<(u8, AsmError)> = None;
    let mut forms = 0;
    for &row in rows {
        forms += 1;
        match parse_row(row, &split, &cx) {
            Ok(inst) => return Ok((inst, placed())),
            // The form that got furthest explains best: deepest phase, then latest token, then
            // the later row (immediate forms follow register forms, and a range error says
            // more than a shape error).
            Err((depth, e)) => {
                let further = |(d, b): &(u8, AsmError)| (depth, e.span.start) >= (*d, b.span.start);
                if best.as_ref().is_none_or(further) {
                    best = Some((depth, e));
                }
            }
        }
    }
    Err(match best {
        None => unknown_opcode(name),
        // Every form refused the modifiers: say so, not just what the first form wanted.
        Some((0, e)) if forms > 1 => AsmError {
            span: e.span.clone(),
            message: format!(
                "no form of {} takes the modifiers of `{}` ({})",
                name.s, mnemonic.s, e.message
            ),
        },
        Some((_, e)) => e,
    })
}

/// The rows of one mnemonic, in table order, from an index built once (a scan of the whole
/// table per line dominated assembling long listings).
fn rows_named(name: &str) -> &'static [&'static Row] {
    static INDEX: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Vec<&'static Row>>> =
        std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut m: rustc_hash::FxHashMap<&'static str, Vec<&'static Row>> = Default::default();
        for row in ROWS.iter() {
            m.entry(row.name).or_default().push(row);
        }
        m
    });
    index.get(name).map_or(&[], Vec::as_slice)
}

/// The error for a mnemonic no row has: why, when the opcode is known but not encoded.
fn unknown_opcode(name: Piece) -> AsmError {
    let upper = name.s.to_ascii_uppercase();
    match super::rows::NOT_SUPPORTED.iter().find(|(n, _)| *n == upper) {
        Some((n, why)) => name.err(|| format!("{n} is not supported: {why}")),
        None => name.err(|| format!("unknown opcode `{}`", name.s)),
    }
}

fn flags_fit(o: &Opd, f: Flags) -> bool {
    (!f.neg || o.neg != NONE)
        && (!f.not || o.not != NONE)
        && (!f.abs || o.abs != NONE)
        && (!f.cc || o.cc != NONE)
}

fn fits_signed(v: i64, width: u8) -> bool {
    width >= 64 || (v >= -(1i64 << (width - 1)) && v < (1i64 << (width - 1)))
}

/// Whether `v` is a value field `o` can hold.
fn operand_fits(o: &Opd, v: &Operand) -> bool {
    match (o.kind, *v) {
        (Kind::Reg, Operand::Reg(_, f)) | (Kind::Comp, Operand::Reg(_, f)) => flags_fit(o, f),
        (Kind::Pred, Operand::Pred(_, f)) => flags_fit(o, f) && !f.neg && !f.abs && !f.cc,
        (Kind::Comp, Operand::Const(_, f)) | (Kind::Comp, Operand::Imm20(_, f)) => flags_fit(o, f),
        (Kind::Imm { width, signed }, Operand::Imm(i)) => {
            let i = i64::from(i);
            if signed {
                fits_signed(i, width)
            } else if width >= 32 {
                true
            } else {
                i >= 0 && i < (1i64 << width)
            }
        }
        (Kind::Mem { width }, Operand::Mem { offset, .. }) => fits_signed(offset.into(), width),
        (Kind::Cmem, Operand::CMem { bank, .. }) => i128::from(bank) < CMEM_BANKS,
        (Kind::SplitPred, Operand::Pred(_, f)) => f == Flags::default(),
        (Kind::Const, Operand::Const(c, f)) => c.bank < 16 && flags_fit(o, f),
        (Kind::Sreg, Operand::Sreg(_)) => true,
        (Kind::Target { width }, Operand::Target(rel)) => fits_signed(rel.into(), width),
        (Kind::AbsTarget { width }, Operand::AbsTarget(a)) => {
            width >= 32 || u64::from(a) >> width == 0
        }
        (Kind::Text(_), Operand::Text) => true,
        (Kind::Named { width, .. }, Operand::Imm(i)) => i >= 0 && i64::from(i) < 1i64 << width,
        (Kind::AtomMem, Operand::Mem { offset, .. }) => fits_signed(offset.into(), 20),
        (Kind::MemWords { width }, Operand::Mem { offset, .. }) => {
            offset % 4 == 0 && fits_signed((offset >> 2).into(), width)
        }
        _ => false,
    }
}

/// `.PO`: negate both negatable operands (which must not carry their own `-`).
fn apply_po(row: &Row, values: &mut [Operand; MAX_OPERANDS]) -> Result<(), String> {
    for (o, v) in row.operands.iter().zip(values.iter_mut()) {
        if o.neg == NONE {
            continue;
        }
        let f = match v {
            Operand::Reg(_, f) | Operand::Const(_, f) | Operand::Imm20(_, f) => f,
            _ => continue,
        };
        if f.neg {
            return Err(format!(
                "{}.PO already negates both operands; drop the `-`",
                row.name
            ));
        }
        f.neg = true;
    }
    Ok(())
}

/// Builds an instruction from its mnemonic and modifiers as printed (`"ISETP.LT.U32.AND"`,
/// `".S"` last if wanted) and typed operands in print order. Branch targets are
/// `Operand::Target(offset from the next instruction)`.
pub fn build(opcode: &str, guard: Guard, operands: &[Operand]) -> Result<Inst, AsmError> {
    let whole = Piece { s: opcode, at: 0 }.trim();
    let (name, dotted) = split_mnemonic(whole);
    let mut err = unknown_opcode(name);
    for row in ROWS.iter().filter(|r| r.name == name.s) {
        let (mods, po, sched) =
            match match_mods(row, &dotted, whole, Dialect::Current, &[""; MAX_OPERANDS]) {
                Ok(m) => m,
                Err(e) => {
                    err = e;
                    continue;
                }
            };
        if !row.guarded && guard != Guard::ALWAYS {
            err = whole.err(|| format!("{} cannot take a guard predicate", row.name));
            continue;
        }
        // As in the text, the operands that may be left out are all given or all left out.
        let short = is_short_form(row, operands.len());
        let mut values = [Operand::None; MAX_OPERANDS];
        let mut given = operands.iter();
        let mut shapes_fit = operands.len() == row.operands.len() || short;
        for (slot, o) in values.iter_mut().zip(row.operands.iter()) {
            if short && o.omit != NONE {
                *slot = omitted_operand(o);
            } else if let Some(v) = given.next() {
                shapes_fit &= operand_fits(o, v);
                *slot = *v;
            }
        }
        if !shapes_fit {
            err = whole.err(|| {
                format!(
                    "operands do not fit {} ({} expected)",
                    row.name,
                    row.operands.len()
                )
            });
            continue;
        }
        if po {
            if let Err(m) = apply_po(row, &mut values) {
                err = whole.err(|| m);
                continue;
            }
        }
        return Ok(Inst {
            row,
            guard,
            sched,
            mods,
            operands: values,
        });
    }
    Err(err)
}
