//! The loop bounds of a request, decoded once: the `loop_bounds` map and the
//! `default_loop_bound` parameter, for the modes that bound loops (`warp-cfg` and `block` on
//! SASS and PTX, `rr` on PTX, `pws` on GCN3) — and, after [`LoopBounds::apply_inferred`],
//! the bounds the code gives (crate `loopbound`), each with where it came from.
//!
//! Why decoded here: a key arrives as the text the user typed (`"0x18"`, `"24"`, `"BB0_7"`)
//! because JSON object keys are strings; reading it once into an address or a label keeps
//! every mode from re-parsing it, and keeps "0 means no default" in one place.
//!
//! **Precedence** (issue #38): a bound the request gives below the inferred one is used (the
//! user may know the data); one above it is replaced by the inferred one (the code cannot
//! run longer); both with a located note. A loop with neither takes `default_loop_bound`,
//! which every mode reports as an assumption (a located warning and `wcet.assumed_loop_bounds`).

use super::number;
use isa::{Diagnostic, Span};
use std::collections::BTreeMap;

/// Where the bound a loop was analysed with comes from (`bound_from` in the report).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum BoundFrom {
    /// From the code: an induction variable and its exit (crate `loopbound`).
    Inferred,
    /// The request's `loop_bounds` (or `--loop-bound`).
    Given,
    /// `loop_bounds=observed`: the most iterations one thread made in the simulated run.
    Observed,
    /// `default_loop_bound`: an assumption.
    Default,
}

impl BoundFrom {
    /// The report's spelling.
    pub fn name(self) -> &'static str {
        match self {
            BoundFrom::Inferred => "inferred",
            BoundFrom::Given => "given",
            BoundFrom::Observed => "observed",
            BoundFrom::Default => "default",
        }
    }
}

/// How a loop is named in `loop_bounds`: by its header's address or label.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LoopKey {
    Address(u64),
    Label(String),
}

impl std::fmt::Display for LoopKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoopKey::Address(a) => write!(f, "{a:#x}"),
            LoopKey::Label(l) => write!(f, "{l}"),
        }
    }
}

/// Where one keyed bound came from, and what the code says about the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provenance {
    pub from: BoundFrom,
    /// The inferred bound's reason (or why the code gives none), when inference ran.
    pub reason: Option<String>,
    /// The bound the code gives, when there is one (also when a smaller given one is used).
    pub inferred: Option<u64>,
    /// The inferred count as a formula of the parameters and launch dimensions.
    pub formula: Option<String>,
}

/// One loop as inference saw it, keyed the way its mode keys loops.
#[derive(Debug, Clone)]
pub struct InferredLoop {
    /// Every key the loop answers to (address and label), the first the one it is shown by.
    pub keys: Vec<LoopKey>,
    pub span: Span,
    pub bound: Option<u64>,
    pub reason: String,
    pub formula: Option<String>,
    /// The bound depends on kernel parameters chosen automatically (`params` empty/auto).
    pub auto_params: Option<String>,
}

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
    /// Where the keyed bounds came from (a key without an entry is the request's), and what
    /// inference said about loops that have no keyed bound.
    pub provenance: BTreeMap<LoopKey, Provenance>,
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

    /// The request's bound for a loop answering to `keys`, with the key it was given under.
    fn given(&self, keys: &[LoopKey]) -> Option<(LoopKey, u64)> {
        keys.iter().find_map(|k| {
            let n = match k {
                LoopKey::Address(a) => self.per_address.get(a),
                LoopKey::Label(l) => self.per_label.get(l),
            }?;
            Some((k.clone(), *n))
        })
    }

    fn insert(&mut self, key: &LoopKey, n: u64) {
        match key {
            LoopKey::Address(a) => self.per_address.insert(*a, n),
            LoopKey::Label(l) => self.per_label.insert(l.clone(), n),
        };
    }

    /// Applies the bounds inference found, by the precedence rule of the module doc; the
    /// notes go to `diags`, located at each loop's header.
    pub fn apply_inferred(&mut self, loops: &[InferredLoop], diags: &mut Vec<Diagnostic>) {
        for l in loops {
            let Some(first) = l.keys.first() else {
                continue;
            };
            let mut prov = Provenance {
                from: BoundFrom::Inferred,
                reason: Some(l.reason.clone()),
                inferred: l.bound,
                formula: l.formula.clone(),
            };
            match (self.given(&l.keys), l.bound) {
                (Some((key, g)), Some(n)) if g <= n => {
                    if g < n {
                        diags.push(Diagnostic::note(
                            l.span,
                            format!(
                                "loop {first}: the given bound {g} is used; the code allows up \
                                 to {n} ({})",
                                l.reason
                            ),
                        ));
                    }
                    prov.from = BoundFrom::Given;
                    self.provenance.insert(key, prov);
                }
                (Some((key, g)), Some(n)) => {
                    diags.push(Diagnostic::note(
                        l.span,
                        format!(
                            "loop {first}: the given bound {g} is more than the code allows: {n} \
                             is used ({})",
                            l.reason
                        ),
                    ));
                    self.insert(&key, n);
                    self.provenance.insert(key, prov);
                }
                (Some((key, _)), None) => {
                    prov.from = BoundFrom::Given;
                    self.provenance.insert(key, prov);
                }
                (None, Some(n)) => {
                    self.insert(first, n);
                    if let Some(auto) = &l.auto_params {
                        diags.push(Diagnostic::note(
                            l.span,
                            format!(
                                "loop {first}: bound {n} from the code for the kernel parameters \
                                 chosen automatically ({auto}); set `params` to bound it for your \
                                 launch"
                            ),
                        ));
                    }
                    self.provenance.insert(first.clone(), prov);
                }
                (None, None) => {
                    prov.from = BoundFrom::Default;
                    self.provenance.insert(first.clone(), prov);
                }
            }
        }
    }

    /// Where the bound of a loop answering to `keys` comes from, and its provenance record
    /// (`None` for a loop inference did not see).
    pub fn source(&self, keys: &[LoopKey]) -> (BoundFrom, Option<&Provenance>) {
        let prov = keys.iter().find_map(|k| self.provenance.get(k));
        let keyed = self.given(keys).is_some();
        let from = match prov {
            Some(p) if keyed => p.from,
            Some(p) if p.from == BoundFrom::Observed => BoundFrom::Observed,
            _ if keyed => BoundFrom::Given,
            _ => BoundFrom::Default,
        };
        (from, prov)
    }

    /// Without `loop_bounds=observed`, after a simulation: a loop that neither the request nor
    /// the code bounds, and whose run made `n` iterations per entry, more than
    /// `default_loop_bound`, takes `n` instead of the default. A bound below an execution the
    /// user has just watched is wrong on its face (issue #37: observed ≤ bound on every run);
    /// `n` is still an assumption about every other input, so it is recorded as `observed`
    /// (listed in `wcet.assumed_loop_bounds`) and the returned warning, located at the
    /// header, says so.
    pub fn raise_default(&mut self, key: LoopKey, n: u64, span: Span) -> Option<Diagnostic> {
        let default = self.default?;
        let keyed = match &key {
            LoopKey::Address(a) => self.per_address.contains_key(a),
            LoopKey::Label(l) => self.per_label.contains_key(l),
        };
        if n <= default || keyed {
            return None;
        }
        let h = key.to_string();
        self.observed(key, n);
        Some(Diagnostic::warning(
            span,
            format!(
                "loop {h}: neither the code nor the request bounds it, and the simulated run \
                 made {n} iterations in one entry, more than default_loop_bound {default}: the \
                 run's {n} is used — an assumption (it holds for this run, not for every \
                 input). Give its bound with loop_bounds {{\"{h}\": N}} (--loop-bound {h}=N)"
            ),
        ))
    }

    /// Records that the bound keyed `key` was taken from the simulated run.
    pub fn observed(&mut self, key: LoopKey, n: u64) {
        self.insert(&key, n);
        let p = self.provenance.entry(key).or_insert(Provenance {
            from: BoundFrom::Observed,
            reason: None,
            inferred: None,
            formula: None,
        });
        p.from = BoundFrom::Observed;
    }
}

/// The warning of a loop analysed with `default_loop_bound` (issue #38: never silent): where
/// the loop is, that its bound is an assumption, why the code gives none, and how to give one.
pub(crate) fn default_warning(
    span: Span,
    header: &str,
    bound: u64,
    why: Option<&str>,
) -> Diagnostic {
    Diagnostic::warning(
        span,
        format!(
            "loop {header}: its bound {bound} is an assumption (default_loop_bound), not a fact \
             of the code{}; the WCET holds only if the loop never runs its header more than \
             {bound} times per entry. Give its bound with loop_bounds {{\"{header}\": N}} \
             (--loop-bound {header}=N), take the simulated run's count with \
             loop_bounds=observed, or set default_loop_bound",
            why.map(|w| format!(" ({w})")).unwrap_or_default()
        ),
    )
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
