//! Huangfu's PTX kernel analyzer, pure round-robin timing model, coalescing and competing-SM estimates
//!
//! Under construction.
