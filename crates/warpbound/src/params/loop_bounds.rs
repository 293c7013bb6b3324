//! The loop bounds of a request, decoded once: the `loop_bounds` map and the
//! `default_loop_bound` parameter, for the modes that bound loops (`warp-cfg` on SASS, `pws`
//! on GCN3).
//!
//! Why decoded here: a key arrives as the text the user typed (`"0x18"`, `"24"`, `"BB0_7"`)
//! because JSON object keys are strings; reading it once into an address or a label keeps
//! every mode from re-parsing it, and keeps "0 means no default" in one place.

use super::number;
use std::collections::BTreeMap;

/// Loop bounds by the loop header's address or label, and the bound of every other loop.
/// A bound `N` means the header executes at most `N` times per entry into the loop.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoopBounds {
    /// Keys written as numbers (`0x18`, `24`): SASS loop headers by byte address.
    pub per_address: BTreeMap<u64, u64>,
    /// Keys written as names (`BB0_7`, `.LBB0_2`): GCN3 loop headers by label.
    pub per_label: BTreeMap<String, u64>,
    /// The bound of loops without their own; `None` makes such a loop an error.
    pub default: Option<u64>,
}

impl LoopBounds {
    /// Reads the request's `loop_bounds` and the `default_loop_bound` value (0: none).
    pub fn decode(keyed: &BTreeMap<String, u64>, default_loop_bound: u64) -> Self {
        let mut out = LoopBounds {
            default: (default_loop_bound > 0).then_some(default_loop_bound),
            ..LoopBounds::default()
        };
        for (key, &n) in keyed {
            match number::unsigned(key) {
                Some(address) => {
                    out.per_address.insert(address, n);
                }
                None => {
                    out.per_label.insert(key.trim().to_string(), n);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_labels_and_the_default() {
        let keyed = BTreeMap::from([
            ("0x18".to_string(), 10),
            ("32".to_string(), 4),
            ("BB0_7".to_string(), 3),
        ]);
        let b = LoopBounds::decode(&keyed, 0);
        assert_eq!(b.per_address, BTreeMap::from([(0x18, 10), (32, 4)]));
        assert_eq!(b.per_label, BTreeMap::from([("BB0_7".to_string(), 3)]));
        assert_eq!(b.default, None);
        assert_eq!(LoopBounds::decode(&BTreeMap::new(), 10).default, Some(10));
    }
}
