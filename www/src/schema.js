// The version of the request and report JSON shapes the page speaks: Rust's
// `warpbound::SCHEMA_VERSION` (crates/warpbound/src/schema.rs), which the engine's catalog
// states as `schema_version` (tests/pkg checks the two agree). The page needs it before the
// engine has loaded — the examples' requests, a link read back — so it is written here, once.

/** The `schema_version` of every request the page sends. */
export const SCHEMA_VERSION = 3;

/**
 * The request versions a link may hold: versions 2 and 3 changed the report only (the mode
 * details under `details`, then their wire types), so a version-1 or version-2 link's request
 * is read as it is (`READABLE_REQUEST_VERSIONS` in crates/warpbound/src/schema.rs).
 */
export const READABLE_REQUEST_VERSIONS = [1, 2, 3];
