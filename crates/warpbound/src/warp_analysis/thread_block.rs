//! A thread block's size as the modes that take one (`block`, `launch`) read it: CUDA's
//! limit on its threads and its number of warps.

use isa::{Diagnostic, Severity};

/// Threads per warp of every SASS target.
pub(crate) const WARP_SIZE: u64 = 32;

/// CUDA's limit on the threads of one block (every architecture since Fermi).
pub(crate) const MAX_THREADS: u64 = 1024;

/// The threads and warps of a block of dimensions `dims`, or the error when it has more
/// threads than a block may.
pub(crate) fn threads_and_warps(dims: &[u32; 3]) -> Result<(u64, u64), Diagnostic> {
    let threads: u64 = dims.iter().map(|&d| u64::from(d)).product();
    if threads > MAX_THREADS {
        return Err(Diagnostic::global(
            Severity::Error,
            format!(
                "parameter `block`: {threads} threads; a thread block has at most {MAX_THREADS}"
            ),
        ));
    }
    Ok((threads, threads.div_ceil(WARP_SIZE)))
}
