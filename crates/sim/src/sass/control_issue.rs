//! Issue by the control bits (`Machine::control_bits`, issue #42): the timing model of
//! `cfg::control`, executed. Per instruction, what its bits ask of the warp; per warp, when
//! each scoreboard barrier clears.
//!
//! A warp's next instruction issues no earlier than `max(stall, 1)` cycles after this one
//! (`Sm::issued_at` keeps `next_issue`), and only once every barrier its wait mask (and a
//! `DEPBAR`'s operand) names has cleared; a barrier an instruction sets clears when that
//! instruction's result is written (its latency after its issue). For the run's end an
//! instruction is complete when the warp may issue again (its stall) and the barriers it set
//! have cleared. That is the analysis's model to the cycle (its path's stalls and waits, then
//! what is still in flight), so for one warp in isolation a straight-line run equals its
//! bound.

use cfg::control::BARRIERS;
use isa::{Kernel, Span};

/// What one instruction's control bits ask (`None`: it has none).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ControlIssue {
    /// Barriers (bit *b*) that must be clear before it issues.
    pub waits: u8,
    /// Cycles before the warp's next instruction (at least 1).
    pub stall: u64,
    pub write_barrier: Option<u8>,
    pub read_barrier: Option<u8>,
}

/// Per instruction of `kernel`, its control bits read for issue.
pub(crate) fn of(kernel: &Kernel) -> Vec<Option<ControlIssue>> {
    kernel
        .instructions
        .iter()
        .map(|ins| {
            let bits = ins.control_bits?;
            Some(ControlIssue {
                waits: cfg::control::waits(ins),
                stall: u64::from(bits.stall.max(1)),
                write_barrier: bits.write_barrier,
                read_barrier: bits.read_barrier,
            })
        })
        .collect()
}

/// The message of a run under control bits that reaches an instruction without them.
pub(crate) fn missing(span: Span, opcode: &str) -> (Span, String) {
    (
        span,
        format!(
            "cannot issue {opcode} by its control bits: the listing gives none (issue by \
             control bits needs the encodings, as `cuobjdump -sass` prints them)"
        ),
    )
}

/// The cycle every barrier of `mask` has cleared, from a warp's clear cycles.
pub(crate) fn clear_at(barriers: &[u64; BARRIERS], mask: u8) -> u64 {
    (0..BARRIERS)
        .filter(|b| mask >> b & 1 == 1)
        .map(|b| barriers[b])
        .max()
        .unwrap_or(0)
}

/// After an issue that completes at `complete`: the barriers it set clear then.
pub(crate) fn set(barriers: &mut [u64; BARRIERS], c: &ControlIssue, complete: u64) {
    for b in [c.write_barrier, c.read_barrier].into_iter().flatten() {
        if let Some(t) = barriers.get_mut(usize::from(b)) {
            *t = (*t).max(complete);
        }
    }
}
