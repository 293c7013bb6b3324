//! SASS simulation (issue #7): Kepler–Hopper SASS kernels ([`isa::Kernel`]) decoded once
//! (`decode`: operands, constant bank 0, control), executed per active lane (`semantics`),
//! and run by the shared cycle loop through the SASS front end (`front_end`: general,
//! predicate and (sm_75+) uniform registers, the activation stack of
//! `cfg::activation_stack` with the convergence barriers and `WARPSYNC` of sm_70+).

mod control_issue;
mod decode;
mod executable;
mod front_end;
mod lane_memory;
pub(crate) mod local_memory;
mod semantics;
mod step_values;
mod texture_access;

pub(crate) use front_end::run;

/// The instructions of `kernel` that do not decode for `launch` (see [`crate::sass_coverage`]).
pub(crate) fn undecodable(
    kernel: &isa::Kernel,
    launch: &crate::Launch,
) -> Vec<(isa::Span, String)> {
    decode::decode(kernel, launch)
        .into_iter()
        .filter_map(Result::err)
        .collect()
}
