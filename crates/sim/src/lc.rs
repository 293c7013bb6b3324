//! L/C instruction strings (Berezovskyi, Bletsas, Andersson, ECRTS 2012, §3) in the
//! simulator: each `L` is a load/store instruction and each `C` a CUDA-core instruction,
//! straight-line, with no data effect. Simulated with the [`crate::presets`] `makespan`
//! machine this is the paper's setting — `W` identical warps (the launch's warp count),
//! work-conserving issue, one cycle per sub-warp instruction, σ from the unit counts — so
//! the observed makespan of one schedule can be checked against the worst case the
//! `makespan` crate computes (observed ≤ exact).
//!
//! `L` runs in timing class `Global` and `C` in `Alu`, which is how the `makespan` preset maps
//! classes to load/store units and cores. The warp ends with its last instruction (the
//! paper's strings have no explicit exit).

use crate::cycle_loop::Request;
use crate::ptx::front_end::{self, Program};
use crate::ptx::program::{Ctl, Decoded, Exec, Op};
use crate::{Budget, Launch, Machine, MemoryInit, SimError, Simulation};
use cfg::TimingClass;
use isa::lc::LcOp;
use isa::progress::Observer;
use isa::Span;

/// The timing class of a letter: `L` on the load/store units (`Global`), `C` on the cores
/// (`Alu`).
pub(crate) fn class_of(op: LcOp) -> TimingClass {
    match op {
        LcOp::L => TimingClass::Global,
        LcOp::C => TimingClass::Alu,
    }
}

/// Simulates the string `ops` (written at `span`); see [`crate::run_lc`].
pub(crate) fn run(
    ops: &[LcOp],
    span: Span,
    launch: &Launch,
    machine: &Machine,
    budget: &Budget,
    observer: Observer,
) -> Result<Simulation, SimError> {
    let n = ops.len();
    let code: Vec<Decoded> = ops
        .iter()
        .enumerate()
        .map(|(i, op)| Decoded {
            exec: Ok(Exec {
                op: Op::Nop,
                ctl: if i + 1 == n { Ctl::Exit } else { Ctl::Next },
                guard: None,
                reads: Vec::new(),
                writes: Vec::new(),
            }),
            class: class_of(*op),
            span: Span::new(span.line, span.column.saturating_add(i as u32), 1),
            text: match op {
                LcOp::L => "L".into(),
                LcOp::C => "C".into(),
            },
        })
        .collect();
    let ipdom = vec![None; n];
    let p = Program {
        code: &code,
        ipdom: &ipdom,
        registers: 0,
        shared_static: 0,
    };
    let memory = MemoryInit::default();
    let req = Request::new(launch, machine, &memory, budget, observer);
    front_end::run(&p, &req)
}
