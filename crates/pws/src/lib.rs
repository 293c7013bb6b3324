//! Predictable wavefront splitting on GCN3 (Klashtorny et al.): wavefront CFG with branch serialization blocks, Select/Prune, kernel WCET for no splitting, DWS and PWS, optimal split selection
//!
//! Under construction.
