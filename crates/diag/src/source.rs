/// A half-open byte range `[start, end)` in one source file.
///
/// `u32` offsets keep AST nodes small; readers reject inputs over 4 GiB before parsing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    #[inline]
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }
    /// Converts a `Range<usize>` (as logos reports it), saturating at `u32::MAX`.
    #[inline]
    pub fn from_range(r: std::ops::Range<usize>) -> Self {
        let c = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Span::new(c(r.start), c(r.end))
    }
    /// The smallest span covering both.
    #[inline]
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    #[inline]
    pub fn len(self) -> u32 {
        self.end.saturating_sub(self.start)
    }
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
    #[inline]
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A named source text with a line index for span → line/column conversion.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

/// Largest source the `u32` spans can address.
pub const MAX_SOURCE_BYTES: usize = u32::MAX as usize - 1;

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(u32::try_from(i + 1).unwrap_or(u32::MAX));
            }
        }
        SourceFile {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and 1-based column (in characters) of a byte offset; offsets past the end
    /// clamp to the end.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let start = self.line_starts.get(line).copied().unwrap_or(0) as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map_or(end - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The text of a 1-based line without its line terminator.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&e| e as usize);
        self.text
            .get(start as usize..end)
            .unwrap_or("")
            .trim_end_matches(['\n', '\r'])
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Byte offset where a 1-based line starts (for tools that report lines, not spans).
    pub fn line_start(&self, line: usize) -> Option<u32> {
        self.line_starts.get(line.wrapping_sub(1)).copied()
    }
}
