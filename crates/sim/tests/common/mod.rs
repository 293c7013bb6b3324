//! Shared helpers: parse SASS text and run it.

#![allow(dead_code)]

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
