//! A generator of random structured SASS kernels (the soundness harnesses' inputs) and the
//! warp-CFG + IPET bound they are checked against.
//!
//! The generator follows the spirit of the synthetic benchmark of the PWS paper (§7):
//! nesting depth, the fraction of divergent branches (conditions on `SR_TID.X` or on loaded
//! data, versus conditions on a kernel parameter, uniform over the warp), the fraction of
//! memory instructions, and loops with uniform trip counts (given to IPET as loop bounds).

use super::kernel;
use isa::Kernel;
use proptest::prelude::*;
use sim::{ArrayInit, Fill, Launch, MemoryInit};
use std::collections::BTreeMap;

/// Knobs of one generated kernel.
#[derive(Debug, Clone)]
pub struct Shape {
    pub depth: u32,
    /// Percent of branches whose condition varies across the warp.
    pub divergent: u32,
    /// Percent of simple statements that are memory instructions.
    pub memory: u32,
    pub seed: u64,
}

struct Gen {
    rng: sim::SplitMix64,
    shape: Shape,
    out: String,
    labels: u32,
    /// Loop head label → trip count.
    loops: BTreeMap<String, u64>,
    branches: u32,
}

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.next_u64() % n.max(1)
    }

    fn label(&mut self, what: &str) -> String {
        self.labels += 1;
        format!("{what}_{}", self.labels)
    }

    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn simple(&mut self) {
        if self.below(100) < u64::from(self.shape.memory) {
            if self.below(2) == 0 {
                self.line("LDG R5, [R1];");
            } else {
                self.line("STG [R2], R6;");
            }
            return;
        }
        match self.below(6) {
            0 => self.line("IADD R6, R6, R5;"),
            1 => self.line("LOP.XOR R7, R7, R6;"),
            2 => self.line("IMUL R8, R6, 0x3;"),
            3 => self.line("ISCADD R6, R7, R6, 0x1;"),
            4 => self.line("SHR.U32 R9, R6, 0x3;"),
            _ => self.line("IADD32I R7, R7, 0x11;"),
        }
    }

    fn condition(&mut self) {
        self.branches += 1;
        let k = self.below(33);
        if self.below(100) < u64::from(self.shape.divergent) {
            if self.below(2) == 0 {
                self.line(&format!("ISETP.LT.U32.AND P0, PT, R0, 0x{k:x}, PT;"));
            } else {
                // Data-dependent: the last value loaded (random per thread).
                self.line(&format!("ISETP.LT.U32.AND P0, PT, R5, 0x{:x}, PT;", k * 30));
            }
        } else {
            self.line(&format!("ISETP.LT.U32.AND P0, PT, R3, 0x{k:x}, PT;"));
        }
    }

    fn block(&mut self, depth: u32, len: u64) {
        for _ in 0..len {
            let pick = if depth < self.shape.depth {
                self.below(10)
            } else {
                9
            };
            match pick {
                0 | 1 => self.if_else(depth + 1),
                2 => self.counted_loop(depth + 1),
                3 => self.breaking_loop(depth + 1),
                _ => self.simple(),
            }
        }
    }

    /// `SSY end; @P0 BRA then; else…; SYNC; then: …; SYNC; end:` — the if-then-else shape
    /// nvcc emits for Fermi–Pascal.
    fn if_else(&mut self, depth: u32) {
        let (then_l, end_l) = (self.label("then"), self.label("end"));
        self.condition();
        self.line(&format!("SSY {end_l};"));
        self.line(&format!("@P0 BRA {then_l};"));
        let n = self.below(3);
        self.block(depth, n);
        self.line("SYNC;");
        self.line(&format!("{then_l}:"));
        let n = 1 + self.below(3);
        self.block(depth, n);
        self.line("SYNC;");
        self.line(&format!("{end_l}:"));
    }

    /// A bottom-tested loop with a uniform counter: the head executes `trips` times.
    fn counted_loop(&mut self, depth: u32) {
        let head = self.label("loop");
        let trips = 1 + self.below(4);
        let counter = 10 + depth;
        self.line(&format!("MOV32I R{counter}, 0x0;"));
        self.line(&format!("{head}:"));
        self.loops.insert(head.clone(), trips);
        let n = 1 + self.below(3);
        self.block(depth, n);
        self.line(&format!("IADD32I R{counter}, R{counter}, 0x1;"));
        self.line(&format!(
            "ISETP.LT.U32.AND P1, PT, R{counter}, 0x{trips:x}, PT;"
        ));
        self.line(&format!("@P1 BRA {head};"));
    }
}

impl Gen {
    /// `PBK exit; loop: …; @P0 BRK; …; @P1 BRA loop; BRK; exit:` — a counted loop that the
    /// threads for which a (possibly divergent) condition holds leave early.
    fn breaking_loop(&mut self, depth: u32) {
        let (head, exit) = (self.label("loop"), self.label("exit"));
        let trips = 1 + self.below(4);
        let counter = 10 + depth;
        self.line(&format!("PBK {exit};"));
        self.line(&format!("MOV32I R{counter}, 0x0;"));
        self.line(&format!("{head}:"));
        self.loops.insert(head.clone(), trips);
        let n = 1 + self.below(2);
        self.block(depth, n);
        self.condition();
        self.line("@P0 BRK;");
        let n = self.below(2);
        self.block(depth, n);
        self.line(&format!("IADD32I R{counter}, R{counter}, 0x1;"));
        self.line(&format!(
            "ISETP.LT.U32.AND P1, PT, R{counter}, 0x{trips:x}, PT;"
        ));
        self.line(&format!("@P1 BRA {head};"));
        self.line("BRK;");
        self.line(&format!("{exit}:"));
    }
}

/// A kernel: prologue (thread index, addresses `in + 4·tid` and `out + 4·tid`, the uniform
/// parameter), the random body, the final store and EXIT. Returns the text and loop bounds.
pub fn generate(shape: &Shape) -> (String, BTreeMap<String, u64>, u32) {
    let mut g = Gen {
        rng: sim::SplitMix64::new(shape.seed),
        shape: shape.clone(),
        out: String::new(),
        labels: 0,
        loops: BTreeMap::new(),
        branches: 0,
    };
    for l in [
        "S2R R0, SR_TID.X;",
        "SHL R1, R0, 0x2;",
        "IADD R2, R1, c[0x0][0x144];",
        "IADD R1, R1, c[0x0][0x140];",
        "MOV R3, c[0x0][0x148];",
        "MOV R5, RZ;",
        "MOV R6, RZ;",
        "MOV R7, RZ;",
    ] {
        g.line(l);
    }
    let n = 1 + g.below(5);
    g.block(0, n);
    g.line("STG [R2], R6;");
    g.line("EXIT;");
    (g.out, g.loops, g.branches)
}

pub fn memory(seed: u64) -> MemoryInit {
    MemoryInit {
        arrays: vec![
            ArrayInit {
                name: "in".into(),
                address: 0x1000,
                words: 32,
                fill: Fill::Random { seed, below: 1000 },
            },
            ArrayInit {
                name: "out".into(),
                address: 0x2000,
                words: 32,
                fill: Fill::Constant { value: 0 },
            },
        ],
        open: None,
    }
}

/// The warp-CFG + IPET bound of `src` under unit cost, loop heads bounded by their trip
/// counts (as warp_mode.rs does it, directly with cfg::build and ipet::solve).
pub fn ipet_bound(src: &str, loops: &BTreeMap<String, u64>) -> Result<u64, String> {
    ipet_bound_with(&kernel(src), loops, |_, g, w| {
        Ok(w.nodes
            .iter()
            .map(|n| n.block.map_or(0, |b| g.blocks[b].len() as u64))
            .collect())
    })
}

/// The warp-CFG + IPET bound of `k` with each node of its warp-level CFG costed by
/// `node_costs`, loop heads bounded by their trip counts.
pub fn ipet_bound_with(
    k: &Kernel,
    loops: &BTreeMap<String, u64>,
    node_costs: impl Fn(&Kernel, &isa::BlockGraph, &cfg::WarpCfg) -> Result<Vec<u64>, String>,
) -> Result<u64, String> {
    let k = k.clone();
    let g = isa::blocks::build(&k, &isa::Limits::default());
    let w = cfg::build(&k, &g, &cfg::Options::default()).map_err(|d| d.to_string())?;
    let costs = node_costs(&k, &g, &w)?;
    let c = ipet::Cfg {
        costs,
        edges: w.edges.iter().map(|e| (e.from, e.to)).collect(),
        entry: w.entry,
        exits: vec![w.exit],
    };
    let by_address: BTreeMap<u64, u64> = loops
        .iter()
        .filter_map(|(l, &n)| k.labels.get(l).map(|&a| (a, n)))
        .collect();
    let mut per_header = BTreeMap::new();
    for l in ipet::find_loops(&c) {
        for &h in &l.entry_nodes {
            let addr = w.nodes[h]
                .block
                .map(|b| k.instructions[g.blocks[b].first].address);
            if let Some(n) = addr.and_then(|a| by_address.get(&a)) {
                per_header.insert(h, *n);
            }
        }
    }
    let bounds = ipet::LoopBounds {
        per_header,
        default: None,
    };
    ipet::solve(&c, &bounds, &ipet::Budget::default())
        .map(|s| s.safe_bound())
        .map_err(|e| e.to_string())
}

pub fn single_warp(threads: u32, uniform: u32) -> Launch {
    Launch {
        block: [threads, 1, 1],
        params: vec![0x1000, 0x2000, uniform],
        ..Launch::default()
    }
}

/// The soundness harnesses' cases: a generated kernel's knobs (nesting depth below 4, the
/// percent of divergent branches and of memory instructions, a seed) and its launch (threads
/// of the one warp, the uniform parameter).
pub fn cases() -> impl Strategy<Value = (Shape, u32, u32)> {
    (
        0u32..4,
        0u32..=100,
        0u32..=60,
        any::<u64>(),
        1u32..=32,
        0u32..40,
    )
        .prop_map(|(depth, divergent, memory, seed, threads, uniform)| {
            let shape = Shape {
                depth,
                divergent,
                memory,
                seed,
            };
            (shape, threads, uniform)
        })
}

/// A case's verdict from `(observed, bound, branches and loops)`: a failed check fails the
/// case, and a straight-line kernel (no branch, no loop: the only path is the one executed)
/// must reach its bound exactly.
pub fn verdict(checked: Result<(u64, u64, u32), String>) -> Result<(), TestCaseError> {
    let (observed, bound, control) = checked.map_err(TestCaseError::fail)?;
    if control == 0 {
        prop_assert_eq!(observed, bound);
    }
    Ok(())
}
