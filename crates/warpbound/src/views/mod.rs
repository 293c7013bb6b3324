//! Report views: flat, JSON-friendly copies of analysis results for the page to render —
//! instruction tables ([`kernel`]), graph drawings ([`graph`]), Gantt charts ([`schedule`]),
//! line charts ([`plot`]) and a kernel's occupancy ([`occupancy`]). They shape data and lay
//! it out; they decide nothing.

pub mod block_parts;
pub mod graph;
pub mod kernel;
pub mod launch_parts;
pub mod makespan_parts;
pub mod occupancy;
pub mod plot;
pub mod pws_parts;
pub mod rr_caps;
pub mod rr_parts;
pub mod schedule;
