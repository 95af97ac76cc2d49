//! Special register names as cuobjdump prints them (S2R's source).

pub static SREGS: &[(u8, &str)] = &[
    (0x00, "SR_LaneId"),
    (0x02, "SR_VirtCfg"),
    (0x03, "SR_VirtId"),
    (0x04, "SR_PM0"),
    (0x05, "SR_PM1"),
    (0x06, "SR_PM2"),
    (0x07, "SR_PM3"),
    (0x08, "SR_PM4"),
    (0x09, "SR_PM5"),
    (0x0a, "SR_PM6"),
    (0x0b, "SR_PM7"),
    (0x10, "SR_PRIM_TYPE"),
    (0x11, "SR_INVOCATION_ID"),
    (0x12, "SR_Y_DIRECTION"),
    (0x18, "SR_MACHINE_ID_0"),
    (0x19, "SR_MACHINE_ID_1"),
    (0x1a, "SR_MACHINE_ID_2"),
    (0x1b, "SR_MACHINE_ID_3"),
    (0x1c, "SR_AFFINITY"),
    (0x20, "SR_Tid"),
    (0x21, "SR_Tid_X"),
    (0x22, "SR_Tid_Y"),
    (0x23, "SR_Tid_Z"),
    (0x24, "SR_CTAParam"),
    (0x25, "SR_CTAid_X"),
    (0x26, "SR_CTAid_Y"),
    (0x27, "SR_CTAid_Z"),
    (0x28, "SR_NTid"),
    (0x29, "SR_NTid_X"),
    (0x2a, "SR_NTid_Y"),
    (0x2b, "SR_NTid_Z"),
    (0x2c, "SR_GridParam"),
    (0x2d, "SR_NCTAid_X"),
    (0x2e, "SR_NCTAid_Y"),
    (0x2f, "SR_NCTAid_Z"),
    (0x30, "SR_SWinLo"),
    (0x31, "SR_SWINSZ"),
    (0x32, "SR_SMemSz"),
    (0x33, "SR_SMemBanks"),
    (0x34, "SR_LWinLo"),
    (0x35, "SR_LWINSZ"),
    (0x36, "SR_LMemLoSz"),
    (0x37, "SR_LMemHiOff"),
    (0x38, "SR_EqMask"),
    (0x39, "SR_LtMask"),
    (0x3a, "SR_LeMask"),
    (0x3b, "SR_GtMask"),
    (0x3c, "SR_GeMask"),
    (0x50, "SR_ClockLo"),
    (0x51, "SR_ClockHi"),
];

/// The printed name of special register `n`; unnamed ones print as `SR<n>` (decimal).
pub fn print_sreg(n: u8) -> String {
    match SREGS.iter().find(|(k, _)| *k == n) {
        Some((_, name)) => (*name).to_string(),
        None => format!("SR{n}"),
    }
}

/// The number of a special register name (`SR_Tid_X`, or `SR<n>`); case-sensitive like
/// cuobjdump's output, with asfermi's `SR_TID_X`-style upper case also accepted.
pub fn parse_sreg(s: &str) -> Option<u8> {
    if let Some((n, _)) = SREGS.iter().find(|(_, name)| *name == s) {
        return Some(*n);
    }
    if let Some((n, _)) = SREGS.iter().find(|(_, name)| name.eq_ignore_ascii_case(s)) {
        return Some(*n);
    }
    let digits = s.strip_prefix("SR")?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
        return None;
    }
    digits.parse::<u8>().ok()
}
