//! The comments of a source text, for `fmt` (the syntax tree does not keep them). They are
//! found in the gaps between the lexer's tokens, so a `//` inside a string is never one.

use crate::lexer::{Lexer, TokenKind};

/// One comment: byte range in the source, and whether code precedes it on its line (a
/// trailing comment, kept at the end of the printed line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Comment {
    pub start: u32,
    pub end: u32,
    pub trailing: bool,
}

pub(crate) fn comments(src: &str) -> Vec<Comment> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut lx = Lexer::new(src);
    let mut gap_start = 0usize;
    // Whether a token has been seen on the current line (before the gap being scanned).
    let mut code_on_line = false;
    loop {
        let t = lx.next_token();
        let gap_end = (t.span.start as usize).min(bytes.len());
        let mut pos = gap_start;
        while pos < gap_end {
            match (bytes.get(pos), bytes.get(pos + 1)) {
                (Some(b'\n'), _) => {
                    code_on_line = false;
                    pos += 1;
                }
                (Some(b'/'), Some(b'/')) => {
                    let end = bytes
                        .get(pos..gap_end)
                        .and_then(|r| r.iter().position(|&b| b == b'\n'))
                        .map_or(gap_end, |i| pos + i);
                    out.push(Comment {
                        start: pos as u32,
                        end: end as u32,
                        trailing: code_on_line,
                    });
                    pos = end;
                }
                (Some(b'/'), Some(b'*')) => {
                    let end = bytes
                        .get(pos + 2..gap_end)
                        .and_then(|r| r.windows(2).position(|w| w == b"*/"))
                        .map_or(gap_end, |i| pos + 2 + i + 2);
                    out.push(Comment {
                        start: pos as u32,
                        end: end as u32,
                        trailing: code_on_line,
                    });
                    pos = end;
                }
                _ => pos += 1,
            }
        }
        if t.kind == TokenKind::Eof {
            return out;
        }
        code_on_line = true;
        gap_start = (t.span.end as usize).max(gap_end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_line_block_and_trailing_comments_but_not_strings() {
        let src = "// head\n.pragma \"a // not\"; // tail\n/* b\n c */ ret;";
        let c = comments(src);
        let texts: Vec<(&str, bool)> = c
            .iter()
            .map(|c| (&src[c.start as usize..c.end as usize], c.trailing))
            .collect();
        assert_eq!(
            texts,
            vec![
                ("// head", false),
                ("// tail", true),
                ("/* b\n c */", false)
            ]
        );
    }
}
