//! Variable domains of one search node and the propagation that narrows them.
//!
//! A variable is free, 0 or 1. Propagation is activity-based, as in the node presolve of
//! MILP solvers: for a row `Σ a·x ≤ b`, the smallest value the left-hand side can still
//! take (its *minimum activity*) must not exceed `b`; any single choice that would push it
//! above `b` is ruled out. An exactly-one group contributes the smallest (or largest)
//! coefficient among its variables still allowed, counting 0 when the group can still pick a
//! variable outside the row. A row whose *maximum* activity is at most `b` can no longer be
//! violated: it is marked redundant for the rest of the subtree (domains only shrink), and
//! the cache key of [`super::search`] leaves it out.

use super::compiled::{Compiled, NONE};

/// Propagation found that no assignment completes this node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Conflict;

const FREE: i8 = -1;

/// The domains of one node.
#[derive(Debug, Clone)]
pub(crate) struct Domains {
    /// `-1` free, else the value.
    pub val: Vec<i8>,
    /// Free variables per group.
    pub group_free: Vec<u32>,
    /// The variable set to 1 in each group, or [`NONE`].
    pub group_one: Vec<u32>,
    /// Rows that can no longer be violated.
    pub redundant: Vec<bool>,
    /// Activity of each row over the variables fixed to 1 (kept up to date by `fix`).
    pub fixed_act: Vec<i64>,
    /// Number of free variables.
    pub free: usize,
}

/// Reusable work lists of propagation (not part of a node).
#[derive(Debug, Default)]
pub(crate) struct Queue {
    rows: Vec<u32>,
    queued: Vec<bool>,
    /// Scratch: `(lo, lo2, hi)` of each entry of the row being propagated.
    ranges: Vec<(i64, i64, i64)>,
}

impl Domains {
    /// Every variable free, no row redundant.
    pub(crate) fn new(c: &Compiled) -> Domains {
        Domains {
            val: vec![FREE; c.n],
            group_free: c.groups.iter().map(|g| g.len() as u32).collect(),
            group_one: vec![NONE; c.groups.len()],
            redundant: vec![false; c.rows.len()],
            fixed_act: vec![0; c.rows.len()],
            free: c.n,
        }
    }

    pub(crate) fn is_free(&self, v: usize) -> bool {
        self.val[v] == FREE
    }

    /// `(base, largest gain)` of the objective: the value every completion of this node reaches
    /// at least, and the most its free choices can add to it. The search measures cached
    /// residual values from `base`, which is the same for equal residual programs up to the
    /// contribution of the decided variables.
    pub(crate) fn objective_range(&self, c: &Compiled) -> (i64, i64) {
        let o = &c.objective;
        let (mut fixed, mut free_max) = (0i64, 0i64);
        for &(g, s, e) in &o.entries {
            // Every completion gets at least the entry's smallest option (its value, when it
            // is decided); the rest is what the free choice can add.
            let (lo, _, hi) = self.options(&o.terms[s as usize..e as usize], g);
            fixed += lo;
            free_max += hi - lo;
        }
        (fixed, free_max)
    }

    /// Sets `v` to `x` with the consequences inside its group, and queues its rows.
    pub(crate) fn fix(
        &mut self,
        c: &Compiled,
        q: &mut Queue,
        v: usize,
        x: bool,
    ) -> Result<(), Conflict> {
        let xv = i8::from(x);
        match self.val[v] {
            FREE => {}
            cur if cur == xv => return Ok(()),
            _ => return Err(Conflict),
        }
        self.val[v] = xv;
        self.free -= 1;
        for &(r, a) in &c.var_rows[v] {
            if x {
                self.fixed_act[r as usize] += a;
            }
            q.push(r);
        }
        let g = c.group_of[v];
        if g == NONE {
            return Ok(());
        }
        let g = g as usize;
        self.group_free[g] -= 1;
        if x {
            if self.group_one[g] != NONE {
                return Err(Conflict);
            }
            self.group_one[g] = v as u32;
            for &u in &c.groups[g] {
                if self.val[u as usize] == FREE {
                    self.fix(c, q, u as usize, false)?;
                }
            }
        } else if self.group_one[g] == NONE {
            match self.group_free[g] {
                0 => return Err(Conflict),
                1 => {
                    let last = c.groups[g]
                        .iter()
                        .copied()
                        .find(|&u| self.val[u as usize] == FREE)
                        .ok_or(Conflict)?;
                    self.fix(c, q, last as usize, true)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Propagates every queued row until nothing changes.
    pub(crate) fn propagate(&mut self, c: &Compiled, q: &mut Queue) -> Result<(), Conflict> {
        while let Some(r) = q.pop() {
            if !self.redundant[r] {
                if let Err(e) = self.propagate_row(c, q, r) {
                    q.clear();
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Queues every row (for the root).
    pub(crate) fn queue_all(c: &Compiled, q: &mut Queue) {
        for r in 0..c.rows.len() {
            q.push(r as u32);
        }
    }

    fn propagate_row(&mut self, c: &Compiled, q: &mut Queue, r: usize) -> Result<(), Conflict> {
        let row = &c.rows[r];
        // One pass: each entry's smallest option `lo`, second smallest `lo2` (equal to `lo`
        // when the smallest occurs twice; `i64::MAX` when there is no second option) and
        // largest `hi`, for a free single variable or an undecided group.
        let (mut min_act, mut max_act, mut spread) = (0i64, 0i64, 0i64);
        q.ranges.clear();
        for &(g, s, e) in &row.entries {
            let terms = &row.terms[s as usize..e as usize];
            let range = self.options(terms, g);
            min_act += range.0;
            max_act += range.2;
            spread = spread.max(range.2 - range.0);
            q.ranges.push(range);
        }
        if min_act > row.rhs {
            return Err(Conflict);
        }
        if max_act <= row.rhs {
            self.redundant[r] = true;
            return Ok(());
        }
        let slack = row.rhs - min_act;
        if spread <= slack {
            // No option of any entry overflows the row, and a forced choice would need one.
            return Ok(());
        }
        // Decisions follow from this one snapshot of the domains (which only shrink, so they
        // stay valid) and are applied afterwards.
        let mut decisions: Vec<(u32, bool)> = Vec::new();
        for (k, &(g, s, e)) in row.entries.iter().enumerate() {
            let (lo, lo2, hi) = q.ranges[k];
            if hi - lo <= slack {
                continue;
            }
            let terms = &row.terms[s as usize..e as usize];
            if g == NONE {
                let (v, a) = terms[0];
                decisions.push((v, a < 0));
                continue;
            }
            for &(v, a) in terms {
                if self.val[v as usize] != FREE {
                    continue;
                }
                if a - lo > slack {
                    decisions.push((v, false));
                } else if a == lo && lo2 != i64::MAX && lo2 - lo > slack {
                    // Every other option of the group overflows the row: `v` it is.
                    decisions.push((v, true));
                }
            }
        }
        for (v, x) in decisions {
            self.fix(c, q, v as usize, x)?;
        }
        Ok(())
    }

    /// `(lo, lo2, hi)` of one entry: its smallest, second smallest and largest possible
    /// contribution (a fixed entry has `lo = hi` and `lo2 = i64::MAX`).
    fn options(&self, terms: &[(u32, i64)], g: u32) -> (i64, i64, i64) {
        if g == NONE {
            let (v, a) = terms[0];
            return match self.val[v as usize] {
                FREE => (a.min(0), a.max(0), a.max(0)),
                x => (a * i64::from(x), i64::MAX, a * i64::from(x)),
            };
        }
        let one = self.group_one[g as usize];
        if one != NONE {
            let a = terms
                .iter()
                .find(|&&(v, _)| v == one)
                .map_or(0, |&(_, a)| a);
            return (a, i64::MAX, a);
        }
        let (mut lo, mut lo2, mut hi) = (i64::MAX, i64::MAX, i64::MIN);
        let mut free_here = 0u32;
        let mut add = |a: i64| {
            if a < lo {
                lo2 = lo;
                lo = a;
            } else if a < lo2 {
                lo2 = a;
            }
            hi = hi.max(a);
        };
        for &(v, a) in terms {
            if self.val[v as usize] == FREE {
                free_here += 1;
                add(a);
            }
        }
        if self.group_free[g as usize] > free_here {
            // The group may still choose a variable outside this row.
            add(0);
        }
        (lo, lo2, hi)
    }
}

impl Queue {
    fn push(&mut self, r: u32) {
        let r_us = r as usize;
        if r_us >= self.queued.len() {
            self.queued.resize(r_us + 1, false);
        }
        if !self.queued[r_us] {
            self.queued[r_us] = true;
            self.rows.push(r);
        }
    }

    fn pop(&mut self) -> Option<usize> {
        let r = self.rows.pop()? as usize;
        self.queued[r] = false;
        Some(r)
    }

    fn clear(&mut self) {
        for &r in &self.rows {
            self.queued[r as usize] = false;
        }
        self.rows.clear();
    }
}
