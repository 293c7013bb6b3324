//! Loop bounds: the only flow facts IPET needs to turn "longest path" into a finite ILP.

use std::collections::BTreeMap;

/// How many times each loop may iterate, keyed by header node.
///
/// A bound `N` for the loop with header `h` means: **the header executes at most `N` times
/// per entry into the loop**, i.e. `count(h) <= N * (number of times the loop is entered)`.
/// A loop whose body runs `k` times and whose header test runs `k + 1` times (a `while`
/// loop that tests on the way in and on the final exit) therefore needs `N = k + 1`; a
/// bottom-tested loop whose header is the first body block needs `N = k`.
///
/// For an irreducible region the bound limits the *total* executions of its entry nodes
/// per entry into the region; it is looked up under each entry node and the largest value
/// wins (see [`Loop::entry_nodes`](crate::Loop::entry_nodes)).
///
/// Bounds are never inferred: the paper this crate follows (§4.1) supplies them by hand,
/// with 10 as the conventional default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoopBounds {
    /// Explicit bound per header (or irreducible-region entry) node index.
    pub per_header: BTreeMap<usize, u64>,
    /// Bound for every loop not listed in `per_header`; `None` makes such a loop an
    /// [`Error::NoBound`](crate::Error::NoBound).
    pub default: Option<u64>,
}

impl LoopBounds {
    /// Bounds that apply `default` to every loop, the usual starting point (e.g. `10`).
    pub fn with_default(default: u64) -> Self {
        Self {
            per_header: BTreeMap::new(),
            default: Some(default),
        }
    }

    /// The bound for a loop entered through `entry_nodes`: the largest explicit bound among
    /// them, else the default.
    pub fn lookup(&self, entry_nodes: &[usize]) -> Option<u64> {
        entry_nodes
            .iter()
            .filter_map(|v| self.per_header.get(v).copied())
            .max()
            .or(self.default)
    }
}

/// A flow fact beyond per-loop bounds: the nodes `nodes` together run at most `bound` times
/// per *start*, where the starts are the executions of the edges `starts` (plus the entry
/// itself when `from_entry`): `Σ count(nodes) <= bound * (Σ count(starts) + [from_entry])`.
///
/// Why: one loop of the program can appear as several loops of a warp-level CFG (its header
/// duplicated per abstract context, e.g. before and after the loop's exit first diverges).
/// Per-loop bounds then let each copy run `bound` times; but the copies are phases of one
/// loop, and the warp as a whole runs the header at most `bound` times per group of
/// threads that starts iterating it. The caller says what a start is (see the PTX reading
/// of the `warp-cfg` mode, `cfg::ptx::pdom`); this crate only adds the row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedBound {
    pub nodes: Vec<usize>,
    /// Edge indices into [`crate::Cfg::edges`].
    pub starts: Vec<usize>,
    pub from_entry: bool,
    pub bound: u64,
}

/// A graph whose nodes are copies of a program's nodes (a warp-level CFG, whose blocks are
/// duplicated per abstract context), for [`SharedBound::per_program_loop`].
pub struct Copies<'a> {
    /// The program node each node copies (`None`: a virtual node such as the exit).
    pub copy_of: &'a [Option<usize>],
    /// The copy graph's edges.
    pub edges: &'a [(usize, usize)],
    /// The copy graph's entry node.
    pub entry: usize,
}

impl SharedBound {
    /// One shared bound per natural loop of `program` that has a bound (`bound_of`): all
    /// copies of its header together run at most `N` times per start. A start is an edge
    /// into a copy of the loop's body that `restart(edge, loop)` calls one (`Some(true)`: a
    /// group of threads that may run the header apart from the others starts running;
    /// `Some(false)`: threads already counted go on), or, where it says nothing (`None`), an
    /// edge from a node outside the loop's body. Irreducible regions get none: their copies
    /// keep the per-copy bounds only.
    pub fn per_program_loop(
        program: &crate::Cfg,
        copies: &Copies,
        bound_of: impl Fn(&crate::Loop) -> Option<u64>,
        restart: impl Fn(usize, &crate::Loop) -> Option<bool>,
    ) -> Vec<SharedBound> {
        crate::find_loops(program)
            .into_iter()
            .filter(|l| !l.irreducible)
            .filter_map(|l| {
                let bound = bound_of(&l)?;
                let inside = |n: usize| {
                    copies
                        .copy_of
                        .get(n)
                        .copied()
                        .flatten()
                        .is_some_and(|b| l.body.binary_search(&b).is_ok())
                };
                let nodes: Vec<usize> = (0..copies.copy_of.len())
                    .filter(|&n| copies.copy_of[n] == Some(l.header))
                    .collect();
                let starts: Vec<usize> = copies
                    .edges
                    .iter()
                    .enumerate()
                    .filter(|&(i, &(from, to))| {
                        inside(to) && restart(i, &l).unwrap_or(!inside(from))
                    })
                    .map(|(i, _)| i)
                    .collect();
                Some(SharedBound {
                    nodes,
                    starts,
                    from_entry: inside(copies.entry),
                    bound,
                })
            })
            .collect()
    }
}
