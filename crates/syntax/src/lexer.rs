//! A hand-written byte lexer.
//!
//! PTX tokens need context a regular-expression lexer handles awkwardly: `%tid.x` and
//! `ld.global.v4.f32` are one token (a name with its dotted suffix), while `.05` is a float and
//! `.reg` a directive; `a % b` is a remainder but `%r1` a name. The lexer is a cursor over bytes
//! that produces one token at a time, so the parser streams through a 20 MB file without
//! building a token vector.

use diag::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `[A-Za-z_$%][A-Za-z0-9_$]*` followed by any directly attached `.suffix` parts:
    /// `%r1`, `$L__BB0_2`, `%tid.x`, `ld.global.v4.f32`, `ld.global.L1::evict_last`.
    Ident,
    /// `.word` — directives, types, state spaces, separately written modifiers.
    Directive,
    /// Integer-looking literal as written, including `0x…`, `0b…`, `0f…`, `0d…`, `U` suffix.
    Int,
    /// Decimal floating-point literal (`1.5`, `.05`, `1e-3`).
    Float,
    /// `"…"`
    String,
    Comma,
    Semi,
    Colon,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    At,
    Question,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Amp,
    AmpAmp,
    Pipe,
    PipePipe,
    Caret,
    Tilde,
    Bang,
    Assign,
    EqEq,
    NotEq,
    Lt,
    Le,
    Shl,
    Gt,
    Ge,
    Shr,
    /// Anything the lexer cannot make sense of; the parser reports it.
    Error(LexError),
    Eof,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LexError {
    UnexpectedChar,
    UnterminatedComment,
    UnterminatedString,
    Preprocessor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

pub fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b == b'%'
}

pub fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Bytes of a suffix/modifier part after its dot (`::` is handled separately).
pub fn is_suffix_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b':'
}

/// Skips whitespace and comments from `pos`; returns the next significant offset (an
/// unterminated block comment skips to the end).
pub fn skip_trivia(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        match bytes.get(pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c') => pos += 1,
            Some(b'/') => match bytes.get(pos + 1) {
                Some(b'/') => {
                    pos += 2;
                    while let Some(&b) = bytes.get(pos) {
                        if b == b'\n' {
                            break;
                        }
                        pos += 1;
                    }
                }
                Some(b'*') => match find_comment_end(bytes, pos + 2) {
                    Some(end) => pos = end,
                    None => return bytes.len(),
                },
                _ => return pos,
            },
            _ => return pos,
        }
    }
}

fn find_comment_end(bytes: &[u8], from: usize) -> Option<usize> {
    let rest = bytes.get(from..)?;
    rest.windows(2)
        .position(|w| w == b"*/")
        .map(|i| from + i + 2)
}

/// A cursor over the source. `Clone` is cheap, which is how the parser looks ahead.
#[derive(Clone, Debug)]
pub struct Lexer<'s> {
    bytes: &'s [u8],
    pos: usize,
}

impl<'s> Lexer<'s> {
    pub fn new(src: &'s str) -> Self {
        Lexer {
            bytes: src.as_bytes(),
            pos: 0,
        }
    }

    fn at(&self, i: usize) -> u8 {
        self.bytes.get(i).copied().unwrap_or(0)
    }

    fn token(&self, kind: TokenKind, start: usize) -> Token {
        Token {
            kind,
            span: Span::from_range(start..self.pos),
        }
    }

    /// Consumes `.part` suffixes attached to a name or directive (`::` allowed inside parts).
    fn eat_suffixes(&mut self) {
        while self.at(self.pos) == b'.' && is_suffix_start(self.at(self.pos + 1)) {
            self.pos += 1;
            self.eat_suffix_part();
        }
    }

    fn eat_suffix_part(&mut self) {
        loop {
            let b = self.at(self.pos);
            if b.is_ascii_alphanumeric() || b == b'_' {
                self.pos += 1;
            } else if b == b':' && self.at(self.pos + 1) == b':' {
                self.pos += 2;
            } else {
                return;
            }
        }
    }

    pub fn next_token(&mut self) -> Token {
        let comment_start = self.pos;
        self.pos = skip_trivia(self.bytes, self.pos);
        if self.pos >= self.bytes.len() {
            // An unterminated block comment runs to the end of input: report it.
            if let Some(p) = unterminated_comment_start(self.bytes, comment_start) {
                return Token {
                    kind: TokenKind::Error(LexError::UnterminatedComment),
                    span: Span::from_range(p..self.bytes.len()),
                };
            }
            return self.token(TokenKind::Eof, self.pos);
        }
        let start = self.pos;
        let b = self.at(start);
        use TokenKind as T;
        let kind = match b {
            b'%' if !is_ident_start_after_percent(self.at(start + 1)) => {
                self.pos += 1;
                T::Percent
            }
            _ if is_ident_start(b) => {
                self.pos += 1;
                while is_ident_continue(self.at(self.pos)) {
                    self.pos += 1;
                }
                self.eat_suffixes();
                T::Ident
            }
            b'.' if self.at(start + 1).is_ascii_digit() => {
                self.pos += 1;
                self.eat_digits();
                self.eat_exponent();
                T::Float
            }
            b'.' if is_ident_start_after_dot(self.at(start + 1)) => {
                self.pos += 1;
                self.eat_suffix_part();
                T::Directive
            }
            b'0'..=b'9' => self.number(),
            b'"' => self.string(),
            b'#' => {
                while self.pos < self.bytes.len() && self.at(self.pos) != b'\n' {
                    self.pos += 1;
                }
                T::Error(LexError::Preprocessor)
            }
            _ => {
                self.pos += 1;
                let two = |s: &mut Self, next: u8, yes: TokenKind, no: TokenKind| {
                    if s.at(s.pos) == next {
                        s.pos += 1;
                        yes
                    } else {
                        no
                    }
                };
                match b {
                    b',' => T::Comma,
                    b';' => T::Semi,
                    b':' => T::Colon,
                    b'(' => T::LParen,
                    b')' => T::RParen,
                    b'[' => T::LBracket,
                    b']' => T::RBracket,
                    b'{' => T::LBrace,
                    b'}' => T::RBrace,
                    b'@' => T::At,
                    b'?' => T::Question,
                    b'+' => T::Plus,
                    b'-' => T::Minus,
                    b'*' => T::Star,
                    b'/' => T::Slash,
                    b'^' => T::Caret,
                    b'~' => T::Tilde,
                    b'&' => two(self, b'&', T::AmpAmp, T::Amp),
                    b'|' => two(self, b'|', T::PipePipe, T::Pipe),
                    b'!' => two(self, b'=', T::NotEq, T::Bang),
                    b'=' => two(self, b'=', T::EqEq, T::Assign),
                    b'<' => match self.at(self.pos) {
                        b'<' => {
                            self.pos += 1;
                            T::Shl
                        }
                        b'=' => {
                            self.pos += 1;
                            T::Le
                        }
                        _ => T::Lt,
                    },
                    b'>' => match self.at(self.pos) {
                        b'>' => {
                            self.pos += 1;
                            T::Shr
                        }
                        b'=' => {
                            self.pos += 1;
                            T::Ge
                        }
                        _ => T::Gt,
                    },
                    _ => {
                        // Swallow a whole UTF-8 character so spans stay on char boundaries.
                        while self.pos < self.bytes.len() && (self.at(self.pos) & 0xC0) == 0x80 {
                            self.pos += 1;
                        }
                        T::Error(LexError::UnexpectedChar)
                    }
                }
            }
        };
        self.token(kind, start)
    }

    fn eat_digits(&mut self) {
        while self.at(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
    }

    /// `e[+-]?digits` if present.
    fn eat_exponent(&mut self) -> bool {
        let b = self.at(self.pos);
        if b != b'e' && b != b'E' {
            return false;
        }
        let mut p = self.pos + 1;
        if matches!(self.at(p), b'+' | b'-') {
            p += 1;
        }
        if !self.at(p).is_ascii_digit() {
            return false;
        }
        self.pos = p;
        self.eat_digits();
        true
    }

    fn eat_alnum(&mut self) {
        while self.at(self.pos).is_ascii_alphanumeric() || self.at(self.pos) == b'_' {
            self.pos += 1;
        }
    }

    fn number(&mut self) -> TokenKind {
        let start = self.pos;
        let prefixed = self.at(start) == b'0'
            && matches!(
                self.at(start + 1),
                b'x' | b'X' | b'b' | b'B' | b'f' | b'F' | b'd' | b'D'
            );
        if prefixed {
            self.pos += 2;
            self.eat_alnum();
            return TokenKind::Int;
        }
        self.eat_digits();
        let mut float = false;
        if self.at(self.pos) == b'.' && !is_ident_start_after_dot(self.at(self.pos + 1)) {
            self.pos += 1;
            self.eat_digits();
            float = true;
        }
        if self.eat_exponent() {
            float = true;
        }
        // Suffixes (`U`) and malformed tails stay in the token; the parser validates them.
        self.eat_alnum();
        if float {
            TokenKind::Float
        } else {
            TokenKind::Int
        }
    }

    fn string(&mut self) -> TokenKind {
        self.pos += 1;
        loop {
            match self.bytes.get(self.pos) {
                None | Some(b'\n') => return TokenKind::Error(LexError::UnterminatedString),
                Some(b'"') => {
                    self.pos += 1;
                    return TokenKind::String;
                }
                Some(b'\\') => self.pos += 2,
                Some(_) => self.pos += 1,
            }
            self.pos = self.pos.min(self.bytes.len());
        }
    }
}

fn is_suffix_start(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_ident_start_after_dot(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_start_after_percent(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

/// Where an unterminated `/*` begins in `bytes[from..]`, if the trivia there ends in one.
fn unterminated_comment_start(bytes: &[u8], from: usize) -> Option<usize> {
    let mut pos = from;
    loop {
        match bytes.get(pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0b' | b'\x0c') => pos += 1,
            Some(b'/') if bytes.get(pos + 1) == Some(&b'/') => {
                while bytes.get(pos).is_some_and(|&b| b != b'\n') {
                    pos += 1;
                }
            }
            Some(b'/') if bytes.get(pos + 1) == Some(&b'*') => {
                match find_comment_end(bytes, pos + 2) {
                    Some(end) => pos = end,
                    None => return Some(pos),
                }
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token();
            if t.kind == TokenKind::Eof {
                return out;
            }
            out.push((t.kind, &src[t.span.range()]));
        }
    }

    #[test]
    fn names_keep_their_suffix_and_floats_do_not() {
        use TokenKind as T;
        assert_eq!(
            kinds("ld.global.L1::evict_last %tid.x .05 .reg 1.5e-3 0f3F800000 42U"),
            vec![
                (T::Ident, "ld.global.L1::evict_last"),
                (T::Ident, "%tid.x"),
                (T::Float, ".05"),
                (T::Directive, ".reg"),
                (T::Float, "1.5e-3"),
                (T::Int, "0f3F800000"),
                (T::Int, "42U"),
            ]
        );
    }

    #[test]
    fn percent_is_an_operator_unless_a_name_follows() {
        use TokenKind as T;
        assert_eq!(
            kinds("10 % 3 %r1 10%3"),
            vec![
                (T::Int, "10"),
                (T::Percent, "%"),
                (T::Int, "3"),
                (T::Ident, "%r1"),
                (T::Int, "10"),
                (T::Percent, "%"),
                (T::Int, "3"),
            ]
        );
    }

    #[test]
    fn comments_are_whitespace_and_unterminated_ones_are_errors() {
        use TokenKind as T;
        assert_eq!(
            kinds("a // x\n/* y\n */ b"),
            vec![(T::Ident, "a"), (T::Ident, "b")]
        );
        assert_eq!(
            kinds("a /* never"),
            vec![
                (T::Ident, "a"),
                (T::Error(LexError::UnterminatedComment), "/* never")
            ]
        );
    }

    #[test]
    fn operators_take_the_longest_match() {
        use TokenKind as T;
        assert_eq!(
            kinds("<< <= < >> >= > && & || | == = != !"),
            vec![
                (T::Shl, "<<"),
                (T::Le, "<="),
                (T::Lt, "<"),
                (T::Shr, ">>"),
                (T::Ge, ">="),
                (T::Gt, ">"),
                (T::AmpAmp, "&&"),
                (T::Amp, "&"),
                (T::PipePipe, "||"),
                (T::Pipe, "|"),
                (T::EqEq, "=="),
                (T::Assign, "="),
                (T::NotEq, "!="),
                (T::Bang, "!"),
            ]
        );
    }

    #[test]
    fn non_ascii_is_one_error_token_per_char() {
        let k = kinds("é;");
        assert_eq!(k.len(), 2);
        assert_eq!(k[0], (TokenKind::Error(LexError::UnexpectedChar), "é"));
    }
}
