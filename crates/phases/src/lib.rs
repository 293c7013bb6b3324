//! Sim-D phase-based WCET (Spliet & Mullins): DRAM timing, compute cost, DAG unrolling, phase lists, kernel WCET bounds
//!
//! Under construction.
