//! The LP seam: the only module of the workspace that calls the LP solver (`microlp`).
//!
//! What it *is*: a maximisation LP over real variables with finite lower bounds, built
//! row by row ([`Lp`]), solved once ([`Lp::solve`]), and then restricted by one more
//! row at a time from a solved optimum ([`Optimum::restrict`], the solver's warm start:
//! the child keeps its parent's basis and re-optimises by dual simplex). Both branch and
//! bounds of this crate go through it: [`crate::branch_and_bound`] (an LP at every node)
//! and [`crate::binary`] (the root relaxation).
//!
//! Every answer of the solver becomes plain data of ours before it leaves this module:
//! an optimum, [`LpAnswer::Infeasible`] or [`LpAnswer::Unbounded`] (answers about the LP,
//! which callers expect), or an [`LpError`] (the solver *failed*: a numerical breakdown,
//! an input it refused, a stop without a proven optimum, or values that do not pass our
//! own check). No solver type, error or panic crosses the seam: the solver's panicking
//! calls (a variable repeated within a row, a variable index out of range) are never
//! made, because rows are merged and checked here first, and values are read by
//! iterating the solution, never by indexing it.
//!
//! What it is *not*: no integer variables (the solver's own MIP is not used: our branch
//! and bounds are deterministic and exact on top of this LP), no time or node limits (a
//! limit would make the answer depend on the machine; results must be the same byte for
//! byte natively and in wasm), and no numerical settings other than the solver's tightest
//! feasibility tolerance ([`FEASIBILITY_TOL`]) and the loose check of [`CHECK_TOL`].

use std::rc::Rc;

use microlp::{
    ComparisonOp, OptimizationDirection, Problem, SolutionStatus, SolveOptions, SolveOutcome,
};

use crate::branch_and_bound::Relation;

/// The solver's feasibility tolerance: the smallest it accepts (its default is `1e-7`),
/// kept by every restriction of the solution.
///
/// Why: in an IPET program a loop row multiplies the flow entering a loop by its bound, so
/// along a chain of loops a row violated by `ε` lets a count grow by `ε·N^depth`. At the
/// default tolerance the solver's optimum uses that slack: on the regression program of
/// `tests/lp_regressions.rs`, whose only feasible point is 0, it reports an optimum of 7.98.
/// The integer answers stay exact (branch and bound only trusts integral points, and the
/// IPET counts are checked exactly), but fractional LP optima turn into hundreds of branch
/// and bound nodes: on the modern SASS corpus in warp-cfg mode, four kernels became 20 to
/// over 100 times slower, and of the 21 (kernel, flag) pairs on which `minilp` used to
/// abort only 1 was solved. At `1e-10` the corpus's LP bounds and WCETs are the ones
/// `minilp` computed, and 11 of those 21 pairs are solved.
pub const FEASIBILITY_TOL: f64 = 1e-10;

/// Relative tolerance of our own check of an optimum against the rows and bounds. The
/// solver promises [`FEASIBILITY_TOL`] absolute; this check is only meant to catch garbage
/// (a point computed from a singular basis), so it is far looser.
pub const CHECK_TOL: f64 = 1e-6;

/// Why the LP solver gave no answer. An LP that is infeasible or unbounded is *not* an
/// error (see [`LpAnswer`]); these are failures of the solver or of our use of it, which
/// callers report as a diagnostic ("LP solver failed: …") instead of a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LpError {
    /// The LP was refused as malformed, by our check before the solver (a variable index
    /// out of range, a non-finite number) or by the solver itself (`InvalidOperation`,
    /// `InvalidOptions`). A defect in the caller that built the LP.
    Rejected(String),
    /// The solver hit a numerical failure it could not recover from (`InternalError`):
    /// nearly dependent rows, a singular basis, or coefficients too far apart.
    Numerical(String),
    /// The solver stopped without a proven optimum although no limit was set (an
    /// `Interrupted` outcome or a solution only known to be feasible).
    Unfinished,
    /// The solver returned an optimum that fails our own check: a non-finite value or
    /// objective, or a row or bound violated by more than [`CHECK_TOL`] (relative).
    Unverified(String),
    /// An error of a kind this crate does not know (the solver's error type may grow).
    Other(String),
}

impl std::fmt::Display for LpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LP solver failed: ")?;
        match self {
            LpError::Rejected(m) => write!(f, "it refused the LP as malformed ({m})"),
            LpError::Numerical(m) => write!(f, "numerical trouble ({m})"),
            LpError::Unfinished => {
                f.write_str("it stopped without a proven optimum although no limit was set")
            }
            LpError::Unverified(m) => write!(f, "its optimum does not check out ({m})"),
            LpError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for LpError {}

/// What a solved LP is: an optimum, or one of the two answers that have none.
#[derive(Clone, Debug)]
pub enum LpAnswer {
    /// An optimal vertex, checked against the rows and bounds.
    Optimal(Optimum),
    /// No point satisfies the rows and bounds.
    Infeasible,
    /// The objective grows without limit over the feasible points.
    Unbounded,
}

/// One row `Σ coeff·x[var]  (relation)  rhs`, variables distinct and in range, no zero
/// coefficient.
#[derive(Clone, Debug)]
struct Row {
    terms: Vec<(usize, f64)>,
    relation: Relation,
    rhs: f64,
}

/// What an [`Optimum`] is checked against: the variables' bounds and objective and the
/// rows of the [`Lp`] it came from, shared by all its restrictions.
#[derive(Debug)]
struct Model {
    /// The solver's handle of each of our variables, by index.
    vars: Vec<microlp::Variable>,
    objective: Vec<f64>,
    bounds: Vec<(f64, f64)>,
    rows: Vec<Row>,
}

/// A maximisation LP being built. Variables are numbered from 0 in the order they are
/// added.
#[derive(Debug)]
pub struct Lp {
    problem: Problem,
    model: Model,
    /// A row without terms that no point satisfies (`0 <= -1`): the LP is infeasible
    /// whatever the solver says, and the solver is not asked.
    empty_row_violated: bool,
    /// Calls of [`Lp::add_row`] so far, to name a refused row as the caller numbers it.
    rows_given: usize,
}

impl Default for Lp {
    fn default() -> Self {
        Self::new()
    }
}

impl Lp {
    /// An empty maximisation LP.
    pub fn new() -> Lp {
        Lp {
            problem: Problem::new(OptimizationDirection::Maximize),
            model: Model {
                vars: Vec::new(),
                objective: Vec::new(),
                bounds: Vec::new(),
                rows: Vec::new(),
            },
            empty_row_violated: false,
            rows_given: 0,
        }
    }

    /// Number of variables added so far.
    pub fn num_vars(&self) -> usize {
        self.model.vars.len()
    }

    /// Adds a variable `lower <= x <= upper` with objective coefficient `objective` and
    /// returns its index. `upper` may be `f64::INFINITY`.
    ///
    /// # Errors
    /// [`LpError::Rejected`] for a non-finite objective or lower bound, a NaN upper bound
    /// or `upper < lower` (the solver would refuse them at the solve; refusing here names
    /// the variable).
    pub fn add_var(&mut self, objective: f64, lower: f64, upper: f64) -> Result<usize, LpError> {
        let index = self.model.vars.len();
        if !objective.is_finite() || !lower.is_finite() || upper.is_nan() || upper < lower {
            return Err(LpError::Rejected(format!(
                "variable {index} has objective {objective} and bounds [{lower}, {upper}]"
            )));
        }
        let var = self.problem.add_var(objective, (lower, upper));
        self.model.vars.push(var);
        self.model.objective.push(objective);
        self.model.bounds.push((lower, upper));
        Ok(index)
    }

    /// Adds the row `Σ coeff·x[var]  (relation)  rhs`. A variable repeated in `terms` has
    /// its coefficients summed, zero coefficients are dropped, and a row left without
    /// terms is decided here (`0 relation rhs`) instead of being handed to the solver.
    ///
    /// # Errors
    /// [`LpError::Rejected`] for a variable index out of range or a non-finite number.
    pub fn add_row(
        &mut self,
        terms: &[(usize, f64)],
        relation: Relation,
        rhs: f64,
    ) -> Result<(), LpError> {
        let row = self.rows_given;
        self.rows_given += 1;
        let terms = merge_terms(terms, self.model.vars.len())
            .map_err(|m| LpError::Rejected(format!("row {row}: {m}")))?;
        if !rhs.is_finite() {
            return Err(LpError::Rejected(format!(
                "row {row} has right-hand side {rhs}"
            )));
        }
        if terms.is_empty() {
            if !holds(0.0, relation, rhs, 0.0) {
                self.empty_row_violated = true;
            }
            return Ok(());
        }
        // `merge_terms` made the variables distinct and in range: the solver's
        // `add_constraint` panics otherwise.
        let vars = &self.model.vars;
        self.problem.add_constraint(
            terms
                .iter()
                .filter_map(|&(v, c)| vars.get(v).map(|&var| (var, c)))
                .collect::<Vec<_>>(),
            op(relation),
            rhs,
        );
        self.model.rows.push(Row {
            terms,
            relation,
            rhs,
        });
        Ok(())
    }

    /// Solves the LP from scratch (presolve on, no limit, feasibility tolerance
    /// [`FEASIBILITY_TOL`]).
    ///
    /// # Errors
    /// An [`LpError`] when the solver fails; infeasible and unbounded LPs are answers.
    pub fn solve(self) -> Result<LpAnswer, LpError> {
        if self.empty_row_violated {
            return Ok(LpAnswer::Infeasible);
        }
        let model = Rc::new(self.model);
        let mut options = SolveOptions::default();
        options.tolerances.feasibility = FEASIBILITY_TOL;
        let outcome = self.problem.solve_with(options);
        answer(outcome, &model, &[])
    }
}

/// A solved LP at its optimum: its objective and values, and what is needed to restrict
/// it further with a warm start.
#[derive(Clone, Debug)]
pub struct Optimum {
    solution: microlp::Solution,
    model: Rc<Model>,
    /// Rows added by [`Optimum::restrict`] since the root, for our check.
    added: Vec<Row>,
    values: Vec<f64>,
    objective: f64,
}

impl Optimum {
    /// The optimal objective value.
    pub fn objective(&self) -> f64 {
        self.objective
    }

    /// The value of every variable at the optimum, by index.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The LP restricted by one more row `x[var] (relation) rhs`, re-optimised from this
    /// optimum's basis (dual simplex), which is what makes LP branch and bound cheap.
    ///
    /// # Errors
    /// [`LpError::Rejected`] for `var` out of range or a non-finite `rhs`, or any failure
    /// of the solver. The restricted LP being infeasible is an answer, not an error.
    pub fn restrict(self, var: usize, relation: Relation, rhs: f64) -> Result<LpAnswer, LpError> {
        let n = self.model.vars.len();
        // An index in range and a single term: the solver's edit refuses (without
        // panicking) a variable out of range or repeated, but we never hand it one.
        let (Some(&variable), true) = (self.model.vars.get(var), rhs.is_finite()) else {
            return Err(LpError::Rejected(format!(
                "a restriction x[{var}] {relation:?} {rhs} of an LP with {n} variables"
            )));
        };
        let outcome = self
            .solution
            .add_constraint([(variable, 1.0)], op(relation), rhs);
        let mut added = self.added;
        added.push(Row {
            terms: vec![(var, 1.0)],
            relation,
            rhs,
        });
        answer(outcome, &self.model, &added)
    }
}

/// Turns whatever the solver returned into our answer or error, checking an optimum.
fn answer(
    outcome: Result<SolveOutcome, microlp::Error>,
    model: &Rc<Model>,
    added: &[Row],
) -> Result<LpAnswer, LpError> {
    let solution = match outcome {
        Ok(SolveOutcome::Solution(s)) => s,
        Ok(SolveOutcome::Interrupted(_)) => return Err(LpError::Unfinished),
        Err(microlp::Error::Infeasible) => return Ok(LpAnswer::Infeasible),
        Err(microlp::Error::Unbounded) => return Ok(LpAnswer::Unbounded),
        Err(microlp::Error::InternalError(m)) => return Err(LpError::Numerical(m)),
        Err(microlp::Error::InvalidOperation(m) | microlp::Error::InvalidOptions(m)) => {
            return Err(LpError::Rejected(m))
        }
        Err(other) => return Err(LpError::Other(other.to_string())),
    };
    if solution.status() != SolutionStatus::Optimal {
        return Err(LpError::Unfinished);
    }
    let values: Vec<f64> = solution.iter().map(|(_, x)| x).collect();
    let objective = solution.objective();
    check(model, added, &values, objective).map_err(LpError::Unverified)?;
    Ok(LpAnswer::Optimal(Optimum {
        solution,
        model: Rc::clone(model),
        added: added.to_vec(),
        values,
        objective,
    }))
}

/// Our own check of an optimum: as many finite values as variables, within their bounds
/// and satisfying every row up to [`CHECK_TOL`] relative to the row's magnitude, and a
/// finite objective that matches the values.
fn check(model: &Model, added: &[Row], values: &[f64], objective: f64) -> Result<(), String> {
    if values.len() != model.bounds.len() {
        return Err(format!(
            "{} values for {} variables",
            values.len(),
            model.bounds.len()
        ));
    }
    if let Some((v, x)) = values.iter().enumerate().find(|(_, x)| !x.is_finite()) {
        return Err(format!("variable {v} has value {x}"));
    }
    for (v, (&x, &(lo, hi))) in values.iter().zip(&model.bounds).enumerate() {
        let slack = CHECK_TOL * (1.0 + x.abs());
        if x < lo - slack || x > hi + slack {
            return Err(format!("variable {v} = {x} is outside [{lo}, {hi}]"));
        }
    }
    for (r, row) in model.rows.iter().chain(added).enumerate() {
        let mut lhs = 0.0;
        let mut scale = row.rhs.abs();
        for &(v, c) in &row.terms {
            let term = c * values.get(v).copied().unwrap_or(f64::NAN);
            lhs += term;
            scale += term.abs();
        }
        if !holds(lhs, row.relation, row.rhs, CHECK_TOL * (1.0 + scale)) {
            return Err(format!(
                "row {r}: {lhs} {:?} {} is violated",
                row.relation, row.rhs
            ));
        }
    }
    let mut recomputed = 0.0;
    let mut scale = 0.0;
    for (&c, &x) in model.objective.iter().zip(values) {
        recomputed += c * x;
        scale += (c * x).abs();
    }
    if !objective.is_finite() || (objective - recomputed).abs() > CHECK_TOL * (1.0 + scale) {
        return Err(format!(
            "objective {objective}, but the values give {recomputed}"
        ));
    }
    Ok(())
}

/// Whether `lhs (relation) rhs` holds up to `tol`. False for NaN.
fn holds(lhs: f64, relation: Relation, rhs: f64, tol: f64) -> bool {
    match relation {
        Relation::Le => lhs <= rhs + tol,
        Relation::Ge => lhs >= rhs - tol,
        Relation::Eq => (lhs - rhs).abs() <= tol,
    }
}

/// Sums repeated variables, drops zero coefficients and sorts by variable.
///
/// A sum that cancels is zero, not the rounding noise of the addition: `-0.03 + 0.01 +
/// 0.02` is `3.5e-18` in floating point, and handing the solver the row `3.5e-18·x <= 0`
/// would forbid every positive `x` that the caller's row (`0·x <= 0`) allows. A sum within
/// [`CANCELLATION`] of the magnitude of its parts is therefore dropped; terms given once
/// keep their value exactly.
pub(crate) fn merge_terms(terms: &[(usize, f64)], n: usize) -> Result<Vec<(usize, f64)>, String> {
    // Per variable: the sum and the sum of the parts' magnitudes.
    let mut merged: std::collections::BTreeMap<usize, (f64, f64)> = Default::default();
    for &(v, c) in terms {
        if v >= n || !c.is_finite() {
            return Err(format!("term ({v}, {c}) with {n} variables"));
        }
        let e = merged.entry(v).or_insert((0.0, 0.0));
        e.0 += c;
        e.1 += c.abs();
    }
    if let Some((v, (c, _))) = merged
        .iter()
        .find(|(_, (c, m))| !c.is_finite() || !m.is_finite())
    {
        return Err(format!("the coefficients of variable {v} sum to {c}"));
    }
    Ok(merged
        .into_iter()
        .filter(|&(_, (c, m))| c.abs() > CANCELLATION * m)
        .map(|(v, (c, _))| (v, c))
        .collect())
}

/// Relative size below which a sum of a variable's coefficients is cancellation noise:
/// far above the rounding error of adding a row's few terms (a few `f64::EPSILON`s of
/// their magnitude), far below the six orders of magnitude the solver is asked to span.
const CANCELLATION: f64 = 1e-12;

fn op(relation: Relation) -> ComparisonOp {
    match relation {
        Relation::Le => ComparisonOp::Le,
        Relation::Ge => ComparisonOp::Ge,
        Relation::Eq => ComparisonOp::Eq,
    }
}
