//! Depth-first branch and bound over the compiled program, with propagation at every node
//! and a cache of solved residual subproblems.
//!
//! **Nodes and bounds.** A node is a set of domains closed under propagation. Its bound is
//! the largest value the objective can still reach (group-aware, like a row's maximum
//! activity); a node whose bound does not beat the incumbent is pruned. The root's bound is
//! also capped by the LP relaxation (solved once, by [`crate::lp`]), and the search stops as soon
//! as an incumbent reaches that cap.
//!
//! **Branching.** On the first free variable of the caller's order, trying its preferred
//! value first; variables missing from the order follow in index order.
//!
//! **Subproblem cache.** Once redundant rows are dropped, what is left of a node — its free
//! variables and, for every other row, the right-hand side minus the activity of the fixed
//! variables — is itself a 0/1 program, and two nodes with the same residual program have
//! the same best completion (measured from their fixed part, `objective_range().0`). The
//! key is exactly that residual program (no hashing shortcut: equal keys mean equal
//! programs), and the cache stores what is known of its optimum: an upper bound, and the best
//! completion found with its value. When both agree the entry is exact and the node is
//! answered without search; a mere upper bound still prunes. Scheduling models revisit the
//! same residual program along many paths (the same progress of every job reached through
//! different orders), and the cache turns that enumeration into one visit per residual
//! program. Everything stays exact and deterministic (ordered search, a fixed hasher, no
//! clocks).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::branch_and_bound::IntegerProgram;
use crate::lp::{Lp, LpAnswer};
use isa::progress::{Every, Observer, Progress, Task};

use super::compiled::Compiled;
use super::domains::{Domains, Queue};
use super::{BinaryError, BinaryLimits, BinaryOutcome};

/// What is known of a residual program's optimum, relative to the fixed part of its node.
#[derive(Debug, Clone)]
struct Known {
    /// An upper bound on the best completion; `None` when there is none (infeasible).
    upper: Option<i64>,
    /// The best completion found: its value and the variables it sets to 1.
    lower: Option<(i64, Vec<u32>)>,
}

impl Known {
    fn exact(&self) -> bool {
        match (&self.lower, self.upper) {
            (Some((v, _)), Some(u)) => *v >= u,
            (None, None) => true,
            _ => false,
        }
    }
}

/// A node whose children are being explored.
struct Frame {
    dom: Domains,
    /// Fixed part of the objective at this node.
    base: i64,
    /// Largest free part of the objective at this node.
    free_max: i64,
    key: Vec<u8>,
    var: usize,
    first: bool,
    /// 0: no child explored yet; 1: the first; 2: both.
    next_child: u8,
    /// Position in the branching order from which free variables are searched.
    order_pos: usize,
    /// Variables free at the parent and 1 here (to rebuild completions).
    ones_from_parent: Vec<u32>,
    known: Known,
}

type Cache = HashMap<Vec<u8>, Known, BuildHasherDefault<std::collections::hash_map::DefaultHasher>>;

struct Search<'a> {
    c: &'a Compiled,
    order: Vec<(usize, bool)>,
    limits: &'a BinaryLimits,
    /// Told every [`REPORT_EVERY`] nodes how far the search is.
    observer: Observer<'a>,
    every: Every,
    q: Queue,
    cache: Cache,
    nodes: usize,
    cache_hits: usize,
    /// Best complete solution: objective and values.
    incumbent: Option<(i64, Vec<bool>)>,
    /// Integer cap from the root LP: no solution exceeds it.
    cap: Option<i64>,
}

/// How a child turned out, relative to its own fixed part.
enum Entered {
    Done(Known),
    Pushed,
}

/// Search nodes between two progress reports.
const REPORT_EVERY: u64 = 1 << 10;

pub(crate) fn run(
    program: &IntegerProgram,
    order: &[(usize, bool)],
    limits: &BinaryLimits,
    observer: Observer,
) -> Result<BinaryOutcome, BinaryError> {
    let c = Compiled::new(program)?;
    let lp_bound = if limits.root_lp {
        Some(root_lp(program)?)
    } else {
        None
    };
    let mut seen = vec![false; c.n];
    let mut full_order = Vec::with_capacity(c.n);
    for &(v, x) in order {
        if v < c.n && !seen[v] {
            seen[v] = true;
            full_order.push((v, x));
        }
    }
    full_order.extend((0..c.n).filter(|&v| !seen[v]).map(|v| (v, true)));
    let mut s = Search {
        c: &c,
        order: full_order,
        limits,
        observer,
        every: Every::new(REPORT_EVERY),
        q: Queue::default(),
        cache: Cache::default(),
        nodes: 0,
        cache_hits: 0,
        incumbent: None,
        // Tolerance for the LP's floating point: an integer optimum never exceeds it.
        cap: lp_bound.map(|b| (b + 1e-6).floor() as i64),
    };
    let mut root = Domains::new(&c);
    Domains::queue_all(&c, &mut s.q);
    if root.propagate(&c, &mut s.q).is_err() {
        return Err(BinaryError::Infeasible);
    }
    s.solve(root)?;
    let (objective, values) = s.incumbent.ok_or(BinaryError::Infeasible)?;
    Ok(BinaryOutcome {
        values,
        objective,
        lp_bound,
        nodes: s.nodes,
        cache_hits: s.cache_hits,
        cache_entries: s.cache.len(),
    })
}

impl Search<'_> {
    fn solve(&mut self, root: Domains) -> Result<(), BinaryError> {
        let mut stack: Vec<Frame> = Vec::new();
        if let Entered::Done(_) = self.enter(root, Vec::new(), 0, &mut stack)? {
            return Ok(());
        }
        while let Some(top) = stack.last_mut() {
            if self.capped() {
                return Ok(());
            }
            let parent_can_improve = self
                .incumbent
                .as_ref()
                .is_none_or(|(best, _)| top.base + top.free_max > *best);
            if top.next_child >= 2 || !parent_can_improve {
                if top.next_child < 2 {
                    // The unexplored child is bounded by this node's own bound.
                    let u = top.free_max;
                    top.known.upper = Some(top.known.upper.map_or(u, |x| x.max(u)));
                }
                let Some(done) = stack.pop() else { break };
                if self.cache.len() >= self.limits.max_cache_entries {
                    return Err(BinaryError::Budget {
                        what: "max_cache_entries",
                        limit: self.limits.max_cache_entries,
                    });
                }
                self.cache.insert(done.key, done.known.clone());
                let known = done.known;
                match stack.last_mut() {
                    Some(parent) => merge(parent, done.base, &done.ones_from_parent, known),
                    None => return Ok(()),
                }
                continue;
            }
            let value = if top.next_child == 0 {
                top.first
            } else {
                !top.first
            };
            top.next_child += 1;
            let mut child = top.dom.clone();
            let (var, pos, parent_base) = (top.var, top.order_pos, top.base);
            let fixed = child
                .fix(self.c, &mut self.q, var, value)
                .and_then(|()| child.propagate(self.c, &mut self.q));
            if fixed.is_err() {
                self.count_node()?;
                continue;
            }
            let ones: Vec<u32> = {
                let parent = &stack[stack.len() - 1].dom;
                (0..self.c.n)
                    .filter(|&v| parent.is_free(v) && child.val[v] == 1)
                    .map(|v| v as u32)
                    .collect()
            };
            let (child_base, _) = child.objective_range(self.c);
            match self.enter(child, ones.clone(), pos, &mut stack)? {
                Entered::Done(known) => {
                    if let Some(parent) = stack.last_mut() {
                        debug_assert_eq!(parent.base, parent_base);
                        merge(parent, child_base, &ones, known);
                    }
                }
                Entered::Pushed => {}
            }
        }
        Ok(())
    }

    fn count_node(&mut self) -> Result<(), BinaryError> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(BinaryError::Budget {
                what: "max_nodes",
                limit: self.limits.max_nodes,
            });
        }
        if self.every.tick(1) {
            // The incumbent only improves; the root LP's cap bounds every solution.
            (self.observer)(&Progress {
                task: Task::BinaryBranchAndBound,
                done: self.nodes as u64,
                budget: self.limits.max_nodes as u64,
                best_bound: self
                    .incumbent
                    .as_ref()
                    .and_then(|(b, _)| u64::try_from(*b).ok()),
                upper_bound: self.cap.and_then(|c| u64::try_from(c).ok()),
            });
        }
        Ok(())
    }

    fn capped(&self) -> bool {
        match (&self.incumbent, self.cap) {
            (Some((best, _)), Some(cap)) => *best >= cap,
            _ => false,
        }
    }

    /// Records a complete solution: the node's ones plus a completion.
    fn offer(&mut self, value: i64, dom: &Domains, completion: &[u32]) {
        if self.incumbent.as_ref().is_some_and(|(b, _)| *b >= value) {
            return;
        }
        let mut values: Vec<bool> = dom.val.iter().map(|&x| x == 1).collect();
        for &v in completion {
            values[v as usize] = true;
        }
        self.incumbent = Some((value, values));
    }

    /// Visits a propagated node: answers it from a leaf, the cache or its bound, or pushes a
    /// frame to branch on.
    fn enter(
        &mut self,
        dom: Domains,
        ones_from_parent: Vec<u32>,
        order_pos: usize,
        stack: &mut Vec<Frame>,
    ) -> Result<Entered, BinaryError> {
        self.count_node()?;
        let (base, free_max) = dom.objective_range(self.c);
        let mut pos = order_pos;
        while pos < self.order.len() && !dom.is_free(self.order[pos].0) {
            pos += 1;
        }
        let Some(&(var, first)) = self.order.get(pos) else {
            // Every variable fixed and every row checked by propagation: a solution.
            self.offer(base, &dom, &[]);
            return Ok(Entered::Done(Known {
                upper: Some(0),
                lower: Some((0, Vec::new())),
            }));
        };
        let key = residual_key(self.c, &dom);
        let mut upper = free_max;
        let mut lower = None;
        if let Some(k) = self.cache.get(&key) {
            self.cache_hits += 1;
            if k.exact() {
                let k = k.clone();
                if let Some((v, completion)) = &k.lower {
                    self.offer(base + v, &dom, completion);
                }
                return Ok(Entered::Done(k));
            }
            match k.upper {
                Some(u) => upper = upper.min(u),
                None => {
                    return Ok(Entered::Done(Known {
                        upper: None,
                        lower: None,
                    }))
                }
            }
            lower = k.lower.clone();
        }
        if let Some((best, _)) = &self.incumbent {
            if base + upper <= *best {
                return Ok(Entered::Done(Known {
                    upper: Some(upper),
                    lower,
                }));
            }
        }
        stack.push(Frame {
            dom,
            base,
            free_max: upper,
            key,
            var,
            first,
            next_child: 0,
            order_pos: pos,
            ones_from_parent,
            known: Known {
                upper: None,
                lower: None,
            },
        });
        Ok(Entered::Pushed)
    }
}

/// Folds a child's outcome (relative to `child_base`) into its parent.
fn merge(parent: &mut Frame, child_base: i64, ones: &[u32], known: Known) {
    let offset = child_base - parent.base;
    if let Some(u) = known.upper {
        let u = u + offset;
        parent.known.upper = Some(parent.known.upper.map_or(u, |x| x.max(u)));
    }
    if let Some((v, completion)) = known.lower {
        let v = v + offset;
        if parent.known.lower.as_ref().is_none_or(|(b, _)| v > *b) {
            let mut all = ones.to_vec();
            all.extend(completion);
            parent.known.lower = Some((v, all));
        }
    }
}

/// The residual program of a node: its free variables (a bit set, little-endian bytes),
/// then for every row not yet redundant the gap to the previous such row's index and its
/// right-hand side minus the fixed activity (LEB128 varints, the latter zigzag-encoded).
/// Exact and compact: a mid-search node of the 4-warp makespan ILP keeps about 1–2 KB.
fn residual_key(c: &Compiled, dom: &Domains) -> Vec<u8> {
    let mut key = vec![0u8; c.n.div_ceil(8)];
    for (v, &x) in dom.val.iter().enumerate() {
        if x < 0 {
            key[v / 8] |= 1 << (v % 8);
        }
    }
    let mut prev = 0usize;
    for r in 0..c.rows.len() {
        if !dom.redundant[r] {
            varint(&mut key, (r - prev) as u64);
            prev = r;
            let residual = c.rows[r].rhs - dom.fixed_act[r];
            varint(&mut key, ((residual << 1) ^ (residual >> 63)) as u64);
        }
    }
    key
}

fn varint(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// The LP relaxation (every variable in `[0, 1]`), through the LP seam: an upper bound on
/// every solution. The seam merges repeated variables and decides rows without terms.
fn root_lp(program: &IntegerProgram) -> Result<f64, BinaryError> {
    let mut lp = Lp::new();
    for &o in &program.objective {
        lp.add_var(o, 0.0, 1.0).map_err(BinaryError::Lp)?;
    }
    for con in &program.constraints {
        lp.add_row(&con.terms, con.relation, con.rhs)
            .map_err(BinaryError::Lp)?;
    }
    match lp.solve().map_err(BinaryError::Lp)? {
        LpAnswer::Optimal(opt) => Ok(opt.objective()),
        LpAnswer::Infeasible => Err(BinaryError::Infeasible),
        LpAnswer::Unbounded => Err(BinaryError::Invalid(
            "the LP relaxation of a 0/1 program cannot be unbounded".into(),
        )),
    }
}
