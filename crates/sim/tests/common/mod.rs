//! Shared helpers: parse SASS text and run it.

#![allow(dead_code)]

pub mod generated;

use isa::{Kernel, Limits};
use sim::{Budget, Launch, Machine, MemoryInit, SimError, Simulation};

pub fn kernel(src: &str) -> Kernel {
    let out = isa::sass::parse(src, None, &Limits::default());
    assert!(!out.has_errors(), "{:?}", out.diagnostics);
    out.kernel.expect("kernel")
}

pub fn run(
    src: &str,
    launch: &Launch,
    machine: &Machine,
    memory: &MemoryInit,
) -> Result<Simulation, SimError> {
    sim::run(&kernel(src), launch, machine, memory, &Budget::default())
}

pub fn preset(name: &str) -> Machine {
    sim::presets()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.machine)
        .expect("preset")
}

pub fn array<'a>(s: &'a Simulation, name: &str) -> &'a [u32] {
    &s.memory
        .iter()
        .find(|a| a.name == name)
        .expect("array")
        .words
}

/// Global memory of the semantics tests: `in` at 0x1000 holding `inputs`, `out` at 0x2000
/// of `out_words` zero words.
pub fn in_out_memory(inputs: &[u32], out_words: u32) -> MemoryInit {
    MemoryInit {
        arrays: vec![
            sim::ArrayInit {
                name: "in".into(),
                address: 0x1000,
                words: inputs.len().max(1) as u32,
                fill: sim::Fill::Words {
                    values: inputs.to_vec(),
                },
            },
            sim::ArrayInit {
                name: "out".into(),
                address: 0x2000,
                words: out_words,
                fill: sim::Fill::Constant { value: 0 },
            },
        ],
        open: None,
    }
}
