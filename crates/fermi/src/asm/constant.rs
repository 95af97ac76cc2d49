//! `!Constant type offset` … `!EndConstant`: initial data of constant bank 2.

use super::layout::Layout;
use super::source::{parse_int, split_args};
use diag::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ConstantType {
    Int,
    Long,
    Float,
    Double,
}

impl ConstantType {
    pub fn parse(text: &str) -> Option<Self> {
        match text.to_ascii_lowercase().as_str() {
            "int" => Some(ConstantType::Int),
            "long" => Some(ConstantType::Long),
            "float" => Some(ConstantType::Float),
            "double" => Some(ConstantType::Double),
            _ => None,
        }
    }
    fn size(self) -> usize {
        match self {
            ConstantType::Int | ConstantType::Float => 4,
            ConstantType::Long | ConstantType::Double => 8,
        }
    }
    /// The little-endian bytes of one value, or why it is not one.
    fn encode(self, text: &str) -> Result<Vec<u8>, String> {
        let int = |bits: u32| -> Result<u64, String> {
            let v = parse_int(text).ok_or_else(|| format!("`{text}` is not an integer"))?;
            let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << bits) - 1);
            if !(lo..=hi).contains(&v) {
                return Err(format!("`{text}` does not fit in {bits} bits"));
            }
            Ok(v as u64)
        };
        // Floats may be written as decimal literals or as raw `0x` bit patterns.
        let is_hex = text.starts_with("0x") || text.starts_with("0X");
        Ok(match self {
            ConstantType::Int => (int(32)? as u32).to_le_bytes().to_vec(),
            ConstantType::Long => int(64)?.to_le_bytes().to_vec(),
            ConstantType::Float if is_hex => (int(32)? as u32).to_le_bytes().to_vec(),
            ConstantType::Double if is_hex => int(64)?.to_le_bytes().to_vec(),
            ConstantType::Float => text
                .parse::<f32>()
                .map_err(|_| format!("`{text}` is not a float"))?
                .to_le_bytes()
                .to_vec(),
            ConstantType::Double => text
                .parse::<f64>()
                .map_err(|_| format!("`{text}` is not a double"))?
                .to_le_bytes()
                .to_vec(),
        })
    }
}

/// An open `!Constant` block: the type of its values and where the next one goes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ConstantBlock {
    pub ty: ConstantType,
    pub next: usize,
    pub span: Span,
    /// The header was wrong: swallow the values without checking them.
    pub discard: bool,
}

impl Layout<'_> {
    /// One line of values inside a `!Constant` block.
    pub(crate) fn constant_values(&mut self, text: &str, start: usize) {
        for tok in split_args(text, start) {
            let Some(block) = self.constant_block else {
                return;
            };
            let bytes = match block.ty.encode(tok.text) {
                Ok(b) => b,
                Err(e) => {
                    self.error(tok.span(), e);
                    continue;
                }
            };
            let Some((_, data)) = self.constant2.as_mut() else {
                return;
            };
            let size = data.len();
            match data.get_mut(block.next..block.next + block.ty.size()) {
                Some(slot) => slot.copy_from_slice(&bytes),
                None => {
                    self.error(
                        tok.span(),
                        format!(
                            "value at offset {} lies past the {size}-byte `!Constant2` bank",
                            block.next
                        ),
                    );
                    if let Some(b) = self.constant_block.as_mut() {
                        b.discard = true;
                    }
                    return;
                }
            }
            if let Some(b) = self.constant_block.as_mut() {
                b.next += b.ty.size();
            }
        }
    }
}
