// The version of the request and report JSON shapes the page speaks: Rust's
// `warpbound::SCHEMA_VERSION` (crates/warpbound/src/schema.rs), which the engine's catalog
// states as `schema_version` (tests/pkg checks the two agree). The page needs it before the
// engine has loaded — the examples' requests, a link read back — so it is written here, once.

/** The `schema_version` of every request the page sends and every link it reads. */
export const SCHEMA_VERSION = 1;
