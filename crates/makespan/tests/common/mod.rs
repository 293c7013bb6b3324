//! Test helpers written independently of the crate's search code: a schedule validator and a
//! brute-force worst-case makespan over concrete warps.
#![allow(dead_code)]

use std::collections::HashMap;

use isa::lc::LcOp;
use makespan::{Schedule, Transformed};

/// A transformed string with the given sigmas (factors 1).
pub fn tr(s: &str, sigma_l: u32, sigma_c: u32) -> Transformed {
    let units: Vec<LcOp> = s
        .chars()
        .map(|c| if c == 'L' { LcOp::L } else { LcOp::C })
        .collect();
    match Transformed::from_sigmas(units, sigma_l, sigma_c) {
        Ok(t) => t,
        Err(e) => panic!("bad test string {s:?}: {e}"),
    }
}

fn sigma(t: &Transformed, u: LcOp) -> usize {
    match u {
        LcOp::L => t.sigma_l as usize,
        LcOp::C => t.sigma_c as usize,
    }
}

/// Checks that `s` is a complete, valid, work-conserving schedule of `warps` warps running
/// `t`, whose makespan is its last cycle.
pub fn validate(t: &Transformed, warps: u32, s: &Schedule) -> Result<(), String> {
    let n_i = t.instrs.len();
    let w_n = warps as usize;
    if w_n == 0 || n_i == 0 {
        return if s.makespan == 0 && s.slots.is_empty() {
            Ok(())
        } else {
            Err("work-free instance with a non-empty schedule".into())
        };
    }
    // cycle_of[w][i]
    let mut cycle_of = vec![vec![0u64; n_i]; w_n];
    for slot in &s.slots {
        let w = slot.warp as usize;
        if w >= w_n || slot.instr >= n_i {
            return Err(format!("slot out of range: {slot:?}"));
        }
        if slot.cycle == 0 {
            return Err(format!("cycle 0 in {slot:?}"));
        }
        if slot.unit != t.instrs[slot.instr] {
            return Err(format!("wrong unit in {slot:?}"));
        }
        if slot.lane as usize >= sigma(t, slot.unit) {
            return Err(format!("lane beyond sigma in {slot:?}"));
        }
        if cycle_of[w][slot.instr] != 0 {
            return Err(format!("warp {w} runs instruction {} twice", slot.instr));
        }
        cycle_of[w][slot.instr] = slot.cycle;
    }
    for (w, cycles) in cycle_of.iter().enumerate() {
        for i in 0..n_i {
            if cycles[i] == 0 {
                return Err(format!("warp {w} never runs instruction {i}"));
            }
            if i > 0 && cycles[i] <= cycles[i - 1] {
                return Err(format!(
                    "warp {w}: instruction {i} at cycle {} not after instruction {} at {}",
                    cycles[i],
                    i - 1,
                    cycles[i - 1]
                ));
            }
        }
    }
    let last = s.slots.iter().map(|x| x.cycle).max().unwrap_or(0);
    if last != s.makespan {
        return Err(format!("makespan {} but last cycle {last}", s.makespan));
    }
    // Per cycle and unit: capacity, distinct lanes, work conservation.
    let mut used: HashMap<(u64, LcOp), Vec<u32>> = HashMap::new();
    for slot in &s.slots {
        used.entry((slot.cycle, slot.unit))
            .or_default()
            .push(slot.lane);
    }
    for c in 1..=last {
        for u in [LcOp::L, LcOp::C] {
            let mut lanes = used.get(&(c, u)).cloned().unwrap_or_default();
            let issued = lanes.len();
            lanes.sort_unstable();
            lanes.dedup();
            if lanes.len() != issued {
                return Err(format!("cycle {c}: a {u:?} lane is used twice"));
            }
            if issued > sigma(t, u) {
                return Err(format!("cycle {c}: {issued} {u:?} issues exceed sigma"));
            }
            // Warps whose next instruction at the start of cycle c has type u.
            let ready = cycle_of
                .iter()
                .filter(|cycles| {
                    // next instruction: first one not finished before c
                    match cycles.iter().position(|&x| x >= c) {
                        Some(i) => t.instrs[i] == u,
                        None => false,
                    }
                })
                .count();
            if issued != ready.min(sigma(t, u)) {
                return Err(format!(
                    "cycle {c}: {issued} {u:?} issued but {ready} ready (sigma {}): not work-conserving",
                    sigma(t, u)
                ));
            }
        }
    }
    Ok(())
}

/// All `k`-subsets of `items`.
fn subsets(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    if k == 0 {
        return vec![vec![]];
    }
    if items.len() < k {
        return vec![];
    }
    let mut out = Vec::new();
    for (j, &first) in items.iter().enumerate() {
        for mut rest in subsets(&items[j + 1..], k - 1) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// Worst-case makespan by brute force over concrete warps: in every cycle, every choice of
/// *which* warps issue (subsets of the ready warps of each type of size min(sigma, ready)).
/// Memoised on the per-warp position vector (no multiset reasoning).
pub fn brute_force(t: &Transformed, warps: u32) -> u64 {
    fn go(t: &Transformed, pos: &mut Vec<usize>, memo: &mut HashMap<Vec<usize>, u64>) -> u64 {
        let n_i = t.instrs.len();
        if pos.iter().all(|&p| p == n_i) {
            return 0;
        }
        if let Some(&v) = memo.get(pos) {
            return v;
        }
        let ready = |u: LcOp| -> Vec<usize> {
            (0..pos.len())
                .filter(|&w| pos[w] < n_i && t.instrs[pos[w]] == u)
                .collect()
        };
        let rl = ready(LcOp::L);
        let rc = ready(LcOp::C);
        let sl = subsets(&rl, rl.len().min(t.sigma_l as usize));
        let sc = subsets(&rc, rc.len().min(t.sigma_c as usize));
        let mut best = 0;
        for a in &sl {
            for b in &sc {
                for &w in a.iter().chain(b) {
                    pos[w] += 1;
                }
                best = best.max(1 + go(t, pos, memo));
                for &w in a.iter().chain(b) {
                    pos[w] -= 1;
                }
            }
        }
        memo.insert(pos.clone(), best);
        best
    }
    if t.instrs.is_empty() {
        return 0;
    }
    let mut pos = vec![0usize; warps as usize];
    go(t, &mut pos, &mut HashMap::new())
}
