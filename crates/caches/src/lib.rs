//! Huangfu's cache analyses: L1 bypass heuristic, reuse distance, L1 miss estimation under reordering, shared-LLC Simple and Access-Interval methods
//!
//! Under construction.
