//! An [`Analysis`] evaluated for one launch: which blocks and edges a thread of the launch
//! can reach, each loop's bound, and the values counters leave loops with.
//!
//! One pass in reverse post-order. At a block: it is live when it is a root, entered
//! irreducibly, or entered by a forward edge from a live block that is not dead; an edge out
//! of it is dead when its condition is false for every thread ([`Evaluator::truth`]). At a
//! loop header (outer loops come first in the order, so their φ ranges are known): the
//! loop's bound is the smallest over its facts, counted from the starts of its live entries
//! only ([`trip_count`]); then the φ of each induction variable gets its range over the
//! bounded iterations (for loops nested inside), and each exit atom its value — exact when
//! the count is (one start, one step, one limit) and the exit is the fact's own test, which
//! fails first in the last iteration; else the φ's range. Everything a condition or a value
//! reads lies earlier in the order, so one pass decides it with what is known there.
//!
//! Invariant: an edge called dead is never taken by any thread of the launch, a loop called
//! not entered is never entered, and an exit value is the counter's value in every run that
//! leaves by that exit — each follows from the intervals being sound for every thread.

use crate::expr::AtomId;
use crate::induction::{Evolution, Iv};
use crate::interval::{Evaluator, Interval};
use crate::{reason, trip_count, Analysis, Input, LoopBound};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

pub(crate) fn run(
    a: &Analysis,
    inputs: &dyn Fn(&Input) -> Option<Interval>,
    name: &dyn Fn(&Input) -> String,
) -> Vec<LoopBound> {
    let n = a.program.blocks.len();
    let dead = RefCell::new(HashSet::new());
    let known: RefCell<HashMap<AtomId, Interval>> = RefCell::new(HashMap::new());
    let e = Evaluator::new(&a.sym.store, inputs, &known, &a.sym.joins, Some(&dead));
    let header_loop: HashMap<usize, usize> = a
        .loops
        .loops
        .iter()
        .enumerate()
        .map(|(i, l)| (l.header, i))
        .collect();
    let mut live = vec![false; n];
    let mut results: Vec<Option<LoopBound>> = vec![None; a.loops.loops.len()];
    for &b in &a.loops.rpo {
        let order = a.loops.order[b];
        live[b] = a.program.roots.contains(&b)
            || a.loops.retreating[b]
            || a.loops.preds[b]
                .iter()
                .any(|&p| live[p] && a.loops.order[p] < order && !dead.borrow().contains(&(p, b)));
        if let Some(&li) = header_loop.get(&b) {
            results[li] = Some(bound_loop(a, li, &e, &live, &dead, &known, name));
            e.clear_memo();
        }
        let mut targets: Vec<usize> = a.program.blocks[b].edges.iter().map(|x| x.to).collect();
        targets.sort_unstable();
        targets.dedup();
        for t in targets {
            let c = a.sym.edge_conds.get(&(b, t)).copied();
            if !live[b] || c.is_some_and(|c| e.truth(c) == Some(false)) {
                dead.borrow_mut().insert((b, t));
            }
        }
    }
    results.into_iter().flatten().collect()
}

/// The bound of loop `li`, recording its φ ranges and exit values in `known`.
fn bound_loop(
    a: &Analysis,
    li: usize,
    e: &Evaluator,
    live: &[bool],
    dead: &RefCell<HashSet<(usize, usize)>>,
    known: &RefCell<HashMap<AtomId, Interval>>,
    name: &dyn Fn(&Input) -> String,
) -> LoopBound {
    let l = &a.loops.loops[li];
    let block = &a.program.blocks[l.header];
    // Starts brought by edges no thread takes do not count.
    let live_entries: Vec<bool> = l
        .entries
        .iter()
        .map(|&p| live[p] && !dead.borrow().contains(&(p, l.header)))
        .collect();
    let mut best: Option<(trip_count::Runs, usize)> = None;
    let mut why_not: Vec<String> = Vec::new();
    for (fi, f) in a.facts[li].iter().enumerate() {
        let iv = &a.ivs[li][f.iv];
        match trip_count::header_runs(f, iv, e, &live_entries) {
            Ok(r) => {
                if best.is_none_or(|(b, _)| r.n < b.n) {
                    best = Some((r, fi));
                }
            }
            Err(m) => why_not.push(format!("{}: {m}", iv.name)),
        }
    }
    let names = reason::Names {
        program: &a.program,
        store: &a.sym.store,
        input: name,
    };
    let (bound, reason, formula, used) = match best {
        _ if !live[l.header] => (
            Some(1),
            "the loop is not entered for this launch (every edge into it is taken under a \
             condition that is false here)"
                .to_string(),
            None,
            Vec::new(),
        ),
        Some((r, fi)) => {
            let f = &a.facts[li][fi];
            let iv = &a.ivs[li][f.iv];
            (
                Some(r.n),
                names.reason(iv, f, r.n),
                names.formula(iv, f),
                a.inputs_of(iv, f),
            )
        }
        None => (None, names.no_bound(&a.ivs[li], &why_not), None, Vec::new()),
    };
    if let (Some(n), true) = (bound, live[l.header]) {
        let mut learnt: Vec<(AtomId, Interval)> = a.ivs[li]
            .iter()
            .filter_map(|iv| Some((iv.atom, trip_count::phi_range(iv, n, e)?)))
            .collect();
        // The exit test of the bounding fact fails first in iteration n − 1.
        let exact_exit = best
            .filter(|(r, fi)| r.exact && a.facts[li][*fi].sole)
            .map(|(_, fi)| a.facts[li][fi].at);
        for x in a.sym.exits.iter().filter(|x| x.lp == li) {
            let Some(iv) = single_iv(&a.ivs[li], x.var, a) else {
                continue;
            };
            let exact = (exact_exit == Some(x.from))
                .then(|| trip_count::phi_at(iv, n - 1, e, &live_entries))
                .flatten();
            let range = learnt.iter().find(|(at, _)| *at == iv.atom).map(|p| p.1);
            if let Some(v) = exact.or(range) {
                learnt.push((x.atom, v));
            }
        }
        known.borrow_mut().extend(learnt);
    }
    LoopBound {
        block: l.header,
        key: block.key.clone(),
        line: block.line,
        bound,
        reason,
        formula,
        inputs: used,
        depth: l.depth,
    }
}

/// The induction variable that is register `var` alone (not a pair).
fn single_iv<'a>(ivs: &'a [Iv], var: u32, a: &Analysis) -> Option<&'a Iv> {
    ivs.iter().find(|iv| {
        matches!(iv.evolution, Evolution::Linear { .. })
            && matches!(
                a.sym.store.get_atom(iv.atom),
                crate::expr::Atom::Entry { var: v, .. } if *v == var
            )
    })
}
