//! PTX special registers (PTX ISA 8.5 chapter 10 "Special Registers"): which `%name`s are
//! predefined, which take a `.x/.y/.z` component, and the "did you mean" for misspellings.
//!
//! Any other `%name` is a virtual register and must be declared with `.reg` (the parser checks
//! that); a name that is *close* to a special register (`%tidx`, `%laneidd`) is reported as
//! a misspelt special register rather than as an undeclared register.

use super::isa_table::edit_distance;

/// Special registers with `.x`, `.y`, `.z` components.
const VECTOR: &[&str] = &[
    "tid",
    "ntid",
    "ctaid",
    "nctaid",
    "clusterid",
    "nclusterid",
    "cluster_ctaid",
    "cluster_nctaid",
];

/// Scalar special registers.
const SCALAR: &[&str] = &[
    "laneid",
    "warpid",
    "nwarpid",
    "smid",
    "nsmid",
    "gridid",
    "is_explicit_cluster",
    "cluster_ctarank",
    "cluster_nctarank",
    "lanemask_eq",
    "lanemask_le",
    "lanemask_lt",
    "lanemask_ge",
    "lanemask_gt",
    "clock",
    "clock_hi",
    "clock64",
    "globaltimer",
    "globaltimer_lo",
    "globaltimer_hi",
    "reserved_smem_offset_begin",
    "reserved_smem_offset_end",
    "reserved_smem_offset_cap",
    "total_smem_size",
    "aggr_smem_size",
    "dynamic_smem_size",
    "current_graph_exec",
];

/// A special register whose value an executor of PTX can know from the launch and the
/// thread (the simulator and the round-robin analyzer read these; every other one, clocks
/// included, has no value they can give).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// `%tid`, `%ntid`, `%ctaid`, `%nctaid` and the component (0 = x, 1 = y, 2 = z).
    Tid(usize),
    Ntid(usize),
    Ctaid(usize),
    Nctaid(usize),
    LaneId,
    WarpId,
    SmId,
    NsmId,
    LanemaskEq,
    LanemaskLt,
    LanemaskLe,
}

impl Special {
    /// The register `%name.component`: one of [`Special`]'s with a `.x/.y/.z` component
    /// where it has components and none where it has not; `None` for any other.
    pub fn of(name: &str, component: Option<&str>) -> Option<Special> {
        let c = match component {
            Some("x") => Some(0),
            Some("y") => Some(1),
            Some("z") => Some(2),
            Some(_) => return None,
            None => None,
        };
        Some(match (name, c) {
            ("tid", Some(c)) => Special::Tid(c),
            ("ntid", Some(c)) => Special::Ntid(c),
            ("ctaid", Some(c)) => Special::Ctaid(c),
            ("nctaid", Some(c)) => Special::Nctaid(c),
            ("laneid", None) => Special::LaneId,
            ("warpid", None) => Special::WarpId,
            ("smid", None) => Special::SmId,
            ("nsmid", None) => Special::NsmId,
            ("lanemask_eq", None) => Special::LanemaskEq,
            ("lanemask_lt", None) => Special::LanemaskLt,
            ("lanemask_le", None) => Special::LanemaskLe,
            _ => return None,
        })
    }
}

/// Is `name` (without `%`, without component) a special register?
pub fn is_special(name: &str) -> bool {
    VECTOR.contains(&name) || SCALAR.contains(&name) || numbered(name)
}

/// `%envreg0`…`%envreg31`, `%pm0`…`%pm7` and `%pm0_64`…`%pm7_64`,
/// `%reserved_smem_offset_0`, `_1`.
fn numbered(name: &str) -> bool {
    let small = |s: &str, max: u32| s.len() <= 2 && s.parse::<u32>().is_ok_and(|n| n <= max);
    if let Some(n) = name.strip_prefix("envreg") {
        return small(n, 31);
    }
    if let Some(n) = name.strip_prefix("pm") {
        let n = n.strip_suffix("_64").unwrap_or(n);
        return small(n, 7);
    }
    if let Some(n) = name.strip_prefix("reserved_smem_offset_") {
        return small(n, 1);
    }
    false
}

/// Checks the component of a special register: `Err(message)` when it has one it should not
/// have, lacks one it needs, or names a component that does not exist (`%tid.w`).
pub fn check_component(name: &str, component: Option<&str>) -> Result<(), String> {
    let vector = VECTOR.contains(&name);
    match (vector, component) {
        (true, Some("x" | "y" | "z")) | (false, None) => Ok(()),
        (true, Some(c)) => Err(format!(
            "`%{name}` has components .x, .y and .z, not `.{c}` (did you mean `%{name}.{}`?)",
            nearest_component(c)
        )),
        (true, None) => Err(format!(
            "`%{name}` needs a component: `%{name}.x`, `%{name}.y` or `%{name}.z`"
        )),
        (false, Some(c)) => Err(format!("`%{name}` has no components (`.{c}`)")),
    }
}

fn nearest_component(c: &str) -> &'static str {
    ["x", "y", "z"]
        .into_iter()
        .min_by_key(|x| edit_distance(c, x))
        .unwrap_or("x")
}

/// For an undeclared `%word` (without `%`): the special register it is probably a
/// misspelling of, written as it should be (`tid.x` for `tidx`), if one is within edit
/// distance 1 (names up to 5 characters) or 2 (longer names).
pub fn misspelt(word: &str) -> Option<String> {
    let limit = if word.len() <= 5 { 1 } else { 2 };
    let mut best: Option<(usize, String)> = None;
    let mut consider = |cand: String| {
        if cand.len().abs_diff(word.len()) > limit {
            return;
        }
        let d = edit_distance(word, &cand);
        if d <= limit && best.as_ref().is_none_or(|(bd, _)| d < *bd) {
            best = Some((d, cand));
        }
    };
    for v in VECTOR {
        for c in ["x", "y", "z"] {
            consider(format!("{v}.{c}"));
        }
    }
    for s in SCALAR {
        consider((*s).to_string());
    }
    best.map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registers_with_values() {
        assert_eq!(Special::of("ctaid", Some("y")), Some(Special::Ctaid(1)));
        assert_eq!(Special::of("laneid", None), Some(Special::LaneId));
        assert_eq!(Special::of("tid", None), None);
        assert_eq!(Special::of("laneid", Some("x")), None);
        assert_eq!(Special::of("clock", None), None);
    }

    #[test]
    fn known_and_numbered() {
        for n in [
            "tid",
            "laneid",
            "clock64",
            "envreg31",
            "pm7_64",
            "dynamic_smem_size",
        ] {
            assert!(is_special(n), "{n}");
        }
        for n in ["envreg32", "pm8", "r1", "tidx"] {
            assert!(!is_special(n), "{n}");
        }
    }

    #[test]
    fn components() {
        assert!(check_component("tid", Some("x")).is_ok());
        assert!(check_component("laneid", None).is_ok());
        let e = check_component("tid", Some("w")).expect_err("no .w");
        assert!(e.contains("`%tid.x`") || e.contains("`%tid.z`"), "{e}");
        assert!(check_component("ctaid", Some("q")).is_err());
        assert!(check_component("laneid", Some("x")).is_err());
        assert!(check_component("ntid", None).is_err());
    }

    #[test]
    fn misspellings() {
        assert_eq!(misspelt("tidx").as_deref(), Some("tid.x"));
        assert_eq!(misspelt("laneidd").as_deref(), Some("laneid"));
        assert_eq!(misspelt("warpdi").as_deref(), Some("warpid"));
        assert_eq!(misspelt("r1"), None);
        assert_eq!(misspelt("rd12"), None);
        assert_eq!(misspelt("temp"), None);
    }
}
