//! The version of the API's serde shapes (request, report, catalogue). A leaf: the modules
//! that read or write the version import it from here, not from the crate root, whose
//! re-exports import them.

/// Version of the request and report JSON shapes: it changes whenever a field changes
/// meaning or disappears; adding fields does not change it.
pub const SCHEMA_VERSION: u32 = 1;
