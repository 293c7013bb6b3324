//! The paper's binary ILP (§5, Fig. 3) for the exact worst-case makespan, with either the
//! short (Eq. 34/37) or the long (Eq. 33/36) work-conserving constraints, solved by a branch
//! and bound of `ipet`: the propagating one (`ipet::binary`, default) or the LP-based one
//! (`ipet::branch_and_bound`), see [`IlpSolver`].
//!
//! # My reading of Fig. 3 (0-based instruction index `i`, 1-based cycle `t = 1..T`)
//!
//! *Constants* (Eq. 8–10): `IL_i = 1` iff instruction `i` is an `L`, `IC_i = 1 − IL_i`.
//!
//! *Variables*: `LS_{w,i,t} = 1` iff warp `w` executes `L` instruction `i` in cycle `t`,
//! `CC_{w,i,t}` likewise for `C`; `E_t = 1` iff all `σ_L` load/store lanes are busy in cycle
//! `t` (Eq. 30), `G_t` likewise for the cores (Eq. 35). Eq. 17 with Eq. 10 forces `LS` to 0
//! for every `C` instruction and `CC` to 0 for every `L` instruction; those variables are not
//! created (one variable `x_{w,i,t}` per warp, instruction and cycle stands for whichever of
//! `LS`/`CC` the instruction's type allows). Likewise the precedence chain (Eq. 18) forces
//! instruction `i` into cycles `i+1 ..= T−(I−1−i)`, and variables outside that window are
//! not created. Neither reduction changes the set of integer solutions.
//!
//! *Horizon* `T`: §5 uses the pessimistic bound of Eq. 5. That is only an upper bound on the
//! makespan when `σ_L = σ_C = 1` (always the case in the paper), so `T` is
//! [`crate::safe_bound`], which equals Eq. 5 in that case and stays valid for `σ > 1`.
//!
//! *Objective* (Eq. 13): maximise `Σ_t t · x_{W−1,I−1,t}`, the cycle of the last
//! instruction of the last warp, made the last to finish by the `W−1` constraints
//! `Σ_t t·x_{w,I−1,t} ≤ Σ_t t·x_{W−1,I−1,t}` (§5.1; warps are identical, so this loses no
//! schedule up to renaming).
//!
//! *Capacity* (Eq. 14–16): per cycle at most `σ_L` `L` and `σ_C` `C` executions; per warp and
//! cycle at most one `L` and at most one `C` execution (rows with a single term are implied
//! by Eq. 17 and dropped).
//!
//! *Every instruction once* (Eq. 17): `Σ_t x_{w,i,t} = 1`.
//!
//! *Precedence* (Eq. 18–19, the last row of §5.3): `1 + Σ_t t·x_{w,i,t} ≤ Σ_t t·x_{w,i+1,t}`.
//!
//! *Saturation indicators* (Eq. 40–41): `E_t ≥ 1 − σ_L + Σ_{w,i} LS_{w,i,t}` and
//! `σ_L·E_t ≤ Σ_{w,i} LS_{w,i,t}`, so `E_t = 1` exactly when all `σ_L` lanes are used;
//! `G_t` likewise with `CC` and `σ_C`.
//!
//! *Work conservation* (§5.4): warp `w` is *not* idly ready for `L` instruction `i` at `t`
//! (`TL_{w,i,t}`) iff it has not finished instruction `i−1` before `t` or it executes `i` at
//! or before `t`. As linear expressions:
//! `TL_{w,0,t} = Σ_{t'≤t} LS_{w,0,t'}` and
//! `TL_{w,i,t} = Σ_{t'≥t} x_{w,i−1,t'} + Σ_{t'≤t} LS_{w,i,t'}` for `i ≥ 1`
//! (the paper's disjunction of two 0/1 sums; both cannot be 1 because of precedence, so the
//! disjunction is their sum). `TL ≡ 1` for `C` instructions. The middle term `TL ∨ E_t` of
//! Eq. 34 must hold, i.e. equal 1; Theorems 1–2 then leave
//! * **short** (Eq. 34, and Eq. 37 for `C` with `TC`, `G`): for every `w`, `L` instruction
//!   `i` and `t`: `TL_{w,i,t} + E_t ≥ 1` — `W·I·T` rows;
//! * **long** (Eq. 33, and Eq. 36): for every `w` and `t`:
//!   `(1/I)·Σ_i TL_{w,i,t} + E_t ≥ 1`, written as `Σ_{i∈L} TL_{w,i,t} + I·E_t ≥ |L|` after
//!   moving the constant `TL ≡ 1` of the `C` instructions to the right — `2·W·T` rows.
//!
//! (The other side of the sandwiches, `½(TL + E) ≤ 1` and the conjunction's lower bound,
//! always holds for 0/1 values and is not emitted.)

use ipet::binary::{maximize_binary_observed, BinaryError, BinaryLimits};
use ipet::branch_and_bound::{maximize, BbError, IntegerProgram, LinearConstraint, Relation};

use crate::bounds::safe_bound;
use crate::exact::check;
use crate::model::{Error, Transformed};
use crate::schedule::{Budget, Schedule, Slot};
use isa::lc::LcOp;

/// Which form of the work-conserving constraints of §5.4 to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IlpVariant {
    /// `W·I·T` short constraints, Eq. 34 and 37 (the paper's Fig. 3, and the faster option
    /// in its Fig. 5).
    Short,
    /// `2·W·T` long constraints, Eq. 33 and 36.
    Long,
}

/// The generated ILP, with the index maps needed to read a schedule back.
#[derive(Debug, Clone, PartialEq)]
pub struct IlpModel {
    /// The integer program handed to the branch and bound.
    pub program: IntegerProgram,
    /// The horizon `T` (cycles `1..=T`).
    pub horizon: u64,
    /// Number of warps `W`.
    pub warps: u32,
    /// Number of instructions `I`.
    pub instrs: usize,
    /// Cycles per (warp, instruction) window: variable `x_{w,i,t}` has index
    /// `(w·I + i)·span + (t − (i+1))`.
    pub span: usize,
    /// Index of `E_1` (then `E_2`, …), when the string has an `L`.
    pub e_base: Option<usize>,
    /// Index of `G_1`, when the string has a `C`.
    pub g_base: Option<usize>,
    /// The unit type of each instruction (names the variables `LS`/`CC`).
    pub units: Vec<LcOp>,
}

impl IlpModel {
    pub(crate) fn x(&self, w: usize, i: usize, t: u64) -> usize {
        (w * self.instrs + i) * self.span + (t - (i as u64 + 1)) as usize
    }

    /// The cycle window `lo..=hi` of instruction `i`.
    pub(crate) fn window(&self, i: usize) -> (u64, u64) {
        let lo = i as u64 + 1;
        (lo, lo + self.span as u64 - 1)
    }
}

/// Builds the ILP of Fig. 3 for `warps ≥ 1` warps and a non-empty string.
///
/// # Errors
/// [`Error::Budget`] (`max_ilp_variables`) when the model would have more binary variables
/// than the budget allows; [`Error::Invalid`] for a zero sigma, no warps or an empty string.
pub fn build_ilp(
    t: &Transformed,
    warps: u32,
    variant: IlpVariant,
    budget: &Budget,
) -> Result<IlpModel, Error> {
    check(t)?;
    if warps == 0 || t.instrs.is_empty() {
        return Err(Error::Invalid(
            "the ILP needs at least one warp and one instruction".into(),
        ));
    }
    let n_i = t.instrs.len();
    let horizon = safe_bound(t, warps);
    let too_big = || Error::Budget {
        what: "max_ilp_variables".into(),
        limit: budget.max_ilp_variables,
    };
    // safe_bound >= I, so the span is at least 1.
    let span64 = horizon.saturating_sub(n_i as u64) + 1;
    let has_l = t.instrs.contains(&LcOp::L);
    let has_c = t.instrs.contains(&LcOp::C);
    let n_x = u64::from(warps)
        .saturating_mul(n_i as u64)
        .saturating_mul(span64);
    let n_ind = horizon.saturating_mul(u64::from(has_l) + u64::from(has_c));
    let n_vars = n_x.saturating_add(n_ind);
    if n_vars > budget.max_ilp_variables as u64 {
        return Err(too_big());
    }
    let n_x = n_x as usize;
    let span = span64 as usize;
    let mut m = IlpModel {
        program: IntegerProgram::default(),
        horizon,
        warps,
        instrs: n_i,
        span,
        e_base: None,
        g_base: None,
        units: t.instrs.clone(),
    };
    let mut next = n_x;
    if has_l {
        m.e_base = Some(next);
        next += horizon as usize;
    }
    if has_c {
        m.g_base = Some(next);
        next += horizon as usize;
    }
    let mut objective = vec![0.0; next];
    let w_last = warps as usize - 1;
    let i_last = n_i - 1;
    let (lo_last, hi_last) = m.window(i_last);
    // Eq. 13.
    for tt in lo_last..=hi_last {
        objective[m.x(w_last, i_last, tt)] = tt as f64;
    }
    let mut rows: Vec<LinearConstraint> = Vec::new();
    let w_n = warps as usize;
    let units = [LcOp::L, LcOp::C];

    // Eq. 14–15 (capacity) and Eq. 40–41 (saturation indicators), per cycle and unit type.
    for &u in &units {
        let (sigma, base) = match u {
            LcOp::L => (t.sigma_l, m.e_base),
            LcOp::C => (t.sigma_c, m.g_base),
        };
        let Some(base) = base else { continue };
        for tt in 1..=horizon {
            let mut usage = Vec::new();
            for w in 0..w_n {
                for (i, &ui) in t.instrs.iter().enumerate() {
                    let (lo, hi) = m.window(i);
                    if ui == u && (lo..=hi).contains(&tt) {
                        usage.push((m.x(w, i, tt), 1.0));
                    }
                }
            }
            let e = base + (tt - 1) as usize;
            if !usage.is_empty() {
                rows.push(LinearConstraint {
                    terms: usage.clone(),
                    relation: Relation::Le,
                    rhs: f64::from(sigma),
                });
            }
            // Eq. 40: E_t − Σ ≥ 1 − σ.
            let mut r40 = vec![(e, 1.0)];
            r40.extend(usage.iter().map(|&(v, _)| (v, -1.0)));
            rows.push(LinearConstraint {
                terms: r40,
                relation: Relation::Ge,
                rhs: 1.0 - f64::from(sigma),
            });
            // Eq. 41: σ·E_t − Σ ≤ 0.
            let mut r41 = vec![(e, f64::from(sigma))];
            r41.extend(usage.iter().map(|&(v, _)| (v, -1.0)));
            rows.push(LinearConstraint {
                terms: r41,
                relation: Relation::Le,
                rhs: 0.0,
            });
        }
    }

    // §5.1: warp W−1 finishes last.
    for w in 0..w_last {
        let mut terms = Vec::new();
        for tt in lo_last..=hi_last {
            terms.push((m.x(w, i_last, tt), tt as f64));
            terms.push((m.x(w_last, i_last, tt), -(tt as f64)));
        }
        rows.push(LinearConstraint {
            terms,
            relation: Relation::Le,
            rhs: 0.0,
        });
    }

    // Eq. 16: one L and one C execution per warp and cycle at most.
    for w in 0..w_n {
        for &u in &units {
            for tt in 1..=horizon {
                let terms: Vec<(usize, f64)> = (0..n_i)
                    .filter(|&i| t.instrs[i] == u && (m.window(i).0..=m.window(i).1).contains(&tt))
                    .map(|i| (m.x(w, i, tt), 1.0))
                    .collect();
                if terms.len() >= 2 {
                    rows.push(LinearConstraint {
                        terms,
                        relation: Relation::Le,
                        rhs: 1.0,
                    });
                }
            }
        }
    }

    // Eq. 17 and the precedence rows of §5.3.
    for w in 0..w_n {
        for i in 0..n_i {
            let (lo, hi) = m.window(i);
            rows.push(LinearConstraint {
                terms: (lo..=hi).map(|tt| (m.x(w, i, tt), 1.0)).collect(),
                relation: Relation::Eq,
                rhs: 1.0,
            });
            if i + 1 < n_i {
                let (lo2, hi2) = m.window(i + 1);
                let mut terms: Vec<(usize, f64)> =
                    (lo..=hi).map(|tt| (m.x(w, i, tt), tt as f64)).collect();
                terms.extend((lo2..=hi2).map(|tt| (m.x(w, i + 1, tt), -(tt as f64))));
                rows.push(LinearConstraint {
                    terms,
                    relation: Relation::Le,
                    rhs: -1.0,
                });
            }
        }
    }

    // §5.4: work conservation, Eq. 33/34 (L) and 36/37 (C).
    for &u in &units {
        let base = match u {
            LcOp::L => m.e_base,
            LcOp::C => m.g_base,
        };
        let Some(base) = base else { continue };
        let of_type: Vec<usize> = (0..n_i).filter(|&i| t.instrs[i] == u).collect();
        for w in 0..w_n {
            for tt in 1..=horizon {
                let e = base + (tt - 1) as usize;
                let mut long_terms: Vec<(usize, f64)> = Vec::new();
                for &i in &of_type {
                    let tl = tl_terms(&m, w, i, tt);
                    match variant {
                        IlpVariant::Short => {
                            let mut terms = tl;
                            terms.push((e, 1.0));
                            rows.push(LinearConstraint {
                                terms,
                                relation: Relation::Ge,
                                rhs: 1.0,
                            });
                        }
                        IlpVariant::Long => long_terms.extend(tl),
                    }
                }
                if variant == IlpVariant::Long {
                    long_terms.push((e, n_i as f64));
                    rows.push(LinearConstraint {
                        terms: long_terms,
                        relation: Relation::Ge,
                        rhs: of_type.len() as f64,
                    });
                }
            }
        }
    }

    // The long rows of two consecutive instructions of one type share variables (`x_{w,i,t}`
    // is in both `TL_{w,i,t}` and `TL_{w,i+1,t}`): one term per variable, coefficients added.
    for row in &mut rows {
        merge_terms(&mut row.terms);
    }
    m.program = IntegerProgram {
        objective,
        constraints: rows,
    };
    Ok(m)
}

/// Sorts `terms` by variable and adds the coefficients of repeated variables.
fn merge_terms(terms: &mut Vec<(usize, f64)>) {
    terms.sort_by_key(|&(v, _)| v);
    let mut merged: Vec<(usize, f64)> = Vec::with_capacity(terms.len());
    for &(v, c) in terms.iter() {
        match merged.last_mut() {
            Some((last, sum)) if *last == v => *sum += c,
            _ => merged.push((v, c)),
        }
    }
    merged.retain(|&(_, c)| c != 0.0);
    *terms = merged;
}

/// The linear expression `TL_{w,i,t}` (or `TC`) of §5.4 for instruction `i` of warp `w` at
/// cycle `t`: executed `i−1` at or after `t`, or executed `i` at or before `t`.
fn tl_terms(m: &IlpModel, w: usize, i: usize, tt: u64) -> Vec<(usize, f64)> {
    let mut terms = Vec::new();
    if i > 0 {
        let (lo, hi) = m.window(i - 1);
        for t2 in tt.max(lo)..=hi {
            terms.push((m.x(w, i - 1, t2), 1.0));
        }
    }
    let (lo, hi) = m.window(i);
    for t2 in lo..=tt.min(hi) {
        terms.push((m.x(w, i, t2), 1.0));
    }
    terms
}

/// Which branch and bound solves the ILP of Fig. 3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IlpSolver {
    /// `ipet::binary`: the default. Propagation of every row at every node (the
    /// set-partitioning rows of Eq. 17 read as exactly-one choices, so the time-weighted
    /// precedence and work-conserving rows propagate), branching cycle by cycle (`E_t`,
    /// `G_t`, then each warp's `x`), a cache of solved residual programs, and the LP
    /// relaxation (`microlp`) as the root bound. Proves every instance up to 4 warps and 6
    /// instructions in milliseconds.
    Propagation,
    /// `ipet::branch_and_bound`: an LP (`microlp`) at every node, branching on the most
    /// fractional variable. The textbook method; its bound stays at the horizon until most of
    /// the schedule is fixed, so it is only practical for a few warps and instructions
    /// (Fig. 2's setting takes about 5,500 nodes and seconds).
    LpBranchAndBound,
}

/// What solving the ILP took.
#[derive(Debug, Clone, PartialEq)]
pub struct IlpStats {
    /// The solver used.
    pub solver: IlpSolver,
    /// Branch-and-bound nodes (propagations or LP solves).
    pub nodes: usize,
    /// Nodes answered by the residual-program cache ([`IlpSolver::Propagation`] only).
    pub cache_hits: usize,
    /// The LP relaxation's optimum at the root: the bound the paper's solver starts from.
    pub lp_bound: Option<f64>,
    /// Binary variables and rows of the model.
    pub variables: usize,
    /// Rows of the model.
    pub constraints: usize,
}

/// The exact worst-case makespan by the paper's binary ILP (Fig. 3) — method (a) — with a
/// witness schedule read from the optimal solution, solved by [`IlpSolver::Propagation`].
///
/// `warps = 0` or an empty string: makespan 0 and an empty schedule.
///
/// # Errors
/// As [`solve_ilp`].
pub fn exact_ilp(
    t: &Transformed,
    warps: u32,
    variant: IlpVariant,
    budget: &Budget,
) -> Result<Schedule, Error> {
    solve_ilp(t, warps, variant, IlpSolver::Propagation, budget).map(|(s, _)| s)
}

/// The exact worst-case makespan by the ILP of Fig. 3 with the chosen solver, the witness
/// schedule and the solver's statistics.
///
/// [`crate::exact`] gives the same value by a different route (a memoised search over
/// multisets of warp progress, never looking at the ILP); the tests compare the two on every
/// instance up to 4 warps and 6 transformed instructions.
///
/// `warps = 0` or an empty string: makespan 0, an empty schedule and zero statistics.
///
/// # Errors
/// [`Error::Budget`] with `max_ilp_variables` when the model is too large, or with
/// `max_bb_nodes` ([`IlpSolver::Propagation`]; its cache holds at most one entry per node, so
/// the same field bounds its memory) or `max_lp_solves` ([`IlpSolver::LpBranchAndBound`])
/// when the branch and bound did not finish within the budget; [`Error::Invalid`] for a zero sigma, or if the solver reports the
/// model infeasible or malformed (which would be a bug).
pub fn solve_ilp(
    t: &Transformed,
    warps: u32,
    variant: IlpVariant,
    solver: IlpSolver,
    budget: &Budget,
) -> Result<(Schedule, IlpStats), Error> {
    solve_ilp_observed(t, warps, variant, solver, budget, &isa::progress::silent)
}

/// [`solve_ilp`], telling `observer` how the propagating branch and bound goes
/// ([`isa::Task::BinaryBranchAndBound`]: nodes of `max_bb_nodes`, the longest schedule found
/// so far — the objective is the last warp's completion cycle, Eq. 13 — and the root LP's
/// cap). The LP branch and bound of tiny instances reports nothing. The result does not
/// depend on the observer.
///
/// # Errors
/// As [`solve_ilp`].
pub fn solve_ilp_observed(
    t: &Transformed,
    warps: u32,
    variant: IlpVariant,
    solver: IlpSolver,
    budget: &Budget,
    observer: isa::Observer,
) -> Result<(Schedule, IlpStats), Error> {
    check(t)?;
    let mut stats = IlpStats {
        solver,
        nodes: 0,
        cache_hits: 0,
        lp_bound: None,
        variables: 0,
        constraints: 0,
    };
    if warps == 0 || t.instrs.is_empty() {
        return Ok((Schedule::empty(), stats));
    }
    let m = build_ilp(t, warps, variant, budget)?;
    stats.variables = m.program.objective.len();
    stats.constraints = m.program.constraints.len();
    let exceeded = |what: &str, limit: usize| Error::Budget {
        what: what.into(),
        limit,
    };
    let values: Vec<f64> = match solver {
        IlpSolver::Propagation => {
            let limits = BinaryLimits {
                max_nodes: budget.max_bb_nodes,
                max_cache_entries: budget.max_bb_nodes,
                root_lp: true,
            };
            let out = maximize_binary_observed(&m.program, &m.branching_order(), &limits, observer)
                .map_err(|e| match e {
                    BinaryError::Budget { .. } => exceeded("max_bb_nodes", budget.max_bb_nodes),
                    BinaryError::Infeasible => Error::Invalid(
                        "internal: the ILP of Fig. 3 is infeasible (the horizon is too short?)"
                            .into(),
                    ),
                    BinaryError::Invalid(msg) => {
                        Error::Invalid(format!("internal: malformed ILP: {msg}"))
                    }
                    BinaryError::Lp(e) => Error::Invalid(format!("internal: {e}")),
                })?;
            stats.nodes = out.nodes;
            stats.cache_hits = out.cache_hits;
            stats.lp_bound = out.lp_bound;
            out.values.iter().map(|&b| f64::from(u8::from(b))).collect()
        }
        IlpSolver::LpBranchAndBound => {
            let out = maximize(&m.program, budget.max_lp_solves).map_err(|e| match e {
                BbError::Infeasible => Error::Invalid(
                    "internal: the ILP of Fig. 3 is infeasible (the horizon is too short?)".into(),
                ),
                BbError::Unbounded => {
                    Error::Invalid("internal: the ILP of Fig. 3 is unbounded".into())
                }
                BbError::Invalid(msg) => Error::Invalid(format!("internal: malformed ILP: {msg}")),
                BbError::Lp(e) => Error::Invalid(format!("internal: {e}")),
                e @ BbError::PartTooLarge { .. } => Error::Invalid(format!("internal: {e}")),
            })?;
            stats.nodes = out.nodes;
            stats.lp_bound = Some(out.lp_bound);
            if !out.complete {
                return Err(exceeded("max_lp_solves", budget.max_lp_solves));
            }
            out.values
                .ok_or_else(|| Error::Invalid("internal: no ILP solution".into()))?
        }
    };
    Ok((read_schedule(t, &m, &values)?, stats))
}

impl IlpModel {
    /// The branching order for [`IlpSolver::Propagation`]: cycle by cycle, first whether
    /// each unit type is saturated (`E_t`, `G_t`; saturated first), then each warp's
    /// execution variables of that cycle (the other warps run first and warp `W − 1`, the one
    /// the objective measures, waits first — the order that finds a long schedule early).
    /// After a cycle is decided, propagation has fixed everything the past implies, so the
    /// residual program depends only on every warp's progress and the cycle: the cache key
    /// recurs as often as progress states do.
    pub fn branching_order(&self) -> Vec<(usize, bool)> {
        let mut order = Vec::with_capacity(self.program.objective.len());
        for tt in 1..=self.horizon {
            for base in [self.e_base, self.g_base].into_iter().flatten() {
                order.push((base + (tt - 1) as usize, true));
            }
            for w in 0..self.warps as usize {
                for i in 0..self.instrs {
                    let (lo, hi) = self.window(i);
                    if (lo..=hi).contains(&tt) {
                        order.push((self.x(w, i, tt), w + 1 != self.warps as usize));
                    }
                }
            }
        }
        order
    }
}

/// Reads the schedule out of a 0/1 solution of the model.
fn read_schedule(t: &Transformed, m: &IlpModel, values: &[f64]) -> Result<Schedule, Error> {
    let mut slots = Vec::with_capacity(m.warps as usize * m.instrs);
    for w in 0..m.warps as usize {
        for i in 0..m.instrs {
            let (lo, hi) = m.window(i);
            let cycle = (lo..=hi)
                .find(|&tt| values.get(m.x(w, i, tt)).is_some_and(|&v| v > 0.5))
                .ok_or_else(|| {
                    Error::Invalid(format!(
                        "internal: warp {w} never executes instruction {i} in the ILP solution"
                    ))
                })?;
            slots.push(Slot {
                cycle,
                unit: t.instrs[i],
                lane: 0,
                warp: w as u32,
                instr: i,
            });
        }
    }
    // Lanes: per (cycle, unit), in warp order.
    slots.sort_by_key(|s| (s.cycle, s.unit == LcOp::C, s.warp));
    let mut prev: Option<(u64, LcOp)> = None;
    let mut lane = 0u32;
    for s in &mut slots {
        if prev == Some((s.cycle, s.unit)) {
            lane += 1;
        } else {
            lane = 0;
            prev = Some((s.cycle, s.unit));
        }
        s.lane = lane;
    }
    let makespan = slots.iter().map(|s| s.cycle).max().unwrap_or(0);
    Ok(Schedule { makespan, slots })
}
