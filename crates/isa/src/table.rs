//! The instruction table: the `table/*.isa` files, read once and indexed by opcode.

use std::sync::OnceLock;

use crate::dsl::{parse_table, TableError};
use crate::form::Form;
use crate::opcode::Opcode;

/// The table files, in the order the manual's chapters come.
pub const TABLE_FILES: &[(&str, &str)] = &[
    ("integer.isa", include_str!("table/integer.isa")),
    ("extended.isa", include_str!("table/extended.isa")),
    ("float.isa", include_str!("table/float.isa")),
    ("compare_logic.isa", include_str!("table/compare_logic.isa")),
    ("data.isa", include_str!("table/data.isa")),
    ("control_sync.isa", include_str!("table/control_sync.isa")),
    ("video.isa", include_str!("table/video.isa")),
    ("modern.isa", include_str!("table/modern.isa")),
    ("arch_specific.isa", include_str!("table/arch_specific.isa")),
    ("wgmma.isa", include_str!("table/wgmma.isa")),
    ("tcgen05.isa", include_str!("table/tcgen05.isa")),
    ("tcgen05_mma.isa", include_str!("table/tcgen05_mma.isa")),
    ("bulk_tensor.isa", include_str!("table/bulk_tensor.isa")),
    ("wmma.isa", include_str!("table/wmma.isa")),
];

struct Table {
    forms: &'static [Form],
    /// `ranges[opcode as usize]` = the forms of that opcode.
    ranges: Vec<(usize, usize)>,
}

fn build() -> Result<Table, TableError> {
    let mut forms = Vec::new();
    for (file, text) in TABLE_FILES {
        forms.extend(parse_table(file, text)?);
    }
    // Stable: the forms of one opcode keep the table's order, which decides ties.
    forms.sort_by_key(|f| f.opcode);
    let forms: &'static [Form] = Box::leak(forms.into_boxed_slice());
    let mut ranges = vec![(0, 0); Opcode::ALL.len()];
    let mut i = 0;
    while i < forms.len() {
        let op = forms.get(i).map(|f| f.opcode);
        let mut j = i;
        while j < forms.len() && forms.get(j).map(|f| f.opcode) == op {
            j += 1;
        }
        if let (Some(op), Some(r)) = (op, op.and_then(|o| ranges.get_mut(o as usize))) {
            let _ = op;
            *r = (i, j);
        }
        i = j;
    }
    Ok(Table { forms, ranges })
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    // The table files are part of this crate and `table_files_parse` tests them; a broken
    // table is a build defect, not a user error.
    TABLE.get_or_init(|| match build() {
        Ok(t) => t,
        Err(e) => panic!("instruction table: {e}"),
    })
}

/// Parses the table files, reporting the first error (for tests and tools).
pub fn try_load() -> Result<usize, TableError> {
    build().map(|t| t.forms.len())
}

/// Every form of the table, grouped by opcode in [`Opcode`] order.
pub fn all_forms() -> &'static [Form] {
    table().forms
}

/// The forms of one opcode, in table order (empty if the table has none).
pub fn forms_of(op: Opcode) -> &'static [Form] {
    let t = table();
    let (a, b) = t.ranges.get(op as usize).copied().unwrap_or((0, 0));
    t.forms.get(a..b).unwrap_or(&[])
}
