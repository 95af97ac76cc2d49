//! `.version`, `.target` and `.address_size` (ptx-isa-1.1 §9.3 Tables 76 and 77; PTX ISA 8.x
//! §11.1.3 `.address_size`).

use crate::ctx::Checker;
use diag::{Diagnostic, Span};
use ir::{AddressSize, PtxVersion, TexMode};
use syntax::ast;

/// The newest PTX ISA version this checker knows (CUDA 12.9). Newer files are accepted with a
/// warning: their new instructions would be unknown, not silently misread.
pub(crate) const LATEST_PTX: PtxVersion = PtxVersion::new(8, 8);

/// The architecture assumed when `.target` is missing: the newest one we know, so that a
/// missing directive costs a warning rather than an error on every modern instruction.
const DEFAULT_SM: u32 = 90;

/// `sm_NN`/`compute_NN` numbers the checker knows, with the first PTX ISA version that accepts
/// each (PTX ISA 8.x §11.1.2 "PTX ISA Notes" of `.target`).
const KNOWN_TARGETS: &[(u32, PtxVersion)] = &[
    (10, PtxVersion::new(1, 0)),
    (11, PtxVersion::new(1, 0)),
    (12, PtxVersion::new(1, 2)),
    (13, PtxVersion::new(1, 2)),
    (20, PtxVersion::new(2, 0)),
    (21, PtxVersion::new(2, 0)),
    (30, PtxVersion::new(3, 0)),
    (32, PtxVersion::new(4, 0)),
    (35, PtxVersion::new(3, 1)),
    (37, PtxVersion::new(4, 1)),
    (50, PtxVersion::new(4, 0)),
    (52, PtxVersion::new(4, 1)),
    (53, PtxVersion::new(4, 2)),
    (60, PtxVersion::new(5, 0)),
    (61, PtxVersion::new(5, 0)),
    (62, PtxVersion::new(5, 0)),
    (70, PtxVersion::new(6, 0)),
    (72, PtxVersion::new(6, 1)),
    (75, PtxVersion::new(6, 3)),
    (80, PtxVersion::new(7, 0)),
    (86, PtxVersion::new(7, 1)),
    (87, PtxVersion::new(7, 4)),
    (89, PtxVersion::new(7, 8)),
    (90, PtxVersion::new(7, 8)),
    (100, PtxVersion::new(8, 6)),
    (101, PtxVersion::new(8, 6)),
    (103, PtxVersion::new(8, 8)),
    (120, PtxVersion::new(8, 7)),
    (121, PtxVersion::new(8, 8)),
];

/// `sm_61` → (61, None); `compute_90a` → (90, Some('a')).
pub(crate) fn parse_arch(name: &str) -> Option<(u32, Option<char>)> {
    let rest = name
        .strip_prefix("sm_")
        .or_else(|| name.strip_prefix("compute_"))?;
    let (digits, suffix) = match rest.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, c)) if i + c.len_utf8() == rest.len() && (c == 'a' || c == 'f') => {
            (rest.get(..i)?, Some(c))
        }
        Some(_) => return None,
        None => (rest, None),
    };
    if digits.is_empty() || digits.len() > 3 {
        return None;
    }
    digits.parse().ok().map(|n| (n, suffix))
}

impl<'a> Checker<'a> {
    /// Checks the file header: `.version` first, then `.target`, then optional
    /// `.address_size`; repeated directives must agree with the first (Tables 76, 77).
    pub(crate) fn check_header(&mut self, stmts: &'a [ast::Statement], module_span: Span) {
        for (i, stmt) in stmts.iter().enumerate() {
            match stmt {
                ast::Statement::Version(v) => self.check_version(v, i),
                ast::Statement::Target(t) => self.check_target(t),
                ast::Statement::AddressSize(a) => self.check_address_size(a),
                _ => {}
            }
        }
        if self.version_seen.is_none() {
            let at = Span::new(module_span.start, module_span.start);
            self.error(
                at,
                "missing `.version` directive: each PTX file must begin with one",
            );
            // Check the rest as the newest version so one missing line is one error.
            self.version = LATEST_PTX;
        }
        if self.target_seen.is_none() {
            let at = self.version_seen.unwrap_or(Span::new(0, 0));
            self.push(
                Diagnostic::warning(at, "missing `.target` directive")
                    .with_note(format!("assuming .target sm_{DEFAULT_SM}")),
            );
            self.target.sm = DEFAULT_SM;
        } else if let Some(&(_, need)) = KNOWN_TARGETS.iter().find(|(n, _)| *n == self.target.sm) {
            // `sm_90a` came with PTX 8.0, the family targets `sm_100f` … with PTX 8.8 (ptxas
            // 12.9: "PTX .version 8.7 does not support .target sm_100f").
            let need = match self.target.arch_suffix {
                Some('f') => need.max(PtxVersion::new(8, 8)),
                Some(_) => need.max(PtxVersion::new(8, 0)),
                None => need,
            };
            if self.version < need {
                let at = self.target_seen.unwrap_or_default();
                self.error(
                    at,
                    format!(
                        ".target sm_{}{} requires PTX ISA version {need} or higher (file is .version {})",
                        self.target.sm,
                        self.target.arch_suffix.map(String::from).unwrap_or_default(),
                        self.version
                    ),
                );
            }
        }
    }

    fn check_version(&mut self, v: &ast::Version, index: usize) {
        let (Ok(major), Ok(minor)) = (u8::try_from(v.major), u8::try_from(v.minor)) else {
            self.error(
                v.span,
                format!("unknown PTX ISA version {}.{}", v.major, v.minor),
            );
            return;
        };
        let ver = PtxVersion::new(major, minor);
        if let Some(prev) = self.version_seen {
            if ver != self.version {
                self.push(
                    Diagnostic::error(
                        v.span,
                        format!(
                            "`.version {ver}` does not match the earlier `.version {}`",
                            self.version
                        ),
                    )
                    .with_label(prev, "first `.version` here"),
                );
            }
            return;
        }
        if index != 0 {
            self.error(v.span, "`.version` must be the first directive of the file");
        }
        self.version_seen = Some(v.span);
        self.version = ver;
        if major == 0 {
            self.error(v.span, format!("unknown PTX ISA version {ver}"));
        } else if ver > LATEST_PTX {
            self.push(
                Diagnostic::warning(
                    v.span,
                    format!("PTX ISA version {ver} is newer than the newest known ({LATEST_PTX})"),
                )
                .with_note("instructions added after that version are reported as unknown"),
            );
        }
    }

    fn check_target(&mut self, t: &ast::Target) {
        if let Some(prev) = self.target_seen {
            let same = self.text(t.span).split_whitespace().collect::<String>()
                == self.text(prev).split_whitespace().collect::<String>();
            if !same {
                self.push(
                    Diagnostic::error(t.span, "`.target` does not match the earlier `.target`")
                        .with_label(prev, "first `.target` here"),
                );
            }
            return;
        }
        self.target_seen = Some(t.span);
        let mut arch_seen = false;
        for ident in &t.targets {
            let name = ident.text(self.src);
            match name {
                "map_f64_to_f32" => self.target.map_f64_to_f32 = true,
                "texmode_unified" => self.target.texmode = TexMode::Unified,
                "texmode_independent" => self.target.texmode = TexMode::Independent,
                "debug" => self.target.debug = true,
                _ => match parse_arch(name) {
                    Some((sm, suffix)) if !arch_seen => {
                        arch_seen = true;
                        // ptxas 12.9 knows `a` targets from sm_90 on, `f` from sm_100 on.
                        let suffix_known = match suffix {
                            Some('a') => sm >= 90,
                            Some(_) => sm >= 100,
                            None => true,
                        };
                        if !suffix_known || !KNOWN_TARGETS.iter().any(|(n, _)| *n == sm) {
                            self.error(ident.span, format!("unknown target architecture `{name}`"));
                        }
                        self.target.sm = sm;
                        self.target.arch_suffix = suffix;
                    }
                    Some(_) => self.error(
                        ident.span,
                        "only one architecture may be given in `.target`",
                    ),
                    None => self.error(ident.span, format!("unknown target specifier `{name}`")),
                },
            }
        }
        if !arch_seen {
            self.error(t.span, "`.target` names no architecture (e.g. `sm_61`)");
        }
    }

    fn check_address_size(&mut self, a: &ast::AddressSize) {
        match a.size.value {
            32 => self.address_size = AddressSize::Bits32,
            64 => self.address_size = AddressSize::Bits64,
            n => {
                self.error(
                    a.size.span,
                    format!("`.address_size` must be 32 or 64, not {n}"),
                );
                return;
            }
        }
        if self.version_seen.is_some() && self.version < PtxVersion::new(2, 3) {
            self.error(
                a.span,
                format!(
                    "`.address_size` requires PTX ISA version 2.3 or higher (file is .version {})",
                    self.version
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::parse_arch;

    #[test]
    fn arch_names() {
        assert_eq!(parse_arch("sm_61"), Some((61, None)));
        assert_eq!(parse_arch("compute_90a"), Some((90, Some('a'))));
        assert_eq!(parse_arch("sm_100f"), Some((100, Some('f'))));
        assert_eq!(parse_arch("sm_"), None);
        assert_eq!(parse_arch("sm_6x"), None);
        assert_eq!(parse_arch("gfx90"), None);
    }
}
