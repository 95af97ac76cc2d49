//! Special registers (ptx-isa-1.1 chapter 8; PTX ISA 8.x §10 for the later ones).

use crate::form::{Gate, PtxVersion};
use crate::types::Type;

/// A special register (family).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialReg {
    Tid,
    Ntid,
    Ctaid,
    Nctaid,
    Gridid,
    Clock,
    Clock64,
    Laneid,
    Warpid,
    Nwarpid,
    Smid,
    Nsmid,
    LanemaskEq,
    LanemaskLt,
    LanemaskLe,
    LanemaskGt,
    LanemaskGe,
    Globaltimer,
    GlobaltimerLo,
    GlobaltimerHi,
    Envreg,
    Pm,
    Pm64,
    TotalSmemSize,
    DynamicSmemSize,
    AggrSmemSize,
    WarpSz,
    ReservedSmemOffsetBegin,
}

/// The properties of one special register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecialRegInfo {
    /// As written, without index: `%tid`, `%envreg`.
    pub name: &'static str,
    pub reg: SpecialReg,
    /// The declared type of the register (of each component for vectors). ptx-isa-1.1 gives
    /// `%tid`, `%ntid`, `%ctaid`, `%nctaid`, `%gridid` as `.u16`; PTX ISA 2.0 widened them to
    /// `.u32` (and `%gridid` to `.u64` in 3.0); see [`SpecialRegInfo::type_for`].
    pub ty: Type,
    /// Has `.x .y .z` (and ptx-isa-1.1's `.0 .1 .2`) components.
    pub vector: bool,
    /// For families like `%envreg<32>`: the number of indexed registers (`%envreg0`…`%envreg31`).
    pub count: u8,
    pub gate: Gate,
    pub spec: &'static str,
}

impl SpecialRegInfo {
    /// Checks the register's gate against a file's target and version
    /// (`%clock64 requires .target sm_20 or higher (file targets sm_13)`).
    pub fn check_gate(&self, sm: u32, ptx: PtxVersion) -> Result<(), crate::GateError> {
        self.gate.check_min(self.name, sm, ptx)
    }

    /// The register's type in a file of the given PTX version.
    pub fn type_for(&self, ptx: PtxVersion) -> Type {
        let v1x = ptx < PtxVersion::new(2, 0);
        match self.reg {
            SpecialReg::Tid | SpecialReg::Ntid | SpecialReg::Ctaid | SpecialReg::Nctaid if v1x => {
                Type::U16
            }
            SpecialReg::Gridid if v1x => Type::U16,
            SpecialReg::Gridid if ptx < PtxVersion::new(3, 0) => Type::U32,
            _ => self.ty,
        }
    }
}

const fn gate(sm: u32, major: u8, minor: u8) -> Gate {
    Gate {
        min_sm: sm,
        min_ptx: PtxVersion::new(major, minor),
        max_sm: None,
        max_ptx: None,
        arch: None,
    }
}

const fn sreg(
    name: &'static str,
    reg: SpecialReg,
    ty: Type,
    vector: bool,
    count: u8,
    gate: Gate,
    spec: &'static str,
) -> SpecialRegInfo {
    SpecialRegInfo {
        name,
        reg,
        ty,
        vector,
        count,
        gate,
        spec,
    }
}

use SpecialReg as R;

/// Every special register the table knows.
pub const SPECIAL_REGS: &[SpecialRegInfo] = &[
    sreg(
        "%tid",
        R::Tid,
        Type::U32,
        true,
        0,
        gate(10, 1, 0),
        "ptx-isa-1.1 §8 Table 62",
    ),
    sreg(
        "%ntid",
        R::Ntid,
        Type::U32,
        true,
        0,
        gate(10, 1, 0),
        "ptx-isa-1.1 §8 Table 63",
    ),
    sreg(
        "%ctaid",
        R::Ctaid,
        Type::U32,
        true,
        0,
        gate(10, 1, 0),
        "ptx-isa-1.1 §8 Table 64",
    ),
    sreg(
        "%nctaid",
        R::Nctaid,
        Type::U32,
        true,
        0,
        gate(10, 1, 0),
        "ptx-isa-1.1 §8 Table 65",
    ),
    sreg(
        "%gridid",
        R::Gridid,
        Type::U64,
        false,
        0,
        gate(10, 1, 0),
        "ptx-isa-1.1 §8 Table 66",
    ),
    sreg(
        "%clock",
        R::Clock,
        Type::U32,
        false,
        0,
        gate(10, 1, 0),
        "ptx-isa-1.1 §8 Table 67",
    ),
    sreg(
        "%clock64",
        R::Clock64,
        Type::U64,
        false,
        0,
        gate(20, 2, 0),
        "PTX ISA 8.x §10.20 %clock64",
    ),
    sreg(
        "%laneid",
        R::Laneid,
        Type::U32,
        false,
        0,
        gate(10, 1, 3),
        "PTX ISA 8.x §10.5 %laneid",
    ),
    sreg(
        "%warpid",
        R::Warpid,
        Type::U32,
        false,
        0,
        gate(10, 1, 3),
        "PTX ISA 8.x §10.6 %warpid",
    ),
    sreg(
        "%nwarpid",
        R::Nwarpid,
        Type::U32,
        false,
        0,
        gate(20, 2, 0),
        "PTX ISA 8.x §10.7 %nwarpid",
    ),
    sreg(
        "%smid",
        R::Smid,
        Type::U32,
        false,
        0,
        gate(10, 1, 3),
        "PTX ISA 8.x §10.14 %smid",
    ),
    sreg(
        "%nsmid",
        R::Nsmid,
        Type::U32,
        false,
        0,
        gate(20, 2, 0),
        "PTX ISA 8.x §10.15 %nsmid",
    ),
    sreg(
        "%lanemask_eq",
        R::LanemaskEq,
        Type::U32,
        false,
        0,
        gate(20, 2, 0),
        "PTX ISA 8.x §10.21 %lanemask_eq",
    ),
    sreg(
        "%lanemask_le",
        R::LanemaskLe,
        Type::U32,
        false,
        0,
        gate(20, 2, 0),
        "PTX ISA 8.x §10.22 %lanemask_le",
    ),
    sreg(
        "%lanemask_lt",
        R::LanemaskLt,
        Type::U32,
        false,
        0,
        gate(20, 2, 0),
        "PTX ISA 8.x §10.23 %lanemask_lt",
    ),
    sreg(
        "%lanemask_ge",
        R::LanemaskGe,
        Type::U32,
        false,
        0,
        gate(20, 2, 0),
        "PTX ISA 8.x §10.24 %lanemask_ge",
    ),
    sreg(
        "%lanemask_gt",
        R::LanemaskGt,
        Type::U32,
        false,
        0,
        gate(20, 2, 0),
        "PTX ISA 8.x §10.25 %lanemask_gt",
    ),
    sreg(
        "%globaltimer",
        R::Globaltimer,
        Type::U64,
        false,
        0,
        gate(30, 3, 1),
        "PTX ISA 8.x §10.28 %globaltimer",
    ),
    sreg(
        "%globaltimer_lo",
        R::GlobaltimerLo,
        Type::U32,
        false,
        0,
        gate(30, 3, 1),
        "PTX ISA 8.x §10.28 %globaltimer",
    ),
    sreg(
        "%globaltimer_hi",
        R::GlobaltimerHi,
        Type::U32,
        false,
        0,
        gate(30, 3, 1),
        "PTX ISA 8.x §10.28 %globaltimer",
    ),
    sreg(
        "%envreg",
        R::Envreg,
        Type::B32,
        false,
        32,
        gate(10, 2, 1),
        "PTX ISA 8.x §10.27 %envreg<32>",
    ),
    sreg(
        "%pm",
        R::Pm,
        Type::U32,
        false,
        8,
        gate(10, 1, 3),
        "PTX ISA 8.x §10.26 %pm0..%pm7",
    ),
    sreg(
        "%pm_64",
        R::Pm64,
        Type::U64,
        false,
        8,
        gate(20, 4, 0),
        "PTX ISA 8.x §10.26 %pm0_64..%pm7_64",
    ),
    sreg(
        "%total_smem_size",
        R::TotalSmemSize,
        Type::U32,
        false,
        0,
        gate(20, 4, 1),
        "PTX ISA 8.x §10.31 %total_smem_size",
    ),
    sreg(
        "%dynamic_smem_size",
        R::DynamicSmemSize,
        Type::U32,
        false,
        0,
        gate(20, 4, 1),
        "PTX ISA 8.x §10.33 %dynamic_smem_size",
    ),
    sreg(
        "%aggr_smem_size",
        R::AggrSmemSize,
        Type::U32,
        false,
        0,
        gate(90, 8, 1),
        "PTX ISA 8.x §10.32 %aggr_smem_size",
    ),
    sreg(
        "WARP_SZ",
        R::WarpSz,
        Type::U32,
        false,
        0,
        gate(10, 1, 0),
        "PTX ISA 8.x §4.4 predefined identifier WARP_SZ",
    ),
    sreg(
        "%reserved_smem_offset_begin",
        R::ReservedSmemOffsetBegin,
        Type::B32,
        false,
        0,
        gate(80, 7, 6),
        "PTX ISA 8.x §10.36 %reserved_smem_offset_*",
    ),
];

/// Looks up a special register as written: `%tid`, `%tid.x`, `%ntid.1`, `%envreg7`,
/// `%pm3_64`. Returns the register and the component (0..=2) if one was given.
/// Components of non-vector registers and out-of-range indices are rejected.
pub fn lookup_special_reg(text: &str) -> Option<(&'static SpecialRegInfo, Option<u8>)> {
    let (base, comp) = match text.rsplit_once('.') {
        Some((b, c)) => {
            let i = match c {
                "x" | "0" => 0,
                "y" | "1" => 1,
                "z" | "2" => 2,
                _ => return None,
            };
            (b, Some(i))
        }
        None => (text, None),
    };
    let info = SPECIAL_REGS.iter().find(|r| match r.count {
        0 => r.name == base,
        n => indexed(r.name, base).is_some_and(|i| i < n),
    })?;
    if comp.is_some() && !info.vector {
        return None;
    }
    Some((info, comp))
}

/// `%envreg` + `%envreg12` → 12; `%pm_64` + `%pm3_64` → 3.
fn indexed(family: &str, name: &str) -> Option<u8> {
    let (prefix, suffix) = match family.split_once('_') {
        Some((p, s)) => (p, Some(s)),
        None => (family, None),
    };
    let rest = name.strip_prefix(prefix)?;
    let digits = match suffix {
        Some(s) => rest.strip_suffix(s)?.strip_suffix('_')?,
        None => rest,
    };
    if digits.is_empty() || digits.len() > 2 || (digits.len() > 1 && digits.starts_with('0')) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_and_families() {
        let (t, c) = lookup_special_reg("%tid.x").unwrap();
        assert_eq!((t.reg, c), (SpecialReg::Tid, Some(0)));
        assert_eq!(lookup_special_reg("%ntid.2").unwrap().1, Some(2));
        assert_eq!(lookup_special_reg("%ctaid").unwrap().1, None);
        assert!(lookup_special_reg("%clock.x").is_none());
        assert!(lookup_special_reg("%tid.w").is_none());
        for i in 0..32 {
            let (r, _) = lookup_special_reg(&format!("%envreg{i}")).unwrap();
            assert_eq!(r.reg, SpecialReg::Envreg);
        }
        assert!(lookup_special_reg("%envreg32").is_none());
        assert!(lookup_special_reg("%envreg01").is_none());
        assert!(lookup_special_reg("%envreg").is_none());
        assert_eq!(lookup_special_reg("%pm7").unwrap().0.reg, SpecialReg::Pm);
        assert_eq!(
            lookup_special_reg("%pm7_64").unwrap().0.reg,
            SpecialReg::Pm64
        );
        assert!(lookup_special_reg("%pm8").is_none());
        assert!(lookup_special_reg("%lanemask_xx").is_none());
        assert_eq!(
            lookup_special_reg("%lanemask_lt").unwrap().0.reg,
            SpecialReg::LanemaskLt
        );
    }

    #[test]
    fn gates_name_the_register() {
        let (r, _) = lookup_special_reg("%clock64").unwrap();
        assert_eq!(
            r.check_gate(13, PtxVersion::new(1, 3))
                .unwrap_err()
                .to_string(),
            "%clock64 requires .target sm_20 or higher (file targets sm_13)"
        );
        let (r, _) = lookup_special_reg("%aggr_smem_size").unwrap();
        assert_eq!(
            r.check_gate(90, PtxVersion::new(8, 0))
                .unwrap_err()
                .to_string(),
            "%aggr_smem_size requires PTX ISA version 8.1 or higher (file is .version 8.0)"
        );
        assert!(lookup_special_reg("%tid.x")
            .unwrap()
            .0
            .check_gate(10, PtxVersion::new(1, 0))
            .is_ok());
    }

    #[test]
    fn version_dependent_types_follow_ptx_1_1_chapter_8() {
        let (tid, _) = lookup_special_reg("%tid").unwrap();
        assert_eq!(tid.type_for(PtxVersion::new(1, 1)), Type::U16);
        assert_eq!(tid.type_for(PtxVersion::new(2, 0)), Type::U32);
        let (g, _) = lookup_special_reg("%gridid").unwrap();
        assert_eq!(g.type_for(PtxVersion::new(1, 4)), Type::U16);
        assert_eq!(g.type_for(PtxVersion::new(3, 0)), Type::U64);
    }
}
