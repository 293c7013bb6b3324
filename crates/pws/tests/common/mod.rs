//! Shared test helpers: corpus access and a generator of random structured wavefront
//! graphs (sequences, if-then-else with BSB and reconvergence, if-then, uniform branches,
//! nesting).

#![allow(dead_code)]

use std::path::PathBuf;

use pws::{Node, NodeKind, WavefrontCfg};

pub fn corpus() -> PathBuf {
    std::env::var_os("WARPBOUND_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"))
}

/// Every `.csv` under `pws/rodinia` and `pws/synthetic`, sorted.
pub fn corpus_csvs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in ["pws/rodinia", "pws/synthetic"] {
        let dir = corpus().join(sub);
        let rd = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().and_then(|x| x.to_str()) == Some("csv") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

pub fn read(path: &std::path::Path) -> WavefrontCfg {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    pws::read_csv(&text, 1_000_000).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Tiny deterministic generator (xorshift64*), so proptest only has to supply a seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
}

enum Shape {
    Block,
    IfElse(Vec<Shape>, Vec<Shape>),
    IfThen(Vec<Shape>),
    Uniform(Vec<Shape>, Vec<Shape>),
}

fn gen_seq(rng: &mut Rng, depth: u32, budget: &mut u32) -> Vec<Shape> {
    let len = 1 + rng.below(3) as usize;
    let mut out = Vec::new();
    for _ in 0..len {
        if *budget == 0 || depth == 0 {
            out.push(Shape::Block);
            continue;
        }
        match rng.below(6) {
            0 | 1 => out.push(Shape::Block),
            2 | 3 => {
                *budget -= 1;
                let a = gen_seq(rng, depth - 1, budget);
                let b = gen_seq(rng, depth - 1, budget);
                out.push(Shape::IfElse(a, b));
            }
            4 => {
                *budget -= 1;
                out.push(Shape::IfThen(gen_seq(rng, depth - 1, budget)));
            }
            _ => {
                *budget -= 1;
                let a = gen_seq(rng, depth - 1, budget);
                let b = gen_seq(rng, depth - 1, budget);
                out.push(Shape::Uniform(a, b));
            }
        }
    }
    out
}

struct Emitter<'a> {
    nodes: Vec<Node>,
    rng: &'a mut Rng,
    max_cost: u64,
}

impl Emitter<'_> {
    fn node(&mut self, kind: NodeKind) -> usize {
        let cost = self.rng.below(self.max_cost + 1);
        let id = self.nodes.len();
        self.nodes.push(Node::new(format!("n{id}"), cost, kind));
        id
    }
    fn edge(&mut self, u: usize, v: usize) {
        self.nodes[u].successors.push(v);
    }
    /// Emits a sequence; returns (first, last).
    fn seq(&mut self, seq: &[Shape]) -> (usize, usize) {
        let mut first = None;
        let mut last: Option<usize> = None;
        for s in seq {
            let (f, l) = self.shape(s);
            if let Some(p) = last {
                self.edge(p, f);
            }
            first.get_or_insert(f);
            last = Some(l);
        }
        match (first, last) {
            (Some(f), Some(l)) => (f, l),
            _ => {
                let b = self.node(NodeKind::Plain);
                (b, b)
            }
        }
    }
    fn shape(&mut self, s: &Shape) -> (usize, usize) {
        match s {
            Shape::Block => {
                let b = self.node(NodeKind::Plain);
                (b, b)
            }
            Shape::IfElse(a, b) => {
                let u = self.node(NodeKind::Branch);
                let (a0, a1) = self.seq(a);
                let bsb = self.node(NodeKind::Bsb);
                let (b0, b1) = self.seq(b);
                let r = self.node(NodeKind::Reconv);
                self.edge(u, a0);
                self.edge(u, bsb);
                self.edge(a1, bsb);
                self.edge(bsb, b0);
                self.edge(bsb, r);
                self.edge(b1, r);
                (u, r)
            }
            Shape::IfThen(a) => {
                let u = self.node(NodeKind::Branch);
                let (a0, a1) = self.seq(a);
                let r = self.node(NodeKind::Reconv);
                self.edge(u, a0);
                self.edge(u, r);
                self.edge(a1, r);
                (u, r)
            }
            Shape::Uniform(a, b) => {
                let u = self.node(NodeKind::Plain);
                let (a0, a1) = self.seq(a);
                let (b0, b1) = self.seq(b);
                let j = self.node(NodeKind::Plain);
                self.edge(u, a0);
                self.edge(u, b0);
                self.edge(a1, j);
                self.edge(b1, j);
                (u, j)
            }
        }
    }
}

/// A random structured wavefront CFG with at most `max_branches` branch constructs, costs
/// in `0..=max_cost`, and each divergent branch marked with probability 1/2.
pub fn random_graph(seed: u64, max_branches: u32, max_cost: u64) -> WavefrontCfg {
    let mut rng = Rng::new(seed);
    let mut budget = max_branches;
    let shapes = gen_seq(&mut rng, 4, &mut budget);
    let mut em = Emitter {
        nodes: Vec::new(),
        rng: &mut rng,
        max_cost,
    };
    let (first, _) = em.seq(&shapes);
    let mut nodes = em.nodes;
    for n in &mut nodes {
        n.reconv = n.kind == NodeKind::Reconv;
    }
    let mut mark_rng = Rng::new(seed.rotate_left(17) ^ 0x9E37_79B9);
    for n in &mut nodes {
        if n.kind == NodeKind::Branch && mark_rng.below(2) == 0 {
            n.marked = true;
        }
    }
    WavefrontCfg {
        nodes,
        entry: first,
    }
}
