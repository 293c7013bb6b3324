//! The linked image of a function: its instructions followed by those of every function it
//! calls, directly or not, once each — what a program counter walks when calls are followed
//! (the simulator, the straight-line path of the `makespan` reduction).
//!
//! Branch targets are re-indexed into the image, and every [`GcnControl::Call`] and
//! [`GcnControl::TailCall`] to a function of the listing gets the index of the callee's
//! first instruction as `target_index`; calls to symbols the listing does not define keep
//! `None` (their users report [`GcnProgram::callee`]'s message when they reach one).

use super::program::{GcnControl, GcnFunction, GcnProgram};

/// One function's place in a [`Linked`] image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    pub name: String,
    /// Index of its first instruction in the image.
    pub start: usize,
    pub len: usize,
}

/// A function linked with its callees.
#[derive(Debug, Clone, PartialEq)]
pub struct Linked {
    /// The image: named after the entry function, whose code comes first (index 0).
    pub function: GcnFunction,
    /// The functions in the image, entry first.
    pub parts: Vec<Part>,
}

impl Linked {
    /// The function and the index within it of image instruction `i`.
    pub fn locate(&self, i: usize) -> Option<(&str, usize)> {
        self.parts
            .iter()
            .find(|p| i >= p.start && i < p.start + p.len)
            .map(|p| (p.name.as_str(), i - p.start))
    }
}

/// Links `entry` (a function of `program`) with every function it reaches through calls.
/// Each function is copied once, so recursion needs no special case here.
pub fn link(program: &GcnProgram, entry: &GcnFunction) -> Linked {
    let mut order: Vec<&GcnFunction> = vec![entry];
    let mut next = 0;
    while next < order.len() {
        let f = order[next];
        next += 1;
        for name in f.callees() {
            if let Ok(g) = program.callee(name) {
                if !order.iter().any(|h| h.name == g.name) {
                    order.push(g);
                }
            }
        }
    }
    let mut parts = Vec::with_capacity(order.len());
    let mut start = 0;
    for f in &order {
        parts.push(Part {
            name: f.name.clone(),
            start,
            len: f.instructions.len(),
        });
        start += f.instructions.len();
    }
    let entry_of = |name: &str| {
        parts
            .iter()
            .find(|p| p.name == name && p.len > 0)
            .map(|p| p.start)
    };
    let mut image = GcnFunction {
        name: entry.name.clone(),
        span: entry.span,
        instructions: Vec::with_capacity(start),
        labels: Default::default(),
        label_spans: Default::default(),
        block_comments: Default::default(),
        kernel: entry.kernel,
        descriptor: entry.descriptor.clone(),
    };
    for (f, part) in order.iter().zip(&parts) {
        let off = part.start;
        for ins in &f.instructions {
            let mut ins = ins.clone();
            match &mut ins.control {
                GcnControl::ScalarBranch { target_index, .. }
                | GcnControl::ExecBranch { target_index, .. }
                | GcnControl::Jump { target_index, .. } => {
                    *target_index = target_index.map(|t| t + off);
                }
                GcnControl::Call {
                    callee,
                    target_index,
                    ..
                }
                | GcnControl::TailCall {
                    callee,
                    target_index,
                } => {
                    *target_index = entry_of(callee);
                }
                _ => {}
            }
            image.instructions.push(ins);
        }
        for (l, &i) in &f.labels {
            image.labels.entry(l.clone()).or_insert(i + off);
        }
        for (l, s) in &f.label_spans {
            image.label_spans.entry(l.clone()).or_insert(*s);
        }
        for (&i, c) in &f.block_comments {
            image.block_comments.insert(i + off, c.clone());
        }
    }
    Linked {
        function: image,
        parts,
    }
}
