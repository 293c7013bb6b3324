//! NVIDIA PTX. Parser under construction (issue #8).
