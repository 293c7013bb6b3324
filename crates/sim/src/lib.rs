//! A cycle-level SIMT simulator (issue #7). Under construction.
