//! Sim-D assembly (`.sas`). Parser under construction (issue #9).
