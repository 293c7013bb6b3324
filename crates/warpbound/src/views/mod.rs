//! Report views: flat, JSON-friendly copies of analysis results for the page to render —
//! diagnostics ([`diagnostics`], [`dialect_marks`]), instruction tables ([`kernel`],
//! [`instruction_parts`]), graph drawings ([`graph`], [`drawing`]), Gantt charts
//! ([`schedule`]), line charts ([`plot`]), a kernel's occupancy ([`occupancy`]), a simulator
//! run ([`sim_parts`], [`sim_machine`], [`sim_stepper`]) and a Sim-D analysis and execution
//! ([`simd_parts`], [`simd_code`], [`simd_run`]). They shape data and lay it out; they
//! decide nothing.

pub mod block_parts;
pub mod diagnostics;
pub mod dialect_marks;
pub mod drawing;
pub mod graph;
pub mod instruction_parts;
pub mod kernel;
pub mod launch_parts;
pub mod makespan_parts;
pub mod occupancy;
pub mod plot;
pub mod pws_parts;
pub mod rr_caps;
pub mod rr_parts;
pub mod schedule;
pub mod sim_machine;
pub mod sim_parts;
pub mod sim_stepper;
pub mod simd_code;
pub mod simd_parts;
pub mod simd_run;
pub(crate) mod wire_view;
