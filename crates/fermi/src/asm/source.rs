//! Source-text helpers for the assembler: comment blanking, tokens with spans, numbers.

use diag::{Diagnostic, Span};

/// The text with every `//` and `/* */` comment overwritten by spaces (newlines kept), so byte
/// offsets (and thus spans) stay those of the original file. cuobjdump's `/*0008*/` address and
/// `/*0x…*/` word columns are comments in this sense, which is what lets a listing assemble.
pub(crate) fn blank_comments(text: &str) -> (String, Vec<Diagnostic>) {
    let mut bytes = text.as_bytes().to_vec();
    let mut diags = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(b'/'), Some(b'/')) => {
                while let Some(b) = bytes.get_mut(i) {
                    if *b == b'\n' {
                        break;
                    }
                    *b = b' ';
                    i += 1;
                }
            }
            (Some(b'/'), Some(b'*')) => {
                let start = i;
                let close = text
                    .get(i + 2..)
                    .and_then(|rest| rest.find("*/"))
                    .map(|p| i + 2 + p + 2);
                let end = close.unwrap_or(bytes.len());
                if close.is_none() {
                    diags.push(Diagnostic::error(
                        Span::from_range(start..start + 2),
                        "unterminated `/*` comment",
                    ));
                }
                for b in bytes.iter_mut().take(end).skip(start) {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    // Only whole characters were replaced (comment delimiters are ASCII), so this is UTF-8.
    let blanked = String::from_utf8(bytes).unwrap_or_else(|e| {
        String::from_utf8_lossy(e.as_bytes())
            .chars()
            .map(|c| if c == '\u{FFFD}' { ' ' } else { c })
            .collect()
    });
    (blanked, diags)
}

/// A piece of text and where it starts in the file.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'a> {
    pub text: &'a str,
    pub start: usize,
}

impl Token<'_> {
    pub fn span(&self) -> Span {
        Span::from_range(self.start..self.start + self.text.len())
    }
}

/// `text` (starting at file offset `start`) without surrounding whitespace; `None` if blank.
pub(crate) fn trimmed(text: &str, start: usize) -> Option<Token<'_>> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    Some(Token {
        text: t,
        start: start + text.len() - text.trim_start().len(),
    })
}

/// Splits `text` (which starts at file offset `start`) at whitespace and commas.
pub(crate) fn split_args(text: &str, start: usize) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut tok_start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        let sep = c.is_whitespace() || c == ',';
        match (sep, tok_start) {
            (true, Some(s)) => {
                if let Some(t) = text.get(s..i) {
                    out.push(Token {
                        text: t,
                        start: start + s,
                    });
                }
                tok_start = None;
            }
            (false, None) => tok_start = Some(i),
            _ => {}
        }
    }
    out
}

/// An integer literal: decimal or `0x` hexadecimal, optionally negative.
pub(crate) fn parse_int(text: &str) -> Option<i128> {
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let value = if let Some(hex) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        if hex.is_empty() || hex.len() > 32 {
            return None;
        }
        i128::from_str_radix(hex, 16).ok()?
    } else {
        if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) || body.len() > 38 {
            return None;
        }
        body.parse::<i128>().ok()?
    };
    Some(if neg { -value } else { value })
}

/// An identifier as asfermi and cuobjdump use for kernel and label names.
pub(crate) fn is_identifier(text: &str) -> bool {
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '.')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')
}

/// The length of a leading `name:` label, if `text` starts with one.
pub(crate) fn leading_label(text: &str) -> Option<&str> {
    let colon = text.find(':')?;
    let name = text.get(..colon)?;
    is_identifier(name).then_some(name)
}
