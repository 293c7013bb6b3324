// A report's mode details (schema version 2): one object under `report.details`, keyed by
// the mode that ran (`details.pws`, `details['warp-cfg']`, …). The `block` mode's details
// hold the warp-level details of its warps.

/** The details of `mode` in report `r`, or undefined when another mode ran. */
export function details(r, mode) {
  return r && r.details ? r.details[mode] : undefined;
}

/** The warp-level CFG details: `warp-cfg`'s own, or those of a `block` or `launch` run's warps. */
export function warpCfgDetails(r) {
  return details(r, 'warp-cfg') || (details(r, 'block') || details(r, 'launch') || {})['warp-cfg'];
}

/** The Sim-D execution of a `simd` run with `simulate=true`, or undefined. */
export function simdExecution(r) {
  return (details(r, 'simd') || {}).execution;
}
