//! The `block` mode's makespan machine (`sm=makespan`, Berezovskyi et al. §2–3): its units,
//! the closed-form bound of W warps on them and, on straight-line code, the exact worst-case
//! makespan of the L/C reduction (moved out of `block.rs`, which keeps the bound).

use super::WARP_SIZE;
use crate::warp_analysis::{Cost, ParsedSass};
use isa::{Diagnostic, Severity};

/// The unit machine of `sm=makespan`: `(k, σ)` of the load/store units and of the cores
/// for warps of 32 (Berezovskyi et al. §3).
#[derive(Debug, Clone, Copy)]
pub(super) struct Units {
    pub(super) ls_units: u32,
    pub(super) cores: u32,
    pub(super) load_store: block::UnitKind,
    pub(super) core: block::UnitKind,
}

impl Units {
    pub(super) fn decode(params: &crate::params::Params) -> Result<Option<Units>, Diagnostic> {
        // Read whatever the model (so no parameter goes unread); used by `makespan` only.
        let (ls_units, cores) = (params.u32("ls_units")?, params.u32("cores")?);
        if params.text("sm")? != "makespan" {
            return Ok(None);
        }
        let kind = |units: u32| -> Result<block::UnitKind, Diagnostic> {
            let (cycles, lanes) = makespan::sigma_factor(units, WARP_SIZE as u32)
                .map_err(|e| Diagnostic::global(Severity::Error, e.to_string()))?;
            Ok(block::UnitKind { lanes, cycles })
        };
        Ok(Some(Units {
            ls_units,
            cores,
            load_store: kind(ls_units)?,
            core: kind(cores)?,
        }))
    }

    /// The cost model of one warp alone on this machine: each instruction its unit's k.
    pub(super) fn cost(&self) -> Cost {
        Cost::Units {
            load_store: u64::from(self.load_store.cycles),
            core: u64::from(self.core.cycles),
        }
    }
}

/// Budget of the exact makespan search on straight-line code: the makespan mode's default,
/// so that both modes give the same value on the same kernel.
fn exact_budget() -> makespan::Budget {
    makespan::Budget::default()
}

/// The unit machine's closed-form bound for `warps` warps (`extra`: the warp's work on the
/// load/store units and on the cores); serialised with barriers.
fn units_formula(
    u: &Units,
    isolated: u64,
    extra: &[u64],
    warps: usize,
    barriers: bool,
) -> block::BlockBound {
    let profile = block::UnitProfile {
        isolated,
        work: extra.to_vec(),
    };
    let kinds = [u.load_store, u.core];
    let b = block::units_response_time(&vec![profile; warps], &kinds);
    if barriers {
        let serial = block::WarpProfile {
            isolated,
            issues: isolated,
        };
        return block::response_time(&vec![serial; warps], true);
    }
    b
}

/// Whether the code reachable from the entry is one path: every block reached has at most
/// one successor and none is reached twice (what the L/C reduction walks, whole).
fn is_straight_line(graph: &isa::BlockGraph) -> bool {
    let edges = graph.edges();
    let mut seen = vec![false; graph.blocks.len()];
    let mut b = 0usize;
    loop {
        match seen.get_mut(b) {
            Some(s) if !*s => *s = true,
            _ => return false,
        }
        let mut outs = edges.iter().filter(|e| e.0 == b);
        match (outs.next(), outs.next()) {
            (None, _) => return true,
            (Some(e), None) => b = e.1,
            _ => return false,
        }
    }
}

/// The L/C string of a straight-line kernel (one path, [`is_straight_line`], no barriers)
/// on the unit machine, ready for the exact makespan search; `None` for other code.
pub(super) fn straight_line_string(
    parsed: &ParsedSass,
    u: &Units,
    barriers: bool,
) -> Option<Result<makespan::Transformed, makespan::Error>> {
    let graph = &parsed.sass.graph;
    if barriers || !is_straight_line(graph) {
        return None;
    }
    let (ops, _) = crate::lc_reduction::sass(&parsed.sass.kernel, graph);
    let machine = makespan::Machine {
        ls_units: u.ls_units,
        cores: u.cores,
        warp_size: WARP_SIZE as u32,
    };
    Some(makespan::transform(&ops, &machine))
}

/// [`units_formula`], and on straight-line code the exact worst-case makespan of the L/C
/// reduction (crate `makespan`) — never above the formula, which bounds it — so that on such
/// code the block mode gives the makespan mode's exact value. `exact` is that value, if
/// computed.
pub(super) fn units_bound(
    string: Option<&Result<makespan::Transformed, makespan::Error>>,
    u: &Units,
    isolated: u64,
    extra: &[u64],
    warps: usize,
    barriers: bool,
) -> (block::BlockBound, Option<Result<u64, makespan::Error>>) {
    let formula = units_formula(u, isolated, extra, warps, barriers);
    let Some(string) = string else {
        return (formula, None);
    };
    let exact = match string {
        Ok(t) => makespan::exact_makespan(t, warps as u32, &exact_budget()).map(|(v, _)| v),
        Err(e) => Err(e.clone()),
    };
    match exact {
        Ok(v) => (formula.capped_by_exact(v), Some(Ok(v))),
        Err(e) => (formula, Some(Err(e))),
    }
}
