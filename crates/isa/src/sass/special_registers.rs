//! The names of SASS special registers, the operands of `S2R`, `CS2R` and `S2UR`.
//!
//! Why they are checked: which special register a kernel reads decides whether a branch on it
//! diverges (`SR_TID.X` differs between the threads of a warp, `SR_CTAID.X` does not), so a
//! misspelt name must never pass as "some other value" — that could turn a divergent branch
//! into a uniform one and lower the bound.
//!
//! Sources: the special-register names `cuobjdump`/`nvdisasm` print for `S2R` on Maxwell to
//! Hopper (`SR_TID.X`, `SR_CgaCtaId`, `SRZ`, …); the PTX special registers they implement
//! (NVIDIA, *PTX ISA*, chapter "Special Registers": `%tid`, `%ntid`, `%laneid`, `%warpid`,
//! `%nwarpid`, `%ctaid`, `%nctaid`, `%smid`, `%nsmid`, `%gridid`, the lane masks, the clocks
//! and global timers); and the mixed-case spellings of Fermi/Kepler `cuobjdump`
//! (`SR_Tid_X`, `SR_CTAid_X`, `SR_LaneId`, `SR_ClockLo`). Matching ignores case and treats
//! `_X` like `.X`, so every spelling of one register is the same register.

/// Canonical spellings, as recent `cuobjdump` prints them (per-axis names before the whole
/// register, so a hint for `SR_TIDX` is `SR_TID.X`).
pub static SPECIAL_REGISTERS: &[&str] = &[
    "SR_TID.X",
    "SR_TID.Y",
    "SR_TID.Z",
    "SR_TID",
    "SR_NTID.X",
    "SR_NTID.Y",
    "SR_NTID.Z",
    "SR_NTID",
    "SR_CTAID.X",
    "SR_CTAID.Y",
    "SR_CTAID.Z",
    "SR_NCTAID.X",
    "SR_NCTAID.Y",
    "SR_NCTAID.Z",
    "SR_LANEID",
    "SR_WARPID",
    "SR_NWARPID",
    "SR_SMID",
    "SR_NSMID",
    "SR_GRIDID",
    "SR_VIRTID",
    "SR_VIRTCFG",
    "SR_VIRTUALSMID",
    "SR_VIRTUALENGINEID",
    "SR_CLOCK",
    "SR_CLOCKLO",
    "SR_CLOCKHI",
    "SR_GLOBALTIMERLO",
    "SR_GLOBALTIMERHI",
    "SR_EQMASK",
    "SR_LTMASK",
    "SR_LEMASK",
    "SR_GTMASK",
    "SR_GEMASK",
    "SR_SWINHI",
    "SR_SWINLO",
    "SR_SWINSZ",
    "SR_LWINHI",
    "SR_LWINLO",
    "SR_LWINSZ",
    "SR_SMEMSZ",
    "SR_SMEMBANKS",
    "SR_LMEMLOSZ",
    "SR_LMEMHIOFF",
    "SR_REGALLOC",
    "SR_BARRIERALLOC",
    "SR_AFFINITY",
    "SR_ORDERING_TICKET",
    "SR_PRIM_TYPE",
    "SR_INVOCATION_ID",
    "SR_INVOCATION_INFO",
    "SR_Y_DIRECTION",
    "SR_THREAD_KILL",
    "SR_SHADER_TYPE",
    "SR_DIRECTCBEWRITEADDRESSLOW",
    "SR_DIRECTCBEWRITEADDRESSHIGH",
    "SR_DIRECTCBEWRITEENABLED",
    "SR_MACHINE_ID_0",
    "SR_MACHINE_ID_1",
    "SR_MACHINE_ID_2",
    "SR_MACHINE_ID_3",
    "SR_WSCALEFACTOR_XY",
    "SR_WSCALEFACTOR_Z",
    "SR_CTA_PARAM",
    "SR_CirQueueIncrMinusOne",
    "SR_NLATC",
    "SR_SM_SPA_VERSION",
    "SR_MULTIPASSSHADERINFO",
    "SR_GLOBALERRORSTATUS",
    "SR_CGAERRORSTATUS",
    "SR_WARPERRORSTATUS",
    "SR_ESR_PC",
    "SR_ESR_PC_HI",
    "SR_HWTASKID",
    "SR_CIRCULARQUEUEENTRYINDEX",
    "SR_CIRCULARQUEUEENTRYADDRESSLOW",
    "SR_CIRCULARQUEUEENTRYADDRESSHIGH",
    "SR_PM0",
    "SR_PM1",
    "SR_PM2",
    "SR_PM3",
    "SR_PM4",
    "SR_PM5",
    "SR_PM6",
    "SR_PM7",
    "SR_PM_HI0",
    "SR_PM_HI1",
    "SR_PM_HI2",
    "SR_PM_HI3",
    "SR_PM_HI4",
    "SR_PM_HI5",
    "SR_PM_HI6",
    "SR_PM_HI7",
    "SR_VARIABLE_RATE",
    "SR_TTU_TICKET_INFO",
    "SR_WARPGROUP_INFO",
    "SR_WARPGROUPID",
    "SR_CgaCtaId",
    "SR_GpcLocalCgaId",
    "SR_CgaLinearMemorySlot",
    "SR_CTARegPoolSz",
    "SR_GRIDPARAM",
    "SRZ",
];

/// Upper case, with a trailing `_X`/`_Y`/`_Z` axis written `.X`/`.Y`/`.Z` (the Fermi/Kepler
/// spelling `SR_Tid_X` is `SR_TID.X`).
fn normalize(name: &str) -> String {
    let mut n = name.to_ascii_uppercase();
    for axis in ["_X", "_Y", "_Z"] {
        if n.len() > 4 && n.ends_with(axis) {
            let cut = n.len() - 2;
            n.replace_range(cut..cut + 1, ".");
            break;
        }
    }
    n
}

/// The canonical spelling of a special register, if `name` is one in any accepted spelling.
pub fn canonical(name: &str) -> Option<&'static str> {
    let n = normalize(name);
    SPECIAL_REGISTERS
        .iter()
        .copied()
        .find(|known| normalize(known) == n)
}

/// The known special register nearest to `name` (at most `max` edits), for a hint.
pub(crate) fn nearest(name: &str, max: usize) -> Option<&'static str> {
    let n = normalize(name);
    let normalized: Vec<(String, &'static str)> = SPECIAL_REGISTERS
        .iter()
        .map(|k| (normalize(k), *k))
        .collect();
    let (hit, _) = crate::spelling::nearest(&n, normalized.iter().map(|(s, _)| s.as_str()), max)?;
    normalized
        .iter()
        .find(|(s, _)| s == hit)
        .map(|(_, canonical)| *canonical)
}

/// What `text` (an operand where a special register is expected) most likely meant: the
/// register itself with `SR_` added (`CTAID.X` → `SR_CTAID.X`), the nearest known name within
/// two edits of a name that starts with `SR`, or within one edit once `SR_` is added.
pub(crate) fn suggestion(text: &str) -> Option<&'static str> {
    let t = text.trim();
    let prefixed = format!("SR_{t}");
    if let Some(c) = canonical(&prefixed) {
        return Some(c);
    }
    if t.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("SR")) {
        nearest(t, 2)
    } else {
        nearest(&prefixed, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_one_register_is_that_register() {
        assert_eq!(canonical("SR_TID.X"), Some("SR_TID.X"));
        assert_eq!(canonical("SR_Tid_X"), Some("SR_TID.X"));
        assert_eq!(canonical("SR_CTAid_X"), Some("SR_CTAID.X"));
        assert_eq!(canonical("SR_LaneId"), Some("SR_LANEID"));
        assert_eq!(canonical("SR_CGACTAID"), Some("SR_CgaCtaId"));
        assert_eq!(canonical("SR_WSCALEFACTOR_Z"), Some("SR_WSCALEFACTOR_Z"));
        assert_eq!(canonical("SRZ"), Some("SRZ"));
        assert_eq!(canonical("SR_TID.W"), None);
        assert_eq!(canonical("CTAID.X"), None);
    }

    #[test]
    fn suggestions_for_misspellings() {
        assert_eq!(suggestion("CTAID.X"), Some("SR_CTAID.X"));
        assert_eq!(suggestion("SR_TIDX"), Some("SR_TID.X"));
        assert_eq!(suggestion("SR_LANEDI"), Some("SR_LANEID"));
        assert_eq!(suggestion("R5"), None);
    }
}
