//! A small, deterministic branch-and-bound for pure integer programs, on top of the LP
//! seam [`crate::lp`] (the `microlp` solver).
//!
//! IPET problems are flow problems whose LP relaxation is *usually* integral, but loop
//! constraints of the form `count(h) <= N * entries` break total unimodularity, so a
//! fractional optimum is possible (multi-entry irreducible regions produce them easily).
//! This module then searches for the integer optimum:
//!
//! * **Search order**: depth first. At each node the variable whose LP value is the most
//!   fractional (ties: lowest index) is branched on; the child whose side is nearer to that
//!   value (`x >= ceil` when the fraction is at least 0.5, else `x <= floor`) is explored
//!   first. Children are warm-started from their parent's optimal basis (dual simplex
//!   inside the LP solver, [`crate::lp::Optimum::restrict`]). No limits on the LP, no
//!   hashing: the search is fully deterministic.
//! * **Failures**: an LP the solver cannot solve (numerical breakdown) ends the search
//!   with [`BbError::Lp`]; it is never taken for an infeasible or pruned node, since that
//!   would silently drop part of the search space.
//! * **Pruning**: a node is dropped when its LP bound cannot beat the incumbent. When every
//!   objective coefficient is an integer, an integer solution's objective is an integer, so
//!   a node is dropped as soon as `floor(bound + tol) <= incumbent`.
//! * **Tolerances**: an LP value `v` counts as integral when it is within
//!   `1e-6 + 1e-12 * |v|` of an integer; integral values are rounded before being returned,
//!   and the incumbent objective is recomputed from the rounded values.
//! * **Decomposition**: variables that never share a constraint (directly or through
//!   other variables) form independent blocks; each block is solved on its own, in order of
//!   its smallest variable index, and the optima add up. IPET problems split this way at
//!   every node that each execution passes exactly once, which keeps the LPs small
//!   (simplex time grows much faster than linearly with the LP size).
//! * **Single-variable blocks** need no LP: every constraint is a bound on the variable,
//!   and the optimum is an end of the resulting interval.
//! * **Budget**: at most `max_nodes` *branching* LP solves in total, shared by the blocks
//!   in order; a solve on a block larger than 256 variables and rows counts one node more per
//!   further 256, so that the budget bounds the work on large programs too (a warm-started
//!   solve on a 5 000-row block costs milliseconds). Root relaxations are not counted and are always solved (so the bound is
//!   always available), even when earlier blocks used up the budget. If the budget runs
//!   out the search stops with [`BbOutcome::complete`] `== false`; the best integer
//!   solution found so far is returned if every block has one, together with the sum of
//!   the root relaxation bounds, which remains a valid upper bound on the integer optimum.

use crate::lp::{Lp, LpAnswer, LpError, Optimum};
use isa::progress::{self, Observer, Progress, Task};

/// The relation of a linear constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// `lhs <= rhs`
    Le,
    /// `lhs >= rhs`
    Ge,
    /// `lhs == rhs`
    Eq,
}

/// One linear constraint `Σ coeff·x[var]  (relation)  rhs`.
#[derive(Clone, Debug, PartialEq)]
pub struct LinearConstraint {
    /// `(variable index, coefficient)` pairs; repeated indices are summed.
    pub terms: Vec<(usize, f64)>,
    /// How the left-hand side compares to `rhs`.
    pub relation: Relation,
    /// Right-hand side.
    pub rhs: f64,
}

/// Maximise `Σ objective[i]·x[i]` subject to `constraints`, every `x[i]` a non-negative
/// integer. Kept independent of graphs so that other analyses can reuse the search.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntegerProgram {
    /// Objective coefficient of each variable; its length is the number of variables.
    pub objective: Vec<f64>,
    /// The constraints.
    pub constraints: Vec<LinearConstraint>,
}

/// What branch-and-bound found.
#[derive(Clone, Debug, PartialEq)]
pub struct BbOutcome {
    /// Best integer solution found (values rounded to integers), `None` only when the
    /// budget ran out before one was found for every block.
    pub values: Option<Vec<f64>>,
    /// Objective of `values`, recomputed from the rounded values.
    pub objective: Option<f64>,
    /// Optimum of the LP relaxation (summed over the independent blocks): an upper bound on
    /// every integer solution.
    pub lp_bound: f64,
    /// `true` when the search finished, so `values` is optimal (up to tolerances).
    pub complete: bool,
    /// LP solves performed: one root per independent block that needed an LP, plus the
    /// branching solves (which alone count against the budget).
    pub nodes: usize,
}

/// Why branch-and-bound gave no outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BbError {
    /// No integer (or no real) point satisfies the constraints.
    Infeasible,
    /// The LP relaxation is unbounded.
    Unbounded,
    /// The program is malformed (index out of range, non-finite number).
    Invalid(String),
    /// The LP solver failed on a relaxation (see [`LpError`]).
    Lp(LpError),
    /// An independent block is larger than [`maximize_within`]'s limit (variables plus
    /// constraints); nothing was solved.
    PartTooLarge { size: usize, limit: usize },
}

impl std::fmt::Display for BbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BbError::Infeasible => f.write_str("the integer program is infeasible"),
            BbError::Unbounded => f.write_str("the LP relaxation is unbounded"),
            BbError::Invalid(m) => write!(f, "invalid integer program: {m}"),
            BbError::Lp(e) => e.fmt(f),
            BbError::PartTooLarge { size, limit } => write!(
                f,
                "an independent part of the program has {size} variables and constraints, over the limit of {limit}"
            ),
        }
    }
}

impl std::error::Error for BbError {}

/// Absolute part of the integrality / comparison tolerance.
const ABS_TOL: f64 = 1e-6;
/// Relative part of the integrality / comparison tolerance.
const REL_TOL: f64 = 1e-12;

fn tol(v: f64) -> f64 {
    ABS_TOL + REL_TOL * v.abs()
}

/// Whether `v` is an integer up to the tolerance.
pub fn is_integral(v: f64) -> bool {
    (v - v.round()).abs() <= tol(v)
}

/// A pending subproblem: the parent's solved LP plus one extra bound on one variable.
struct Pending {
    parent: std::rc::Rc<Optimum>,
    parent_bound: f64,
    var: usize,
    relation: Relation,
    rhs: f64,
}

/// Solves `program` to integer optimality by depth-first branch-and-bound, performing at
/// most `max_nodes` branching LP solves (beyond one root solve per independent block, which
/// always runs and is not counted). See the module docs for the search order, pruning, decomposition and budget
/// behaviour.
///
/// # Errors
/// [`BbError::Infeasible`] when the relaxation is infeasible or the (complete) search finds
/// no integer point, [`BbError::Unbounded`] when the relaxation is unbounded,
/// [`BbError::Invalid`] for a malformed program, [`BbError::Lp`] when the LP solver fails.
pub fn maximize(program: &IntegerProgram, max_nodes: usize) -> Result<BbOutcome, BbError> {
    maximize_within(program, max_nodes, usize::MAX)
}

/// [`maximize`], refusing before any LP is solved when an independent block has more than
/// `max_part` variables plus constraints ([`BbError::PartTooLarge`]): an LP solve cannot be
/// interrupted, so its size is the only deterministic limit on its time.
///
/// # Errors
/// As [`maximize`], and [`BbError::PartTooLarge`].
pub fn maximize_within(
    program: &IntegerProgram,
    max_nodes: usize,
    max_part: usize,
) -> Result<BbOutcome, BbError> {
    maximize_observed(program, max_nodes, max_part, &progress::silent)
}

/// [`maximize_within`], telling `observer` after every branching LP solve how many budget
/// units are spent (of `max_nodes`) and, when every objective coefficient is non-negative
/// (so a part not yet searched can only add), the best integer objective known so far: the
/// optima of the parts already searched plus the incumbent of the part being searched, a
/// lower bound on the optimum that rises to it ([`Task::IpetBranchAndBound`]). The result does
/// not depend on the observer.
///
/// # Errors
/// As [`maximize_within`].
pub fn maximize_observed(
    program: &IntegerProgram,
    max_nodes: usize,
    max_part: usize,
    observer: Observer,
) -> Result<BbOutcome, BbError> {
    let n = program.objective.len();
    if let Some(c) = program.objective.iter().find(|c| !c.is_finite()) {
        return Err(BbError::Invalid(format!("objective coefficient {c}")));
    }
    let rows = normalise(program)?;

    // Independent blocks: variables linked by sharing a constraint.
    let mut uf = UnionFind::new(n);
    for row in &rows {
        for pair in row.terms.windows(2) {
            uf.union(pair[0].0, pair[1].0);
        }
    }
    let mut constrained = vec![false; n];
    for row in &rows {
        for &(v, _) in &row.terms {
            constrained[v] = true;
        }
    }
    let mut block_of_root = vec![usize::MAX; n];
    let mut blocks: Vec<Block> = Vec::new();
    for (v, (&used, &c)) in constrained.iter().zip(&program.objective).enumerate() {
        if !used {
            // A free variable: 0 is optimal unless it improves the objective forever.
            if c > 0.0 {
                return Err(BbError::Unbounded);
            }
            continue;
        }
        let r = uf.find(v);
        if block_of_root[r] == usize::MAX {
            block_of_root[r] = blocks.len();
            blocks.push(Block::default());
        }
        blocks[block_of_root[r]].vars.push(v);
    }
    for (i, row) in rows.iter().enumerate() {
        if let Some(&(v, _)) = row.terms.first() {
            blocks[block_of_root[uf.find(v)]].rows.push(i);
        }
    }

    if let Some(size) = blocks
        .iter()
        .map(|b| b.vars.len() + b.rows.len())
        .filter(|&size| size > max_part)
        .max()
    {
        return Err(BbError::PartTooLarge {
            size,
            limit: max_part,
        });
    }
    let integral_objective = program.objective.iter().all(|c| c.fract() == 0.0);
    let mut values = vec![0.0; n];
    let mut found_all = true;
    let mut lp_bound = 0.0;
    let mut complete = true;
    let mut nodes = 0usize;
    let mut children = 0usize;
    // The parts searched so far add up to a lower bound only when no part can subtract.
    let mut found_sum = program.objective.iter().all(|&c| c >= 0.0).then_some(0.0);
    for block in &blocks {
        let budget = max_nodes.saturating_sub(children);
        let report = Reporter {
            observer,
            spent_before: children,
            max_nodes,
            found_before: found_sum,
        };
        let out = solve_block(program, &rows, block, budget, integral_objective, &report)?;
        nodes += out.nodes;
        children += out.children;
        lp_bound += out.lp_bound;
        complete &= out.complete;
        match out.values {
            Some(local) => {
                let objective: f64 = block
                    .vars
                    .iter()
                    .zip(&local)
                    .map(|(&v, x)| x * program.objective[v])
                    .sum();
                found_sum = found_sum.map(|s| s + objective);
                for (&v, x) in block.vars.iter().zip(local) {
                    values[v] = x;
                }
            }
            None => {
                found_all = false;
                found_sum = None;
            }
        }
    }
    let lp_bound = lp_bound + 0.0; // normalise -0.0
    if !found_all {
        return Ok(BbOutcome {
            values: None,
            objective: None,
            lp_bound,
            complete: false,
            nodes,
        });
    }
    // `+ 0.0` turns the -0.0 of an empty sum into 0.0.
    let objective = values
        .iter()
        .zip(&program.objective)
        .map(|(x, c)| x * c)
        .sum::<f64>()
        + 0.0;
    Ok(BbOutcome {
        values: Some(values),
        objective: Some(objective),
        lp_bound,
        complete,
        nodes,
    })
}

/// A constraint after validation: repeated variables merged, zero coefficients dropped.
struct Row {
    terms: Vec<(usize, f64)>,
    relation: Relation,
    rhs: f64,
}

/// Validates and normalises the constraints. Constraints without terms are checked
/// (`0 relation rhs`) and dropped.
fn normalise(program: &IntegerProgram) -> Result<Vec<Row>, BbError> {
    let n = program.objective.len();
    let mut rows = Vec::with_capacity(program.constraints.len());
    for (i, con) in program.constraints.iter().enumerate() {
        if !con.rhs.is_finite() {
            return Err(BbError::Invalid(format!(
                "constraint {i} has rhs {}",
                con.rhs
            )));
        }
        // Merged here (the LP seam merges too, the same way) so that blocks and
        // single-variable rows see one coefficient per variable.
        let terms = crate::lp::merge_terms(&con.terms, n)
            .map_err(|m| BbError::Invalid(format!("constraint {i}: {m}")))?;
        if terms.is_empty() {
            let holds = match con.relation {
                Relation::Le => 0.0 <= con.rhs,
                Relation::Ge => 0.0 >= con.rhs,
                Relation::Eq => con.rhs == 0.0,
            };
            if holds {
                continue;
            }
            return Err(BbError::Infeasible);
        }
        rows.push(Row {
            terms,
            relation: con.relation,
            rhs: con.rhs,
        });
    }
    Ok(rows)
}

/// Variables and constraint rows of one independent block, ascending.
#[derive(Default)]
struct Block {
    vars: Vec<usize>,
    rows: Vec<usize>,
}

/// Variables and rows of a part that make one unit of the branching budget: a branching LP
/// solve costs one unit per started `NODE_SIZE_UNIT` of its part's size. Parts up to this size
/// — every paper example and most real kernels' — cost one unit per solve.
const NODE_SIZE_UNIT: usize = 256;

/// What one block's search produced (values indexed like `Block::vars`).
struct BlockOutcome {
    values: Option<Vec<f64>>,
    lp_bound: f64,
    complete: bool,
    nodes: usize,
    /// Budget units the LP solves beyond the root spent (0 without an LP).
    children: usize,
}

/// What [`maximize_observed`] tells its observer from inside one block's search.
struct Reporter<'a> {
    observer: Observer<'a>,
    /// Budget units the blocks before this one spent.
    spent_before: usize,
    max_nodes: usize,
    /// The optima of the blocks before this one, when they add up to a lower bound.
    found_before: Option<f64>,
}

impl Reporter<'_> {
    fn report(&self, spent: usize, incumbent: Option<f64>) {
        let best = self
            .found_before
            .zip(incumbent)
            .map(|(before, inc)| (before + inc + tol(before + inc)).floor().max(0.0) as u64);
        (self.observer)(&Progress {
            task: Task::IpetBranchAndBound,
            done: self.spent_before.saturating_add(spent) as u64,
            budget: self.max_nodes as u64,
            best_bound: best,
            upper_bound: None,
        });
    }
}

/// Branch-and-bound on one block: its root LP always runs, then at most `max_children`
/// further LP solves.
fn solve_block(
    program: &IntegerProgram,
    rows: &[Row],
    block: &Block,
    max_children: usize,
    integral_objective: bool,
    reporter: &Reporter,
) -> Result<BlockOutcome, BbError> {
    if let [var] = block.vars[..] {
        return solve_single(program.objective[var], rows, &block.rows);
    }
    let mut lp = Lp::new();
    let mut local = std::collections::BTreeMap::new();
    let mut objective = Vec::with_capacity(block.vars.len());
    for (i, &v) in block.vars.iter().enumerate() {
        local.insert(v, i);
        let c = program.objective.get(v).copied().unwrap_or(0.0);
        objective.push(c);
        lp.add_var(c, 0.0, f64::INFINITY).map_err(BbError::Lp)?;
    }
    let mut local_rows = Vec::with_capacity(block.rows.len());
    for &r in &block.rows {
        let row = &rows[r];
        let terms: Vec<(usize, f64)> = row
            .terms
            .iter()
            .filter_map(|&(v, c)| local.get(&v).map(|&i| (i, c)))
            .collect();
        lp.add_row(&terms, row.relation, row.rhs)
            .map_err(BbError::Lp)?;
        local_rows.push(Row {
            terms,
            relation: row.relation,
            rhs: row.rhs,
        });
    }

    let root = match lp.solve().map_err(BbError::Lp)? {
        LpAnswer::Optimal(root) => root,
        LpAnswer::Infeasible => return Err(BbError::Infeasible),
        LpAnswer::Unbounded => return Err(BbError::Unbounded),
    };
    let lp_bound = root.objective();
    let mut search = Search {
        objective: &objective,
        rows: &local_rows,
        integral_objective,
        best: None,
        nodes: 1,
        stack: Vec::new(),
    };
    search.visit(root)?;
    let mut complete = true;
    // What one branching solve costs against the budget: its LP's size in units of
    // `NODE_SIZE_UNIT` variables and rows (at least one), so that the budget bounds the work
    // and not just the count — a warm-started solve of a 5 000-row part costs about twenty
    // times one of a 200-row part.
    let unit = 1 + (block.vars.len() + block.rows.len()) / NODE_SIZE_UNIT;
    let mut spent = 0usize;
    while let Some(p) = search.stack.pop() {
        if search.prunable(p.parent_bound) {
            continue;
        }
        if spent.saturating_add(unit) > max_children {
            complete = false;
            break;
        }
        spent += unit;
        search.nodes += 1;
        let parent = std::rc::Rc::try_unwrap(p.parent).unwrap_or_else(|rc| (*rc).clone());
        match parent
            .restrict(p.var, p.relation, p.rhs)
            .map_err(BbError::Lp)?
        {
            LpAnswer::Optimal(child) => search.visit(child)?,
            LpAnswer::Infeasible => {}
            // A restriction of a bounded LP cannot become unbounded; treat it as a solver
            // defect rather than silently dropping part of the search space.
            LpAnswer::Unbounded => return Err(BbError::Unbounded),
        }
        // One report per LP solve: a solve costs far more than the call.
        reporter.report(spent, search.best.as_ref().map(|(_, b)| *b));
    }
    let nodes = search.nodes;
    let children = spent;
    match search.best {
        Some((values, _)) => Ok(BlockOutcome {
            values: Some(values),
            lp_bound,
            complete,
            nodes,
            children,
        }),
        None if complete => Err(BbError::Infeasible),
        None => Ok(BlockOutcome {
            values: None,
            lp_bound,
            complete,
            nodes,
            children,
        }),
    }
}

/// A block with a single variable `x >= 0`: every row is a bound on `x`, so the optimum is
/// an end of an interval and needs no LP solve (chains of forced edges are common in IPET).
fn solve_single(
    objective: f64,
    rows: &[Row],
    block_rows: &[usize],
) -> Result<BlockOutcome, BbError> {
    let (mut lo, mut hi) = (0.0f64, f64::INFINITY);
    for &r in block_rows {
        let row = &rows[r];
        let a: f64 = row.terms.iter().map(|&(_, c)| c).sum();
        let b = row.rhs / a;
        // `a x <= rhs` is `x <= b` for a > 0 and `x >= b` for a < 0 (a is never 0 here).
        let (upper, lower) = match row.relation {
            Relation::Eq => (true, true),
            Relation::Le => (a > 0.0, a < 0.0),
            Relation::Ge => (a < 0.0, a > 0.0),
        };
        if upper {
            hi = hi.min(b);
        }
        if lower {
            lo = lo.max(b);
        }
    }
    if lo > hi + tol(hi) || lo.is_nan() || hi.is_nan() {
        return Err(BbError::Infeasible);
    }
    let lp_bound = if objective > 0.0 {
        objective * hi
    } else {
        objective * lo
    };
    if !lp_bound.is_finite() {
        return Err(BbError::Unbounded);
    }
    // Integer end points, tolerating values a hair off an integer.
    let int_lo = if is_integral(lo) {
        lo.round()
    } else {
        lo.ceil()
    };
    let int_hi = if is_integral(hi) {
        hi.round()
    } else {
        hi.floor()
    };
    if int_lo > int_hi {
        return Err(BbError::Infeasible);
    }
    let x = if objective > 0.0 { int_hi } else { int_lo };
    Ok(BlockOutcome {
        values: Some(vec![x + 0.0]),
        lp_bound: lp_bound + 0.0,
        complete: true,
        nodes: 0,
        children: 0,
    })
}

/// Disjoint sets over variable indices (path halving, union by index for determinism).
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut v: usize) -> usize {
        while self.parent[v] != v {
            self.parent[v] = self.parent[self.parent[v]];
            v = self.parent[v];
        }
        v
    }

    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        // Attach the larger root under the smaller: the smallest index represents the set.
        match ra.cmp(&rb) {
            std::cmp::Ordering::Less => self.parent[rb] = ra,
            std::cmp::Ordering::Greater => self.parent[ra] = rb,
            std::cmp::Ordering::Equal => {}
        }
    }
}

/// Mutable state of one branch-and-bound run.
struct Search<'a> {
    objective: &'a [f64],
    /// The block's rows over its local variables, to check rounded incumbents.
    rows: &'a [Row],
    integral_objective: bool,
    /// Incumbent: rounded values and their objective.
    best: Option<(Vec<f64>, f64)>,
    nodes: usize,
    stack: Vec<Pending>,
}

impl Search<'_> {
    /// Whether a subproblem with LP bound `bound` cannot improve on the incumbent.
    fn prunable(&self, bound: f64) -> bool {
        let Some((_, best)) = &self.best else {
            return false;
        };
        if self.integral_objective {
            (bound + tol(bound)).floor() <= *best
        } else {
            bound <= best + tol(*best)
        }
    }

    /// Handles a solved LP: prune, record an integer incumbent, or push two children.
    ///
    /// # Errors
    /// [`BbError::Lp`] when the LP's values are integral up to the tolerance but, rounded,
    /// violate a row: the LP solver's feasibility tolerance, amplified along a chain of
    /// rows, made a non-integral point look integral. Reporting it is the honest answer;
    /// accepting it would return an infeasible point.
    fn visit(&mut self, sol: Optimum) -> Result<(), BbError> {
        let bound = sol.objective();
        if self.prunable(bound) {
            return Ok(());
        }
        let mut branch: Option<(usize, f64)> = None;
        let mut best_score = -1.0;
        for (i, &v) in sol.values().iter().enumerate() {
            if is_integral(v) {
                continue;
            }
            let frac = v - v.floor();
            let score = 0.5 - (frac - 0.5).abs();
            if score > best_score {
                best_score = score;
                branch = Some((i, v));
            }
        }
        match branch {
            None => {
                let values: Vec<f64> = sol
                    .values()
                    .iter()
                    .map(|&x| {
                        // Clamp tiny negatives (and -0.0) to a clean 0.
                        let r = x.round();
                        if r > 0.0 {
                            r
                        } else {
                            0.0
                        }
                    })
                    .collect();
                if let Some(r) = self.rows.iter().position(|row| !row_holds(row, &values)) {
                    return Err(BbError::Lp(LpError::Unverified(format!(
                        "its optimum rounds to an integer point that violates row {r}"
                    ))));
                }
                // `+ 0.0` turns the -0.0 of an empty sum into 0.0.
                let objective = values
                    .iter()
                    .zip(self.objective)
                    .map(|(x, c)| x * c)
                    .sum::<f64>()
                    + 0.0;
                let better = match &self.best {
                    None => true,
                    Some((_, b)) => objective > *b,
                };
                if better {
                    self.best = Some((values, objective));
                }
            }
            Some((var, v)) => {
                let parent = std::rc::Rc::new(sol);
                let down = Pending {
                    parent: parent.clone(),
                    parent_bound: bound,
                    var,
                    relation: Relation::Le,
                    rhs: v.floor(),
                };
                let up = Pending {
                    parent,
                    parent_bound: bound,
                    var,
                    relation: Relation::Ge,
                    rhs: v.ceil(),
                };
                // The stack pops the last push first: push the preferred side last.
                if v - v.floor() >= 0.5 {
                    self.stack.push(down);
                    self.stack.push(up);
                } else {
                    self.stack.push(up);
                    self.stack.push(down);
                }
            }
        }
        Ok(())
    }
}

/// Whether the integer point `x` satisfies `row`, up to the round-off of evaluating it
/// (relative `1e-9`: the terms are integers times the row's coefficients).
fn row_holds(row: &Row, x: &[f64]) -> bool {
    let mut lhs = 0.0;
    let mut scale = row.rhs.abs();
    for &(v, c) in &row.terms {
        let term = c * x.get(v).copied().unwrap_or(f64::NAN);
        lhs += term;
        scale += term.abs();
    }
    let slack = 1e-9 * (1.0 + scale);
    match row.relation {
        Relation::Le => lhs <= row.rhs + slack,
        Relation::Ge => lhs >= row.rhs - slack,
        Relation::Eq => (lhs - row.rhs).abs() <= slack,
    }
}
