//! Implicit Path Enumeration Technique (IPET): the worst-case execution time (WCET) of a
//! control-flow graph as an integer linear program.
//!
//! What this crate *is*: a generic IPET solver. Give it any control-flow graph with a cost
//! per node ([`Cfg`]) and loop bounds ([`LoopBounds`]); it finds the natural loops and
//! irreducible regions ([`find_loops`]), maximises `Σ cost(n) · count(n)` over all integer
//! execution counts that obey flow conservation and the bounds, and returns the counts of
//! the worst-case path ([`Solution`]). Warpbound uses it on the warp-level CFG of SASS
//! kernels, as in §4.1 of the paper it follows (unit instruction cost, loop bounds of 10),
//! and other analyses may reuse it on other graphs. The LP relaxation is solved by
//! `microlp`, behind the one seam [`lp`]; a small deterministic [`branch_and_bound`]
//! closes the integrality gap.
//! [`binary`] is a second, propagation-driven branch and bound for pure 0/1 programs whose
//! LP relaxation is weak (time-indexed scheduling models such as the makespan ILP).
//!
//! What it is *not*: it infers no loop bounds and no costs (both are inputs), models no
//! caches, pipelines or warp scheduling, and does no I/O. It uses no clocks, threads or
//! randomness, so it runs unchanged on `wasm32-unknown-unknown` and gives the same answer
//! every time.
//!
//! Semantics, in one place:
//! * execution starts once at [`Cfg::entry`] and ends once at an exit node (listed in
//!   [`Cfg::exits`] or without successors);
//! * every node's count equals its incoming flow (plus one at the entry) and its outgoing
//!   flow (plus the flow ending there);
//! * a bound `N` on the loop with header `h` means `h` executes at most `N` times per entry
//!   into the loop (so a loop whose body runs `k` times with a header test that runs
//!   `k + 1` times needs `N = k + 1`);
//! * irreducible regions are reported and bounded conservatively (see [`loops`]);
//! * a missing bound, an unreachable exit, an oversize problem or a malformed graph is an
//!   [`Error`], never a panic.

pub mod binary;
pub mod bounds;
pub mod branch_and_bound;
pub mod budget;
pub mod cfg;
pub mod error;
pub mod loops;
pub mod lp;
mod problem;
pub mod solution;
pub mod verify;

pub use bounds::{Copies, LoopBounds, SharedBound};
pub use budget::Budget;
pub use cfg::Cfg;
pub use error::Error;
pub use loops::{find_loops, Loop, LoopStructure};
pub use lp::LpError;
pub use solution::Solution;

use branch_and_bound::BbError;

/// Computes the WCET of `cfg` under `bounds` by IPET, within `budget`: validates the graph
/// and finds its loops ([`LoopStructure::new`]), then [`LoopStructure::solve`], which
/// documents the steps, the incomplete-search case and the errors.
///
/// # Errors
/// [`Error::InvalidGraph`] (an index out of range, or no nodes), and every error of
/// [`LoopStructure::solve`].
pub fn solve(cfg: &Cfg, bounds: &LoopBounds, budget: &Budget) -> Result<Solution, Error> {
    LoopStructure::new(cfg)?.solve(bounds, budget)
}

/// [`solve`] with extra [`SharedBound`] flow facts (each one more row of the ILP, checked
/// on the integer solution like the loop bounds).
pub fn solve_with(
    cfg: &Cfg,
    bounds: &LoopBounds,
    shared: &[SharedBound],
    budget: &Budget,
) -> Result<Solution, Error> {
    LoopStructure::new(cfg)?.solve_with(bounds, shared, budget)
}

/// [`solve_with`], telling `observer` how the branch and bound goes
/// ([`LoopStructure::solve_observed`]).
pub fn solve_observed(
    cfg: &Cfg,
    bounds: &LoopBounds,
    shared: &[SharedBound],
    budget: &Budget,
    observer: isa::Observer,
) -> Result<Solution, Error> {
    LoopStructure::new(cfg)?.solve_observed(bounds, shared, budget, observer)
}

impl LoopStructure<'_> {
    /// Computes the WCET of the graph under `bounds` by IPET, within `budget`, bounding the
    /// loops already found ([`LoopStructure::loops`]).
    ///
    /// Steps: attach a bound to each loop and irreducible region (from
    /// [`LoopBounds::per_header`], else [`LoopBounds::default`]), build the integer
    /// program (see the `problem` module docs in the source), solve its LP relaxation and
    /// branch-and-bound to an integer optimum, then check the rounded counts exactly against
    /// every constraint before reporting them.
    ///
    /// If branch-and-bound runs out of [`Budget::max_bb_nodes`] after finding an integer
    /// solution, that solution is returned with [`Solution::integral`] `== false`; its `wcet`
    /// may be below the true optimum, while [`Solution::lp_bound`] (and
    /// [`Solution::safe_bound`]) remains a safe bound. The caller decides.
    ///
    /// # Errors
    /// * [`Error::NoBound`]: a reachable loop or region has no bound and there is no default.
    /// * [`Error::NoPath`]: no execution from the entry can end at an exit within the bounds.
    /// * [`Error::Budget`]: too many variables or constraints.
    /// * [`Error::NoIntegerSolution`]: the branch-and-bound budget ran out before any integer
    ///   solution was found; it carries the LP optimum, a safe bound.
    /// * [`Error::Unbounded`], [`Error::Solver`]: solver defects or numerical trouble (not
    ///   expected when every loop is bounded).
    /// * [`Error::Lp`]: the LP solver failed (numerical trouble it could not recover from);
    ///   reported, never a panic.
    pub fn solve(&self, bounds: &LoopBounds, budget: &Budget) -> Result<Solution, Error> {
        self.solve_with(bounds, &[], budget)
    }

    /// [`LoopStructure::solve`] with extra [`SharedBound`] rows.
    pub fn solve_with(
        &self,
        bounds: &LoopBounds,
        shared: &[SharedBound],
        budget: &Budget,
    ) -> Result<Solution, Error> {
        self.solve_observed(bounds, shared, budget, &isa::progress::silent)
    }

    /// [`LoopStructure::solve_with`], telling `observer` how the branch and bound goes
    /// ([`isa::Task::IpetBranchAndBound`]; its best bound is in cycles, like
    /// [`Solution::wcet`]: a lower bound on it that rises to it). The result does not depend
    /// on the observer.
    pub fn solve_observed(
        &self,
        bounds: &LoopBounds,
        shared: &[SharedBound],
        budget: &Budget,
        observer: isa::Observer,
    ) -> Result<Solution, Error> {
        let (cfg, adj) = (self.cfg, &self.adj);
        let mut loops = self.loops.clone();
        for l in &mut loops {
            l.bound = bounds.lookup(&l.entry_nodes);
            if l.bound.is_none() {
                return Err(Error::NoBound { header: l.header });
            }
        }
        let problem = problem::build(cfg, adj, &loops, shared, budget)?;
        let variables = problem.program.objective.len();
        let constraints = problem.program.constraints.len();

        // The objective leaves out the entry's own cost, which every path pays once.
        let entry_cost = cfg.costs.get(cfg.entry).copied().unwrap_or(0);
        let in_cycles = |p: &isa::Progress| {
            observer(&isa::Progress {
                best_bound: p.best_bound.map(|b| b.saturating_add(entry_cost)),
                ..*p
            })
        };
        let outcome = branch_and_bound::maximize_observed(
            &problem.program,
            budget.max_bb_nodes,
            budget.max_lp_size,
            &in_cycles,
        )
        .map_err(|e| match e {
            BbError::Infeasible => Error::NoPath,
            BbError::Unbounded => Error::Unbounded {
                header: loops.first().map_or(cfg.entry, |l| l.header),
            },
            BbError::Invalid(m) => Error::Solver(m),
            BbError::Lp(e) => Error::Lp(e),
            BbError::PartTooLarge { size, limit } => Error::Budget {
                what: "max_lp_size",
                limit,
                needed: size,
            },
        })?;
        let Some(values) = outcome.values else {
            return Err(Error::NoIntegerSolution {
                bound: solution::lp_floor(outcome.lp_bound + cfg.costs[cfg.entry] as f64),
                limit: budget.max_bb_nodes,
            });
        };

        let to_count = |var: usize| -> u64 {
            // Values are rounded, finite and non-negative; `as` saturates otherwise, and the
            // exact check below would then reject the solution.
            values.get(var).map_or(0, |&x| x as u64)
        };
        let edge_counts: Vec<u64> = problem
            .edge_var
            .iter()
            .map(|v| v.map_or(0, to_count))
            .collect();
        let exit_counts: Vec<(usize, u64)> = problem
            .exit_var
            .iter()
            .map(|&(x, var)| (x, to_count(var)))
            .collect();

        let (node_counts, wcet) = verify(cfg, &loops, shared, &edge_counts, &exit_counts)?;
        let lp_bound = outcome.lp_bound + cfg.costs[cfg.entry] as f64;
        Ok(Solution {
            wcet,
            node_counts,
            edge_counts,
            exit_counts,
            loops,
            lp_bound,
            integral: outcome.complete,
            bb_nodes: outcome.nodes,
            variables,
            constraints,
        })
    }
}

/// Recomputes node counts from the integer edge counts and checks every IPET constraint
/// exactly (in 128-bit integers), so that floating-point trouble in the LP can never yield
/// a reported path that is not actually a valid execution-count vector.
fn verify(
    cfg: &Cfg,
    loops: &[Loop],
    shared: &[SharedBound],
    edge_counts: &[u64],
    exit_counts: &[(usize, u64)],
) -> Result<(Vec<u64>, u64), Error> {
    let n = cfg.node_count();
    // A rounded point the LP solver accepted but the exact check rejects is numerical
    // trouble (counts beyond the solver's precision, e.g. a region nested twenty deep):
    // the message says so, like [`LpError::Numerical`](crate::lp::LpError), so a caller
    // can tell it from a modelling error.
    let largest = edge_counts.iter().copied().max().unwrap_or(0);
    let bad = |what: String| {
        Error::Solver(format!(
            "numerical trouble: the integer solution fails a check: {what} (execution counts up to {largest})"
        ))
    };
    let mut inflow = vec![0u128; n];
    let mut outflow = vec![0u128; n];
    for (&(u, v), &c) in cfg.edges.iter().zip(edge_counts) {
        outflow[u] += u128::from(c);
        inflow[v] += u128::from(c);
    }
    inflow[cfg.entry] += 1;
    let mut ended = 0u128;
    for &(x, c) in exit_counts {
        outflow[x] += u128::from(c);
        ended += u128::from(c);
    }
    if ended != 1 {
        return Err(bad(format!("execution ends {ended} times")));
    }
    for v in 0..n {
        if inflow[v] != outflow[v] {
            return Err(bad(format!("flow is not conserved at node {v}")));
        }
    }
    for l in loops {
        let Some(bound) = l.bound else {
            return Err(Error::NoBound { header: l.header });
        };
        let count: u128 = l.entry_nodes.iter().map(|&v| inflow[v]).sum();
        let mut entries: u128 = l
            .entry_edges
            .iter()
            .map(|&e| u128::from(edge_counts[e]))
            .sum();
        if l.entry_nodes.contains(&cfg.entry) {
            entries += 1;
        }
        if count > u128::from(bound).saturating_mul(entries) {
            return Err(bad(format!(
                "the bound of the loop at node {} is exceeded",
                l.header
            )));
        }
    }
    for (k, f) in shared.iter().enumerate() {
        let count: u128 = f.nodes.iter().filter_map(|&v| inflow.get(v)).sum();
        let mut starts: u128 = f
            .starts
            .iter()
            .filter_map(|&e| edge_counts.get(e))
            .map(|&c| u128::from(c))
            .sum();
        starts += u128::from(f.from_entry);
        if count > u128::from(f.bound).saturating_mul(starts) {
            return Err(bad(format!("shared bound {k} is exceeded")));
        }
    }
    let mut node_counts = Vec::with_capacity(n);
    let mut wcet = 0u128;
    for (v, (&flow, &cost)) in inflow.iter().zip(&cfg.costs).enumerate() {
        let c =
            u64::try_from(flow).map_err(|_| bad(format!("the count of node {v} overflows u64")))?;
        node_counts.push(c);
        wcet = wcet.saturating_add(u128::from(c).saturating_mul(u128::from(cost)));
    }
    let wcet = u64::try_from(wcet)
        .map_err(|_| Error::Solver("the WCET does not fit in 64 bits".to_string()))?;
    Ok((node_counts, wcet))
}
