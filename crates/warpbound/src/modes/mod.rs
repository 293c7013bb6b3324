//! The table of analysis modes. Each mode is one file here exporting one [`Mode`] value
//! (`MODE`); adding a mode is its file plus one line in [`ALL`] — the catalogue, the CLI's
//! `--mode`, the page's mode menu and parameter form, request validation and the corpus
//! sweep all read this table.
//!
//! A mode file over 500 lines becomes a directory module (`rr.rs` with `rr/parameters.rs`,
//! `rr/simulation.rs`, …), split by what the parts hold. A mode never imports another mode:
//! what several modes share lives in a module outside `modes` that they all ask
//! (`crate::warp_analysis` for `warp-cfg` and `block`, `crate::lc_reduction` for `makespan`
//! and `block`, `crate::loop_inference`, `crate::params::loop_bounds`, `crate::simulator`, …).

mod block;
mod launch;
mod makespan;
mod pws;
mod rr;
mod simd;
mod simulate;
mod thread_cfg;
mod warp_cfg;

use crate::catalog::{Catalog, DialectInfo};
use crate::mode::Mode;
use crate::schema::SCHEMA_VERSION;

/// Every mode, in the order the catalogue lists them; the first is the default.
pub const ALL: &[Mode] = &[
    thread_cfg::MODE,
    warp_cfg::MODE,
    block::MODE,
    launch::MODE,
    makespan::MODE,
    simulate::MODE,
    rr::MODE,
    pws::MODE,
    simd::MODE,
];

/// The mode a request gets when it names none.
pub fn default_mode() -> &'static Mode {
    &ALL[0]
}

/// The mode `name` names, by its name or a former one.
pub fn find(name: &str) -> Option<&'static Mode> {
    ALL.iter().find(|m| m.answers_to(name))
}

/// The catalogue of this build: dialects, and every mode's description.
pub fn catalog() -> Catalog {
    let modes: Vec<_> = ALL.iter().map(Mode::info).collect();
    let dialects = isa::Dialect::ALL
        .iter()
        .map(|d| DialectInfo {
            name: d.name().into(),
            title: match d {
                isa::Dialect::Sass => "NVIDIA SASS",
                isa::Dialect::Gcn => "AMD GCN3 assembly",
                isa::Dialect::Ptx => "PTX",
                isa::Dialect::Simd => "Sim-D assembly",
                isa::Dialect::Lc => "L/C instruction string",
                isa::Dialect::PwsCsv => "PWS solver graph (CSV)",
            }
            .into(),
            // A dialect is supported when some mode accepts it.
            supported: modes
                .iter()
                .any(|m| m.dialects.iter().any(|x| x == d.name())),
        })
        .collect();
    Catalog {
        schema_version: SCHEMA_VERSION,
        version: env!("CARGO_PKG_VERSION").into(),
        dialects,
        default_mode: default_mode().name.into(),
        modes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::ParamKind;
    use crate::mode::ModeInput;
    use crate::params;
    use crate::request::Request;
    use std::collections::{BTreeMap, BTreeSet};

    #[test]
    fn names_and_aliases_are_unique() {
        let mut seen = BTreeSet::new();
        for m in ALL {
            for name in std::iter::once(&m.name).chain(m.aliases) {
                assert!(seen.insert(*name), "`{name}` names two modes");
            }
        }
        assert_eq!(find("cfg").map(|m| m.name), Some("thread-cfg"));
    }

    /// Every mode declares the shared budgets, each parameter once, with a default that
    /// passes its own check, and each preset sets declared parameters only.
    #[test]
    fn declarations_are_consistent() {
        for m in ALL {
            let info = m.info();
            let mut names = BTreeSet::new();
            for p in &info.params {
                assert!(names.insert(&p.name), "{}: `{}` twice", m.name, p.name);
                if p.kind == ParamKind::Number {
                    let v = p.default.as_f64().unwrap_or(f64::NAN);
                    assert!(
                        v >= p.min && v <= p.max,
                        "{}: default of {}",
                        m.name,
                        p.name
                    );
                }
            }
            for shared in params::limits::params() {
                assert!(
                    names.contains(&shared.name),
                    "{}: no {}",
                    m.name,
                    shared.name
                );
            }
            for preset in &info.presets {
                let mut diags = Vec::new();
                params::resolve(&info, Some(preset), &BTreeMap::new(), &mut diags);
                assert!(diags.is_empty(), "{} {}: {diags:?}", m.name, preset.name);
            }
            for (dialect, preset) in &info.default_presets {
                assert!(info.dialects.contains(dialect), "{}: {dialect}", m.name);
                assert!(info.presets.iter().any(|p| &p.name == preset), "{preset}");
            }
        }
    }

    /// Every parameter a mode declares is read when it runs (so no declared parameter is
    /// silently ignored), and no read names an undeclared one — with `simulate` off and on,
    /// on every dialect the mode accepts.
    #[test]
    fn every_mode_reads_exactly_what_it_declares() {
        for m in ALL {
            let info = m.info();
            for dialect in &info.dialects {
                for simulate in [false, true] {
                    let Some(dialect) = isa::Dialect::from_name(dialect) else {
                        panic!("{}: unknown dialect {dialect}", m.name);
                    };
                    let mut request = Request::new("", dialect);
                    if simulate && info.params.iter().any(|p| p.name == "simulate") {
                        request
                            .params
                            .insert("simulate".into(), serde_json::json!(true));
                    }
                    let mut diags = Vec::new();
                    let p = params::resolve(&info, None, &request.params, &mut diags);
                    assert!(diags.is_empty(), "{diags:?}");
                    let limits = params::limits::decode(&p).unwrap_or_default();
                    let input = ModeInput {
                        request: &request,
                        params: &p,
                        preset: None,
                        limits,
                        context: crate::context::Context::new(&request, limits),
                        progress: &isa::progress::silent,
                    };
                    let out = (m.run)(&input);
                    assert_eq!(
                        p.unread(),
                        Vec::<String>::new(),
                        "{} on {dialect:?}",
                        m.name
                    );
                    for d in &out.diagnostics {
                        assert!(!d.message.contains("internal"), "{}: {}", m.name, d.message);
                    }
                }
            }
        }
    }
}
