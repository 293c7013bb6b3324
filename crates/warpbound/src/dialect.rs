//! The request's and the report's `dialect`: the input languages as the wire spells them.
//! The facade's own type, converted to and from `isa::Dialect` (the parsers' choice), so a
//! rename inside `isa` cannot change the JSON or an old permalink's meaning.

use crate::views::wire_view::wire_enum;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

wire_enum! {
    /// The language of the pasted text: what the page's dialect menu and the CLI's `--dialect`
    /// choose (`isa::Dialect`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
    #[serde(rename_all = "snake_case")]
    pub enum Dialect mirrors isa::Dialect {
        /// NVIDIA SASS from `cuobjdump -sass`, `nvdisasm` or CuAssembler `.cuasm`.
        Sass,
        /// AMD GCN3 assembly (HIP/LLVM `.s`).
        Gcn,
        Ptx,
        /// Sim-D assembly (`.sas`).
        Simd,
        /// Abstract instruction strings over {L, C} (Berezovskyi et al.).
        Lc,
        /// A wavefront CFG in the CSV format of the public PWS split-point solver.
        #[serde(rename = "pws-csv")]
        PwsCsv,
    }
}

impl Dialect {
    /// Every dialect, in the menu's order.
    pub const ALL: [Dialect; 6] = [
        Dialect::Sass,
        Dialect::Gcn,
        Dialect::Ptx,
        Dialect::Simd,
        Dialect::Lc,
        Dialect::PwsCsv,
    ];

    /// The name the JSON, the catalogue and `--dialect` use (`sass`, `pws-csv`).
    pub fn name(self) -> &'static str {
        isa::Dialect::from(self).name()
    }

    /// The dialect named `s` ([`Dialect::name`]).
    pub fn from_name(s: &str) -> Option<Dialect> {
        isa::Dialect::from_name(s).map(Dialect::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_conversions_agree_with_isa() {
        for d in isa::Dialect::ALL {
            let wire = Dialect::from(d);
            assert_eq!(isa::Dialect::from(wire), d);
            assert_eq!(serde_json::to_value(wire).expect("json"), d.name());
            assert_eq!(Dialect::from_name(d.name()), Some(wire));
        }
        assert_eq!(Dialect::ALL.len(), isa::Dialect::ALL.len());
    }
}
