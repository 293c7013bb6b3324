//! The version of the API's serde shapes (request, report, catalogue). A leaf: the modules
//! that read or write the version import it from here, not from the crate root, whose
//! re-exports import them.

/// Version of the request and report JSON shapes: it changes whenever a field changes
/// meaning or disappears; adding fields does not change it.
///
/// 2: the report's per-mode keys (`warp-cfg`, `block`, `makespan`, `simd`, `simd_execution`,
/// `pws`, `rr`) became one `details` object tagged by `mode`, with the facade's own view
/// types. Requests did not change: a version-1 request is read as a version-2 one, so old
/// permalinks (which hold requests) still open.
///
/// 3: `details.pws` and `details.rr` in the facade's own wire types (`views::pws_parts`,
/// `views::rr_parts`) instead of the method crates' serde output: their warnings and notes
/// only in the report's `diagnostics`; `rr` names a warp by `block`, `warp` and `sm` first in
/// every row, writes the LLC method as `llc.method` (a name) and `llc.quota`, and lists a
/// competing-SM row's and a cache line's verdict before its inputs. Requests did not change.
pub const SCHEMA_VERSION: u32 = 3;

/// Request versions this build reads: every version whose request shape is today's.
pub const READABLE_REQUEST_VERSIONS: [u32; 3] = [1, 2, 3];
