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

/// Runs `body` as a kernel of one thread for `arch` (`sm_61`, `sm_86`, …) with launch
/// parameters `params` on the `gpgpusim-like` preset: `in[0..8]` are loaded into R10..R17
/// before it, R20..R23 stored to `out[0..4]` after it; returns `out`.
pub fn eval_one_thread(
    arch: &str,
    body: &str,
    inputs: &[u32],
    params: &[u32],
) -> Result<Vec<u32>, String> {
    let mut src = format!("code for {arch}\n");
    for i in 0..inputs.len().min(8) {
        src += &format!("LDG R{}, [0x{:x}];\n", 10 + i, 0x1000 + 4 * i);
    }
    src += body;
    for i in 0..4 {
        src += &format!("STG [0x{:x}], R{};\n", 0x2000 + 4 * i, 20 + i);
    }
    src += "EXIT;\n";
    let launch = Launch {
        block: [1, 1, 1],
        params: params.to_vec(),
        ..Launch::default()
    };
    let s = run(
        &src,
        &launch,
        &preset("gpgpusim-like"),
        &in_out_memory(inputs, 4),
    )
    .map_err(|e| e.to_string())?;
    Ok(array(&s, "out").to_vec())
}
