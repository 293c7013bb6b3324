//! A 0/1 program compiled for propagation: every row as `Σ a·x ≤ b` with integer
//! coefficients, terms gathered by *exactly-one group*, and the rows of each variable.
//!
//! **Exactly-one groups.** A row `Σ x = 1` with all coefficients 1 (a set-partitioning row,
//! such as Eq. 17 of the makespan ILP: "every warp executes every instruction once") says
//! that exactly one of its variables is 1. Propagation that knows this reasons about the
//! group as one integer choice instead of independent bits, which is what makes the
//! time-indexed weighted sums of scheduling models (`Σ t·x = start time`) propagate at all:
//! seen bit by bit, the minimum of `Σ t·x` over 0/1 values is 0; seen as a group, it is the
//! smallest `t` still allowed. Groups are picked greedily in row order and never share a
//! variable; a partitioning row whose variables already belong to a group stays an ordinary
//! row.

use crate::branch_and_bound::{IntegerProgram, Relation};

use super::BinaryError;

/// A constraint with its repeated variables merged: `(terms, relation, rhs)`.
type MergedRow = (Vec<(u32, i64)>, Relation, i64);

/// "No group" in [`Compiled::group_of`] and entries.
pub(crate) const NONE: u32 = u32::MAX;

/// One row `Σ a·x ≤ rhs`, its terms sorted by group (ungrouped variables each form an entry
/// of their own).
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// `(variable, coefficient)`, grouped as `entries` says.
    pub terms: Vec<(u32, i64)>,
    /// `(group or NONE, start, end)` ranges of `terms`; a group appears at most once.
    pub entries: Vec<(u32, u32, u32)>,
    pub rhs: i64,
}

/// The program in the form the search works on.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    pub n: usize,
    pub rows: Vec<Row>,
    /// The objective as a row without right-hand side (maximised).
    pub objective: Row,
    /// `(row, coefficient)` of every row (index into `rows`) that contains each variable.
    pub var_rows: Vec<Vec<(u32, i64)>>,
    /// The group of each variable, or [`NONE`].
    pub group_of: Vec<u32>,
    /// The variables of each group.
    pub groups: Vec<Vec<u32>>,
}

/// Whether `c` is an integer that fits the exact arithmetic of the search with room to sum.
fn integer(c: f64) -> Option<i64> {
    const LIMIT: f64 = (1u64 << 40) as f64;
    (c.is_finite() && c.fract() == 0.0 && c.abs() <= LIMIT).then_some(c as i64)
}

impl Compiled {
    /// Validates `program` (integer coefficients and right-hand sides, indices in range) and
    /// compiles it. Every variable is taken to be binary.
    pub(crate) fn new(program: &IntegerProgram) -> Result<Compiled, BinaryError> {
        let n = program.objective.len();
        let bad = |what: String| BinaryError::Invalid(what);
        let mut objective = Vec::new();
        for (v, &c) in program.objective.iter().enumerate() {
            let c = integer(c).ok_or_else(|| bad(format!("objective coefficient {c}")))?;
            if c != 0 {
                objective.push((v as u32, c));
            }
        }
        // Merge repeated variables and check every number first.
        let mut merged_rows: Vec<MergedRow> = Vec::new();
        for (i, con) in program.constraints.iter().enumerate() {
            let rhs = integer(con.rhs)
                .ok_or_else(|| bad(format!("constraint {i} has right-hand side {}", con.rhs)))?;
            let mut terms: Vec<(u32, i64)> = Vec::with_capacity(con.terms.len());
            for &(v, c) in &con.terms {
                if v >= n {
                    return Err(bad(format!("constraint {i} names variable {v} of {n}")));
                }
                let c =
                    integer(c).ok_or_else(|| bad(format!("constraint {i} has coefficient {c}")))?;
                terms.push((v as u32, c));
            }
            terms.sort_unstable_by_key(|&(v, _)| v);
            let mut out: Vec<(u32, i64)> = Vec::with_capacity(terms.len());
            for (v, c) in terms {
                match out.last_mut() {
                    Some((last, sum)) if *last == v => *sum += c,
                    _ => out.push((v, c)),
                }
            }
            out.retain(|&(_, c)| c != 0);
            merged_rows.push((out, con.relation, rhs));
        }

        // Exactly-one groups, greedily in row order.
        let mut group_of = vec![NONE; n];
        let mut groups: Vec<Vec<u32>> = Vec::new();
        for (terms, rel, rhs) in &merged_rows {
            let partition = *rel == Relation::Eq
                && *rhs == 1
                && terms.len() >= 2
                && terms
                    .iter()
                    .all(|&(v, c)| c == 1 && group_of[v as usize] == NONE);
            if partition {
                let g = groups.len() as u32;
                for &(v, _) in terms {
                    group_of[v as usize] = g;
                }
                groups.push(terms.iter().map(|&(v, _)| v).collect());
            }
        }

        let mut rows = Vec::new();
        for (terms, rel, rhs) in merged_rows {
            let negated = || terms.iter().map(|&(v, c)| (v, -c)).collect::<Vec<_>>();
            match rel {
                Relation::Le => rows.push(row(terms.clone(), rhs, &group_of)),
                Relation::Ge => rows.push(row(negated(), -rhs, &group_of)),
                Relation::Eq => {
                    rows.push(row(terms.clone(), rhs, &group_of));
                    rows.push(row(negated(), -rhs, &group_of));
                }
            }
        }
        let mut var_rows = vec![Vec::new(); n];
        for (r, row) in rows.iter().enumerate() {
            for &(v, a) in &row.terms {
                var_rows[v as usize].push((r as u32, a));
            }
        }
        Ok(Compiled {
            n,
            rows,
            objective: row(objective, 0, &group_of),
            var_rows,
            group_of,
            groups,
        })
    }
}

/// Sorts `terms` by (group, variable) and records the entry ranges.
fn row(mut terms: Vec<(u32, i64)>, rhs: i64, group_of: &[u32]) -> Row {
    terms.sort_unstable_by_key(|&(v, _)| (group_of[v as usize], v));
    let mut entries = Vec::new();
    let mut start = 0;
    while start < terms.len() {
        let g = group_of[terms[start].0 as usize];
        let mut end = start + 1;
        if g != NONE {
            while end < terms.len() && group_of[terms[end].0 as usize] == g {
                end += 1;
            }
        }
        entries.push((g, start as u32, end as u32));
        start = end;
    }
    Row {
        terms,
        entries,
        rhs,
    }
}
